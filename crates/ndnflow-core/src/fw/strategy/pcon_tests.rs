//! PCON forwarding: each split update checked against values derived by hand.

use super::*;
use crate::fw::strategy::pending::test_util::{entry, faces, fib};
use crate::packet::NO_PIT_HINT;
use crate::table::Fib;

const EPS: f64 = 1e-12;

fn fib_table(hops: &[(u32, u64)]) -> Fib {
    let mut t = Fib::new();
    for &(f, c) in hops {
        t.add_nexthop(&Name::parse("/p").unwrap(), FaceId(f), c);
    }
    t
}

fn percs(s: &PconStrategy) -> Vec<f64> {
    s.percentages(&Name::parse("/p").unwrap()).into_iter().map(|(_, p)| p).collect()
}

fn assert_percs(s: &PconStrategy, want: &[f64]) {
    let got = percs(s);
    assert_eq!(got.len(), want.len(), "{got:?}");
    for (g, w) in got.iter().zip(want) {
        assert!((g - w).abs() < EPS, "got {got:?}, want {want:?}");
    }
}

fn marked(hop_count: Option<u64>) -> LpHeader {
    LpHeader { congestion_mark: 1, hop_count, ..Default::default() }
}

fn data() -> Data {
    Data::new(Name::parse("/p").unwrap().append_segment(0), bytes::Bytes::new())
}

/// Three next hops: face 1 (cost 1), face 2 (cost 2), face 3 (cost 3).
const THREE: [(u32, u64); 3] = [(1, 1), (2, 2), (3, 3)];

#[test]
fn everything_starts_on_the_shortest_path() {
    let faces = faces(3);
    let table = fib_table(&THREE);
    let ctx = StrategyCtx { now: Time::ZERO, faces: &faces, fib: &table };
    let f = fib(&THREE);
    let mut s = PconStrategy::new(PconConfig::default(), 1);
    for seg in 0..200 {
        let mut e = entry(Time::ZERO, seg);
        let d = s.after_receive_interest(&ctx, FaceId(0), &mut e, Some(&f));
        assert_eq!(d, InterestDecision::Forward(Faces::from_slice(&[FaceId(1)])));
    }
    assert_percs(&s, &[1.0, 0.0, 0.0]);
}

#[test]
fn a_mark_moves_change_perc_over_distance_to_the_other_faces() {
    let faces = faces(3);
    let table = fib_table(&THREE);
    let ctx = StrategyCtx { now: Time::ZERO, faces: &faces, fib: &table };
    let f = fib(&THREE);
    let mut s = PconStrategy::new(PconConfig::default(), 1);
    let mut e = entry(Time::ZERO, 0);
    s.after_receive_interest(&ctx, FaceId(0), &mut e, Some(&f));
    // A mark from the link of face 1 itself (no hop count: distance 1): 1.0 x 0.02 = 0.02 moves,
    // 0.01 to each of the two others.
    s.before_satisfy_interest(&ctx, &e, FaceId(1), &data(), &marked(None));
    assert_percs(&s, &[0.98, 0.01, 0.01]);
    // From a link one forwarder further up (hop count 1: distance 2): 0.98 x 0.02 / 2 = 0.0098.
    s.before_satisfy_interest(&ctx, &e, FaceId(1), &data(), &marked(Some(1)));
    assert_percs(&s, &[0.9702, 0.0149, 0.0149]);
    // A mark on face 3: 0.0149 x 0.02 = 0.000298, 0.000149 each to faces 1 and 2.
    s.before_satisfy_interest(&ctx, &e, FaceId(3), &data(), &marked(None));
    assert_percs(&s, &[0.970349, 0.015049, 0.014602]);
    // Unmarked Data changes nothing; the sum stays 1.
    s.before_satisfy_interest(&ctx, &e, FaceId(1), &data(), &LpHeader::default());
    assert!((percs(&s).iter().sum::<f64>() - 1.0).abs() < EPS);
}

#[test]
fn distance_can_be_switched_off() {
    let faces = faces(2);
    let table = fib_table(&THREE[..2]);
    let ctx = StrategyCtx { now: Time::ZERO, faces: &faces, fib: &table };
    let f = fib(&THREE[..2]);
    let mut s = PconStrategy::new(PconConfig { distance: false, ..PconConfig::default() }, 1);
    let mut e = entry(Time::ZERO, 0);
    s.after_receive_interest(&ctx, FaceId(0), &mut e, Some(&f));
    s.before_satisfy_interest(&ctx, &e, FaceId(1), &data(), &marked(Some(4)));
    assert_percs(&s, &[0.98, 0.02]);
}

#[test]
fn marked_nacks_reduce_at_most_once_per_codel_interval_and_unmarked_ones_never() {
    let faces = faces(2);
    let table = fib_table(&THREE[..2]);
    let f = fib(&THREE[..2]);
    let mut s = PconStrategy::new(PconConfig::default(), 1);
    let nack_at = |s: &mut PconStrategy, ms: u64, lp: &LpHeader| {
        let ctx = StrategyCtx { now: Time::from_millis(ms), faces: &faces, fib: &table };
        let mut e = entry(ctx.now, ms);
        s.after_receive_interest(&ctx, FaceId(0), &mut e, Some(&f));
        let nack = Nack { reason: NackReason::Congestion, interest: e.interest().clone() };
        s.after_receive_nack(&ctx, FaceId(1), &nack, lp, &mut e, Some(&f));
    };
    nack_at(&mut s, 0, &LpHeader::default());
    assert_percs(&s, &[1.0, 0.0]);
    nack_at(&mut s, 10, &marked(None));
    assert_percs(&s, &[0.98, 0.02]);
    // 50 ms later: within the 100 ms interval, ignored.
    nack_at(&mut s, 60, &marked(None));
    assert_percs(&s, &[0.98, 0.02]);
    // 100 ms after the first reduction: 0.98 x 0.02 = 0.0196 more.
    nack_at(&mut s, 110, &marked(None));
    assert_percs(&s, &[0.9604, 0.0396]);
}

#[test]
fn a_quiet_marking_interval_shifts_ten_percent_of_change_perc_from_the_longest_path() {
    let faces = faces(3);
    let table = fib_table(&THREE);
    let f = fib(&THREE);
    let mut s = PconStrategy::new(PconConfig::default(), 1);
    s.preset(Time::ZERO, &f, &[0.5, 0.3, 0.2]);
    let interest_at = |s: &mut PconStrategy, ms: u64| {
        let ctx = StrategyCtx { now: Time::from_millis(ms), faces: &faces, fib: &table };
        let mut e = entry(ctx.now, ms);
        s.after_receive_interest(&ctx, FaceId(0), &mut e, Some(&f));
        e
    };
    interest_at(&mut s, 109);
    assert_percs(&s, &[0.5, 0.3, 0.2]);
    // 110 ms without marks: 0.1 x 0.02 = 0.002 from face 3 (cost 3) to face 1.
    interest_at(&mut s, 110);
    assert_percs(&s, &[0.502, 0.3, 0.198]);
    // At most once per interval.
    interest_at(&mut s, 150);
    assert_percs(&s, &[0.502, 0.3, 0.198]);
    let e = interest_at(&mut s, 220);
    assert_percs(&s, &[0.504, 0.3, 0.196]);
    // A mark restarts the quiet period: nothing shifts until 110 ms after it.
    let ctx = StrategyCtx { now: Time::from_millis(250), faces: &faces, fib: &table };
    s.before_satisfy_interest(&ctx, &e, FaceId(2), &data(), &marked(None));
    assert_percs(&s, &[0.507, 0.294, 0.199]);
    interest_at(&mut s, 340);
    assert_percs(&s, &[0.507, 0.294, 0.199]);
    interest_at(&mut s, 360);
    assert_percs(&s, &[0.509, 0.294, 0.197]);
}

#[test]
fn interests_follow_the_percentages() {
    let faces = faces(3);
    let table = fib_table(&THREE);
    let ctx = StrategyCtx { now: Time::ZERO, faces: &faces, fib: &table };
    let f = fib(&THREE);
    let mut s = PconStrategy::new(PconConfig::default(), 9);
    s.preset(Time::ZERO, &f, &[0.75, 0.2, 0.05]);
    let mut counts = [0u32; 4];
    let n = 20_000;
    for seg in 0..n {
        let mut e = entry(Time::ZERO, seg);
        let InterestDecision::Forward(out) = s.after_receive_interest(&ctx, FaceId(0), &mut e, Some(&f)) else {
            panic!("not forwarded")
        };
        assert_eq!(out.len(), 1);
        counts[out[0].index()] += 1;
    }
    // Binomial: the standard deviation of the 75 % share over 20 000 draws is 0.31 points; 1.5
    // points is more than four of them.
    for (face, want) in [(1, 0.75), (2, 0.2), (3, 0.05)] {
        let got = counts[face] as f64 / n as f64;
        assert!((got - want).abs() < 0.015, "face {face}: {got}");
    }
}

#[test]
fn a_face_below_the_lower_threshold_gets_only_probes() {
    let faces = faces(2);
    let table = fib_table(&THREE[..2]);
    let ctx = StrategyCtx { now: Time::ZERO, faces: &faces, fib: &table };
    let f = fib(&THREE[..2]);
    let cfg = PconConfig { lower_threshold: 0.05, probe_fraction: 0.0, ..PconConfig::default() };
    let mut s = PconStrategy::new(cfg, 3);
    s.preset(Time::ZERO, &f, &[0.97, 0.03]);
    for seg in 0..1000 {
        let mut e = entry(Time::ZERO, seg);
        let d = s.after_receive_interest(&ctx, FaceId(0), &mut e, Some(&f));
        assert_eq!(d, InterestDecision::Forward(Faces::from_slice(&[FaceId(1)])));
    }
    // With every Interest probing, each also goes to face 2.
    let cfg = PconConfig { lower_threshold: 0.05, probe_fraction: 1.0, ..PconConfig::default() };
    let mut s = PconStrategy::new(cfg, 3);
    s.preset(Time::ZERO, &f, &[0.97, 0.03]);
    let mut e = entry(Time::ZERO, 0);
    let d = s.after_receive_interest(&ctx, FaceId(0), &mut e, Some(&f));
    assert_eq!(d, InterestDecision::Forward(Faces::from_slice(&[FaceId(1), FaceId(2)])));
    // Its percentage is kept: a mark elsewhere can lift it over the threshold again.
    s.before_satisfy_interest(&ctx, &e, FaceId(1), &data(), &marked(None));
    assert_percs(&s, &[0.9506, 0.0494]);
}

#[test]
fn a_new_next_hop_joins_at_zero_and_a_removed_ones_share_is_renormalised() {
    let faces = faces(3);
    let table = fib_table(&THREE);
    let ctx = StrategyCtx { now: Time::ZERO, faces: &faces, fib: &table };
    let mut s = PconStrategy::new(PconConfig::default(), 1);
    let two = fib(&[(1, 1), (2, 2)]);
    s.preset(Time::ZERO, &two, &[0.6, 0.4]);
    let mut e = entry(Time::ZERO, 0);
    s.after_receive_interest(&ctx, FaceId(0), &mut e, Some(&fib(&THREE)));
    assert_percs(&s, &[0.6, 0.4, 0.0]);
    // Face 1 goes away: 0.4 and 0 scaled to a total of 1.
    let mut e = entry(Time::ZERO, 1);
    s.after_receive_interest(&ctx, FaceId(0), &mut e, Some(&fib(&[(2, 2), (3, 3)])));
    assert_percs(&s, &[1.0, 0.0]);
}

#[test]
fn a_second_downstream_is_aggregated_while_its_own_retransmission_is_forwarded() {
    let faces = faces(4);
    let table = fib_table(&THREE[..2]);
    let f = fib(&THREE[..2]);
    let mut s = PconStrategy::new(PconConfig::default(), 1);
    let ctx0 = StrategyCtx { now: Time::ZERO, faces: &faces, fib: &table };
    let mut e = entry(Time::ZERO, 0);
    assert_eq!(
        s.after_receive_interest(&ctx0, FaceId(0), &mut e, Some(&f)),
        InterestDecision::Forward(Faces::from_slice(&[FaceId(1)]))
    );
    e.insert_or_update_out_record(Time::ZERO, FaceId(1), 1, Time::from_secs(1));
    // 50 ms later (past NFD's 10 ms suppression) another downstream asks: one upstream copy.
    let later = StrategyCtx { now: Time::from_millis(50), faces: &faces, fib: &table };
    let other = e.interest().clone();
    e.insert_or_update_in_record(later.now, FaceId(4), &other, false, NO_PIT_HINT);
    assert_eq!(s.after_receive_interest(&later, FaceId(4), &mut e, Some(&f)), InterestDecision::Suppress);
    // The first downstream retransmits: forwarded again, to the unused next hop.
    e.insert_or_update_in_record(later.now, FaceId(0), &other, false, NO_PIT_HINT);
    assert_eq!(
        s.after_receive_interest(&later, FaceId(0), &mut e, Some(&f)),
        InterestDecision::Forward(Faces::from_slice(&[FaceId(2)]))
    );
}

fn high(local: bool) -> LpHeader {
    use crate::packet::lp::flags::{HIGH_CONG, HIGH_CONG_LOCAL};
    LpHeader { flags: if local { HIGH_CONG | HIGH_CONG_LOCAL } else { HIGH_CONG }, ..Default::default() }
}

fn forwarded(s: &mut PconStrategy, ctx: &StrategyCtx, f: &FibEntry, seg: u64) -> Faces {
    let mut e = entry(ctx.now, seg);
    match s.after_receive_interest(ctx, FaceId(0), &mut e, Some(f)) {
        InterestDecision::Forward(out) => out,
        d => panic!("not forwarded: {d:?}"),
    }
}

#[test]
fn a_highly_congested_local_link_is_avoided_for_every_prefix_until_its_data_come_clean() {
    let faces = faces(2);
    let table = fib_table(&THREE[..2]);
    let ctx = StrategyCtx { now: Time::ZERO, faces: &faces, fib: &table };
    let f = fib(&THREE[..2]);
    let mut s = PconStrategy::new(PconConfig { probe_fraction: 0.0, ..PconConfig::default() }, 1);
    let e = entry(Time::ZERO, 0);
    assert_eq!(forwarded(&mut s, &ctx, &f, 0)[..], [FaceId(1)]);
    s.before_satisfy_interest(&ctx, &e, FaceId(1), &data(), &high(true));
    assert!(s.is_face_highly_congested(FaceId(1)));
    // Face 2 is an alternative: the state stays here, and everything goes to face 2 although
    // its percentage is 0.
    assert_eq!(s.after_receive_data(&ctx, &e, FaceId(1), &high(true)).flags, 0);
    for seg in 1..50 {
        assert_eq!(forwarded(&mut s, &ctx, &f, seg)[..], [FaceId(2)]);
    }
    assert_percs(&s, &[1.0, 0.0]);
    // A Data from face 1 without the flags (a probe's answer) ends it.
    s.before_satisfy_interest(&ctx, &e, FaceId(1), &data(), &LpHeader::default());
    assert!(!s.is_face_highly_congested(FaceId(1)));
    assert_eq!(forwarded(&mut s, &ctx, &f, 99)[..], [FaceId(1)]);
}

#[test]
fn a_highly_congested_path_further_up_is_avoided_for_its_prefix_only() {
    let faces = faces(2);
    let mut table = fib_table(&THREE[..2]);
    let q = Name::parse("/q").unwrap();
    table.add_nexthop(&q, FaceId(1), 1);
    table.add_nexthop(&q, FaceId(2), 2);
    let ctx = StrategyCtx { now: Time::ZERO, faces: &faces, fib: &table };
    let f = fib(&THREE[..2]);
    let fq = FibEntry { prefix: q.clone(), ..fib(&THREE[..2]) };
    let mut s = PconStrategy::new(PconConfig { probe_fraction: 0.0, ..PconConfig::default() }, 1);
    let e = entry(Time::ZERO, 0);
    forwarded(&mut s, &ctx, &f, 0);
    forwarded(&mut s, &ctx, &fq, 0);
    s.before_satisfy_interest(&ctx, &e, FaceId(1), &data(), &high(false));
    assert!(s.is_path_highly_congested(&Name::parse("/p").unwrap(), FaceId(1)));
    assert!(!s.is_face_highly_congested(FaceId(1)));
    assert_eq!(forwarded(&mut s, &ctx, &f, 1)[..], [FaceId(2)]);
    assert_eq!(forwarded(&mut s, &ctx, &fq, 1)[..], [FaceId(1)]);
}

#[test]
fn with_no_alternative_the_state_goes_downstream_and_the_path_is_still_used() {
    let faces = faces(1);
    let table = fib_table(&THREE[..1]);
    let ctx = StrategyCtx { now: Time::ZERO, faces: &faces, fib: &table };
    let f = fib(&THREE[..1]);
    let mut s = PconStrategy::new(PconConfig::default(), 1);
    let e = entry(Time::ZERO, 0);
    forwarded(&mut s, &ctx, &f, 0);
    s.before_satisfy_interest(&ctx, &e, FaceId(1), &data(), &high(true));
    // Only the path's state goes on: the next router's own link is not the congested one.
    use crate::packet::lp::flags::HIGH_CONG;
    assert_eq!(s.after_receive_data(&ctx, &e, FaceId(1), &high(true)).flags, HIGH_CONG);
    assert_eq!(forwarded(&mut s, &ctx, &f, 1)[..], [FaceId(1)]);
}

#[test]
fn an_equal_start_splits_a_new_prefix_evenly() {
    let faces = faces(3);
    let table = fib_table(&THREE);
    let ctx = StrategyCtx { now: Time::ZERO, faces: &faces, fib: &table };
    let mut s = PconStrategy::new(PconConfig { start_equal: true, ..PconConfig::default() }, 1);
    forwarded(&mut s, &ctx, &fib(&THREE), 0);
    let third = 1.0 / 3.0;
    assert_percs(&s, &[third, third, third]);
}

#[test]
fn shift_back_takes_from_the_last_of_equally_long_paths_and_never_between_equal_costs() {
    let faces = faces(3);
    // Face 1 cost 1; faces 2 and 3 both cost 5.
    let hops = [(1, 1), (2, 5), (3, 5)];
    let (table, f) = (fib_table(&hops), fib(&hops));
    let mut s = PconStrategy::new(PconConfig::default(), 1);
    s.preset(Time::ZERO, &f, &[0.4, 0.3, 0.3]);
    let ctx = StrategyCtx { now: Time::from_millis(110), faces: &faces, fib: &table };
    forwarded(&mut s, &ctx, &f, 0);
    assert_percs(&s, &[0.402, 0.3, 0.298]);
    // All costs equal: nothing moves.
    let equal = [(1, 1), (2, 1)];
    let (table, f) = (fib_table(&equal), fib(&equal));
    let mut s = PconStrategy::new(PconConfig::default(), 1);
    s.preset(Time::ZERO, &f, &[0.5, 0.5]);
    let ctx = StrategyCtx { now: Time::from_millis(500), faces: &faces, fib: &table };
    forwarded(&mut s, &ctx, &f, 0);
    assert_percs(&s, &[0.5, 0.5]);
}

#[test]
fn an_expired_entry_takes_change_perc_points_only_when_asked() {
    let faces = faces(2);
    let table = fib_table(&THREE[..2]);
    let ctx = StrategyCtx { now: Time::ZERO, faces: &faces, fib: &table };
    let f = fib(&THREE[..2]);
    for (on, want) in [(false, [1.0, 0.0]), (true, [0.98, 0.02])] {
        let mut s = PconStrategy::new(PconConfig { expiry_reduction: on, ..PconConfig::default() }, 1);
        let mut e = entry(Time::ZERO, 0);
        s.after_receive_interest(&ctx, FaceId(0), &mut e, Some(&f));
        e.insert_or_update_out_record(Time::ZERO, FaceId(1), 1, Time::from_secs(1));
        s.on_interest_expired(&ctx, &e);
        assert_percs(&s, &want);
    }
}

#[test]
fn a_closed_face_gets_nothing_of_what_marks_and_shift_back_move() {
    let faces = faces(3);
    let table = fib_table(&THREE);
    let f = fib(&THREE);
    let at = |ms| StrategyCtx { now: Time::from_millis(ms), faces: &faces, fib: &table };
    let e = entry(Time::ZERO, 0);
    for local in [true, false] {
        let mut s = PconStrategy::new(PconConfig { probe_fraction: 0.0, ..PconConfig::default() }, 1);
        s.preset(Time::ZERO, &f, &[0.5, 0.3, 0.2]);
        // Face 1's link (or its path for /p) is highly congested: it is closed.
        s.before_satisfy_interest(&at(0), &e, FaceId(1), &data(), &high(local));
        // A mark on face 2 moves 0.3 x 0.02 = 0.006, all of it to face 3, the only open face.
        s.before_satisfy_interest(&at(0), &e, FaceId(2), &data(), &marked(None));
        assert_percs(&s, &[0.5, 0.294, 0.206]);
        // A quiet marking interval would move 0.002 from face 3 back to face 1, the shortest
        // path; closed, it gets nothing.
        forwarded(&mut s, &at(200), &f, 1);
        assert_percs(&s, &[0.5, 0.294, 0.206]);
        // Open again (a clean Data): the next mark on face 2 shares with both, and the shift
        // back resumes. 0.294 x 0.02 = 0.00588, 0.00294 each.
        s.before_satisfy_interest(&at(300), &e, FaceId(1), &data(), &LpHeader::default());
        s.before_satisfy_interest(&at(300), &e, FaceId(2), &data(), &marked(None));
        assert_percs(&s, &[0.50294, 0.28812, 0.20894]);
        forwarded(&mut s, &at(410), &f, 2);
        assert_percs(&s, &[0.50494, 0.28812, 0.20694]);
    }
}
