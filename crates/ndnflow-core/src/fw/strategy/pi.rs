//! pi: forward to the eligible next hop with the fewest pending Interests for the FIB prefix; ties
//! go to the lowest cost (then the lowest face id, the FIB's order).
//!
//! The "PI" baseline of PCON (Schneider et al., ICN 2016, §4.4: "PI, which chooses the face with
//! the lowest number of pending Interests"), one of the pending-Interest adaptations reviewed by
//! Detti et al. (INFOCOM WKSHPS 2015); Nguyen et al. (ICCW 2015) show that it biases against paths
//! with a longer RTT or a higher bandwidth. Pending counts: see `pending`.

use super::pending::{ChoiceReasons, NextHopChoice, PendingStrategy, PendingTracker};
use crate::table::{FaceId, NextHop};
use crate::Name;

/// PI's choice: the fewest pending Interests.
#[derive(Default)]
pub struct FewestPending;

impl NextHopChoice for FewestPending {
    const NAME: &'static str = "pi";
    const REASONS: ChoiceReasons = ChoiceReasons {
        new: "new Interest: fewest pending Interests (ties: lowest cost)",
        retx: "retransmission: fewest pending Interests among unused next hops",
    };

    fn choose(&mut self, t: &PendingTracker, prefix: &Name, hops: &[NextHop]) -> FaceId {
        // min_by_key keeps the first of equal minima: FIB order, i.e. lowest cost first.
        hops.iter().min_by_key(|h| t.pending(prefix, h.face)).map(|h| h.face).unwrap_or(hops[0].face)
    }
}

pub type PiStrategy = PendingStrategy<FewestPending>;

impl PiStrategy {
    pub fn new() -> Self {
        PendingStrategy::with_choice(FewestPending)
    }
}

impl Default for PiStrategy {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::super::pending::test_util::*;
    use super::super::Faces;
    use super::*;
    use crate::fw::strategy::{InterestDecision, Strategy, StrategyCtx};
    use crate::packet::NackReason;
    use crate::table::FibEntry;
    use crate::Time;

    fn decide(s: &mut PiStrategy, ctx: &StrategyCtx, fib: &FibEntry, seg: u64) -> InterestDecision {
        let mut e = entry(ctx.now, seg);
        s.after_receive_interest(ctx, FaceId(0), &mut e, Some(fib))
    }

    fn fwd(face: u32) -> InterestDecision {
        InterestDecision::Forward(Faces::from_slice(&[FaceId(face)]))
    }

    #[test]
    fn picks_fewest_pending_and_ties_go_to_lowest_cost() {
        let faces = faces(3);
        let ctx = StrategyCtx { now: Time::ZERO, faces: &faces, fib: &crate::table::Fib::new() };
        // Costs: face 3 is cheapest (5), then face 1 (10), then face 2 (20).
        let fib = fib(&[(1, 10), (2, 20), (3, 5)]);
        let p = prefix();
        let mut s = PiStrategy::new();
        s.pending_mut().preset(&p, FaceId(1), 4);
        s.pending_mut().preset(&p, FaceId(2), 2);
        s.pending_mut().preset(&p, FaceId(3), 3);
        // 4/2/3: face 2 (fewest) -> 4/3/3; tie 2 vs 3 -> face 3 (cost 5) -> 4/3/4; face 2 -> 4/4/4;
        // three-way tie -> face 3 (cost 5), then face 1 (cost 10, 4 < 5), then face 2.
        let got: Vec<InterestDecision> = (0..6).map(|i| decide(&mut s, &ctx, &fib, i)).collect();
        assert_eq!(got, vec![fwd(2), fwd(3), fwd(2), fwd(3), fwd(1), fwd(2)]);
        assert_eq!([1, 2, 3].map(|f| s.pending().pending(&p, FaceId(f))), [5, 5, 5]);
    }

    #[test]
    fn never_back_to_the_incoming_face_nor_a_down_face_and_no_route_nacks() {
        let mut faces = faces(2);
        let fib = fib(&[(0, 1), (1, 10), (2, 20)]);
        let mut s = PiStrategy::new();
        // Face 0 is the downstream: never chosen even though it has the fewest pending.
        s.pending_mut().preset(&prefix(), FaceId(1), 1);
        let ctx = StrategyCtx { now: Time::ZERO, faces: &faces, fib: &crate::table::Fib::new() };
        assert_eq!(decide(&mut s, &ctx, &fib, 0), fwd(2));
        faces[2].up = false;
        let ctx = StrategyCtx { now: Time::ZERO, faces: &faces, fib: &crate::table::Fib::new() };
        assert_eq!(decide(&mut s, &ctx, &fib, 1), fwd(1));
        faces[1].up = false;
        let ctx = StrategyCtx { now: Time::ZERO, faces: &faces, fib: &crate::table::Fib::new() };
        assert_eq!(decide(&mut s, &ctx, &fib, 2), InterestDecision::Reject(NackReason::NoRoute));
        let mut e = entry(Time::ZERO, 3);
        assert_eq!(
            s.after_receive_interest(&ctx, FaceId(0), &mut e, None),
            InterestDecision::Reject(NackReason::NoRoute)
        );
    }

    #[test]
    fn retransmissions_are_suppressed_then_go_to_an_unused_face() {
        let faces = faces(2);
        let fib = fib(&[(1, 10), (2, 20)]);
        let mut s = PiStrategy::new();
        let ctx = StrategyCtx { now: Time::ZERO, faces: &faces, fib: &crate::table::Fib::new() };
        let mut e = entry(Time::ZERO, 0);
        assert_eq!(s.after_receive_interest(&ctx, FaceId(0), &mut e, Some(&fib)), fwd(1));
        e.insert_or_update_out_record(Time::ZERO, FaceId(1), 1, Time::from_secs(1));
        // 5 ms later: inside the 10 ms suppression interval.
        let ctx = StrategyCtx { now: Time::from_millis(5), faces: &faces, fib: &crate::table::Fib::new() };
        assert_eq!(s.after_receive_interest(&ctx, FaceId(0), &mut e, Some(&fib)), InterestDecision::Suppress);
        // 20 ms later: forwarded to the unused face 2 although it costs more; face 1 stays counted.
        let ctx = StrategyCtx { now: Time::from_millis(20), faces: &faces, fib: &crate::table::Fib::new() };
        assert_eq!(s.after_receive_interest(&ctx, FaceId(0), &mut e, Some(&fib)), fwd(2));
        assert_eq!(s.pending().pending(&prefix(), FaceId(1)), 1);
        assert_eq!(s.pending().pending(&prefix(), FaceId(2)), 1);
    }
}
