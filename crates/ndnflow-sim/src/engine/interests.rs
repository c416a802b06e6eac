//! The engine's side of the per-segment trace (`crate::trace_interests`): turning the consumers'
//! records on when the scenario asks, and draining them after each call into a consumer.

use super::Simulation;
use crate::build::App;
use crate::trace_interests::{InterestLog, InterestName};

impl Simulation {
    /// With `[trace] interests = true`, every consumer keeps its records; else `None`, and the
    /// engine never looks at them.
    pub(super) fn start_interest_log(&mut self) {
        if !self.scenario.trace.interests {
            return;
        }
        for slot in &mut self.net.apps {
            if let App::Consumer(c) = &mut slot.app {
                c.record_segments();
            }
        }
        self.interests = Some(InterestLog::default());
    }

    /// Moves app `a`'s new records into the log (a consumer with the trace on).
    pub(super) fn drain_interests(&mut self, a: usize) {
        let Some(log) = &mut self.interests else { return };
        let slot = &mut self.net.apps[a];
        if let (App::Consumer(c), Some(i)) = (&mut slot.app, slot.consumer) {
            log.drain(i as u32, c);
        }
    }

    /// Rows of the per-segment trace so far (0 with it off).
    pub fn interest_rows(&self) -> usize {
        self.interests.as_ref().map_or(0, InterestLog::len)
    }

    /// The consumers as the per-segment rows name them, in scenario order.
    pub(super) fn interest_names(&self) -> Vec<InterestName> {
        self.scenario
            .consumers
            .iter()
            .zip(&self.net.consumer_ids)
            .map(|(c, id)| InterestName {
                id: id.clone(),
                node: self.scenario.nodes[c.node].name.clone(),
                prefix: c.name.to_string(),
            })
            .collect()
    }
}
