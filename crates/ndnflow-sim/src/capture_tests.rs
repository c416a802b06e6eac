use std::sync::Arc;

use ndnflow_core::packet::{Frame, Interest};
use ndnflow_core::{Name, Time};

use super::*;

/// Magic A1B23C4D little-endian, version 2.4, zone 0, sigfigs 0, snaplen 65535, linktype 101.
#[test]
fn global_header_bytes() {
    let expected = [0x4D, 0x3C, 0xB2, 0xA1, 2, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0, 0, 101, 0, 0, 0];
    assert_eq!(global_header(), expected);
}

/// Nodes 0, 1 and 256 are 10.0.0.1, 10.0.0.2 and 10.0.1.1 (the number is index + 1).
#[test]
fn node_addresses_hold_the_index_plus_one() {
    assert_eq!(node_address(0), [10, 0, 0, 1]);
    assert_eq!(node_address(1), [10, 0, 0, 2]);
    assert_eq!(node_address(256), [10, 0, 1, 1]);
}

/// The header of 10.0.0.1 -> 10.0.0.2, identification 0, DF, TTL 64, UDP, total length 55 (a
/// 27-byte Interest): words 4500 0037 0000 4000 4011 0000 0A00 0001 0A00 0002 sum to D94B with
/// no carry, so the checksum is !D94B = 26B4. A header with its checksum in sums to FFFF, whose
/// complement is 0.
#[test]
fn ipv4_checksum_derived_by_hand() {
    let mut ip = [0x45, 0, 0, 55, 0, 0, 0x40, 0, 64, 17, 0, 0, 10, 0, 0, 1, 10, 0, 0, 2];
    assert_eq!(ipv4_checksum(&ip), 0x26B4);
    ip[10..12].copy_from_slice(&0x26B4u16.to_be_bytes());
    assert_eq!(ipv4_checksum(&ip), 0);
    // A carry folds back in: FFFF + 0001 = 1_0000 -> 0001, complement FFFE.
    assert_eq!(ipv4_checksum(&[0xFF, 0xFF, 0x00, 0x01]), 0xFFFE);
}

/// One record of the 27-byte Interest /video/a/seg=3 (docs/wire-format.md §5) sent at
/// 1.500000250 s: seconds 1, nanoseconds 500,000,250 = 0x1DCD65FA, both lengths 28 + 27 = 55; the
/// IPv4 header above; UDP 6363 (0x18DB) both ways, length 8 + 27 = 35, checksum 0; the Interest.
#[test]
fn one_record_of_an_interest() {
    let shared = SharedBuffer::default();
    let mut capture = DirCapture::new(Box::new(shared.clone()), 0, 1).unwrap();
    let name = Name::parse("/video/a").unwrap().append_segment(3);
    let frame = Frame::interest(Arc::new(Interest::new(name, 0x1234_5678, Time::from_millis(2000))));
    capture.frame(Time(1_500_000_250), &frame, None);
    let stats = capture.finish().unwrap();
    let bytes = shared.bytes();
    assert_eq!(bytes.len(), 24 + 16 + 28 + 27);
    let record = &bytes[24..];
    assert_eq!(record[..16], [1, 0, 0, 0, 0xFA, 0x65, 0xCD, 0x1D, 55, 0, 0, 0, 55, 0, 0, 0]);
    let ip = [0x45, 0, 0, 55, 0, 0, 0x40, 0, 64, 17, 0x26, 0xB4, 10, 0, 0, 1, 10, 0, 0, 2];
    assert_eq!(record[16..36], ip);
    assert_eq!(record[36..44], [0x18, 0xDB, 0x18, 0xDB, 0, 35, 0, 0]);
    assert_eq!(record[44..48], [0x05, 0x19, 0x07, 0x0D]); // Interest of 25, Name of 13
    assert_eq!(record[44..], ndnflow_core::packet::lp::encode_frame(&frame.lp, &frame.packet)[..]);
    assert_eq!(stats, CaptureStats { frames: 1, file_bytes: 95, frame_bytes: 27, truncated: 0 });
}

/// A frame above 65,507 bytes keeps 65,507 of them: record length 65,535, original 28 + 70,000;
/// IPv4 total length 65,535, UDP length 65,515.
#[test]
fn a_frame_too_long_for_udp_is_truncated() {
    let ends = Endpoints { src: [10, 0, 0, 1], dst: [10, 0, 0, 2], ident: 7 };
    let (h, kept) = record_headers(Time::ZERO, ends, 70_000);
    assert_eq!(kept, 65_507);
    assert_eq!(h[8..16], [0xFF, 0xFF, 0, 0, 0x8C, 0x11, 0x01, 0]); // 65535; 70028 = 65536 + 4492 = 0x1_118C
    assert_eq!(h[18..20], [0xFF, 0xFF]);
    assert_eq!(h[20..22], [0, 7]);
    assert_eq!(h[40..42], [0xFF, 0xEB]);
}
