//! Facts the simulator knows about a scenario and its results, handed to Python as plain data so
//! the Python front repeats none of them: the network as a flow problem
//! (`ndnflow_sim::flow_network`, for `ndnflow.optimum`) and the trace columns
//! (`ndnflow_sim::trace_schema`, for `ndnflow.results`) and the scenario format's duration and
//! bandwidth rules (`ndnflow_sim::scenario::units`, for command-line options). Conversions only.

use std::path::PathBuf;

use ndnflow_sim::flow_network::{flow_network as network_of, FlowDirection};
use ndnflow_sim::scenario::toml::parse_scenario;
use ndnflow_sim::scenario::units;
use ndnflow_sim::trace_schema::{Table, CONSUMERS, FACES, FORWARDING, INTERESTS, LINKS, NODES, OBJECTS, PATHS};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::sim::ScenarioError;

/// `flow_network(text, source="<scenario>", base_dir=None) -> dict`: the scenario's nodes, link
/// directions (`src`, `dst`, `link` index, `chain` of {name, bandwidth_bps, delay_ns} from the
/// direction itself through its underlay hops, `bottleneck` the name of the first slowest),
/// producers ({node, prefix}) and consumers ({id, node, name, producers: indices of those whose
/// prefix covers the name}). Raises `ScenarioError` for a scenario the simulator would reject.
#[pyfunction]
#[pyo3(signature = (text, source = "<scenario>", base_dir = None))]
pub fn flow_network<'py>(
    py: Python<'py>,
    text: &str,
    source: &str,
    base_dir: Option<PathBuf>,
) -> PyResult<Bound<'py, PyDict>> {
    let scenario =
        parse_scenario(text, source, base_dir.as_deref()).map_err(|e| ScenarioError::new_err(e.to_string()))?;
    let n = network_of(&scenario);
    let out = PyDict::new(py);
    out.set_item("nodes", &n.nodes)?;
    let directions = n.directions.iter().map(|d| direction(py, d)).collect::<PyResult<Vec<_>>>()?;
    out.set_item("directions", directions)?;
    let producers = PyList::empty(py);
    for p in &n.producers {
        let d = PyDict::new(py);
        d.set_item("node", &p.node)?;
        d.set_item("prefix", &p.prefix)?;
        producers.append(d)?;
    }
    out.set_item("producers", producers)?;
    let consumers = PyList::empty(py);
    for c in &n.consumers {
        let d = PyDict::new(py);
        d.set_item("id", &c.id)?;
        d.set_item("node", &c.node)?;
        d.set_item("name", &c.name)?;
        d.set_item("producers", &c.producers)?;
        consumers.append(d)?;
    }
    out.set_item("consumers", consumers)?;
    Ok(out)
}

fn direction<'py>(py: Python<'py>, d: &FlowDirection) -> PyResult<Bound<'py, PyDict>> {
    let out = PyDict::new(py);
    out.set_item("link", d.link)?;
    out.set_item("src", &d.src)?;
    out.set_item("dst", &d.dst)?;
    let chain = PyList::empty(py);
    for hop in &d.chain {
        let h = PyDict::new(py);
        h.set_item("name", &hop.name)?;
        h.set_item("bandwidth_bps", hop.bandwidth_bps)?;
        h.set_item("delay_ns", hop.delay_ns)?;
        chain.append(h)?;
    }
    out.set_item("chain", chain)?;
    out.set_item("bottleneck", &d.bottleneck().name)?;
    Ok(out)
}

/// `trace_schema() -> {"links": [...], "consumers": [...], "paths": [...], "objects": [...], "faces": [...], "nodes": [...]}`: per trace its columns in order, each
/// {name, dtype ("float64", "int64" or "str"), unit, meaning}.
#[pyfunction]
pub fn trace_schema(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let out = PyDict::new(py);
    out.set_item(LINKS.name, columns(py, &LINKS)?)?;
    out.set_item(CONSUMERS.name, columns(py, &CONSUMERS)?)?;
    out.set_item(PATHS.name, columns(py, &PATHS)?)?;
    out.set_item(OBJECTS.name, columns(py, &OBJECTS)?)?;
    out.set_item(INTERESTS.name, columns(py, &INTERESTS)?)?;
    out.set_item(FACES.name, columns(py, &FACES)?)?;
    out.set_item(NODES.name, columns(py, &NODES)?)?;
    out.set_item(FORWARDING.name, columns(py, &FORWARDING)?)?;
    Ok(out)
}

fn columns<'py, S, L>(py: Python<'py>, table: &Table<S, L>) -> PyResult<Bound<'py, PyList>> {
    let out = PyList::empty(py);
    for c in table.columns {
        let d = PyDict::new(py);
        d.set_item("name", c.name)?;
        d.set_item("dtype", c.dtype())?;
        d.set_item("unit", c.unit)?;
        d.set_item("meaning", c.meaning)?;
        out.append(d)?;
    }
    Ok(out)
}

/// `parse_duration(text) -> int`: nanoseconds in a duration string, by the rule and with the
/// messages of a scenario file's durations ("250ms"; a number without a unit is an error);
/// `ValueError` with the reader's message otherwise.
#[pyfunction]
pub fn parse_duration(text: &str) -> PyResult<u64> {
    units::parse_duration(text).map(|t| t.as_nanos()).map_err(PyValueError::new_err)
}

/// `parse_bandwidth(text) -> int`: bits per second in a bandwidth string, by the rule and with the
/// messages of a scenario file's bandwidths ("10Mbps"; zero, byte rates and a number without a
/// unit are errors); `ValueError` with the reader's message otherwise.
#[pyfunction]
pub fn parse_bandwidth(text: &str) -> PyResult<u64> {
    units::parse_bandwidth(text).map_err(PyValueError::new_err)
}
