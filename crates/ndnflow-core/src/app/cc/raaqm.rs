//! RAAQM, Remote Adaptive Active Queue Management (Carofiglio, Gallo, Muscariello, Papalini,
//! "Multipath congestion control in content-centric networks", INFOCOM NOMEN 2013; Carofiglio et
//! al., ICNP 2013): a delay-based window whose decrease is a coin toss weighted by where the
//! current RTT sits between the smallest and largest of the recent samples *of the route the Data
//! came by*. PCON (§4.4) and the PTP paper use it as the delay-based baseline.
//!
//! Defaults follow hICN's libtransport as compiled (FDio/hicn `raaqm.cc`, `raaqm_data_path.cc`,
//! `socket_options_default_values.h`; anchors table D). An installed hICN overrides two of them
//! from the `consumer.conf` it installs into its configuration directory (`etc/hicn`) and reads at
//! every RAAQM consumer's start: `beta = 0.99`, `drop = 0.003` (`beta = 0.99, p_max = 0.00301`
//! here); the compiled values apply when that file is missing. We keep the compiled ones: the
//! papers that run RAAQM as a baseline describe it as latency-based, working at a short queue (PTP
//! §6 Sol.2 and Sol.4; DPCCP §VII-B-1, "the queue is nearly empty"), as the compiled values do on
//! their topologies, while with the installed ones RAAQM fills a 100-packet drop-tail queue of a
//! 30 ms path (docs/protocols/congestion-control.md has the derivation and the measurements).
//!
//! * Routes: a Data's route is its route label, the trajectory id that forwarders with
//!   `route_labels` fold hop by hop (fw/forwarder.rs); a Data without one is on route 0. Each route
//!   keeps its own RTT samples, as hICN keeps a `RaaqmDataPath` per path label; the window is one
//!   for all routes (NOMEN 2013: a single window, a per-route decrease probability).
//! * The last `samples` = 30 RTT samples of the route (Karn: retransmitted segments give none) are
//!   kept. Until the route has 30 the decrease probability is 0; then
//!   `p = p_min + (p_max - p_min) (RTT - RTT_min) / (RTT_max - RTT_min)` from the current sample and
//!   the route's min and max, clamped to [p_min, p_max], and `p = p_min` when all samples are
//!   equal. hICN writes `p_min + drop_factor (...)` with p_min = 1e-5 and drop_factor = 0.2, so
//!   p_max = 0.2 + 1e-5 here. (The ndnSIM 1.0 port uses Pmax = 0.1.)
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
//! Four options, off by default, give the RAAQM of the PTP and DPCCP papers' first author, as his
//! ndnSIM 2.7 fork has it (Y. Ye, `ndn-consumer-raaqm.cpp`; docs/protocols/congestion-control.md):
//! `threshold`, an RTT rise over the route's minimum that is noise, not congestion (5 ms there);
//! `per_window`, one decrease per window of Data per route; `slow_start`, +1 per Data until the
//! first decrease; and `on_timeout = Reset`, a timeout taking the window back to its initial size.
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
    /// RTT rise over the route's minimum read as noise: below it no decrease, above it the
    /// probability runs from `p_min` at RTT_min + threshold to `p_max` at RTT_max (0: hICN).
    pub threshold: Time,
    /// After a decrease, a route decreases again only once it has brought as many Data as the
    /// window held (false: hICN, a draw on every Data).
    pub per_window: bool,
    /// +1 per Data until the first decrease (false: hICN, +gamma/W from the start).
    pub slow_start: bool,
    /// What a timeout does to the window.
    pub on_timeout: RaaqmTimeout,
}

/// A RAAQM window's answer to a timeout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RaaqmTimeout {
    /// Multiply by `beta` (hICN).
    Decrease,
    /// Back to `initial_window` (Ye's ndnSIM consumer, `InitialWindowOnTimeout`).
    Reset,
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
            threshold: Time::ZERO,
            per_window: false,
            slow_start: false,
            on_timeout: RaaqmTimeout::Decrease,
        }
    }
}

/// Routes kept at most; the least recently used one goes first. Route labels are hashes, so a
/// network with Content Stores could hand a consumer many; a few are what multipath gives.
const MAX_ROUTES: usize = 64;

/// One route's recent RTT samples.
struct Route {
    label: u64,
    rtts: VecDeque<Time>,
    /// Data count when the route was last used (for eviction).
    last_used: u64,
    /// Data the route must still bring before it may decrease again (`per_window`).
    holdoff: f64,
}

pub struct Raaqm {
    config: RaaqmConfig,
    cwnd: f64,
    routes: Vec<Route>,
    samples_seen: u64,
    rng: ChaCha8Rng,
    decreases: u64,
}

impl Raaqm {
    pub fn new(config: RaaqmConfig, seed: u64) -> Raaqm {
        let cwnd = config.initial_window.clamp(config.min_window.max(1.0), config.max_window.max(1.0));
        Raaqm { config, cwnd, routes: Vec::new(), samples_seen: 0, rng: ChaCha8Rng::seed_from_u64(seed), decreases: 0 }
    }

    pub fn decreases(&self) -> u64 {
        self.decreases
    }

    /// Routes seen so far (at most 64 are kept).
    pub fn routes(&self) -> usize {
        self.routes.len()
    }

    /// The decrease probability for an RTT `rtt` on route `label` against that route's samples (0
    /// until it has a full window of them).
    pub fn probability(&self, label: u64, rtt: Time) -> f64 {
        self.routes.iter().find(|r| r.label == label).map_or(0.0, |route| self.route_probability(route, rtt))
    }

    fn route_probability(&self, route: &Route, rtt: Time) -> f64 {
        let c = &self.config;
        if route.rtts.len() < c.samples.max(1) as usize {
            return 0.0;
        }
        let min = route.rtts.iter().copied().min().unwrap_or(rtt);
        let max = route.rtts.iter().copied().max().unwrap_or(rtt);
        // The range starts `threshold` above the minimum; an RTT below its start is noise. (Ye:
        // "To tolerate RTT noise".)
        let floor = min + c.threshold;
        if c.threshold > Time::ZERO && rtt < floor {
            return 0.0;
        }
        if max <= floor {
            return c.p_min;
        }
        let x = (rtt.as_secs_f64() - floor.as_secs_f64()) / (max.as_secs_f64() - floor.as_secs_f64());
        (c.p_min + (c.p_max - c.p_min) * x).clamp(c.p_min, c.p_max)
    }

    /// Adds `rtt` to route `label`'s samples (the route created if new); returns the route's index.
    fn add_sample(&mut self, label: u64, rtt: Time) -> usize {
        self.samples_seen += 1;
        let index = match self.routes.iter().position(|r| r.label == label) {
            Some(i) => i,
            None => {
                if self.routes.len() >= MAX_ROUTES {
                    let oldest = (0..self.routes.len()).min_by_key(|&i| self.routes[i].last_used).unwrap_or(0);
                    self.routes.swap_remove(oldest);
                }
                self.routes.push(Route { label, rtts: VecDeque::new(), last_used: 0, holdoff: 0.0 });
                self.routes.len() - 1
            }
        };
        let route = &mut self.routes[index];
        route.last_used = self.samples_seen;
        if route.rtts.len() >= self.config.samples.max(1) as usize {
            route.rtts.pop_front();
        }
        route.rtts.push_back(rtt);
        index
    }

    fn decrease(&mut self) {
        self.cwnd = (self.cwnd * self.config.beta).max(self.config.min_window.max(1.0));
        self.decreases += 1;
    }

    fn increase(&mut self) {
        // Slow start lasts until the first decrease (a reset timeout is not one).
        let slow_start = self.config.slow_start && self.decreases == 0;
        let step = if slow_start { 1.0 } else { self.config.gamma / self.cwnd };
        self.cwnd = (self.cwnd + step).min(self.config.max_window.max(1.0));
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
        let label = s.lp.trajectory_id().unwrap_or(0);
        // The route just sampled, found once: a consumer runs this for every Data.
        let route = self.add_sample(label, rtt);
        // Under `per_window` the route counts down the window it decreased at (Ye's `m_counter`,
        // one less per Data of the route) and draws again only at zero.
        let held = self.config.per_window && {
            let r = &mut self.routes[route];
            r.holdoff = (r.holdoff - 1.0).max(0.0);
            r.holdoff > 0.0
        };
        let p = if held { 0.0 } else { self.route_probability(&self.routes[route], rtt) };
        if p > 0.0 && self.rng.random::<f64>() < p {
            self.routes[route].holdoff = self.cwnd;
            self.decrease();
        } else {
            self.increase();
        }
    }
    fn on_timeout(&mut self, _now: Time, _segment: u64) {
        match self.config.on_timeout {
            RaaqmTimeout::Decrease => self.decrease(),
            RaaqmTimeout::Reset => {
                let c = &self.config;
                self.cwnd = c.initial_window.clamp(c.min_window.max(1.0), c.max_window.max(1.0));
            }
        }
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
        data_on_route(cc, seg, rtt_ms, None);
    }

    /// A Data whose route label (trajectory id) is `label`.
    fn data_on_route(cc: &mut Raaqm, seg: u64, rtt_ms: u64, label: Option<u64>) {
        let mut lp = LpHeader::default();
        if label.is_some() {
            lp.ext_mut().trajectory_id = label;
        }
        let s = DataSample {
            wire_size: 0,
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
        assert!(close(r.probability(0, Time::from_millis(20)), 0.01));
        // Midpoint 40 ms: 0.01 + 0.10 * 0.5 = 0.06 = (p_min + p_max) / 2.
        assert!(close(r.probability(0, Time::from_millis(40)), 0.06));
        assert!(close(r.probability(0, Time::from_millis(60)), 0.11));
        // Outside the range: clamped.
        assert!(close(r.probability(0, Time::from_millis(100)), 0.11));
        assert!(close(r.probability(0, Time::from_millis(10)), 0.01));
    }

    #[test]
    fn equal_samples_give_p_min() {
        let mut r = Raaqm::new(RaaqmConfig { samples: 3, ..RaaqmConfig::default() }, 1);
        for seg in 0..3 {
            data_rtt(&mut r, seg, 25);
        }
        assert!(close(r.probability(0, Time::from_millis(25)), 1e-5));
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

    #[test]
    fn each_route_has_its_own_rtt_range() {
        let cfg = RaaqmConfig { p_min: 0.01, p_max: 0.11, samples: 3, ..RaaqmConfig::default() };
        let mut r = Raaqm::new(cfg, 1);
        // A short route (label 7: 20, 30, 40 ms) and a long one (label 9: 70, 80, 90 ms), interleaved.
        for (seg, ms, label) in [(0, 20, 7), (1, 70, 9), (2, 30, 7), (3, 80, 9), (4, 40, 7), (5, 90, 9)] {
            data_on_route(&mut r, seg, ms, Some(label));
        }
        assert_eq!(r.routes(), 2);
        // Each midpoint is half way up its own range: 0.01 + 0.10 x 0.5 = 0.06.
        assert!(close(r.probability(7, Time::from_millis(30)), 0.06));
        assert!(close(r.probability(9, Time::from_millis(80)), 0.06));
        // The long route's base RTT is no congestion on it: 70 ms is its minimum, p_min...
        assert!(close(r.probability(9, Time::from_millis(70)), 0.01));
        // ...where one range over both routes (20 to 90 ms) would put it at 0.01 + 0.10 x 50/70.
        let mut single = Raaqm::new(cfg, 1);
        for (seg, ms) in [(0, 20), (1, 90), (2, 40)] {
            data_rtt(&mut single, seg, ms);
        }
        assert!(close(single.probability(0, Time::from_millis(70)), 0.01 + 0.10 * 50.0 / 70.0));
        // A route with fewer samples than the window draws nothing yet; an unknown one neither.
        data_on_route(&mut r, 6, 50, Some(11));
        assert_eq!(r.probability(11, Time::from_millis(50)), 0.0);
        assert_eq!(r.probability(12, Time::from_millis(50)), 0.0);
        // Unlabelled Data are route 0.
        assert_eq!(single.routes(), 1);
        assert!(single.probability(0, Time::from_millis(20)) > 0.0);
    }

    #[test]
    fn a_threshold_reads_a_small_rise_as_noise() {
        // Samples 20..=30 ms: RTT_min 20, RTT_max 30; a 5 ms threshold starts the range at 25.
        let cfg =
            RaaqmConfig { p_min: 0.01, p_max: 0.51, samples: 3, threshold: Time::from_millis(5), ..Default::default() };
        let mut r = Raaqm::new(cfg, 1);
        for (seg, ms) in [(0, 20), (1, 30), (2, 22)] {
            data_rtt(&mut r, seg, ms);
        }
        // 24 ms is 4 ms over the minimum: noise, no draw at all (not even p_min).
        assert_eq!(r.probability(0, Time::from_millis(24)), 0.0);
        assert!(close(r.probability(0, Time::from_millis(25)), 0.01));
        // Half way from 25 to 30 ms: 0.01 + 0.5 x 0.5 = 0.26.
        assert!(close(r.probability(0, Time::from_millis(27) + Time::from_micros(500)), 0.26));
        assert!(close(r.probability(0, Time::from_millis(30)), 0.51));
    }

    #[test]
    fn per_window_a_route_decreases_once_per_window_of_its_data() {
        // Every draw decreases (p = 1, one sample fills the window). From a window of 8 the first
        // Data decreases (8 x 0.8 = 6.4) and holds the route for 8 of its Data: the next 7 grow the
        // window, the 9th decreases again. Another route is not held.
        let cfg = RaaqmConfig {
            p_min: 1.0,
            p_max: 1.0,
            samples: 1,
            initial_window: 8.0,
            per_window: true,
            ..Default::default()
        };
        let mut r = Raaqm::new(cfg, 1);
        data_on_route(&mut r, 0, 30, Some(1));
        assert!(close(r.window().unwrap(), 6.4));
        let mut w = 6.4;
        for seg in 1..8 {
            data_on_route(&mut r, seg, 30, Some(1));
            w += 1.0 / w;
        }
        assert!(close(r.window().unwrap(), w));
        assert_eq!(r.decreases(), 1);
        data_on_route(&mut r, 8, 30, Some(1));
        assert_eq!(r.decreases(), 2);
        assert!(close(r.window().unwrap(), w * 0.8));
        // Route 2 was never held: its first Data decreases at once.
        data_on_route(&mut r, 9, 30, Some(2));
        assert_eq!(r.decreases(), 3);
    }

    #[test]
    fn slow_start_ends_at_the_first_decrease_and_a_reset_timeout_restarts_the_window() {
        let cfg = RaaqmConfig {
            p_min: 1.0,
            p_max: 1.0,
            samples: 5,
            slow_start: true,
            per_window: true,
            on_timeout: RaaqmTimeout::Reset,
            ..Default::default()
        };
        let mut r = Raaqm::new(cfg, 1);
        // Four Data before the samples window is full: +1 each, 1 -> 5.
        for seg in 0..4 {
            data_rtt(&mut r, seg, 30);
        }
        assert_eq!(r.window(), Some(5.0));
        // The fifth decreases (5 x 0.8 = 4) and ends slow start: the sixth, held, adds 1/4.
        data_rtt(&mut r, 4, 30);
        assert_eq!(r.window(), Some(4.0));
        data_rtt(&mut r, 5, 30);
        assert_eq!(r.window(), Some(4.25));
        // A timeout takes the window back to its initial size, not x beta.
        r.on_timeout(Time::ZERO, 6);
        assert_eq!(r.window(), Some(1.0));
        assert_eq!(r.decreases(), 1);
    }

    #[test]
    fn beyond_64_routes_the_least_recently_used_goes() {
        let cfg = RaaqmConfig { samples: 2, ..RaaqmConfig::default() };
        let mut r = Raaqm::new(cfg, 1);
        // Routes 1..=64, two samples each (10 and 20 ms): every window full.
        for label in 1..=64u64 {
            data_on_route(&mut r, 2 * label, 10, Some(label));
            data_on_route(&mut r, 2 * label + 1, 20, Some(label));
        }
        assert_eq!(r.routes(), 64);
        // Route 1 is used again, so route 2 is now the least recently used.
        data_on_route(&mut r, 200, 10, Some(1));
        // A 65th route takes route 2's place; route 1 keeps its samples (now 20 and 10 ms: 15 ms
        // is half way, (p_min + p_max) / 2), route 2 starts again from nothing.
        data_on_route(&mut r, 201, 10, Some(65));
        assert_eq!(r.routes(), 64);
        assert!(close(r.probability(1, Time::from_millis(15)), (cfg.p_min + cfg.p_max) / 2.0));
        assert_eq!(r.probability(2, Time::from_millis(15)), 0.0);
        assert!(close(r.probability(3, Time::from_millis(15)), (cfg.p_min + cfg.p_max) / 2.0));
    }
}
