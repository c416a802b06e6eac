//! TLV codec tests: hand-derived byte vectors and decoder strictness rules. The property tests
//! (round trips, `wire_size == encode().len()`, never a panic on malformed input) are in
//! codec_props.rs.
//!
//! Cross-checks against python-ndn live in tests/test_codec.py.

use std::sync::Arc;

use bytes::Bytes;
use smallvec::SmallVec;

use ndnflow_core::packet::data::{Signature, SIGNATURE_DIGEST_SHA256};
use ndnflow_core::packet::lp::{self, decode_frame, decode_link_packet, flags, LinkPacket, LpExtensions, LpHeader};
use ndnflow_core::packet::tlv::{self, DecodeError};
use ndnflow_core::packet::PrefixAnnouncement;
use ndnflow_core::{Data, Frame, Interest, Nack, NackReason, Name, NetPacket, Time};

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect::<Vec<_>>().join(" ")
}

fn assert_bytes(actual: &[u8], expected: &[u8]) {
    assert_eq!(hex(actual), hex(expected));
}

/// The Interest used by most byte-level tests: /video/a/seg=3, nonce 0x12345678, lifetime 2000 ms.
fn video_interest() -> Interest {
    Interest::new(Name::parse("/video/a/seg=3").unwrap(), 0x1234_5678, Time::from_millis(2000))
}

#[rustfmt::skip]
const VIDEO_INTEREST_WIRE: [u8; 27] = [
    0x05, 0x19,                         // Interest, length 25 = 15 (Name) + 6 (Nonce) + 4 (Lifetime)
    0x07, 0x0D,                         //   Name, length 13 = 7 + 3 + 3
    0x08, 0x05, b'v', b'i', b'd', b'e', b'o', // GenericNameComponent "video"
    0x08, 0x01, b'a',                   //     GenericNameComponent "a"
    0x32, 0x01, 0x03,                   //     SegmentNameComponent (50), NonNegativeInteger 3
    0x0A, 0x04, 0x12, 0x34, 0x56, 0x78, //   Nonce (10), 4 octets, big-endian
    0x0C, 0x02, 0x07, 0xD0,             //   InterestLifetime (12), 2000 = 0x07D0 (shortest: 2 octets)
];

/// /video/a/seg=3 Data: content "hi", FreshnessPeriod 1000 ms, FinalBlockId seg=9, DigestSha256
/// with a zero value.
fn video_data() -> Data {
    let mut d = Data::new(Name::parse("/video/a/seg=3").unwrap(), Bytes::from_static(b"hi"));
    d.freshness_period = Some(Time::from_millis(1000));
    d.final_block_id = Some((50, Bytes::from_static(&[9])));
    d
}

fn video_data_wire() -> Vec<u8> {
    #[rustfmt::skip]
    let head: [u8; 39] = [
        0x06, 0x45,                     // Data, length 69 = 15 + 11 + 4 + 5 + 34
        0x07, 0x0D,                     //   Name (same 13-byte value as the Interest's)
        0x08, 0x05, b'v', b'i', b'd', b'e', b'o',
        0x08, 0x01, b'a',
        0x32, 0x01, 0x03,
        0x14, 0x09,                     //   MetaInfo (20), length 9 = 4 + 5; no ContentType (None)
        0x19, 0x02, 0x03, 0xE8,         //     FreshnessPeriod (25), 1000 = 0x03E8
        0x1A, 0x03, 0x32, 0x01, 0x09,   //     FinalBlockId (26) { SegmentNameComponent 9 }
        0x15, 0x02, b'h', b'i',         //   Content (21), "hi"
        0x16, 0x03, 0x1B, 0x01, 0x00,   //   SignatureInfo (22) { SignatureType (27) = 0, DigestSha256 }
        0x17, 0x20,                     //   SignatureValue (23), 32 octets (zeros, not computed)
    ];
    let mut wire = head.to_vec();
    wire.extend_from_slice(&[0u8; 32]);
    wire
}

/// A hand-made Interest value wrapped in its TL, for the strictness tests.
fn interest_with(value: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    tlv::write_tlv(&mut out, 5, value);
    out
}

/// Name /a as an Interest element prefix.
const NAME_A: [u8; 5] = [0x07, 0x03, 0x08, 0x01, b'a'];

fn concat(parts: &[&[u8]]) -> Vec<u8> {
    parts.iter().flat_map(|p| p.iter().copied()).collect()
}

// ---------------------------------------------------------------------------------------------
// Byte-level vectors
// ---------------------------------------------------------------------------------------------

#[test]
fn interest_video_seg3_bytes() {
    let i = video_interest();
    assert_bytes(&i.encode(), &VIDEO_INTEREST_WIRE);
    assert_eq!(i.wire_size(), 27);
    assert_eq!(Interest::decode(&VIDEO_INTEREST_WIRE).unwrap(), i);
}

#[test]
fn interest_with_every_field_bytes() {
    let mut i = Interest::new(Name::parse("/a/seg=300").unwrap(), 1, Time::from_millis(4000));
    i.can_be_prefix = true;
    i.must_be_fresh = true;
    i.hop_limit = Some(64);
    i.app_parameters = Some(Bytes::from_static(&[0xAA]));
    #[rustfmt::skip]
    let expected = [
        0x05, 0x1D,                         // Interest, length 29 = 9 + 2 + 2 + 6 + 4 + 3 + 3
        0x07, 0x07,                         //   Name, length 7
        0x08, 0x01, b'a',                   //     "a"
        0x32, 0x02, 0x01, 0x2C,             //     seg=300: 300 = 0x012C needs 2 octets
        0x21, 0x00,                         //   CanBePrefix (33), empty
        0x12, 0x00,                         //   MustBeFresh (18), empty
        0x0A, 0x04, 0x00, 0x00, 0x00, 0x01, //   Nonce 1
        0x0C, 0x02, 0x0F, 0xA0,             //   InterestLifetime 4000 = 0x0FA0
        0x22, 0x01, 0x40,                   //   HopLimit (34), exactly 1 octet: 64
        0x24, 0x01, 0xAA,                   //   ApplicationParameters (36)
    ];
    assert_bytes(&i.encode(), &expected);
    assert_eq!(i.wire_size(), expected.len());
    assert_eq!(Interest::decode(&expected).unwrap(), i);
}

#[test]
fn data_video_seg3_bytes() {
    let d = video_data();
    let wire = video_data_wire();
    assert_bytes(&d.encode(), &wire);
    assert_eq!(d.wire_size(), 71);
    assert_eq!(Data::decode(&wire).unwrap(), d);
    assert_eq!(Data::decode(&wire).unwrap().final_segment(), Some(9));
}

#[test]
fn a_freshness_period_past_time_s_range_goes_on_as_it_came() {
    // The video Data with FreshnessPeriod 2^64 - 1 ms ("forever"): the 2-octet value 03 E8
    // becomes 8 octets FF..FF, so MetaInfo grows from 9 to 15 and the Data from 69 to 75.
    // Such a Data was dropped as malformed until 2026-11-28 (ndn-cxx keeps any u64).
    let mut wire = video_data_wire();
    wire.splice(17..23, [0x14, 0x0F, 0x19, 0x08].into_iter().chain([0xFF; 8]));
    wire[1] = 0x4B;
    let d = Data::decode(&wire).unwrap();
    assert_eq!(d.freshness_period, Some(Time::MAX));
    assert_eq!(d.freshness_ms(), Some(u64::MAX));
    assert_eq!(d.encode(), wire);
    assert_eq!(d.wire_size(), wire.len());
}

#[test]
fn data_without_meta_info_has_empty_content_and_no_meta_info() {
    let d = Data::new(Name::parse("/x").unwrap(), Bytes::new());
    let mut expected = vec![
        0x06, 0x2E, // Data, length 46 = 5 + 2 + 5 + 34
        0x07, 0x03, 0x08, 0x01, b'x', // Name /x
        0x15, 0x00, // Content, always present, here empty
        0x16, 0x03, 0x1B, 0x01, 0x00, // SignatureInfo { DigestSha256 }
        0x17, 0x20, // SignatureValue, 32 octets
    ];
    expected.extend_from_slice(&[0; 32]);
    assert_bytes(&d.encode(), &expected);
    assert_eq!(Data::decode(&expected).unwrap(), d);
}

#[test]
fn bare_frames_are_the_network_packet() {
    let f = Frame::interest(Arc::new(video_interest()));
    assert_bytes(&f.encode(), &VIDEO_INTEREST_WIRE);
    assert_eq!(decode_frame(&VIDEO_INTEREST_WIRE).unwrap(), f);
    let f = Frame::data(Arc::new(video_data()));
    assert_bytes(&f.encode(), &video_data_wire());
    assert_eq!(f.wire_size() as usize, video_data_wire().len());
}

#[test]
fn nack_frame_bytes() {
    let nack = Nack { reason: NackReason::Congestion, interest: Arc::new(video_interest()) };
    let f = Frame::nack(Arc::new(nack));
    #[rustfmt::skip]
    let head = [
        0x64, 0x26,                         // LpPacket (100), length 38 = 9 + 29
        0xFD, 0x03, 0x20, 0x05,             //   Nack (800 = 0x0320, 3-octet type), length 5
        0xFD, 0x03, 0x21, 0x01, 0x32,       //     NackReason (801) = 50, Congestion
        0x50, 0x1B,                         //   Fragment (80), length 27: the Interest, last
    ];
    let expected = concat(&[&head, &VIDEO_INTEREST_WIRE]);
    assert_bytes(&f.encode(), &expected);
    assert_eq!(f.wire_size() as usize, expected.len());
    assert_eq!(decode_frame(&expected).unwrap(), f);
}

#[test]
fn nack_reason_none_is_an_empty_nack_and_absent_reason_decodes_as_none() {
    let nack = Nack { reason: NackReason::None, interest: Arc::new(video_interest()) };
    let f = Frame::nack(Arc::new(nack));
    let head = [0x64, 0x21, 0xFD, 0x03, 0x20, 0x00, 0x50, 0x1B]; // LpPacket 33 = 4 + 29; Nack, length 0
    let expected = concat(&[&head, &VIDEO_INTEREST_WIRE]);
    assert_bytes(&f.encode(), &expected);
    let back = decode_frame(&expected).unwrap();
    assert!(matches!(&back.packet, NetPacket::Nack(n) if n.reason == NackReason::None));
    // An unknown reason code also reads as None (ndn-cxx behaviour).
    #[rustfmt::skip]
    let head = [
        0x64, 0x26,                         // LpPacket, length 38 = 9 + 29
        0xFD, 0x03, 0x20, 0x05,             //   Nack, length 5
        0xFD, 0x03, 0x21, 0x01, 0x07,       //     NackReason 7: not a known code
        0x50, 0x1B,                         //   Fragment
    ];
    let back = decode_frame(&concat(&[&head, &VIDEO_INTEREST_WIRE])).unwrap();
    assert!(matches!(&back.packet, NetPacket::Nack(n) if n.reason == NackReason::None), "{back:?}");
}

#[test]
fn congestion_mark_frame_bytes() {
    let mut f = Frame::data(Arc::new(video_data()));
    f.lp.congestion_mark = 1;
    let head = [
        0x64, 0x4E, // LpPacket, length 78 = 5 + 73
        0xFD, 0x03, 0x40, 0x01, 0x01, // CongestionMark (832 = 0x0340) = 1
        0x50, 0x47, // Fragment, length 71: the Data
    ];
    let expected = concat(&[&head, &video_data_wire()]);
    assert_bytes(&f.encode(), &expected);
    assert_eq!(f.wire_size() as usize, expected.len());
    assert_eq!(decode_frame(&expected).unwrap(), f);
}

#[test]
fn every_header_field_in_increasing_type_order_then_fragment() {
    let mut f = Frame::interest(Arc::new(video_interest()));
    f.lp = LpHeader {
        congestion_mark: 1,
        hop_count: Some(3),
        flags: flags::FROM_CACHE | flags::HIGH_CONG,
        ext: Some(Box::new(LpExtensions {
            sequence: None,
            tx_sequence: Some(5),
            acks: SmallVec::from_slice(&[7]),
            path_id: Some(0x0102_0304_0506_0708),
            trajectory_id: Some(9),
            tags: SmallVec::from_slice(&[1, 300]),
            mircc_rate: Some(30_000_000),
            mircc_rate2: Some(0),
            non_discovery: true,
            prefix_announcement: Some(PrefixAnnouncement {
                prefix: Name::parse("/p").unwrap(),
                expiration: Time::from_secs(3600),
            }),
        })),
    };
    #[rustfmt::skip]
    let head = [
        0x64, 0x96,                                     // LpPacket, length 150
        0xFD, 0x03, 0x40, 0x01, 0x01,                   //   CongestionMark (832) = 1
        0xFD, 0x03, 0x44, 0x08, 0, 0, 0, 0, 0, 0, 0, 7, //   Ack (836), fixed 8 octets
        0xFD, 0x03, 0x48, 0x08, 0, 0, 0, 0, 0, 0, 0, 5, //   TxSequence (840), fixed 8 octets
        0xFD, 0x03, 0x4C, 0x00,                         //   NonDiscovery (844 = 0x34C), empty
        0xFD, 0x03, 0x50, 0x0B,                         //   PrefixAnnouncement (848 = 0x350), length 11
        0x07, 0x03, 0x08, 0x01, b'p',                   //     Name /p
        0x6D, 0x04, 0x00, 0x36, 0xEE, 0x80,             //     ExpirationPeriod (109) = 3,600,000 ms
        0xFD, 0x03, 0x58, 0x01, 0x03,                   //   HopCount (856 = 0x358) = 3
        0xFD, 0x03, 0x5C, 0x08, 1, 2, 3, 4, 5, 6, 7, 8, //   PathId (860 = 0x35C), fixed 8 octets
        0xFD, 0x03, 0x60, 0x08, 0, 0, 0, 0, 0, 0, 0, 9, //   TrajectoryId (864 = 0x360), fixed 8 octets
        0xFD, 0x03, 0x64, 0x0B,                         //   TagStack (868 = 0x364), length 11
        0xFD, 0x03, 0x68, 0x01, 0x01,                   //     Tag (872 = 0x368) = 1 (bottom)
        0xFD, 0x03, 0x68, 0x02, 0x01, 0x2C,             //     Tag = 300 (top)
        0xFD, 0x03, 0x6C, 0x01, 0x05,                   //   Flags (876 = 0x36C) = FROM_CACHE|HIGH_CONG
        0xFD, 0x03, 0x70, 0x08, 0, 0, 0, 0, 0x01, 0xC9, 0xC3, 0x80, // MirccRate (880): 30,000,000
        0xFD, 0x03, 0x74, 0x08, 0, 0, 0, 0, 0, 0, 0, 0, //   MirccRate2 (884) = 0, fixed 8 octets
        0x50, 0x1B,                                     //   Fragment, length 27
    ];
    let expected = concat(&[&head, &VIDEO_INTEREST_WIRE]);
    assert_bytes(&f.encode(), &expected);
    assert_eq!(f.wire_size() as usize, expected.len());
    assert_eq!(decode_frame(&expected).unwrap(), f);
}

// ---------------------------------------------------------------------------------------------
// Decoder strictness
// ---------------------------------------------------------------------------------------------

#[test]
fn interest_unknown_critical_is_an_error_and_non_critical_is_skipped() {
    let nonce = [0x0A, 0x04, 1, 2, 3, 4];
    // Type 40 (even, > 31): non-critical, skipped.
    let ok = interest_with(&concat(&[&NAME_A, &nonce, &[40, 1, 0xFF]]));
    assert_eq!(Interest::decode(&ok).unwrap().nonce, Some(0x0102_0304));
    // Type 41 (odd): critical.
    let bad = interest_with(&concat(&[&NAME_A, &nonce, &[41, 0]]));
    assert_eq!(Interest::decode(&bad), Err(DecodeError::UnknownCritical { at: 13, typ: 41 }));
    // Type 9 (<= 31, old Selectors): critical.
    let bad = interest_with(&concat(&[&NAME_A, &[9, 0]]));
    assert!(matches!(Interest::decode(&bad), Err(DecodeError::UnknownCritical { typ: 9, .. })));
}

#[test]
fn interest_out_of_order_elements_are_rejected_like_ndn_cxx() {
    let nonce = [0x0A, 0x04, 1, 2, 3, 4];
    let lifetime = [0x0C, 0x01, 10];
    // Lifetime before Nonce.
    let bad = interest_with(&concat(&[&NAME_A, &lifetime, &nonce]));
    assert!(matches!(Interest::decode(&bad), Err(DecodeError::Invalid { what: "Nonce", .. })));
    // MustBeFresh before CanBePrefix.
    let bad = interest_with(&concat(&[&NAME_A, &[0x12, 0], &[0x21, 0]]));
    assert!(matches!(Interest::decode(&bad), Err(DecodeError::Invalid { what: "CanBePrefix", .. })));
    // Repeated Nonce.
    let bad = interest_with(&concat(&[&NAME_A, &nonce, &nonce]));
    assert!(Interest::decode(&bad).is_err());
    // Name not first.
    let bad = interest_with(&concat(&[&nonce, &NAME_A]));
    assert!(matches!(Interest::decode(&bad), Err(DecodeError::UnexpectedType { expected: "Name", .. })));
    // Misplaced non-critical HopLimit is ignored, as ndn-cxx does: the first one counts.
    let ok = interest_with(&concat(&[&NAME_A, &[0x22, 1, 5], &[0x24, 0], &[0x22, 1, 9]]));
    assert_eq!(Interest::decode(&ok).unwrap().hop_limit, Some(5));
}

#[test]
fn interest_field_lengths_are_checked() {
    let bad = interest_with(&concat(&[&NAME_A, &[0x0A, 3, 1, 2, 3]]));
    assert!(matches!(Interest::decode(&bad), Err(DecodeError::BadLength { what: "Nonce", len: 3, .. })));
    let bad = interest_with(&concat(&[&NAME_A, &[0x22, 2, 1, 2]]));
    assert!(matches!(Interest::decode(&bad), Err(DecodeError::BadLength { what: "HopLimit", .. })));
    let bad = interest_with(&concat(&[&NAME_A, &[0x21, 1, 0]]));
    assert!(matches!(Interest::decode(&bad), Err(DecodeError::BadLength { what: "CanBePrefix", .. })));
    let bad = interest_with(&concat(&[&NAME_A, &[0x0C, 3, 1, 2, 3]]));
    assert!(matches!(Interest::decode(&bad), Err(DecodeError::BadLength { .. })));
    // Empty name.
    let bad = interest_with(&[0x07, 0x00]);
    assert!(matches!(Interest::decode(&bad), Err(DecodeError::Invalid { what: "Interest Name", .. })));
    // Trailing bytes after the Interest.
    let mut bad = VIDEO_INTEREST_WIRE.to_vec();
    bad.push(0);
    assert_eq!(Interest::decode(&bad), Err(DecodeError::Trailing(1)));
    // A lifetime that does not fit in u64 nanoseconds is rejected rather than wrapped.
    let bad = interest_with(&concat(&[&NAME_A, &[0x0C, 8, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]]));
    assert!(matches!(Interest::decode(&bad), Err(DecodeError::Invalid { what: "InterestLifetime", .. })));
}

#[test]
fn interest_forwarding_hint_is_validated_then_dropped() {
    let hint = [0x1E, 0x05, 0x07, 0x03, 0x08, 0x01, b'h'];
    let ok = interest_with(&concat(&[&NAME_A, &hint, &[0x0A, 4, 0, 0, 0, 1]]));
    assert_eq!(Interest::decode(&ok).unwrap().nonce, Some(1));
    // A critical unknown element inside ForwardingHint is still an error.
    let bad_hint = [0x1E, 0x02, 0x03, 0x00];
    let bad = interest_with(&concat(&[&NAME_A, &bad_hint]));
    assert!(matches!(Interest::decode(&bad), Err(DecodeError::UnknownCritical { typ: 3, .. })));
}

#[test]
fn interest_signature_elements_are_skipped_but_must_follow_parameters() {
    let ok = interest_with(&concat(&[&NAME_A, &[0x24, 1, 7], &[0x2C, 3, 0x1B, 1, 0], &[0x2E, 1, 0]]));
    assert_eq!(Interest::decode(&ok).unwrap().app_parameters.as_deref(), Some(&[7u8][..]));
    let bad = interest_with(&concat(&[&NAME_A, &[0x2C, 3, 0x1B, 1, 0]]));
    assert!(matches!(Interest::decode(&bad), Err(DecodeError::Invalid { what: "InterestSignatureInfo", .. })));
}

#[test]
fn data_requires_signature_and_order() {
    let name = [0x07, 0x00];
    let content = [0x15, 0x01, 0x41];
    let sig_info = [0x16, 0x03, 0x1B, 0x01, 0x00];
    let sig_value = [0x17, 0x00];
    let data = |parts: &[&[u8]]| {
        let mut out = Vec::new();
        tlv::write_tlv(&mut out, 6, &concat(parts));
        out
    };
    let ok = Data::decode(&data(&[&name, &content, &sig_info, &sig_value])).unwrap();
    assert_eq!(&ok.content[..], b"A");
    assert!(ok.name.is_empty(), "Data may have an empty name (ndn-cxx allows it)");
    // Absent Content decodes as empty content.
    assert!(Data::decode(&data(&[&name, &sig_info, &sig_value])).unwrap().content.is_empty());
    assert_eq!(Data::decode(&data(&[&name, &content])), Err(DecodeError::Missing("SignatureInfo")));
    assert_eq!(Data::decode(&data(&[&name, &content, &sig_info])), Err(DecodeError::Missing("SignatureValue")));
    assert!(Data::decode(&data(&[&name, &sig_info, &content, &sig_value])).is_err());
    assert!(Data::decode(&data(&[&name, &content, &content, &sig_info, &sig_value])).is_err());
    // Unknown non-critical element skipped, critical rejected.
    assert!(Data::decode(&data(&[&name, &content, &[0xFD, 0x01, 0x00, 0x00], &sig_info, &sig_value])).is_ok());
    assert!(matches!(
        Data::decode(&data(&[&name, &content, &[0x0B, 0x00], &sig_info, &sig_value])),
        Err(DecodeError::UnknownCritical { typ: 11, .. })
    ));
    // SignatureInfo extras (KeyLocator { KeyDigest }) are kept verbatim.
    let sig_info_kl = [0x16, 0x09, 0x1B, 0x01, 0x03, 0x1C, 0x04, 0x1D, 0x02, 0xAB, 0xCD];
    let d = Data::decode(&data(&[&name, &content, &sig_info_kl, &sig_value])).unwrap();
    assert_eq!(d.signature.sig_type, 3);
    assert_eq!(&d.signature.info_extra[..], &[0x1C, 0x04, 0x1D, 0x02, 0xAB, 0xCD]);
    assert_eq!(d.encode(), data(&[&name, &content, &sig_info_kl, &sig_value]));
    // FinalBlockId with two components is invalid.
    let meta = [0x14, 0x08, 0x1A, 0x06, 0x08, 0x01, b'a', 0x08, 0x01, b'b'];
    assert!(Data::decode(&data(&[&name, &meta, &content, &sig_info, &sig_value])).is_err());
}

#[test]
fn lp_field_order_and_ignorable_rule() {
    let frag = concat(&[&[0x50, 0x1B], &VIDEO_INTEREST_WIRE]);
    let lp = |fields: &[&[u8]]| {
        let mut out = Vec::new();
        tlv::write_tlv(&mut out, 100, &concat(&[&concat(fields), &frag]));
        out
    };
    let mark = [0xFD, 0x03, 0x40, 0x01, 0x01];
    let ignorable = [0xFD, 0x03, 0x78, 0x00]; // 888: in 800..=959, low bits 00, unused
    let not_ignorable = [0xFD, 0x03, 0x79, 0x00]; // 889
    let seq = [0x51, 0x08, 0, 0, 0, 0, 0, 0, 0, 1]; // Sequence (81), fixed 8 octets
    let f = decode_frame(&lp(&[&seq, &mark, &ignorable])).unwrap();
    assert_eq!(f.lp.congestion_mark, 1);
    assert_eq!(f.lp.ext.as_deref().and_then(|e| e.sequence), Some(1));
    assert!(matches!(decode_frame(&lp(&[&not_ignorable])), Err(DecodeError::UnknownCritical { typ: 889, .. })));
    // 960 is outside the ignorable range even with low bits 00.
    assert!(decode_frame(&lp(&[&[0xFD, 0x03, 0xC0, 0x00]])).is_err());
    // Out of order: HopCount (856) before CongestionMark (832).
    let hop = [0xFD, 0x03, 0x58, 0x01, 0x02];
    assert!(matches!(decode_frame(&lp(&[&hop, &mark])), Err(DecodeError::Invalid { .. })));
    // Repeated CongestionMark is rejected; repeated Ack is fine.
    assert!(decode_frame(&lp(&[&mark, &mark])).is_err());
    let ack = [0xFD, 0x03, 0x44, 0x08, 0, 0, 0, 0, 0, 0, 0, 1];
    assert_eq!(decode_frame(&lp(&[&ack, &ack])).unwrap().lp.ext.unwrap().acks.len(), 2);
    // Ack must be 8 octets.
    assert!(decode_frame(&lp(&[&[0xFD, 0x03, 0x44, 0x01, 0x01]])).is_err());
    // A header field after Fragment is out of order.
    let mut after = Vec::new();
    tlv::write_tlv(&mut after, 100, &concat(&[&frag, &mark]));
    assert!(decode_frame(&after).is_err());
    // No Fragment: not a frame, but a link may receive it as an IDLE packet.
    let idle = [0x64, 0x05, 0xFD, 0x03, 0x40, 0x01, 0x01];
    assert_eq!(decode_frame(&idle), Err(DecodeError::Missing("Fragment")));
    assert!(matches!(decode_link_packet(&idle), Ok(LinkPacket::Idle(h)) if h.congestion_mark == 1));
    // Fragmented packets cannot be decoded alone; index 0 of 1 is a whole packet.
    assert!(decode_frame(&lp(&[&[0x52, 0x01, 0x01], &[0x53, 0x01, 0x02]])).is_err());
    assert!(decode_frame(&lp(&[&[0x52, 0x01, 0x00], &[0x53, 0x01, 0x01]])).is_ok());
    // A Nack must carry an Interest.
    let mut nack_data = Vec::new();
    let data_frag = concat(&[&[0x50, 0x47], &video_data_wire()]);
    tlv::write_tlv(&mut nack_data, 100, &concat(&[&[0xFD, 0x03, 0x20, 0x00], &data_frag]));
    assert!(matches!(decode_frame(&nack_data), Err(DecodeError::UnexpectedType { .. })));
    // A non-packet outer type.
    assert!(matches!(decode_frame(&[0x07, 0x00]), Err(DecodeError::UnexpectedType { .. })));
}

#[test]
fn decoded_frame_net_size_is_the_network_packet_size() {
    let mut f = Frame::data(Arc::new(video_data()));
    f.lp.hop_count = Some(2);
    let back = decode_frame(&f.encode()).unwrap();
    assert_eq!(back.net_size as usize, video_data_wire().len());
    // A non-minimal NonNegativeInteger (lifetime 2000 in 4 octets) is accepted and normalised.
    let wire = interest_with(&concat(&[&NAME_A, &[0x0C, 0x04, 0, 0, 0x07, 0xD0]]));
    let back = decode_frame(&wire).unwrap();
    assert_eq!(back.net_size as usize, wire.len() - 2);
    assert_eq!(back.wire_size() as usize, back.encode().len());
}

#[test]
fn worked_size_examples_for_the_docs() {
    // docs/wire-format.md quotes these numbers; keep them in sync.
    let seg = |n: u64| Interest::new(Name::parse("/video/a").unwrap().append_segment(n), 1, Time::from_millis(2000));
    assert_eq!(seg(3).wire_size(), 27);
    assert_eq!(seg(300).wire_size(), 28);
    assert_eq!(seg(70_000).wire_size(), 30);
    // 1024-byte payload: Name 15 + Content (1 + 3 + 1024) + SignatureInfo 5 + SignatureValue 34 = 1082,
    // and a value of 1082 bytes needs a 3-octet length: 1 + 3 + 1082.
    let data = Data::new(Name::parse("/video/a/seg=3").unwrap(), ndnflow_core::packet::data::zero_payload(1024));
    assert_eq!(data.wire_size(), 1086);
    let mut fresh = data.clone();
    fresh.freshness_period = Some(Time::from_millis(4000));
    fresh.final_block_id = Some((50, Bytes::from_static(&[99])));
    assert_eq!(fresh.wire_size(), 1086 + 11); // MetaInfo { Freshness 4, FinalBlockId 5 } = 2 + 9
    let nack = Frame::nack(Arc::new(Nack { reason: NackReason::Congestion, interest: Arc::new(seg(3)) }));
    assert_eq!(nack.wire_size(), 40);
    let mut marked = Frame::data(Arc::new(data.clone()));
    marked.lp.congestion_mark = 1;
    // LpPacket TL (1 + 3) + CongestionMark 5 + Fragment TL (1 + 3) + Data.
    assert_eq!(marked.wire_size(), 4 + 5 + 4 + 1086);
    let mut smic = Frame::interest(Arc::new(seg(3)));
    smic.lp.ext_mut().path_id = Some(0xABCD);
    assert_eq!(smic.wire_size(), 2 + 12 + 2 + 27);
    let mut ptp = Frame::data(Arc::new(data));
    ptp.lp.ext_mut().tags = SmallVec::from_slice(&[4, 17]);
    ptp.lp.flags = flags::FROM_CACHE;
    // TagStack 4 + 2 x Tag 5, Flags 5.
    assert_eq!(ptp.wire_size(), 4 + 14 + 5 + 4 + 1086);
    assert_eq!(lp::nack_field_size(NackReason::None), 4);
}

#[test]
fn digest_placeholder_is_digest_sha256() {
    assert_eq!(Signature::digest_placeholder().sig_type, SIGNATURE_DIGEST_SHA256);
}

#[test]
fn idle_packet_with_two_acks_is_26_bytes() {
    // LpPacket (1 + 1) { Ack (3 + 1 + 8) x 2 } = 2 + 24 = 26 bytes, no Fragment.
    let mut lp = LpHeader::default();
    lp.ext_mut().acks = SmallVec::from_slice(&[3, 0x0102]);
    assert_eq!(lp::idle_packet_size(&lp), 26);
    let mut wire = Vec::new();
    lp::encode_idle_packet(&lp, &mut wire);
    #[rustfmt::skip]
    let expected = [
        0x64, 0x18,
        0xFD, 0x03, 0x44, 0x08, 0, 0, 0, 0, 0, 0, 0, 3,
        0xFD, 0x03, 0x44, 0x08, 0, 0, 0, 0, 0, 0, 0x01, 0x02,
    ];
    assert_eq!(wire, expected);
    assert_eq!(decode_link_packet(&wire), Ok(LinkPacket::Idle(lp)));
}

#[test]
fn sequence_is_written_before_the_nack_field() {
    // Sequence (81) sorts before Nack (800) in ndn-cxx's order; a frame with both round-trips.
    let nack = Nack { reason: NackReason::Congestion, interest: Arc::new(video_interest()) };
    let mut f = Frame::nack(Arc::new(nack));
    f.lp.ext_mut().sequence = Some(9);
    let wire = f.encode();
    assert_eq!(wire.len(), f.wire_size() as usize);
    // LpPacket's TLV-LENGTH fits in one octet here, so Sequence starts at octet 2.
    assert_eq!(&wire[2..4], &[0x51, 0x08]);
    assert_eq!(decode_frame(&wire).unwrap(), f);
}

// ---------------------------------------------------------------------------------------------
// Edges found by mutation fuzzing (issue "Nothing aborts", item 7)
// ---------------------------------------------------------------------------------------------

#[test]
fn an_empty_tag_stack_decodes_to_none_and_round_trips() {
    // LpPacket (100 = 0x64) of 19 octets: an empty TagStack (868 = FD 0364, length 0), then the
    // Fragment (80 = 0x50) of 13 octets, an Interest for /a with nonce 1. It used to decode to
    // Some(tags: []) and re-encode without the stack, so decode(encode(x)) != x.
    #[rustfmt::skip]
    let wire = [
        0x64, 0x13,
        0xFD, 0x03, 0x64, 0x00,
        0x50, 0x0D,
        0x05, 0x0B, 0x07, 0x03, 0x08, 0x01, b'a', 0x0A, 0x04, 0x00, 0x00, 0x00, 0x01,
    ];
    let frame = decode_frame(&wire).unwrap();
    assert_eq!(frame.lp.ext, None);
    assert_eq!(decode_frame(&frame.encode()).unwrap(), frame);
}

#[test]
fn an_interest_signature_info_that_does_not_frame_is_refused() {
    // Interest /a, nonce 1, empty ApplicationParameters, then InterestSignatureInfo (44 = 0x2C)
    // of 3 octets holding a SignatureType (27 = 0x1B) that claims 3 octets with 1 left, then an
    // empty InterestSignatureValue (46 = 0x2E). python-ndn refuses it; so do we now.
    let wire = [
        0x05, 0x14, 0x07, 0x03, 0x08, 0x01, b'a', 0x0A, 0x04, 0x00, 0x00, 0x00, 0x01, 0x24, 0x00, 0x2C, 0x03, 0x1B,
        0x03, 0x00, 0x2E, 0x00,
    ];
    assert!(Interest::decode(&wire).is_err());
    // The same with a well-formed SignatureType (length 1, value 0) decodes.
    let mut good = wire;
    good[18] = 0x01;
    assert!(Interest::decode(&good).is_ok());
}

#[test]
fn dpccps_hop_count_sits_in_flags_bits_8_to_13_with_a_presence_bit() {
    // 3 hops: presence bit 5 (0x20) and 3 << 8 (0x0300): Flags = 0x0320, a 2-octet
    // NonNegativeInteger, one octet more than a flag-only header. A count of 0 is present (0x20,
    // 1 octet); 64 saturates at 63 (0x3F20).
    assert_eq!(flags::with_data_hops(0, 3), 0x0320);
    assert_eq!(flags::data_hops(0x0320), Some(3));
    assert_eq!(flags::data_hops(flags::with_data_hops(flags::RTT_PROBING, 0)), Some(0));
    assert_eq!(flags::data_hops(flags::RTT_PROBING), None, "no presence bit, no count");
    assert_eq!(flags::with_data_hops(0, 64), 0x3F20);
    assert_eq!(flags::with_data_hops(flags::with_data_hops(0, 63), 2), 0x0220, "replaces, not adds");
    let mut f = Frame::data(Arc::new(video_data()));
    f.lp.flags = flags::with_data_hops(0, 3);
    #[rustfmt::skip]
    let head = [
        0x64, 0x4F,                         // LpPacket, length 79 = 6 + 73
        0xFD, 0x03, 0x6C, 0x02, 0x03, 0x20, //   Flags (876 = 0x36C) = 0x0320: 3 hops
        0x50, 0x47,                         //   Fragment, length 71: the Data
    ];
    let expected = concat(&[&head, &video_data_wire()]);
    assert_bytes(&f.encode(), &expected);
    assert_eq!(f.wire_size() as usize, expected.len());
    assert_eq!(decode_frame(&expected).unwrap(), f);
}

/// Self-learning's two fields (NDNLPv2 NonDiscovery 844, PrefixAnnouncement 848) are ignorable
/// ((t & 3) == 0 in 800..=959): a reader that knows neither skips them and still finds the packet.
/// The "old reader" here knows only LpPacket and Fragment, as a reader without self-learning
/// support sees these two fields.
#[test]
fn self_learning_fields_round_trip_and_an_old_reader_skips_them() {
    assert!(lp::is_ignorable_field(lp::tlv_type::NON_DISCOVERY));
    assert!(lp::is_ignorable_field(lp::tlv_type::PREFIX_ANNOUNCEMENT));
    let mut interest = Frame::interest(Arc::new(video_interest()));
    interest.lp.ext_mut().non_discovery = true;
    let mut data = Frame::data(Arc::new(video_data()));
    let ann = PrefixAnnouncement { prefix: Name::parse("/video").unwrap(), expiration: Time::from_millis(600_000) };
    data.lp.ext_mut().prefix_announcement = Some(ann.clone());
    for (frame, inner) in [(&interest, VIDEO_INTEREST_WIRE.to_vec()), (&data, video_data_wire())] {
        let wire = frame.encode();
        assert_eq!(wire.len(), frame.wire_size() as usize);
        assert_eq!(&decode_frame(&wire).unwrap(), frame);
        assert_eq!(old_reader(&wire), inner);
    }
    // NonDiscovery: FD 03 4C 00, 4 octets. PrefixAnnouncement: FD 03 50 len + Name /video
    // (07 07 08 05 "video", 9 octets) + ExpirationPeriod 600,000 ms (6D 04 00 09 27 C0, 6 octets)
    // = 4 + 15 = 19 octets. Each frame is its packet + LpPacket's T and L (2) + the field +
    // Fragment's T and L (2): 27 + 8 and 71 + 23.
    assert_eq!(interest.wire_size(), 27 + 8);
    assert_eq!(data.wire_size(), 71 + 23);
    assert_eq!(decode_frame(&data.encode()).unwrap().lp.prefix_announcement(), Some(&ann));
    // NonDiscovery carries nothing; a value is refused.
    let frag = concat(&[&[0x50, 0x1B], &VIDEO_INTEREST_WIRE]);
    let mut bad = Vec::new();
    tlv::write_tlv(&mut bad, 100, &concat(&[&[0xFD, 0x03, 0x4C, 0x01, 0x01], &frag]));
    assert!(decode_frame(&bad).is_err());
}

/// A link reader that knows no header field: it skips every ignorable one and returns the
/// Fragment's bytes.
fn old_reader(wire: &[u8]) -> Vec<u8> {
    let mut r = tlv::Reader::new(wire);
    let lp_packet = r.expect(100, "LpPacket").unwrap();
    let mut fields = lp_packet.reader();
    while !fields.is_empty() {
        let e = fields.read_element().unwrap();
        if e.typ == 80 {
            return e.value.to_vec();
        }
        assert!(lp::is_ignorable_field(e.typ), "field {} is not ignorable", e.typ);
    }
    panic!("no Fragment")
}
