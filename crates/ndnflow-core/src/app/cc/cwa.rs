//! Conservative Window Adaptation (PCON, Schneider et al., ICN 2016, §3.3 and Algorithm 1) and the
//! shared rules by which the window controllers (AIMD, BIC, CUBIC) turn feedback into "increase",
//! "decrease" or "hold".
//!
//! Algorithm 1 keeps three sequence numbers, all starting at 0: `m_highData` (highest segment of
//! any Data received), `m_highInterest` (highest segment sent) and `m_recPoint`. A timeout or Nack
//! may decrease the window only when `m_highData > m_recPoint`, and then sets `m_recPoint =
//! m_highInterest`. A second loss is thus ignored until Data for an Interest sent after the first
//! decrease has come back: at most one decrease per RTT, which is TCP SACK's conservative loss
//! recovery (RFC 6675) carried over to NDN's per-packet acknowledgement.
//!
//! Congestion marks bypass it: "We don't (need to) apply the Conservative Loss Adaptation Algorithm
//! to marked packets, since the CoDel marking already avoids bursts of marks" (PCON §3.3). Each
//! marked Data is one decrease. ndnSIM's `ConsumerPcon` and ndnget do pass marks through the same
//! gate; `cwa_on_marks` reproduces that.
//!
//! Two knobs come from the implementations, not the paper. `cwa = false` (ndnSIM `UseCwa`, ndnget
//! `--disable-cwa`) lets every loss decrease. `rtt_suppress` (ndnSIM `AddRttSuppress`) moves the
//! recovery point further out: `m_recPoint = m_highInterest + s * (m_highInterest - m_highData)`,
//! so that about 1 + s RTTs separate two decreases. Its default here is 0, Algorithm 1 as
//! printed; ndnSIM uses 0.5 (and counts from the next segment to send, `m_seq`, which is
//! `m_highInterest + 1` when nothing is being retransmitted).

use super::{CongestionController, DataSample};
use crate::packet::NackReason;
use crate::Time;

/// How a window controller reacts to losses and marks. Shared by AIMD, BIC and CUBIC.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SignalConfig {
    /// Conservative window adaptation for timeouts and Nacks (ndnSIM `UseCwa` = true; ndnget
    /// enables it unless `--disable-cwa`).
    pub cwa: bool,
    /// Extra RTTs between two loss decreases, as a fraction (ndnSIM `AddRttSuppress` = 0.5). 0 is
    /// PCON Algorithm 1 exactly.
    pub rtt_suppress: f64,
    /// Decrease once per marked Data (ndnSIM `ReactToCongestionMarks` = true; ndnget
    /// `--ignore-marks` turns it off). When off, a marked Data counts as an ordinary one.
    pub react_to_marks: bool,
    /// Pass marks through the CWA gate too, as ndnSIM and ndnget do. Off per PCON §3.3.
    pub cwa_on_marks: bool,
    /// An unmarked Nack(Congestion) decreases (through CWA) like a timeout, as ndnSIM's
    /// ConsumerPcon and ndncatchunks do. Off per PCON §3.5: a marked Nack reports congestion in an
    /// IP underlay, an unmarked one a wireless loss, which "only triggers a consumer
    /// retransmission".
    pub decrease_on_unmarked_nacks: bool,
    /// CWA counted per window instead of per RTT: a loss decreases only if its segment is above
    /// the recovery point, i.e. its Interest was sent after the last decrease (TCP NewReno's
    /// recovery rule). The survey's ICP: "only one window decrease is triggered ... independently
    /// of the number of losses detected" (Thibaud et al. §IV, Sce2). Off: PCON Algorithm 1.
    pub per_window: bool,
}

impl SignalConfig {
    /// PCON §3.3: CWA for losses, every mark a decrease.
    pub const PCON: SignalConfig = SignalConfig {
        cwa: true,
        rtt_suppress: 0.0,
        react_to_marks: true,
        cwa_on_marks: false,
        decrease_on_unmarked_nacks: false,
        per_window: false,
    };
}

impl Default for SignalConfig {
    fn default() -> Self {
        SignalConfig::PCON
    }
}

/// PCON Algorithm 1's state.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cwa {
    enabled: bool,
    rtt_suppress: f64,
    high_data: u64,
    high_interest: u64,
    rec_point: f64,
    /// Gate losses by their own segment (`SignalConfig::per_window`) instead of `high_data`.
    per_window: bool,
    /// A loss has decreased the window already (the per-window gate lets the first one through).
    decreased: bool,
}

impl Cwa {
    pub fn new(enabled: bool, rtt_suppress: f64) -> Cwa {
        Cwa {
            enabled,
            rtt_suppress: rtt_suppress.max(0.0),
            high_data: 0,
            high_interest: 0,
            rec_point: 0.0,
            per_window: false,
            decreased: false,
        }
    }

    /// The per-window gate (`SignalConfig::per_window`).
    pub fn per_window(mut self, on: bool) -> Cwa {
        self.per_window = on;
        self
    }

    pub fn on_interest_sent(&mut self, segment: u64) {
        self.high_interest = self.high_interest.max(segment);
    }

    /// Algorithm 1 lines 2-4 (`highest_sent` also refreshes `m_highInterest`).
    pub fn on_data(&mut self, segment: u64, highest_sent: u64) {
        self.high_data = self.high_data.max(segment);
        self.high_interest = self.high_interest.max(highest_sent);
    }

    /// Algorithm 1 lines 14-16: whether the loss of `segment` may decrease the window. When it
    /// may, the recovery point moves to the highest Interest sent. With CWA off every loss may.
    pub fn on_loss(&mut self, segment: u64) -> bool {
        let gated = if self.per_window {
            self.decreased && segment as f64 <= self.rec_point
        } else {
            self.high_data as f64 <= self.rec_point
        };
        if self.enabled && gated {
            return false;
        }
        self.decreased = true;
        let hi = self.high_interest as f64;
        self.rec_point = hi + self.rtt_suppress * (hi - self.high_data as f64).max(0.0);
        true
    }

    pub fn high_data(&self) -> u64 {
        self.high_data
    }
    pub fn high_interest(&self) -> u64 {
        self.high_interest
    }
    pub fn rec_point(&self) -> f64 {
        self.rec_point
    }
}

/// What one piece of feedback does to the window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reaction {
    Increase,
    Decrease,
    /// A loss or mark that the CWA gate suppressed.
    Hold,
}

/// The feedback rules of PCON §3.3, shared by the window controllers: unmarked Data increases,
/// marked Data decreases (every one, unless `cwa_on_marks`), timeouts and Nack(Congestion)
/// decrease through CWA. Other Nacks (Duplicate, NoRoute, none) say nothing about congestion and
/// leave the window alone; the consumer retransmits on the timer.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Signals {
    pub config: SignalConfig,
    pub cwa: Cwa,
    /// Decreases applied so far (marks, timeouts and Nacks).
    pub decreases: u64,
}

impl Signals {
    pub fn new(config: SignalConfig) -> Signals {
        Signals { config, cwa: Cwa::new(config.cwa, config.rtt_suppress).per_window(config.per_window), decreases: 0 }
    }

    pub fn on_interest_sent(&mut self, segment: u64) {
        self.cwa.on_interest_sent(segment);
    }

    pub fn on_data(&mut self, segment: u64, highest_sent: u64, congestion_mark: u64) -> Reaction {
        self.cwa.on_data(segment, highest_sent);
        if congestion_mark == 0 || !self.config.react_to_marks {
            return Reaction::Increase;
        }
        if self.config.cwa_on_marks {
            return self.loss(segment);
        }
        self.decreases += 1;
        Reaction::Decrease
    }

    pub fn on_timeout(&mut self, segment: u64) -> Reaction {
        self.loss(segment)
    }

    /// A marked Nack is congestion whatever its reason (PCON §3.5: "the reaction is the same as to a
    /// marked Data packet", through CWA since such Nacks come in bursts); an unmarked
    /// Nack(Congestion) only if `decrease_on_unmarked_nacks`; other Nacks never.
    pub fn on_nack(&mut self, reason: NackReason, marked: bool, segment: u64) -> Reaction {
        if marked || (reason == NackReason::Congestion && self.config.decrease_on_unmarked_nacks) {
            self.loss(segment)
        } else {
            Reaction::Hold
        }
    }

    fn loss(&mut self, segment: u64) -> Reaction {
        if self.cwa.on_loss(segment) {
            self.decreases += 1;
            Reaction::Decrease
        } else {
            Reaction::Hold
        }
    }
}

/// A window law: how the window grows and shrinks. `Signals` decides when (PCON §3.3), and every
/// law is a `CongestionController` through the impl below, so AIMD, BIC and CUBIC write only
/// their arithmetic.
pub trait WindowLaw {
    const NAME: &'static str;
    fn signals(&mut self) -> &mut Signals;
    /// An unmarked Data (or an ignored mark): grow.
    fn grow(&mut self, now: Time);
    /// A mark, or a loss that CWA lets through: shrink.
    fn shrink(&mut self, now: Time);
    fn cwnd(&self) -> f64;
    /// Every Data, before the reaction (CUBIC keeps its RTT estimate here).
    fn observe(&mut self, _now: Time, _sample: &DataSample) {}
    /// Every Interest sent (CUBIC starts its epoch here).
    fn sent(&mut self, _now: Time) {}
}

fn react<L: WindowLaw>(law: &mut L, now: Time, reaction: Reaction) {
    match reaction {
        Reaction::Increase => law.grow(now),
        Reaction::Decrease => law.shrink(now),
        Reaction::Hold => {}
    }
}

impl<L: WindowLaw + Send> CongestionController for L {
    fn name(&self) -> &'static str {
        L::NAME
    }
    fn on_interest_sent(&mut self, now: Time, segment: u64, _retransmission: bool) {
        self.sent(now);
        self.signals().on_interest_sent(segment);
    }
    fn on_data(&mut self, now: Time, s: &DataSample) {
        self.observe(now, s);
        let r = self.signals().on_data(s.segment, s.highest_sent, s.congestion_mark);
        react(self, now, r);
    }
    fn on_timeout(&mut self, now: Time, segment: u64) {
        let r = self.signals().on_timeout(segment);
        react(self, now, r);
    }
    fn on_nack(&mut self, now: Time, segment: u64, reason: NackReason, marked: bool) {
        let r = self.signals().on_nack(reason, marked, segment);
        react(self, now, r);
    }
    fn window(&self) -> Option<f64> {
        Some(self.cwnd())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sent(s: &mut Signals, upto: u64) {
        for seg in 0..=upto {
            s.on_interest_sent(seg);
        }
    }

    #[test]
    fn nothing_received_means_no_decrease() {
        // All three start at 0: a timeout before any Data above segment 0 is suppressed
        // (m_highData 0 is not > m_recPoint 0).
        let mut s = Signals::new(SignalConfig::PCON);
        sent(&mut s, 9);
        assert_eq!(s.on_timeout(0), Reaction::Hold);
    }

    #[test]
    fn burst_of_timeouts_gives_one_decrease_then_next_rtt_another() {
        let mut s = Signals::new(SignalConfig::PCON);
        sent(&mut s, 20);
        for seg in 0..=10 {
            assert_eq!(s.on_data(seg, 20, 0), Reaction::Increase);
        }
        // high_data 10 > rec_point 0: first timeout decreases, rec_point := 20.
        assert_eq!(s.on_timeout(0), Reaction::Decrease);
        assert_eq!(s.cwa.rec_point(), 20.0);
        // Four more timeouts in the same RTT: high_data 10 <= 20, all suppressed.
        for _ in 0..4 {
            assert_eq!(s.on_timeout(0), Reaction::Hold);
        }
        assert_eq!(s.decreases, 1);
        // Data up to 20 still does not pass the recovery point (20 is not > 20).
        sent(&mut s, 30);
        s.on_data(20, 30, 0);
        assert_eq!(s.on_timeout(0), Reaction::Hold);
        // Data 21 (sent after the decrease) passes it: the next timeout decreases again.
        s.on_data(21, 30, 0);
        assert_eq!(s.on_timeout(0), Reaction::Decrease);
        assert_eq!(s.cwa.rec_point(), 30.0);
        assert_eq!(s.decreases, 2);
    }

    #[test]
    fn nack_congestion_is_a_loss_other_nacks_are_not() {
        let mut s = Signals::new(SignalConfig::PCON);
        sent(&mut s, 5);
        s.on_data(3, 5, 0);
        assert_eq!(s.on_nack(NackReason::Duplicate, false, 0), Reaction::Hold);
        assert_eq!(s.on_nack(NackReason::NoRoute, false, 0), Reaction::Hold);
        // PCON §3.5: an unmarked Nack(Congestion) (a wireless loss) only retransmits.
        assert_eq!(s.on_nack(NackReason::Congestion, false, 0), Reaction::Hold);
        assert_eq!(s.on_nack(NackReason::Congestion, true, 0), Reaction::Decrease);
        assert_eq!(s.on_nack(NackReason::Congestion, true, 0), Reaction::Hold);
        assert_eq!(s.on_timeout(0), Reaction::Hold);
    }

    #[test]
    fn marks_bypass_cwa() {
        // Three marked Data in the same RTT: three decreases, whatever the CWA state.
        let mut s = Signals::new(SignalConfig::PCON);
        sent(&mut s, 10);
        s.on_data(1, 10, 0);
        assert_eq!(s.on_timeout(0), Reaction::Decrease);
        for seg in 2..5 {
            assert_eq!(s.on_data(seg, 10, 1), Reaction::Decrease);
        }
        assert_eq!(s.decreases, 4);
        // Marks do not move the recovery point.
        assert_eq!(s.cwa.rec_point(), 10.0);
    }

    #[test]
    fn marks_through_cwa_as_ndnsim() {
        let mut s = Signals::new(SignalConfig { cwa_on_marks: true, ..SignalConfig::PCON });
        sent(&mut s, 10);
        assert_eq!(s.on_data(1, 10, 1), Reaction::Decrease);
        assert_eq!(s.on_data(2, 10, 1), Reaction::Hold);
        assert_eq!(s.on_data(3, 10, 1), Reaction::Hold);
        assert_eq!(s.decreases, 1);
    }

    #[test]
    fn ignored_marks_count_as_plain_data() {
        let mut s = Signals::new(SignalConfig { react_to_marks: false, ..SignalConfig::PCON });
        sent(&mut s, 3);
        assert_eq!(s.on_data(1, 3, 1), Reaction::Increase);
        assert_eq!(s.decreases, 0);
    }

    #[test]
    fn cwa_off_decreases_on_every_loss() {
        let mut s = Signals::new(SignalConfig { cwa: false, ..SignalConfig::PCON });
        sent(&mut s, 10);
        for _ in 0..5 {
            assert_eq!(s.on_timeout(0), Reaction::Decrease);
        }
        assert_eq!(s.decreases, 5);
    }

    #[test]
    fn rtt_suppress_moves_the_recovery_point() {
        // ndnSIM AddRttSuppress = 0.5: rec = 20 + 0.5 * (20 - 10) = 25.
        let mut c = Cwa::new(true, 0.5);
        c.on_interest_sent(20);
        c.on_data(10, 20);
        assert!(c.on_loss(0));
        assert_eq!(c.rec_point(), 25.0);
        c.on_data(25, 30);
        assert!(!c.on_loss(0));
        c.on_data(26, 30);
        assert!(c.on_loss(0));
    }

    #[test]
    fn per_window_ignores_losses_of_interests_sent_before_the_last_decrease() {
        for (per_window, second) in [(false, Reaction::Decrease), (true, Reaction::Hold)] {
            let mut s = Signals::new(SignalConfig { per_window, ..SignalConfig::PCON });
            sent(&mut s, 20);
            s.on_data(5, 20, 0);
            // First loss of the burst: a decrease; the recovery point becomes 20.
            assert_eq!(s.on_timeout(3), Reaction::Decrease);
            // One RTT later, Data for Interests sent after the decrease have come back.
            sent(&mut s, 30);
            s.on_data(25, 30, 0);
            // Segment 10 was sent before the decrease: Algorithm 1 lets it through (25 > 20),
            // the per-window gate does not (10 <= 20).
            assert_eq!(s.on_timeout(10), second);
            // Segment 22 was sent after the first decrease: a new event for the per-window gate.
            // Algorithm 1 has just moved its recovery point to 30 (second decrease), so 25 <= 30
            // holds it.
            let third = if per_window { Reaction::Decrease } else { Reaction::Hold };
            assert_eq!(s.on_timeout(22), third);
        }
    }
}
