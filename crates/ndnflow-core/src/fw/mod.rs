//! The forwarder (NFD daemon/fw): pipelines and strategies.

pub mod config;
pub mod face;
pub mod forwarder;
pub mod strategy;

pub use face::{FaceInfo, FaceKind};
pub use forwarder::{Forwarder, ForwarderConfig, ForwarderCounters, InterestMarks};
pub use strategy::{InterestDecision, NackDecision, Strategy, StrategyCtx};
