//! best-route (NFD BestRouteStrategy2): forward a new Interest to the lowest-cost eligible next hop;
//! a retransmission (after retransmission suppression) goes to an unused next hop if there is one,
//! else to the one used longest ago; no eligible next hop means Nack(NoRoute).

use super::{Faces, InterestDecision, RetxDecision, RetxSuppression, Strategy, StrategyCtx};
use crate::packet::NackReason;
use crate::table::{FaceId, FibEntry, PitEntry};

#[derive(Default)]
pub struct BestRouteStrategy {
    retx: RetxSuppression,
}

impl BestRouteStrategy {
    pub fn new() -> Self {
        Self::default()
    }
}

impl Strategy for BestRouteStrategy {
    fn name(&self) -> &'static str {
        "best-route"
    }

    fn after_receive_interest(
        &mut self,
        ctx: &StrategyCtx,
        in_face: FaceId,
        entry: &mut PitEntry,
        fib: Option<&FibEntry>,
    ) -> InterestDecision {
        let decision = self.retx.decide(ctx.now, entry);
        if decision == RetxDecision::Suppress {
            return InterestDecision::Suppress;
        }
        let hops = fib.map(|f| f.nexthops.as_slice()).unwrap_or(&[]);
        if decision == RetxDecision::New {
            return match hops.iter().find(|h| ctx.is_eligible(in_face, h, entry, false)) {
                Some(h) => InterestDecision::Forward(Faces::from_slice(&[h.face])),
                None => InterestDecision::Reject(NackReason::NoRoute),
            };
        }
        if let Some(h) = hops.iter().find(|h| ctx.is_eligible(in_face, h, entry, true)) {
            return InterestDecision::Forward(Faces::from_slice(&[h.face]));
        }
        match ctx.least_recently_used(in_face, hops, entry) {
            Some(face) => InterestDecision::Forward(Faces::from_slice(&[face])),
            None => InterestDecision::Suppress,
        }
    }
}
