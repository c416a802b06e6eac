//! Hand-derived checks of `LpReliability` against NFD's rules (lp-reliability.cpp): numbering,
//! piggybacking, the gap rule, the retransmission timer, giving up, IDLE packets, duplicates.

use std::sync::Arc;

use super::*;
use crate::packet::lp::idle_packet_size;
use crate::{Interest, Name};

fn frame(seg: u64) -> Frame {
    let name = Name::parse("/t").expect("valid name").append_segment(seg);
    Frame::interest(Arc::new(Interest::new(name, seg as u32, Time::from_secs(4))))
}

fn ms(n: u64) -> Time {
    Time::from_millis(n)
}

fn tx(f: &Frame) -> Option<u64> {
    f.lp.ext.as_deref().and_then(|e| e.tx_sequence)
}

fn acks(f: &Frame) -> Vec<u64> {
    f.lp.ext.as_deref().map(|e| e.acks.to_vec()).unwrap_or_default()
}

/// Sends segments `0..n` from `a` at `at`, returning the frames as they go on the wire.
fn send(a: &mut LpReliability, at: Time, n: u64) -> Vec<Frame> {
    (0..n)
        .map(|seg| {
            let mut f = frame(seg);
            a.on_send(at, &mut f);
            f
        })
        .collect()
}

/// An empty frame but for the Acks: what the far side's frame or IDLE packet carries.
fn ack_frame(ack: &[u64]) -> Frame {
    let mut f = frame(100);
    f.lp.ext_mut().acks.extend_from_slice(ack);
    f
}

#[test]
fn frames_are_numbered_from_zero_and_grow_by_the_two_fields() {
    let mut a = LpReliability::new(ReliabilityConfig::default());
    let sent = send(&mut a, ms(0), 3);
    for (i, f) in sent.iter().enumerate() {
        let ext = f.lp.ext.as_deref().unwrap();
        assert_eq!((ext.sequence, ext.tx_sequence), (Some(i as u64), Some(i as u64)));
        // A bare Interest of n bytes (n < 227) becomes LpPacket (1 + 1) { Sequence (1 + 1 + 8),
        // TxSequence (3 + 1 + 8), Fragment (1 + 1 + n) }: n + 26 bytes.
        let n = frame(i as u64).wire_size();
        assert!(n < 227);
        assert_eq!(f.wire_size(), n + 26);
        assert_eq!(f.encode().len(), f.wire_size() as usize);
    }
    assert_eq!(a.in_flight(), 3);
}

#[test]
fn received_txsequences_ride_on_the_next_frame_and_acknowledge_it() {
    let (mut a, mut b) = (LpReliability::default_pair(), LpReliability::default_pair());
    let mut out = Vec::new();
    for mut f in send(&mut a, ms(0), 2) {
        assert_eq!(b.on_receive(ms(20), &mut f, &mut out), Received::Deliver);
        // The forwarder sees the frame as it was sent: no reliability fields left.
        assert_eq!(f.lp, LpHeader::default());
    }
    assert_eq!(b.pending_acks(), 2);
    let mut reply = frame(7);
    b.on_send(ms(21), &mut reply);
    assert_eq!(acks(&reply), [0, 1]);
    // Two Acks: 2 x (3 + 1 + 8) bytes on top of the n + 26 of a numbered frame.
    assert_eq!(reply.wire_size(), frame(7).wire_size() + 26 + 24);
    assert_eq!(b.pending_acks(), 0);
    a.on_receive(ms(40), &mut reply, &mut out);
    assert!(out.is_empty());
    assert_eq!((a.in_flight(), a.counters.acknowledged), (0, 2));
    // The first RTT sample, 40 ms: RTO = 40 + 4 x 20 = 120 ms, below the 200 ms floor.
    assert_eq!(a.rto(), ms(200));
}

#[test]
fn a_frame_is_lost_when_three_later_ones_are_acknowledged() {
    let mut a = LpReliability::default_pair();
    let sent = send(&mut a, ms(0), 5);
    let mut out = Vec::new();
    // Frames 1 and 2 acknowledged: frame 0 has seen two later Acks, one short of the threshold.
    a.on_receive(ms(30), &mut ack_frame(&[1, 2]), &mut out);
    assert!(out.is_empty());
    // The third later Ack: frame 0 is lost and goes again as TxSequence 5 (0..4 are taken),
    // with its Sequence unchanged, so the receiver can spot a copy.
    a.on_receive(ms(31), &mut ack_frame(&[3]), &mut out);
    let [Output::Resend(again)] = out.as_slice() else { panic!("expected one resend, got {out:?}") };
    assert_eq!(tx(again), Some(5));
    assert_eq!(again.lp.ext.as_deref().and_then(|e| e.sequence), Some(0));
    assert_eq!(again.packet, sent[0].packet);
    // Frames 4 and 5 (the copy) are out.
    assert_eq!((a.in_flight(), a.counters.retransmissions), (2, 1));
    // An Ack for a TxSequence the sender does not have (acknowledged, or never sent) is ignored.
    out.clear();
    a.on_receive(ms(32), &mut ack_frame(&[3, 0, 99]), &mut out);
    assert!(out.is_empty());
    assert_eq!((a.in_flight(), a.counters.acknowledged), (2, 3));
}

#[test]
fn the_retransmission_timer_fires_after_one_rto_then_the_frame_is_given_up() {
    let mut a = LpReliability::default_pair();
    let original = frame(0);
    send(&mut a, ms(0), 1);
    // No RTT sample yet: the initial RTO, 1 s.
    assert_eq!(a.poll_timeout(), Some(ms(1000)));
    let mut out = Vec::new();
    a.handle_timeout(ms(999), &mut out);
    assert!(out.is_empty());
    // maxRetx = 3: sent again at 1 s, 2 s and 3 s (TxSequences 1, 2, 3), given up at 4 s.
    for (i, at) in [1000, 2000, 3000].into_iter().enumerate() {
        a.handle_timeout(ms(at), &mut out);
        let [Output::Resend(f)] = out.as_slice() else { panic!("at {at} ms: {out:?}") };
        assert_eq!(tx(f), Some(i as u64 + 1));
        assert_eq!(a.poll_timeout(), Some(ms(at + 1000)));
        out.clear();
    }
    a.handle_timeout(ms(4000), &mut out);
    // What is reported is the frame as the layer above sent it.
    assert_eq!(out, [Output::GaveUp(original)]);
    assert_eq!((a.counters.retransmissions, a.counters.gave_up, a.in_flight()), (3, 1, 0));
    assert_eq!(a.poll_timeout(), None);
}

#[test]
fn with_max_retx_zero_the_first_loss_is_reported() {
    let mut a = LpReliability::new(ReliabilityConfig { max_retx: 0, ..ReliabilityConfig::default() });
    send(&mut a, ms(0), 4);
    let mut out = Vec::new();
    a.on_receive(ms(30), &mut ack_frame(&[1, 2, 3]), &mut out);
    assert_eq!(out, [Output::GaveUp(frame(0))]);
}

#[test]
fn queued_acks_leave_in_an_idle_packet_after_five_ms() {
    let (mut a, mut b) = (LpReliability::default_pair(), LpReliability::default_pair());
    let mut out = Vec::new();
    let mut sent = send(&mut a, ms(0), 2);
    b.on_receive(ms(10), &mut sent[0], &mut out);
    b.on_receive(ms(12), &mut sent[1], &mut out);
    // The timer starts with the first Ack queued and is not pushed back by the second.
    assert_eq!(b.poll_timeout(), Some(ms(15)));
    b.handle_timeout(ms(14), &mut out);
    assert!(out.is_empty());
    b.handle_timeout(ms(15), &mut out);
    let [Output::Idle(lp)] = out.as_slice() else { panic!("expected one IDLE packet, got {out:?}") };
    // LpPacket (1 + 1) { Ack (3 + 1 + 8) x 2 }: 26 bytes.
    assert_eq!(lp.ext.as_deref().unwrap().acks.as_slice(), [0, 1]);
    assert_eq!(idle_packet_size(lp), 26);
    assert_eq!((b.counters.idle_packets, b.poll_timeout()), (1, None));
    let lp = lp.clone();
    out.clear();
    a.on_receive_idle(ms(20), &lp, &mut out);
    assert_eq!(a.in_flight(), 0);
}

#[test]
fn an_idle_packet_holds_at_most_what_fits_in_max_ndn_packet_size() {
    let mut b = LpReliability::default_pair();
    let mut out = Vec::new();
    let mut a = LpReliability::default_pair();
    for mut f in send(&mut a, ms(0), 800) {
        b.on_receive(ms(1), &mut f, &mut out);
    }
    b.handle_timeout(ms(6), &mut out);
    // 8800 - 2 (LpPacket's TLV-LENGTH may grow from 1 to 3 octets) - 2 (empty LpPacket) = 8796
    // bytes of room: 733 Acks of 12; the other 67 go in a second IDLE packet.
    let counts: Vec<usize> = out
        .iter()
        .map(|o| match o {
            Output::Idle(lp) => lp.ext.as_deref().map_or(0, |e| e.acks.len()),
            other => panic!("unexpected {other:?}"),
        })
        .collect();
    assert_eq!(counts, [733, 67]);
}

#[test]
fn a_copy_of_a_delivered_frame_is_acknowledged_but_not_delivered() {
    let (mut a, mut b) = (LpReliability::default_pair(), LpReliability::default_pair());
    let mut out = Vec::new();
    let mut first = send(&mut a, ms(0), 1).remove(0);
    let mut copy = first.clone();
    assert_eq!(b.on_receive(ms(10), &mut first, &mut out), Received::Deliver);
    // The Ack was lost: the sender's timer sends the frame again as TxSequence 1, Sequence 0.
    a.handle_timeout(ms(1000), &mut out);
    let Some(Output::Resend(again)) = out.pop() else { panic!("expected a resend") };
    assert_eq!(b.on_receive(ms(1010), &mut again.clone(), &mut out), Received::Duplicate);
    assert_eq!(b.counters.duplicates, 1);
    // Both copies are acknowledged (NFD queues the Ack before the duplicate check).
    let mut reply = frame(9);
    b.on_send(ms(1011), &mut reply);
    assert_eq!(acks(&reply), [0, 1]);
    // Past one RTO (1 s, no sample yet) the Sequence is forgotten: a copy then is delivered.
    assert_eq!(b.on_receive(ms(2011), &mut copy, &mut out), Received::Deliver);
}

impl LpReliability {
    fn default_pair() -> LpReliability {
        LpReliability::new(ReliabilityConfig::default())
    }
}
