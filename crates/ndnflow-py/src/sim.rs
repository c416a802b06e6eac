//! `_core.Simulation`: a scenario being run, stepped from Python so the front can show progress and
//! stop early without losing what was computed.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::sync::{Mutex, MutexGuard};

use ndnflow_core::app::cc::Controller;
use ndnflow_core::{Name, Time};
use ndnflow_sim::capture::BUFFER_BYTES;
use ndnflow_sim::engine::StopSlot;
use ndnflow_sim::rng::component_seed;
use ndnflow_sim::scenario::ndnsim::{parse_ndnsim_topology, topology_to_toml};
use ndnflow_sim::scenario::toml::parse_scenario;
use ndnflow_sim::trace::Summary;
use ndnflow_sim::Simulation as Engine;
use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::protocols::controller::PyController;
use crate::protocols::strategy::PyStrategy;
use crate::protocols::Caller;
use crate::traces::{table, Columns, TraceChunks, Traces, TRACES};

create_exception!(
    ndnflow,
    ScenarioError,
    PyException,
    "A scenario that cannot be run; the message names file, line, field and reason."
);

/// The engine holds no thread-bound state (it is `Send`), so `run_until` lets go of the GIL and
/// several simulations run at once on Python threads (an experiment's variants do). The mutex only
/// makes the class `Sync`, as PyO3 asks of a class that may be reached from any thread: PyO3's own
/// borrow flag already keeps two threads out of one simulation, so the lock is never contended.
#[pyclass(module = "ndnflow._core")]
pub struct Simulation {
    engine: Mutex<Engine>,
    /// Set once a Python protocol is installed: where it says why the run must stop; and then
    /// `run_until` keeps the GIL, which every trigger would otherwise take back.
    python: Option<StopSlot>,
}

impl Simulation {
    /// The slot Python protocols stop the run through, installed in the engine the first time.
    fn stop_slot(&mut self) -> StopSlot {
        if self.python.is_none() {
            let slot = StopSlot::default();
            self.engine().stop_on(slot.clone());
            self.python = Some(slot);
        }
        self.python.clone().unwrap_or_default()
    }

    fn engine(&self) -> MutexGuard<'_, Engine> {
        // A panic inside the engine would poison the lock; what it computed is still readable.
        self.engine.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

#[pymethods]
impl Simulation {
    /// `progress`, if given, is called as `progress(done, total)` while the network is built
    /// (`Engine::with_progress`); an exception it raises (Ctrl-C) stops its calls and is raised
    /// once the build is over.
    #[new]
    #[pyo3(signature = (text, source = "<scenario>", base_dir = None, progress = None))]
    fn new(text: &str, source: &str, base_dir: Option<PathBuf>, progress: Option<Bound<'_, PyAny>>) -> PyResult<Self> {
        // Armed again for each simulation: a run that spent it has ended (`ndnflow_core::reserve`).
        ndnflow_core::reserve::arm();
        let scenario =
            parse_scenario(text, source, base_dir.as_deref()).map_err(|e| ScenarioError::new_err(e.to_string()))?;
        let Some(progress) = progress else {
            return Ok(Simulation { engine: Mutex::new(Engine::new(scenario)), python: None });
        };
        let mut failed: Option<PyErr> = None;
        let engine = Engine::with_progress(scenario, &mut |done, total| {
            if failed.is_none() {
                failed = progress.call1((done, total)).err();
            }
        });
        match failed {
            Some(e) => Err(e),
            None => Ok(Simulation { engine: Mutex::new(engine), python: None }),
        }
    }

    #[getter]
    fn duration_ns(&self) -> u64 {
        self.engine().duration().as_nanos()
    }

    #[getter]
    fn now_ns(&self) -> u64 {
        self.engine().now().as_nanos()
    }

    #[getter]
    fn finished(&self) -> bool {
        self.engine().is_finished()
    }

    /// What the scenario permits but probably does not mean (a consumer no route serves), one
    /// line each; the run goes ahead.
    #[getter]
    fn warnings(&self) -> Vec<String> {
        self.engine().warnings().to_vec()
    }

    #[getter]
    fn packet_hops(&self) -> u64 {
        self.engine().packet_hops()
    }

    /// Trace rows recorded so far (link, consumer and path rows; the benchmark suite's memory per
    /// row is a difference of peaks over a difference of these).
    #[getter]
    fn trace_rows(&self) -> u64 {
        self.engine().held().rows
    }

    /// Data held in the nodes' Content Stores now.
    #[getter]
    fn cached_data(&self) -> u64 {
        self.engine().cached_data()
    }

    /// Advances to `t_ns` (at most the duration); True when the run is over. The GIL is released
    /// meanwhile, so other Python threads (and other simulations) run.
    fn run_until(&mut self, py: Python<'_>, t_ns: u64) -> bool {
        let engine = self.engine.get_mut().unwrap_or_else(|poisoned| poisoned.into_inner());
        if self.python.is_some() {
            return engine.run_until(Time::from_nanos(t_ns));
        }
        py.detach(move || engine.run_until(Time::from_nanos(t_ns)))
    }

    /// Installs `strategy` (an `ndnflow.Strategy` instance) for `prefix` on node `node`, before
    /// the run. Its `seed` attribute is set to a seed of its own drawn from the scenario's.
    fn set_python_strategy(&mut self, py: Python<'_>, node: &str, prefix: &str, strategy: Py<PyAny>) -> PyResult<()> {
        let name =
            Name::parse(prefix).map_err(|e| ScenarioError::new_err(format!("strategy prefix {prefix:?}: {e}")))?;
        let seed = component_seed(self.engine().scenario().seed, "python-strategy", &format!("{node} {prefix}"));
        strategy.bind(py).setattr("seed", seed)?;
        let caller = Caller::new(py, strategy, "strategy", &format!("at node {node}"), self.stop_slot());
        let wrapped = PyStrategy::new(py, caller, node)?;
        if !self.engine().set_strategy(node, &name, Box::new(wrapped)) {
            return Err(ScenarioError::new_err(format!(
                "python strategy for node {node:?}: the scenario has no such node"
            )));
        }
        Ok(())
    }

    /// Installs `controller` (an `ndnflow.Controller` instance) on the consumer at `index` in the
    /// scenario's order, named `place` in errors, before the run; `seed` as for strategies.
    fn set_python_controller(
        &mut self,
        py: Python<'_>,
        index: usize,
        place: &str,
        controller: Py<PyAny>,
    ) -> PyResult<()> {
        let seed = component_seed(self.engine().scenario().seed, "python-controller", &index.to_string());
        controller.bind(py).setattr("seed", seed)?;
        let caller = Caller::new(py, controller, "controller", place, self.stop_slot());
        let wrapped = PyController::new(py, caller)?;
        if !self.engine().set_controller(index, Controller::Single(Box::new(wrapped))) {
            return Err(ScenarioError::new_err(format!(
                "python controller for consumer {index}: the scenario has no such consumer"
            )));
        }
        Ok(())
    }

    /// {"summary": dict, "links": columns, "consumers": columns, "paths": columns, "objects": columns,
    /// "interests", "faces", "nodes", "forwarding": columns} up to now. Numeric columns are
    /// numpy arrays; label columns are lists sharing one str object per distinct label.
    fn results<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let (summary, traces) = {
            let engine = self.engine();
            (engine.summary(), engine.traces())
        };
        let out = PyDict::new(py);
        out.set_item("summary", summary_dict(py, &summary)?)?;
        let columns = Columns::new(py)?;
        for name in TRACES {
            out.set_item(name, table(&columns, &traces, name)?)?;
        }
        Ok(out)
    }

    /// The time series up to now, kept in Rust until a table is asked for (`Traces.table`): a
    /// caller that reads the summary alone never imports numpy.
    fn traces(&self) -> Traces {
        Traces::new(self.engine().traces())
    }

    /// File names of the captures the scenario asks for (`[trace] pcap`), "a-b.pcap" for a->b;
    /// empty when it asks for none.
    #[getter]
    fn capture_names(&self) -> Vec<String> {
        self.engine().capture_names()
    }

    /// Opens one buffered capture file per captured direction in the existing folder `dir` and
    /// starts writing them as the run goes. Before the run; OSError names the file it failed on.
    fn start_captures(&mut self, dir: PathBuf) -> PyResult<()> {
        let open = |name: &str| -> std::io::Result<Box<dyn Write + Send>> {
            let path = dir.join(name);
            let file =
                File::create(&path).map_err(|e| std::io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
            Ok(Box::new(BufWriter::with_capacity(BUFFER_BYTES, file)))
        };
        let engine = self.engine.get_mut().unwrap_or_else(|poisoned| poisoned.into_inner());
        Ok(engine.start_captures(open)?)
    }

    /// Flushes and closes the capture files; per file (in `capture_names` order) a dict of
    /// `frames`, `file_bytes`, `frame_bytes` and `truncated`. OSError on the first write error.
    fn finish_captures<'py>(&mut self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
        let engine = self.engine.get_mut().unwrap_or_else(|poisoned| poisoned.into_inner());
        let stats = engine.finish_captures()?;
        stats
            .iter()
            .map(|s| {
                let d = PyDict::new(py);
                d.set_item("frames", s.frames)?;
                d.set_item("file_bytes", s.file_bytes)?;
                d.set_item("frame_bytes", s.frame_bytes)?;
                d.set_item("truncated", s.truncated)?;
                Ok(d)
            })
            .collect()
    }

    /// `results()["summary"]` alone, without copying the time series.
    fn summary<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        summary_dict(py, &self.engine().summary())
    }
}

/// The summary as Python dicts and lists, through its JSON form (the same as `summary.json`).
fn summary_dict<'py>(py: Python<'py>, summary: &Summary) -> PyResult<Bound<'py, PyAny>> {
    let json = serde_json::to_string(summary).map_err(|e| PyException::new_err(e.to_string()))?;
    py.import("json")?.call_method1("loads", (json,))
}

/// ndnSIM annotated topology text -> our TOML `[nodes]` and `[[links]]`.
#[pyfunction]
#[pyo3(signature = (text, source = "<topology>"))]
fn ndnsim_to_toml(text: &str, source: &str) -> PyResult<String> {
    let topo = parse_ndnsim_topology(text, source).map_err(|e| ScenarioError::new_err(e.to_string()))?;
    Ok(topology_to_toml(&topo))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Simulation>()?;
    m.add_class::<Traces>()?;
    m.add_class::<TraceChunks>()?;
    m.add("ScenarioError", m.py().get_type::<ScenarioError>())?;
    m.add_function(wrap_pyfunction!(ndnsim_to_toml, m)?)?;
    m.add_function(wrap_pyfunction!(crate::facts::flow_network, m)?)?;
    m.add_function(wrap_pyfunction!(crate::facts::trace_schema, m)?)?;
    m.add_function(wrap_pyfunction!(crate::facts::parse_duration, m)?)?;
    m.add_function(wrap_pyfunction!(crate::facts::parse_bandwidth, m)?)?;
    Ok(())
}
