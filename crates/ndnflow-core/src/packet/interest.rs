//! Interest packet (NDN packet format v0.3 §3 "Interest Packet"): the struct, its exact size, and its
//! TLV codec.
//!
//! Encoding follows the spec's element order: Name, CanBePrefix, MustBeFresh, Nonce,
//! InterestLifetime, HopLimit, ApplicationParameters (ForwardingHint and the Interest signature are
//! not modelled and never emitted).
//!
//! Decoding is as strict as ndn-cxx's `Interest::wireDecode` (v0.3 branch): Name comes first and
//! has at least one component; a known element that appears after a later one, or twice, is an
//! error, except the non-critical HopLimit and ApplicationParameters, whose misplaced copies are
//! ignored; unknown critical elements are an error and unknown non-critical ones are skipped.
//! ForwardingHint is validated and dropped; InterestSignatureInfo/Value are framing-checked and
//! dropped. The ParametersSha256DigestComponent is not verified (the codec does not hash).

use bytes::Bytes;

use super::tlv::{
    millis_to_time, nonneg_tlv_size, read_single, skip_unknown, tlv_size, write_nonneg_tlv, write_tl, write_tlv,
    DecodeError, Element, SpecOrder,
};
use crate::name::TLV_NAME;
use crate::{Name, Time};

pub mod tlv_type {
    pub const INTEREST: u64 = 5;
    pub const CAN_BE_PREFIX: u64 = 33;
    pub const MUST_BE_FRESH: u64 = 18;
    pub const FORWARDING_HINT: u64 = 30;
    pub const NONCE: u64 = 10;
    pub const INTEREST_LIFETIME: u64 = 12;
    pub const HOP_LIMIT: u64 = 34;
    pub const APPLICATION_PARAMETERS: u64 = 36;
    pub const INTEREST_SIGNATURE_INFO: u64 = 44;
    pub const INTEREST_SIGNATURE_VALUE: u64 = 46;
    /// Delegation, the pre-2021 ForwardingHint entry (Preference + Name); still accepted inside a
    /// ForwardingHint on decode.
    pub const DELEGATION: u64 = 31;
}

/// InterestLifetime when the element is absent (packet spec §3.2.4).
pub const DEFAULT_INTEREST_LIFETIME: Time = Time::from_millis(4000);

/// `repr(C)`, in this order: what a forwarder reads at every hop (name, lifetime, nonce, hop limit,
/// selectors) fills the first 48 bytes, so with the reference counts it spans one cache line.
#[derive(Clone, Debug, PartialEq, Eq)]
#[repr(C)]
pub struct Interest {
    pub name: Name,
    /// `None` encodes nothing and means the spec default of 4 s.
    pub lifetime: Option<Time>,
    /// 4-octet nonce. Absent only on Interests decoded from a wire that lacks it; forwarders assign one.
    pub nonce: Option<u32>,
    pub hop_limit: Option<u8>,
    pub can_be_prefix: bool,
    pub must_be_fresh: bool,
    /// ApplicationParameters value, carried as is. Whoever sets it is responsible for the name's
    /// ParametersSha256DigestComponent (the codec does not hash).
    pub app_parameters: Option<Bytes>,
}

/// Rank of each known element in spec order (Name is rank 1), for the out-of-order check.
mod rank {
    pub const CAN_BE_PREFIX: u8 = 2;
    pub const MUST_BE_FRESH: u8 = 3;
    pub const FORWARDING_HINT: u8 = 4;
    pub const NONCE: u8 = 5;
    pub const INTEREST_LIFETIME: u8 = 6;
    pub const HOP_LIMIT: u8 = 7;
    pub const APPLICATION_PARAMETERS: u8 = 8;
    pub const SIGNATURE_INFO: u8 = 9;
    pub const SIGNATURE_VALUE: u8 = 10;
}

impl Interest {
    /// An Interest as a consumer sends it: a name, a nonce and a lifetime.
    pub fn new(name: Name, nonce: u32, lifetime: Time) -> Interest {
        Interest {
            name,
            can_be_prefix: false,
            must_be_fresh: false,
            nonce: Some(nonce),
            lifetime: Some(lifetime),
            hop_limit: None,
            app_parameters: None,
        }
    }

    /// The lifetime in force: the encoded one or the spec default.
    pub fn effective_lifetime(&self) -> Time {
        self.lifetime.unwrap_or(DEFAULT_INTEREST_LIFETIME)
    }

    fn value_size(&self) -> usize {
        use tlv_type::*;
        let mut n = self.name.wire_size();
        if self.can_be_prefix {
            n += tlv_size(CAN_BE_PREFIX, 0);
        }
        if self.must_be_fresh {
            n += tlv_size(MUST_BE_FRESH, 0);
        }
        if self.nonce.is_some() {
            n += tlv_size(NONCE, 4);
        }
        if let Some(l) = self.lifetime {
            n += nonneg_tlv_size(INTEREST_LIFETIME, l.as_millis());
        }
        if self.hop_limit.is_some() {
            n += tlv_size(HOP_LIMIT, 1);
        }
        if let Some(p) = &self.app_parameters {
            n += tlv_size(APPLICATION_PARAMETERS, p.len());
        }
        n
    }

    /// Exact size of the encoded Interest TLV.
    pub fn wire_size(&self) -> usize {
        tlv_size(tlv_type::INTEREST, self.value_size())
    }

    /// The Interest TLV. The lifetime is written in whole milliseconds (sub-millisecond parts of
    /// `lifetime` are dropped, as `wire_size` assumes).
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.wire_size());
        self.encode_into(&mut out);
        out
    }

    /// Appends the Interest TLV to `out`.
    pub fn encode_into(&self, out: &mut Vec<u8>) {
        use tlv_type::*;
        write_tl(out, INTEREST, self.value_size());
        write_tlv(out, TLV_NAME, self.name.component_wire());
        if self.can_be_prefix {
            write_tl(out, CAN_BE_PREFIX, 0);
        }
        if self.must_be_fresh {
            write_tl(out, MUST_BE_FRESH, 0);
        }
        if let Some(nonce) = self.nonce {
            // The spec treats the nonce as 4 opaque octets; big-endian matches ndn-cxx and python-ndn.
            write_tlv(out, NONCE, &nonce.to_be_bytes());
        }
        if let Some(l) = self.lifetime {
            write_nonneg_tlv(out, INTEREST_LIFETIME, l.as_millis());
        }
        if let Some(h) = self.hop_limit {
            write_tlv(out, HOP_LIMIT, &[h]);
        }
        if let Some(p) = &self.app_parameters {
            write_tlv(out, APPLICATION_PARAMETERS, p);
        }
    }

    /// Decodes one Interest TLV that spans all of `wire`.
    pub fn decode(wire: &[u8]) -> Result<Interest, DecodeError> {
        let el = read_single(wire, tlv_type::INTEREST, "Interest")?;
        Self::decode_element(&el)
    }

    /// Decodes the value of an Interest element (used for bare packets and LpPacket fragments).
    pub(crate) fn decode_element(el: &Element<'_>) -> Result<Interest, DecodeError> {
        use tlv_type::*;
        let mut r = el.reader();
        let name = decode_name_first(&mut r)?;
        let mut interest = Interest {
            name,
            can_be_prefix: false,
            must_be_fresh: false,
            nonce: None,
            lifetime: None,
            hop_limit: None,
            app_parameters: None,
        };
        let mut order = SpecOrder::default();
        while !r.is_empty() {
            let e = r.read_element()?;
            match e.typ {
                CAN_BE_PREFIX => {
                    order.advance(rank::CAN_BE_PREFIX, &e, "CanBePrefix")?;
                    e.expect_empty("CanBePrefix")?;
                    interest.can_be_prefix = true;
                }
                MUST_BE_FRESH => {
                    order.advance(rank::MUST_BE_FRESH, &e, "MustBeFresh")?;
                    e.expect_empty("MustBeFresh")?;
                    interest.must_be_fresh = true;
                }
                FORWARDING_HINT => {
                    order.advance(rank::FORWARDING_HINT, &e, "ForwardingHint")?;
                    check_forwarding_hint(&e)?;
                }
                NONCE => {
                    order.advance(rank::NONCE, &e, "Nonce")?;
                    let bytes: [u8; 4] = e.value.try_into().map_err(|_| DecodeError::BadLength {
                        at: e.at,
                        len: e.value.len(),
                        what: "Nonce",
                    })?;
                    interest.nonce = Some(u32::from_be_bytes(bytes));
                }
                INTEREST_LIFETIME => {
                    order.advance(rank::INTEREST_LIFETIME, &e, "InterestLifetime")?;
                    interest.lifetime = Some(decode_millis(&e, "InterestLifetime")?);
                }
                // Non-critical: a misplaced copy is ignored, as ndn-cxx does.
                HOP_LIMIT if order.is_past(rank::HOP_LIMIT) => {}
                HOP_LIMIT => {
                    order.advance(rank::HOP_LIMIT, &e, "HopLimit")?;
                    match e.value {
                        [h] => interest.hop_limit = Some(*h),
                        _ => return Err(DecodeError::BadLength { at: e.at, len: e.value.len(), what: "HopLimit" }),
                    }
                }
                APPLICATION_PARAMETERS if order.is_past(rank::APPLICATION_PARAMETERS) => {}
                APPLICATION_PARAMETERS => {
                    order.advance(rank::APPLICATION_PARAMETERS, &e, "ApplicationParameters")?;
                    interest.app_parameters = Some(Bytes::copy_from_slice(e.value));
                }
                INTEREST_SIGNATURE_INFO => {
                    require_after(&order, rank::APPLICATION_PARAMETERS, &e, "InterestSignatureInfo")?;
                    order.advance(rank::SIGNATURE_INFO, &e, "InterestSignatureInfo")?;
                    // Dropped, but its inner elements must frame, as docs/wire-format.md says (a
                    // SignatureType claiming more bytes than the field holds is refused, as
                    // python-ndn refuses it).
                    super::tlv::check_framing(e.value, e.value_at)?;
                }
                INTEREST_SIGNATURE_VALUE => {
                    require_after(&order, rank::SIGNATURE_INFO, &e, "InterestSignatureValue")?;
                    order.advance(rank::SIGNATURE_VALUE, &e, "InterestSignatureValue")?;
                }
                _ => skip_unknown(&e)?,
            }
        }
        Ok(interest)
    }
}

/// Reads the Name that must open an Interest or Data value.
pub(crate) fn decode_name(r: &mut super::tlv::Reader<'_>) -> Result<Name, DecodeError> {
    if r.is_empty() {
        return Err(DecodeError::Missing("Name"));
    }
    let e = r.read_element()?;
    if e.typ != TLV_NAME {
        return Err(DecodeError::UnexpectedType { at: e.at, found: e.typ, expected: "Name" });
    }
    Name::from_component_wire_at(e.value, e.value_at)
}

/// An Interest's Name additionally needs a component (ndn-cxx: "Name has zero name components").
fn decode_name_first(r: &mut super::tlv::Reader<'_>) -> Result<Name, DecodeError> {
    let at = r.offset();
    let name = decode_name(r)?;
    if name.is_empty() {
        return Err(DecodeError::Invalid { at, what: "Interest Name", reason: "has no components" });
    }
    Ok(name)
}

/// A millisecond NonNegativeInteger (InterestLifetime, FreshnessPeriod) as `Time`.
pub(crate) fn decode_millis(e: &Element<'_>, what: &'static str) -> Result<Time, DecodeError> {
    millis_to_time(e.nonneg()?).ok_or(DecodeError::Invalid {
        at: e.at,
        what,
        reason: "exceeds the u64-nanosecond range",
    })
}

/// Signature elements are only valid after what they sign (ndn-cxx: "present but ... is missing"):
/// the element of `rank` must already have been seen.
fn require_after(order: &SpecOrder, rank: u8, e: &Element<'_>, what: &'static str) -> Result<(), DecodeError> {
    if order.is_past(rank) {
        Ok(())
    } else {
        Err(DecodeError::Invalid { at: e.at, what, reason: "present without the element it must follow" })
    }
}

/// ForwardingHint is dropped, but it is a critical element, so its content is still checked: Names
/// (v0.3 since 2021) or Delegations (earlier), and the evolvability rule for anything else.
fn check_forwarding_hint(e: &Element<'_>) -> Result<(), DecodeError> {
    let mut r = e.reader();
    while !r.is_empty() {
        let inner = r.read_element()?;
        match inner.typ {
            TLV_NAME => {
                Name::from_component_wire_at(inner.value, inner.value_at)?;
            }
            tlv_type::DELEGATION => {}
            _ => skip_unknown(&inner)?,
        }
    }
    Ok(())
}
