//! Unit tests of `ecdsa.rs`: a key read from both PEM forms, the SignatureInfo written out by
//! hand, signatures that verify and fail as they must, and the certificate's fields.

use p256::pkcs8::{EncodePrivateKey, LineEnding};

use super::*;

/// A fixed P-256 private key (scalar 0x0101...01, below the group order) as PKCS#8 PEM.
fn pkcs8() -> String {
    let key = SigningKey::from_bytes(&[1u8; 32].into()).unwrap();
    key.to_pkcs8_pem(LineEnding::LF).unwrap().to_string()
}

fn identity() -> Name {
    Name::parse("/a").unwrap()
}

fn key() -> EcdsaKey {
    EcdsaKey::from_pem(&pkcs8(), &identity(), None).unwrap()
}

fn signed(key: &EcdsaKey) -> Vec<u8> {
    let mut data = Data::new(Name::parse("/a/b").unwrap(), Bytes::from_static(b"hello"));
    key.sign(&mut data);
    data.encode()
}

#[test]
fn the_key_is_named_identity_key_and_eight_bytes_of_its_public_key_hash() {
    let k = key();
    let id = Sha256::digest(k.public_key_der());
    assert_eq!(*k.name(), identity().append(GENERIC, b"KEY").append(GENERIC, &id[..8]));
    // SEC1 PEM of the same key gives the same key and name.
    let sec1 = p256::SecretKey::from_bytes(&[1u8; 32].into()).unwrap().to_sec1_pem(LineEnding::LF).unwrap();
    assert_eq!(EcdsaKey::from_pem(&sec1, &identity(), None).unwrap().name(), k.name());
}

#[test]
fn a_given_key_name_must_end_in_key_and_an_id() {
    let ok = Name::parse("/lab/KEY/k1").unwrap();
    assert_eq!(*EcdsaKey::from_pem(&pkcs8(), &identity(), Some(ok.clone())).unwrap().name(), ok);
    let e = EcdsaKey::from_pem(&pkcs8(), &identity(), Some(Name::parse("/lab/k1").unwrap())).err().unwrap();
    assert_eq!(e.to_string(), "key name /lab/k1: expected <identity>/KEY/<key-id>");
    let e = EcdsaKey::from_pem("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n", &identity(), None);
    assert!(e.err().unwrap().to_string().starts_with("not a P-256 private key in PEM"));
}

#[test]
fn the_signature_info_names_the_key_and_the_value_verifies() {
    let k = key();
    let wire = signed(&k);
    let data = Data::decode(&wire).unwrap();
    // SignatureInfo's value: SignatureType 3 (1b 01 03), then KeyLocator (1c) holding the Name
    // /a/KEY/<8 bytes>: 08 01 'a' (3) + 08 03 "KEY" (5) + 08 08 <id> (10) = 18 bytes, 07 12 + 18 = 20,
    // so 1c 14 + 20 = 22.
    assert_eq!(data.signature.sig_type, SIGNATURE_SHA256_WITH_ECDSA);
    let extra = &data.signature.info_extra;
    assert_eq!(extra.len(), 22);
    assert_eq!(&extra[..7], &[0x1c, 0x14, 0x07, 0x12, 0x08, 0x01, b'a']);
    assert_eq!(&extra[7..12], &[0x08, 0x03, b'K', b'E', b'Y']);
    assert!(verify_ecdsa(&wire, &k.public_key_der()));
    // RFC 6979: the same key and Data sign to the same bytes.
    assert_eq!(signed(&k), wire);
}

#[test]
fn a_changed_byte_or_another_key_does_not_verify() {
    let k = key();
    let mut wire = signed(&k);
    let other = SigningKey::from_bytes(&[2u8; 32].into()).unwrap();
    assert!(!verify_ecdsa(&wire, &public_key_der(other.verifying_key())));
    let at = wire.iter().position(|&b| b == b'h').unwrap();
    wire[at] = b'j';
    assert!(!verify_ecdsa(&wire, &k.public_key_der()));
    // A DigestSha256 Data is not an ECDSA one, whatever its bytes.
    let mut digest = Data::new(Name::parse("/a/b").unwrap(), Bytes::from_static(b"hello"));
    crate::sign::sign_digest_sha256(&mut digest);
    assert!(!verify_ecdsa(&digest.encode(), &k.public_key_der()));
}

#[test]
fn the_certificate_is_a_self_signed_key_data_valid_for_twenty_years() {
    let k = key();
    let cert = k.certificate(1_700_000_000_000, 0);
    let wire = cert.encode();
    assert!(verify_ecdsa(&wire, &k.public_key_der()));
    let back = Data::decode(&wire).unwrap();
    // <key name>/self/v=<version>: two components more than the key's name.
    assert_eq!(back.name.len(), k.name().len() + 2);
    assert!(k.name().is_prefix_of(&back.name));
    assert_eq!(back.name.get(k.name().len()).unwrap().value, b"self");
    let v = back.name.last().unwrap();
    assert_eq!((v.typ, v.as_number()), (VERSION, Some(1_700_000_000_000)));
    assert_eq!(back.content_type, Some(CONTENT_TYPE_KEY));
    assert_eq!(back.freshness_period, Some(Time::from_secs(3600)));
    assert_eq!(back.content[..], k.public_key_der()[..]);
    // From 1970-01-01 00:00:00, 20 x 365 days: the five leap days of 1972-1988 make it end five
    // days short of 1990, on 1989-12-27. Types 253-255 take three bytes (fd and two), so each
    // time is 3 + 1 + 15 = 19 bytes and the ValidityPeriod's value 38 (0x26).
    let extra = &back.signature.info_extra[..];
    let (period, before, after) = ([0xfd, 0x00, 0xfd, 0x26], [0xfd, 0x00, 0xfe, 0x0f], [0xfd, 0x00, 0xff, 0x0f]);
    let validity = [&period[..], &before, b"19700101T000000", &after, b"19891227T000000"].concat();
    assert!(extra.ends_with(&validity), "{extra:02x?}");
}

#[test]
fn a_key_file_that_never_ends_is_refused_at_the_ceiling() {
    // `serve --key /dev/zero` and `get --verify /dev/zero` read until the machine ran out of
    // memory until 2026-11-28.
    let e = EcdsaKey::load(std::path::Path::new("/dev/zero"), &identity(), None).err().unwrap().0;
    assert_eq!(e, "cannot read /dev/zero: it holds more than 1048576 bytes, the most read");
    let e = crate::app::verify::Verifier::parse("/dev/zero").err().unwrap().to_string();
    assert!(e.starts_with("--verify /dev/zero: cannot read it: it holds more than 1048576 bytes"), "{e}");
}
