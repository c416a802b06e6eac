use std::sync::Arc;

use super::*;
use crate::link::frag::encode_fragments;
use crate::packet::lp::decode_link_packet;
use crate::packet::lp::LinkPacket;
use crate::packet::tlv::{write_fixed_u64_tlv, write_nonneg_tlv};
use crate::{Data, Frame, Name};

/// A Data whose encoding is exactly `size` bytes, as a frame with no header.
fn data_frame(size: u32) -> Frame {
    let name = Name::parse("/p").unwrap().append_segment(7);
    (0..size)
        .rev()
        .map(|payload| Frame::data(Arc::new(Data::simulated(name.clone(), payload))))
        .find(|f| f.wire_size() == size)
        .expect("some payload gives that size")
}

fn frame_of(r: &Reassembled) -> Frame {
    match decode_link_packet(&r.wire).unwrap() {
        LinkPacket::Frame(mut f) => {
            f.lp.congestion_mark = f.lp.congestion_mark.max(r.mark);
            f
        }
        LinkPacket::Idle(_) => panic!("an IDLE packet"),
    }
}

fn ms(n: u64) -> Time {
    Time::from_millis(n)
}

/// 3,000 bytes at MTU 1500: 1500 - 12 (mark reserve) - 50 = 1438 bytes a fragment, so
/// 1438 + 1438 + 124: three fragments, numbered 40, 41, 42. Fed last first, the packet is whole
/// at the third, and decodes to the frame sent.
#[test]
fn three_fragments_in_any_order_make_the_packet() {
    let frame = data_frame(3000);
    let wires = encode_fragments(1500, &frame, 40).unwrap();
    assert_eq!(wires.len(), 3);
    let mut r = Reassembler::default();
    let mut got = None;
    for (k, wire) in wires.iter().rev().enumerate() {
        let f = parse_fragment(wire).unwrap().expect("a fragment");
        assert_eq!((f.sequence - f.index, f.count), (40, 3));
        got = r.receive(ms(k as u64), f);
        assert_eq!(got.is_some(), k == 2);
    }
    assert_eq!(frame_of(&got.unwrap()), frame);
    assert_eq!((r.counters.reassembled, r.len()), (1, 0));
}

/// A packet that fits is not a fragment: the frame decoder takes it whole.
#[test]
fn a_packet_sent_whole_is_not_a_fragment() {
    let frame = data_frame(1000);
    let wires = encode_fragments(1500, &frame, 0).unwrap();
    assert_eq!(wires.len(), 1);
    assert_eq!(parse_fragment(&wires[0]).unwrap(), None);
    let mut lp = Vec::new();
    write_tl(&mut lp, tlv_type::LP_PACKET, 0);
    assert_eq!(parse_fragment(&lp).unwrap(), None);
}

/// The timer is 500 ms from the latest fragment: a fragment at 0 and one at 400 ms keep the
/// packet until 900 ms; at 900 ms it is dropped and counted.
#[test]
fn a_partial_packet_dies_500_ms_after_its_latest_fragment() {
    let wires = encode_fragments(1500, &data_frame(3000), 0).unwrap();
    let mut r = Reassembler::default();
    assert!(r.receive(ms(0), parse_fragment(&wires[0]).unwrap().unwrap()).is_none());
    assert!(r.receive(ms(400), parse_fragment(&wires[2]).unwrap().unwrap()).is_none());
    assert_eq!(r.poll_timeout(), Some(ms(900)));
    r.handle_timeout(ms(899));
    assert_eq!(r.len(), 1);
    r.handle_timeout(ms(900));
    assert_eq!((r.len(), r.counters.timeouts), (0, 1));
    // The missing piece, late, starts a new partial packet that never completes.
    assert!(r.receive(ms(950), parse_fragment(&wires[1]).unwrap().unwrap()).is_none());
    assert_eq!(r.counters.reassembled, 0);
}

/// A second copy of a piece is dropped; so is a fragment whose FragCount disagrees.
#[test]
fn duplicates_and_disagreeing_counts_are_dropped() {
    let wires = encode_fragments(1500, &data_frame(3000), 0).unwrap();
    let mut r = Reassembler::default();
    r.receive(ms(0), parse_fragment(&wires[0]).unwrap().unwrap());
    r.receive(ms(1), parse_fragment(&wires[0]).unwrap().unwrap());
    let mut odd = parse_fragment(&wires[1]).unwrap().unwrap();
    odd.count = 4;
    r.receive(ms(2), odd);
    assert_eq!(r.counters.dropped_fragments, 2);
    r.receive(ms(3), parse_fragment(&wires[1]).unwrap().unwrap());
    assert!(r.receive(ms(4), parse_fragment(&wires[2]).unwrap().unwrap()).is_some());
}

/// A CongestionMark on the last fragment only marks the packet (the largest mark wins).
#[test]
fn a_mark_on_any_fragment_marks_the_packet() {
    let frame = data_frame(3000);
    let wires = encode_fragments(1500, &frame, 0).unwrap();
    let mut r = Reassembler::default();
    let mut last = parse_fragment(&wires[2]).unwrap().unwrap();
    last.mark = 1;
    r.receive(ms(0), parse_fragment(&wires[0]).unwrap().unwrap());
    r.receive(ms(0), parse_fragment(&wires[1]).unwrap().unwrap());
    let whole = r.receive(ms(0), last).unwrap();
    assert_eq!(frame_of(&whole).lp.congestion_mark, 1);
}

/// LpPacket { Sequence 9, FragIndex `index`, FragCount `count`, Fragment { 1 byte } }.
fn fragment_wire(sequence: Option<u64>, index: u64, count: u64) -> Vec<u8> {
    let mut value = Vec::new();
    if let Some(s) = sequence {
        write_fixed_u64_tlv(&mut value, tlv_type::SEQUENCE, s);
    }
    write_nonneg_tlv(&mut value, tlv_type::FRAG_INDEX, index);
    write_nonneg_tlv(&mut value, tlv_type::FRAG_COUNT, count);
    write_tl(&mut value, tlv_type::FRAGMENT, 1);
    value.push(0);
    let mut wire = Vec::new();
    write_tl(&mut wire, tlv_type::LP_PACKET, value.len());
    wire.extend_from_slice(&value);
    wire
}

#[test]
fn bad_fragments_are_errors() {
    assert!(parse_fragment(&fragment_wire(Some(9), 2, 2)).is_err(), "index not below count");
    assert!(parse_fragment(&fragment_wire(Some(9), 0, 401)).is_err(), "more than 400 fragments");
    assert!(parse_fragment(&fragment_wire(None, 0, 2)).is_err(), "no Sequence");
    assert!(parse_fragment(&fragment_wire(Some(1), 2, 3)).is_err(), "Sequence below FragIndex");
    assert!(parse_fragment(&fragment_wire(Some(9), 1, 2)).unwrap().is_some());
}

/// 257 packets' first fragments: the 257th evicts the oldest, so 256 remain and one is counted.
#[test]
fn at_most_256_packets_wait() {
    let mut r = Reassembler::default();
    for k in 0..=MAX_PARTIAL as u64 {
        r.receive(ms(k), parse_fragment(&fragment_wire(Some(10 * k), 0, 2)).unwrap().unwrap());
    }
    assert_eq!((r.len(), r.counters.evicted), (256, 1));
}

/// Pieces adding up past 8,800 bytes drop the packet: 9 pieces of 1,000 bytes.
#[test]
fn a_packet_past_8800_bytes_is_dropped() {
    let mut r = Reassembler::default();
    let piece = vec![0u8; 1000];
    for i in 0..9 {
        let f = Fragment { sequence: i, index: i, count: 10, fields: vec![], mark: 0, piece: &piece };
        r.receive(ms(0), f);
    }
    assert_eq!((r.len(), r.counters.dropped_fragments), (0, 1));
}
