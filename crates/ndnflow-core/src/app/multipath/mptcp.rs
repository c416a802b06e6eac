//! MPTCP's consumer: multipath TCP's congestion control (RFC 6356 LIA; Khalili et al.'s OLIA; or
//! uncoupled/EWTCP/semi-coupled for comparison) carried over to NDN, as SMIC (§2, §6) and PTP
//! (§5-A: "a loss-based MPTCP control law ... is directly ported to NDN") use it as a baseline.
//!
//! An MPTCP host has one subflow per pair of addresses; a consumer has no addresses, so the
//! subflows run over the paths PTP's routers let a consumer name: the same probing and tag
//! stacks as PTP (`ptp::PathSpecified`, which needs `ptp = true` on the routers). What differs
//! from PTP is what MPTCP itself specifies:
//!
//! * Each subflow is TCP Reno (RFC 5681): slow start, congestion avoidance with the coupling's
//!   increase, the window halved on a loss (beta 0.5, RFC 5681 eq. (4); RFC 6356 §3 changes only
//!   the increase), at most one decrease per window of data and no growth until it is recovered
//!   (NewReno's recovery, RFC 6582), to one packet with slow start after a timeout. We run that
//!   machine as MPCCP's (`mpccp`, whose states are TCP's) with beta 0.5 and `Recovery::NewReno`.
//! * Losses are found as TCP finds them, from the order of arrivals on a subflow: on a path
//!   pinned by tags, a producer Data that overtakes an earlier Interest of its path is the NDN
//!   equivalent of duplicate acknowledgements (PTP §5-C-1 makes the same argument), and cache or
//!   retransmitted Data say nothing about order.
//! * No path reselection: an MPTCP connection keeps its subflows; a subflow whose path breaks
//!   (Nack NoRoute) is closed and an unused path, if any, opens in its place.
//! * A tail loss, which order cannot reveal, is found by a Tail Loss Probe (RFC 8985 §7, `tlp`),
//!   as Linux TCP does under each MPTCP subflow: without it a path down to one or two Interests
//!   waits out a 1 s RTO for every loss at its tail.
//! * `max_paths` 10 by default: RFC 6824 sets no limit; we use PTP's N so both transports see the
//!   same paths in a comparison.

use super::coupling::CouplingName;
use super::mpccp::{MpccpConfig, PathPhase, Recovery};
use super::paths::{Path, Sent, Use};
use super::ptp::{PathSpecified, PathSpecifiedConfig, TCP_MIN_RTO};
use super::tlp::{probe_timeout, LossProbe};
use super::{PathReport, PathSend, SubflowManager};
use crate::app::cc::DataSample;
use crate::app::rtt::RttOptions;
use crate::packet::NackReason;
use crate::Time;

/// MPTCP's consumer parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MptcpConfig {
    /// The coupling: `lia` (RFC 6356, the default), `olia`, `uncoupled`, `ewtcp`, `semicoupled`.
    pub coupling: CouplingName,
    /// Most subflows at once (default 10, see the module comment).
    pub max_paths: usize,
    /// Probing Interests per second to find paths (PTP §3-A's 10/s).
    pub probe_rate: f64,
    /// Each subflow's window machine: Reno, beta 0.5 (RFC 5681), from one Interest.
    pub subflow: MpccpConfig,
    /// Floor of each subflow's RTO: RFC 6298 §2.4's 1 s.
    pub min_rto: Time,
    /// Whether each subflow sends RFC 8985's Tail Loss Probe (default true, as Linux TCP).
    pub tail_loss_probe: bool,
}

impl MptcpConfig {
    /// Reno per subflow: halve on loss; initial window, floors and threshold as MPCCP's defaults
    /// (one Interest, slow start until the first loss; RFC 5681's `max(FlightSize / 2, 2)`).
    pub const RENO: MpccpConfig = MpccpConfig { beta: 0.5, recovery: Recovery::NewReno, ..MpccpConfig::PTP };
}

impl Default for MptcpConfig {
    fn default() -> Self {
        MptcpConfig {
            coupling: CouplingName::LIA,
            max_paths: 10,
            probe_rate: 10.0,
            subflow: MptcpConfig::RENO,
            min_rto: TCP_MIN_RTO,
            tail_loss_probe: true,
        }
    }
}

impl From<MptcpConfig> for PathSpecifiedConfig {
    fn from(c: MptcpConfig) -> Self {
        PathSpecifiedConfig {
            max_paths: c.max_paths,
            reselect_every: None,
            probe_rate: c.probe_rate,
            congestion: c.subflow,
            coupling: c.coupling,
            min_rto: c.min_rto,
            // No reselection: a broken subflow's slot goes to a random unused path.
            selection: super::PathSelection::Bandwidth,
        }
    }
}

/// MPTCP's consumer over probed paths (see the module comment).
pub fn mptcp(config: MptcpConfig, rto: RttOptions, seed: u64) -> Mptcp {
    let paths = PathSpecified::with_config("mptcp", config.into(), rto, seed);
    Mptcp { paths, tail_loss_probe: config.tail_loss_probe, probes: Vec::new() }
}

/// MPTCP's subflow manager: the path-specified manager, and a loss probe per path.
pub struct Mptcp {
    paths: PathSpecified,
    tail_loss_probe: bool,
    /// Indexed as the path set (paths are only ever appended to it).
    probes: Vec<LossProbe>,
}

/// A path that a loss probe may be sent on: in use, with Interests in flight.
fn probe_may_leave(p: &Path) -> bool {
    p.state == Use::Active && p.congestion.in_flight() > 0
}

impl Mptcp {
    /// The paths found so far, in the order they were found: (tag stack, in use, window).
    pub fn found_paths(&self) -> impl Iterator<Item = (&[u64], bool, f64)> {
        self.paths.found_paths()
    }

    fn path_of(&self, segment: u64) -> Option<usize> {
        match self.paths.path_set().sent_on(segment) {
            Some(Sent::Path(i)) => Some(i),
            _ => None,
        }
    }

    /// When the first armed loss probe that may leave fires.
    fn earliest_loss_probe(&self) -> Option<Time> {
        let set = self.paths.path_set();
        let probes = (0..self.probes.len()).filter(|&i| probe_may_leave(set.get(i)));
        probes.filter_map(|i| self.probes[i].deadline()).min()
    }

    /// The first path whose probe timer has fired (found order breaks ties).
    fn due_probe(&self, now: Time) -> Option<usize> {
        let set = self.paths.path_set();
        (0..self.probes.len()).find(|&i| self.probes[i].is_due(now) && probe_may_leave(set.get(i)))
    }

    /// After an event on path `i`: its probe timer restarts while Interests are in flight and the
    /// path is not recovering (RFC 8985 §7.2), and stops otherwise. `restart`: false keeps a
    /// running timer (a retransmission does not restart it).
    fn rearm(&mut self, i: usize, now: Time, restart: bool) {
        if !self.tail_loss_probe {
            return;
        }
        if self.probes.len() <= i {
            self.probes.resize(i + 1, LossProbe::default());
        }
        let p = self.paths.path_set().get(i);
        let probe = &mut self.probes[i];
        if let Some(s) = probe.outstanding().filter(|&s| !p.congestion.is_in_flight(s)) {
            probe.settled(s);
        }
        if !probe_may_leave(p) || p.congestion.phase() == PathPhase::FastRecovery {
            probe.disarm();
        } else if restart || probe.deadline().is_none() {
            probe.arm(now, probe_timeout(p.rtt.srtt(), p.rtt.rto()));
        }
    }
}

impl SubflowManager for Mptcp {
    fn name(&self) -> &'static str {
        self.paths.name()
    }

    fn can_send(&self, now: Time) -> bool {
        self.paths.can_send(now) || self.due_probe(now).is_some()
    }

    /// A resend may leave on a path (`PathSpecified::can_resend`) or as a fired loss probe, which
    /// goes on its own path.
    fn can_resend(&self, now: Time) -> bool {
        self.paths.can_resend(now) || self.due_probe(now).is_some()
    }

    /// A fired loss probe goes out beyond its path's window, unless a probing Interest is due
    /// (path discovery keeps its grid) and may take the segment: a resend that no path has room
    /// for takes the loss probe, since it does not ride a probing Interest (`can_resend`).
    /// Otherwise the path-specified manager chooses.
    fn path_for(&mut self, now: Time, segment: u64, retransmission: bool) -> Option<PathSend> {
        let defer = self.paths.probe_due(now) && (!retransmission || self.paths.can_resend(now));
        if let Some(i) = self.due_probe(now).filter(|_| !defer) {
            self.probes[i].sent(segment);
            return Some(self.paths.path_set_mut().send_on(i, segment));
        }
        let send = self.paths.path_for(now, segment, retransmission);
        if let Some(i) = self.path_of(segment) {
            self.rearm(i, now, !retransmission);
        }
        send
    }

    fn on_data(&mut self, now: Time, sample: &DataSample) {
        let path = self.path_of(sample.segment);
        self.paths.on_data(now, sample);
        if let Some(i) = path {
            self.rearm(i, now, true);
        }
    }

    fn on_timeout(&mut self, now: Time, segment: u64) {
        let path = self.path_of(segment);
        self.paths.on_timeout(now, segment);
        if let Some(i) = path {
            // RTO recovery: no probe until new data leaves again.
            self.rearm(i, now, false);
            if let Some(probe) = self.probes.get_mut(i) {
                probe.disarm();
            }
        }
    }

    fn on_nack(&mut self, now: Time, segment: u64, reason: NackReason, marked: bool) {
        let path = self.path_of(segment);
        self.paths.on_nack(now, segment, reason, marked);
        if let Some(i) = path {
            self.rearm(i, now, false);
        }
    }

    fn path_of(&self, segment: u64) -> Option<u64> {
        self.paths.path_of(segment)
    }

    fn take_lost(&mut self, out: &mut Vec<u64>) {
        self.paths.take_lost(out);
    }

    fn restarted_deadline(&self, segment: u64, sent_at: Time) -> Option<Time> {
        self.paths.restarted_deadline(segment, sent_at)
    }

    fn poll_timeout(&self) -> Option<Time> {
        self.paths.poll_timeout().into_iter().chain(self.earliest_loss_probe()).min()
    }

    fn poll_resend(&self) -> Option<Time> {
        self.paths.poll_resend().into_iter().chain(self.earliest_loss_probe()).min()
    }

    fn handle_timeout(&mut self, now: Time) {
        self.paths.handle_timeout(now);
    }

    fn window(&self) -> f64 {
        self.paths.window()
    }

    fn paths(&self) -> Vec<PathReport> {
        self.paths.paths()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::cc::DataSample;
    use crate::app::multipath::SubflowManager;
    use crate::packet::lp::flags;
    use crate::packet::LpHeader;

    fn t(ms: u64) -> Time {
        Time::from_millis(ms)
    }

    fn data(m: &mut Mptcp, now: Time, segment: u64, lp: &LpHeader) {
        let sample = DataSample {
            wire_size: 0,
            segment,
            rtt: Some(t(50)),
            congestion_mark: 0,
            highest_sent: 0,
            in_flight: 0,
            lp,
        };
        m.on_data(now, &sample);
    }

    /// Two paths [1] and [2] found by probes at 0 and 100 ms, both in use with window 1.
    fn two_paths(coupling: CouplingName) -> Mptcp {
        let mut m = mptcp(MptcpConfig { coupling, ..MptcpConfig::default() }, RttOptions::default(), 3);
        for (seg, tag) in [(0u64, 1u64), (1, 2)] {
            m.path_for(t(100 * seg), seg, false);
            let mut lp = LpHeader { flags: flags::PTP_PROBE, ..Default::default() };
            lp.ext_mut().tags = [tag].into_iter().collect();
            data(&mut m, t(100 * seg + 50), seg, &lp);
        }
        m
    }

    #[test]
    fn a_loss_halves_the_subflow_and_the_others_keep_their_windows() {
        let mut m = two_paths(CouplingName::LIA);
        assert_eq!(m.name(), "mptcp");
        // Slow start on path [1]: segments 2 and 3 answered grow it 1 -> 2 -> 3.
        for seg in 2..=3 {
            m.path_for(t(150), seg, false);
            data(&mut m, t(160), seg, &LpHeader::default());
        }
        let w: Vec<f64> = m.found_paths().map(|(_, _, w)| w).collect();
        assert_eq!(w, vec![3.0, 1.0], "the emptiest path takes each new segment, path [1] first");
        // Segments 10, 11, 12 go to the path least full relative to its window: 10 on [1] (0/3
        // vs 0/1, tie to the first), 11 on [2] (1/3 vs 0/1), 12 on [1] ([2] is full). The Data of
        // 12 overtakes 10 on [1]: 10 is lost, and Reno halves [1]'s window, 3 -> 1.5.
        let sent: Vec<u64> = (10..=12).map(|s| m.path_for(t(170), s, false).unwrap().lp.ext.unwrap().tags[0]).collect();
        assert_eq!(sent, vec![1, 2, 1]);
        data(&mut m, t(200), 12, &LpHeader::default());
        let mut lost = Vec::new();
        m.take_lost(&mut lost);
        assert_eq!(lost, vec![10]);
        let w: Vec<f64> = m.found_paths().map(|(_, _, w)| w).collect();
        assert_eq!(w, vec![1.5, 1.0]);
    }

    /// One path [1] found by the probe of segment 0 (sent at 0, Data at 50 ms: SRTT 50 ms, RTO
    /// at its 1 s floor); the next probing Interest is due at 1 s.
    fn one_path(tail_loss_probe: bool) -> Mptcp {
        let config = MptcpConfig { max_paths: 1, probe_rate: 1.0, tail_loss_probe, ..MptcpConfig::default() };
        let mut m = mptcp(config, RttOptions::default(), 3);
        m.path_for(t(0), 0, false);
        let mut lp = LpHeader { flags: flags::PTP_PROBE, ..Default::default() };
        lp.ext_mut().tags = [1].into_iter().collect();
        data(&mut m, t(50), 0, &lp);
        m
    }

    #[test]
    fn a_tail_loss_is_found_by_a_loss_probe_after_two_srtts() {
        let mut m = one_path(true);
        // Segment 1 fills the window of one at 50 ms: the probe timer runs to 50 + 2 x 50 = 150 ms
        // (RFC 8985 §7.2, below the 1 s RTO).
        assert!(m.path_for(t(50), 1, false).is_some());
        assert_eq!(m.poll_timeout(), Some(t(150)));
        assert!(!m.can_send(t(149)));
        // Nothing came back by 150 ms: segment 2 leaves on path [1] beyond its window.
        assert!(m.can_send(t(150)));
        let probe = m.path_for(t(150), 2, false).unwrap();
        assert_eq!(probe.lp.ext.unwrap().tags.as_slice(), &[1]);
        assert!(!m.can_send(t(150)), "one probe at a time");
        assert_eq!(m.poll_timeout(), Some(t(1000)), "after the probe only the probing grid (and the RTO)");
        // Its Data overtakes segment 1's Interest: lost, found by order; the window of one stays
        // at its floor (max(1 x 0.5, 1)) in fast recovery, where no probe is armed.
        data(&mut m, t(200), 2, &LpHeader::default());
        let mut lost = Vec::new();
        m.take_lost(&mut lost);
        assert_eq!(lost, vec![1]);
        assert_eq!(m.paths()[0].decreases, 1);
        assert_eq!(m.paths()[0].timeouts, 0);
    }

    #[test]
    fn without_the_loss_probe_a_tail_loss_waits_for_the_rto() {
        let mut m = one_path(false);
        m.path_for(t(50), 1, false);
        assert!(!m.can_send(t(150)));
        assert_eq!(m.poll_timeout(), Some(t(1000)));
    }

    #[test]
    fn each_data_restarts_the_probe_timer() {
        let mut m = one_path(true);
        // Slow start: segment 1's Data at 100 ms grows the window to 2; 2 and 3 leave then, and
        // the timer runs from 100 ms: 200 ms. Segment 2's Data at 160 ms restarts it: 260 ms.
        m.path_for(t(50), 1, false);
        data(&mut m, t(100), 1, &LpHeader::default());
        m.path_for(t(100), 2, false);
        m.path_for(t(100), 3, false);
        assert_eq!(m.poll_timeout(), Some(t(200)));
        data(&mut m, t(160), 2, &LpHeader::default());
        m.path_for(t(160), 4, false);
        m.path_for(t(160), 5, false);
        assert_eq!(m.poll_timeout(), Some(t(260)));
    }

    #[test]
    fn paths_are_not_reselected() {
        let m = two_paths(CouplingName::OLIA);
        // Only the probe grid is a timer: no reselection period.
        assert_eq!(m.poll_timeout(), Some(t(200)));
    }
}
