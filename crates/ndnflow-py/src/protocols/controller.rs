//! `PyController`: a Python `ndnflow.Controller` behind the `CongestionController` trait, the
//! window-based consumer controller's hooks (on Interest sent, on Data with its RTT and mark, on
//! timeout, on Nack). The consumer asks `window()` before every Interest it may send; rather than
//! call Python that often, the wrapper reads the object's `window`, `interval_ns` and `rto_ns`
//! attributes after each hook it calls (and once at the start), which is when they can change.

use ndnflow_core::app::cc::{CongestionController, DataSample};
use ndnflow_core::packet::NackReason;
use ndnflow_core::Time;
use pyo3::call::PyCallArgs;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use super::views::DataSampleView;
use super::Caller;

pub struct PyController {
    caller: Caller,
    /// Whether the class defines `on_interest_sent` (called per Interest, so skipped when not).
    sent_hook: bool,
    window: Option<f64>,
    interval: Option<Time>,
    rto: Option<Time>,
}

impl PyController {
    pub fn new(py: Python<'_>, caller: Caller) -> PyResult<PyController> {
        let names: Vec<String> = caller.bind(py).call_method0("_overridden")?.extract()?;
        let sent_hook = names.iter().any(|n| n == "on_interest_sent");
        let mut cc = PyController { caller, sent_hook, window: None, interval: None, rto: None };
        cc.read_state(py, Time::ZERO, "its window, interval_ns and rto_ns as the run starts");
        if cc.caller.failed() {
            // Wrong from the start: refuse it before the run rather than stop the run at once, as
            // a scenario's error (it was an internal ValueError until 2026-11-28).
            let message = cc.caller.slot_message();
            return Err(crate::sim::ScenarioError::new_err(message));
        }
        Ok(cc)
    }

    /// Reads `window`, `interval_ns` and `rto_ns` after `method` ran.
    fn read_state(&mut self, py: Python<'_>, now: Time, method: &str) {
        let object = self.caller.bind(py).clone();
        // Each attribute named in its error: "can't convert negative int to unsigned" named
        // neither interval_ns nor rto_ns until 2026-11-28.
        let nanos = |name: &str| -> PyResult<Option<u64>> {
            let value = object.getattr(name)?;
            value.extract().map_err(|_| {
                PyValueError::new_err(format!("{name} must be a whole number of nanoseconds >= 0 or None, not {value}"))
            })
        };
        let read = || -> PyResult<(Option<f64>, Option<u64>, Option<u64>)> {
            let value = object.getattr("window")?;
            if value.is_instance_of::<pyo3::types::PyBool>() {
                // True was taken as a window of 1 until 2026-11-28.
                return Err(PyValueError::new_err(format!(
                    "window must be a number of Interests or None, not {value}"
                )));
            }
            let window: Option<f64> = value.extract()?;
            if window.is_some_and(|w| !w.is_finite() || w < 0.0) {
                return Err(PyValueError::new_err(format!(
                    "window must be a finite number of Interests >= 0 or None, not {}",
                    window.unwrap_or_default()
                )));
            }
            let interval = nanos("interval_ns")?;
            if window.is_none() && interval.is_none() {
                // With neither, the consumer sent without bound until the memory watch stopped
                // it, 4.4 GiB later (until 2026-11-28).
                return Err(PyValueError::new_err(
                    "window and interval_ns are both None: set a window (Interests in flight) or an \
                     interval (least spacing), or the consumer sends without bound",
                ));
            }
            Ok((window, interval, nanos("rto_ns")?))
        };
        match read() {
            Ok((window, interval, rto)) => {
                self.window = window;
                self.interval = interval.map(Time::from_nanos);
                self.rto = rto.map(Time::from_nanos);
            }
            Err(e) => self.caller.fail(py, now, method, &e),
        }
    }

    fn hook<A>(&mut self, now: Time, method: &str, args: A)
    where
        A: for<'py> PyCallArgs<'py>,
    {
        if self.caller.failed() {
            return;
        }
        Python::attach(|py| {
            if self.caller.call(py, now, method, args).is_some() {
                self.read_state(py, now, method);
            }
        })
    }
}

impl CongestionController for PyController {
    fn name(&self) -> &'static str {
        "python"
    }

    fn on_interest_sent(&mut self, now: Time, segment: u64, retransmission: bool) {
        if self.sent_hook {
            self.hook(now, "on_interest_sent", (now.as_nanos(), segment, retransmission));
        }
    }

    fn on_data(&mut self, now: Time, sample: &DataSample) {
        self.hook(now, "on_data", (now.as_nanos(), DataSampleView::new(sample)));
    }

    fn on_timeout(&mut self, now: Time, segment: u64) {
        self.hook(now, "on_timeout", (now.as_nanos(), segment));
    }

    fn on_nack(&mut self, now: Time, segment: u64, reason: NackReason, marked: bool) {
        self.hook(now, "on_nack", (now.as_nanos(), segment, reason.as_str(), marked));
    }

    fn window(&self) -> Option<f64> {
        self.window
    }

    fn interval(&self) -> Option<Time> {
        self.interval
    }

    fn rto(&self) -> Option<Time> {
        self.rto
    }
}
