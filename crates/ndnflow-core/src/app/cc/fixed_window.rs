//! Fixed window: at most W Interests in flight, whatever happens (ndnget `--pipeline-type fixed`,
//! ndnSIM ConsumerWindow without window adaptation). The baseline that the foundation tests use:
//! its throughput is min(link rate, W x payload / RTT), derivable by hand.

use super::{CongestionController, DataSample};
use crate::Time;

pub struct FixedWindow {
    window: f64,
}

impl FixedWindow {
    pub fn new(window: u32) -> FixedWindow {
        FixedWindow { window: window.max(1) as f64 }
    }
}

impl CongestionController for FixedWindow {
    fn name(&self) -> &'static str {
        "fixed-window"
    }
    fn on_data(&mut self, _now: Time, _sample: &DataSample) {}
    fn window(&self) -> Option<f64> {
        Some(self.window)
    }
}
