//! `_core.Traces`: a run's time series handed to Python, a whole trace at a time (`table`) or a
//! piece at a time (`chunks`). Pieces let a long trace be written to a file without ever being
//! held whole in columns: the engine keeps the link and consumer rows in a compact byte log
//! (`ndnflow_sim::trace_log`, about 15 bytes a row), and decoding it whole would take about 108
//! bytes a row, and as much again in Python (issue 23, item 4; docs/performance.md, "Trace rows").

use std::ops::Range;
use std::sync::{Arc, Mutex};

use ndnflow_sim::trace::RunTraces;
use ndnflow_sim::trace_log::Cursor;
use ndnflow_sim::trace_schema::{Table, Values, CONSUMERS, FACES, FORWARDING, INTERESTS, LINKS, NODES, OBJECTS, PATHS};
use pyo3::exceptions::{PyKeyError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyDict, PyList, PyString};

/// The traces' names, as `results()` keys them.
pub const TRACES: [&str; 8] =
    [LINKS.name, CONSUMERS.name, PATHS.name, OBJECTS.name, INTERESTS.name, FACES.name, NODES.name, FORWARDING.name];

/// A run's time series, held in Rust in the engine's compact form; `table(name)` copies one into
/// Python as `results()[name]`, `chunks(name, rows)` a piece at a time.
#[pyclass(module = "ndnflow._core", frozen)]
pub struct Traces {
    traces: Arc<RunTraces>,
}

impl Traces {
    pub fn new(traces: RunTraces) -> Traces {
        Traces { traces: Arc::new(traces) }
    }
}

#[pymethods]
impl Traces {
    /// {column: values} of the trace `name` ("links", "consumers", "paths", "objects",
    /// "interests", "faces", "nodes" or "forwarding").
    fn table<'py>(&self, py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyDict>> {
        table(&Columns::new(py)?, &self.traces, name)
    }

    /// How many rows the trace `name` has.
    fn rows(&self, name: &str) -> PyResult<usize> {
        Ok(total_rows(&self.traces, trace_index(name)?))
    }

    /// The trace `name` in pieces of `rows` rows (the last may be shorter), each {column: values}
    /// as `table` gives the whole; in order, so that the pieces put end to end are the table.
    fn chunks(&self, name: &str, rows: usize) -> PyResult<TraceChunks> {
        if rows == 0 {
            return Err(PyValueError::new_err("rows: a piece must have at least one row"));
        }
        let trace = trace_index(name)?;
        let at = Mutex::new(Position::default());
        Ok(TraceChunks { traces: Arc::clone(&self.traces), trace, rows, at })
    }
}

/// `Traces.chunks`'s iterator. The mutex makes the class `Sync`, as PyO3 asks; one iterator is
/// read by one thread at a time.
#[pyclass(module = "ndnflow._core")]
pub struct TraceChunks {
    traces: Arc<RunTraces>,
    trace: usize,
    rows: usize,
    at: Mutex<Position>,
}

#[pymethods]
impl TraceChunks {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let mut at = self.at.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let piece = piece(&Columns::new(py)?, &self.traces, self.trace, &mut at, self.rows)?;
        Ok((!piece.is_empty()).then_some(piece.dict))
    }
}

/// Where a piecewise read of one trace stands: the byte log's cursor for the link and consumer
/// traces, the next row for the others.
#[derive(Default)]
struct Position {
    cursor: Cursor,
    row: usize,
}

fn trace_index(name: &str) -> PyResult<usize> {
    TRACES
        .iter()
        .position(|&t| t == name)
        .ok_or_else(|| PyKeyError::new_err(format!("no trace {name:?}; the traces are {}", TRACES.join(", "))))
}

/// The trace `name` of `r` as {column: values}; the link and consumer rows are decoded for it
/// and dropped once copied.
pub fn table<'py>(c: &Columns<'py>, r: &RunTraces, name: &str) -> PyResult<Bound<'py, PyDict>> {
    Ok(piece(c, r, trace_index(name)?, &mut Position::default(), usize::MAX)?.dict)
}

/// How many rows trace number `trace` (in `TRACES`) has.
fn total_rows(r: &RunTraces, trace: usize) -> usize {
    match trace {
        0 => r.log.link_rows(),
        1 => r.log.consumer_rows(),
        2 => (PATHS.codes)(&r.paths).len(),
        3 => (OBJECTS.codes)(&r.objects).len(),
        4 => (INTERESTS.codes)(&r.interests).len(),
        5 => (FACES.codes)(&r.faces).len(),
        6 => (NODES.codes)(&r.nodes).len(),
        _ => (FORWARDING.codes)(&r.forwarding).len(),
    }
}

/// The next `rows` of `total` rows from `row`, `row` moved past them.
fn advance(row: &mut usize, total: usize, rows: usize) -> Range<usize> {
    let range = *row..total.min(row.saturating_add(rows));
    *row = range.end;
    range
}

/// A piece of a trace and how many rows it holds.
struct Piece<'py> {
    dict: Bound<'py, PyDict>,
    rows: usize,
}

impl Piece<'_> {
    fn is_empty(&self) -> bool {
        self.rows == 0
    }
}

/// The next `rows` rows of trace number `trace` (in `TRACES`) from `at`, `at` moved past them.
fn piece<'py>(c: &Columns<'py>, r: &RunTraces, trace: usize, at: &mut Position, rows: usize) -> PyResult<Piece<'py>> {
    let Position { cursor, row } = at;
    let mut next = || advance(row, total_rows(r, trace), rows);
    match trace {
        0 => {
            let s = r.log.link_chunk(cursor, rows);
            trace_columns(c, &LINKS, &s, &r.link_names, 0..s.dir.len())
        }
        1 => {
            let s = r.log.consumer_chunk(cursor, rows);
            trace_columns(c, &CONSUMERS, &s, &r.consumer_names, 0..s.consumer.len())
        }
        2 => trace_columns(c, &PATHS, &r.paths, &r.path_names, next()),
        3 => trace_columns(c, &OBJECTS, &r.objects, &r.consumer_names, next()),
        4 => trace_columns(c, &INTERESTS, &r.interests, &r.interest_names, next()),
        5 => trace_columns(c, &FACES, &r.faces, &r.face_names, next()),
        6 => trace_columns(c, &NODES, &r.nodes, &r.node_names, next()),
        _ => trace_columns(c, &FORWARDING, &r.forwarding, &r.forwarding.lines, next()),
    }
}

/// Builds numpy arrays from Rust vectors through `numpy.frombuffer` (one copy, no per-value
/// Python objects), and label lists from a few shared strings.
pub struct Columns<'py> {
    py: Python<'py>,
    frombuffer: Bound<'py, PyAny>,
}

impl<'py> Columns<'py> {
    pub fn new(py: Python<'py>) -> PyResult<Self> {
        Ok(Columns { py, frombuffer: py.import("numpy")?.getattr("frombuffer")? })
    }

    fn f64s(&self, values: &[f64]) -> PyResult<Bound<'py, PyAny>> {
        self.array(values, f64::to_ne_bytes, "float64")
    }

    fn i64s(&self, values: &[u64]) -> PyResult<Bound<'py, PyAny>> {
        self.array(values, |v| (v.min(i64::MAX as u64) as i64).to_ne_bytes(), "int64")
    }

    /// Written straight into the buffer numpy then uses in place: no copy in between. A
    /// bytearray rather than bytes, so the array is writable and pandas can keep it as its column
    /// without copying it (`ndnflow.results.to_frame`).
    fn array<T: Copy>(&self, values: &[T], to_bytes: fn(T) -> [u8; 8], dtype: &str) -> PyResult<Bound<'py, PyAny>> {
        let bytes = PyByteArray::new_with(self.py, values.len() * 8, |buf| {
            for (chunk, &v) in buf.chunks_exact_mut(8).zip(values) {
                chunk.copy_from_slice(&to_bytes(v));
            }
            Ok(())
        })?;
        self.frombuffer.call1((bytes, dtype))
    }

    fn labels(&self, codes: &[u32], names: &[&str]) -> PyResult<Bound<'py, PyList>> {
        let strings: Vec<Bound<'py, PyString>> = names.iter().map(|n| PyString::new(self.py, n)).collect();
        PyList::new(self.py, codes.iter().map(|&c| strings[c as usize].clone()))
    }
}

/// Rows `rows` of one trace as {column: values}, walking the schema `ndnflow_sim::trace_schema`
/// defines, so the columns reach Python in its order and with its types.
fn trace_columns<'py, S, L>(
    c: &Columns<'py>,
    table: &Table<S, L>,
    series: &S,
    names: &[L],
    rows: Range<usize>,
) -> PyResult<Piece<'py>> {
    let d = PyDict::new(c.py);
    let codes = &(table.codes)(series)[rows.clone()];
    for column in table.columns {
        let values = match column.values {
            Values::Float(f) => c.f64s(&f(series)[rows.clone()])?,
            Values::Int(f) => c.i64s(&f(series)[rows.clone()])?,
            Values::Label(f) => c.labels(codes, &names.iter().map(f).collect::<Vec<_>>())?.into_any(),
        };
        d.set_item(column.name, values)?;
    }
    Ok(Piece { dict: d, rows: rows.len() })
}
