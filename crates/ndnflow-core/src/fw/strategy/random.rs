//! random (NFD RandomStrategy, daemon/fw/random-strategy.cpp): forward each Interest to one
//! eligible next hop drawn uniformly at random; no eligible next hop means Nack(NoRoute).
//!
//! As in NFD, there is no retransmission suppression: a retransmission is a new draw, so it may
//! take another next hop (NFD shuffles the eligible list and takes its head, a uniform draw).
//! Nacks follow NFD's ProcessNackTraits, as every strategy here does by default: the Nack goes
//! downstream once every upstream has Nacked. The draws come from the strategy's own seeded
//! ChaCha8 stream, so a run is reproducible.

use std::borrow::Cow;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::{Faces, InterestDecision, Strategy, StrategyCtx};
use crate::packet::NackReason;
use crate::table::{FaceId, FibEntry, PitEntry};

pub struct RandomStrategy {
    rng: ChaCha8Rng,
    /// Why the last decision went as it did (`Strategy::decision_reason`).
    reason: &'static str,
}

impl RandomStrategy {
    pub fn new(seed: u64) -> Self {
        RandomStrategy { rng: ChaCha8Rng::seed_from_u64(seed), reason: "" }
    }
}

const NO_NEXT_HOP: &str = "no eligible next hop";

impl Strategy for RandomStrategy {
    fn name(&self) -> &'static str {
        "random"
    }

    fn after_receive_interest(
        &mut self,
        ctx: &StrategyCtx,
        in_face: FaceId,
        entry: &mut PitEntry,
        fib: Option<&FibEntry>,
    ) -> InterestDecision {
        let hops = fib.map(|f| f.nexthops.as_slice()).unwrap_or(&[]);
        let eligible = hops.iter().filter(|h| ctx.is_eligible(in_face, h, entry, false));
        let n = eligible.clone().count();
        if n == 0 {
            self.reason = NO_NEXT_HOP;
            return InterestDecision::Reject(NackReason::NoRoute);
        }
        let pick = self.rng.random_range(0..n);
        match eligible.map(|h| h.face).nth(pick) {
            Some(face) => {
                self.reason = "uniform draw among the eligible next hops";
                InterestDecision::Forward(Faces::from_slice(&[face]))
            }
            None => {
                self.reason = NO_NEXT_HOP;
                InterestDecision::Reject(NackReason::NoRoute)
            }
        }
    }

    fn decision_reason(&self) -> Cow<'static, str> {
        Cow::Borrowed(self.reason)
    }
}
