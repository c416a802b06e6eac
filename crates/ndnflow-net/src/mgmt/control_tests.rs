use super::*;
use sha2::{Digest, Sha256};

fn name(s: &str) -> Name {
    Name::parse(s).unwrap()
}

#[test]
fn register_parameters_encode_as_nfd_writes_them() {
    let p = ControlParameters { name: Some(name("/p")), face_id: Some(3), cost: Some(10), ..Default::default() };
    // Name 07 03 (08 01 'p'), FaceId 69 01 03, Cost 6a 01 0a: 5 + 3 + 3 = 11 bytes of value.
    let wire = [0x68, 11, 0x07, 3, 0x08, 1, b'p', 0x69, 1, 3, 0x6a, 1, 10];
    assert_eq!(p.encode(), wire);
    assert_eq!(ControlParameters::decode(&wire).unwrap(), p);
}

#[test]
fn fields_decode_in_any_order_the_first_copy_counting_and_unknown_ones_skipped() {
    // Cost 7 (6a 01 07), an unknown element (90 01 00), Cost 9 again, Strategy { Name /s }
    // (6b 05 07 03 08 01 's'), FaceId 2 as a two-byte number (69 02 00 02).
    let wire = [0x68, 17, 0x6a, 1, 7, 0x90, 1, 0, 0x6a, 1, 9, 0x6b, 5, 0x07, 3, 0x08, 1, b's', 0x69, 2, 0, 2];
    // 3 + 3 + 3 + 7 + 4 = 20 bytes of value.
    let mut wire = wire.to_vec();
    wire[1] = 20;
    assert_eq!(wire.len(), 22);
    let p = ControlParameters::decode(&wire).unwrap();
    assert_eq!(p.cost, Some(7));
    assert_eq!(p.face_id, Some(2));
    assert_eq!(p.strategy, Some(name("/s")));
    assert_eq!(p.name, None);
}

#[test]
fn a_malformed_field_is_an_error_not_a_default() {
    // A Cost of 9 bytes is no NonNegativeInteger.
    let wire = [0x68, 11, 0x6a, 9, 0, 0, 0, 0, 0, 0, 0, 0, 1];
    assert!(ControlParameters::decode(&wire).is_err());
    assert!(ControlParameters::decode(&[0x65, 0]).is_err(), "not a ControlParameters");
}

#[test]
fn a_response_encodes_status_text_and_body() {
    let r = ControlResponse::ok(ControlParameters { cost: Some(0), ..Default::default() });
    // StatusCode 66 01 c8 (200), StatusText 67 02 "OK", body 68 03 (6a 01 00): 3 + 4 + 5 = 12.
    let wire = [0x65, 12, 0x66, 1, 200, 0x67, 2, b'O', b'K', 0x68, 3, 0x6a, 1, 0];
    assert_eq!(r.encode(), wire);
    assert_eq!(ControlResponse::decode(&wire).unwrap(), r);
    let e = ControlResponse::error(404, "no such face");
    assert_eq!(ControlResponse::decode(&e.encode()).unwrap(), e);
}

#[test]
fn a_signed_command_name_carries_its_parameters_and_a_digest_of_what_precedes_it() {
    let p = ControlParameters { name: Some(name("/p")), ..Default::default() };
    let n = signed_command_name("rib", "register", &p, 1_000, 42);
    assert_eq!(n.len(), 9, "localhost nfd rib register params timestamp nonce siginfo sigvalue");
    assert_eq!(n.get(5).unwrap().value, &1_000u64.to_be_bytes());
    // SignatureInfo: 16 03 (1b 01 00), DigestSha256.
    assert_eq!(n.get(7).unwrap().value, &[0x16, 3, 0x1b, 1, 0]);
    let sig = n.get(8).unwrap().value;
    assert_eq!(&sig[..2], &[0x17, 32]);
    assert_eq!(&sig[2..], &Sha256::digest(n.prefix_wire(8))[..]);
    let (module, verb, q) = parse_command(&n).unwrap().unwrap();
    assert_eq!((module.as_str(), verb.as_str(), q), ("rib", "register", p));
}

#[test]
fn only_localhost_nfd_names_are_commands() {
    assert!(parse_command(&name("/localhop/nfd/rib/register")).is_none());
    assert!(parse_command(&name("/localhost/nfd")).is_none(), "no module or verb");
    let (m, v, p) = parse_command(&name("/localhost/nfd/faces/list")).unwrap().unwrap();
    assert_eq!((m.as_str(), v.as_str(), p), ("faces", "list", ControlParameters::default()));
    // A fifth component that is not a ControlParameters TLV.
    assert!(parse_command(&name("/localhost/nfd/rib/register/x")).unwrap().is_err());
}
