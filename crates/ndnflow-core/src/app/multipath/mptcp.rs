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
//!   the increase), at most one decrease per window of data (NewReno's recovery, RFC 6582), to one
//!   packet with slow start after a timeout. We run that machine as MPCCP's (`mpccp`, whose states
//!   are TCP's) with beta 0.5 and `Recovery::NewReno`.
//! * Losses are found as TCP finds them, from the order of arrivals on a subflow: on a path
//!   pinned by tags, a producer Data that overtakes an earlier Interest of its path is the NDN
//!   equivalent of duplicate acknowledgements (PTP §5-C-1 makes the same argument), and cache or
//!   retransmitted Data say nothing about order.
//! * No path reselection: an MPTCP connection keeps its subflows; a subflow whose path breaks
//!   (Nack NoRoute) is closed and an unused path, if any, opens in its place.
//! * `max_paths` 10 by default: RFC 6824 sets no limit; we use PTP's N so both transports see the
//!   same paths in a comparison.

use super::coupling::CouplingName;
use super::mpccp::{MpccpConfig, Recovery};
use super::ptp::{PathSpecified, PathSpecifiedConfig, TCP_MIN_RTO};
use crate::app::rtt::RttOptions;
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
pub fn mptcp(config: MptcpConfig, rto: RttOptions, seed: u64) -> PathSpecified {
    PathSpecified::with_config("mptcp", config.into(), rto, seed)
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

    fn data(m: &mut PathSpecified, now: Time, segment: u64, lp: &LpHeader) {
        let sample = DataSample { segment, rtt: Some(t(50)), congestion_mark: 0, highest_sent: 0, in_flight: 0, lp };
        m.on_data(now, &sample);
    }

    /// Two paths [1] and [2] found by probes at 0 and 100 ms, both in use with window 1.
    fn two_paths(coupling: CouplingName) -> PathSpecified {
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

    #[test]
    fn paths_are_not_reselected() {
        let m = two_paths(CouplingName::OLIA);
        // Only the probe grid is a timer: no reselection period.
        assert_eq!(m.poll_timeout(), Some(t(200)));
    }
}
