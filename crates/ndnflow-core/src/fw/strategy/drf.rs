//! drf: Dynamic Request Forwarding, as Thibaud et al. ("An Analysis of NDN Congestion Control
//! Challenges", §II-A) describe it:
//! "Nodes monitor the number of Pending Interests (PI) on their interfaces in order to compute a
//! weight. When a node wants to forward an Interest, it performs a weighted round robin to select
//! the outgoing interface and then, updates its corresponding PI number and weight." (their
//! reference is Carofiglio et al., ICNP 2013).
//!
//! The weight of a face is 1 / (PI + 1), PI being its pending Interests for the FIB prefix
//! (counted by `pending`; the +1 counts the Interest about to be sent and keeps an idle face
//! finite). The round robin is the smooth weighted round robin: every eligible face adds its
//! weight to its credit, the face with the largest credit is chosen (ties within 1e-9 go to the
//! lowest cost, then lowest face id) and loses the sum of the weights. Credits are kept per FIB
//! prefix and face. Deterministic: no randomness.

use super::pending::{ChoiceReasons, NextHopChoice, PendingStrategy, PendingTracker};
use crate::table::{FaceId, Measurements, NextHop};
use crate::Name;

const TIE: f64 = 1e-9;

/// One step of the smooth weighted round robin over `hops` (non-empty, FIB order).
fn round_robin(credit: &mut Measurements<f64>, t: &PendingTracker, prefix: &Name, hops: &[NextHop]) -> FaceId {
    let mut total = 0.0;
    let mut best: Option<(FaceId, f64)> = None;
    for h in hops {
        let w = 1.0 / (t.pending(prefix, h.face) as f64 + 1.0);
        total += w;
        let c = credit.get_or_insert(prefix, h.face);
        *c += w;
        if best.is_none_or(|(_, b)| *c > b + TIE) {
            best = Some((h.face, *c));
        }
    }
    let face = best.map(|(f, _)| f).unwrap_or(hops[0].face);
    *credit.get_or_insert(prefix, face) -= total;
    face
}

/// DRF's choice: weighted round robin, with a credit per prefix and face.
#[derive(Default)]
pub struct WeightedRoundRobin {
    credit: Measurements<f64>,
}

impl NextHopChoice for WeightedRoundRobin {
    const NAME: &'static str = "drf";
    const REASONS: ChoiceReasons = ChoiceReasons {
        new: "new Interest: weighted round robin, weights 1 / (PI + 1)",
        retx: "retransmission: weighted round robin among unused next hops",
    };

    fn choose(&mut self, t: &PendingTracker, prefix: &Name, hops: &[NextHop]) -> FaceId {
        round_robin(&mut self.credit, t, prefix, hops)
    }
}

pub type DrfStrategy = PendingStrategy<WeightedRoundRobin>;

impl DrfStrategy {
    pub fn new() -> Self {
        PendingStrategy::with_choice(WeightedRoundRobin::default())
    }
}

impl Default for DrfStrategy {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::super::pending::test_util::*;
    use super::*;
    use crate::fw::strategy::{InterestDecision, Strategy, StrategyCtx};
    use crate::packet::{Data, LpHeader};
    use crate::table::FibEntry;
    use crate::Time;

    /// Forwards a new Interest and answers it at once, so the pending counts stay as preset.
    fn step(s: &mut DrfStrategy, ctx: &StrategyCtx, fib: &FibEntry, seg: u64) -> u32 {
        let mut e = entry(ctx.now, seg);
        let InterestDecision::Forward(f) = s.after_receive_interest(ctx, FaceId(0), &mut e, Some(fib)) else {
            panic!("not forwarded")
        };
        let data = Data::new(e.name().clone(), bytes::Bytes::new());
        s.before_satisfy_interest(ctx, &e, f[0], &data, &LpHeader::default());
        f[0].0
    }

    #[test]
    fn weighted_round_robin_with_fixed_pending_counts() {
        let faces = faces(2);
        let ctx = StrategyCtx { now: Time::ZERO, faces: &faces, fib: &crate::table::Fib::new() };
        let fib = fib(&[(1, 10), (2, 10)]);
        let p = prefix();
        let mut s = DrfStrategy::new();
        s.pending_mut().preset(&p, FaceId(1), 1);
        s.pending_mut().preset(&p, FaceId(2), 3);
        // Weights 1/2 and 1/4, sum 3/4. Credits (face 1, face 2) after adding, then the choice:
        // (1/2, 1/4) -> 1, (-1/4, 1/4); (1/4, 1/2) -> 2, (1/4, -1/4); (3/4, 0) -> 1, (0, 0);
        // then the cycle repeats: 1 2 1 1 2 1 ...
        let seq: Vec<u32> = (0..9).map(|i| step(&mut s, &ctx, &fib, i)).collect();
        assert_eq!(seq, vec![1, 2, 1, 1, 2, 1, 1, 2, 1]);
        assert_eq!(s.pending().pending(&p, FaceId(1)), 1);
        assert_eq!(s.pending().pending(&p, FaceId(2)), 3);
    }

    #[test]
    fn weights_follow_the_pending_counts_as_interests_stay_pending() {
        let faces = faces(2);
        let ctx = StrategyCtx { now: Time::ZERO, faces: &faces, fib: &crate::table::Fib::new() };
        let fib = fib(&[(1, 10), (2, 20)]);
        let mut s = DrfStrategy::new();
        // Nothing answered. Pending (1, 2) before each step, weights 1/(PI+1), credits after:
        // (0,0): w (1, 1), c (1, 1) tie -> 1 (cost), c (-1, 1), PI (1, 0)
        // w (1/2, 1), c (-1/2, 2) -> 2, c (-1/2, 1/2), PI (1, 1)
        // w (1/2, 1/2), c (0, 1) -> 2, c (0, 0), PI (1, 2)
        // w (1/2, 1/3), c (1/2, 1/3) -> 1, c (-1/3, 1/3), PI (2, 2)
        // w (1/3, 1/3), c (0, 2/3) -> 2, c (0, 0), PI (2, 3)
        // w (1/3, 1/4), c (1/3, 1/4) -> 1, PI (3, 3)
        let mut got = Vec::new();
        for i in 0..6 {
            let mut e = entry(Time::ZERO, i);
            match s.after_receive_interest(&ctx, FaceId(0), &mut e, Some(&fib)) {
                InterestDecision::Forward(f) => got.push(f[0].0),
                d => panic!("{d:?}"),
            }
        }
        assert_eq!(got, vec![1, 2, 2, 1, 2, 1]);
    }
}
