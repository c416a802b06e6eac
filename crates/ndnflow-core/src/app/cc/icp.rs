//! ICP, the Interest Control Protocol (Carofiglio, Gallo, Muscariello, "ICP: Design and evaluation
//! of an Interest control protocol for content-centric networking", INFOCOM NOMEN 2012), as the
//! survey of Thibaud et al. (§II, "end-to-end") summarises it:
//!
//! * "the congestion window increases of one in a round-trip time": +1/W per Data, TCP's
//!   congestion avoidance. The survey names no slow start, so by default there is none
//!   (`initial_ssthresh` = `initial_window`; set it higher for AIMD's slow start).
//! * "When congestion is detected by a timeout, the consumer decreases the window multiplicatively
//!   (divided by two here)": `beta` = 0.5. Congestion marks are not a signal for ICP ("ICP consumer
//!   detects the congestion with timeouts and thus is based on losses", survey §V), so
//!   `react_to_marks` defaults to off.
//! * One decrease per loss burst: the survey observes that "only one window decrease is triggered"
//!   for a burst of drops, "independently of the number of losses detected" (§IV, Sce2). That is
//!   what PCON's conservative window adaptation (`cwa.rs`) does, so CWA is on by default.
//! * Its own retransmission timer: "The computation of the Retransmission Timeout (RTO) in ICP is
//!   the mean between the minimum and the maximum of the measured RTTs". The survey gives no
//!   sample window; ICP used a timer fixed from the RTTs observed, so by default the minimum and
//!   maximum are over every RTT sample since the start (`rto_window` = 0). A sliding window of the
//!   last N samples (`rto_window` = N) is available; beware that a short one (N = 30 is under one
//!   RTT at 1000 Data/s) makes the timer track the current RTT and fire on any queue growth.
//!   Before the first sample the consumer's RFC 6298 estimator gives the RTO. The timer does not
//!   back off on a timeout. The survey found this timer "showed really poor performance" and
//!   switched to RFC 6298 (§IV): `rto = IcpRto::Rfc6298` does that (the consumer's estimator).
//!
//! The window arithmetic is AIMD's (`aimd.rs`), floor `initial_window`.

use std::collections::VecDeque;

use super::aimd::{Aimd, AimdConfig};
use super::cwa::SignalConfig;
use super::{CongestionController, DataSample};
use crate::packet::NackReason;
use crate::Time;

/// Which retransmission timer ICP uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IcpRto {
    /// (RTT_min + RTT_max) / 2 over the sample window (ICP, survey §II).
    MinMax,
    /// The consumer's RFC 6298 estimator (the survey's variant, §IV).
    Rfc6298,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IcpConfig {
    /// Initial window and floor of every decrease, in Interests.
    pub initial_window: f64,
    /// Initial slow-start threshold; equal to the initial window (no slow start) by default.
    pub initial_ssthresh: f64,
    /// Multiplicative decrease factor (ICP halves: 0.5).
    pub beta: f64,
    pub signals: SignalConfig,
    pub rto: IcpRto,
    /// RTT samples the min/max timer looks at: the last `rto_window`, or all when 0 (the default).
    pub rto_window: u32,
}

impl Default for IcpConfig {
    fn default() -> Self {
        IcpConfig {
            initial_window: 1.0,
            initial_ssthresh: 1.0,
            beta: 0.5,
            // A Nack(Congestion) is a loss for ICP, marked or not.
            signals: SignalConfig {
                cwa: true,
                rtt_suppress: 0.0,
                react_to_marks: false,
                cwa_on_marks: false,
                decrease_on_unmarked_nacks: true,
                per_window: false,
            },
            rto: IcpRto::MinMax,
            rto_window: 0,
        }
    }
}

pub struct Icp {
    config: IcpConfig,
    aimd: Aimd,
    /// The sliding window (only when `rto_window` > 0).
    samples: VecDeque<Time>,
    min: Option<Time>,
    max: Option<Time>,
}

impl Icp {
    pub fn new(config: IcpConfig) -> Icp {
        let aimd = Aimd::new(AimdConfig {
            initial_window: config.initial_window,
            initial_ssthresh: config.initial_ssthresh,
            beta: config.beta,
            signals: config.signals,
        });
        Icp { config, aimd, samples: VecDeque::new(), min: None, max: None }
    }

    pub fn decreases(&self) -> u64 {
        self.aimd.decreases()
    }

    /// RTT_min and RTT_max of the sample window, once there is a sample.
    pub fn rtt_range(&self) -> Option<(Time, Time)> {
        Some((self.min?, self.max?))
    }

    fn add_sample(&mut self, rtt: Time) {
        let n = self.config.rto_window as usize;
        if n == 0 {
            self.min = Some(self.min.map_or(rtt, |m| m.min(rtt)));
            self.max = Some(self.max.map_or(rtt, |m| m.max(rtt)));
            return;
        }
        if self.samples.len() == n {
            self.samples.pop_front();
        }
        self.samples.push_back(rtt);
        self.min = self.samples.iter().copied().min();
        self.max = self.samples.iter().copied().max();
    }
}

impl CongestionController for Icp {
    fn name(&self) -> &'static str {
        "icp"
    }
    fn on_interest_sent(&mut self, now: Time, segment: u64, retransmission: bool) {
        self.aimd.on_interest_sent(now, segment, retransmission);
    }
    fn on_data(&mut self, now: Time, s: &DataSample) {
        if let Some(rtt) = s.rtt {
            self.add_sample(rtt);
        }
        self.aimd.on_data(now, s);
    }
    fn on_timeout(&mut self, now: Time, segment: u64) {
        self.aimd.on_timeout(now, segment);
    }
    fn on_nack(&mut self, now: Time, segment: u64, reason: NackReason, marked: bool) {
        self.aimd.on_nack(now, segment, reason, marked);
    }
    fn window(&self) -> Option<f64> {
        self.aimd.window()
    }
    fn rto(&self) -> Option<Time> {
        match self.config.rto {
            IcpRto::Rfc6298 => None,
            IcpRto::MinMax => {
                let (min, max) = self.rtt_range()?;
                Some(Time((min.0 + max.0) / 2))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::cc::aimd::tests::{data, send};
    use crate::packet::LpHeader;

    fn data_rtt(cc: &mut dyn CongestionController, seg: u64, high: u64, rtt_ms: u64) {
        let lp = LpHeader::default();
        let s = DataSample {
            wire_size: 0,
            segment: seg,
            rtt: Some(Time::from_millis(rtt_ms)),
            congestion_mark: 0,
            highest_sent: high,
            in_flight: 0,
            lp: &lp,
        };
        cc.on_data(Time::ZERO, &s);
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    #[test]
    fn plus_one_over_w_per_data_and_halving() {
        let mut c = Icp::new(IcpConfig::default());
        send(&mut c, 100);
        // No slow start: 1 -> 1 + 1/1 = 2 -> 2 + 1/2 = 2.5 -> 2.5 + 1/2.5 = 2.9.
        data(&mut c, Time::ZERO, 1, 100, 0);
        assert!(close(c.window().unwrap(), 2.0));
        data(&mut c, Time::ZERO, 2, 100, 0);
        assert!(close(c.window().unwrap(), 2.5));
        data(&mut c, Time::ZERO, 3, 100, 0);
        assert!(close(c.window().unwrap(), 2.9));
        // Timeout: 2.9 * 0.5 = 1.45 (above the floor of 1).
        c.on_timeout(Time::ZERO, 4);
        assert!(close(c.window().unwrap(), 1.45));
        // A second timeout of the same burst is suppressed by CWA (no Data past segment 100 yet).
        c.on_timeout(Time::ZERO, 5);
        assert!(close(c.window().unwrap(), 1.45));
        assert_eq!(c.decreases(), 1);
        // Marks are not an ICP signal: a marked Data increases like any other: 1.45 + 1/1.45.
        data(&mut c, Time::ZERO, 6, 100, 1);
        assert!(close(c.window().unwrap(), 1.45 + 1.0 / 1.45));
    }

    #[test]
    fn rto_is_mean_of_min_and_max() {
        let mut c = Icp::new(IcpConfig::default());
        assert_eq!(c.rto(), None); // no sample yet: the consumer's estimator
        data_rtt(&mut c, 1, 10, 40);
        assert_eq!(c.rto(), Some(Time::from_millis(40)));
        data_rtt(&mut c, 2, 10, 30);
        data_rtt(&mut c, 3, 10, 70);
        data_rtt(&mut c, 4, 10, 50);
        // min 30, max 70: (30 + 70) / 2 = 50 ms.
        assert_eq!(c.rto(), Some(Time::from_millis(50)));
        // Unbounded window: the 30 ms minimum stays after many larger samples.
        for seg in 5..100 {
            data_rtt(&mut c, seg, 200, 60);
        }
        assert_eq!(c.rto(), Some(Time::from_millis(50)));
        // A Data without RTT sample (retransmitted, Karn) changes nothing.
        data(&mut c, Time::ZERO, 100, 200, 0);
        assert_eq!(c.rto(), Some(Time::from_millis(50)));
    }

    #[test]
    fn sliding_window_forgets_old_samples() {
        let mut c = Icp::new(IcpConfig { rto_window: 3, ..IcpConfig::default() });
        for (seg, ms) in [(1, 30), (2, 70), (3, 50)] {
            data_rtt(&mut c, seg, 10, ms);
        }
        assert_eq!(c.rto(), Some(Time::from_millis(50))); // (30 + 70) / 2
        data_rtt(&mut c, 4, 10, 60); // window 70, 50, 60: (50 + 70) / 2 = 60
        assert_eq!(c.rto(), Some(Time::from_millis(60)));
        data_rtt(&mut c, 5, 10, 55); // 50, 60, 55: (50 + 60) / 2 = 55
        assert_eq!(c.rto(), Some(Time::from_millis(55)));
    }

    #[test]
    fn rfc6298_variant_leaves_the_timer_to_the_consumer() {
        let mut c = Icp::new(IcpConfig { rto: IcpRto::Rfc6298, ..IcpConfig::default() });
        data_rtt(&mut c, 1, 10, 40);
        assert_eq!(c.rto(), None);
    }
}
