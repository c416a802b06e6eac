//! rfa: Carofiglio et al.'s Request Forwarding Algorithm (ICNP 2013, the "CF" baseline of PCON
//! §4.4 and the forwarding half of OMCC-RF in the PTP paper's baselines): each eligible next hop
//! gets the weight 1 / avgPI, where avgPI is the moving average of the face's pending Interests for
//! the FIB prefix, and the Interest goes to one of them drawn at random in proportion to the
//! weights.
//!
//! The average is kept by `pending` (gain `pending::EWMA_GAIN` = 1/8, updated at every change of
//! the count). An average below one pending Interest counts as one (`MIN_AVG`): an idle face would
//! otherwise get an infinite weight. The random draw uses ChaCha8 seeded per forwarder, so a run is
//! deterministic per scenario seed.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::pending::{ChoiceReasons, NextHopChoice, PendingStrategy, PendingTracker};
use crate::table::{FaceId, NextHop};
use crate::Name;

/// Floor of avgPI in the weight 1 / avgPI.
pub const MIN_AVG: f64 = 1.0;

/// RFA's weight of each hop, in the order given: 1 / max(avgPI, MIN_AVG).
pub fn weights(t: &PendingTracker, prefix: &Name, hops: &[NextHop]) -> smallvec::SmallVec<[f64; 4]> {
    hops.iter().map(|h| 1.0 / t.avg(prefix, h.face).max(MIN_AVG)).collect()
}

/// Draws one of `hops` (non-empty) in proportion to its weight.
pub fn draw(rng: &mut ChaCha8Rng, t: &PendingTracker, prefix: &Name, hops: &[NextHop]) -> FaceId {
    let w = weights(t, prefix, hops);
    let total: f64 = w.iter().sum();
    let mut r = rng.random::<f64>() * total;
    for (h, w) in hops.iter().zip(&w) {
        if r < *w {
            return h.face;
        }
        r -= w;
    }
    hops[hops.len() - 1].face
}

/// RFA's choice: a random draw weighted by 1 / avgPI, from a seeded stream.
pub struct WeightedRandom {
    rng: ChaCha8Rng,
}

impl NextHopChoice for WeightedRandom {
    const NAME: &'static str = "rfa";
    const REASONS: ChoiceReasons = ChoiceReasons {
        new: "new Interest: random draw weighted by 1 / avgPI",
        retx: "retransmission: random draw weighted by 1 / avgPI among unused next hops",
    };

    fn choose(&mut self, t: &PendingTracker, prefix: &Name, hops: &[NextHop]) -> FaceId {
        draw(&mut self.rng, t, prefix, hops)
    }
}

pub type RfaStrategy = PendingStrategy<WeightedRandom>;

impl RfaStrategy {
    pub fn new(seed: u64) -> Self {
        PendingStrategy::with_choice(WeightedRandom { rng: ChaCha8Rng::seed_from_u64(seed) })
    }
}

#[cfg(test)]
mod tests {
    use super::super::pending::test_util::*;
    use super::*;
    use crate::fw::strategy::{Strategy, StrategyCtx};
    use crate::packet::{Data, LpHeader};
    use crate::Time;

    #[test]
    fn average_follows_the_ewma_and_weights_are_its_inverse() {
        let faces = faces(2);
        let ctx = StrategyCtx { now: Time::ZERO, faces: &faces, fib: &crate::table::Fib::new() };
        // Only face 1 is a next hop, so every Interest goes there.
        let fib = fib(&[(1, 10)]);
        let p = prefix();
        let mut s = RfaStrategy::new(7);
        let mut e0 = entry(Time::ZERO, 0);
        let mut e1 = entry(Time::ZERO, 1);
        s.after_receive_interest(&ctx, FaceId(0), &mut e0, Some(&fib));
        // pending 1: avg = 7/8 * 0 + 1/8 * 1 = 0.125
        assert_eq!(s.pending().avg(&p, FaceId(1)), 0.125);
        s.after_receive_interest(&ctx, FaceId(0), &mut e1, Some(&fib));
        // pending 2: avg = 7/8 * 0.125 + 1/8 * 2 = 0.359375
        assert_eq!(s.pending().avg(&p, FaceId(1)), 0.359375);
        let data = Data::new(e0.name().clone(), bytes::Bytes::new());
        s.before_satisfy_interest(&ctx, &e0, FaceId(1), &data, &LpHeader::default());
        // pending 1: avg = 7/8 * 0.359375 + 1/8 * 1 = 0.439453125
        assert_eq!(s.pending().pending(&p, FaceId(1)), 1);
        assert_eq!(s.pending().avg(&p, FaceId(1)), 0.439453125);

        // Weights: 1 / avg, an average below 1 counting as 1.
        let mut t = PendingTracker::default();
        t.preset_avg(&p, FaceId(1), 2.0);
        t.preset_avg(&p, FaceId(2), 8.0);
        t.preset_avg(&p, FaceId(3), 0.25);
        let hops = fib_hops(&[(1, 1), (2, 1), (3, 1)]);
        assert_eq!(weights(&t, &p, &hops).as_slice(), &[0.5, 0.125, 1.0]);
    }

    fn fib_hops(h: &[(u32, u64)]) -> Vec<NextHop> {
        fib(h).nexthops.to_vec()
    }

    #[test]
    fn split_over_10000_draws_matches_the_weights() {
        // avgPI 2, 4, 8 -> weights 1/2, 1/4, 1/8 -> shares 4/7, 2/7, 1/7 = 57.14 %, 28.57 %, 14.29 %.
        let p = prefix();
        let mut t = PendingTracker::default();
        t.preset_avg(&p, FaceId(1), 2.0);
        t.preset_avg(&p, FaceId(2), 4.0);
        t.preset_avg(&p, FaceId(3), 8.0);
        let hops = fib_hops(&[(1, 10), (2, 10), (3, 10)]);
        let mut rng = ChaCha8Rng::seed_from_u64(42);
        let mut count = [0u32; 4];
        for _ in 0..10_000 {
            count[draw(&mut rng, &t, &p, &hops).index()] += 1;
        }
        let expect = [4.0 / 7.0, 2.0 / 7.0, 1.0 / 7.0];
        for f in 1..=3 {
            let share = count[f] as f64 / 10_000.0;
            assert!((share - expect[f - 1]).abs() < 0.02, "face {f}: {share} vs {}", expect[f - 1]);
        }
    }

    #[test]
    fn same_seed_same_choices() {
        let faces = faces(2);
        let ctx = StrategyCtx { now: Time::ZERO, faces: &faces, fib: &crate::table::Fib::new() };
        let fib = fib(&[(1, 10), (2, 10)]);
        let run = |seed| {
            let mut s = RfaStrategy::new(seed);
            (0..200)
                .map(|i| {
                    let mut e = entry(Time::ZERO, i);
                    s.after_receive_interest(&ctx, FaceId(0), &mut e, Some(&fib))
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(run(3), run(3));
        assert_ne!(run(3), run(4));
    }
}
