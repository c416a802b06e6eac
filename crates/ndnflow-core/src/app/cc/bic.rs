//! BIC window (Xu, Harfoush, Rhee, "Binary Increase Congestion Control for Fast, Long Distance
//! Networks", INFOCOM 2004), as ndnSIM `ConsumerPcon` implements it with `CcAlgorithm = BIC`: the
//! consumer window PCON uses (PCON §3.3: "we switched to TCP BIC"; §4.1: a "slow start" with a
//! maximum increment of 16 Interests per RTT, then binary search after a loss event). Feedback
//! follows PCON §3.3 and Algorithm 1 (see `cwa.rs`).
//!
//! Per unmarked Data, with `w` the window and `w_max` the window at the last decrease (unbounded
//! before the first one and after max probing):
//!
//! * `w < low_window` (14): plain AIMD, +1 below ssthresh, else +1/w.
//! * binary search / additive increase: target = (w + w_max) / 2; the increase per RTT is
//!   `min(target - w, max_increment)`, applied as `increment / w` per Data. With `w_max` unbounded
//!   this is +16 per RTT, the "slow start" of PCON §4.1. ndnSIM keeps `min = w` and
//!   `target = (max + min) / 2` after each step; recomputing the target from the current window is
//!   the same thing.
//! * max probing: once `w` reaches `w_max` (within 1e-5, ndnSIM's "fix for equal double values"),
//!   `w_max` becomes unbounded and the increase per RTT restarts at 1 and doubles each time the
//!   window gains that much, until it reaches `max_increment`; then the additive +16 per RTT.
//!
//! Decrease, when `w >= low_window`: `w_max <- w`, `w <- beta * w` (beta = 0.8, ndnSIM
//! `CubicBeta`); fast convergence: when the window is below the previous `w_max`, `w_max <-
//! (w_max + w) / 2` after the decrease, i.e. `w_old * (1 + beta) / 2`. Below `low_window`: `ssthresh
//! <- w <- beta * w`. Every decrease is floored at the initial window (ndnSIM).
//!
//! Differences from ndnSIM's code, all at edges: ndnSIM starts its target at 0, which takes the
//! window one step *down* (by about 1) the first time it reaches 14; we start with an unbounded
//! target. ndnSIM also applies fast convergence when the previous maximum is still unbounded (the
//! first decrease, and the first after max probing), setting `w_max` to 0.9 w instead of w; we
//! apply it only against a finite previous maximum, as Linux `bictcp` (whose `last_max_cwnd`
//! starts at 0). A window that comes back above an old `w_max` from below `low_window` goes
//! straight to max probing instead of taking a negative binary-search step.

use super::cwa::{SignalConfig, Signals, WindowLaw};
use crate::Time;

/// ndnSIM's tolerance for "the window has reached w_max".
const EPS: f64 = 1e-5;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BicConfig {
    /// Initial window and floor of every decrease, in Interests (ndnSIM `Window` = 1).
    pub initial_window: f64,
    /// Slow-start threshold below `low_window` (infinite in ndnSIM).
    pub initial_ssthresh: f64,
    /// Multiplicative decrease factor (ndnSIM `CubicBeta` = 0.8, also used for BIC).
    pub beta: f64,
    /// Below this window BIC behaves as AIMD (ndnSIM `BIC_LOW_WINDOW` = 14, Linux `low_window`).
    pub low_window: f64,
    /// Largest increase per RTT, in Interests (ndnSIM `BIC_MAX_INCREMENT` = 16; PCON §4.1: 16).
    pub max_increment: f64,
    /// Fast convergence on a decrease below the previous maximum (always on in ndnSIM's BIC).
    pub fast_convergence: bool,
    pub signals: SignalConfig,
}

impl BicConfig {
    /// PCON-CS (PCON §3.3/§4.1; "PCON-CS" in Thibaud et al.): BIC with ndnSIM's constants,
    /// decrease on every mark, CWA for losses.
    pub fn pcon() -> BicConfig {
        BicConfig {
            initial_window: 1.0,
            initial_ssthresh: f64::INFINITY,
            beta: 0.8,
            low_window: 14.0,
            max_increment: 16.0,
            fast_convergence: true,
            signals: SignalConfig::PCON,
        }
    }
}

impl Default for BicConfig {
    fn default() -> Self {
        BicConfig::pcon()
    }
}

/// Max probing state: increase per RTT, and the window at which it doubles.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Probe {
    inc: f64,
    target: f64,
}

pub struct Bic {
    config: BicConfig,
    cwnd: f64,
    ssthresh: f64,
    /// Window at the last decrease; infinite when unknown.
    max_win: f64,
    probe: Option<Probe>,
    signals: Signals,
}

impl Bic {
    /// Test helper: the same controller with its window set to `w` (the initial window stays the
    /// decrease floor).
    #[cfg(test)]
    fn with_cwnd(mut self, w: f64) -> Bic {
        self.cwnd = w;
        self
    }

    pub fn new(config: BicConfig) -> Bic {
        Bic {
            cwnd: config.initial_window.max(1.0),
            ssthresh: config.initial_ssthresh,
            max_win: f64::INFINITY,
            probe: None,
            signals: Signals::new(config.signals),
            config,
        }
    }

    pub fn max_win(&self) -> f64 {
        self.max_win
    }
    pub fn ssthresh(&self) -> f64 {
        self.ssthresh
    }
    /// Increase per RTT while max probing.
    pub fn probing(&self) -> Option<f64> {
        self.probe.map(|p| p.inc)
    }
    pub fn decreases(&self) -> u64 {
        self.signals.decreases
    }

    fn increase(&mut self) {
        let c = self.config;
        if self.cwnd < c.low_window {
            if self.cwnd < self.ssthresh {
                self.cwnd += 1.0;
            } else {
                self.cwnd += 1.0 / self.cwnd;
            }
            return;
        }
        if self.probe.is_none() && self.cwnd + EPS >= self.max_win {
            self.start_probe();
        }
        if let Some(p) = &mut self.probe {
            self.cwnd += p.inc / self.cwnd;
            if self.cwnd >= p.target {
                p.inc *= 2.0;
                p.target = self.cwnd + p.inc;
            }
            if p.inc >= c.max_increment {
                self.probe = None;
            }
            return;
        }
        // Binary search towards the middle of [w, w_max], at most max_increment per RTT.
        let dist = (self.max_win - self.cwnd) / 2.0;
        let inc = if dist < c.max_increment { dist } else { c.max_increment };
        self.cwnd += inc / self.cwnd;
        if self.cwnd + EPS >= self.max_win {
            self.start_probe();
        }
    }

    fn start_probe(&mut self) {
        self.probe = Some(Probe { inc: 1.0, target: self.cwnd + 1.0 });
        self.max_win = f64::INFINITY;
    }

    fn decrease(&mut self) {
        let c = &self.config;
        if self.cwnd >= c.low_window {
            let prev_max = self.max_win;
            self.max_win = self.cwnd;
            self.cwnd *= c.beta;
            if c.fast_convergence && prev_max.is_finite() && prev_max > self.max_win {
                self.max_win = (self.max_win + self.cwnd) / 2.0;
            }
            self.probe = None;
        } else {
            self.ssthresh = self.cwnd * c.beta;
            self.cwnd = self.ssthresh;
        }
        self.cwnd = self.cwnd.max(c.initial_window.max(1.0));
    }
}

impl WindowLaw for Bic {
    const NAME: &'static str = "bic";
    fn signals(&mut self) -> &mut Signals {
        &mut self.signals
    }
    fn grow(&mut self, _now: Time) {
        self.increase();
    }
    fn shrink(&mut self, _now: Time) {
        self.decrease();
    }
    fn cwnd(&self) -> f64 {
        self.cwnd
    }
}

#[cfg(test)]
mod tests {
    use super::super::aimd::tests::{data, send};
    use super::*;
    use crate::app::cc::CongestionController;

    fn w(b: &Bic) -> f64 {
        b.window().unwrap()
    }
    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }
    fn with_window(initial: f64) -> Bic {
        let mut b = Bic::new(BicConfig::pcon()).with_cwnd(initial);
        send(&mut b, 10_000);
        b
    }

    #[test]
    fn low_window_is_slow_start_then_sixteen_per_rtt() {
        let mut b = with_window(1.0);
        for k in 1..=13u64 {
            data(&mut b, Time::ZERO, k, 10_000, 0);
            assert_eq!(w(&b), 1.0 + k as f64);
        }
        // At 14 with no maximum yet: additive max_increment per RTT, 16/14 per Data.
        data(&mut b, Time::ZERO, 14, 10_000, 0);
        assert!(close(w(&b), 14.0 + 16.0 / 14.0));
        assert_eq!(b.probing(), None);
    }

    #[test]
    fn binary_search_towards_the_last_maximum() {
        let mut b = with_window(100.0);
        data(&mut b, Time::ZERO, 1, 10_000, 1); // mark: w_max = 100, w = 80
        assert_eq!(w(&b), 80.0);
        assert_eq!(b.max_win(), 100.0);
        // target = (80 + 100) / 2 = 90, distance 10 < 16: w = 80 + 10/80 = 80.125.
        data(&mut b, Time::ZERO, 2, 10_000, 0);
        assert!(close(w(&b), 80.125));
        // target = (80.125 + 100) / 2 = 90.0625, distance 9.9375: w += 9.9375/80.125.
        data(&mut b, Time::ZERO, 3, 10_000, 0);
        assert!(close(w(&b), 80.125 + 9.9375 / 80.125));
    }

    #[test]
    fn increment_capped_at_sixteen_per_rtt() {
        let mut b = with_window(200.0);
        data(&mut b, Time::ZERO, 1, 10_000, 1); // w_max 200, w 160
                                                // target 180, distance 20 >= 16: +16/160 = 0.1.
        data(&mut b, Time::ZERO, 2, 10_000, 0);
        assert!(close(w(&b), 160.1));
        // Fast convergence: the next decrease is below the previous maximum 200:
        // w_max = 160.1, w = 128.08, then w_max = (160.1 + 128.08) / 2 = 144.09.
        data(&mut b, Time::ZERO, 3, 10_000, 1);
        assert!(close(w(&b), 128.08));
        assert!(close(b.max_win(), 144.09));
    }

    #[test]
    fn first_decrease_keeps_the_window_as_maximum() {
        let mut b = with_window(50.0);
        b.on_timeout(Time::ZERO, 3); // suppressed by CWA: nothing received yet
        assert_eq!(w(&b), 50.0);
        data(&mut b, Time::ZERO, 5, 10_000, 0); // +16/50
        b.on_timeout(Time::ZERO, 3);
        assert!(close(b.max_win(), 50.32));
        assert!(close(w(&b), 50.32 * 0.8));
    }

    #[test]
    fn low_window_decrease_sets_ssthresh() {
        let mut b = with_window(1.0);
        for seg in 1..=9 {
            data(&mut b, Time::ZERO, seg, 10_000, 0);
        }
        assert_eq!(w(&b), 10.0);
        data(&mut b, Time::ZERO, 10, 10_000, 1); // 10 * 0.8 = 8
        assert_eq!(w(&b), 8.0);
        assert_eq!(b.ssthresh(), 8.0);
        assert_eq!(b.max_win(), f64::INFINITY);
        data(&mut b, Time::ZERO, 11, 10_000, 0);
        assert!(close(w(&b), 8.125));
    }

    #[test]
    fn plateau_then_max_probing() {
        let mut b = with_window(100.0);
        data(&mut b, Time::ZERO, 1, 10_000, 1); // w_max 100, w 80
        let mut seg = 2;
        // Binary search approaches 100 from below and never passes it.
        while b.probing().is_none() {
            data(&mut b, Time::ZERO, seg, 10_000, 0);
            assert!(w(&b) <= 100.0 + EPS, "{}", w(&b));
            seg += 1;
            assert!(seg < 100_000, "never reached the maximum");
        }
        assert_eq!(b.max_win(), f64::INFINITY);
        assert_eq!(b.probing(), Some(1.0));
        // Probing starts at +1 per RTT, i.e. 1/w per Data.
        let before = w(&b);
        data(&mut b, Time::ZERO, seg, 10_000, 0);
        assert!(close(w(&b), before + 1.0 / before));
        // It doubles (1, 2, 4, 8, 16) and then leaves probing for +16 per RTT.
        let mut seen = vec![1.0];
        while let Some(inc) = b.probing() {
            if *seen.last().unwrap() != inc {
                seen.push(inc);
            }
            seg += 1;
            data(&mut b, Time::ZERO, seg, 10_000, 0);
        }
        assert_eq!(seen, vec![1.0, 2.0, 4.0, 8.0]);
        let before = w(&b);
        data(&mut b, Time::ZERO, seg + 1, 10_000, 0);
        assert!(close(w(&b), before + 16.0 / before));
    }

    #[test]
    fn floor_is_the_initial_window() {
        let mut cfg = BicConfig::pcon();
        cfg.signals.cwa = false;
        let mut b = Bic::new(cfg);
        for _ in 0..5 {
            b.on_timeout(Time::ZERO, 0);
        }
        assert_eq!(w(&b), 1.0);
    }
}
