//! DigestSha256, the signature `ndnflow serve` puts on its Data (NDN packet format v0.3,
//! "Signature" and "DigestSha256"): SignatureType 0, and a SignatureValue that is the SHA-256 of
//! the Data's signed portion, which runs from the first byte of the Name TLV to the last byte of
//! the SignatureInfo TLV (Name, MetaInfo, Content and SignatureInfo, encoded as sent).
//!
//! The core's codec writes a DigestSha256 Data with a zero value of the right length (the
//! simulator never checks signatures); here the encoded packet's value is filled in place.

use std::ops::Range;

use ndnflow_core::packet::data::tlv_type::{DATA, SIGNATURE_INFO, SIGNATURE_VALUE};
use ndnflow_core::packet::tlv::Reader;
use sha2::{Digest, Sha256};

/// Bytes of a SHA-256 digest.
pub const DIGEST_LEN: usize = 32;

/// Where the signed portion and the SignatureValue's value lie in an encoded Data; `None` for
/// bytes that are not a Data ending with SignatureInfo and SignatureValue.
pub fn locate(wire: &[u8]) -> Option<(Range<usize>, Range<usize>)> {
    let data = Reader::new(wire).read_element().ok().filter(|e| e.typ == DATA)?;
    let mut fields = data.reader();
    let mut signed_end = None;
    while !fields.is_empty() {
        let e = fields.read_element().ok()?;
        match e.typ {
            SIGNATURE_INFO => signed_end = Some(e.value_at + e.value.len()),
            SIGNATURE_VALUE => {
                let value = e.value_at..e.value_at + e.value.len();
                return Some((data.value_at..signed_end?, value));
            }
            _ => {}
        }
    }
    None
}

/// Writes the DigestSha256 value into an encoded Data whose SignatureValue holds 32 bytes; false
/// (and nothing written) when `wire` is not such a Data.
pub fn sign_digest_sha256(wire: &mut [u8]) -> bool {
    let Some((signed, value)) = locate(wire) else { return false };
    if value.len() != DIGEST_LEN {
        return false;
    }
    let digest = Sha256::digest(&wire[signed]);
    wire[value].copy_from_slice(&digest);
    true
}

/// Whether an encoded Data's SignatureValue is the SHA-256 of its signed portion.
pub fn verify_digest_sha256(wire: &[u8]) -> bool {
    locate(wire).is_some_and(|(signed, value)| Sha256::digest(&wire[signed]).as_slice() == &wire[value])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Data /p, Content "hi", DigestSha256, written by hand from the packet format:
    /// 06 LL | Name 07 03 (08 01 'p') | Content 15 02 'h' 'i' | SignatureInfo 16 03 (1B 01 00) |
    /// SignatureValue 17 20 (32 bytes, zero before signing). 5 + 4 + 5 + 34 = 48 bytes of value.
    fn hand_written_data() -> Vec<u8> {
        let mut wire =
            vec![0x06, 48, 0x07, 0x03, 0x08, 0x01, b'p', 0x15, 0x02, b'h', b'i', 0x16, 0x03, 0x1B, 0x01, 0x00];
        wire.extend_from_slice(&[0x17, 0x20]);
        wire.extend_from_slice(&[0; 32]);
        wire
    }

    #[test]
    fn the_digest_is_the_sha256_of_name_to_signature_info() {
        let mut wire = hand_written_data();
        assert!(sign_digest_sha256(&mut wire));
        // sha256(07 03 08 01 70 15 02 68 69 16 03 1b 01 00), computed apart with Python's
        // hashlib: the 14 bytes from the Name's type to SignatureInfo's last byte. The value is
        // the last 32 bytes: 2 (Data header) + 14 + 2 (SignatureValue header) = 18 before it.
        let expected = "c35a5373d7f2db32bb9da108b45046f6deb83bba7af6b12cf829c96430f5caa8";
        let value: String = wire[18..].iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(value, expected);
        assert!(verify_digest_sha256(&wire));
        wire[9] = b'H'; // the content changes: the digest no longer holds
        assert!(!verify_digest_sha256(&wire));
    }

    #[test]
    fn bytes_that_are_not_such_a_data_are_left_alone() {
        let mut interest = vec![0x05, 0x05, 0x07, 0x03, 0x08, 0x01, b'p'];
        assert!(!sign_digest_sha256(&mut interest));
        let mut short_value = hand_written_data();
        short_value.truncate(16 + 2 + 16);
        short_value[1] = 14 + 18; // SignatureValue of 16 bytes
        short_value[17] = 16;
        assert!(!sign_digest_sha256(&mut short_value));
        assert!(!sign_digest_sha256(&mut []));
    }
}
