//! Data packet (NDN packet format v0.3 §4 "Data Packet").

use bytes::Bytes;

use super::tlv::{nonneg_tlv_size, tlv_size};
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
    /// FinalBlockId holds one name component, kept as (type, value).
    pub final_block_id: Option<(u64, Bytes)>,
    pub content: Bytes,
    pub signature: Signature,
}

impl Data {
    /// A Data packet with `payload` bytes of content and a DigestSha256 signature.
    pub fn new(name: Name, content: Bytes) -> Data {
        Data {
            name,
            content_type: None,
            freshness_period: None,
            final_block_id: None,
            content,
            signature: Signature::digest_placeholder(),
        }
    }

    pub(crate) fn meta_info_value_size(&self) -> usize {
        use tlv_type::*;
        let mut n = 0;
        if let Some(t) = self.content_type {
            n += nonneg_tlv_size(CONTENT_TYPE, t);
        }
        if let Some(f) = self.freshness_period {
            n += nonneg_tlv_size(FRESHNESS_PERIOD, f.as_millis());
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
}
