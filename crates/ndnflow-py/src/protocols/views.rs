//! What a Python protocol sees and returns: read-only copies of the Interest, the PIT entry and its
//! records, the faces and the FIB next hops (NFD daemon/fw/strategy.hpp hands a strategy the same:
//! the PIT entry, the incoming face, the FIB entry's next hops), the Data sample a controller
//! learns from, and the two decisions a strategy returns besides "nothing", `Forward` and `Nack`.
//!
//! Copies rather than references into the forwarder: a Python object may outlive the trigger (a
//! strategy may keep an Interest to send it later from a timer), and nothing it does to a copy can
//! reach the forwarder's tables except through what the trigger returns. The one exception is the
//! retransmission-suppression interval, the only strategy state NFD keeps on the PIT entry: a
//! strategy may set `suppression_interval_ns` and the trigger writes it back.
//!
//! Times are integer nanoseconds (`*_ns`), exact as the engine's clock; `now` and `rtt` are also
//! given in seconds for reading.

use std::sync::Arc;

use ndnflow_core::app::cc::DataSample;
use ndnflow_core::fw::{FaceInfo, FaceKind};
use ndnflow_core::packet::{Interest, NackReason};
use ndnflow_core::table::{FaceId, NextHop, PitEntry};
use ndnflow_core::Time;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// NDN Interest lifetime when the packet carries none (NDN packet format v0.3 §5.2: 4 s).
const DEFAULT_LIFETIME: Time = Time::from_millis(4000);

#[pyclass(module = "ndnflow._core", name = "Interest", frozen)]
#[derive(Clone)]
pub struct InterestView {
    pub(super) interest: Arc<Interest>,
}

#[pymethods]
impl InterestView {
    /// The name as an NDN URI ("/video/a/seg=3").
    #[getter]
    fn name(&self) -> String {
        self.interest.name.to_string()
    }
    #[getter]
    fn nonce(&self) -> Option<u32> {
        self.interest.nonce
    }
    #[getter]
    fn lifetime_ns(&self) -> u64 {
        self.interest.lifetime.unwrap_or(DEFAULT_LIFETIME).as_nanos()
    }
    #[getter]
    fn hop_limit(&self) -> Option<u8> {
        self.interest.hop_limit
    }
    #[getter]
    fn can_be_prefix(&self) -> bool {
        self.interest.can_be_prefix
    }
    #[getter]
    fn must_be_fresh(&self) -> bool {
        self.interest.must_be_fresh
    }
    fn __repr__(&self) -> String {
        format!("Interest({}, nonce={:?})", self.interest.name, self.interest.nonce)
    }
}

/// A downstream that asked for the entry's name.
#[pyclass(module = "ndnflow._core", name = "InRecord", frozen, get_all)]
#[derive(Clone)]
pub struct InRecordView {
    face: u32,
    nonce: u32,
    created_ns: u64,
    expiry_ns: u64,
}

/// An upstream the entry's Interest went to.
#[pyclass(module = "ndnflow._core", name = "OutRecord", frozen, get_all)]
#[derive(Clone)]
pub struct OutRecordView {
    face: u32,
    nonce: u32,
    last_sent_ns: u64,
    expiry_ns: u64,
    /// The reason of the Nack this upstream answered with ("congestion", "duplicate",
    /// "no-route", "none"), or None.
    nack: Option<&'static str>,
}

#[pyclass(module = "ndnflow._core", name = "PitEntry")]
pub struct PitEntryView {
    #[pyo3(get)]
    interest: InterestView,
    #[pyo3(get)]
    in_records: Vec<InRecordView>,
    #[pyo3(get)]
    out_records: Vec<OutRecordView>,
    #[pyo3(get)]
    expiry_ns: u64,
    /// NFD's RetxSuppressionExponential interval of this entry (0 until first set); writable.
    #[pyo3(get, set)]
    suppression_interval_ns: u64,
}

#[pymethods]
impl PitEntryView {
    /// The out-record of `face`, or None.
    fn out_record(&self, face: u32) -> Option<OutRecordView> {
        self.out_records.iter().find(|o| o.face == face).cloned()
    }
}

impl PitEntryView {
    pub fn new(entry: &PitEntry) -> PitEntryView {
        let in_records = entry
            .in_records
            .iter()
            .map(|r| InRecordView {
                face: r.face.0,
                nonce: r.nonce,
                created_ns: r.created.as_nanos(),
                expiry_ns: r.expiry.as_nanos(),
            })
            .collect();
        let out_records = entry
            .out_records
            .iter()
            .map(|o| OutRecordView {
                face: o.face.0,
                nonce: o.nonce,
                last_sent_ns: o.last_sent.as_nanos(),
                expiry_ns: o.expiry.as_nanos(),
                nack: o.nack.map(NackReason::as_str),
            })
            .collect();
        PitEntryView {
            interest: InterestView { interest: entry.interest().clone() },
            in_records,
            out_records,
            expiry_ns: entry.expiry.as_nanos(),
            suppression_interval_ns: entry.suppression_interval.as_nanos(),
        }
    }

    /// What the strategy may change on the entry: its suppression interval.
    pub fn write_back(&self, entry: &mut PitEntry) {
        entry.suppression_interval = Time::from_nanos(self.suppression_interval_ns);
    }
}

/// A face of the node: `kind` is "link" (to another forwarder) or "app" (a local application).
#[pyclass(module = "ndnflow._core", name = "Face", frozen, get_all)]
#[derive(Clone)]
pub struct FaceView {
    id: u32,
    kind: &'static str,
    /// A face that is down must not be chosen.
    up: bool,
    /// Link faces: the bit rate Data arrive at over this face.
    bandwidth_bps: Option<u64>,
}

/// A FIB next hop: the face and its routing cost (the list is sorted by cost, then face).
#[pyclass(module = "ndnflow._core", name = "NextHop", frozen, get_all)]
#[derive(Clone)]
pub struct NextHopView {
    face: u32,
    cost: u64,
}

pub fn next_hops(hops: &[NextHop]) -> Vec<NextHopView> {
    hops.iter().map(|h| NextHopView { face: h.face.0, cost: h.cost }).collect()
}

/// What a strategy trigger sees of its node.
#[pyclass(module = "ndnflow._core", name = "StrategyContext", frozen, get_all)]
pub struct StrategyContextView {
    now_ns: u64,
    node: String,
    faces: Vec<FaceView>,
}

#[pymethods]
impl StrategyContextView {
    /// `now_ns` in seconds.
    #[getter]
    fn now(&self) -> f64 {
        Time::from_nanos(self.now_ns).as_secs_f64()
    }
}

impl StrategyContextView {
    pub fn new(now: Time, node: &str, faces: &[FaceInfo]) -> StrategyContextView {
        let faces = faces
            .iter()
            .enumerate()
            .map(|(i, f)| FaceView {
                id: i as u32,
                kind: if f.kind == FaceKind::App { "app" } else { "link" },
                up: f.up,
                bandwidth_bps: f.bandwidth_bps,
            })
            .collect();
        StrategyContextView { now_ns: now.as_nanos(), node: node.to_string(), faces }
    }
}

/// What a controller learns from one Data packet (`ndnflow_core::app::cc::DataSample`).
#[pyclass(module = "ndnflow._core", name = "DataSample", frozen, get_all)]
pub struct DataSampleView {
    segment: u64,
    /// None for a retransmitted segment (Karn's rule).
    rtt_ns: Option<u64>,
    congestion_mark: u64,
    highest_sent: u64,
    in_flight: usize,
    wire_size: u32,
}

#[pymethods]
impl DataSampleView {
    /// `rtt_ns` in seconds, or None.
    #[getter]
    fn rtt(&self) -> Option<f64> {
        self.rtt_ns.map(|r| Time::from_nanos(r).as_secs_f64())
    }
}

impl DataSampleView {
    pub fn new(s: &DataSample) -> DataSampleView {
        DataSampleView {
            segment: s.segment,
            rtt_ns: s.rtt.map(Time::as_nanos),
            congestion_mark: s.congestion_mark,
            highest_sent: s.highest_sent,
            in_flight: s.in_flight,
            wire_size: s.wire_size,
        }
    }
}

/// Send the Interest to these faces (upstreams), in this order; `why`, if given, is what the
/// forwarding log says of the decision.
#[pyclass(module = "ndnflow._core", frozen)]
pub struct Forward {
    #[pyo3(get)]
    faces: Vec<u32>,
    #[pyo3(get)]
    why: Option<String>,
}

#[pymethods]
impl Forward {
    #[new]
    #[pyo3(signature = (faces, why = None))]
    fn new(faces: Vec<i64>, why: Option<String>) -> PyResult<Forward> {
        // Forward([-1]) said "out of range integral type conversion attempted" until 2026-11-28.
        let faces = faces
            .into_iter()
            .map(|f| {
                u32::try_from(f).map_err(|_| {
                    pyo3::exceptions::PyValueError::new_err(format!("Forward: {f} is no face id (0 or more)"))
                })
            })
            .collect::<PyResult<Vec<u32>>>()?;
        Ok(Forward { faces, why })
    }
    fn __repr__(&self) -> String {
        match &self.why {
            Some(why) => format!("Forward({:?}, why={why:?})", self.faces),
            None => format!("Forward({:?})", self.faces),
        }
    }
}

impl Forward {
    pub fn faces(&self) -> impl Iterator<Item = FaceId> + '_ {
        self.faces.iter().map(|&f| FaceId(f))
    }

    pub fn why(&self) -> Option<&str> {
        self.why.as_deref()
    }
}

/// Answer with a Nack of this reason: from after_receive_interest the downstream that sent the
/// Interest, from after_receive_nack every downstream.
/// `why`, if given, is what the forwarding log says of the decision.
#[pyclass(module = "ndnflow._core", frozen)]
pub struct Nack {
    pub(super) reason: NackReason,
    #[pyo3(get)]
    pub(super) why: Option<String>,
}

#[pymethods]
impl Nack {
    #[new]
    #[pyo3(signature = (reason = "no-route", why = None))]
    fn new(reason: &str, why: Option<String>) -> PyResult<Nack> {
        let reason = NackReason::from_name(reason).ok_or_else(|| {
            PyValueError::new_err(format!(
                "Nack reason {reason:?}: not one of \"congestion\", \"duplicate\", \"no-route\", \"none\""
            ))
        })?;
        Ok(Nack { reason, why })
    }
    #[getter]
    fn reason(&self) -> &'static str {
        self.reason.as_str()
    }
    fn __repr__(&self) -> String {
        match &self.why {
            Some(why) => format!("Nack({:?}, why={why:?})", self.reason.as_str()),
            None => format!("Nack({:?})", self.reason.as_str()),
        }
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<InterestView>()?;
    m.add_class::<InRecordView>()?;
    m.add_class::<OutRecordView>()?;
    m.add_class::<PitEntryView>()?;
    m.add_class::<FaceView>()?;
    m.add_class::<NextHopView>()?;
    m.add_class::<StrategyContextView>()?;
    m.add_class::<DataSampleView>()?;
    m.add_class::<Forward>()?;
    m.add_class::<Nack>()?;
    Ok(())
}
