//! Scenarios: the validated model and the readers that build it.

pub mod model;
pub mod ndnsim;
pub mod toml;
pub mod units;
