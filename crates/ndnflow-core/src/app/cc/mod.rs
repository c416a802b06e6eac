//! Consumer congestion control, in the shape of quinn-proto's `congestion` module: a small trait the
//! consumer engine drives, a config per algorithm with the paper's defaults, a factory, one file per
//! algorithm. A controller is window-based (`window`), rate-based (`interval`), or both.

pub mod aimd;
pub mod bic;
pub mod constant_rate;
pub mod cubic;
pub mod cwa;
pub mod fixed_window;
pub mod icp;
pub mod raaqm;

pub use aimd::{Aimd, AimdConfig};
pub use bic::{Bic, BicConfig};
pub use constant_rate::ConstantRate;
pub use cubic::{Cubic, CubicConfig};
pub use cwa::{Cwa, SignalConfig};
pub use fixed_window::FixedWindow;
pub use icp::{Icp, IcpConfig, IcpRto};
pub use raaqm::{Raaqm, RaaqmConfig};

use super::multipath::{Ptp, PtpConfig};
use super::rtt::RttOptions;
use crate::packet::{LpHeader, NackReason};
use crate::Time;

/// How one Interest of a multipath transport leaves: the link header that names its path, and
/// the path's retransmission timeout (`None`: the consumer's own).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PathSend {
    pub lp: LpHeader,
    pub rto: Option<Time>,
}

/// What the consumer learned from one Data packet.
#[derive(Clone, Copy, Debug)]
pub struct DataSample<'a> {
    pub segment: u64,
    /// RTT of this segment; `None` when it was retransmitted (Karn's rule: ambiguous).
    pub rtt: Option<Time>,
    /// NDNLPv2 CongestionMark of the Data (0 = unmarked).
    pub congestion_mark: u64,
    /// Highest segment number sent so far (PCON Algorithm 1's m_highInterest).
    pub highest_sent: u64,
    /// Interests outstanding after this Data was accounted for.
    pub in_flight: usize,
    /// The Data's link header, for controllers that read path labels or flags.
    pub lp: &'a LpHeader,
}

/// `Send` for the same reason as `Strategy`: a simulation may run on any thread.
pub trait CongestionController: Send {
    fn name(&self) -> &'static str;
    fn on_interest_sent(&mut self, _now: Time, _segment: u64, _retransmission: bool) {}
    fn on_data(&mut self, now: Time, sample: &DataSample);
    fn on_timeout(&mut self, _now: Time, _segment: u64) {}
    /// A Nack for `segment`; `marked` is its congestion mark (PCON §3.5).
    fn on_nack(&mut self, _now: Time, _segment: u64, _reason: NackReason, _marked: bool) {}
    /// Most Interests allowed in flight (window-based controllers).
    fn window(&self) -> Option<f64> {
        None
    }
    /// Least spacing between two Interests (rate-based controllers).
    fn interval(&self) -> Option<Time> {
        None
    }
    /// Retransmission timeout for the next Interest, for a controller that owns the retransmission
    /// timer, as ICP does; `None` leaves it to the consumer's RFC 6298 estimator.
    fn rto(&self) -> Option<Time> {
        None
    }

    // Multipath transports (PTP) own one window per path and choose each Interest's path; the
    // single-path controllers keep these defaults.

    /// Whether the windows are per path: the consumer then asks `can_send` instead of applying
    /// `window` (their sum, for traces) to all its Interests.
    fn per_path(&self) -> bool {
        false
    }
    /// With per-path windows: whether an Interest may leave now.
    fn can_send(&self, _now: Time) -> bool {
        true
    }
    /// The path of the Interest for `segment` that is about to leave; `None`: no link header, the
    /// consumer's RTO.
    fn path_for(&mut self, _now: Time, _segment: u64, _retransmission: bool) -> Option<PathSend> {
        None
    }
    /// Segments the controller has found lost by itself (PTP's order-based detection), which the
    /// consumer resends at once.
    fn take_lost(&mut self, _out: &mut Vec<u64>) {}
    /// The controller's own timers (PTP's probing and path reselection).
    fn poll_timeout(&self) -> Option<Time> {
        None
    }
    fn handle_timeout(&mut self, _now: Time) {}
}

/// The algorithms and their parameters; `build` makes the controller.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum CcConfig {
    /// At most `window` Interests outstanding (ndnSIM ConsumerWindow without adaptation, ndnget
    /// `--pipeline-type fixed`).
    FixedWindow { window: u32 },
    /// `rate` Interests per second regardless of feedback (ndnSIM ConsumerCbr `Frequency`).
    ConstantRate { rate: f64 },
    /// AIMD (ndnSIM ConsumerPcon `CcAlgorithm = AIMD`; ndnget `aimd`), `AimdConfig::default()` for
    /// the defaults.
    Aimd(AimdConfig),
    /// BIC (ndnSIM ConsumerPcon `CcAlgorithm = BIC`); `BicConfig::pcon()`, PCON-CS's, is the
    /// default.
    Bic(BicConfig),
    /// CUBIC (ndnSIM ConsumerPcon `CcAlgorithm = CUBIC`; ndnget `cubic`), `CubicConfig::default()`.
    Cubic(CubicConfig),
    /// ICP (AIMD, +1 per RTT, halve on timeout, RTO = (RTT_min + RTT_max) / 2 or RFC 6298),
    /// `IcpConfig::default()`.
    Icp(IcpConfig),
    /// RAAQM (delay-based, probabilistic decrease), `RaaqmConfig::default()` (hICN's values).
    Raaqm(RaaqmConfig),
    /// PTP's multipath transport: probing, in-use paths, MPCCP with Linked Increase per path
    /// (`PtpConfig::default()`: the paper's values).
    Ptp(PtpConfig),
}

impl CcConfig {
    /// `seed` feeds the controllers that draw random numbers (RAAQM, PTP); `rto` is the consumer's
    /// timer, which PTP runs once per path.
    pub fn build(&self, seed: u64, rto: RttOptions) -> Box<dyn CongestionController> {
        match *self {
            CcConfig::FixedWindow { window } => Box::new(FixedWindow::new(window)),
            CcConfig::ConstantRate { rate } => Box::new(ConstantRate::new(rate)),
            CcConfig::Aimd(c) => Box::new(Aimd::new(c)),
            CcConfig::Bic(c) => Box::new(Bic::new(c)),
            CcConfig::Cubic(c) => Box::new(Cubic::new(c)),
            CcConfig::Icp(c) => Box::new(Icp::new(c)),
            CcConfig::Raaqm(c) => Box::new(Raaqm::new(c, seed)),
            CcConfig::Ptp(c) => Box::new(Ptp::new(c, rto, seed)),
        }
    }
}
