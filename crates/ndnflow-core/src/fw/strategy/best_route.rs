//! best-route (NFD BestRouteStrategy2): forward a new Interest to the lowest-cost eligible next hop;
//! a retransmission (after retransmission suppression) goes to an unused next hop if there is one,
//! else to the one used longest ago; no eligible next hop means Nack(NoRoute).

use std::borrow::Cow;

use super::{why, Faces, InterestDecision, RetxDecision, RetxSuppression, Strategy, StrategyCtx};
use crate::packet::NackReason;
use crate::table::{FaceId, FibEntry, PitEntry};

#[derive(Default)]
pub struct BestRouteStrategy {
    retx: RetxSuppression,
    /// Why the last decision went as it did (`Strategy::decision_reason`): a store per Interest,
    /// no branch.
    reason: &'static str,
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
            self.reason = why::SUPPRESSED;
            return InterestDecision::Suppress;
        }
        let hops = fib.map(|f| f.nexthops.as_slice()).unwrap_or(&[]);
        if decision == RetxDecision::New {
            self.reason = "new Interest: lowest-cost eligible next hop";
            return match hops.iter().find(|h| ctx.is_eligible(in_face, h, entry, false)) {
                Some(h) => InterestDecision::Forward(Faces::from_slice(&[h.face])),
                None => {
                    self.reason = why::NEW_NONE_ELIGIBLE;
                    InterestDecision::Reject(NackReason::NoRoute)
                }
            };
        }
        if let Some(h) = hops.iter().find(|h| ctx.is_eligible(in_face, h, entry, true)) {
            self.reason = "retransmission: lowest-cost unused next hop";
            return InterestDecision::Forward(Faces::from_slice(&[h.face]));
        }
        self.reason = why::RETX_LEAST_RECENT;
        match ctx.least_recently_used(in_face, hops, entry) {
            Some(face) => InterestDecision::Forward(Faces::from_slice(&[face])),
            None => InterestDecision::Suppress,
        }
    }

    fn decision_reason(&self) -> Cow<'static, str> {
        Cow::Borrowed(self.reason)
    }
}
