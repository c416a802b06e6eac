//! `ndnflow fwd CONFIG.toml`: the real-time daemon (ndnflow-net, docs/real-network.md) run in the
//! Python process. Inside the extension rather than as a second executable, so that the command
//! exists wherever `pip install .` put the package (a maturin wheel of a library carries no
//! Cargo binary); `ndnflow-fwd` remains the same daemon for hosts without Python.
//!
//! The daemon runs with the GIL released. Signals are the interpreter's: every 100 ms the daemon
//! asks it (`check_signals`), so Ctrl-C, and SIGTERM (which the command turns into
//! KeyboardInterrupt), stop it as they stop a simulation run.

use std::path::Path;
use std::time::Duration;

use pyo3::exceptions::{PyKeyboardInterrupt, PyOSError};
use pyo3::prelude::*;

use crate::sim::ScenarioError;

/// How often the daemon asks the interpreter whether a signal came.
const SIGNAL_POLL: Duration = Duration::from_millis(100);

/// Runs the daemon `config` describes until Ctrl-C or SIGTERM; its report as JSON text. A bad
/// file raises ScenarioError (file, line and field in the message), a socket that cannot be bound
/// OSError.
#[pyfunction]
fn run_forwarder(py: Python<'_>, config: &str) -> PyResult<String> {
    let config = ndnflow_net::config::load(Path::new(config)).map_err(|e| ScenarioError::new_err(e.to_string()))?;
    let mut interrupted: Option<PyErr> = None;
    let stop = || match Python::attach(|py| py.check_signals()) {
        Ok(()) => false,
        Err(e) => {
            interrupted = Some(e);
            true
        }
    };
    let ready =
        |d: &ndnflow_net::Daemon| eprintln!("ndnflow fwd: listening on {}; Ctrl-C or SIGTERM stops", d.listening());
    let report = py.detach(|| ndnflow_net::run_blocking(config, SIGNAL_POLL, stop, ready));
    let report = report.map_err(|e| PyOSError::new_err(e.to_string()))?;
    match interrupted {
        // The way a daemon is meant to stop: not an error.
        Some(e) if !e.is_instance_of::<PyKeyboardInterrupt>(py) => Err(e),
        _ => Ok(serde_json::to_string_pretty(&report.to_json()).unwrap_or_default()),
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(run_forwarder, m)?)
}
