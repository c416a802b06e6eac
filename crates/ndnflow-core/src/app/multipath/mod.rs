//! Multipath transports: subflow managers that own one congestion state per path and a coupling
//! rule. PTP's consumer (`ptp`, the Path-specified Transport Protocol) runs MPCCP (§5): one
//! congestion state machine per in-use path (`mpccp`) and the coupled window increase that links
//! them (`lia`, RFC 6356).
//!
//! All sans-IO: the consumer engine owns the timers and the segments; `Ptp` maps segments to
//! paths and feeds each path's `PathCongestion` what happened to the Interests it sent there.

pub mod lia;
pub mod mpccp;
pub mod ptp;

pub use lia::{lia_alpha, lia_increase};
pub use mpccp::{MpccpConfig, PathCongestion, PathCounters, PathPhase};
pub use ptp::{Ptp, PtpConfig};
