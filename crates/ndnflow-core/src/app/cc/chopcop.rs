//! CHoPCoP's receiver window (Zhang et al., "A transport protocol for content-centric networking
//! with explicit congestion control", ICCCN 2014: the receiver Interest control, "RIC" in its
//! abstract, the brief's RAIM), the consumer half of the PTP paper's Sol.3 (RFA + CHoPCoP, §6).
//! The routers' half is `link::rem` (random early marking) and the shaper's per-flow mode
//! (`link::shaper`).
//!
//! The paper's text was not available to us; its abstract says the receiver regulates its Interest
//! rate from explicit congestion signals, and the PTP paper §6-B that "based on these congestion
//! signals [ECNs and RTO timeouts], the consumer decreases the requesting rate". We therefore take
//! TCP's window response to ECN (RFC 3168 §6.1.2) on an AIMD window:
//!
//! * Slow start (+1 per unmarked Data) until the first decrease, then +1/cwnd per unmarked Data
//!   (+1 per RTT).
//! * A marked Data, a timeout, or a Nack of reason Congestion (a router's shaper refusing the
//!   Interest) multiplies the window by `beta` = 0.5 and sets `ssthresh` to the result,
//! * **at most once per window**: a signal for an Interest sent before the last decrease is
//!   ignored ("the TCP sender SHOULD NOT reduce the slow-start threshold ... more than once
//!   within a window of data", RFC 3168 §6.1.2). With random early marking several Data of one
//!   window are often marked together; halving for each would collapse the window, while one
//!   halving per window is what an ECN sender does.
//! * The window's floor is the initial window (1 Interest).
//!
//! This is the project's AIMD law (`aimd.rs`) with the per-window gate of `cwa.rs` applied to
//! marks as well as losses; `ChopcopConfig` names those settings, and the controller reports itself
//! as "chopcop".

use super::aimd::{Aimd, AimdConfig};
use super::cwa::{SignalConfig, Signals, WindowLaw};
use crate::Time;

/// CHoPCoP's signal rules: every signal through the once-per-window gate.
pub const RAIM_SIGNALS: SignalConfig = SignalConfig {
    cwa: true,
    rtt_suppress: 0.0,
    react_to_marks: true,
    cwa_on_marks: true,
    decrease_on_unmarked_nacks: true,
    per_window: true,
};

/// CHoPCoP's receiver window: AIMD with `RAIM_SIGNALS` (docs/protocols/chopcop.md).
pub type ChopcopConfig = AimdConfig;

/// The defaults: initial window 1 Interest, no initial ssthresh, beta 0.5, `RAIM_SIGNALS`.
pub fn chopcop_defaults() -> ChopcopConfig {
    AimdConfig { signals: RAIM_SIGNALS, ..AimdConfig::default() }
}

/// The receiver window; an AIMD window under its own name.
pub struct Chopcop(Aimd);

impl Chopcop {
    pub fn new(config: ChopcopConfig) -> Chopcop {
        Chopcop(Aimd::new(config))
    }
    pub fn ssthresh(&self) -> f64 {
        self.0.ssthresh()
    }
    pub fn decreases(&self) -> u64 {
        self.0.decreases()
    }
}

impl WindowLaw for Chopcop {
    const NAME: &'static str = "chopcop";
    fn signals(&mut self) -> &mut Signals {
        self.0.signals()
    }
    fn grow(&mut self, now: Time) {
        self.0.grow(now);
    }
    fn shrink(&mut self, now: Time) {
        self.0.shrink(now);
    }
    fn cwnd(&self) -> f64 {
        self.0.cwnd()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::cc::aimd::tests::{data, send};
    use crate::app::cc::CongestionController;
    use crate::packet::NackReason;

    /// A window grown to 32 by slow start (31 unmarked Data from 1), segments 0..=40 sent.
    fn at_32() -> Chopcop {
        let mut c = Chopcop::new(chopcop_defaults());
        send(&mut c, 40);
        for seg in 1..=31 {
            data(&mut c, Time::ZERO, seg, 40, 0);
        }
        assert_eq!(c.window(), Some(32.0));
        c
    }

    #[test]
    fn one_halving_per_window_of_marks() {
        let mut c = at_32();
        assert_eq!(c.name(), "chopcop");
        // Three marked Data of the same window: 32 -> 16 once, ssthresh 16; the other two were
        // sent before the decrease (segments <= 40, the recovery point) and are ignored.
        for seg in 32..35 {
            data(&mut c, Time::ZERO, seg, 40, 1);
        }
        assert_eq!((c.window(), c.ssthresh(), c.decreases()), (Some(16.0), 16.0, 1));
        // Congestion avoidance: 16 + 1/16 = 16.0625.
        data(&mut c, Time::ZERO, 35, 40, 0);
        assert_eq!(c.window(), Some(16.0625));
        // A mark on an Interest sent after the decrease (41 > 40) halves again:
        // 16.0625 x 0.5 = 8.03125.
        send(&mut c, 50);
        data(&mut c, Time::ZERO, 41, 50, 1);
        assert_eq!((c.window(), c.decreases()), (Some(8.03125), 2));
    }

    #[test]
    fn timeouts_and_congestion_nacks_share_the_gate() {
        let mut c = at_32();
        c.on_timeout(Time::ZERO, 32);
        assert_eq!(c.window(), Some(16.0));
        // Same window: a Nack(Congestion) and a mark for earlier Interests change nothing.
        c.on_nack(Time::ZERO, 33, NackReason::Congestion, false);
        data(&mut c, Time::ZERO, 34, 40, 1);
        assert_eq!((c.window(), c.decreases()), (Some(16.0), 1));
        // A Nack(Congestion) for an Interest sent after the decrease: 16 x 0.5 = 8. Other Nack
        // reasons say nothing about congestion.
        send(&mut c, 45);
        c.on_nack(Time::ZERO, 42, NackReason::NoRoute, false);
        assert_eq!(c.window(), Some(16.0));
        c.on_nack(Time::ZERO, 43, NackReason::Congestion, false);
        assert_eq!((c.window(), c.ssthresh()), (Some(8.0), 8.0));
    }

    #[test]
    fn the_window_never_falls_below_one() {
        let mut c = Chopcop::new(chopcop_defaults());
        send(&mut c, 3);
        data(&mut c, Time::ZERO, 1, 3, 1);
        assert_eq!(c.window(), Some(1.0));
    }
}
