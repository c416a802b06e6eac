//! Fuzz of a face's input path (issue 25 item 7: malformed packets from the network are dropped and
//! counted, never a panic). The codec alone is fuzzed in ndnflow-core (tests/codec_fuzz.rs); here
//! the pieces in front of it, as the daemon runs them:
//!
//! * a UDP face's link service (`face::lp::LinkService`): sequences of datagrams made from real
//!   fragments, reliability headers (TxSequence, Acks) and IDLE packets, then reordered,
//!   duplicated, dropped, cut short and bit-flipped, read with the link's timers running, on a
//!   face with reliability and one without;
//! * a stream face's framer (`face::stream::TlvFramer`): a stream of mutated packets read in
//!   chunks of random sizes.
//!
//! For every input: no panic and no hang; a frame delivered re-encodes to bytes that decode to it;
//! a reassembly never holds more packets than its bound; the framer gives back the stream's own
//! bytes, element by element, and stops only where an element announces more than 8,800 bytes.
//! The stream is seeded: a failure is the same failure on every run. `NDNFLOW_FUZZ_CASES` sets the
//! number of sequences (default 20,000, about a second in release).

use std::sync::Arc;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use ndnflow_core::link::frag::encode_fragments;
use ndnflow_core::link::reassembly::MAX_PARTIAL;
use ndnflow_core::packet::lp::{decode_link_packet, LinkPacket};
use ndnflow_core::packet::{Data, Frame, Interest, Nack, NackReason};
use ndnflow_core::{Name, Time};
use ndnflow_net::face::lp::LinkService;
use ndnflow_net::face::stream::TlvFramer;
use ndnflow_net::face::udp::MAX_PACKET_SIZE;

const DEFAULT_CASES: u64 = 20_000;

fn cases() -> u64 {
    std::env::var("NDNFLOW_FUZZ_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(DEFAULT_CASES)
}

/// Datagrams a peer would send: whole packets, a Data of 3,000 bytes in 1,500-byte fragments,
/// a reliable link's numbered frames and their Acks, and an IDLE packet.
fn datagrams() -> Vec<Vec<u8>> {
    let name = Name::parse("/p/file").unwrap().append_segment(7);
    let interest = Arc::new(Interest::new(name.clone(), 42, Time::from_secs(4)));
    let data = Frame::data(Arc::new(Data::simulated(name, 3000)));
    let nack = Frame::nack(Arc::new(Nack { reason: NackReason::Congestion, interest: interest.clone() }));
    let mut out = vec![Frame::interest(interest.clone()).encode(), data.encode(), nack.encode()];
    out.extend(encode_fragments(1500, &data, 100).expect("fragments"));
    // A reliable peer numbers its frames and piggybacks Acks; a `LinkService` writes them.
    let mut peer = LinkService::new(None, false, true);
    for frame in [Frame::interest(interest), data] {
        peer.send(Time::ZERO, frame, &mut |w: &[u8]| {
            out.push(w.to_vec());
            true
        });
    }
    // Its retransmission timer, then its IDLE packet of Acks, once it has heard a frame.
    let mut heard = LinkService::new(None, false, true);
    let reliable_frame = out[out.len() - 1].clone();
    let _ = heard.receive(Time::ZERO, &reliable_frame, &mut |_| true);
    heard.handle_timeout(Time::from_secs(1), &mut |w: &[u8]| {
        out.push(w.to_vec());
        true
    });
    out
}

/// A datagram changed as a network or an attacker would: a bit flipped, cut short, or a byte
/// replaced by a TLV length marker; or left alone (sequences already reorder and drop).
fn damage(rng: &mut ChaCha8Rng, wire: &mut Vec<u8>) {
    if wire.is_empty() {
        return;
    }
    let at = rng.random_range(0..wire.len());
    match rng.random_range(0..4u8) {
        0 => wire[at] ^= 1 << rng.random_range(0..8u8),
        1 => wire.truncate(at),
        2 => wire[at] = [0xFD, 0xFE, 0xFF, 0x00][rng.random_range(0..4usize)],
        _ => {}
    }
}

/// A sequence of 1 to 12 datagrams drawn from `pool` (so repeats and any order), a third damaged.
fn sequence(rng: &mut ChaCha8Rng, pool: &[Vec<u8>]) -> Vec<Vec<u8>> {
    let n = rng.random_range(1..=12usize);
    (0..n)
        .map(|_| {
            let mut wire = pool[rng.random_range(0..pool.len())].clone();
            if rng.random_range(0..3u8) == 0 {
                damage(rng, &mut wire);
            }
            wire
        })
        .collect()
}

/// A delivered frame is one the codec would hand the forwarder: it survives encode-decode.
fn check_delivered(frame: &Frame) {
    let wire = frame.encode();
    match decode_link_packet(&wire) {
        Ok(LinkPacket::Frame(back)) => assert_eq!(&back, frame),
        other => panic!("a delivered frame re-encodes to {other:?}"),
    }
}

#[test]
fn a_link_service_reads_damaged_datagram_sequences_without_panic() {
    let pool = datagrams();
    assert!(pool.len() >= 8, "{} datagrams", pool.len());
    let mut rng = ChaCha8Rng::seed_from_u64(25);
    let (mut delivered, mut refused) = (0u64, 0u64);
    // Two faces that live through every sequence, as a daemon's face lives through its peer's.
    let mut faces = [LinkService::new(None, false, false), LinkService::new(None, false, true)];
    let mut now = Time::ZERO;
    for _ in 0..cases() {
        for wire in sequence(&mut rng, &pool) {
            now += Time::from_micros(rng.random_range(0..2_000u64));
            for face in faces.iter_mut() {
                match face.receive(now, &wire, &mut |_| true) {
                    Ok(Some(frame)) => {
                        check_delivered(&frame);
                        delivered += 1;
                    }
                    Ok(None) => {}
                    Err(_) => refused += 1,
                }
                assert!(face.reassembling() <= MAX_PARTIAL);
                if face.poll_timeout().is_some_and(|t| t <= now) {
                    face.handle_timeout(now, &mut |_| true);
                }
            }
        }
    }
    // Both outcomes happen: the pool is real and the damage is real.
    assert!(delivered > 0 && refused > 0, "delivered {delivered}, refused {refused}");
}

#[test]
fn the_stream_framer_returns_the_streams_own_bytes_or_stops_at_an_oversized_element() {
    let pool = datagrams();
    let mut rng = ChaCha8Rng::seed_from_u64(26);
    let (mut elements, mut too_large) = (0u64, 0u64);
    for _ in 0..cases() / 10 {
        let stream: Vec<u8> = sequence(&mut rng, &pool).concat();
        let mut framer = TlvFramer::default();
        let mut taken = Vec::new();
        let mut at = 0;
        'stream: while at < stream.len() {
            let chunk = rng.random_range(1..=stream.len() - at).min(1500);
            framer.push(&stream[at..at + chunk]);
            at += chunk;
            loop {
                match framer.next_element() {
                    Ok(Some(element)) => {
                        elements += 1;
                        taken.extend_from_slice(&element);
                    }
                    Ok(None) => break,
                    Err(e) => {
                        // The daemon closes such a connection: framing is lost for good.
                        assert!(e.0 > MAX_PACKET_SIZE as u64, "{e:?}");
                        too_large += 1;
                        break 'stream;
                    }
                }
            }
        }
        // Elements are the stream cut in order, nothing added, nothing lost between them.
        assert_eq!(&stream[..taken.len()], &taken[..]);
    }
    assert!(elements > 0 && too_large > 0, "elements {elements}, too large {too_large}");
}
