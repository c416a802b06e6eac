//! `ndnflow get --verify`: each Data the fetch takes (the segments, and the metadata of a version
//! discovery) must carry a signature that verifies, or the fetch stops there, as an ndn-cxx
//! consumer with a validator stops on a validation failure (ndncatchunks itself accepts every
//! Data: its validator is `getAcceptAllValidator()`).
//!
//! Two checks, the two signature types `ndnflow serve` makes:
//! - `digest`: DigestSha256 (NDN packet format v0.3, SignatureType 0), the SHA-256 of the signed
//!   portion: integrity, not origin;
//! - a PEM file: SignatureSha256WithEcdsa (type 3) by that P-256 key, given as its public key
//!   ("PUBLIC KEY", `openssl pkey -pubout`) or as the private key `serve --key` signed with.
//!
//! The check runs on the bytes as they came from the forwarder (the Data inside an NDNLPv2
//! LpPacket's Fragment when the forwarder wrapped it, as it does to carry a congestion mark), not
//! on a re-encoding: a producer's fields the core does not keep would change the signed bytes.
//! No certificate chain is followed: the key given is the trust anchor, and the KeyLocator is not
//! read.

use std::path::Path;

use ndnflow_core::packet::data::tlv_type::DATA;
use ndnflow_core::packet::data::SIGNATURE_DIGEST_SHA256;
use ndnflow_core::packet::lp::tlv_type::{FRAGMENT, LP_PACKET};
use ndnflow_core::packet::tlv::Reader;
use ndnflow_core::packet::Data;
use ndnflow_core::Name;
use p256::ecdsa::VerifyingKey;
use p256::pkcs8::{DecodePublicKey, EncodePublicKey};

use super::AppError;
use crate::ecdsa::{verify_ecdsa, EcdsaKey, SIGNATURE_SHA256_WITH_ECDSA};
use crate::sign::verify_digest_sha256;

/// What a fetch checks each Data's signature against.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verifier {
    /// DigestSha256.
    Digest,
    /// SignatureSha256WithEcdsa by the key whose SubjectPublicKeyInfo DER is `spki`, read from
    /// the file `from`.
    Ecdsa { spki: Vec<u8>, from: String },
}

impl Verifier {
    /// `digest`, or the path of a PEM file holding a P-256 public or private key. Errors name the
    /// option and the file.
    pub fn parse(spec: &str) -> Result<Verifier, AppError> {
        if spec == "digest" {
            return Ok(Verifier::Digest);
        }
        let text = crate::files::read_text_capped(Path::new(spec), crate::files::MAX_KEY_FILE_BYTES)
            .map_err(|e| AppError::Usage(format!("--verify {spec}: cannot read it: {e} (or give `digest`)")))?;
        Verifier::from_pem(&text, spec)
    }

    /// The key in `pem`: a public key ("PUBLIC KEY"), else a private key as `serve --key` reads it.
    pub fn from_pem(pem: &str, from: &str) -> Result<Verifier, AppError> {
        let spki = match VerifyingKey::from_public_key_pem(pem) {
            Ok(key) => key.to_public_key_der().map(|d| d.as_bytes().to_vec()).ok(),
            Err(_) => EcdsaKey::from_pem(pem, &Name::root(), None).ok().map(|k| k.public_key_der()),
        };
        let spki = spki.ok_or_else(|| {
            AppError::Usage(format!(
                "--verify {from}: not a P-256 key in PEM (\"PUBLIC KEY\", or the private key serve --key signs with)"
            ))
        })?;
        Ok(Verifier::Ecdsa { spki, from: from.to_string() })
    }

    /// What is checked, for the summary: `DigestSha256` or `ECDSA (FILE)`.
    pub fn describe(&self) -> String {
        match self {
            Verifier::Digest => "DigestSha256".to_string(),
            Verifier::Ecdsa { from, .. } => format!("ECDSA ({from})"),
        }
    }

    /// Ok when the Data in `element` (a Data, or an LpPacket carrying one) verifies; otherwise
    /// why not.
    pub fn check(&self, element: &[u8]) -> Result<(), String> {
        let wire = data_wire(element).ok_or("no Data in the element")?;
        let ok = match self {
            Verifier::Digest => verify_digest_sha256(wire),
            Verifier::Ecdsa { spki, .. } => verify_ecdsa(wire, spki),
        };
        if ok {
            return Ok(());
        }
        let found = Data::decode(wire).map_or("undecodable".to_string(), |d| signature_name(d.signature.sig_type));
        Err(format!("its signature ({found}) does not verify as {}", self.describe()))
    }
}

/// A SignatureType's name in the packet format's words.
fn signature_name(sig_type: u64) -> String {
    match sig_type {
        SIGNATURE_DIGEST_SHA256 => "DigestSha256".to_string(),
        SIGNATURE_SHA256_WITH_ECDSA => "SignatureSha256WithEcdsa".to_string(),
        other => format!("SignatureType {other}"),
    }
}

/// The Data's bytes in `element`: the element itself when it is a Data, its Fragment when it is
/// an LpPacket (NDNLPv2) whose Fragment is a Data; `None` otherwise.
pub fn data_wire(element: &[u8]) -> Option<&[u8]> {
    let mut r = Reader::new(element);
    let outer = r.read_element().ok()?;
    let inner = match outer.typ {
        DATA => return Some(element),
        LP_PACKET => {
            let mut fields = outer.reader();
            loop {
                let field = fields.read_element().ok()?;
                if field.typ == FRAGMENT {
                    break field.value;
                }
            }
        }
        _ => return None,
    };
    (Reader::new(inner).read_element().ok()?.typ == DATA).then_some(inner)
}

#[cfg(test)]
mod tests {
    use super::*;
    use bytes::Bytes;
    use ndnflow_core::packet::Frame;
    use p256::pkcs8::{EncodePrivateKey, LineEnding};
    use std::sync::Arc;

    fn data(content: &'static [u8]) -> Data {
        Data::new(Name::parse("/p/v=1/seg=0").unwrap(), Bytes::from_static(content))
    }

    fn private_pem(seed: u8) -> String {
        let key = p256::ecdsa::SigningKey::from_bytes(&[seed; 32].into()).unwrap();
        key.to_pkcs8_pem(LineEnding::LF).unwrap().to_string()
    }

    #[test]
    fn the_data_is_found_bare_or_in_an_lp_packets_fragment() {
        let mut d = data(b"abc");
        crate::sign::sign_digest_sha256(&mut d);
        let bare = d.encode();
        assert_eq!(data_wire(&bare), Some(&bare[..]));
        // A congestion mark makes the forwarder wrap the Data in an LpPacket (NDNLPv2).
        let mut frame = Frame::data(Arc::new(d));
        frame.lp.congestion_mark = 1;
        let wrapped = frame.encode();
        assert_eq!(wrapped[0], 100, "an LpPacket");
        assert_eq!(data_wire(&wrapped), Some(&bare[..]));
        assert_eq!(data_wire(b"\x05\x00"), None, "an Interest");
    }

    #[test]
    fn a_digest_verifies_until_a_byte_changes() {
        let mut d = data(b"abc");
        crate::sign::sign_digest_sha256(&mut d);
        let mut wire = d.encode();
        assert_eq!(Verifier::Digest.check(&wire), Ok(()));
        let at = wire.windows(3).position(|w| w == b"abc").unwrap();
        wire[at] = b'x';
        let e = Verifier::Digest.check(&wire).unwrap_err();
        assert_eq!(e, "its signature (DigestSha256) does not verify as DigestSha256");
    }

    #[test]
    fn an_ecdsa_signature_verifies_with_its_key_public_or_private_and_no_other() {
        let key = EcdsaKey::from_pem(&private_pem(7), &Name::parse("/p").unwrap(), None).unwrap();
        let mut d = data(b"abc");
        key.sign(&mut d);
        let wire = d.encode();
        let from_private = Verifier::from_pem(&private_pem(7), "key.pem").unwrap();
        assert_eq!(from_private.check(&wire), Ok(()));
        let public = VerifyingKey::from_public_key_der(&key.public_key_der()).unwrap();
        let public_pem = public.to_public_key_pem(LineEnding::LF).unwrap();
        assert_eq!(
            Verifier::from_pem(&public_pem, "pub.pem").unwrap(),
            Verifier::Ecdsa { spki: key.public_key_der(), from: "pub.pem".into() }
        );
        let other = Verifier::from_pem(&private_pem(8), "other.pem").unwrap();
        let e = other.check(&wire).unwrap_err();
        assert_eq!(e, "its signature (SignatureSha256WithEcdsa) does not verify as ECDSA (other.pem)");
        assert!(Verifier::Digest.check(&wire).is_err(), "an ECDSA signature is no digest");
        assert!(Verifier::from_pem("not a key", "x.pem").unwrap_err().to_string().starts_with("--verify x.pem: not"));
    }
}
