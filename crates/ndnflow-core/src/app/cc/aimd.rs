//! AIMD window (TCP Reno's shape without fast retransmit): the window controller of ICP
//! (Carofiglio et al., 2012, as summarised in the survey of Thibaud et al., §II "end-to-end") and
//! ndnSIM `ConsumerPcon` with `CcAlgorithm = AIMD`, under PCON's feedback rules (PCON §3.3,
//! Algorithm 1; see `cwa.rs`).
//!
//! * Slow start, while `cwnd < ssthresh`: +1 per unmarked Data (the window doubles per RTT).
//! * Congestion avoidance: +1/cwnd per unmarked Data (+1 per RTT).
//! * Decrease (timeout or Nack(Congestion) through CWA, each marked Data directly):
//!   `cwnd <- max(cwnd * beta, initial_window)`, `ssthresh <- cwnd`.
//!
//! The floor is the initial window, as ndnSIM `ConsumerPcon` ("Window size cannot be reduced below
//! initial size"); ndnget floors ssthresh at `MIN_SSTHRESH = 2` instead. ndnSIM floors only the
//! window and lets ssthresh fall below it; flooring both keeps `ssthresh <= cwnd` after a decrease,
//! so the next Data is in congestion avoidance either way.

use super::cwa::{SignalConfig, Signals, WindowLaw};
use crate::Time;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AimdConfig {
    /// Initial window and floor of every decrease, in Interests (ndnSIM `ConsumerWindow`
    /// `Window` = 1; ndnget `--init-cwnd` = 2).
    pub initial_window: f64,
    /// Initial slow-start threshold (infinite in ndnSIM and ndnget `--init-ssthresh`).
    pub initial_ssthresh: f64,
    /// Multiplicative decrease factor (ndnSIM `Beta` = 0.5, ndnget `--aimd-beta` = 0.5; ICP halves).
    pub beta: f64,
    pub signals: SignalConfig,
}

impl Default for AimdConfig {
    fn default() -> Self {
        AimdConfig { initial_window: 1.0, initial_ssthresh: f64::INFINITY, beta: 0.5, signals: SignalConfig::PCON }
    }
}

pub struct Aimd {
    config: AimdConfig,
    cwnd: f64,
    ssthresh: f64,
    signals: Signals,
}

impl Aimd {
    pub fn new(config: AimdConfig) -> Aimd {
        let initial = config.initial_window.max(1.0);
        Aimd { cwnd: initial, ssthresh: config.initial_ssthresh, signals: Signals::new(config.signals), config }
    }

    pub fn ssthresh(&self) -> f64 {
        self.ssthresh
    }
    pub fn decreases(&self) -> u64 {
        self.signals.decreases
    }

    fn increase(&mut self) {
        if self.cwnd < self.ssthresh {
            self.cwnd += 1.0;
        } else {
            self.cwnd += 1.0 / self.cwnd;
        }
    }

    fn decrease(&mut self) {
        self.cwnd = (self.cwnd * self.config.beta).max(self.config.initial_window.max(1.0));
        self.ssthresh = self.cwnd;
    }
}

impl WindowLaw for Aimd {
    const NAME: &'static str = "aimd";
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
pub(crate) mod tests {
    use super::*;
    use crate::app::cc::{CongestionController, DataSample};
    use crate::packet::LpHeader;

    /// Feeds Data for `seg` (mark 0 or 1) with everything up to `high` sent.
    pub(crate) fn data(cc: &mut dyn CongestionController, now: Time, seg: u64, high: u64, mark: u64) {
        let lp = LpHeader::default();
        let s = DataSample {
            wire_size: 0,
            segment: seg,
            rtt: None,
            congestion_mark: mark,
            highest_sent: high,
            in_flight: 0,
            lp: &lp,
        };
        cc.on_data(now, &s);
    }

    pub(crate) fn send(cc: &mut dyn CongestionController, upto: u64) {
        for seg in 0..=upto {
            cc.on_interest_sent(Time::ZERO, seg, false);
        }
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    #[test]
    fn slow_start_adds_one_per_data() {
        let mut a = Aimd::new(AimdConfig::default());
        assert_eq!(a.window(), Some(1.0));
        for k in 1..=10u64 {
            data(&mut a, Time::ZERO, k, 100, 0);
            assert_eq!(a.window(), Some(1.0 + k as f64));
        }
    }

    #[test]
    fn decrease_halves_sets_ssthresh_then_avoidance() {
        let mut a = Aimd::new(AimdConfig::default());
        send(&mut a, 200);
        for seg in 1..=15 {
            data(&mut a, Time::ZERO, seg, 200, 0);
        }
        assert_eq!(a.window(), Some(16.0));
        a.on_timeout(Time::ZERO, 16);
        // 16 * 0.5 = 8, ssthresh = 8.
        assert_eq!(a.window(), Some(8.0));
        assert_eq!(a.ssthresh(), 8.0);
        // Congestion avoidance: 8 + 1/8 = 8.125, then 8.125 + 1/8.125 = 8.248077 (hand: 1/8.125 =
        // 0.1230769).
        data(&mut a, Time::ZERO, 201, 220, 0);
        assert!(close(a.window().unwrap(), 8.125));
        data(&mut a, Time::ZERO, 202, 220, 0);
        assert!(close(a.window().unwrap(), 8.125 + 1.0 / 8.125));
        // About +1 per window's worth of Data: 8 more Data take it from ~8.25 to ~9.2.
        for seg in 203..211 {
            data(&mut a, Time::ZERO, seg, 220, 0);
        }
        let w = a.window().unwrap();
        assert!(w > 9.1 && w < 9.3, "{w}");
    }

    #[test]
    fn burst_of_timeouts_is_one_decrease() {
        let mut a = Aimd::new(AimdConfig::default());
        send(&mut a, 40);
        for seg in 1..=31 {
            data(&mut a, Time::ZERO, seg, 40, 0);
        }
        assert_eq!(a.window(), Some(32.0));
        for seg in 32..37 {
            a.on_timeout(Time::ZERO, seg);
        }
        assert_eq!(a.window(), Some(16.0));
        assert_eq!(a.decreases(), 1);
        // Data for an Interest sent after the decrease (41 > rec point 40): the next timeout counts.
        send(&mut a, 50);
        data(&mut a, Time::ZERO, 41, 50, 0); // CA: 16 + 1/16
        a.on_timeout(Time::ZERO, 42);
        assert!(close(a.window().unwrap(), (16.0 + 1.0 / 16.0) * 0.5));
        assert_eq!(a.decreases(), 2);
    }

    #[test]
    fn every_mark_decreases_regardless_of_cwa() {
        let mut a = Aimd::new(AimdConfig { initial_window: 64.0, ..AimdConfig::default() });
        send(&mut a, 100);
        data(&mut a, Time::ZERO, 1, 100, 0); // slow start: 65
        a.on_timeout(Time::ZERO, 2); // 32.5, rec point 100
        for seg in 3..6 {
            data(&mut a, Time::ZERO, seg, 100, 1);
        }
        // Marks halve three times but the floor is the initial window, 64: stuck at 64.
        assert_eq!(a.window(), Some(64.0));
        assert_eq!(a.decreases(), 4);

        let mut a = Aimd::new(AimdConfig::default());
        send(&mut a, 100);
        for seg in 1..=31 {
            data(&mut a, Time::ZERO, seg, 100, 0);
        }
        for seg in 32..35 {
            data(&mut a, Time::ZERO, seg, 100, 1);
        }
        // 32 -> 16 -> 8 -> 4.
        assert_eq!(a.window(), Some(4.0));
        assert_eq!(a.ssthresh(), 4.0);
    }

    #[test]
    fn floor_is_the_initial_window() {
        let mut cfg = AimdConfig::default();
        cfg.signals.cwa = false;
        let mut a = Aimd::new(cfg);
        for _ in 0..10 {
            a.on_timeout(Time::ZERO, 0);
        }
        assert_eq!(a.window(), Some(1.0));
        assert_eq!(a.decreases(), 10);
    }

    #[test]
    fn marks_ignored_when_off() {
        let mut cfg = AimdConfig::default();
        cfg.signals.react_to_marks = false;
        let mut a = Aimd::new(cfg);
        data(&mut a, Time::ZERO, 1, 5, 1);
        assert_eq!(a.window(), Some(2.0));
    }
}
