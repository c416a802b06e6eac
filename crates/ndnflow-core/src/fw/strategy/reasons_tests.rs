//! Every built-in strategy says why it decided (`Strategy::decision_reason`, read by the
//! forwarding log): a new Interest forwarded, a retransmission suppressed, an Interest with no
//! route. The contexts are hand-built: faces 0 (downstream), 1 and 2 (upstreams, costs 10 and 20).

use super::pending::test_util::{entry, faces, fib};
use super::*;
use crate::fw::strategy::{PafConfig, PconConfig};
use crate::table::Fib;
use crate::Time;

/// Each strategy, what it says when it forwards a new Interest, and whether it suppresses a
/// retransmission 5 ms after the first send (all but random, which has no suppression).
fn cases() -> Vec<(Box<dyn Strategy>, &'static str, bool)> {
    vec![
        (Box::new(BestRouteStrategy::new()), "new Interest: lowest-cost eligible next hop", true),
        (Box::new(MulticastStrategy::new()), "every eligible next hop", true),
        (Box::new(PiStrategy::new()), "new Interest: fewest pending Interests (ties: lowest cost)", true),
        (Box::new(RfaStrategy::new(1)), "new Interest: random draw weighted by 1 / avgPI", true),
        (Box::new(DrfStrategy::new()), "new Interest: weighted round robin, weights 1 / (PI + 1)", true),
        (Box::new(FpfStrategy::new()), "new Interest: smallest RTT among next hops not full, formula (1)", true),
        (
            Box::new(PafStrategy::new(PafConfig::default(), 1)),
            "new Interest: draw by forwarding probability (or uniform, to explore)",
            true,
        ),
        (
            Box::new(PconStrategy::new(PconConfig::default(), 1)),
            "draw by forwarding percentage among enabled next hops",
            true,
        ),
        (Box::new(RandomStrategy::new(1)), "uniform draw among the eligible next hops", false),
    ]
}

#[test]
fn every_strategy_says_why_it_forwarded_a_new_interest() {
    let faces = faces(2);
    let table = Fib::new();
    let ctx = StrategyCtx { now: Time::ZERO, faces: &faces, fib: &table };
    let fib = fib(&[(1, 10), (2, 20)]);
    for (mut s, want, _) in cases() {
        let mut e = entry(ctx.now, 0);
        let d = s.after_receive_interest(&ctx, FaceId(0), &mut e, Some(&fib));
        assert!(matches!(d, InterestDecision::Forward(_)), "{}: {d:?}", s.name());
        assert_eq!(s.decision_reason(), want, "{}", s.name());
    }
}

#[test]
fn a_retransmission_within_the_suppression_interval_says_so() {
    // Sent to face 1 at 0 (out-record until 1 s); the same downstream again at 5 ms, inside
    // NFD's first suppression interval of 10 ms.
    let faces = faces(2);
    let table = Fib::new();
    let fib = fib(&[(1, 10), (2, 20)]);
    for (mut s, _, _) in cases().into_iter().filter(|&(_, _, suppresses)| suppresses) {
        let ctx = StrategyCtx { now: Time::ZERO, faces: &faces, fib: &table };
        let mut e = entry(ctx.now, 0);
        s.after_receive_interest(&ctx, FaceId(0), &mut e, Some(&fib));
        e.insert_or_update_out_record(Time::ZERO, FaceId(1), 1, Time::from_secs(1));
        let ctx = StrategyCtx { now: Time::from_millis(5), faces: &faces, fib: &table };
        let d = s.after_receive_interest(&ctx, FaceId(0), &mut e, Some(&fib));
        assert_eq!(d, InterestDecision::Suppress, "{}", s.name());
        assert_eq!(s.decision_reason(), why::SUPPRESSED, "{}", s.name());
    }
}

#[test]
fn an_interest_without_a_next_hop_is_nacked_and_says_why() {
    // Only face 0, the downstream itself, in the FIB entry: nothing is eligible.
    let faces = faces(2);
    let table = Fib::new();
    let ctx = StrategyCtx { now: Time::ZERO, faces: &faces, fib: &table };
    let only_downstream = fib(&[(0, 10)]);
    for (mut s, _, _) in cases() {
        let mut e = entry(ctx.now, 0);
        let d = s.after_receive_interest(&ctx, FaceId(0), &mut e, Some(&only_downstream));
        assert_eq!(d, InterestDecision::Reject(NackReason::NoRoute), "{}", s.name());
        let said = s.decision_reason();
        assert!(said.ends_with("no eligible next hop"), "{}: {said}", s.name());
    }
}
