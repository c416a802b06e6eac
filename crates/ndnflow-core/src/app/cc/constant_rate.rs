//! Constant rate: one Interest every 1/rate seconds, unresponsive to feedback (ndnSIM ConsumerCbr
//! with `Randomize = none`). Serves as cross-traffic and as the rate-based shape of the trait.

use super::{CongestionController, DataSample};
use crate::Time;

pub struct ConstantRate {
    interval: Time,
}

impl ConstantRate {
    /// `rate` in Interests per second (must be positive; the scenario reader checks).
    pub fn new(rate: f64) -> ConstantRate {
        ConstantRate { interval: Time::from_secs_f64(1.0 / rate).max(Time(1)) }
    }
}

impl CongestionController for ConstantRate {
    fn name(&self) -> &'static str {
        "constant-rate"
    }
    fn on_data(&mut self, _now: Time, _sample: &DataSample) {}
    fn interval(&self) -> Option<Time> {
        Some(self.interval)
    }
}
