//! DigestSha256 signatures computed for real (NDN packet format v0.3 §3.3 "Signature", type 0).
//!
//! The simulator's Data carry a DigestSha256 placeholder of 32 zero bytes: the size is exact and
//! nothing reads the value. On a real network applications check it: python-ndn's default Data
//! validator hashes the signed portion and compares (its `sha256_digest_checker`), so every Data
//! the daemon or its tools make is signed here first.
//!
//! The signed portion of a Data is its value from Name up to and including SignatureInfo, that is
//! everything but the final SignatureValue element.

use ndnflow_core::packet::data::tlv_type::{DATA, SIGNATURE_VALUE};
use ndnflow_core::packet::data::SIGNATURE_DIGEST_SHA256;
use ndnflow_core::packet::tlv::{read_single, Reader};
use ndnflow_core::packet::Data;
use sha2::{Digest, Sha256};

/// Gives `data` a DigestSha256 signature over its signed portion.
pub fn sign_digest_sha256(data: &mut Data) {
    data.signature.sig_type = SIGNATURE_DIGEST_SHA256;
    data.signature.info_extra = bytes::Bytes::new();
    // The signed portion does not contain the value, so the placeholder's encoding serves.
    data.signature.value = ndnflow_core::packet::data::zero_payload(32);
    let wire = data.encode();
    let digest = Sha256::digest(signed_portion(&wire).expect("a Data this crate encoded"));
    data.signature.value = bytes::Bytes::copy_from_slice(&digest);
}

/// The bytes a Data's signature covers: its value without the last element (SignatureValue).
/// `None` when `wire` is not one Data TLV ending in a SignatureValue.
pub fn signed_portion(wire: &[u8]) -> Option<&[u8]> {
    let data = read_single(wire, DATA, "Data").ok()?;
    let mut r = Reader::new(data.value);
    let mut last = None;
    while !r.is_empty() {
        let at = r.offset();
        let e = r.read_element().ok()?;
        last = Some((at, e.typ));
    }
    match last {
        Some((at, SIGNATURE_VALUE)) => Some(&data.value[..at]),
        _ => None,
    }
}

/// Whether `wire` is a Data whose DigestSha256 signature matches its signed portion (false for
/// any other signature type: this checks digests, not keys).
pub fn verify_digest_sha256(wire: &[u8]) -> bool {
    let (Ok(data), Some(portion)) = (Data::decode(wire), signed_portion(wire)) else { return false };
    data.signature.sig_type == SIGNATURE_DIGEST_SHA256 && data.signature.value[..] == Sha256::digest(portion)[..]
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndnflow_core::Name;

    #[test]
    fn a_signed_data_verifies_and_a_changed_byte_does_not() {
        let mut data = Data::new(Name::parse("/a/b").unwrap(), bytes::Bytes::from_static(b"hello"));
        sign_digest_sha256(&mut data);
        let mut wire = data.encode();
        assert!(verify_digest_sha256(&wire));
        // The signed portion, written out by hand from the spec: Name (07 06 | 08 01 'a' | 08 01 'b'),
        // Content (15 05 "hello"), SignatureInfo (16 03 | 1b 01 00).
        let portion: &[u8] = &[7, 6, 8, 1, b'a', 8, 1, b'b', 21, 5, b'h', b'e', b'l', b'l', b'o', 22, 3, 27, 1, 0];
        assert_eq!(signed_portion(&wire), Some(portion));
        assert_eq!(data.signature.value[..], Sha256::digest(portion)[..]);
        let content_at = wire.iter().position(|&b| b == b'h').unwrap();
        wire[content_at] = b'j';
        assert!(!verify_digest_sha256(&wire));
    }

    #[test]
    fn the_placeholder_does_not_verify() {
        let data = Data::new(Name::parse("/a").unwrap(), bytes::Bytes::from_static(b"x"));
        assert!(!verify_digest_sha256(&data.encode()));
    }
}
