use super::*;

/// A coupled increase that is exact in binary floating point.
const INC: f64 = 0.25;

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-12
}

fn path(w: f64) -> PathCongestion {
    PathCongestion::default().with_cwnd(w)
}

fn send(p: &mut PathCongestion, segs: std::ops::RangeInclusive<u64>) {
    for seg in segs {
        p.on_sent(seg);
    }
}

/// Producer Data; returns the segments it revealed lost.
fn producer(p: &mut PathCongestion, seg: u64) -> Vec<u64> {
    let mut lost = Vec::new();
    p.on_data(seg, true, INC, &mut lost);
    lost
}

/// A timeout of `seg`; returns the rest of the flight it ended.
fn timeout(p: &mut PathCongestion, seg: u64) -> Vec<u64> {
    let mut lost = Vec::new();
    p.on_timeout(seg, &mut lost);
    lost
}

fn cache(p: &mut PathCongestion, seg: u64) -> Vec<u64> {
    let mut lost = Vec::new();
    p.on_data(seg, false, INC, &mut lost);
    lost
}

/// A path in congestion avoidance at window `w`: slow start with ssthresh `w - 1`, one Data.
fn in_avoidance(w: f64) -> PathCongestion {
    let mut p = PathCongestion::new(MpccpConfig { initial_ssthresh: w - 1.0, ..MpccpConfig::PTP }).with_cwnd(w - 1.0);
    p.on_sent(0);
    assert!(producer(&mut p, 0).is_empty());
    assert_eq!(p.phase(), PathPhase::CongestionAvoidance);
    assert_eq!(p.cwnd(), w);
    p
}

#[test]
fn defaults_are_the_papers() {
    let c = MpccpConfig::default();
    assert_eq!((c.beta, c.initial_window, c.min_window, c.min_ssthresh), (0.75, 1.0, 1.0, 2.0));
    assert_eq!(c.initial_ssthresh, f64::INFINITY);
    let p = PathCongestion::default();
    assert_eq!((p.cwnd(), p.phase(), p.in_flight()), (1.0, PathPhase::SlowStart, 0));
}

#[test]
fn slow_start_doubles_per_rtt() {
    let mut p = PathCongestion::default();
    let mut next = 1;
    // Each round sends what the window admits and gets every Data back from the producer, in order.
    for expected in [2.0, 4.0, 8.0, 16.0] {
        let first = next;
        while p.has_room() {
            p.on_sent(next);
            next += 1;
        }
        for seg in first..next {
            assert!(producer(&mut p, seg).is_empty());
        }
        assert_eq!(p.cwnd(), expected);
        assert_eq!(p.in_flight(), 0);
    }
    assert_eq!(p.phase(), PathPhase::SlowStart);
    // A cache Data adds 1/cwnd: 16 + 1/16.
    p.on_sent(next);
    assert!(cache(&mut p, next).is_empty());
    assert_eq!(p.cwnd(), 16.0625);
}

#[test]
fn slow_start_ends_at_ssthresh() {
    let mut p = PathCongestion::new(MpccpConfig { initial_ssthresh: 3.0, ..MpccpConfig::PTP });
    send(&mut p, 1..=3);
    producer(&mut p, 1); // 2 < 3
    assert_eq!(p.phase(), PathPhase::SlowStart);
    producer(&mut p, 2); // 3 >= 3: Condition III
    assert_eq!(p.phase(), PathPhase::CongestionAvoidance);
    producer(&mut p, 3);
    assert_eq!(p.cwnd(), 3.0 + INC);
}

#[test]
fn reordered_producer_data_reveals_the_earlier_losses() {
    let mut p = path(8.0);
    send(&mut p, 1..=5);
    assert_eq!(producer(&mut p, 3), vec![1, 2]);
    // 8 * 0.75 = 6; the revealing Data does not also grow the window.
    assert_eq!(p.cwnd(), 6.0);
    assert_eq!(p.ssthresh(), 6.0);
    assert_eq!(p.cwnd_bk(), 6.0);
    assert_eq!(p.phase(), PathPhase::FastRecovery);
    assert_eq!(p.in_flight(), 2); // 4 and 5
    assert_eq!((p.losses_detected(), p.counters().decreases), (2, 1));
    // The lost Interests are gone: their late Data change nothing.
    assert!(producer(&mut p, 1).is_empty());
    assert_eq!((p.cwnd(), p.in_flight()), (6.0, 2));
}

#[test]
fn cache_data_out_of_order_is_not_a_loss() {
    let mut p = path(8.0);
    send(&mut p, 1..=5);
    assert!(cache(&mut p, 3).is_empty());
    assert_eq!(p.phase(), PathPhase::SlowStart);
    assert_eq!(p.cwnd(), 8.125); // + 1/8
    assert_eq!(p.in_flight(), 4);
    // A producer Data later still finds 1 and 2 unanswered; 3 came from the cache.
    assert_eq!(producer(&mut p, 4), vec![1, 2]);
    assert_eq!(p.cwnd(), 8.125 * 0.75);
    assert_eq!(p.in_flight(), 1);
    assert_eq!(p.queue.len(), 1); // only 5 left
}

#[test]
fn loss_in_fast_recovery_within_cwnd_bk_is_the_same_event() {
    let mut p = path(8.0);
    send(&mut p, 1..=10);
    assert_eq!(producer(&mut p, 3), vec![1, 2]); // cwnd = bk = 6
    producer(&mut p, 4); // + 0.25, one Data since entering fast recovery
    assert_eq!(p.cwnd(), 6.25);
    assert_eq!(producer(&mut p, 6), vec![5]);
    // 1 < 6 Data since entering: back to cwnd_bk, no second decrease.
    assert_eq!(p.cwnd(), 6.0);
    assert_eq!(p.ssthresh(), 6.0);
    assert_eq!(p.phase(), PathPhase::FastRecovery);
    assert_eq!((p.losses_detected(), p.counters().decreases), (3, 1));
}

#[test]
fn loss_in_fast_recovery_after_cwnd_bk_data_decreases_again() {
    let mut p = path(8.0);
    send(&mut p, 1..=14);
    producer(&mut p, 3); // loss: cwnd = bk = 6
    producer(&mut p, 4); // since entering 1, since loss 1
    producer(&mut p, 6); // loss of 5: reset to 6, since loss 0
    for seg in 7..=11 {
        producer(&mut p, seg); // since entering 6, since loss 5 < 6: still fast recovery
    }
    assert_eq!(p.phase(), PathPhase::FastRecovery);
    assert_eq!(p.cwnd(), 6.0 + 5.0 * INC);
    // 6 Data since entering: a new congestion event. 7.25 * 0.75 = 5.4375.
    assert_eq!(producer(&mut p, 13), vec![12]);
    assert_eq!(p.cwnd(), 5.4375);
    assert_eq!(p.ssthresh(), 5.4375);
    assert_eq!(p.cwnd_bk(), 5.4375);
    assert_eq!(p.phase(), PathPhase::FastRecovery);
    assert_eq!(p.counters().decreases, 2);
}

#[test]
fn new_reno_holds_the_window_at_ssthresh_through_fast_recovery() {
    // MPTCP's subflow (beta 0.5, NewReno) in avoidance at 8 with Interests 1-8 in flight.
    let reno = MpccpConfig { beta: 0.5, recovery: Recovery::NewReno, initial_ssthresh: 7.0, ..MpccpConfig::PTP };
    let mut p = PathCongestion::new(reno).with_cwnd(7.0);
    p.on_sent(0);
    producer(&mut p, 0);
    assert_eq!((p.cwnd(), p.phase()), (8.0, PathPhase::CongestionAvoidance));
    send(&mut p, 1..=8);
    // The Data of 2 finds 1 lost: 8 x 0.5 = 4 = ssthresh.
    assert_eq!(producer(&mut p, 2), vec![1]);
    assert_eq!((p.cwnd(), p.ssthresh()), (4.0, 4.0));
    // The rest of the flight, sent before the decrease, comes back: RFC 6582 grows nothing in
    // recovery (PTP's counted rule would add 6 x 0.25 = 1.5).
    for seg in 3..=8 {
        producer(&mut p, seg);
    }
    assert_eq!((p.cwnd(), p.phase()), (4.0, PathPhase::FastRecovery));
    // The Data of 9, sent after the decrease, ends recovery at ssthresh (step 3); the next grows.
    send(&mut p, 9..=10);
    producer(&mut p, 9);
    assert_eq!((p.cwnd(), p.phase()), (4.0, PathPhase::CongestionAvoidance));
    producer(&mut p, 10);
    assert_eq!(p.cwnd(), 4.0 + INC);
}

#[test]
fn condition_two_returns_to_avoidance_after_cwnd_bk_data_without_loss() {
    let mut p = path(8.0);
    send(&mut p, 1..=20);
    producer(&mut p, 3); // bk = 6
                         // Data from producer and cache alike count: 5 of them leave fast recovery on.
    for seg in 4..=8 {
        if seg % 2 == 0 {
            cache(&mut p, seg);
        } else {
            producer(&mut p, seg);
        }
        assert_eq!(p.phase(), PathPhase::FastRecovery);
    }
    producer(&mut p, 9); // the sixth
    assert_eq!(p.phase(), PathPhase::CongestionAvoidance);
    assert_eq!(p.cwnd(), 6.0 + 6.0 * INC);
    // A loss now is an ordinary decrease: 7.5 * 0.75 = 5.625.
    assert_eq!(producer(&mut p, 11), vec![10]);
    assert_eq!(p.cwnd(), 5.625);
    assert_eq!(p.phase(), PathPhase::FastRecovery);
}

#[test]
fn avoidance_and_recovery_use_the_coupled_increase() {
    let mut p = in_avoidance(10.0);
    send(&mut p, 1..=4);
    let mut lost = Vec::new();
    p.on_data(1, true, 0.125, &mut lost);
    assert_eq!(p.cwnd(), 10.125);
    p.on_data(2, false, 0.0625, &mut lost); // cache Data too
    assert_eq!(p.cwnd(), 10.1875);
    // A NaN increase (a caller bug) is plain TCP's 1/cwnd; a huge one is capped at 1.
    p.on_data(3, true, f64::NAN, &mut lost);
    assert!(close(p.cwnd(), 10.1875 + 1.0 / 10.1875));
    let before = p.cwnd();
    p.on_data(4, true, f64::INFINITY, &mut lost);
    assert!(close(p.cwnd(), before + 1.0));
    assert!(lost.is_empty());
    // A negative one (OLIA's largest path) shrinks the window, down to its minimum and no further.
    send(&mut p, 5..=6);
    let before = p.cwnd();
    p.on_data(5, true, -0.25, &mut lost);
    assert!(close(p.cwnd(), before - 0.25));
    p.on_data(6, true, -1e9, &mut lost);
    assert_eq!(p.cwnd(), MpccpConfig::PTP.min_window);
}

#[test]
fn timeout_halves_ssthresh_and_restarts_slow_start_from_every_phase() {
    // Slow start at 8.
    let mut p = path(8.0);
    send(&mut p, 1..=3);
    assert_eq!(timeout(&mut p, 1), vec![2, 3]);
    assert_eq!((p.cwnd(), p.ssthresh(), p.phase()), (1.0, 4.0, PathPhase::SlowStart));
    // Congestion avoidance at 10.
    let mut p = in_avoidance(10.0);
    send(&mut p, 1..=3);
    assert_eq!(timeout(&mut p, 2), vec![1, 3]);
    assert_eq!((p.cwnd(), p.ssthresh(), p.phase()), (1.0, 5.0, PathPhase::SlowStart));
    // Fast recovery at 6.
    let mut p = path(8.0);
    send(&mut p, 1..=5);
    producer(&mut p, 3);
    assert_eq!(p.phase(), PathPhase::FastRecovery);
    assert_eq!(timeout(&mut p, 5), vec![4]);
    assert_eq!((p.cwnd(), p.ssthresh(), p.phase()), (1.0, 3.0, PathPhase::SlowStart));
    // From the minimum window the threshold floors at 2: slow start still gets one doubling.
    p.on_sent(6);
    assert!(timeout(&mut p, 6).is_empty());
    assert_eq!((p.cwnd(), p.ssthresh()), (1.0, 2.0));
    assert_eq!(p.timeouts(), 2);
}

#[test]
fn a_timeout_ends_the_flight() {
    // Window 8, Interests 1..=8 in flight, no Data back: 1 times out. As TCP after its timer, the
    // whole flight is over: 2..=8 are lost (reported once, in sending order), ssthresh 8 / 2 = 4,
    // window 1, slow start, and the path has room for the first resend at once.
    let mut p = path(8.0);
    send(&mut p, 1..=8);
    assert_eq!(timeout(&mut p, 1), vec![2, 3, 4, 5, 6, 7, 8]);
    assert_eq!((p.cwnd(), p.ssthresh(), p.phase()), (1.0, 4.0, PathPhase::SlowStart));
    assert_eq!((p.in_flight(), p.losses_detected(), p.timeouts()), (0, 7, 1));
    assert!(p.has_room() && p.queue.is_empty());
    // Their timers, if they still fire, find nothing in flight: no second reaction.
    assert!(timeout(&mut p, 2).is_empty());
    assert_eq!((p.ssthresh(), p.timeouts()), (4.0, 1));
    // The resends are a new flight: slow start +1 per producer Data (2, then 3), no fast recovery.
    p.on_sent(2);
    assert!(producer(&mut p, 2).is_empty());
    send(&mut p, 3..=4);
    assert!(producer(&mut p, 3).is_empty());
    assert_eq!((p.cwnd(), p.phase(), p.counters().decreases), (3.0, PathPhase::SlowStart, 0));
    // A later timeout is a new event: 3 / 2 = 1.5, floored at 2, and it ends 5's flight too.
    p.on_sent(5);
    assert_eq!(timeout(&mut p, 4), vec![5]);
    assert_eq!((p.cwnd(), p.ssthresh(), p.timeouts()), (1.0, 2.0, 2));
}

#[test]
fn in_flight_and_room_accounting() {
    let mut p = PathCongestion::default();
    assert!(p.has_room());
    p.on_sent(1);
    assert_eq!(p.in_flight(), 1);
    assert!(!p.has_room()); // cwnd 1
    p.forget(1); // a Nack: leaves, no reaction
    assert_eq!((p.in_flight(), p.cwnd()), (0, 1.0));
    assert!(p.has_room());
    p.on_sent(2);
    producer(&mut p, 2); // cwnd 2
    assert_eq!((p.in_flight(), p.window_slots()), (0, 2));
    send(&mut p, 3..=4);
    assert!(!p.has_room());
    // Unknown, duplicate and forgotten segments change nothing.
    assert!(producer(&mut p, 99).is_empty());
    assert!(timeout(&mut p, 99).is_empty());
    p.forget(99);
    assert_eq!((p.in_flight(), p.cwnd(), p.timeouts()), (2, 2.0, 0));
    // Data and timeouts free the window.
    producer(&mut p, 3);
    assert!(timeout(&mut p, 4).is_empty());
    assert_eq!((p.in_flight(), p.cwnd(), p.ssthresh()), (0, 1.0, 2.0));
    assert!(p.has_room());
    assert!(p.queue.is_empty());
}

#[test]
fn resent_copy_orders_after_later_interests() {
    // Send 1, 2, then 1 again: the new copy of 1 is the newest, so its producer Data finds 2 lost.
    let mut p = path(4.0);
    send(&mut p, 1..=2);
    p.on_sent(1);
    assert_eq!(producer(&mut p, 1), vec![2]);
    assert_eq!(p.in_flight(), 0);
    assert!(p.queue.is_empty() && p.pending.is_empty());
}

#[test]
fn tombstones_are_dropped_when_they_reach_the_front() {
    let mut p = path(10.0);
    send(&mut p, 1..=6);
    cache(&mut p, 2);
    p.forget(3);
    p.forget(4);
    assert_eq!(p.in_flight(), 3); // 1, 5, 6
    assert_eq!(p.queue.len(), 6); // 2, 3, 4 wait behind 1
    cache(&mut p, 1);
    assert_eq!(p.queue.len(), 2); // 5, 6
    assert_eq!(p.base, 4);
    assert_eq!(producer(&mut p, 6), vec![5]);
    assert!(p.queue.is_empty() && p.pending.is_empty());
}

#[test]
fn odd_configs_are_sanitized() {
    let odd = MpccpConfig {
        beta: f64::NAN,
        initial_window: -3.0,
        min_window: f64::INFINITY,
        initial_ssthresh: f64::NAN,
        min_ssthresh: 0.0,
        recovery: Recovery::Counted,
    };
    assert_eq!(PathCongestion::new(odd).config(), &MpccpConfig::PTP);
    let c = PathCongestion::new(MpccpConfig { beta: 1.5, initial_window: 0.5, min_window: 2.0, ..MpccpConfig::PTP });
    assert_eq!((c.config().beta, c.cwnd()), (0.75, 2.0));
}

#[test]
fn random_operations_keep_the_invariants() {
    // A small LCG drives sends, Data (both kinds, odd increases), timeouts and forgets.
    let mut x: u64 = 12345;
    let mut rnd = move |n: u64| {
        x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (x >> 33) % n
    };
    let incs = [0.0, 0.1, 1.0, -1.0, f64::NAN, f64::INFINITY, 1e300];
    let mut p = PathCongestion::default();
    let mut lost = Vec::new();
    for step in 0..20_000u64 {
        let seg = rnd(64);
        match rnd(6) {
            0 | 1 => p.on_sent(step % 97),
            2 => p.on_data(seg, true, incs[rnd(incs.len() as u64) as usize], &mut lost),
            3 => p.on_data(seg, false, incs[rnd(incs.len() as u64) as usize], &mut lost),
            4 => p.on_timeout(seg, &mut lost),
            _ => p.forget(seg),
        }
        assert!(p.cwnd().is_finite() && p.cwnd() >= 1.0, "cwnd {}", p.cwnd());
        assert!(!p.ssthresh().is_nan());
        let pending = p.queue.iter().filter(|s| s.pending).count();
        assert_eq!(pending, p.in_flight());
        assert!(!matches!(p.queue.front(), Some(s) if !s.pending));
    }
    // The walk went through every kind of event.
    let c = p.counters();
    assert!(c.losses_detected > 0 && c.decreases > 0 && c.timeouts > 0);
}
