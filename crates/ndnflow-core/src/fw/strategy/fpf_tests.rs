//! FPF unit tests: formula (1) with hand-derived numbers, and the choice among faces.

use super::super::pending::test_util::*;
use super::super::Faces;
use super::*;
use crate::fw::face::FaceKind;
use crate::fw::strategy::{InterestDecision, Strategy, StrategyCtx};
use crate::packet::NackReason;
use crate::table::Fib;
use crate::Time;

fn fwd(face: u32) -> InterestDecision {
    InterestDecision::Forward(Faces::from_slice(&[FaceId(face)]))
}

/// `n` upstream link faces of 10 Mbit/s with 10-packet queues (face 0 is the downstream).
fn link_faces(n: usize) -> Vec<FaceInfo> {
    let mut faces = faces(n);
    for f in faces.iter_mut() {
        f.bandwidth_bps = Some(10_000_000);
        f.queue_limit = Some(Limit::Packets(10));
    }
    faces
}

#[test]
fn capacity_of_the_survey_bottleneck() {
    // Survey §III-IV: 50 Mbit/s, Data of 8400 B, queues of 120 x 1500 B = 180 000 B.
    // rate = 50e6 / (8 x 8400) = 744.05 Data/s; queue = floor(180000 / 8400) = floor(21.43) = 21.
    let q = Limit::Bytes(180_000);
    assert_eq!(queue_in_data_packets(q, 8400.0), 21.0);
    // R1 with R3's queue full: rtt 71.4 ms -> 0.0714 x 744.05 = 53.125, + 21 = 74.125 ("74").
    let c = capacity(0.0714, 50_000_000, q, 8400.0);
    assert!((c - 74.125).abs() < 1e-9, "{c}");
    // Without the queue part: 53.1 ("approximately 50"); R3's queue empty (rtt 42 ms): 31.25
    // ("about 31").
    assert!((c - 21.0 - 53.125).abs() < 1e-9);
    assert!((capacity(0.042, 50_000_000, q, 8400.0) - 21.0 - 31.25).abs() < 1e-9);
    // A packet limit counts as it is: 10 Mbit/s, 1250 B -> 1000 Data/s; 40 ms -> 40 + 120.
    assert!((capacity(0.040, 10_000_000, Limit::Packets(120), 1250.0) - 160.0).abs() < 1e-9);
}

#[test]
fn smallest_delay_among_faces_not_full() {
    let faces = link_faces(3);
    let ctx = StrategyCtx { now: Time::ZERO, faces: &faces, fib: &Fib::new() };
    let fib = fib(&[(1, 1), (2, 1), (3, 1)]);
    let p = prefix();
    let mut s = FpfStrategy::new();
    // Data of 1250 B on 10 Mbit/s: 1000 Data/s. Face 1: rtt 70 ms, C = 70 + 10 = 80.
    // Face 2: rtt 40 ms, C = 40 + 10 = 50. Face 3: never answered, no capacity.
    s.preset(&p, FaceId(1), 0.070, 1250.0);
    s.preset(&p, FaceId(2), 0.040, 1250.0);
    assert!((s.capacity(&ctx, &p, FaceId(1)).unwrap() - 80.0).abs() < 1e-9);
    assert!((s.capacity(&ctx, &p, FaceId(2)).unwrap() - 50.0).abs() < 1e-9);
    assert_eq!(s.capacity(&ctx, &p, FaceId(3)), None);
    let mut seg = 0;
    let mut decide = |s: &mut FpfStrategy| {
        seg += 1;
        let mut e = entry(Time::ZERO, seg);
        s.after_receive_interest(&ctx, FaceId(0), &mut e, Some(&fib))
    };
    // 49 pending on face 2 (< 50): face 2, the smallest delay; that makes 50 = C: full.
    s.pending_mut().preset(&p, FaceId(2), 49);
    assert_eq!(decide(&mut s), fwd(2));
    assert_eq!(s.pending().pending(&p, FaceId(2)), 50);
    // Face 2 full: face 1 (70 ms) until it holds 80; face 3, unmeasured, ranks last.
    assert_eq!(decide(&mut s), fwd(1));
    s.pending_mut().preset(&p, FaceId(1), 80);
    // Both measured faces full: the unmeasured face 3 is never full.
    assert_eq!(decide(&mut s), fwd(3));
}

#[test]
fn all_full_goes_to_the_smallest_delay_and_unmeasured_faces_start_in_fib_order() {
    let faces = link_faces(2);
    let ctx = StrategyCtx { now: Time::ZERO, faces: &faces, fib: &Fib::new() };
    let fib = fib(&[(1, 5), (2, 10)]);
    let p = prefix();
    let mut s = FpfStrategy::new();
    // Nothing measured: FIB order (lowest cost) however many are pending.
    s.pending_mut().preset(&p, FaceId(1), 1000);
    let mut e = entry(Time::ZERO, 1);
    assert_eq!(s.after_receive_interest(&ctx, FaceId(0), &mut e, Some(&fib)), fwd(1));
    // Face 2 measured (30 ms: C = 30 + 10 = 40), face 1 not: face 2 ranks first while not full...
    s.preset(&p, FaceId(2), 0.030, 1250.0);
    s.pending_mut().preset(&p, FaceId(2), 39);
    let mut e = entry(Time::ZERO, 2);
    assert_eq!(s.after_receive_interest(&ctx, FaceId(0), &mut e, Some(&fib)), fwd(2));
    // ...and when full (40), the unmeasured face 1 takes the Interest.
    let mut e = entry(Time::ZERO, 3);
    assert_eq!(s.after_receive_interest(&ctx, FaceId(0), &mut e, Some(&fib)), fwd(1));
    // Both measured and full (face 1: 20 ms, C = 30 < 1001): the smaller delay, face 1, anyway.
    s.preset(&p, FaceId(1), 0.020, 1250.0);
    let mut e = entry(Time::ZERO, 4);
    assert_eq!(s.after_receive_interest(&ctx, FaceId(0), &mut e, Some(&fib)), fwd(1));
    // Equal delays, both open: FIB order.
    s.preset(&p, FaceId(1), 0.030, 1250.0);
    s.pending_mut().preset(&p, FaceId(1), 0);
    s.pending_mut().preset(&p, FaceId(2), 0);
    let mut e = entry(Time::ZERO, 5);
    assert_eq!(s.after_receive_interest(&ctx, FaceId(0), &mut e, Some(&fib)), fwd(1));
}

#[test]
fn faces_without_link_parameters_are_never_full() {
    let mut faces = faces(2);
    faces[2].kind = FaceKind::App;
    let ctx = StrategyCtx { now: Time::ZERO, faces: &faces, fib: &Fib::new() };
    let fib = fib(&[(1, 1), (2, 1)]);
    let p = prefix();
    let mut s = FpfStrategy::new();
    s.preset(&p, FaceId(1), 0.010, 1000.0);
    s.preset(&p, FaceId(2), 0.020, 1000.0);
    s.pending_mut().preset(&p, FaceId(1), 1_000_000);
    assert_eq!(s.capacity(&ctx, &p, FaceId(1)), None);
    let mut e = entry(Time::ZERO, 1);
    assert_eq!(s.after_receive_interest(&ctx, FaceId(0), &mut e, Some(&fib)), fwd(1));
}

#[test]
fn rtt_and_data_size_are_measured_per_face_from_the_out_record() {
    let faces = link_faces(2);
    let mut fib_table = Fib::new();
    fib_table.add_nexthop(&prefix(), FaceId(1), 1);
    fib_table.add_nexthop(&prefix(), FaceId(2), 1);
    let fib = fib(&[(1, 1), (2, 1)]);
    let p = prefix();
    let mut s = FpfStrategy::new();
    let at = |ms: u64| StrategyCtx { now: Time::from_millis(ms), faces: &faces, fib: &fib_table };
    let answer = |s: &mut FpfStrategy, seg: u64, sent_ms: u64, back_ms: u64, payload: usize| {
        let mut e = entry(Time::from_millis(sent_ms), seg);
        let InterestDecision::Forward(f) = s.after_receive_interest(&at(sent_ms), FaceId(0), &mut e, Some(&fib)) else {
            panic!("not forwarded")
        };
        e.insert_or_update_out_record(Time::from_millis(sent_ms), f[0], 1, Time::from_secs(1));
        let data = Data::new(e.name().clone(), bytes::Bytes::from(vec![0u8; payload]));
        s.before_satisfy_interest(&at(back_ms), &e, f[0], &data, &LpHeader::default());
        (f[0], data.wire_size() as f64)
    };
    // First sample taken as it is: 40 ms; the next, 80 ms, moves the mean by 1/8: 45 ms.
    let (face, size1) = answer(&mut s, 1, 0, 40, 1000);
    assert_eq!(face, FaceId(1));
    assert!((s.estimate(&p, face).rtt_s.unwrap() - 0.040).abs() < 1e-12);
    assert_eq!(s.estimate(&p, face).data_bytes, Some(size1));
    let (face, size2) = answer(&mut s, 2, 100, 180, 9000);
    assert_eq!(face, FaceId(1));
    assert!((s.estimate(&p, face).rtt_s.unwrap() - 0.045).abs() < 1e-12);
    assert!((s.estimate(&p, face).data_bytes.unwrap() - (size1 + (size2 - size1) / 8.0)).abs() < 1e-9);
    // Every entry was released: no Interest pending anywhere; face 2 never measured.
    assert_eq!(s.pending().pending(&p, FaceId(1)), 0);
    assert_eq!(s.estimate(&p, FaceId(2)), FaceEstimate::default());
}

#[test]
fn no_route_and_nacks_as_the_pending_strategies() {
    let faces = link_faces(1);
    let ctx = StrategyCtx { now: Time::ZERO, faces: &faces, fib: &Fib::new() };
    let mut s = FpfStrategy::new();
    let mut e = entry(Time::ZERO, 1);
    assert_eq!(s.after_receive_interest(&ctx, FaceId(0), &mut e, None), InterestDecision::Reject(NackReason::NoRoute));
    let fib = fib(&[(1, 1)]);
    let mut e = entry(Time::ZERO, 2);
    assert_eq!(s.after_receive_interest(&ctx, FaceId(0), &mut e, Some(&fib)), fwd(1));
    e.insert_or_update_out_record(Time::ZERO, FaceId(1), 1, Time::from_secs(1));
    assert_eq!(s.pending().pending(&prefix(), FaceId(1)), 1);
    e.out_record_mut(FaceId(1)).unwrap().nack = Some(NackReason::Congestion);
    let nack = Nack { reason: NackReason::Congestion, interest: e.interest().clone() };
    let d = s.after_receive_nack(&ctx, FaceId(1), &nack, &LpHeader::default(), &mut e, Some(&fib));
    assert_eq!(d, NackDecision::NackDownstream(NackReason::Congestion));
    assert_eq!(s.pending().pending(&prefix(), FaceId(1)), 0);
}

#[test]
fn a_retransmission_is_placed_by_formula_1_not_sent_to_an_unused_face() {
    let faces = link_faces(2);
    let fib = fib(&[(1, 1), (2, 1)]);
    let p = prefix();
    let mut s = FpfStrategy::new();
    s.preset(&p, FaceId(1), 0.020, 1250.0); // C = 20 + 10 = 30
    s.preset(&p, FaceId(2), 0.060, 1250.0); // C = 60 + 10 = 70
    let table = Fib::new();
    let at = |ms: u64| StrategyCtx { now: Time::from_millis(ms), faces: &faces, fib: &table };
    let mut e = entry(Time::ZERO, 1);
    assert_eq!(s.after_receive_interest(&at(0), FaceId(0), &mut e, Some(&fib)), fwd(1));
    e.insert_or_update_out_record(Time::ZERO, FaceId(1), 1, Time::from_secs(1));
    // 5 ms later: suppressed (NFD's 10 ms initial interval).
    assert_eq!(s.after_receive_interest(&at(5), FaceId(0), &mut e, Some(&fib)), InterestDecision::Suppress);
    // 20 ms later: forwarded again, to face 1 (smallest delay, 1 pending < 30), counted once.
    assert_eq!(s.after_receive_interest(&at(20), FaceId(0), &mut e, Some(&fib)), fwd(1));
    assert_eq!(s.pending().pending(&p, FaceId(1)), 1);
    assert_eq!(s.pending().pending(&p, FaceId(2)), 0);
}
