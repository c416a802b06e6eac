//! multicast (NFD MulticastStrategy): forward to every eligible next hop.
//!
//! NFD suppresses retransmissions per upstream; this one decides per PIT entry with the same
//! exponential suppression as best-route, which differs only when upstreams answer at very
//! different times.

use super::{Faces, InterestDecision, RetxDecision, RetxSuppression, Strategy, StrategyCtx};
use crate::packet::NackReason;
use crate::table::{FaceId, FibEntry, PitEntry};

#[derive(Default)]
pub struct MulticastStrategy {
    retx: RetxSuppression,
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
            return InterestDecision::Suppress;
        }
        let hops = fib.map(|f| f.nexthops.as_slice()).unwrap_or(&[]);
        let faces: Faces = hops.iter().filter(|h| ctx.is_eligible(in_face, h, entry, false)).map(|h| h.face).collect();
        if faces.is_empty() {
            InterestDecision::Reject(NackReason::NoRoute)
        } else {
            InterestDecision::Forward(faces)
        }
    }
}
