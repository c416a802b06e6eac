//! Protocols written in Python (issue 24, "Protocols in Python"): a forwarding strategy
//! (`ndnflow.Strategy`) or a consumer controller (`ndnflow.Controller`) held as a Python object and
//! called with the GIL from the Rust traits the built-in ones implement,
//! `ndnflow_core::fw::Strategy` (NFD daemon/fw/strategy.hpp's triggers) and
//! `ndnflow_core::app::cc::CongestionController`. Installed on a built simulation through the
//! engine's seam (`Simulation::set_strategy`, `set_controller`), so neither ndnflow-core nor
//! ndnflow-sim knows Python.
//!
//! A trigger has no error to return: the first exception (or a return value that is not a
//! decision) is written, with the trigger, the node or consumer and the simulated time, into the
//! simulation's stop slot, which ends the run after the current event with what it computed
//! (`Simulation::stop_on`). From then on the object is not called again, and the wrapper answers
//! as the trait's defaults do, so the event finishes consistently.

pub mod controller;
pub mod strategy;
pub mod views;

use ndnflow_core::Time;
use ndnflow_sim::engine::StopSlot;
use pyo3::call::PyCallArgs;
use pyo3::prelude::*;

/// A Python object and what to say when one of its calls fails.
pub struct Caller {
    object: Py<PyAny>,
    /// "strategy BestRoute at node r", "controller Aimd of consumer 0 (node c1)".
    what: String,
    slot: StopSlot,
    failed: bool,
}

impl Caller {
    pub fn new(py: Python<'_>, object: Py<PyAny>, role: &str, place: &str, slot: StopSlot) -> Caller {
        let class = object.bind(py).get_type().qualname().map(|q| q.to_string()).unwrap_or_else(|_| "?".into());
        Caller { object, what: format!("{role} {class} {place}"), slot, failed: false }
    }

    pub fn bind<'py>(&self, py: Python<'py>) -> &Bound<'py, PyAny> {
        self.object.bind(py)
    }

    /// `method(*args)`, or None once anything has failed (then nothing is called again).
    pub fn call<'py, A>(&mut self, py: Python<'py>, now: Time, method: &str, args: A) -> Option<Bound<'py, PyAny>>
    where
        A: PyCallArgs<'py>,
    {
        if self.failed {
            return None;
        }
        match self.object.bind(py).call_method1(method, args) {
            Ok(value) => Some(value),
            Err(err) => {
                self.fail(py, now, method, &err);
                None
            }
        }
    }

    /// Records `err` raised by (or about what was returned by) `method` at `now`, the first
    /// failure only: the run stops after this event.
    pub fn fail(&mut self, py: Python<'_>, now: Time, method: &str, err: &PyErr) {
        if self.failed {
            return;
        }
        self.failed = true;
        // Ctrl-C that lands inside a hook is the user's stop, not the class's failure: the run
        // ends as an interrupted one (a ProtocolError with the KeyboardInterrupt's traceback
        // blamed the class until 2026-11-28). The message does not start as a failure's does.
        let message = if err.is_instance_of::<pyo3::exceptions::PyKeyboardInterrupt>(py) {
            format!("interrupted (Ctrl-C) during python {}, {method} at t = {now}", self.what)
        } else {
            format!("python {}, {method} at t = {now}: {}", self.what, traceback(py, err))
        };
        let mut slot = self.slot.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        slot.get_or_insert(message);
    }

    pub fn failed(&self) -> bool {
        self.failed
    }

    /// The failure recorded so far, taken out of the slot (for one refused before the run).
    pub fn slot_message(&self) -> String {
        self.slot.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).take().unwrap_or_default()
    }
}

/// The exception as Python prints it, traceback included; its message alone if that fails.
fn traceback(py: Python<'_>, err: &PyErr) -> String {
    let formatted = py.import("traceback").and_then(|tb| {
        let lines = tb.call_method1("format_exception", (err.get_type(py), err.value(py), err.traceback(py)))?;
        Ok(lines.extract::<Vec<String>>()?.concat())
    });
    formatted.map(|t| t.trim_end().to_string()).unwrap_or_else(|_| err.to_string())
}
