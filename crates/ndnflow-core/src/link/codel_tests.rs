//! CoDel: drop and mark instants checked against values derived by hand.

use super::*;
use crate::link::test_util::{id_of, item};

/// What one run of the standing-queue harness saw.
#[derive(Debug, Default)]
struct Run {
    /// Instants (ms) of CoDel drops.
    drops: Vec<u64>,
    /// Instants (ms) of CoDel marks.
    marks: Vec<u64>,
    enqueued: usize,
    delivered: usize,
    /// Instants (ms) at which a delivered frame carried a mark (cross-check of `Dequeued::marked`;
    /// later than `marks` when the mark rides on an arriving packet).
    frame_marks: Vec<u64>,
}

/// `preload` packets of `size` bytes arrive at 0.5 ms; then at every whole millisecond
/// 1..=`until_ms` one packet arrives and one departs (dequeue granularity 1 ms). The queue thus
/// stands at `preload` packets (less one per drop), and the head's sojourn is (t - 0.5) ms for
/// t <= preload and then `preload` ms minus one per drop so far. It first exceeds 5 ms at t = 6.
fn standing(q: &mut CodelQueue, preload: u32, size: u32, until_ms: u64, run: &mut Run) {
    let t0 = Time::from_micros(500);
    let mut id = 10_000;
    for _ in 0..preload {
        q.enqueue(t0, item(id, size, t0)).unwrap();
        id += 1;
        run.enqueued += 1;
    }
    let mut dropped = Vec::new();
    for ms in 1..=until_ms {
        let now = Time::from_millis(ms);
        q.enqueue(now, item(id, size, now)).unwrap();
        id += 1;
        run.enqueued += 1;
        let d = q.dequeue(now, &mut dropped).expect("queue is never empty here");
        run.delivered += 1;
        for _ in dropped.drain(..) {
            run.drops.push(ms);
        }
        if d.marked {
            run.marks.push(ms);
        }
        if d.item.frame.lp.congestion_mark != 0 {
            run.frame_marks.push(ms);
        }
        assert_eq!(d.sojourn, now - d.item.enqueued_at);
    }
}

/// Decision instants (ms, rounded up to the 1 ms dequeue grid) for a queue that is above
/// target from `first_decision` on: then +100, +100/sqrt(2), +100/sqrt(3), ...
fn expected_decisions(first_decision: f64, until_ms: u64) -> Vec<u64> {
    let mut out = vec![first_decision as u64];
    let mut count = 1.0f64;
    let mut next = first_decision + 100.0;
    while next <= until_ms as f64 {
        out.push(next.ceil() as u64);
        count += 1.0;
        next += 100.0 / count.sqrt();
    }
    out
}

fn codel(mark: bool) -> CodelQueue {
    CodelQueue::new(Limit::Packets(100_000), CodelConfig { mark, ..CodelConfig::default() })
}

#[test]
fn defaults_are_rfc_8289s() {
    let c = CodelConfig::default();
    assert_eq!(c.target, Time::from_millis(5));
    assert_eq!(c.interval, Time::from_millis(100));
    assert!(!c.mark);
}

#[test]
fn sojourn_below_target_never_drops_or_marks() {
    for mark in [false, true] {
        let mut q = codel(mark);
        let mut run = Run::default();
        // Standing sojourn of 4 ms (< 5 ms) for 2 s.
        standing(&mut q, 4, 1000, 2000, &mut run);
        assert!(run.drops.is_empty() && run.marks.is_empty(), "{run:?}");
        assert_eq!(run.delivered, 2000);
        assert!(!q.is_dropping());
    }
}

#[test]
fn a_burst_above_target_for_less_than_an_interval_is_left_alone() {
    // 60 packets at 0.5 ms drained one per ms: sojourn climbs to 59.5 ms, but the queue is
    // empty after 60 ms, well before 5.5 + 100 ms.
    let mut q = codel(false);
    let t0 = Time::from_micros(500);
    for i in 0..60 {
        q.enqueue(t0, item(i, 1000, t0)).unwrap();
    }
    let mut dropped = Vec::new();
    let mut out = 0;
    for ms in 1..=200 {
        if q.dequeue(Time::from_millis(ms), &mut dropped).is_some() {
            out += 1;
        }
    }
    assert_eq!(out, 60);
    assert!(dropped.is_empty());
}

#[test]
fn standing_queue_drops_at_first_above_plus_interval_then_by_the_control_law() {
    let mut q = codel(false);
    let mut run = Run::default();
    // Sojourn first exceeds 5 ms at t = 6 ms (5.5 ms), so first_above_time = 106 ms.
    standing(&mut q, 50, 1000, 105, &mut run);
    assert!(run.drops.is_empty());
    assert!(!q.is_dropping());

    standing_continue(&mut q, 106, 106, &mut run);
    assert_eq!(run.drops, vec![106]);
    assert!(q.is_dropping());
    assert_eq!(q.count(), 1);
    // Entry: drop_next = now + interval / sqrt(1).
    assert_eq!(q.drop_next(), Time::from_millis(206));

    standing_continue(&mut q, 107, 206, &mut run);
    assert_eq!(run.drops, vec![106, 206]);
    assert_eq!(q.count(), 2);
    // 206 ms + 100 ms / sqrt(2) = 206 ms + 70 710 678 ns (rounded).
    assert_eq!(q.drop_next(), Time::from_nanos(206_000_000 + 70_710_678));

    standing_continue(&mut q, 207, 600, &mut run);
    let expected = expected_decisions(106.0, 600);
    // By hand: 106, 206, 276.71 -> 277, 334.45 -> 335, 384.45 -> 385, 429.17 -> 430,
    // 469.99 -> 470, 507.79 -> 508, 543.14 -> 544, 576.48 -> 577.
    assert_eq!(expected[..10], [106, 206, 277, 335, 385, 430, 470, 508, 544, 577]);
    assert_eq!(run.drops, expected);
    assert!(run.marks.is_empty());
    assert!(run.frame_marks.is_empty());
    // Every packet either left or was dropped; none is marked in drop mode.
    assert_eq!(run.delivered + run.drops.len() + q.len_packets(), run.enqueued);
}

#[test]
fn pcon_marks_first_on_entry_then_at_110_ms_over_sqrt_count() {
    let cfg = CodelConfig::pcon(Time::from_millis(5), Time::from_millis(100));
    assert_eq!((cfg.law_interval, cfg.mark), (Time::from_millis(110), true));
    let mut q = CodelQueue::new(Limit::Packets(100_000), cfg);
    let mut run = Run::default();
    standing(&mut q, 50, 1000, 600, &mut run);
    // Detection is CoDel's: above target from 6 ms, so the first mark is at 106 ms. Then
    // 106 + 110 = 216, + 110/sqrt(2) = 293.78 -> 294, + 110/sqrt(3) = 357.29 -> 358,
    // + 55 = 412.29 -> 413, + 110/sqrt(5) = 461.48 -> 462, + 110/sqrt(6) = 506.39 -> 507,
    // + 110/sqrt(7) = 547.97 -> 548, + 110/sqrt(8) = 586.86 -> 587.
    assert_eq!(run.marks, vec![106, 216, 294, 358, 413, 462, 507, 548, 587]);
    assert!(run.drops.is_empty());
}

#[test]
fn a_mark_clears_the_hop_count_and_keeps_size_equal_to_the_encoding() {
    let mut q =
        CodelQueue::new(Limit::Packets(100_000), CodelConfig::pcon(Time::from_millis(5), Time::from_millis(100)));
    let t0 = Time::ZERO;
    for i in 0..50 {
        let mut it = item(i, 0, t0);
        // Marked upstream, 3 hops ago.
        it.frame.lp.congestion_mark = 1;
        it.frame.lp.hop_count = Some(3);
        it.size = it.frame.wire_size();
        q.enqueue(t0, it).unwrap();
    }
    let mut dropped = Vec::new();
    let mut marked = None;
    for ms in 1..=200 {
        if let Some(d) = q.dequeue(Time::from_millis(100 + 5 * ms), &mut dropped) {
            if d.marked {
                marked = Some(d);
                break;
            }
            assert_eq!(d.item.frame.lp.hop_count, Some(3), "unmarked departures keep their distance");
        }
    }
    let d = marked.expect("a standing queue is marked");
    assert_eq!((d.item.frame.lp.congestion_mark, d.item.frame.lp.hop_count), (1, None));
    assert_eq!(d.item.size, d.item.frame.wire_size());
}

fn data_item(id: u64, at: Time) -> Queued {
    let data = crate::packet::Data::new(crate::Name::root().append_segment(id), bytes::Bytes::from_static(&[0; 1000]));
    let frame = crate::Frame::data(std::sync::Arc::new(data));
    Queued { size: frame.wire_size(), frame, enqueued_at: at }
}

fn high_cong_flags(d: &Dequeued) -> bool {
    use crate::packet::lp::flags::{HIGH_CONG, HIGH_CONG_LOCAL};
    d.item.frame.lp.flags == HIGH_CONG | HIGH_CONG_LOCAL
}

#[test]
fn pcon_queue_is_highly_congested_after_ten_intervals_of_marking() {
    let mut q =
        CodelQueue::new(Limit::Packets(100_000), CodelConfig::pcon(Time::from_millis(5), Time::from_millis(100)));
    // A standing queue of 50 Data, one in and one out per ms: the sojourn reaches the 5 ms
    // target at 5 ms, marking starts at 105 ms, the queue is highly congested from
    // 105 + 10 x 100 = 1105 ms.
    let mut dropped = Vec::new();
    for i in 0..50 {
        q.enqueue(Time::ZERO, data_item(i, Time::ZERO)).unwrap();
    }
    for ms in 1..=1200u64 {
        let now = Time::from_millis(ms);
        q.enqueue(now, data_item(1000 + ms, now)).unwrap();
        let d = q.dequeue(now, &mut dropped).unwrap();
        assert_eq!(q.is_highly_congested(), ms >= 1105, "at {ms} ms");
        assert_eq!(high_cong_flags(&d), ms >= 1105, "at {ms} ms");
        assert_eq!(d.item.size, d.item.frame.wire_size());
    }
    // Draining below target ends it.
    let mut ms = 1200;
    while let Some(d) = q.dequeue(Time::from_millis(ms), &mut dropped) {
        ms += 1;
        if !q.is_highly_congested() {
            assert!(!high_cong_flags(&d));
            return;
        }
    }
    panic!("the state did not end when the queue drained");
}

#[test]
fn a_tail_drop_while_marking_is_highly_congested_at_once_and_plain_codel_never_is() {
    for (cfg, tracks) in [
        (CodelConfig::pcon(Time::from_millis(5), Time::from_millis(100)), true),
        (CodelConfig { mark: true, ..CodelConfig::default() }, false),
    ] {
        let mut q = CodelQueue::new(Limit::Packets(60), cfg);
        let mut dropped = Vec::new();
        for i in 0..50 {
            q.enqueue(Time::ZERO, data_item(i, Time::ZERO)).unwrap();
        }
        // One in, one out per ms: marking from 105 ms; then a burst of 20 meets 10 free places.
        for ms in 1..=150u64 {
            let now = Time::from_millis(ms);
            q.enqueue(now, data_item(1000 + ms, now)).unwrap();
            q.dequeue(now, &mut dropped).unwrap();
        }
        assert!(q.is_dropping() && !q.is_highly_congested());
        let now = Time::from_millis(150);
        let refused = (0..20).filter(|i| q.enqueue(now, data_item(5000 + i, now)).is_err()).count();
        assert_eq!(refused, 10);
        assert_eq!(q.is_highly_congested(), tracks);
        let d = q.dequeue(Time::from_millis(151), &mut dropped).unwrap();
        assert_eq!(high_cong_flags(&d), tracks);
    }
}

/// Continues the 1-arrival-1-departure-per-ms pattern of `standing` over [from, to] ms.
fn standing_continue(q: &mut CodelQueue, from: u64, to: u64, run: &mut Run) {
    let mut dropped = Vec::new();
    for ms in from..=to {
        let now = Time::from_millis(ms);
        q.enqueue(now, item(ms as u32, 1000, now)).unwrap();
        run.enqueued += 1;
        let d = q.dequeue(now, &mut dropped).unwrap();
        run.delivered += 1;
        for _ in dropped.drain(..) {
            run.drops.push(ms);
        }
        if d.marked {
            run.marks.push(ms);
        }
    }
}

#[test]
fn mark_mode_decides_at_the_same_instants_and_loses_nothing() {
    let mut drop_q = codel(false);
    let mut drop_run = Run::default();
    standing(&mut drop_q, 50, 1000, 1000, &mut drop_run);

    let mut mark_q = codel(true);
    let mut mark_run = Run::default();
    standing(&mut mark_q, 50, 1000, 1000, &mut mark_run);

    assert_eq!(drop_run.drops, expected_decisions(106.0, 1000));
    assert_eq!(mark_run.marks, drop_run.drops);
    assert!(mark_run.drops.is_empty());
    assert_eq!(mark_run.frame_marks, mark_run.marks);
    assert_eq!(mark_q.count(), drop_q.count());
    assert_eq!(mark_q.drop_next(), drop_q.drop_next());
    // Nothing lost in mark mode: everything offered either left or is still queued (50).
    assert_eq!(mark_run.delivered + mark_q.len_packets(), mark_run.enqueued);
    assert_eq!(mark_q.len_packets(), 50);
    // Drop mode's queue shrank by one packet per drop.
    assert_eq!(drop_q.len_packets(), 50 - drop_run.drops.len());
}

#[test]
fn marking_grows_the_frame_and_its_size() {
    let mut q = codel(true);
    let mut dropped = Vec::new();
    let t0 = Time::from_micros(500);
    for i in 0..50 {
        q.enqueue(t0, item(i, 1000, t0)).unwrap();
    }
    for ms in 1..=106 {
        let now = Time::from_millis(ms);
        q.enqueue(now, item(1000 + ms as u32, 1000, now)).unwrap();
        let d = q.dequeue(now, &mut dropped).unwrap();
        if ms < 106 {
            assert!(!d.marked);
            assert_eq!(d.item.size, 1000);
        } else {
            assert!(d.marked);
            assert_eq!(d.item.frame.lp.congestion_mark, 1);
            // A bare Interest becomes LpPacket { CongestionMark, Fragment }: the size grows by
            // exactly what the encoding grows by.
            let mut bare = d.item.frame.clone();
            bare.lp.congestion_mark = 0;
            let growth = d.item.frame.wire_size() - bare.wire_size();
            assert!(growth > 0);
            assert_eq!(d.item.size, 1000 + growth);
        }
    }
    assert_eq!(q.len_bytes(), 50 * 1000);
}

#[test]
fn maxpacket_rule_keeps_at_least_one_large_packet_queued() {
    // (a) 100-byte packets only: maxpacket = 100; 10 packets (1000 B) stay queued after each
    //     departure, so the standing 10 ms sojourn triggers the first drop at 106 ms.
    let mut q = codel(false);
    let mut run = Run::default();
    standing(&mut q, 10, 100, 106, &mut run);
    assert_eq!(q.maxpacket(), 100);
    assert_eq!(run.drops, vec![106]);

    // (b) Same, after one 1500-byte packet went through: 1000 B left <= maxpacket 1500, so
    //     the sojourn counts as below target and nothing is dropped in 1 s.
    let mut q = codel(false);
    let mut dropped = Vec::new();
    q.enqueue(Time::ZERO, item(0, 1500, Time::ZERO)).unwrap();
    assert_eq!(id_of(&q.dequeue(Time::ZERO, &mut dropped).unwrap().item), 0);
    let mut run = Run::default();
    standing(&mut q, 10, 100, 1000, &mut run);
    assert_eq!(q.maxpacket(), 1500);
    assert!(run.drops.is_empty(), "{run:?}");
    assert!(!q.is_dropping());

    // (c) With 20 packets (2000 B > 1500 B) standing, dropping resumes at 106 ms.
    let mut q = codel(false);
    q.enqueue(Time::ZERO, item(0, 1500, Time::ZERO)).unwrap();
    q.dequeue(Time::ZERO, &mut dropped).unwrap();
    let mut run = Run::default();
    standing(&mut q, 20, 100, 106, &mut run);
    assert_eq!(run.drops, vec![106]);
}

/// Drains the queue at `now`, which ends the dropping state (the last packet leaves too few
/// bytes behind, then the queue is empty).
fn drain(q: &mut CodelQueue, now: Time) {
    let mut dropped = Vec::new();
    while q.dequeue(now, &mut dropped).is_some() {}
    assert!(dropped.is_empty());
    assert!(!q.is_dropping());
}

/// A new standing queue from `base` ms: 50 packets of 1000 B at base + 0.5 ms, then one in and
/// one out every ms up to base + 210 ms. The sojourn first exceeds 5 ms at base + 6 ms, so dropping
/// is OK from base + 106 ms. Returns the drop instants (ms).
fn standing_again(q: &mut CodelQueue, base: u64) -> Vec<u64> {
    let t0 = Time::from_micros(base * 1000 + 500);
    for i in 0..50 {
        q.enqueue(t0, item(i, 1000, t0)).unwrap();
    }
    let mut drops = Vec::new();
    let mut dropped = Vec::new();
    for ms in base + 1..=base + 210 {
        let now = Time::from_millis(ms);
        q.enqueue(now, item(ms as u32, 1000, now)).unwrap();
        q.dequeue(now, &mut dropped).unwrap();
        for _ in dropped.drain(..) {
            drops.push(ms);
        }
    }
    drops
}

#[test]
fn re_entry_soon_after_leaving_resumes_at_count_minus_lastcount() {
    let mut q = codel(false);
    let mut run = Run::default();
    // Five drops: 106, 206, 277, 335, 385 ms; count = 5, lastcount = 1.
    standing(&mut q, 50, 1000, 385, &mut run);
    assert_eq!(run.drops, vec![106, 206, 277, 335, 385]);
    assert_eq!((q.count(), q.lastcount()), (5, 1));
    drain(&mut q, Time::from_millis(385));
    // 206 ms + 70 710 678 + 57 735 027 + 50 000 000 + 44 721 360 ns = 429.167065 ms.
    assert_eq!(q.drop_next(), Time::from_nanos(429_167_065));

    // New standing queue from 400 ms: ok_to_drop at 506 ms. 506 - 429.17 ms < 16 * 100 ms and
    // delta = 5 - 1 = 4 > 1, so count restarts at 4 (lastcount 4) and the next drop is
    // 100 / sqrt(4) = 50 ms later, at 556; then 556 + 100/sqrt(5) = 600.72 -> 601 (count 6).
    assert_eq!(standing_again(&mut q, 400), vec![506, 556, 601]);
    assert_eq!((q.count(), q.lastcount()), (6, 4));
}

#[test]
fn a_drop_that_ends_the_dropping_state_does_not_count() {
    // RFC 8289 §5.5: in the dropping loop `++count` sits in the branch that schedules the next
    // drop, so a drop after which the next packet is below target ends the state uncounted, and
    // a quick re-entry resumes at the count of the drops that kept the state going.
    let mut q = codel(false);
    let mut run = Run::default();
    standing(&mut q, 50, 1000, 385, &mut run);
    assert_eq!((q.count(), q.lastcount(), q.len_packets()), (5, 1, 45));
    assert_eq!(q.drop_next(), Time::from_nanos(429_167_065));
    // The 45 queued arrived at 341..385 ms. At 428 ms 43 of them leave (each has waited over
    // 40 ms and leaves >= 2 000 B behind, so each is ok_to_drop, and 428 < drop_next: no drop);
    // A1 and A2 (384, 385 ms) stay. Three young packets arrive at 428 ms.
    let mut dropped = Vec::new();
    for _ in 0..43 {
        q.dequeue(Time::from_millis(428), &mut dropped).unwrap();
    }
    assert!(dropped.is_empty() && q.is_dropping());
    let young = Time::from_millis(428);
    for id in 900..903 {
        q.enqueue(young, item(id, 1000, young)).unwrap();
    }
    // 429 ms, before drop_next: A1 leaves. 430 ms: A2 (sojourn > 40 ms) is dropped; the next
    // packet, young 900, has waited 2 ms < 5 ms, so the dropping state ends, count stays 5.
    q.dequeue(Time::from_millis(429), &mut dropped).unwrap();
    assert!(dropped.is_empty() && q.is_dropping());
    let out = q.dequeue(Time::from_millis(430), &mut dropped).unwrap();
    assert_eq!((id_of(&out.item), dropped.len()), (900, 1));
    assert!(dropped[0].enqueued_at < Time::from_millis(400));
    assert!(!q.is_dropping());
    assert_eq!((q.count(), q.drop_next()), (5, Time::from_nanos(429_167_065)));
    drain(&mut q, Time::from_millis(431));

    // ok_to_drop again at 606 ms, 176.8 ms after drop_next: delta = 5 - 1 = 4 restarts count at
    // 4, so drops at 606, 606 + 100/sqrt(4) = 656 and 656 + 100/sqrt(5) = 700.72 -> 701. (With
    // the uncounted drop counted: count 5, drops at 606, 650.72 -> 651, 691.55 -> 692.)
    assert_eq!(standing_again(&mut q, 500), vec![606, 656, 701]);
}

#[test]
fn re_entry_long_after_leaving_starts_over_at_count_one() {
    let mut q = codel(false);
    let mut run = Run::default();
    standing(&mut q, 50, 1000, 385, &mut run);
    drain(&mut q, Time::from_millis(385));
    // Restart at 2000 ms: ok_to_drop at 2106 ms, more than 16 intervals after drop_next
    // (429.17 ms), so count = 1 and the next drop is a full interval later.
    assert_eq!(standing_again(&mut q, 2000), vec![2106, 2206]);
    assert_eq!((q.count(), q.lastcount()), (2, 1));
}

#[test]
fn tail_drop_still_applies_at_the_limit() {
    for mark in [false, true] {
        let cfg = CodelConfig { mark, ..CodelConfig::default() };
        let mut q = CodelQueue::new(Limit::Packets(3), cfg);
        for i in 0..3 {
            assert!(q.enqueue(Time::ZERO, item(i, 500, Time::ZERO)).is_ok());
        }
        assert_eq!(id_of(&q.enqueue(Time::ZERO, item(3, 500, Time::ZERO)).unwrap_err()), 3);
        assert_eq!((q.len_packets(), q.len_bytes()), (3, 1500));

        let mut q = CodelQueue::new(Limit::Bytes(1200), cfg);
        assert!(q.enqueue(Time::ZERO, item(0, 600, Time::ZERO)).is_ok());
        assert!(q.enqueue(Time::ZERO, item(1, 600, Time::ZERO)).is_ok());
        assert!(q.enqueue(Time::ZERO, item(2, 1, Time::ZERO)).is_err());
        assert_eq!(q.len_bytes(), 1200);
    }
}

#[test]
fn empty_queue_returns_none_and_resets_first_above_time() {
    let mut q = codel(false);
    let mut dropped = Vec::new();
    assert!(q.dequeue(Time::from_secs(1), &mut dropped).is_none());
    assert!(!q.is_dropping());
    assert!(dropped.is_empty());
}

fn arrival_signalling() -> CodelQueue {
    let cfg =
        CodelConfig { signal_on_arrival: true, ..CodelConfig::pcon(Time::from_millis(5), Time::from_millis(100)) };
    CodelQueue::new(Limit::Packets(100_000), cfg)
}

#[test]
fn arrival_signalling_marks_the_next_arrival_which_leaves_a_queue_later() {
    // The harness of `pcon_marks_first_on_entry...`: 50 packets preloaded, then one in and one
    // out per ms, so the packet arriving at a ms leaves at a + 50 ms. Decisions come at the same
    // instants (106, 216, 294, 358, 413, 462, 507, 548, 587 ms); each mark rides on the packet
    // arriving 1 ms later and is seen when that one leaves: 157, 267, 345, 409, 464, 513, 558,
    // 599 ms (the one for 587 would leave at 638, after the run).
    let mut q = arrival_signalling();
    let mut run = Run::default();
    standing(&mut q, 50, 1000, 600, &mut run);
    assert_eq!(run.marks, vec![106, 216, 294, 358, 413, 462, 507, 548, 587]);
    assert_eq!(run.frame_marks, vec![157, 267, 345, 409, 464, 513, 558, 599]);
    assert!(run.drops.is_empty());
}

#[test]
fn arrival_signalling_drops_a_pending_mark_when_the_marking_state_ends_first() {
    // Decision at 106 ms; nothing arrives, and the queue is emptied at once: the last packet
    // leaves with less than one packet behind it (the maxpacket rule), which ends the marking
    // state, so the packet arriving afterwards is not marked.
    let mut q = arrival_signalling();
    let mut run = Run::default();
    standing(&mut q, 50, 1000, 106, &mut run);
    assert_eq!((run.marks.len(), q.is_dropping()), (1, true));
    let mut dropped = Vec::new();
    let now = Time::from_millis(106);
    while let Some(d) = q.dequeue(now, &mut dropped) {
        assert_eq!(d.item.frame.lp.congestion_mark, 0);
    }
    assert!(!q.is_dropping());
    let later = Time::from_millis(107);
    q.enqueue(later, item(5000, 1000, later)).unwrap();
    assert_eq!(q.dequeue(later, &mut dropped).unwrap().item.frame.lp.congestion_mark, 0);
}

#[test]
fn arrival_signalling_flags_arriving_data_when_highly_congested() {
    // As `pcon_queue_is_highly_congested_after_ten_intervals_of_marking`: the state begins in
    // the dequeue at 1105 ms. The first Data to arrive after that (at 1106 ms) carries the
    // flags and leaves 50 ms later, at 1156 ms.
    let mut q = arrival_signalling();
    let mut dropped = Vec::new();
    for i in 0..50 {
        q.enqueue(Time::ZERO, data_item(i, Time::ZERO)).unwrap();
    }
    for ms in 1..=1200u64 {
        let now = Time::from_millis(ms);
        q.enqueue(now, data_item(1000 + ms, now)).unwrap();
        let d = q.dequeue(now, &mut dropped).unwrap();
        assert_eq!(q.is_highly_congested(), ms >= 1105, "at {ms} ms");
        assert_eq!(high_cong_flags(&d), ms >= 1156, "at {ms} ms");
        assert_eq!(d.item.size, d.item.frame.wire_size());
    }
}
