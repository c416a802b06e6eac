//! Consumer congestion control, in the shape of quinn-proto's `congestion` module: a small trait the
//! consumer engine drives, a config per algorithm with the paper's defaults, a factory, one file per
//! algorithm. A controller is window-based (`window`), rate-based (`interval`), or both.

pub mod aimd;
pub mod bic;
pub mod chopcop;
pub mod constant_rate;
pub mod cubic;
pub mod cwa;
pub mod fixed_window;
pub mod icp;
pub mod raaqm;

pub use aimd::{Aimd, AimdConfig};
pub use bic::{Bic, BicConfig};
pub use chopcop::{chopcop_defaults, Chopcop, ChopcopConfig};
pub use constant_rate::{ConstantRate, Randomize};
pub use cubic::{Cubic, CubicConfig};
pub use cwa::{Cwa, SignalConfig};
pub use fixed_window::FixedWindow;
pub use icp::{Icp, IcpConfig, IcpRto};
pub use raaqm::{Raaqm, RaaqmConfig, RaaqmTimeout};

use super::multipath::{
    mptcp, Dpccp, DpccpConfig, Mircc, MirccConfig, MptcpConfig, Ptp, PtpConfig, Smic, SmicConsumerConfig,
    SubflowManager,
};
use super::rtt::RttOptions;
use crate::packet::{LpHeader, NackReason};
use crate::Time;

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
    /// The Data's size on the link, bytes (a rate-based controller turns the bits per second it
    /// is told into Interests per second with it).
    pub wire_size: u32,
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
}

/// The algorithms and their parameters; `build` makes the controller.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum CcConfig {
    /// At most `window` Interests outstanding (ndnSIM ConsumerWindow without adaptation, ndnget
    /// `--pipeline-type fixed`).
    FixedWindow { window: u32 },
    /// `rate` Interests per second regardless of feedback (ndnSIM ConsumerCbr `Frequency`).
    ConstantRate { rate: f64, randomize: Randomize },
    /// AIMD (ndnSIM ConsumerPcon `CcAlgorithm = AIMD`; ndnget `aimd`), `AimdConfig::default()` for
    /// the defaults.
    Aimd(AimdConfig),
    /// BIC (ndnSIM ConsumerPcon `CcAlgorithm = BIC`); `BicConfig::pcon()`, PCON-CS's, is the
    /// default.
    Bic(BicConfig),
    /// CUBIC (ndnSIM ConsumerPcon `CcAlgorithm = CUBIC`; ndnget `cubic`), `CubicConfig::default()`.
    Cubic(CubicConfig),
    /// CHoPCoP's receiver window (AIMD halving at most once per window on marks, timeouts and
    /// Nack(Congestion); `chopcop_defaults()`), for random early marking routers.
    Chopcop(ChopcopConfig),
    /// ICP (AIMD, +1 per RTT, halve on timeout, RTO = (RTT_min + RTT_max) / 2 or RFC 6298),
    /// `IcpConfig::default()`.
    Icp(IcpConfig),
    /// RAAQM (delay-based, probabilistic decrease), `RaaqmConfig::default()` (hICN's compiled
    /// values).
    Raaqm(RaaqmConfig),
    /// PTP's multipath transport: probing, in-use paths, MPCCP with Linked Increase per path
    /// (`PtpConfig::default()`: the paper's values).
    Ptp(PtpConfig),
    /// MPTCP's congestion control over PTP's probed paths: Reno per subflow and a coupling (LIA,
    /// OLIA, ...), `MptcpConfig::default()`.
    Mptcp(MptcpConfig),
    /// DPCCP's delay-based rate control per path over PTP's probed paths,
    /// `DpccpConfig::default()` (the paper's values where it gives them).
    Dpccp(DpccpConfig),
    /// MIRCC's consumer: each path paced at the rate its links write into Data (RCP-style, one
    /// primary sub-flow and the rest second-class), `MirccConfig::default()`.
    Mircc(MirccConfig),
    /// SMIC's consumer: one window per sub-flow found by path ids, Algorithm 1 (or an MPTCP
    /// coupling over the same sub-flows), `SmicConsumerConfig::default()`.
    Smic(SmicConsumerConfig),
}

/// What a consumer runs: one controller for all its Interests, or a subflow manager that keeps
/// one congestion state per path.
pub enum Controller {
    Single(Box<dyn CongestionController>),
    Multipath(Box<dyn SubflowManager>),
}

impl Controller {
    pub fn name(&self) -> &'static str {
        match self {
            Controller::Single(c) => c.name(),
            Controller::Multipath(m) => m.name(),
        }
    }

    /// The window for traces: a multipath transport's is the sum of its paths'.
    pub fn window(&self) -> Option<f64> {
        match self {
            Controller::Single(c) => c.window(),
            Controller::Multipath(m) => Some(m.window()),
        }
    }

    pub fn on_data(&mut self, now: Time, sample: &DataSample) {
        match self {
            Controller::Single(c) => c.on_data(now, sample),
            Controller::Multipath(m) => m.on_data(now, sample),
        }
    }

    pub fn on_timeout(&mut self, now: Time, segment: u64) {
        match self {
            Controller::Single(c) => c.on_timeout(now, segment),
            Controller::Multipath(m) => m.on_timeout(now, segment),
        }
    }

    pub fn on_nack(&mut self, now: Time, segment: u64, reason: NackReason, marked: bool) {
        match self {
            Controller::Single(c) => c.on_nack(now, segment, reason, marked),
            Controller::Multipath(m) => m.on_nack(now, segment, reason, marked),
        }
    }

    /// The single-path controller's Interest spacing (rate-based controllers).
    pub fn interval(&self) -> Option<Time> {
        match self {
            Controller::Single(c) => c.interval(),
            Controller::Multipath(_) => None,
        }
    }
}

impl CcConfig {
    /// The Interests a window controller may send at once when it starts (its first window; the
    /// fixed window's whole window); `None` for rate and multipath controllers.
    pub fn initial_window(&self) -> Option<f64> {
        match self {
            CcConfig::FixedWindow { window } => Some(f64::from(*window)),
            CcConfig::Aimd(c) | CcConfig::Chopcop(c) => Some(c.initial_window),
            CcConfig::Bic(c) => Some(c.initial_window),
            CcConfig::Cubic(c) => Some(c.initial_window),
            CcConfig::Icp(c) => Some(c.initial_window),
            CcConfig::Raaqm(c) => Some(c.initial_window),
            _ => None,
        }
    }

    /// A multipath controller's first burst and its probes, for a driver's memory estimate: the
    /// paths it may run at once, each path's first window, and its probing Interests per second
    /// (SMIC does not probe); `None` for a single-path controller.
    pub fn multipath_start(&self) -> Option<(f64, f64, f64)> {
        match self {
            CcConfig::Ptp(c) => Some((c.max_paths as f64, c.mpccp.initial_window, c.probe_rate)),
            CcConfig::Mptcp(c) => Some((c.max_paths as f64, c.subflow.initial_window, c.probe_rate)),
            CcConfig::Dpccp(c) => Some((c.max_paths as f64, c.initial_window, c.probe_rate)),
            CcConfig::Mircc(c) => Some((c.max_paths as f64, c.initial_window, c.probe_rate)),
            CcConfig::Smic(c) => Some((f64::from(c.path_ids), c.initial_window, 0.0)),
            _ => None,
        }
    }

    /// `seed` feeds the controllers that draw random numbers (RAAQM, PTP); `rto` is the consumer's
    /// timer, which multipath transports run once per path.
    pub fn build(&self, seed: u64, rto: RttOptions) -> Controller {
        let single: Box<dyn CongestionController> = match *self {
            CcConfig::FixedWindow { window } => Box::new(FixedWindow::new(window)),
            CcConfig::ConstantRate { rate, randomize } => Box::new(ConstantRate::new(rate, randomize, seed)),
            CcConfig::Aimd(c) => Box::new(Aimd::new(c)),
            CcConfig::Bic(c) => Box::new(Bic::new(c)),
            CcConfig::Cubic(c) => Box::new(Cubic::new(c)),
            CcConfig::Chopcop(c) => Box::new(Chopcop::new(c)),
            CcConfig::Icp(c) => Box::new(Icp::new(c)),
            CcConfig::Raaqm(c) => Box::new(Raaqm::new(c, seed)),
            CcConfig::Ptp(c) => return Controller::Multipath(Box::new(Ptp::new(c, rto, seed))),
            CcConfig::Mptcp(c) => return Controller::Multipath(Box::new(mptcp::mptcp(c, rto, seed))),
            CcConfig::Dpccp(c) => return Controller::Multipath(Box::new(Dpccp::new(c, rto))),
            CcConfig::Mircc(c) => return Controller::Multipath(Box::new(Mircc::new(c, rto))),
            CcConfig::Smic(c) => return Controller::Multipath(Box::new(Smic::new(c, rto))),
        };
        Controller::Single(single)
    }
}
