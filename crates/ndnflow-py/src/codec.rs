//! Python access to the NDN TLV codec (ndnflow-core `packet`): encode/decode Interest, Data and link
//! frames, mainly so tests can cross-check our bytes against python-ndn.
//!
//! Conversions only: every rule lives in ndnflow-core. Decode errors become `ValueError` carrying
//! the `DecodeError` message; bad names, reasons or out-of-range times become `ValueError` too.

use std::borrow::Cow;
use std::sync::Arc;

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyDict, PyMemoryView};

use ndnflow_core::name::component_type::SEGMENT;
use ndnflow_core::packet::data::Signature;
use ndnflow_core::packet::lp;
use ndnflow_core::packet::tlv::{millis_to_time, write_nonneg, DecodeError};
use ndnflow_core::{Data, Frame, Interest, Nack, NackReason, Name, NetPacket, Time};

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(encode_interest, m)?)?;
    m.add_function(wrap_pyfunction!(decode_interest, m)?)?;
    m.add_function(wrap_pyfunction!(encode_data, m)?)?;
    m.add_function(wrap_pyfunction!(decode_data, m)?)?;
    m.add_function(wrap_pyfunction!(encode_nack, m)?)?;
    m.add_function(wrap_pyfunction!(decode_frame, m)?)?;
    m.add_function(wrap_pyfunction!(encode_frame, m)?)?;
    Ok(())
}

fn decode_err(e: DecodeError) -> PyErr {
    PyValueError::new_err(e.to_string())
}

fn parse_name(uri: &str) -> PyResult<Name> {
    Name::parse(uri).map_err(|e| PyValueError::new_err(e.to_string()))
}

fn millis(ms: Option<u64>, what: &str) -> PyResult<Option<Time>> {
    ms.map(|ms| millis_to_time(ms).ok_or_else(|| PyValueError::new_err(format!("{what} {ms} ms is out of range"))))
        .transpose()
}

/// bytes, bytearray or memoryview (python-ndn returns bytearray and memoryview).
fn wire_bytes<'a>(obj: &'a Bound<'_, PyAny>) -> PyResult<Cow<'a, [u8]>> {
    if let Ok(b) = obj.cast::<PyBytes>() {
        return Ok(Cow::Borrowed(b.as_bytes()));
    }
    if let Ok(b) = obj.cast::<PyByteArray>() {
        return Ok(Cow::Owned(b.to_vec()));
    }
    if obj.is_instance_of::<PyMemoryView>() {
        let copy = obj.py().get_type::<PyBytes>().call1((obj,))?;
        return Ok(Cow::Owned(copy.cast::<PyBytes>()?.as_bytes().to_vec()));
    }
    Err(PyTypeError::new_err("expected bytes, bytearray or memoryview"))
}

/// `encode_interest(name, nonce, lifetime_ms=None, can_be_prefix=False, must_be_fresh=False,
/// hop_limit=None) -> bytes`
#[pyfunction]
#[pyo3(signature = (name, nonce, lifetime_ms=None, can_be_prefix=false, must_be_fresh=false, hop_limit=None))]
fn encode_interest<'py>(
    py: Python<'py>,
    name: &str,
    nonce: u32,
    lifetime_ms: Option<u64>,
    can_be_prefix: bool,
    must_be_fresh: bool,
    hop_limit: Option<u8>,
) -> PyResult<Bound<'py, PyBytes>> {
    let interest = Interest {
        name: parse_name(name)?,
        can_be_prefix,
        must_be_fresh,
        nonce: Some(nonce),
        lifetime: millis(lifetime_ms, "lifetime_ms")?,
        hop_limit,
        app_parameters: None,
    };
    Ok(PyBytes::new(py, &interest.encode()))
}

/// `decode_interest(wire) -> dict` with name, nonce, lifetime_ms, can_be_prefix, must_be_fresh,
/// hop_limit, app_parameters.
#[pyfunction]
fn decode_interest<'py>(py: Python<'py>, wire: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyDict>> {
    let interest = Interest::decode(&wire_bytes(wire)?).map_err(decode_err)?;
    let dict = PyDict::new(py);
    fill_interest(&dict, &interest)?;
    Ok(dict)
}

fn fill_interest(dict: &Bound<'_, PyDict>, i: &Interest) -> PyResult<()> {
    let py = dict.py();
    dict.set_item("name", i.name.to_string())?;
    dict.set_item("nonce", i.nonce)?;
    dict.set_item("lifetime_ms", i.lifetime.map(Time::as_millis))?;
    dict.set_item("can_be_prefix", i.can_be_prefix)?;
    dict.set_item("must_be_fresh", i.must_be_fresh)?;
    dict.set_item("hop_limit", i.hop_limit)?;
    dict.set_item("app_parameters", i.app_parameters.as_ref().map(|p| PyBytes::new(py, p)))?;
    Ok(())
}

/// `encode_data(name, content, freshness_ms=None, final_block_id=None, content_type=None,
/// signature_type=0, signature_value=<32 zero bytes>) -> bytes`; `final_block_id` is a segment
/// number.
#[pyfunction]
#[pyo3(signature = (name, content, freshness_ms=None, final_block_id=None, content_type=None,
                    signature_type=0, signature_value=None))]
#[allow(clippy::too_many_arguments)]
fn encode_data<'py>(
    py: Python<'py>,
    name: &str,
    content: &Bound<'py, PyAny>,
    freshness_ms: Option<u64>,
    final_block_id: Option<u64>,
    content_type: Option<u64>,
    signature_type: u64,
    signature_value: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyBytes>> {
    let mut data = Data::new(parse_name(name)?, wire_bytes(content)?.into_owned().into());
    if let Some(ms) = freshness_ms {
        data.set_freshness_ms(ms);
    }
    data.content_type = content_type;
    data.final_block_id = final_block_id.map(|seg| {
        let mut v = Vec::with_capacity(8);
        write_nonneg(&mut v, seg);
        (SEGMENT, v.into())
    });
    let mut signature = Signature::digest_placeholder();
    signature.sig_type = signature_type;
    if let Some(value) = signature_value {
        signature.value = wire_bytes(value)?.into_owned().into();
    }
    data.signature = signature;
    Ok(PyBytes::new(py, &data.encode()))
}

/// `decode_data(wire) -> dict` with name, content, freshness_ms, final_block_id (segment number or
/// None), content_type, signature_type, signature_value.
#[pyfunction]
fn decode_data<'py>(py: Python<'py>, wire: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyDict>> {
    let data = Data::decode(&wire_bytes(wire)?).map_err(decode_err)?;
    let dict = PyDict::new(py);
    fill_data(&dict, &data)?;
    Ok(dict)
}

fn fill_data(dict: &Bound<'_, PyDict>, d: &Data) -> PyResult<()> {
    let py = dict.py();
    dict.set_item("name", d.name.to_string())?;
    dict.set_item("content", PyBytes::new(py, &d.content))?;
    dict.set_item("freshness_ms", d.freshness_ms())?;
    dict.set_item("final_block_id", d.final_segment())?;
    dict.set_item("content_type", d.content_type)?;
    dict.set_item("signature_type", d.signature.sig_type)?;
    dict.set_item("signature_value", PyBytes::new(py, &d.signature.value))?;
    Ok(())
}

/// `encode_nack(interest_wire, reason) -> bytes`: an LpPacket Nack frame; reason is "none",
/// "congestion", "duplicate" or "no-route".
#[pyfunction]
fn encode_nack<'py>(py: Python<'py>, interest_wire: &Bound<'py, PyAny>, reason: &str) -> PyResult<Bound<'py, PyBytes>> {
    let interest = Interest::decode(&wire_bytes(interest_wire)?).map_err(decode_err)?;
    let reason = parse_reason(reason)?;
    let frame = Frame::nack(Arc::new(Nack { reason, interest: Arc::new(interest) }));
    Ok(PyBytes::new(py, &frame.encode()))
}

fn parse_reason(reason: &str) -> PyResult<NackReason> {
    NackReason::from_name(reason).ok_or_else(|| {
        PyValueError::new_err(format!("unknown Nack reason {reason:?} (none, congestion, duplicate, no-route)"))
    })
}

/// `encode_frame(packet_wire, congestion_mark=0, nack_reason=None) -> bytes`: wraps a bare Interest
/// or Data (or re-encodes a frame) with a CongestionMark and/or a Nack; bare when neither is set.
#[pyfunction]
#[pyo3(signature = (packet_wire, congestion_mark=0, nack_reason=None))]
fn encode_frame<'py>(
    py: Python<'py>,
    packet_wire: &Bound<'py, PyAny>,
    congestion_mark: u64,
    nack_reason: Option<&str>,
) -> PyResult<Bound<'py, PyBytes>> {
    let mut frame = lp::decode_frame(&wire_bytes(packet_wire)?).map_err(decode_err)?;
    frame.lp.congestion_mark = congestion_mark;
    if let Some(reason) = nack_reason {
        let reason = parse_reason(reason)?;
        let interest = match &frame.packet {
            NetPacket::Interest(i) => i.clone(),
            NetPacket::Nack(n) => n.interest.clone(),
            NetPacket::Data(_) => return Err(PyValueError::new_err("a Nack must carry an Interest, not a Data")),
        };
        frame.packet = NetPacket::Nack(Arc::new(Nack { reason, interest }));
    }
    Ok(PyBytes::new(py, &frame.encode()))
}

/// `decode_frame(wire) -> dict`: kind ("interest", "data" or "nack"), nack_reason (str or None),
/// congestion_mark (0 when absent), plus the Interest or Data keys.
#[pyfunction]
fn decode_frame<'py>(py: Python<'py>, wire: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyDict>> {
    let frame = lp::decode_frame(&wire_bytes(wire)?).map_err(decode_err)?;
    let dict = PyDict::new(py);
    dict.set_item("congestion_mark", frame.lp.congestion_mark)?;
    match &frame.packet {
        NetPacket::Interest(i) => {
            dict.set_item("kind", "interest")?;
            dict.set_item("nack_reason", None::<&str>)?;
            fill_interest(&dict, i)?;
        }
        NetPacket::Data(d) => {
            dict.set_item("kind", "data")?;
            dict.set_item("nack_reason", None::<&str>)?;
            fill_data(&dict, d)?;
        }
        NetPacket::Nack(n) => {
            dict.set_item("kind", "nack")?;
            dict.set_item("nack_reason", n.reason.as_str())?;
            fill_interest(&dict, &n.interest)?;
        }
    }
    Ok(dict)
}
