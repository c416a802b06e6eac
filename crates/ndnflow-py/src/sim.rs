//! `_core.Simulation`: a scenario being run, stepped from Python so the front can show progress and
//! stop early without losing what was computed.

use std::path::PathBuf;

use ndnflow_sim::scenario::ndnsim::{parse_ndnsim_topology, topology_to_toml};
use ndnflow_sim::scenario::toml::parse_scenario;
use ndnflow_sim::trace::{ConsumerSeries, LinkSeries};
use ndnflow_sim::Simulation as Engine;
use ndnflow_core::Time;
use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use pyo3::types::PyDict;

create_exception!(ndnflow, ScenarioError, PyException, "A scenario that cannot be run; the message names file, line, field and reason.");

#[pyclass(unsendable, module = "ndnflow._core")]
pub struct Simulation {
    engine: Engine,
}

#[pymethods]
impl Simulation {
    #[new]
    #[pyo3(signature = (text, source = "<scenario>", base_dir = None))]
    fn new(text: &str, source: &str, base_dir: Option<PathBuf>) -> PyResult<Self> {
        let scenario = parse_scenario(text, source, base_dir.as_deref())
            .map_err(|e| ScenarioError::new_err(e.to_string()))?;
        Ok(Simulation { engine: Engine::new(scenario) })
    }

    #[getter]
    fn duration_ns(&self) -> u64 {
        self.engine.duration().as_nanos()
    }

    #[getter]
    fn now_ns(&self) -> u64 {
        self.engine.now().as_nanos()
    }

    #[getter]
    fn finished(&self) -> bool {
        self.engine.is_finished()
    }

    #[getter]
    fn packet_hops(&self) -> u64 {
        self.engine.packet_hops()
    }

    /// Advances to `t_ns` (at most the duration); True when the run is over.
    fn run_until(&mut self, t_ns: u64) -> bool {
        self.engine.run_until(Time::from_nanos(t_ns))
    }

    /// {"summary": dict, "links": columns, "consumers": columns} up to now.
    fn results<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let r = self.engine.results();
        let out = PyDict::new(py);
        let json = serde_json::to_string(&r.summary).map_err(|e| PyException::new_err(e.to_string()))?;
        let summary = py.import("json")?.call_method1("loads", (json,))?;
        out.set_item("summary", summary)?;
        out.set_item("links", link_columns(py, r.links)?)?;
        out.set_item("consumers", consumer_columns(py, r.consumers)?)?;
        Ok(out)
    }
}

fn link_columns(py: Python<'_>, s: LinkSeries) -> PyResult<Bound<'_, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("time_s", s.time_s)?;
    d.set_item("link", s.link)?;
    d.set_item("src", s.src)?;
    d.set_item("dst", s.dst)?;
    d.set_item("bytes", s.bytes)?;
    d.set_item("packets", s.packets)?;
    d.set_item("interests", s.interests)?;
    d.set_item("data", s.data)?;
    d.set_item("nacks", s.nacks)?;
    d.set_item("drops", s.drops)?;
    d.set_item("marks", s.marks)?;
    d.set_item("losses", s.losses)?;
    d.set_item("throughput_bps", s.throughput_bps)?;
    d.set_item("queue_packets", s.queue_packets)?;
    d.set_item("queue_bytes", s.queue_bytes)?;
    d.set_item("sojourn_ms", s.sojourn_ms)?;
    Ok(d)
}

fn consumer_columns(py: Python<'_>, s: ConsumerSeries) -> PyResult<Bound<'_, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("time_s", s.time_s)?;
    d.set_item("consumer", s.consumer)?;
    d.set_item("node", s.node)?;
    d.set_item("goodput_bps", s.goodput_bps)?;
    d.set_item("data", s.data)?;
    d.set_item("interests", s.interests)?;
    d.set_item("retransmissions", s.retransmissions)?;
    d.set_item("timeouts", s.timeouts)?;
    d.set_item("nacks", s.nacks)?;
    d.set_item("marks", s.marks)?;
    d.set_item("window", s.window)?;
    d.set_item("rtt_ms", s.rtt_ms)?;
    Ok(d)
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
    m.add("ScenarioError", m.py().get_type::<ScenarioError>())?;
    m.add_function(wrap_pyfunction!(ndnsim_to_toml, m)?)?;
    Ok(())
}
