//! The seam for protocols of another crate (the Python bindings' strategies and controllers):
//! `Simulation::set_controller` replaces a consumer's controller before the run, and
//! `Simulation::stop_on` lets a failing protocol end the run after its event, keeping what was
//! computed (`engine/external.rs`).
//!
//! The line a - b - c of `common::SMALL` (10 Mbit/s, 1 ms links), a consumer of /p on a from 1 s.

use crate::common;

use std::sync::{Arc, Mutex};

use common::small_with;
use ndnflow_core::app::cc::{Controller, FixedWindow};
use ndnflow_core::fw::strategy::BestRouteStrategy;
use ndnflow_core::fw::{InterestDecision, Strategy, StrategyCtx};
use ndnflow_core::table::{FaceId, FibEntry, PitEntry};
use ndnflow_core::{Name, Time};
use ndnflow_sim::engine::StopSlot;
use ndnflow_sim::Simulation;

fn consumer(window: u32) -> String {
    format!("[[consumers]]\nnode = \"a\"\nname = \"/p\"\nstart = \"1s\"\ncc = {{ algorithm = \"fixed-window\", window = {window} }}\n")
}

/// best-route that, at its first Interest, says the run must stop, as a failing protocol does.
struct FailsAtFirst {
    inner: BestRouteStrategy,
    slot: StopSlot,
    at: Arc<Mutex<Option<Time>>>,
}

impl Strategy for FailsAtFirst {
    fn name(&self) -> &'static str {
        "fails-at-first"
    }

    fn after_receive_interest(
        &mut self,
        ctx: &StrategyCtx,
        in_face: FaceId,
        entry: &mut PitEntry,
        fib: Option<&FibEntry>,
    ) -> InterestDecision {
        let mut at = self.at.lock().unwrap();
        if at.is_none() {
            *at = Some(ctx.now);
            *self.slot.lock().unwrap() = Some(format!("failed at {}", ctx.now));
        }
        self.inner.after_receive_interest(ctx, in_face, entry, fib)
    }
}

#[test]
fn a_filled_stop_slot_ends_the_run_after_its_event_with_what_was_computed() {
    let mut sim = Simulation::new(small_with(&consumer(4)).unwrap());
    let slot = StopSlot::default();
    let at = Arc::new(Mutex::new(None));
    let strategy = FailsAtFirst { inner: BestRouteStrategy::new(), slot: slot.clone(), at: at.clone() };
    assert!(sim.set_strategy("b", &Name::root(), Box::new(strategy)));
    sim.stop_on(slot);
    let summary = sim.run().summary;
    // The consumer's first Interest reaches b after a->b's 1 ms and its transmission, past 1 s.
    let at = at.lock().unwrap().expect("b saw an Interest");
    assert!(at > Time::from_millis(1001) && at < Time::from_millis(1002), "{at}");
    assert_eq!(summary.simulation.end_s, at.as_secs_f64());
    assert_eq!(summary.simulation.stopped.as_deref(), Some(format!("failed at {at}").as_str()));
    // The window of 4 had left a (4 Interests on a->b), and none reached c: b stopped at the first.
    assert_eq!(summary.nodes["a"].out_interests, 4);
    assert_eq!(summary.nodes["c"].in_interests, 0);
}

#[test]
fn an_empty_stop_slot_changes_nothing() {
    let plain = Simulation::new(small_with(&consumer(4)).unwrap()).run().summary;
    let mut sim = Simulation::new(small_with(&consumer(4)).unwrap());
    sim.stop_on(StopSlot::default());
    let watched = sim.run().summary;
    assert_eq!(serde_json::to_string(&plain).unwrap(), serde_json::to_string(&watched).unwrap());
}

#[test]
fn set_controller_replaces_what_the_scenario_built() {
    // A window of 40 in the file, replaced by a fixed window of 1: the run is the window-1 file's.
    let mut sim = Simulation::new(small_with(&consumer(40)).unwrap());
    assert!(sim.set_controller(0, Controller::Single(Box::new(FixedWindow::new(1)))));
    assert!(!sim.set_controller(1, Controller::Single(Box::new(FixedWindow::new(1)))));
    let replaced = sim.run().summary;
    let one = Simulation::new(small_with(&consumer(1)).unwrap()).run().summary;
    let forty = Simulation::new(small_with(&consumer(40)).unwrap()).run().summary;
    assert_eq!(serde_json::to_string(&replaced).unwrap(), serde_json::to_string(&one).unwrap());
    assert_ne!(replaced.consumers["a"].data_received, forty.consumers["a"].data_received);
}
