//! PAF unit tests: the AntNet update with hand-derived numbers, the penalty of a face that stops
//! answering, and the draw against its probabilities.

use super::super::pending::test_util::*;
use super::*;
use crate::fw::strategy::{InterestDecision, Strategy, StrategyCtx};
use crate::packet::{NackReason, NO_PIT_HINT};
use crate::table::Fib;
use crate::Time;

fn hops(faces: &[u32]) -> Vec<NextHop> {
    fib(&faces.iter().map(|&f| (f, 10)).collect::<Vec<_>>()).nexthops.to_vec()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-12
}

fn data_for(e: &PitEntry) -> Data {
    Data::new(e.name().clone(), bytes::Bytes::new())
}

#[test]
fn probabilities_after_given_rtt_samples() {
    let p = prefix();
    let mut t = Measurements::<PafFace>::default();
    add_face(&mut t, &p, FaceId(1));
    add_face(&mut t, &p, FaceId(2));
    assert_eq!((t.get(&p, FaceId(1)).unwrap().prob, t.get(&p, FaceId(2)).unwrap().prob), (0.5, 0.5));
    let prob = |t: &Measurements<PafFace>, f| t.get(&p, FaceId(f)).unwrap().prob;
    let sample = |t: &mut Measurements<PafFace>, f, rtt| {
        record_rtt(t, &p, FaceId(f), rtt);
        let r = reinforcement(0.01, t, &p, FaceId(f));
        reinforce(t, &p, FaceId(f), r);
        r
    };
    // Face 1 answers in 20 ms: the only srtt, so the best; r = 0.01.
    // p1 = 0.5 + 0.01 x 0.5 = 0.505, p2 = 0.5 - 0.01 x 0.5 = 0.495.
    assert!(close(sample(&mut t, 1, 0.020), 0.01));
    assert!(close(prob(&t, 1), 0.505) && close(prob(&t, 2), 0.495));
    // Face 2 answers in 40 ms: r = 0.01 x 20 / 40 = 0.005.
    // p2 = 0.495 + 0.005 x 0.505 = 0.497525, p1 = 0.505 x 0.995 = 0.502475.
    assert!(close(sample(&mut t, 2, 0.040), 0.005));
    assert!(close(prob(&t, 1), 0.502475) && close(prob(&t, 2), 0.497525));
    // Face 1 answers in 36 ms: srtt1 = 20 + (36 - 20) / 8 = 22 ms, still the best; r = 0.01.
    // p1 = 0.502475 + 0.01 x 0.497525 = 0.50745025, p2 = 0.497525 x 0.99 = 0.49254975.
    assert!(close(sample(&mut t, 1, 0.036), 0.01));
    assert!(close(t.get(&p, FaceId(1)).unwrap().srtt_s.unwrap(), 0.022));
    assert!(close(prob(&t, 1), 0.50745025) && close(prob(&t, 2), 0.49254975));
    // A third next hop joins with 1/3; the others keep their ratio, scaled by 2/3.
    add_face(&mut t, &p, FaceId(3));
    assert!(close(prob(&t, 3), 1.0 / 3.0) && close(prob(&t, 1), 0.50745025 * 2.0 / 3.0));
    assert!(close(prob(&t, 1) + prob(&t, 2) + prob(&t, 3), 1.0));
}

#[test]
fn penalty_hands_the_share_to_the_others_in_proportion() {
    let p = prefix();
    let mut t = Measurements::<PafFace>::default();
    for (f, prob) in [(1, 0.5), (2, 0.3), (3, 0.2)] {
        t.get_or_insert(&p, FaceId(f)).prob = prob;
    }
    // Face 1 loses 10 % of 0.5 = 0.05: face 2 gets 0.05 x 0.3 / 0.5 = 0.03, face 3 0.02.
    penalize(&mut t, &p, FaceId(1), 0.1);
    let prob = |f| t.get(&p, FaceId(f)).unwrap().prob;
    assert!(close(prob(1), 0.45) && close(prob(2), 0.33) && close(prob(3), 0.22));
    // A prefix's only face keeps all: there is nowhere else to send.
    let mut one = Measurements::<PafFace>::default();
    add_face(&mut one, &p, FaceId(1));
    penalize(&mut one, &p, FaceId(1), 0.1);
    assert_eq!(one.get(&p, FaceId(1)).unwrap().prob, 1.0);
}

#[test]
fn a_face_that_stops_answering_loses_weight() {
    // Face 1 answers every Interest in 10 ms; face 2 answers none, and each entry sent there
    // expires. Whatever the draws: an answer on face 1 (the only srtt, so r = alpha = 0.01) scales
    // p2 by 0.99, and an expiry on face 2 (penalty 0.01) scales it by 0.99 too. After 200
    // Interests p2 = 0.5 x 0.99^200 = 0.0670.
    let faces = faces(2);
    let fib = fib(&[(1, 10), (2, 10)]);
    let p = prefix();
    let mut s = PafStrategy::new(PafConfig::default(), 11);
    let mut to_face2 = 0;
    for seg in 0..200u64 {
        let now = Time::from_millis(20 * seg);
        let ctx = StrategyCtx { now, faces: &faces, fib: &Fib::new() };
        let (e, f) = forward(&mut s, &ctx, &fib, seg);
        if f == FaceId(1) {
            let later = StrategyCtx { now: now + Time::from_millis(10), faces: &faces, fib: &Fib::new() };
            s.before_satisfy_interest(&later, &e, f, &data_for(&e), &LpHeader::default());
        } else {
            to_face2 += 1;
            s.on_interest_expired(&ctx, &e);
        }
    }
    let expect = 0.5 * 0.99f64.powi(200);
    assert!((s.face(&p, FaceId(2)).prob - expect).abs() < 1e-9, "{}", s.face(&p, FaceId(2)).prob);
    assert!(close(s.face(&p, FaceId(1)).prob + s.face(&p, FaceId(2)).prob, 1.0));
    // Face 2 was tried: the first draws are 50/50.
    assert!(to_face2 > 0);
}

#[test]
fn an_expired_out_record_and_a_nack_cost_the_penalty() {
    let faces = faces(2);
    let fib = fib(&[(1, 10), (2, 10)]);
    let p = prefix();
    let mut s = PafStrategy::new(PafConfig::default(), 3);
    let ctx = StrategyCtx { now: Time::ZERO, faces: &faces, fib: &Fib::new() };
    let (mut e, f) = forward(&mut s, &ctx, &fib, 0);
    let other = if f == FaceId(1) { FaceId(2) } else { FaceId(1) };
    // The downstream retransmits at 1.5 s, after the out-record on f expired (1 s) unanswered:
    // f loses 1 % of 0.5, p(f) = 0.495.
    let later = StrategyCtx { now: Time::from_millis(1500), faces: &faces, fib: &Fib::new() };
    let i = e.interest().clone();
    e.insert_or_update_in_record(later.now, FaceId(0), &i, false, NO_PIT_HINT);
    assert!(matches!(s.after_receive_interest(&later, FaceId(0), &mut e, Some(&fib)), InterestDecision::Forward(_)));
    assert!(close(s.face(&p, f).prob, 0.495) && close(s.face(&p, other).prob, 0.505));
    // A Nack from a face the entry went to costs the same: the next entry, Nacked by g.
    let (mut e1, g) = forward(&mut s, &later, &fib, 1);
    let before = s.face(&p, g).prob;
    e1.out_record_mut(g).unwrap().nack = Some(NackReason::Congestion);
    let nack = Nack { reason: NackReason::Congestion, interest: e1.interest().clone() };
    s.after_receive_nack(&later, g, &nack, &LpHeader::default(), &mut e1, Some(&fib));
    assert!(close(s.face(&p, g).prob, 0.99 * before));
}

#[test]
fn the_draw_follows_the_probabilities() {
    // p = 0.7, 0.2, 0.1 and explore 0.05: shares 0.95 p + 0.05 / 3 = 0.6817, 0.2067, 0.1117.
    // Over 10 000 draws the binomial standard deviation is at most 0.005; tolerance 0.02 (4 sigma).
    let p = prefix();
    let mut t = Measurements::<PafFace>::default();
    for (f, prob) in [(1, 0.7), (2, 0.2), (3, 0.1)] {
        t.get_or_insert(&p, FaceId(f)).prob = prob;
    }
    let share = |hops: &[NextHop], explore: f64| {
        let mut rng = ChaCha8Rng::seed_from_u64(42);
        let mut count = [0u32; 4];
        for _ in 0..10_000 {
            count[draw(&mut rng, &t, &p, hops, explore).index()] += 1;
        }
        count.map(|c| c as f64 / 10_000.0)
    };
    let got = share(&hops(&[1, 2, 3]), 0.05);
    for (f, want) in [(1, 0.95 * 0.7 + 0.05 / 3.0), (2, 0.95 * 0.2 + 0.05 / 3.0), (3, 0.95 * 0.1 + 0.05 / 3.0)] {
        assert!((got[f] - want).abs() < 0.02, "face {f}: {} vs {want}", got[f]);
    }
    // Face 1 not eligible: 0.2 and 0.1 renormalised to 2/3 and 1/3 (no exploration).
    let got = share(&hops(&[2, 3]), 0.0);
    assert_eq!(got[1], 0.0);
    assert!((got[2] - 2.0 / 3.0).abs() < 0.02 && (got[3] - 1.0 / 3.0).abs() < 0.02, "{got:?}");
}

#[test]
fn same_seed_same_choices() {
    let faces = faces(2);
    let ctx = StrategyCtx { now: Time::ZERO, faces: &faces, fib: &Fib::new() };
    let fib = fib(&[(1, 10), (2, 10)]);
    let run = |seed| {
        let mut s = PafStrategy::new(PafConfig::default(), seed);
        (0..200).map(|i| forward(&mut s, &ctx, &fib, i).1).collect::<Vec<_>>()
    };
    assert_eq!(run(3), run(3));
    assert_ne!(run(3), run(4));
}
