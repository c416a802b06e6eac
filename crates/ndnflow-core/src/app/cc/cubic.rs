//! CUBIC window (RFC 8312, whose shape RFC 9438 keeps), as ndnSIM `ConsumerPcon` implements it with
//! `CcAlgorithm = CUBIC` and ndnget's `--pipeline-type cubic`; one of the loss-based TCP windows
//! PCON says its feedback can drive (PCON §3.3). Feedback follows PCON §3.3 and Algorithm 1 (see
//! `cwa.rs`).
//!
//! With `t` the time in seconds since the last decrease (since the first Interest before any),
//! `W_max` the window just before it, `K = cbrt(W_max (1 - beta) / C)`:
//!
//! * `W_cubic(t) = C (t - K)^3 + W_max` (RFC 8312 Eq. 1-2);
//! * below ssthresh (only before the first decrease, unless `initial_ssthresh` is set): +1 per Data;
//! * otherwise, per Data: `w += max(target - w, 0) / w` with `target = W_cubic(t)`, or
//!   `max(W_cubic(t), W_est(t))` with the Reno-friendly region on. The clamp at 0 is ndnSIM's ("not
//!   part of the RFC, but I added it to improve performance"), kept by ndnget.
//! * `W_est(t) = W_max beta + 3 (1 - beta) / (1 + beta) * t / RTT` (RFC 8312 Eq. 4), RTT being the
//!   smoothed RTT of the Data samples (RFC 6298 gain 1/8). ndnSIM disables it (`w_est = 0`);
//!   ndnget enables it. Off by default, on with `reno_friendly`.
//! * decrease: `W_max <- w` (fast convergence, off by default as ndnSIM `UseCubicFastConvergence`
//!   and ndnget `--fast-conv`: when `w < 0.99 * last W_max`, `W_max <- w (1 + beta) / 2`);
//!   `ssthresh <- w <- max(w * beta, initial_window)`; the epoch restarts now.
//!
//! beta is 0.8 by default, ndnSIM `CubicBeta` (the simulator PCON was evaluated in); ndnget and
//! RFC 8312 use 0.7. ndnSIM measures `t` on the wall clock (`steady_clock::now()`), which inside a
//! simulation is a bug; we use simulated time.

use super::cwa::{SignalConfig, Signals, WindowLaw};
use super::DataSample;
use crate::Time;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CubicConfig {
    /// Initial window and floor of every decrease, in Interests (ndnSIM `Window` = 1).
    pub initial_window: f64,
    /// Initial slow-start threshold (infinite in ndnSIM and ndnget).
    pub initial_ssthresh: f64,
    /// Multiplicative decrease factor (ndnSIM `CubicBeta` = 0.8; ndnget `--cubic-beta` = 0.7).
    pub beta: f64,
    /// Scaling constant C, in Interests per second cubed (RFC 8312, ndnSIM `CUBIC_C` = 0.4).
    pub c: f64,
    /// RFC 8312 §4.6 fast convergence (ndnSIM `UseCubicFastConvergence` = false).
    pub fast_convergence: bool,
    /// RFC 8312 §4.2 TCP-friendly region (disabled in ndnSIM, enabled in ndnget).
    pub reno_friendly: bool,
    pub signals: SignalConfig,
}

impl Default for CubicConfig {
    fn default() -> Self {
        CubicConfig {
            initial_window: 1.0,
            initial_ssthresh: f64::INFINITY,
            beta: 0.8,
            c: 0.4,
            fast_convergence: false,
            reno_friendly: false,
            signals: SignalConfig::PCON,
        }
    }
}

pub struct Cubic {
    config: CubicConfig,
    cwnd: f64,
    ssthresh: f64,
    w_max: f64,
    last_w_max: f64,
    /// Start of the current epoch (last decrease, or first Interest).
    epoch: Option<Time>,
    srtt: Option<f64>,
    signals: Signals,
}

impl Cubic {
    /// Test helper: the same controller with its window set to `w` (the initial window stays the
    /// decrease floor).
    #[cfg(test)]
    fn with_cwnd(mut self, w: f64) -> Cubic {
        self.cwnd = w;
        self
    }

    pub fn new(config: CubicConfig) -> Cubic {
        Cubic {
            cwnd: config.initial_window.max(1.0),
            ssthresh: config.initial_ssthresh,
            w_max: 0.0,
            last_w_max: 0.0,
            epoch: None,
            srtt: None,
            signals: Signals::new(config.signals),
            config,
        }
    }

    pub fn w_max(&self) -> f64 {
        self.w_max
    }
    pub fn ssthresh(&self) -> f64 {
        self.ssthresh
    }
    pub fn decreases(&self) -> u64 {
        self.signals.decreases
    }

    /// K = cbrt(W_max (1 - beta) / C), seconds.
    pub fn k(&self) -> f64 {
        (self.w_max * (1.0 - self.config.beta) / self.config.c).cbrt()
    }

    /// W_cubic(t), `t` in seconds since the epoch.
    pub fn w_cubic(&self, t: f64) -> f64 {
        self.config.c * (t - self.k()).powi(3) + self.w_max
    }

    fn increase(&mut self, now: Time) {
        if self.cwnd < self.ssthresh {
            self.cwnd += 1.0;
            return;
        }
        let epoch = *self.epoch.get_or_insert(now);
        let t = now.saturating_sub(epoch).as_secs_f64();
        let mut target = self.w_cubic(t);
        if self.config.reno_friendly {
            if let Some(rtt) = self.srtt.filter(|r| *r > 0.0) {
                let b = self.config.beta;
                target = target.max(self.w_max * b + 3.0 * (1.0 - b) / (1.0 + b) * t / rtt);
            }
        }
        self.cwnd += (target - self.cwnd).max(0.0) / self.cwnd;
    }

    fn decrease(&mut self, now: Time) {
        let c = &self.config;
        if c.fast_convergence && self.cwnd < self.last_w_max * 0.99 {
            self.last_w_max = self.cwnd;
            self.w_max = self.cwnd * (1.0 + c.beta) / 2.0;
        } else {
            self.last_w_max = self.cwnd;
            self.w_max = self.cwnd;
        }
        self.ssthresh = (self.cwnd * c.beta).max(c.initial_window.max(1.0));
        self.cwnd = self.ssthresh;
        self.epoch = Some(now);
    }
}

impl WindowLaw for Cubic {
    const NAME: &'static str = "cubic";
    fn signals(&mut self) -> &mut Signals {
        &mut self.signals
    }
    fn grow(&mut self, now: Time) {
        self.increase(now);
    }
    fn shrink(&mut self, now: Time) {
        self.decrease(now);
    }
    fn cwnd(&self) -> f64 {
        self.cwnd
    }
    fn observe(&mut self, _now: Time, s: &DataSample) {
        if let Some(rtt) = s.rtt {
            let r = rtt.as_secs_f64();
            self.srtt = Some(self.srtt.map_or(r, |srtt| srtt + (r - srtt) / 8.0));
        }
    }
    fn sent(&mut self, now: Time) {
        self.epoch.get_or_insert(now);
    }
}

#[cfg(test)]
mod tests {
    use super::super::aimd::tests::{data, send};
    use super::*;
    use crate::app::cc::CongestionController;
    use crate::packet::LpHeader;

    fn w(c: &Cubic) -> f64 {
        c.window().unwrap()
    }
    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() < tol
    }
    fn ms(x: u64) -> Time {
        Time::from_millis(x)
    }

    /// Window 100, marked at t = 0: W_max = 100, w = ssthresh = 80, epoch 0.
    fn after_mark() -> Cubic {
        let mut c = Cubic::new(CubicConfig::default()).with_cwnd(100.0);
        send(&mut c, 10_000);
        data(&mut c, Time::ZERO, 1, 10_000, 1);
        c
    }

    #[test]
    fn slow_start_before_the_first_decrease() {
        let mut c = Cubic::new(CubicConfig::default());
        for k in 1..=20u64 {
            data(&mut c, ms(k), k, 100, 0);
            assert_eq!(w(&c), 1.0 + k as f64);
        }
    }

    #[test]
    fn window_follows_the_cubic_curve() {
        let c = after_mark();
        assert_eq!(w(&c), 80.0);
        assert_eq!(c.ssthresh(), 80.0);
        // K = cbrt(100 * 0.2 / 0.4) = cbrt(50) = 3.684031 s.
        assert!(close(c.k(), 3.684031, 1e-6));
        // W(0) = 0.4 * (-3.684031)^3 + 100 = -0.4 * 50 + 100 = 80 = beta * W_max.
        assert!(close(c.w_cubic(0.0), 80.0, 1e-9));
        // W(1) = 0.4 * (1 - 3.684031)^3 + 100 = 0.4 * (-19.33584) + 100 = 92.26567.
        assert!(close(c.w_cubic(1.0), 92.26567, 1e-4));
        // W(2) = 0.4 * (-1.684031)^3 + 100 = 0.4 * (-4.77585) + 100 = 98.08966.
        assert!(close(c.w_cubic(2.0), 98.08966, 1e-4));
        // W(K) = W_max.
        assert!(close(c.w_cubic(c.k()), 100.0, 1e-9));
        // W(5) = 0.4 * 1.315969^3 + 100 = 0.4 * 2.27896 + 100 = 100.91158 (convex region).
        assert!(close(c.w_cubic(5.0), 100.91158, 1e-4));
        // W(10) = 0.4 * 6.315969^3 + 100 = 0.4 * 251.9532 + 100 = 200.78128.
        assert!(close(c.w_cubic(10.0), 200.78128, 1e-4));
    }

    #[test]
    fn per_data_increment_is_distance_over_window() {
        let mut c = after_mark();
        // At t = 0 the target equals the window: increment 0.
        data(&mut c, Time::ZERO, 2, 10_000, 0);
        assert_eq!(w(&c), 80.0);
        // At t = 1 s: (92.26567 - 80) / 80 = 0.153321.
        data(&mut c, Time::from_secs(1), 3, 10_000, 0);
        assert!(close(w(&c), 80.153321, 1e-5));
    }

    #[test]
    fn increment_never_negative() {
        // In congestion avoidance from the start (ssthresh 10 < window 50) with W_max = 0: K = 0
        // and W(t) = 0.4 t^3, below the window until t = cbrt(50 / 0.4) = 5 s.
        let mut c = Cubic::new(CubicConfig { initial_window: 50.0, initial_ssthresh: 10.0, ..CubicConfig::default() });
        send(&mut c, 10_000); // epoch: first Interest, t = 0
                              // W(1) = 0.4, W(4) = 25.6, W(5) = 50: no change (the RFC would shrink the window).
        for (seg, t) in [(1, 1000), (2, 4000), (3, 5000)] {
            data(&mut c, ms(t), seg, 10_000, 0);
            assert_eq!(w(&c), 50.0);
        }
        // W(6) = 0.4 * 216 = 86.4: +(86.4 - 50) / 50 = 0.728.
        data(&mut c, ms(6000), 4, 10_000, 0);
        assert!(close(w(&c), 50.728, 1e-9));
    }

    #[test]
    fn decrease_restarts_the_epoch() {
        let mut c = after_mark();
        data(&mut c, Time::from_secs(1), 2, 10_000, 0); // 80.153321
        data(&mut c, Time::from_secs(2), 3, 10_000, 1);
        assert!(close(c.w_max(), 80.153321, 1e-5));
        assert!(close(w(&c), 80.153321 * 0.8, 1e-5));
        // New epoch at 2 s: one second later the target is W(1) for the new W_max.
        let target = c.w_cubic(1.0);
        let before = w(&c);
        data(&mut c, Time::from_secs(3), 4, 10_000, 0);
        assert!(close(w(&c), before + (target - before) / before, 1e-9));
    }

    #[test]
    fn fast_convergence_lowers_w_max() {
        let mut c = Cubic::new(CubicConfig { fast_convergence: true, ..CubicConfig::default() }).with_cwnd(100.0);
        send(&mut c, 10_000);
        data(&mut c, Time::ZERO, 1, 10_000, 1); // last 100, w 80
        data(&mut c, Time::ZERO, 2, 10_000, 1); // 80 < 99: W_max = 80 * 1.8 / 2 = 72, w = 64
        assert!(close(c.w_max(), 72.0, 1e-9));
        assert!(close(w(&c), 64.0, 1e-9));
    }

    #[test]
    fn reno_friendly_region() {
        // W_max 100, beta 0.8, smoothed RTT 10 ms. At t = 1 s:
        // W_est = 100 * 0.8 + 3 * 0.2 / 1.8 * (1 / 0.01) = 80 + 33.33333 = 113.33333, above
        // W_cubic(1) = 92.26567, so the Reno estimate sets the target.
        let mut c = Cubic::new(CubicConfig { reno_friendly: true, ..CubicConfig::default() }).with_cwnd(100.0);
        send(&mut c, 10_000);
        let lp = LpHeader::default();
        let s = DataSample {
            wire_size: 0,
            segment: 1,
            rtt: Some(ms(10)),
            congestion_mark: 1,
            highest_sent: 10_000,
            in_flight: 0,
            lp: &lp,
        };
        c.on_data(Time::ZERO, &s);
        assert_eq!(w(&c), 80.0);
        data(&mut c, Time::from_secs(1), 2, 10_000, 0);
        assert!(close(w(&c), 80.0 + (113.33333 - 80.0) / 80.0, 1e-5));
    }
}
