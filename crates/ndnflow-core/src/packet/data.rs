//! Data packet (NDN packet format v0.3 §4 "Data Packet"): the struct, its exact size, and its TLV
//! codec.
//!
//! Encoding: Name, MetaInfo (only when ContentType, FreshnessPeriod or FinalBlockId is set, in that
//! order), Content (always, possibly empty), SignatureInfo { SignatureType, extras }, SignatureValue.
//!
//! Decoding follows ndn-cxx's `Data::wireDecode`: Name first; MetaInfo, Content, SignatureInfo and
//! SignatureValue in that order, each at most once; unknown critical elements are an error, unknown
//! non-critical ones are skipped. SignatureInfo and SignatureValue are required (v0.3 makes them
//! mandatory and ndn-cxx rejects a Data without them); an absent Content decodes as empty. Inside
//! MetaInfo the same order/evolvability rules apply to ContentType, FreshnessPeriod, FinalBlockId.
//! The signature is carried, never verified.

use std::num::NonZeroU64;

use bytes::Bytes;

use super::interest::decode_name;
use super::tlv::{
    check_framing, millis_to_time, nonneg_tlv_size, read_single, skip_unknown, tlv_size, write_nonneg_tlv, write_tl,
    write_tlv, DecodeError, Element, SpecOrder,
};
use crate::name::TLV_NAME;
use crate::{Name, Time};

pub mod tlv_type {
    pub const DATA: u64 = 6;
    pub const META_INFO: u64 = 20;
    pub const CONTENT: u64 = 21;
    pub const SIGNATURE_INFO: u64 = 22;
    pub const SIGNATURE_VALUE: u64 = 23;
    pub const CONTENT_TYPE: u64 = 24;
    pub const FRESHNESS_PERIOD: u64 = 25;
    pub const FINAL_BLOCK_ID: u64 = 26;
    pub const SIGNATURE_TYPE: u64 = 27;
}

/// SignatureType DigestSha256: a 32-byte SHA-256 digest, the cheapest valid signature and the one the
/// simulator's producers use (its value is not computed in simulation; its size is exact).
pub const SIGNATURE_DIGEST_SHA256: u64 = 0;

/// A shared buffer of zeros: simulated payloads borrow from it instead of allocating.
static ZEROS: [u8; 65536] = [0; 65536];

/// `len` zero bytes without allocating (up to 64 KiB; beyond that, one allocation).
pub fn zero_payload(len: usize) -> Bytes {
    if len <= ZEROS.len() {
        Bytes::from_static(&ZEROS[..len])
    } else {
        Bytes::from(vec![0u8; len])
    }
}

/// SignatureInfo and SignatureValue.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Signature {
    pub sig_type: u64,
    /// SignatureInfo elements after SignatureType (KeyLocator, ...), kept encoded as received.
    pub info_extra: Bytes,
    pub value: Bytes,
}

impl Signature {
    /// DigestSha256 with a zero value of the right length.
    pub fn digest_placeholder() -> Signature {
        Signature { sig_type: SIGNATURE_DIGEST_SHA256, info_extra: Bytes::new(), value: zero_payload(32) }
    }
    pub(crate) fn info_value_size(&self) -> usize {
        nonneg_tlv_size(tlv_type::SIGNATURE_TYPE, self.sig_type) + self.info_extra.len()
    }
    pub(crate) fn wire_size(&self) -> usize {
        tlv_size(tlv_type::SIGNATURE_INFO, self.info_value_size())
            + tlv_size(tlv_type::SIGNATURE_VALUE, self.value.len())
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Data {
    pub name: Name,
    pub content_type: Option<u64>,
    pub freshness_period: Option<Time>,
    /// FreshnessPeriod as the wire gave it, in milliseconds, when it is past what `Time` holds
    /// (about 584 years; "fresh forever" is often written 2^64 - 1): `freshness_period` is then
    /// `Time::MAX` and this keeps the value, so that the Data goes on as it came (its signature
    /// covers it). `None` for every other Data (such a value is never 0, and the niche keeps the
    /// field at 8 bytes).
    pub freshness_beyond_ms: Option<NonZeroU64>,
    /// FinalBlockId holds one name component, kept as (type, value).
    pub final_block_id: Option<(u64, Bytes)>,
    pub content: Bytes,
    pub signature: Signature,
}

impl Data {
    /// What a simulated producer sends: `Data::new(name, zero_payload(payload))`.
    pub fn simulated(name: Name, payload: u32) -> Data {
        Data::new(name, zero_payload(payload as usize))
    }

    /// `Some(payload)` when this Data is exactly `Data::simulated(self.name, payload)` (no
    /// MetaInfo, the placeholder signature, a payload of borrowed zeros), so that a store may keep
    /// its name and payload length and make it again (`table::cs`); `None` for any other Data.
    pub fn simulated_payload(&self) -> Option<u32> {
        // Borrowed zeros are told by their address, without reading them.
        let zeros = |b: &Bytes| b.as_ptr() == ZEROS.as_ptr();
        let sig = &self.signature;
        let plain = self.content_type.is_none()
            && self.freshness_period.is_none()
            && self.final_block_id.is_none()
            && zeros(&self.content)
            && sig.sig_type == SIGNATURE_DIGEST_SHA256
            && sig.info_extra.is_empty()
            && sig.value.len() == 32
            && zeros(&sig.value);
        plain.then(|| self.content.len() as u32)
    }

    /// A Data packet with `payload` bytes of content and a DigestSha256 signature.
    pub fn new(name: Name, content: Bytes) -> Data {
        Data {
            name,
            content_type: None,
            freshness_period: None,
            freshness_beyond_ms: None,
            final_block_id: None,
            content,
            signature: Signature::digest_placeholder(),
        }
    }

    /// FreshnessPeriod in milliseconds, as it goes on the wire.
    pub fn freshness_ms(&self) -> Option<u64> {
        self.freshness_beyond_ms.map(NonZeroU64::get).or(self.freshness_period.map(Time::as_millis))
    }

    /// Sets FreshnessPeriod to `ms` milliseconds, any u64 (`freshness_beyond_ms` keeps what
    /// `Time` cannot).
    pub fn set_freshness_ms(&mut self, ms: u64) {
        self.freshness_period = Some(millis_to_time(ms).unwrap_or(Time::MAX));
        self.freshness_beyond_ms = millis_to_time(ms).is_none().then(|| NonZeroU64::new(ms)).flatten();
    }

    pub(crate) fn meta_info_value_size(&self) -> usize {
        use tlv_type::*;
        let mut n = 0;
        if let Some(t) = self.content_type {
            n += nonneg_tlv_size(CONTENT_TYPE, t);
        }
        if let Some(ms) = self.freshness_ms() {
            n += nonneg_tlv_size(FRESHNESS_PERIOD, ms);
        }
        if let Some((typ, value)) = &self.final_block_id {
            n += tlv_size(FINAL_BLOCK_ID, tlv_size(*typ, value.len()));
        }
        n
    }

    fn value_size(&self) -> usize {
        let mut n = self.name.wire_size();
        let meta = self.meta_info_value_size();
        if meta > 0 {
            n += tlv_size(tlv_type::META_INFO, meta);
        }
        n += tlv_size(tlv_type::CONTENT, self.content.len());
        n + self.signature.wire_size()
    }

    /// Exact size of the encoded Data TLV.
    pub fn wire_size(&self) -> usize {
        tlv_size(tlv_type::DATA, self.value_size())
    }

    /// The segment number in FinalBlockId, if it holds a segment component.
    pub fn final_segment(&self) -> Option<u64> {
        match &self.final_block_id {
            Some((crate::name::component_type::SEGMENT, v)) => super::tlv::read_nonneg(v, 0).ok(),
            _ => None,
        }
    }

    /// The Data TLV. FreshnessPeriod is written in whole milliseconds, as `wire_size` assumes.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.wire_size());
        self.encode_into(&mut out);
        out
    }

    /// Appends the Data TLV to `out`.
    pub fn encode_into(&self, out: &mut Vec<u8>) {
        use tlv_type::*;
        write_tl(out, DATA, self.value_size());
        write_tlv(out, TLV_NAME, self.name.component_wire());
        let meta = self.meta_info_value_size();
        if meta > 0 {
            write_tl(out, META_INFO, meta);
            self.encode_meta_info_fields(out);
        }
        write_tlv(out, CONTENT, &self.content);
        write_tl(out, SIGNATURE_INFO, self.signature.info_value_size());
        write_nonneg_tlv(out, SIGNATURE_TYPE, self.signature.sig_type);
        out.extend_from_slice(&self.signature.info_extra);
        write_tlv(out, SIGNATURE_VALUE, &self.signature.value);
    }

    fn encode_meta_info_fields(&self, out: &mut Vec<u8>) {
        use tlv_type::*;
        if let Some(t) = self.content_type {
            write_nonneg_tlv(out, CONTENT_TYPE, t);
        }
        if let Some(ms) = self.freshness_ms() {
            write_nonneg_tlv(out, FRESHNESS_PERIOD, ms);
        }
        if let Some((typ, value)) = &self.final_block_id {
            write_tl(out, FINAL_BLOCK_ID, tlv_size(*typ, value.len()));
            write_tlv(out, *typ, value);
        }
    }

    /// Decodes one Data TLV that spans all of `wire`.
    pub fn decode(wire: &[u8]) -> Result<Data, DecodeError> {
        let el = read_single(wire, tlv_type::DATA, "Data")?;
        Self::decode_element(&el)
    }

    /// Decodes the value of a Data element (used for bare packets and LpPacket fragments).
    pub(crate) fn decode_element(el: &Element<'_>) -> Result<Data, DecodeError> {
        use tlv_type::*;
        let mut r = el.reader();
        let mut data = Data::new(decode_name(&mut r)?, Bytes::new());
        let mut order = SpecOrder::default();
        let (mut sig_info, mut sig_value) = (None, None);
        while !r.is_empty() {
            let e = r.read_element()?;
            match e.typ {
                META_INFO => {
                    order.advance(2, &e, "MetaInfo")?;
                    data.decode_meta_info(&e)?;
                }
                CONTENT => {
                    order.advance(3, &e, "Content")?;
                    data.content = Bytes::copy_from_slice(e.value);
                }
                SIGNATURE_INFO => {
                    order.advance(4, &e, "SignatureInfo")?;
                    sig_info = Some(decode_signature_info(&e)?);
                }
                SIGNATURE_VALUE => {
                    order.advance(5, &e, "SignatureValue")?;
                    sig_value = Some(Bytes::copy_from_slice(e.value));
                }
                _ => skip_unknown(&e)?,
            }
        }
        let (sig_type, info_extra) = sig_info.ok_or(DecodeError::Missing("SignatureInfo"))?;
        let value = sig_value.ok_or(DecodeError::Missing("SignatureValue"))?;
        data.signature = Signature { sig_type, info_extra, value };
        Ok(data)
    }

    fn decode_meta_info(&mut self, el: &Element<'_>) -> Result<(), DecodeError> {
        use tlv_type::*;
        let mut r = el.reader();
        let mut order = SpecOrder::default();
        while !r.is_empty() {
            let e = r.read_element()?;
            match e.typ {
                CONTENT_TYPE => {
                    order.advance(1, &e, "ContentType")?;
                    self.content_type = Some(e.nonneg()?);
                }
                FRESHNESS_PERIOD => {
                    order.advance(2, &e, "FreshnessPeriod")?;
                    // Past `Time`'s range it is kept, not refused (ndn-cxx keeps any u64): a
                    // Data fresh "forever" is a valid packet, where an Interest's lifetime that
                    // long is not (`decode_millis`).
                    self.set_freshness_ms(e.nonneg()?);
                }
                FINAL_BLOCK_ID => {
                    order.advance(3, &e, "FinalBlockId")?;
                    self.final_block_id = Some(decode_final_block_id(&e)?);
                }
                _ => skip_unknown(&e)?,
            }
        }
        Ok(())
    }
}

/// FinalBlockId holds exactly one name component (type 1..65535, as in a Name).
fn decode_final_block_id(el: &Element<'_>) -> Result<(u64, Bytes), DecodeError> {
    let mut r = el.reader();
    if r.is_empty() {
        return Err(DecodeError::Missing("FinalBlockId component"));
    }
    let c = r.read_element()?;
    if c.typ == 0 || c.typ > 0xFFFF {
        return Err(DecodeError::Invalid {
            at: c.at,
            what: "FinalBlockId component",
            reason: "component type must be 1..65535",
        });
    }
    if !r.is_empty() {
        return Err(DecodeError::Invalid {
            at: r.offset(),
            what: "FinalBlockId",
            reason: "holds more than one component",
        });
    }
    Ok((c.typ, Bytes::copy_from_slice(c.value)))
}

/// SignatureInfo: SignatureType first, then the rest (KeyLocator, ...) kept encoded but checked to be
/// well-formed TLVs, so that re-encoding it gives a parseable packet.
fn decode_signature_info(el: &Element<'_>) -> Result<(u64, Bytes), DecodeError> {
    let mut r = el.reader();
    if r.is_empty() {
        return Err(DecodeError::Missing("SignatureType"));
    }
    let t = r.read_element()?;
    if t.typ != tlv_type::SIGNATURE_TYPE {
        return Err(DecodeError::UnexpectedType { at: t.at, found: t.typ, expected: "SignatureType" });
    }
    let sig_type = t.nonneg()?;
    let rest_at = r.offset();
    let rest = &el.value[el.value.len() - r.remaining()..];
    check_framing(rest, rest_at)?;
    Ok((sig_type, Bytes::copy_from_slice(rest)))
}
