//! Constant rate: `rate` Interests per second, unresponsive to feedback (ndnSIM ConsumerCbr
//! `Frequency`). Serves as cross-traffic and as the rate-based shape of the trait.
//!
//! ConsumerCbr's `Randomize` attribute spaces the Interests at random instead, with the same mean
//! gap 1 / rate (ndnSIM apps/ndn-consumer-cbr.cpp, `SetRandomize`):
//! * `"uniform"`: each gap drawn from U(0, 2 / rate);
//! * `"exponential"`: each gap drawn from an exponential law of mean 1 / rate, drawn again while
//!   it exceeds 50 / rate (ns-3's bounded `ExponentialRandomVariable` redraws above its bound), so
//!   Interests leave as a Poisson process truncated far in its tail (P(gap > 50 / rate) = e^-50).
//!
//! As in ConsumerCbr, the first Interest leaves at the consumer's start and the gaps follow it.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::{CongestionController, DataSample};
use crate::Time;

/// How the gaps between Interests are drawn (ndnSIM ConsumerCbr `Randomize`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Randomize {
    /// Every gap 1 / rate (ConsumerCbr's default, `"none"`).
    #[default]
    None,
    Uniform,
    Exponential,
}

impl Randomize {
    /// The scenario's names, in the order ndnSIM documents them.
    pub const NAMES: [&'static str; 3] = ["none", "uniform", "exponential"];

    pub fn parse(name: &str) -> Option<Randomize> {
        match name {
            "none" => Some(Randomize::None),
            "uniform" => Some(Randomize::Uniform),
            "exponential" => Some(Randomize::Exponential),
            _ => None,
        }
    }
}

/// ns-3's bound on an exponential gap, in mean gaps (ConsumerCbr: `50 * 1.0 / m_frequency`).
const EXPONENTIAL_BOUND: f64 = 50.0;

pub struct ConstantRate {
    /// The mean gap, seconds.
    mean: f64,
    randomize: Randomize,
    /// The gap after the next Interest sent (drawn when the previous one left).
    gap: Time,
    /// Draws nothing unless `randomize` asks, so a `"none"` consumer's stream is untouched.
    rng: ChaCha8Rng,
}

impl ConstantRate {
    /// `rate` in Interests per second (must be positive; the scenario reader checks).
    pub fn new(rate: f64, randomize: Randomize, seed: u64) -> ConstantRate {
        let mut c = ConstantRate { mean: 1.0 / rate, randomize, gap: Time::ZERO, rng: ChaCha8Rng::seed_from_u64(seed) };
        c.gap = c.draw();
        c
    }

    /// The next gap; at least 1 ns, so that a sending slot always lies in the future.
    fn draw(&mut self) -> Time {
        if !self.mean.is_finite() {
            // A rate below the smallest normal double (1e-309 /s) has an infinite mean gap, which
            // `from_secs_f64` reads as 0: the next Interest never comes, not in 1 ns.
            return Time(u64::MAX);
        }
        let secs = match self.randomize {
            Randomize::None => self.mean,
            Randomize::Uniform => self.rng.random::<f64>() * 2.0 * self.mean,
            Randomize::Exponential => loop {
                // 1 - u lies in (0, 1], so the logarithm is finite.
                let g = -self.mean * (1.0 - self.rng.random::<f64>()).ln();
                if g <= EXPONENTIAL_BOUND * self.mean {
                    break g;
                }
            },
        };
        Time::from_secs_f64(secs).max(Time(1))
    }
}

impl CongestionController for ConstantRate {
    fn name(&self) -> &'static str {
        "constant-rate"
    }
    fn on_data(&mut self, _now: Time, _sample: &DataSample) {}
    /// The consumer reads the gap before it sends and keeps it as the time to the next slot; the
    /// send then comes back here, and the following gap is drawn.
    fn on_interest_sent(&mut self, _now: Time, _segment: u64, _retransmission: bool) {
        if self.randomize != Randomize::None {
            self.gap = self.draw();
        }
    }
    fn interval(&self) -> Option<Time> {
        Some(self.gap)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The gaps a controller hands out over `n` sends, in seconds.
    fn gaps(c: &mut ConstantRate, n: usize) -> Vec<f64> {
        (0..n)
            .map(|i| {
                let g = c.interval().unwrap().as_secs_f64();
                c.on_interest_sent(Time::ZERO, i as u64, false);
                g
            })
            .collect()
    }

    #[test]
    fn without_randomize_every_gap_is_one_over_the_rate() {
        // 100 Interests/s: 10 ms, every time.
        let mut c = ConstantRate::new(100.0, Randomize::None, 1);
        assert!(gaps(&mut c, 50).iter().all(|&g| g == 0.01));
    }

    #[test]
    fn a_rate_whose_gap_is_too_long_to_hold_never_sends_again() {
        // 1e-309 /s lies below the smallest normal double: 1 / rate is infinite. Until 2026-11-28
        // the gap became 1 ns (8,388,608 Interests in 8 ms); it is now the longest time there is.
        for randomize in [Randomize::None, Randomize::Uniform, Randomize::Exponential] {
            let c = ConstantRate::new(1e-309, randomize, 1);
            assert_eq!(c.interval(), Some(Time(u64::MAX)), "{randomize:?}");
        }
    }

    #[test]
    fn uniform_gaps_span_zero_to_twice_the_mean_with_the_same_mean() {
        // U(0, 2/rate) at 100/s: within [0, 20 ms], mean 10 ms, standard deviation
        // 20 ms / sqrt(12) = 5.77 ms; over 100,000 gaps the mean's standard error is
        // 5.77 / sqrt(1e5) = 0.018 ms, so 10 ms ± 0.1 ms is more than five of them.
        let mut c = ConstantRate::new(100.0, Randomize::Uniform, 7);
        let g = gaps(&mut c, 100_000);
        assert!(g.iter().all(|&x| x > 0.0 && x <= 0.02));
        let mean = g.iter().sum::<f64>() / g.len() as f64;
        assert!((mean - 0.01).abs() < 1e-4, "mean {mean}");
        // A quarter of U(0, 20 ms) lies below 5 ms: 25 % ± 0.7 % (five standard errors of
        // sqrt(0.25 x 0.75 / 1e5) = 0.14 %).
        let below = g.iter().filter(|&&x| x < 0.005).count() as f64 / g.len() as f64;
        assert!((below - 0.25).abs() < 0.007, "share below 5 ms {below}");
    }

    #[test]
    fn exponential_gaps_are_memoryless_with_the_same_mean() {
        // Exponential of mean 10 ms: P(gap > 10 ms) = e^-1 = 0.3679 and P(gap > 30 ms) =
        // e^-3 = 0.0498; over 100,000 gaps their standard errors are 0.15 % and 0.07 %.
        let mut c = ConstantRate::new(100.0, Randomize::Exponential, 11);
        let g = gaps(&mut c, 100_000);
        let mean = g.iter().sum::<f64>() / g.len() as f64;
        // The standard deviation equals the mean: standard error 10 / sqrt(1e5) = 0.032 ms.
        assert!((mean - 0.01).abs() < 2e-4, "mean {mean}");
        let above = |t: f64| g.iter().filter(|&&x| x > t).count() as f64 / g.len() as f64;
        assert!((above(0.01) - (-1.0f64).exp()).abs() < 0.0075, "P(>mean) {}", above(0.01));
        assert!((above(0.03) - (-3.0f64).exp()).abs() < 0.0035, "P(>3 mean) {}", above(0.03));
        // Never past the bound of 50 mean gaps (0.5 s).
        assert!(g.iter().all(|&x| x <= 0.5));
    }

    #[test]
    fn names_parse_back() {
        for n in Randomize::NAMES {
            assert!(Randomize::parse(n).is_some());
        }
        assert_eq!(Randomize::parse("poisson"), None);
    }
}
