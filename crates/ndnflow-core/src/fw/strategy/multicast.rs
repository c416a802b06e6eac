//! multicast (NFD MulticastStrategy): forward to every eligible next hop.
//!
//! NFD suppresses retransmissions per upstream; this one decides per PIT entry with the same
//! exponential suppression as best-route, which differs only when upstreams answer at very
//! different times.

use std::borrow::Cow;

use super::{why, Faces, InterestDecision, RetxDecision, RetxSuppression, Strategy, StrategyCtx};
use crate::packet::NackReason;
use crate::table::{FaceId, FibEntry, PitEntry};

#[derive(Default)]
pub struct MulticastStrategy {
    retx: RetxSuppression,
    /// Why the last decision went as it did (`Strategy::decision_reason`).
    reason: &'static str,
}

impl MulticastStrategy {
    pub fn new() -> Self {
        Self::default()
    }
}

impl Strategy for MulticastStrategy {
    fn name(&self) -> &'static str {
        "multicast"
    }

    fn after_receive_interest(
        &mut self,
        ctx: &StrategyCtx,
        in_face: FaceId,
        entry: &mut PitEntry,
        fib: Option<&FibEntry>,
    ) -> InterestDecision {
        if self.retx.decide(ctx.now, entry) == RetxDecision::Suppress {
            self.reason = why::SUPPRESSED;
            return InterestDecision::Suppress;
        }
        let hops = fib.map(|f| f.nexthops.as_slice()).unwrap_or(&[]);
        let faces: Faces = hops.iter().filter(|h| ctx.is_eligible(in_face, h, entry, false)).map(|h| h.face).collect();
        if faces.is_empty() {
            self.reason = "no eligible next hop";
            InterestDecision::Reject(NackReason::NoRoute)
        } else {
            self.reason = "every eligible next hop";
            InterestDecision::Forward(faces)
        }
    }

    fn decision_reason(&self) -> Cow<'static, str> {
        Cow::Borrowed(self.reason)
    }
}
