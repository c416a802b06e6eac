//! SignatureSha256WithEcdsa (NDN packet format v0.3 §3.3 "Signature", SignatureType 3) over
//! NIST P-256, for `ndnflow serve --key FILE`, and the self-signed certificate that lets a consumer
//! find the key by the Data's KeyLocator (NDN certificate format version 2).
//!
//! - The SignatureInfo carries SignatureType 3 and a KeyLocator (type 28) holding the key's name;
//!   the SignatureValue is the DER encoding of the ECDSA signature (r, s) of the SHA-256 of the
//!   signed portion (`crate::sign::signed_portion`). Signatures are deterministic (RFC 6979), so
//!   the same key and Data give the same bytes.
//! - A key is named `<identity>/KEY/<key-id>`. `serve` takes PREFIX as the identity and, unless a
//!   name is given, the first 8 bytes of the SHA-256 of the public key (its SubjectPublicKeyInfo
//!   DER) as the key id: ndn-cxx draws 8 random bytes, which would rename the key at every start.
//! - The certificate is a Data named `<key name>/self/v=<ms since 1970>`, ContentType KEY (2),
//!   FreshnessPeriod 1 h, the public key's SubjectPublicKeyInfo DER as content, and a
//!   ValidityPeriod (253) of NotBefore (254) and NotAfter (255) as "YYYYMMDDThhmmss" (UTC) in its
//!   SignatureInfo, signed by the key itself. The validity is from now for 20 years, as ndn-cxx's
//!   and python-ndn's self-signed certificates.
//!
//! Keys are read from PEM files: PKCS#8 (`-----BEGIN PRIVATE KEY-----`, what `openssl genpkey
//! -algorithm EC -pkeyopt ec_paramgen_curve:P-256` writes) or SEC1 (`-----BEGIN EC PRIVATE
//! KEY-----`, what `openssl ecparam -name prime256v1 -genkey` writes).

use std::path::Path;

use bytes::Bytes;
use ndnflow_core::name::component_type::{GENERIC, VERSION};
use ndnflow_core::packet::tlv::{write_nonneg, write_tlv};
use ndnflow_core::packet::Data;
use ndnflow_core::{Name, Time};
use p256::ecdsa::signature::{Signer, Verifier};
use p256::ecdsa::{Signature, SigningKey, VerifyingKey};
use p256::pkcs8::{DecodePrivateKey, DecodePublicKey, EncodePublicKey};
use sha2::{Digest, Sha256};

use crate::sign::signed_portion;

/// SignatureType of SignatureSha256WithEcdsa.
pub const SIGNATURE_SHA256_WITH_ECDSA: u64 = 3;
/// ContentType of a certificate.
pub const CONTENT_TYPE_KEY: u64 = 2;
const KEY_LOCATOR: u64 = 28;
const NAME: u64 = 7;
const VALIDITY_PERIOD: u64 = 253;
const NOT_BEFORE: u64 = 254;
const NOT_AFTER: u64 = 255;
/// A certificate's FreshnessPeriod (ndn-cxx's and python-ndn's, 1 hour).
pub const CERTIFICATE_FRESHNESS: Time = Time::from_secs(3600);
/// How long a self-signed certificate is valid: 20 years of 365 days.
const VALIDITY_SECS: i64 = 20 * 365 * 86_400;

/// Why a key could not be used; the message names the file or the name.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct KeyError(String);

/// A P-256 private key and the name it signs under.
#[derive(Clone)]
pub struct EcdsaKey {
    key: SigningKey,
    name: Name,
}

impl EcdsaKey {
    /// Reads the PEM file at `path`; the key's name is `key_name` (which must be
    /// `<identity>/KEY/<key-id>`) or `identity/KEY/<8 bytes of the public key's SHA-256>`.
    pub fn load(path: &Path, identity: &Name, key_name: Option<Name>) -> Result<EcdsaKey, KeyError> {
        let text = crate::files::read_text_capped(path, crate::files::MAX_KEY_FILE_BYTES)
            .map_err(|e| KeyError(format!("cannot read {}: {e}", path.display())))?;
        EcdsaKey::from_pem(&text, identity, key_name)
            .map_err(|KeyError(why)| KeyError(format!("{}: {why}", path.display())))
    }

    /// The key in `pem` (PKCS#8 or SEC1), named as `load` names it.
    pub fn from_pem(pem: &str, identity: &Name, key_name: Option<Name>) -> Result<EcdsaKey, KeyError> {
        let key = SigningKey::from_pkcs8_pem(pem)
            .or_else(|_| p256::SecretKey::from_sec1_pem(pem).map(SigningKey::from))
            .map_err(|_| {
                KeyError("not a P-256 private key in PEM (PKCS#8 \"PRIVATE KEY\" or SEC1 \"EC PRIVATE KEY\")".into())
            })?;
        let name = match key_name {
            Some(name) if is_key_name(&name) => name,
            Some(name) => return Err(KeyError(format!("key name {name}: expected <identity>/KEY/<key-id>"))),
            None => {
                let id = Sha256::digest(public_key_der(key.verifying_key()));
                identity.append(GENERIC, b"KEY").append(GENERIC, &id[..8])
            }
        };
        Ok(EcdsaKey { key, name })
    }

    /// The name Data signed with this key carry in their KeyLocator.
    pub fn name(&self) -> &Name {
        &self.name
    }

    /// The public key as SubjectPublicKeyInfo DER (a certificate's content).
    pub fn public_key_der(&self) -> Vec<u8> {
        public_key_der(self.key.verifying_key())
    }

    /// Gives `data` a SignatureSha256WithEcdsa signature by this key, the key's name as its
    /// KeyLocator.
    pub fn sign(&self, data: &mut Data) {
        self.sign_with_info(data, self.key_locator());
    }

    /// A KeyLocator element holding the key's name.
    fn key_locator(&self) -> Vec<u8> {
        let mut name = Vec::new();
        write_tlv(&mut name, NAME, self.name.component_wire());
        let mut locator = Vec::new();
        write_tlv(&mut locator, KEY_LOCATOR, &name);
        locator
    }

    /// Signs `data` with `extra` after SignatureType in its SignatureInfo.
    fn sign_with_info(&self, data: &mut Data, extra: Vec<u8>) {
        data.signature.sig_type = SIGNATURE_SHA256_WITH_ECDSA;
        data.signature.info_extra = extra.into();
        // The signed portion stops before SignatureValue, so any placeholder serves.
        data.signature.value = Bytes::new();
        let wire = data.encode();
        let portion = signed_portion(&wire).expect("a Data this crate encoded");
        let signature: Signature = self.key.sign(portion);
        data.signature.value = Bytes::copy_from_slice(signature.to_der().as_bytes());
    }

    /// The key's self-signed certificate, version `version_ms` (ms since 1970), valid from
    /// `now_s` (s since 1970) for 20 years.
    pub fn certificate(&self, version_ms: u64, now_s: i64) -> Data {
        let mut version = Vec::new();
        write_nonneg(&mut version, version_ms);
        let name = self.name.append(GENERIC, b"self").append(VERSION, &version);
        let mut cert = Data::new(name, self.public_key_der().into());
        cert.content_type = Some(CONTENT_TYPE_KEY);
        cert.freshness_period = Some(CERTIFICATE_FRESHNESS);
        let mut validity = Vec::new();
        write_tlv(&mut validity, NOT_BEFORE, ndn_time(now_s).as_bytes());
        write_tlv(&mut validity, NOT_AFTER, ndn_time(now_s.saturating_add(VALIDITY_SECS)).as_bytes());
        let mut info = self.key_locator();
        write_tlv(&mut info, VALIDITY_PERIOD, &validity);
        self.sign_with_info(&mut cert, info);
        cert
    }
}

/// Whether `name` is `<identity>/KEY/<key-id>`: its last but one component is KEY.
fn is_key_name(name: &Name) -> bool {
    name.len() >= 2 && name.get(name.len() - 2).is_some_and(|c| c.typ == GENERIC && c.value == b"KEY")
}

fn public_key_der(key: &VerifyingKey) -> Vec<u8> {
    key.to_public_key_der().expect("a P-256 public key encodes").as_bytes().to_vec()
}

/// `s` seconds since 1970 as a certificate's time, "YYYYMMDDThhmmss" in UTC (the ISO 8601 basic
/// form NDN certificates use).
fn ndn_time(s: i64) -> String {
    let format = time::macros::format_description!("[year][month][day]T[hour][minute][second]");
    let at = time::OffsetDateTime::from_unix_timestamp(s).unwrap_or(time::OffsetDateTime::UNIX_EPOCH);
    at.format(&format).unwrap_or_default()
}

/// Whether the Data in `wire` carries a SignatureSha256WithEcdsa signature that the public key
/// `spki_der` (SubjectPublicKeyInfo DER) verifies over its signed portion.
pub fn verify_ecdsa(wire: &[u8], spki_der: &[u8]) -> bool {
    let (Ok(data), Some(portion)) = (Data::decode(wire), signed_portion(wire)) else { return false };
    let (Ok(key), Ok(signature)) =
        (VerifyingKey::from_public_key_der(spki_der), Signature::from_der(&data.signature.value))
    else {
        return false;
    };
    data.signature.sig_type == SIGNATURE_SHA256_WITH_ECDSA && key.verify(portion, &signature).is_ok()
}

#[cfg(test)]
#[path = "ecdsa_tests.rs"]
mod tests;
