//! Names: URI parsing and escapes, component encodings, prefix hashes and canonical order.

use super::*;

#[test]
fn uri_round_trip_with_typed_components() {
    let n = Name::parse("/video/a/seg=3").unwrap();
    assert_eq!(n.len(), 3);
    assert_eq!(n.to_string(), "/video/a/seg=3");
    assert_eq!(n.last().unwrap().as_segment(), Some(3));
    // GenericNameComponent "video" = 08 05 'video'; segment 3 = 32 01 03.
    assert_eq!(&n.component_wire()[..7], b"\x08\x05video");
    assert_eq!(&n.component_wire()[10..], &[0x32, 0x01, 0x03]);
    assert_eq!(n.wire_size(), 2 + 7 + 3 + 3);
}

#[test]
fn escapes_and_numeric_types() {
    let n = Name::parse("/a%20b/9=x/...").unwrap();
    assert_eq!(n.get(0).unwrap().value, b"a b");
    assert_eq!(n.get(1).unwrap().typ, 9);
    assert_eq!(n.get(2).unwrap().value, b"");
    assert_eq!(n.to_string(), "/a%20b/9=x/...");
    assert!(Name::parse("video").is_err());
    assert!(Name::parse("/a/seg=x").is_err());
    assert!(Name::parse("/a/%zz").is_err());
}

#[test]
fn prefixes_share_hashes_with_their_own_names() {
    let n = Name::parse("/video/a/seg=3").unwrap();
    let p = Name::parse("/video/a").unwrap();
    assert!(p.is_prefix_of(&n));
    assert!(!n.is_prefix_of(&p));
    assert_eq!(n.prefix(2), p);
    assert_eq!(n.prefix_hash(2), p.hash64());
    assert_eq!(n.prefix_hash(0), Name::root().hash64());
    assert_eq!(p.append_segment(3), n);
    // Names made from other names reuse their prefix hashes; they must equal a fresh parse's.
    let (appended, cut) = (p.append_segment(3), n.prefix(2));
    for len in 0..=3 {
        assert_eq!(appended.prefix_hash(len), n.prefix_hash(len), "append, prefix of {len}");
    }
    for len in 0..=2 {
        assert_eq!(cut.prefix_hash(len), p.prefix_hash(len), "prefix, prefix of {len}");
    }
}

#[test]
fn prefix_wire_is_the_encoding_of_the_prefix() {
    let n = Name::parse("/video/a/seg=3").unwrap();
    for len in 0..=5 {
        assert_eq!(n.prefix_wire(len), n.prefix(len).component_wire(), "prefix of {len}");
    }
    assert_eq!(Name::root().prefix_wire(1), b"");
}

#[test]
fn segment_components_take_the_shortest_nonneg_encoding() {
    let p = Name::parse("/a").unwrap();
    // value bytes: 1 for 0..=255, 2 up to 65535, 4 up to 2^32 - 1, else 8
    for (seg, value_len) in [(0u64, 1), (255, 1), (256, 2), (65_535, 2), (65_536, 4), (1 << 32, 8), (u64::MAX, 8)] {
        let n = p.append_segment(seg);
        assert_eq!(n, Name::parse(&format!("/a/seg={seg}")).unwrap(), "seg={seg}");
        assert_eq!(n.component_wire().len(), 3 + 2 + value_len, "seg={seg}");
        assert_eq!(n.last().and_then(|c| c.as_segment()), Some(seg));
        assert_eq!(n.hash64(), Name::parse(&format!("/a/seg={seg}")).unwrap().hash64());
    }
}

#[test]
fn version_components_are_type_54_with_a_nonneg_value() {
    let p = Name::parse("/a").unwrap();
    // 1.7e12 ms (November 2023) needs 6 bytes, so takes 8: 36 08 00 00 01 8b cf e5 68 00.
    let n = p.append_version(1_700_000_000_000);
    assert_eq!(&n.component_wire()[3..], b"\x36\x08\x00\x00\x01\x8b\xcf\xe5\x68\x00");
    assert_eq!(n, Name::parse("/a/v=1700000000000").unwrap());
    assert_eq!(n.last().and_then(|c| c.as_version()), Some(1_700_000_000_000));
    assert_eq!(n.last().and_then(|c| c.as_segment()), None, "a version is no segment");
    assert_eq!(p.append_segment(5).last().and_then(|c| c.as_version()), None);
}

#[test]
fn long_names_are_laid_out_like_short_ones() {
    // 40 components of 13 bytes (2 + 11): a 520-byte wire, past the builder's 192-byte stack buffer.
    let uri: String = (0..40).map(|i| format!("/component{i:02}")).collect();
    let n = Name::parse(&uri).unwrap();
    assert_eq!((n.len(), n.component_wire().len()), (40, 520));
    assert_eq!(n.get(39).unwrap().value, b"component39");
    let p = n.prefix(39);
    assert_eq!(p.to_string(), uri[..uri.len() - "/component39".len()]);
    assert_eq!(p.append(component_type::GENERIC, b"component39"), n);
    for len in 0..=40 {
        assert_eq!(n.prefix(len).hash64(), n.prefix_hash(len), "prefix of {len}");
    }
}

#[test]
fn canonical_order_is_type_then_length_then_value() {
    let a = Name::parse("/a/b").unwrap();
    let b = Name::parse("/a/aa").unwrap();
    let c = Name::parse("/a").unwrap();
    assert!(c < a && a < b);
}

#[test]
fn a_component_written_longer_than_it_needs_is_the_same_component() {
    // "a" as 08 01 61; the same with a 3-octet length (FD 0001) and with a 3-octet type (FD 0008):
    // NDN's variable-length numbers allow the longer forms, and they name the same component.
    let canonical = Name::parse("/a").unwrap();
    for wire in [&[0x08, 0xFD, 0x00, 0x01, 0x61][..], &[0xFD, 0x00, 0x08, 0x01, 0x61][..]] {
        let name = Name::from_component_wire(wire).unwrap();
        assert_eq!(name, canonical);
        assert_eq!(name.to_string(), "/a");
    }
}

#[test]
fn typed_components_of_dots_or_empty_survive_display_and_parse() {
    // Type 50 with an empty value displays as "50=...", with "." as "50=....": parsing the display
    // gives the same name back (it used to read "..." literally as three dots).
    for value in [&b""[..], b".", b"..", b"...", b"a.b"] {
        let mut wire = Vec::new();
        crate::packet::tlv::write_tlv(&mut wire, 50, value);
        let name = Name::from_component_wire(&wire).unwrap();
        assert_eq!(Name::parse(&name.to_string()).unwrap(), name, "{name}");
    }
    assert_eq!(Name::from_component_wire(&[0x32, 0x00]).unwrap().to_string(), "/50=...");
}
