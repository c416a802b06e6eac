//! The forwarder (NFD daemon/fw): pipelines, strategies and router extensions.

pub mod config;
pub mod ext;
pub mod face;
pub mod forwarder;
pub mod log;
pub mod strategy;
#[cfg(test)]
pub(crate) mod testing;

pub use ext::{ForwarderExtension, Takeover};
pub use face::{FaceCounters, FaceInfo, FaceKind};
pub use forwarder::{Forwarder, ForwarderConfig, ForwarderCounters, InterestMarks, PitRoom};
pub use log::{Detail, ForwardingLog, FwEvent, FwRecord};
pub use strategy::{
    DataDecision, InterestDecision, NackDecision, Strategy, StrategyAction, StrategyActions, StrategyCtx,
};
