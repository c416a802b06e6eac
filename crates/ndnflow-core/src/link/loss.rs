//! Random link loss: independent (Bernoulli) or bursty (Gilbert-Elliott two-state Markov chain).
//!
//! The models draw from a caller-supplied generator so a run's randomness lives in one seeded
//! place. Every uniform number is one `next_u64` mapped to [0, 1) with 53-bit resolution, and the
//! number of draws per call is fixed (0 for `None`, 1 for Bernoulli, 2 for Gilbert-Elliott)
//! whatever the parameters or outcome, so the stream stays aligned and runs are reproducible.
//! Probabilities outside [0, 1] act as clamped (below 0 or NaN: never; 1 or more: always).

use rand::Rng;

/// Uniform f64 in [0, 1) from the top 53 bits of one `u64`.
#[inline]
fn uniform<R: Rng + ?Sized>(rng: &mut R) -> f64 {
    (rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}

/// Each packet is lost independently with probability `p`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bernoulli {
    pub p: f64,
}

impl Bernoulli {
    pub fn new(p: f64) -> Bernoulli {
        Bernoulli { p }
    }

    /// One draw.
    #[inline]
    pub fn is_lost<R: Rng + ?Sized>(&mut self, rng: &mut R) -> bool {
        uniform(rng) < self.p
    }
}

/// Gilbert-Elliott channel: a Good and a Bad state with their own loss probabilities.
///
/// Per packet, the chain first moves (Good -> Bad with probability `p`, Bad -> Good with `r`), then
/// the packet is lost with the loss probability of the state it is now in. The chain starts in
/// Good, so the very first packet already sees Bad with probability `p`. With this order the long
/// run loss rate is `(r * loss_good + p * loss_bad) / (p + r)` and a stay in Bad lasts `1 / r`
/// packets on average (geometric).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GilbertElliott {
    /// P(Good -> Bad) per packet.
    pub p: f64,
    /// P(Bad -> Good) per packet.
    pub r: f64,
    /// Loss probability in Good (1 - k in Gilbert's notation).
    pub loss_good: f64,
    /// Loss probability in Bad (1 - h).
    pub loss_bad: f64,
    bad: bool,
}

impl GilbertElliott {
    pub fn new(p: f64, r: f64, loss_good: f64, loss_bad: f64) -> GilbertElliott {
        GilbertElliott { p, r, loss_good, loss_bad, bad: false }
    }

    /// Whether the chain is in the Bad state (after the last packet's transition).
    pub fn is_bad(&self) -> bool {
        self.bad
    }

    /// Long-run fraction of packets lost.
    pub fn stationary_loss(&self) -> f64 {
        (self.r * self.loss_good + self.p * self.loss_bad) / (self.p + self.r)
    }

    /// Two draws: the transition, then the loss in the new state.
    #[inline]
    pub fn is_lost<R: Rng + ?Sized>(&mut self, rng: &mut R) -> bool {
        let u = uniform(rng);
        self.bad = if self.bad { u >= self.r } else { u < self.p };
        let loss = if self.bad { self.loss_bad } else { self.loss_good };
        uniform(rng) < loss
    }
}

/// The loss model of one link direction.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum LossModel {
    /// Lossless; draws nothing.
    #[default]
    None,
    Bernoulli(Bernoulli),
    GilbertElliott(GilbertElliott),
}

impl LossModel {
    #[inline]
    pub fn is_lost<R: Rng + ?Sized>(&mut self, rng: &mut R) -> bool {
        match self {
            LossModel::None => false,
            LossModel::Bernoulli(b) => b.is_lost(rng),
            LossModel::GilbertElliott(g) => g.is_lost(rng),
        }
    }

    pub fn is_none(&self) -> bool {
        matches!(self, LossModel::None)
    }
}

impl From<Bernoulli> for LossModel {
    fn from(b: Bernoulli) -> LossModel {
        LossModel::Bernoulli(b)
    }
}

impl From<GilbertElliott> for LossModel {
    fn from(g: GilbertElliott) -> LossModel {
        LossModel::GilbertElliott(g)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn bernoulli_rate_within_four_sigma() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let mut m = LossModel::Bernoulli(Bernoulli::new(0.1));
        let n = 100_000;
        let lost = (0..n).filter(|_| m.is_lost(&mut rng)).count();
        // sigma of the count = sqrt(n p (1 - p)) = sqrt(9000) = 94.9; 4 sigma = 379.
        let sigma = (n as f64 * 0.1 * 0.9).sqrt();
        assert!((lost as f64 - 10_000.0).abs() < 4.0 * sigma, "lost {lost}");
    }

    #[test]
    fn bernoulli_edges() {
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        let mut never = Bernoulli::new(0.0);
        let mut always = Bernoulli::new(1.0);
        assert!((0..10_000).all(|_| !never.is_lost(&mut rng)));
        assert!((0..10_000).all(|_| always.is_lost(&mut rng)));
    }

    #[test]
    fn none_never_loses_and_draws_nothing() {
        let mut a = ChaCha8Rng::seed_from_u64(3);
        let mut b = ChaCha8Rng::seed_from_u64(3);
        let mut m = LossModel::default();
        assert!(m.is_none());
        assert!((0..1000).all(|_| !m.is_lost(&mut a)));
        assert_eq!(a.next_u64(), b.next_u64());
    }

    #[test]
    fn gilbert_elliott_stationary_loss_within_four_sigma() {
        let (p, r, lg, lb) = (0.01, 0.1, 0.001, 0.5);
        let mut ge = GilbertElliott::new(p, r, lg, lb);
        // (0.1 * 0.001 + 0.01 * 0.5) / 0.11 = 0.046364
        let expected = ge.stationary_loss();
        assert!((expected - 0.0051 / 0.11).abs() < 1e-12);

        let mut rng = ChaCha8Rng::seed_from_u64(4);
        let n = 200_000;
        let lost = (0..n).filter(|_| ge.is_lost(&mut rng)).count();
        let rate = lost as f64 / n as f64;

        // Losses are correlated through the state, so the per-sample variance of the mean is
        // L(1-L) + 2 (lb-lg)^2 pi_g pi_b lambda/(1-lambda), lambda = 1 - p - r (= 0.377 here,
        // against 0.044 for independent draws).
        let (pi_b, pi_g) = (p / (p + r), r / (p + r));
        let lambda = 1.0 - p - r;
        let var = expected * (1.0 - expected) + 2.0 * (lb - lg) * (lb - lg) * pi_g * pi_b * lambda / (1.0 - lambda);
        let sigma = (var / n as f64).sqrt();
        assert!((rate - expected).abs() < 4.0 * sigma, "rate {rate} expected {expected} sigma {sigma}");
    }

    /// Mean length of the runs of `true` in `xs`.
    fn mean_run(xs: impl Iterator<Item = bool>) -> (f64, usize) {
        let (mut runs, mut total, mut cur) = (0usize, 0usize, 0usize);
        for x in xs {
            if x {
                cur += 1;
            } else if cur > 0 {
                runs += 1;
                total += cur;
                cur = 0;
            }
        }
        (total as f64 / runs as f64, runs)
    }

    #[test]
    fn gilbert_elliott_bad_bursts_last_one_over_r() {
        let (p, r) = (0.02, 0.25);
        // 1 / r = 4 packets; runs ~ n pi_b r = 200k * 0.0741 * 0.25 = 3700; the geometric's sd is
        // sqrt(1 - r) / r = 3.46, so the mean's sd is about 0.057.
        let n = 200_000;

        // State runs, with arbitrary loss probabilities.
        let mut ge = GilbertElliott::new(p, r, 0.01, 0.3);
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let (mean, runs) = mean_run((0..n).map(|_| {
            ge.is_lost(&mut rng);
            ge.is_bad()
        }));
        let sigma = (1.0 - r).sqrt() / r / (runs as f64).sqrt();
        assert!((mean - 1.0 / r).abs() < 4.0 * sigma, "mean Bad stay {mean} over {runs} runs");

        // With loss only and always in Bad, loss bursts are exactly the Bad stays.
        let mut ge = GilbertElliott::new(p, r, 0.0, 1.0);
        let mut rng = ChaCha8Rng::seed_from_u64(6);
        let (mean, runs) = mean_run((0..n).map(|_| ge.is_lost(&mut rng)));
        let sigma = (1.0 - r).sqrt() / r / (runs as f64).sqrt();
        assert!((mean - 1.0 / r).abs() < 4.0 * sigma, "mean loss burst {mean} over {runs} runs");
    }

    #[test]
    fn same_seed_same_sequence() {
        let models = [
            LossModel::Bernoulli(Bernoulli::new(0.3)),
            LossModel::GilbertElliott(GilbertElliott::new(0.05, 0.2, 0.01, 0.6)),
        ];
        for model in models {
            let run = |seed: u64| {
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                let mut m = model;
                (0..5000).map(|_| m.is_lost(&mut rng)).collect::<Vec<bool>>()
            };
            assert_eq!(run(7), run(7));
            assert_ne!(run(7), run(8));
        }
    }

    #[test]
    fn works_through_a_dyn_rng() {
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        let dyn_rng: &mut dyn Rng = &mut rng;
        let mut m = LossModel::Bernoulli(Bernoulli::new(1.0));
        assert!(m.is_lost(dyn_rng));
    }
}
