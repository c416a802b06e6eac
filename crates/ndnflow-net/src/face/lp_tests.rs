use std::sync::Arc;

use ndnflow_core::packet::lp::decode_link_packet;
use ndnflow_core::packet::NetPacket;
use ndnflow_core::{Data, Name};

use super::*;

/// A Data /p/<seg> whose encoding is exactly `size` bytes.
fn data_frame(seg: u64, size: u32) -> Frame {
    let name = Name::parse("/p").unwrap().append_segment(seg);
    (0..size)
        .rev()
        .map(|payload| Frame::data(Arc::new(Data::simulated(name.clone(), payload))))
        .find(|f| f.wire_size() == size)
        .expect("some payload gives that size")
}

fn ms(n: u64) -> Time {
    Time::from_millis(n)
}

/// Sends `frame` through `ls`, returning the datagrams.
fn send(ls: &mut LinkService, now: Time, frame: Frame) -> Vec<Vec<u8>> {
    let mut wires = Vec::new();
    let refused = ls.send(now, frame, &mut |w: &[u8]| {
        wires.push(w.to_vec());
        true
    });
    assert_eq!(refused, 0);
    wires
}

/// Receives `wire` at `ls`; the frame delivered, and what `ls` sent in answer.
fn receive(ls: &mut LinkService, now: Time, wire: &[u8]) -> (Option<Frame>, Vec<Vec<u8>>) {
    let mut answers = Vec::new();
    let got = ls
        .receive(now, wire, &mut |w: &[u8]| {
            answers.push(w.to_vec());
            true
        })
        .unwrap();
    (got, answers)
}

/// MTU 1500: 1438 bytes of the packet per fragment (frag.rs), so 3,000 bytes go in three
/// datagrams of at most 1,500 bytes; the default face takes them last first and delivers the Data
/// once, whole.
#[test]
fn a_packet_past_the_mtu_crosses_in_fragments() {
    let (mut a, mut b) = (LinkService::new(Some(1500), false, false), LinkService::new(None, false, false));
    let frame = data_frame(1, 3000);
    let wires = send(&mut a, ms(0), frame.clone());
    assert_eq!(wires.len(), 3);
    assert!(wires.iter().all(|w| w.len() <= 1500));
    let got: Vec<Frame> = wires.iter().rev().filter_map(|w| receive(&mut b, ms(1), w).0).collect();
    assert_eq!(got, vec![frame]);
    assert_eq!((a.counters().fragmented, a.counters().fragments_sent, b.counters().reassembled), (1, 3, 1));
}

/// At NFD's UDP MTU (65,467) an 8,800-byte packet goes whole, as one datagram of its own size.
#[test]
fn the_default_mtu_never_fragments_a_legal_packet() {
    let mut a = LinkService::new(None, false, false);
    assert_eq!(a.mtu(), 65_467);
    let wires = send(&mut a, ms(0), data_frame(1, 8800));
    assert_eq!(wires.iter().map(Vec::len).collect::<Vec<_>>(), [8800]);
}

/// MTU 64: 64 - 12 = 52 bytes, 50 of them fragment headers, so 2 bytes of packet per fragment:
/// 4,000 fragments for 8,000 bytes, past NFD's 400. Dropped and counted, nothing sent.
#[test]
fn a_packet_needing_more_than_400_fragments_is_dropped() {
    let mut a = LinkService::new(Some(64), false, false);
    assert!(send(&mut a, ms(0), data_frame(1, 8000)).is_empty());
    assert_eq!(a.counters().too_large, 1);
}

/// Reliability on both ends. A sends five Data (TxSequence 0-4); the second is lost. B receives
/// 0, 2, 3 and 4, and 5 ms after the first (NFD's idle-Ack period) acknowledges all four in an
/// IDLE packet. At A, TxSequence 1 then has three later ones acknowledged (2, 3, 4: NFD's loss
/// threshold), so A sends it again (TxSequence 5), and B delivers it.
#[test]
fn a_lost_frame_is_sent_again_after_three_later_acks() {
    let (mut a, mut b) = (LinkService::new(None, false, true), LinkService::new(None, false, true));
    let mut delivered = 0;
    for seg in 0..5 {
        let wires = send(&mut a, ms(0), data_frame(seg, 500));
        if seg != 1 {
            delivered += usize::from(receive(&mut b, ms(1), &wires[0]).0.is_some());
        }
    }
    assert_eq!(delivered, 4);
    assert_eq!(b.poll_timeout(), Some(ms(6)));
    let mut idle = Vec::new();
    b.handle_timeout(ms(6), &mut |w: &[u8]| {
        idle.push(w.to_vec());
        true
    });
    assert_eq!(idle.len(), 1);
    assert!(matches!(decode_link_packet(&idle[0]).unwrap(), LinkPacket::Idle(_)));
    let (none, resent) = receive(&mut a, ms(7), &idle[0]);
    assert!(none.is_none());
    assert_eq!(resent.len(), 1);
    let (again, _) = receive(&mut b, ms(8), &resent[0]);
    let NetPacket::Data(data) = again.unwrap().packet else { panic!("not a Data") };
    assert_eq!(data.name, Name::parse("/p").unwrap().append_segment(1));
    let c = a.counters();
    assert_eq!((c.acknowledged, c.retransmitted, c.retx_exhausted), (4, 1, 0));
}

/// Without reliability an IDLE packet carries nothing for the forwarder; garbage is an error.
#[test]
fn idle_packets_and_garbage() {
    let mut a = LinkService::new(None, false, true);
    let mut b = LinkService::new(None, false, false);
    let wire = send(&mut a, ms(0), data_frame(0, 400)).remove(0);
    let (frame, _) = receive(&mut b, ms(1), &wire);
    let frame = frame.expect("a numbered frame is delivered by a face without reliability too");
    // Its TxSequence is stripped, and with it the header's extension fields, all absent now.
    assert_eq!(frame.lp.ext, None);
    let mut idle = Vec::new();
    encode_idle_packet(&Default::default(), &mut idle);
    assert_eq!(receive(&mut b, ms(2), &idle).0, None);
    assert!(b.receive(ms(3), &[0xff, 0x01], &mut |_: &[u8]| true).is_err());
}

#[test]
fn an_mtu_asked_past_the_transport_s_is_capped_by_its_family() {
    // faces/create's Mtu 70,000 on an IPv4 face gave 65,527, the IPv6 cap, until 2026-11-28
    // (faces/update's `set_mtu` capped it by family already): 65,535 - 60 - 8 and 65,535 - 8.
    assert_eq!(LinkService::new(Some(70_000), false, false).mtu(), UDP_MTU_V4);
    assert_eq!(LinkService::new(Some(70_000), true, false).mtu(), UDP_MTU_V6);
    assert_eq!(LinkService::new(Some(1500), false, false).mtu(), 1500);
    assert_eq!((UDP_MTU_V4, UDP_MTU_V6), (65_467, 65_527));
}
