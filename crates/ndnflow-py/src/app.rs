//! `ndnflow serve PREFIX FILE` and `ndnflow get NAME` (ndnflow-net's `app`, docs/real-network.md
//! "ndnflow get and serve") run in the Python process, as `ndnflow fwd` runs the daemon (fwd.rs):
//! a current-thread runtime with the GIL released, the interpreter asked for signals every 100 ms.
//!
//! Errors: a bad name or option raises ScenarioError and a file or socket that cannot be used
//! OSError (the command's exit status 2); an exchange that fails once started (the forwarder
//! closes the connection) RuntimeError (1). Ctrl-C ends `serve` normally and `get` with
//! KeyboardInterrupt.

use std::future::Future;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use ndnflow_core::{Name, Time};
use ndnflow_net::app::client::Client;
use ndnflow_net::app::get::{consumer_config, fetch, GetOptions};
use ndnflow_net::app::serve::{self, Segments, ServeOptions, ServeReport, REGISTER_TIMEOUT};
use ndnflow_net::app::verify::Verifier;
use ndnflow_net::app::{block_on_until, AppError};
use pyo3::exceptions::{PyKeyboardInterrupt, PyOSError, PyRuntimeError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::sim::ScenarioError;
use crate::traces::Traces;

/// How often a tool asks the interpreter whether a signal came.
const SIGNAL_POLL: Duration = Duration::from_millis(100);

fn to_py(e: AppError) -> PyErr {
    match e {
        AppError::Usage(m) => ScenarioError::new_err(m),
        AppError::Io(m) => PyOSError::new_err(m),
        AppError::Failed(m) => PyRuntimeError::new_err(m),
    }
}

fn socket_path(socket: Option<PathBuf>) -> PathBuf {
    socket.unwrap_or_else(ndnflow_net::config::default_unix_path)
}

/// Runs `work(stop)` with the GIL released, `stop` completing when the interpreter reports a
/// signal, which is returned beside the result.
fn run_until_signal<T, F>(
    py: Python<'_>,
    work: impl FnOnce(std::pin::Pin<Box<dyn Future<Output = ()>>>) -> F + Send,
) -> (Result<T, AppError>, Option<PyErr>)
where
    T: Send,
    F: Future<Output = Result<T, AppError>>,
{
    let signal = Arc::new(Mutex::new(None::<PyErr>));
    let seen = Arc::clone(&signal);
    let asked = move || match Python::attach(|py| py.check_signals()) {
        Ok(()) => false,
        Err(e) => {
            *seen.lock().unwrap_or_else(|p| p.into_inner()) = Some(e);
            true
        }
    };
    let result = py.detach(|| block_on_until(SIGNAL_POLL, asked, work));
    let signal = signal.lock().unwrap_or_else(|p| p.into_inner()).take();
    (result, signal)
}

/// Publishes `file` under `prefix` through the forwarder at `socket` until Ctrl-C or SIGTERM;
/// what it counted, as JSON text.
#[pyfunction]
#[pyo3(signature = (prefix, file, socket=None, segment_size=ndnflow_net::app::serve::DEFAULT_SEGMENT_SIZE, freshness_ms=Some(10_000), register=true, key=None, key_name=None))]
#[allow(clippy::too_many_arguments)]
fn serve_file(
    py: Python<'_>,
    prefix: &str,
    file: PathBuf,
    socket: Option<PathBuf>,
    segment_size: usize,
    freshness_ms: Option<u64>,
    register: bool,
    key: Option<PathBuf>,
    key_name: Option<&str>,
) -> PyResult<String> {
    let prefix = Name::parse(prefix).map_err(|e| ScenarioError::new_err(format!("PREFIX {prefix:?}: {e}")))?;
    let key_name = key_name
        .map(|n| Name::parse(n).map_err(|e| ScenarioError::new_err(format!("--key-name {n:?}: {e}"))))
        .transpose()?;
    let options = ServeOptions {
        prefix,
        file,
        socket: socket_path(socket),
        segment_size,
        freshness: freshness_ms.map(Time::from_millis),
        register,
        key,
        key_name,
    };
    let segments = Segments::load(&options).map_err(to_py)?;
    let (report, signal) = run_until_signal(py, |stop| async move {
        let mut client = Client::connect(&options.socket).await?;
        let mut report = ServeReport::default();
        let how = if options.register {
            let route = serve::register(&mut client, &segments, REGISTER_TIMEOUT, &mut report).await?;
            format!("registered on face {}", route.face_id.unwrap_or(0))
        } else {
            "not registered".to_string()
        };
        eprintln!(
            "ndnflow serve: published {} Data packet(s), {} bytes, under {} at {} ({how}, with RDR metadata); Ctrl-C or SIGTERM stops",
            segments.len(),
            segments.content_bytes(),
            segments.versioned_prefix(),
            options.socket.display()
        );
        if let Some((name, _)) = segments.certificate() {
            eprintln!("ndnflow serve: signed with ECDSA; certificate {name}");
        }
        serve::serve(&mut client, &segments, &mut report, stop).await.map(|()| report)
    });
    let report = report.map_err(to_py)?;
    match signal {
        Some(e) if !e.is_instance_of::<PyKeyboardInterrupt>(py) => Err(e),
        _ => Ok(serde_json::to_string_pretty(&report.to_json()).unwrap_or_default()),
    }
}

/// The narrowest trace bin of a real-time fetch: the clock's millisecond timers (ndn-cxx's
/// resolution for Interest lifetimes and RTOs) and a thousand rows a second at most.
const MIN_REAL_TIME_BIN_NS: u64 = 1_000_000;

/// Fetches `name` through the forwarder at `socket` with the consumer `options` describe (pairs
/// of a consumer-table key and its text), its traces in bins of `bin_ns` nanoseconds (default
/// 100 ms), after discovering its version by RDR metadata unless `discover` is false or the name
/// ends in a version; with `verify` (`"digest"` or a PEM key file), every Data's signature is
/// checked. Returns (content or None when incomplete, the summary as ndncatchunks prints it, the
/// summary JSON text, the traces as a simulated run's `_core.Traces`).
#[pyfunction]
#[pyo3(signature = (name, options, socket=None, seed=None, bin_ns=None, discover=true, verify=None))]
#[allow(clippy::too_many_arguments)] // a Python function's keyword arguments, as serve_file's
fn get_object<'py>(
    py: Python<'py>,
    name: &str,
    options: Vec<(String, String)>,
    socket: Option<PathBuf>,
    seed: Option<u64>,
    bin_ns: Option<u64>,
    discover: bool,
    verify: Option<&str>,
) -> PyResult<(Option<Bound<'py, PyBytes>>, String, String, Traces)> {
    let consumer = consumer_config(name, &options).map_err(to_py)?;
    let mut options = GetOptions::new(consumer, socket_path(socket), seed.unwrap_or_else(fresh_seed));
    options.discover = discover;
    options.verify = verify.map(Verifier::parse).transpose().map_err(to_py)?;
    match bin_ns {
        // The bins close as the wall clock passes them, each with its rows: 1 ns bins made a
        // billion rows a second of fetching, and a small fetch grew past 2.8 GB without end.
        Some(ns) if ns < MIN_REAL_TIME_BIN_NS => {
            return Err(ScenarioError::new_err(format!(
                "--bin: at least 1ms for a fetch on real sockets (the bins close as the clock passes them), got {ns} ns"
            )))
        }
        Some(ns) => options.bin = Time::from_nanos(ns),
        None => {}
    }
    let (fetched, signal) = run_until_signal(py, |stop| async move { fetch(&options, stop).await });
    if let Some(e) = signal {
        return Err(e);
    }
    let fetched = fetched.map_err(to_py)?;
    let content = fetched.content.map(|c| PyBytes::new(py, &c));
    let json = serde_json::to_string_pretty(&fetched.summary.to_json()).unwrap_or_default();
    Ok((content, fetched.summary.text(), json, Traces::new(fetched.traces)))
}

/// A seed for a run that gives none: nonces must differ between runs on a real network (a
/// forwarder takes a repeated nonce for a loop), so it comes from the clock and the process id.
fn fresh_seed() -> u64 {
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64);
    nanos ^ (u64::from(std::process::id()) << 32)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(serve_file, m)?)?;
    m.add_function(wrap_pyfunction!(get_object, m)?)
}
