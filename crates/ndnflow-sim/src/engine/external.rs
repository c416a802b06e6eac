//! The seam for protocols of another crate (the Python bindings' strategies and controllers):
//! installed on a built simulation before it runs, and a way for them to stop the run when they
//! fail, since a strategy trigger or a controller hook has no error to return.

use std::sync::{Arc, Mutex};

use ndnflow_core::app::cc::Controller;

use super::Simulation;
use crate::build::App;

/// Where an outside protocol writes why the run must stop (its error, where and when); the engine
/// reads it after every event once it is installed.
pub type StopSlot = Arc<Mutex<Option<String>>>;

impl Simulation {
    /// Replaces the controller of the consumer at `index` in the scenario's order; false when
    /// there is no such consumer. Before the run.
    pub fn set_controller(&mut self, index: usize, cc: Controller) -> bool {
        let slot = self.net.apps.iter_mut().find(|a| a.consumer == Some(index));
        let Some(App::Consumer(consumer)) = slot.map(|a| &mut a.app) else { return false };
        consumer.set_controller(cc);
        true
    }

    /// Stops the run after the event during which `slot` was filled, as the memory watch does:
    /// what was computed is kept and the slot's text becomes the summary's `stopped`.
    pub fn stop_on(&mut self, slot: StopSlot) {
        self.stop_slot = Some(slot);
    }

    /// Whether an outside protocol asked to stop; if so, the run ends here.
    pub(super) fn outside_stop(&mut self) -> bool {
        let Some(slot) = &self.stop_slot else { return false };
        let reason = slot.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).take();
        let Some(reason) = reason else { return false };
        self.stopped = Some(reason);
        self.finish();
        true
    }
}
