//! Multipath transports: subflow managers that own one congestion state per path and a coupling
//! rule, in the shape of quinn-proto's `connection/paths.rs` (each path owns its controller and
//! RTT estimator).
//!
//! * `SubflowManager`: what the consumer engine asks of a multipath transport (which path an
//!   Interest takes and whether one may leave, what came back, its own timers). The consumer
//!   keeps the segments, retransmissions and the overall timer; the manager keeps the paths.
//! * `paths::PathSet`: the paths, each with its congestion state (`mpccp`), RTT estimator and
//!   counts, and the map from outstanding segments to paths.
//! * `coupling::Coupling`: how per-path increases are linked, one file each (`uncoupled`,
//!   `ewtcp`, `semicoupled`, `lia`, `olia`), registered in `coupling::COUPLINGS`.
//! * Transports: PTP (`ptp`: probing, in-use paths and reselection by a `selection` rule, MPCCP +
//!   LIA) and MPTCP (`mptcp`: the same probed paths, Reno per subflow with RFC 8985's tail loss
//!   probe, `tlp`, a chosen coupling), and DPCCP (`dpccp`: the same probed paths, one
//!   rate-controlled sub-flow each, `dpccp_rate`, driven by backlogs estimated per hop-flow,
//!   `hopflow`), and MIRCC (`mircc`: the same probed paths, each paced at the rate its links
//!   write into Data, one primary and the rest second-class), and SMIC (`smic`: sub-flows found
//!   by path ids that routers hash onto next hops, merged by trajectory id, Algorithm 1's windows
//!   with bottleneck sharing from `smic_sharing`, or an MPTCP coupling over the same sub-flows).
//!
//! All sans-IO: handed `now` and events, returning decisions and deadlines.

pub mod coupling;
pub mod dpccp;
pub mod dpccp_rate;
pub mod ewtcp;
pub mod hopflow;
pub mod lia;
pub mod mircc;
pub mod mpccp;
pub mod mptcp;
pub mod olia;
pub mod pacing;
pub mod paths;
pub mod ptp;
pub mod selection;
pub mod semicoupled;
pub mod smic;
pub mod smic_sharing;
pub mod tlp;
pub mod uncoupled;

pub use coupling::{Coupling, CouplingName, PathView};
pub use dpccp::{Dpccp, DpccpConfig};
pub use dpccp_rate::{RateConfig, RateState};
pub use lia::{lia_alpha, lia_increase};
pub use mircc::{Mircc, MirccConfig, PathRate, PrimaryRule};
pub use mpccp::{MpccpConfig, PathCongestion, PathCounters, PathPhase, Recovery};
pub use mptcp::{Mptcp, MptcpConfig};
pub use ptp::{PathSpecified, PathSpecifiedConfig, Ptp, PtpConfig};
pub use selection::PathSelection;
pub use smic::{Smic, SmicConsumerConfig, SmicIncrease};

use super::cc::DataSample;
use crate::packet::{LpHeader, NackReason};
use crate::Time;

/// How one Interest of a multipath transport leaves: the link header that names its path, and
/// the path's retransmission timeout (`None`: the consumer's own).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PathSend {
    pub lp: LpHeader,
    pub rto: Option<Time>,
}

/// One path as a multipath transport reports it at the end of a run (or at any moment).
#[derive(Clone, Debug, PartialEq)]
pub struct PathReport {
    /// The route its Interests carry (PTP's tag stack, last = top; SMIC's path ids).
    pub tags: Vec<u64>,
    /// Whether `tags` is a PTP tag stack (each tag a face id at the node the Interest has
    /// reached, the bottom one the producer's application face), which a simulator that knows
    /// the faces can read back into the path's nodes. SMIC's path ids are not.
    pub tag_stack: bool,
    /// "in-use", "idle" or "failed"; MIRCC's sub-flows in use are "primary" or "secondary".
    pub state: &'static str,
    /// Congestion window, in Interests.
    pub window: f64,
    /// Smoothed RTT of its producer Data, if any was sampled.
    pub srtt: Option<Time>,
    /// Data received on it over the run.
    pub data: u64,
    /// Interests it found lost by order, window decreases, and timeouts of Interests sent on it.
    pub losses: u64,
    pub decreases: u64,
    pub timeouts: u64,
    /// SMIC: the sub-flows found to share its bottleneck, itself included (|S_r| of Algorithm 1);
    /// `None` for transports without bottleneck-sharing detection.
    pub sharing: Option<usize>,
    /// PTP: its delivery rate over its last period in use, bits per second (the measure the
    /// hybrid selection reads); `None` before one, and for transports that do not measure it.
    pub bandwidth: Option<f64>,
}

impl PathReport {
    /// Whether the path carries Interests: every state but "idle" and "failed" (MIRCC's
    /// "primary" and "secondary" sub-flows as much as the others' "in-use" paths).
    pub fn in_use(&self) -> bool {
        !matches!(self.state, "idle" | "failed")
    }
}

/// A multipath transport as the consumer engine drives it. `Send` for the same reason as
/// `CongestionController`: a simulation may run on any thread.
pub trait SubflowManager: Send {
    fn name(&self) -> &'static str;
    /// Whether an Interest may leave now (a path has room, or a probe is due).
    fn can_send(&self, now: Time) -> bool;
    /// Whether a resent segment may leave now. A manager that keeps resends off its probes says
    /// no while only a probe is due (the consumer then sends a new segment, or waits); by
    /// default a resend may leave whenever any Interest may.
    fn can_resend(&self, now: Time) -> bool {
        self.can_send(now)
    }
    /// The Interest for `segment` is about to leave: the path it takes. `None` (only when
    /// `can_send` said no): no link header, the consumer's RTO.
    fn path_for(&mut self, now: Time, segment: u64, retransmission: bool) -> Option<PathSend>;
    fn on_data(&mut self, now: Time, sample: &DataSample);
    fn on_timeout(&mut self, now: Time, segment: u64);
    /// A Nack for `segment`; `marked` is its congestion mark.
    fn on_nack(&mut self, now: Time, segment: u64, reason: NackReason, marked: bool);
    /// Segments found lost by the paths' own detection, which the consumer resends at once.
    fn take_lost(&mut self, out: &mut Vec<u64>);
    /// The path `segment`'s last Interest went on, as the manager names it, for the consumer's
    /// per-Interest trace: its index among `paths()`, or the path id on the wire for a manager
    /// whose paths are ids (SMIC). `None` for a probe or an unknown segment. Asked before
    /// `on_data`, which may forget the segment.
    fn path_of(&self, _segment: u64) -> Option<u64> {
        None
    }
    /// When the timer of `segment` (sent at `sent_at`) has come due: the later deadline it has
    /// now, if the manager restarts timers (a path's timer restarts on the Data of the Interests
    /// it sent earlier, RFC 6298 §5.3); `None` lets it time out.
    fn restarted_deadline(&self, _segment: u64, _sent_at: Time) -> Option<Time> {
        None
    }
    /// The manager's own timers (probing, reselection).
    fn poll_timeout(&self) -> Option<Time>;
    /// `poll_timeout` for a consumer that has only resends to send (`can_resend`).
    fn poll_resend(&self) -> Option<Time> {
        self.poll_timeout()
    }
    fn handle_timeout(&mut self, now: Time);
    /// The sum of the in-use windows, for traces (each path applies its own).
    fn window(&self) -> f64;
    /// Every path found so far, in the order found.
    fn paths(&self) -> Vec<PathReport>;
}
