//! RAAQM, Remote Adaptive Active Queue Management (Carofiglio, Gallo, Muscariello, Papalini,
//! "Multipath congestion control in content-centric networks", INFOCOM NOMEN 2013; Carofiglio et
//! al., ICNP 2013): a delay-based window whose decrease is a coin toss weighted by where the
//! current RTT sits between the smallest and largest of the recent samples. PCON (§4.4) and the
//! PTP paper use it as the delay-based baseline. This is the single-route form; per-route state
//! keyed by a Data path label comes with multipath.
//!
//! Defaults follow hICN's libtransport (FDio/hicn `raaqm.cc`, `raaqm_data_path.cc`,
//! `socket_options_default_values.h`; anchors table D):
//!
//! * The last `samples` = 30 RTT samples (Karn: retransmitted segments give none) are kept.
//!   Until there are 30 the decrease probability is 0; then
//!   `p = p_min + (p_max - p_min) (RTT - RTT_min) / (RTT_max - RTT_min)` from the current sample,
//!   clamped to [p_min, p_max], and `p = p_min` when all samples are equal. hICN writes
//!   `p_min + drop_factor (...)` with p_min = 1e-5 and drop_factor = 0.2, so p_max = 0.2 + 1e-5
//!   here. (The ndnSIM 1.0 port uses Pmax = 0.1.)
//! * On each Data with an RTT sample and a full window, one uniform draw in [0, 1): below p the
//!   window is multiplied by `beta` = 0.8 (hICN; the ndnSIM 1.0 port uses W (1 - 0.1) = 0.9 W),
//!   otherwise it grows by `gamma / W` with `gamma` = 1. hICN draws on every Data and has no
//!   once-per-RTT limit on these decreases; neither is there one here. (hICN increases on every
//!   Data and may then decrease; here a Data does one or the other.)
//! * A timeout (and a Nack(Congestion)) multiplies the window by `beta` too, every one, as hICN.
//! * The window stays within [`min_window`, `max_window`] = [1, 512] (hICN). It starts at
//!   `initial_window` = 1; there is no slow start (hICN).
//! * Congestion marks are not a RAAQM signal and are ignored.
//!
//! Draws come from a ChaCha8 stream seeded by the consumer, so a run is reproducible.

use std::collections::VecDeque;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::{CongestionController, DataSample};
use crate::packet::NackReason;
use crate::Time;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RaaqmConfig {
    /// Initial window, in Interests (1).
    pub initial_window: f64,
    /// Window floor and ceiling, in Interests (hICN: 1 and 512).
    pub min_window: f64,
    pub max_window: f64,
    /// Multiplicative decrease factor (hICN `beta` = 0.8).
    pub beta: f64,
    /// Additive increase per RTT: +gamma/W per Data (hICN `gamma` = 1).
    pub gamma: f64,
    /// Decrease probability at RTT_min (hICN `minimum_drop_probability` = 1e-5).
    pub p_min: f64,
    /// Decrease probability at RTT_max (hICN p_min + `drop_factor` 0.2).
    pub p_max: f64,
    /// RTT samples in the window (hICN `sample_number` = 30).
    pub samples: u32,
}

impl Default for RaaqmConfig {
    fn default() -> Self {
        RaaqmConfig {
            initial_window: 1.0,
            min_window: 1.0,
            max_window: 512.0,
            beta: 0.8,
            gamma: 1.0,
            p_min: 1e-5,
            p_max: 1e-5 + 0.2,
            samples: 30,
        }
    }
}

pub struct Raaqm {
    config: RaaqmConfig,
    cwnd: f64,
    rtts: VecDeque<Time>,
    rng: ChaCha8Rng,
    decreases: u64,
}

impl Raaqm {
    pub fn new(config: RaaqmConfig, seed: u64) -> Raaqm {
        let cwnd = config.initial_window.clamp(config.min_window.max(1.0), config.max_window.max(1.0));
        Raaqm { config, cwnd, rtts: VecDeque::new(), rng: ChaCha8Rng::seed_from_u64(seed), decreases: 0 }
    }

    pub fn decreases(&self) -> u64 {
        self.decreases
    }

    /// The decrease probability for an RTT `rtt` against the current sample window (0 until the
    /// window is full).
    pub fn probability(&self, rtt: Time) -> f64 {
        let c = &self.config;
        if self.rtts.len() < c.samples.max(1) as usize {
            return 0.0;
        }
        let min = self.rtts.iter().copied().min().unwrap_or(rtt);
        let max = self.rtts.iter().copied().max().unwrap_or(rtt);
        if max <= min {
            return c.p_min;
        }
        let x = (rtt.as_secs_f64() - min.as_secs_f64()) / (max.as_secs_f64() - min.as_secs_f64());
        (c.p_min + (c.p_max - c.p_min) * x).clamp(c.p_min, c.p_max)
    }

    fn add_sample(&mut self, rtt: Time) {
        if self.rtts.len() >= self.config.samples.max(1) as usize {
            self.rtts.pop_front();
        }
        self.rtts.push_back(rtt);
    }

    fn decrease(&mut self) {
        self.cwnd = (self.cwnd * self.config.beta).max(self.config.min_window.max(1.0));
        self.decreases += 1;
    }

    fn increase(&mut self) {
        self.cwnd = (self.cwnd + self.config.gamma / self.cwnd).min(self.config.max_window.max(1.0));
    }
}

impl CongestionController for Raaqm {
    fn name(&self) -> &'static str {
        "raaqm"
    }
    fn on_data(&mut self, _now: Time, s: &DataSample) {
        let Some(rtt) = s.rtt else {
            self.increase();
            return;
        };
        self.add_sample(rtt);
        let p = self.probability(rtt);
        if p > 0.0 && self.rng.random::<f64>() < p {
            self.decrease();
        } else {
            self.increase();
        }
    }
    fn on_timeout(&mut self, _now: Time, _segment: u64) {
        self.decrease();
    }
    fn on_nack(&mut self, _now: Time, _segment: u64, reason: NackReason, _marked: bool) {
        if reason == NackReason::Congestion {
            self.decrease();
        }
    }
    fn window(&self) -> Option<f64> {
        Some(self.cwnd)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::packet::LpHeader;

    fn data_rtt(cc: &mut Raaqm, seg: u64, rtt_ms: u64) {
        let lp = LpHeader::default();
        let s = DataSample {
            segment: seg,
            rtt: Some(Time::from_millis(rtt_ms)),
            congestion_mark: 0,
            highest_sent: seg,
            in_flight: 0,
            lp: &lp,
        };
        cc.on_data(Time::ZERO, &s);
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    #[test]
    fn probability_at_min_midpoint_and_max() {
        let cfg = RaaqmConfig { p_min: 0.01, p_max: 0.11, samples: 4, ..RaaqmConfig::default() };
        let mut r = Raaqm::new(cfg, 1);
        for (seg, ms) in [(0, 20), (1, 60), (2, 30), (3, 40)] {
            data_rtt(&mut r, seg, ms);
        }
        // RTT_min 20 ms, RTT_max 60 ms.
        assert!(close(r.probability(Time::from_millis(20)), 0.01));
        // Midpoint 40 ms: 0.01 + 0.10 * 0.5 = 0.06 = (p_min + p_max) / 2.
        assert!(close(r.probability(Time::from_millis(40)), 0.06));
        assert!(close(r.probability(Time::from_millis(60)), 0.11));
        // Outside the range: clamped.
        assert!(close(r.probability(Time::from_millis(100)), 0.11));
        assert!(close(r.probability(Time::from_millis(10)), 0.01));
    }

    #[test]
    fn equal_samples_give_p_min() {
        let mut r = Raaqm::new(RaaqmConfig { samples: 3, ..RaaqmConfig::default() }, 1);
        for seg in 0..3 {
            data_rtt(&mut r, seg, 25);
        }
        assert!(close(r.probability(Time::from_millis(25)), 1e-5));
    }

    #[test]
    fn no_decrease_before_the_window_is_full() {
        // p_min = p_max = 1: every Data once the window is full is a decrease.
        let cfg = RaaqmConfig { p_min: 1.0, p_max: 1.0, samples: 5, ..RaaqmConfig::default() };
        let mut r = Raaqm::new(cfg, 7);
        // Four samples: +1/W each, 1 -> 2 -> 2.5 -> 2.9 -> 2.9 + 1/2.9.
        for seg in 0..4 {
            data_rtt(&mut r, seg, 30 + seg);
        }
        let w4 = 2.9 + 1.0 / 2.9;
        assert!(close(r.window().unwrap(), w4));
        assert_eq!(r.decreases(), 0);
        // The fifth fills the window: decrease, x 0.8.
        data_rtt(&mut r, 4, 30);
        assert!(close(r.window().unwrap(), w4 * 0.8));
        assert_eq!(r.decreases(), 1);
        // Timeouts decrease too, down to the floor of 1.
        for _ in 0..10 {
            r.on_timeout(Time::ZERO, 9);
        }
        assert_eq!(r.window(), Some(1.0));
    }

    #[test]
    fn same_seed_same_decisions() {
        let run = |seed: u64| {
            let cfg = RaaqmConfig { p_min: 0.2, p_max: 0.6, samples: 10, ..RaaqmConfig::default() };
            let mut r = Raaqm::new(cfg, seed);
            let mut trace = Vec::new();
            for seg in 0..500u64 {
                data_rtt(&mut r, seg, 20 + (seg * 7919) % 31);
                trace.push(r.window().unwrap());
            }
            (trace, r.decreases())
        };
        let (a, da) = run(42);
        let (b, db) = run(42);
        assert_eq!(a, b);
        assert_eq!(da, db);
        assert!(da > 0);
        let (c, _) = run(43);
        assert_ne!(a, c);
    }
}
