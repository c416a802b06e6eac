//! ASF unit tests: the two orders of faces, the probe draw against its probabilities, the probing
//! schedule, timeouts and their mark, Nacks, retransmissions; numbers derived by hand.

use super::super::pending::test_util::*;
use super::*;
use crate::fw::strategy::{InterestDecision, Strategy, StrategyCtx};
use crate::packet::NO_PIT_HINT;
use crate::table::Fib;

fn ms(t: u64) -> Time {
    Time::from_millis(t)
}

fn measured(srtt_ms: u64) -> AsfFace {
    let mut r = AsfFace::default();
    r.rtt.add_sample(ms(srtt_ms));
    r.last_rtt = LastRtt::Measured(ms(srtt_ms));
    r
}

fn timed_out() -> AsfFace {
    AsfFace { last_rtt: LastRtt::TimedOut, ..measured(5) }
}

fn hop(face: u32, cost: u64) -> NextHop {
    NextHop { face: FaceId(face), cost }
}

/// The faces a decision sends to.
fn sent(d: &InterestDecision) -> Vec<u32> {
    match d {
        InterestDecision::Forward(f) => f.iter().map(|f| f.0).collect(),
        InterestDecision::Probe { face, probe } => vec![face.0, probe.0],
        other => panic!("not forwarded: {other:?}"),
    }
}

#[test]
fn forwarding_order_is_measured_by_srtt_then_unmeasured_then_timed_out_cost_breaking_ties() {
    // Face: record, cost. Measured 20 ms at cost 1 and 20 ms at cost 20 tie on SRTT: cost first.
    // Unmeasured faces 3 and 5 tie on cost 5: face id. The timed-out face 4 is last despite
    // cost 1 and an SRTT of 5 ms, the lowest of all.
    let faces = [
        (measured(30), hop(1, 10)),
        (measured(20), hop(2, 20)),
        (AsfFace::default(), hop(5, 5)),
        (timed_out(), hop(4, 1)),
        (AsfFace::default(), hop(3, 5)),
        (measured(20), hop(6, 1)),
    ];
    let mut ranked: Vec<_> = faces.iter().map(|(r, h)| (forwarding_rank(Some(r), h), h.face.0)).collect();
    ranked.sort();
    assert_eq!(ranked.iter().map(|r| r.1).collect::<Vec<_>>(), [6, 2, 1, 3, 5, 4]);
    // No record at all ranks as unmeasured: cost 2 goes before face 3's cost 5.
    assert!(forwarding_rank(None, &hop(9, 2)) < forwarding_rank(Some(&AsfFace::default()), &hop(3, 5)));
    // Probing puts unmeasured faces first, then measured by SRTT, then timed out.
    let mut ranked: Vec<_> = faces.iter().map(|(r, h)| (probing_rank(Some(r), h), h.face.0)).collect();
    ranked.sort();
    assert_eq!(ranked.iter().map(|r| r.1).collect::<Vec<_>>(), [3, 5, 6, 2, 1, 4]);
}

#[test]
fn probe_draw_follows_the_rank_probabilities() {
    // Three measured faces ranked 1, 2, 3: p = 3/6, 2/6, 1/6. Over N = 30 000 draws a share's
    // binomial sd is at most sqrt(0.25 / N) = 0.0029; tolerance 0.012 (4 sd).
    let recs = [measured(10), measured(20), measured(30)];
    let mut ranked: Vec<_> =
        recs.iter().zip(1u32..).map(|(r, f)| (probing_rank(Some(r), &hop(f, 1)), FaceId(f))).collect();
    ranked.sort();
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let n = 30_000;
    let mut count = [0u32; 4];
    for _ in 0..n {
        count[pick_probe(&ranked, rng.random::<f64>()).unwrap().index()] += 1;
    }
    for (f, want) in [(1, 3.0 / 6.0), (2, 2.0 / 6.0), (3, 1.0 / 6.0)] {
        let got = count[f] as f64 / n as f64;
        assert!((got - want).abs() < 0.012, "face {f}: {got} vs {want}");
    }
    // The bounds: u = 0.5 is still the first face's, just above it the second's; u = 1 the last.
    assert_eq!(pick_probe(&ranked, 0.5), Some(FaceId(1)));
    assert_eq!(pick_probe(&ranked, 0.5001), Some(FaceId(2)));
    assert_eq!(pick_probe(&ranked, 1.0), Some(FaceId(3)));
    // An unmeasured face is probed whatever the draw.
    let mut with_new = ranked.clone();
    with_new.push((probing_rank(None, &hop(4, 100)), FaceId(4)));
    with_new.sort();
    assert_eq!(pick_probe(&with_new, 0.0), Some(FaceId(4)));
    assert_eq!(pick_probe(&[], 0.3), None);
}

#[test]
fn probes_come_at_the_first_offset_then_every_probing_interval() {
    // Interests every 100 ms for 20 s, faces 1 (cost 1) and 2 (cost 10), no Data: both stay
    // unmeasured, so every Interest goes to face 1 and every probe to face 2. The first probe is due
    // a whole number of ms d in [0, 5000] after the first Interest, so it goes with the first
    // Interest at or after d (ceil(d / 100) x 100 ms); later ones exactly 2 s apart (the interval,
    // a multiple of the 100 ms spacing).
    let faces = faces(2);
    let fib = fib(&[(1, 1), (2, 10)]);
    let config = AsfConfig { probing_interval: Time::from_secs(2), max_timeouts: 3 };
    let mut s = AsfStrategy::new(config, 5);
    let mut probes = Vec::new();
    let mut first_due = None;
    for k in 0..200u64 {
        let ctx = StrategyCtx { now: ms(100 * k), faces: &faces, fib: &Fib::new() };
        let mut e = entry(ctx.now, k);
        let d = s.after_receive_interest(&ctx, FaceId(0), &mut e, Some(&fib));
        first_due = first_due.or(s.probe_due(&prefix()));
        match sent(&d).as_slice() {
            [1] => {}
            [1, 2] => probes.push(100 * k),
            other => panic!("{other:?}"),
        }
    }
    let d = first_due.unwrap().as_millis();
    assert!(d <= 5000);
    let first = d.div_ceil(100) * 100;
    let want: Vec<u64> = (0..).map(|i| first + 2000 * i).take_while(|&t| t < 20_000).collect();
    assert_eq!(probes, want);
}

#[test]
fn a_face_is_marked_timed_out_at_max_timeouts_and_restored_by_a_data() {
    // Face 1 measured at 10 ms, face 2 at 50 ms. Face 1's RTO: srtt 10 ms + 4 x rttvar 5 ms =
    // 30 ms, raised to the 200 ms floor. One Interest every 200 ms goes to face 1 and arms its
    // timer (one at a time), which fires 200 ms later: timeouts 1 at 200 ms, 2 at 400 ms, and at
    // 600 ms the third marks face 1 timed out; the Interest of 600 ms goes to face 2.
    let faces = faces(2);
    let fib = fib(&[(1, 1), (2, 10)]);
    let p = prefix();
    let mut s = AsfStrategy::new(AsfConfig::default(), 1);
    s.add_sample(Time::ZERO, &p, FaceId(1), ms(10));
    s.add_sample(Time::ZERO, &p, FaceId(2), ms(50));
    let mut entries = Vec::new();
    for k in 0..4u64 {
        let ctx = StrategyCtx { now: ms(200 * k), faces: &faces, fib: &Fib::new() };
        s.on_timer(&ctx, &mut Vec::new());
        if k > 0 {
            assert_eq!(s.face(ctx.now, &p, FaceId(1)).unwrap().timeouts, (k % 3) as u32);
        }
        let mut e = entry(ctx.now, k);
        let to = sent(&s.after_receive_interest(&ctx, FaceId(0), &mut e, Some(&fib)))[0];
        assert_eq!(to, if k < 3 { 1 } else { 2 }, "Interest at {} ms", 200 * k);
        e.insert_or_update_out_record(ctx.now, FaceId(to), k as u32 + 1, Time::from_secs(1));
        entries.push(e);
    }
    assert_eq!(s.face(ms(600), &p, FaceId(1)).unwrap().last_rtt, LastRtt::TimedOut);
    // The Data of the 400 ms Interest comes from face 1 at 700 ms: an RTT of 300 ms, so
    // srtt = 7/8 x 10 + 1/8 x 300 = 46.25 ms, below face 2's 50 ms: face 1 is the best again.
    let ctx = StrategyCtx { now: ms(700), faces: &faces, fib: &fib_table() };
    let data = Data::new(entries[2].name().clone(), bytes::Bytes::new());
    s.before_satisfy_interest(&ctx, &entries[2], FaceId(1), &data, &LpHeader::default());
    let r = s.face(ms(700), &p, FaceId(1)).unwrap();
    assert_eq!((r.last_rtt, r.timeouts), (LastRtt::Measured(ms(300)), 0));
    assert!(r.srtt().unwrap().as_nanos().abs_diff(46_250_000) <= 1, "{:?}", r.srtt());
    let mut e = entry(ms(700), 9);
    assert_eq!(sent(&s.after_receive_interest(&ctx, FaceId(0), &mut e, Some(&fib)))[0], 1);
}

/// A FIB holding /p via faces 1 and 2, for the triggers that look the prefix up.
fn fib_table() -> Fib {
    let mut f = Fib::new();
    f.add_nexthop(&prefix(), FaceId(1), 1);
    f.add_nexthop(&prefix(), FaceId(2), 10);
    f
}

#[test]
fn a_nack_marks_the_face_at_once_and_goes_down_when_every_upstream_nacked() {
    let faces = faces(2);
    let fib = fib(&[(1, 1), (2, 10)]);
    let table = fib_table();
    let p = prefix();
    let mut s = AsfStrategy::new(AsfConfig::default(), 1);
    let ctx = StrategyCtx { now: Time::ZERO, faces: &faces, fib: &table };
    let (mut e, f) = forward(&mut s, &ctx, &fib, 0);
    assert_eq!(f, FaceId(1));
    e.out_record_mut(f).unwrap().nack = Some(NackReason::Congestion);
    let nack = Nack { reason: NackReason::Congestion, interest: e.interest().clone() };
    let d = s.after_receive_nack(&ctx, f, &nack, &LpHeader::default(), &mut e, Some(&fib));
    // The only upstream Nacked: the Nack goes down; ASF tries no other face.
    assert_eq!(d, NackDecision::NackDownstream(NackReason::Congestion));
    assert_eq!(s.face(Time::ZERO, &p, f).unwrap().last_rtt, LastRtt::TimedOut);
    // Timed out ranks last: the next Interest goes to the unmeasured face 2 despite its cost.
    let (_, f) = forward(&mut s, &ctx, &fib, 1);
    assert_eq!(f, FaceId(2));
}

#[test]
fn retransmissions_go_to_the_best_unused_face_then_the_oldest_after_suppression() {
    // Out at 0 ms to face 1. Retransmission at 5 ms: face 2 has no out-record, forwarded there.
    // At 8 ms both are pending: face 1 (sent at 0) is the one used longest ago, but 8 < 10 ms
    // (the initial suppression interval): suppressed. At 20 ms: 20 >= 10, forwarded to face 1, the
    // interval doubles to 20 ms. At 30 ms: face 2 (sent at 5) is the oldest, 25 >= 20: forwarded.
    let faces = faces(2);
    let fib = fib(&[(1, 1), (2, 10)]);
    let mut s = AsfStrategy::new(AsfConfig::default(), 1);
    let mut e = entry(Time::ZERO, 0);
    let at = |s: &mut AsfStrategy, e: &mut PitEntry, t: u64| {
        let ctx = StrategyCtx { now: ms(t), faces: &faces, fib: &Fib::new() };
        let i = e.interest().clone();
        e.insert_or_update_in_record(ctx.now, FaceId(0), &i, false, NO_PIT_HINT);
        let d = s.after_receive_interest(&ctx, FaceId(0), e, Some(&fib));
        if let InterestDecision::Forward(f) = &d {
            e.insert_or_update_out_record(ctx.now, f[0], 1, Time::from_secs(1));
        }
        (d, s.decision_reason().into_owned())
    };
    assert_eq!(sent(&at(&mut s, &mut e, 0).0)[0], 1);
    let (d, why) = at(&mut s, &mut e, 5);
    assert_eq!((sent(&d), why), (vec![2], "retransmission: best unused next hop".to_string()));
    assert_eq!(at(&mut s, &mut e, 8).0, InterestDecision::Suppress);
    let (d, why) = at(&mut s, &mut e, 20);
    assert_eq!((sent(&d), why), (vec![1], "retransmission: next hop used longest ago".to_string()));
    assert_eq!(e.suppression_interval, ms(20));
    assert_eq!(sent(&at(&mut s, &mut e, 30).0), [2]);
}

#[test]
fn no_eligible_face_means_no_route_and_the_log_says_why() {
    let mut faces = faces(2);
    faces[1].up = false;
    faces[2].up = false;
    let fib = fib(&[(1, 1), (2, 10)]);
    let mut s = AsfStrategy::new(AsfConfig::default(), 1);
    let ctx = StrategyCtx { now: Time::ZERO, faces: &faces, fib: &Fib::new() };
    let mut e = entry(Time::ZERO, 0);
    assert_eq!(
        s.after_receive_interest(&ctx, FaceId(0), &mut e, Some(&fib)),
        InterestDecision::Reject(NackReason::NoRoute)
    );
    assert_eq!(s.decision_reason(), "new Interest: no eligible next hop");
    faces[2].up = true;
    let ctx = StrategyCtx { now: Time::ZERO, faces: &faces, fib: &Fib::new() };
    let mut e = entry(Time::ZERO, 1);
    s.after_receive_interest(&ctx, FaceId(0), &mut e, Some(&fib));
    assert!(s.decision_reason().starts_with("new Interest: no face measured, lowest cost unmeasured"));
}

#[test]
fn measurements_expire_five_minutes_after_their_last_use() {
    // A face sampled at 0 and not used since is gone at 300 s (NFD's MEASUREMENTS_LIFETIME); the
    // cleanup timer frees the entry then.
    let faces = faces(2);
    let p = prefix();
    let mut s = AsfStrategy::new(AsfConfig::default(), 1);
    s.add_sample(Time::ZERO, &p, FaceId(1), ms(10));
    assert!(s.face(Time::from_secs(299), &p, FaceId(1)).is_some());
    assert!(s.face(Time::from_secs(300), &p, FaceId(1)).is_none());
    assert_eq!(s.next_timer(), Some(Time::from_secs(300)));
    let ctx = StrategyCtx { now: Time::from_secs(300), faces: &faces, fib: &Fib::new() };
    s.on_timer(&ctx, &mut Vec::new());
    assert_eq!((s.faces.len(), s.next_timer()), (0, None));
}

#[test]
fn same_seed_same_choices() {
    let faces = faces(3);
    let fib = fib(&[(1, 1), (2, 1), (3, 1)]);
    let run = |seed| {
        let mut s = AsfStrategy::new(AsfConfig { probing_interval: Time::from_secs(1), max_timeouts: 3 }, seed);
        for f in 1..=3 {
            s.add_sample(Time::ZERO, &prefix(), FaceId(f), ms(10 * f as u64));
        }
        (0..400u64)
            .map(|k| {
                let ctx = StrategyCtx { now: ms(50 * k), faces: &faces, fib: &Fib::new() };
                sent(&s.after_receive_interest(&ctx, FaceId(0), &mut entry(ctx.now, k), Some(&fib)))
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(run(3), run(3));
    assert_ne!(run(3), run(4));
}

#[test]
fn the_probe_leaves_with_a_nonce_of_its_own() {
    // A router with faces 0 (downstream), 1 (cost 1) and 2 (cost 10), ASF probing every second:
    // an Interest every 100 ms; the first probe is due by 5 s. The probe's copy goes to face 2
    // under another nonce than the copy to face 1, and face 2's out-record keeps it.
    use crate::fw::{FaceKind, Forwarder, ForwarderConfig};
    let asf = AsfConfig { probing_interval: Time::from_secs(1), max_timeouts: 3 };
    let mut fw = Forwarder::new(
        ForwarderConfig { default_strategy: crate::fw::forwarder::StrategyName::Asf(asf), ..Default::default() },
        1,
    );
    for _ in 0..3 {
        fw.add_face(FaceKind::Link);
    }
    fw.fib.add_nexthop(&prefix(), FaceId(1), 1);
    fw.fib.add_nexthop(&prefix(), FaceId(2), 10);
    let mut out = Vec::new();
    for k in 0..60u32 {
        out.clear();
        fw.handle(ms(100 * k as u64), FaceId(0), crate::fw::testing::interest(k + 1, None), &mut out);
        if out.len() == 2 {
            let nonce = |i: usize| match &out[i].1.packet {
                crate::packet::NetPacket::Interest(sent) => sent.nonce,
                other => panic!("expected an Interest, got {other:?}"),
            };
            assert_eq!((out[0].0, out[1].0, nonce(0)), (FaceId(1), FaceId(2), Some(k + 1)));
            assert_ne!(nonce(1), nonce(0));
            return;
        }
        assert_eq!(out.len(), 1);
    }
    panic!("no probe in 6 s");
}
