//! Mutation fuzz of the codec (issue "Nothing aborts", codec edges): packets as python-ndn encodes
//! them (`tests/fuzz/seeds.hex`, written by `scripts/fuzz_seeds.py`) and frames with every
//! ndnflow link-header field, each mutated a few times from a seeded ChaCha8 stream, then decoded.
//! For every input: no panic, no hang; and whatever decodes re-encodes to bytes that decode to the
//! same frame, `wire_size()` bytes long.
//!
//! 200,000 inputs by default (well under a second in release); more on demand, the same stream
//! from the start (`docs/wire-format.md` gives the figures of a long run):
//!
//! ```sh
//! NDNFLOW_FUZZ_CASES=4000000 cargo test --release -p ndnflow-core --test all codec_fuzz:: -- --nocapture
//! ```

use std::sync::Arc;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use ndnflow_core::packet::lp::{decode_link_packet, flags, LinkPacket, LpExtensions};
use ndnflow_core::packet::{Frame, Interest, LpHeader, PrefixAnnouncement};
use ndnflow_core::{Name, Time};

const DEFAULT_CASES: u64 = 200_000;

/// Values that sit on TLV's boundaries: the 1-, 3-, 5- and 9-octet markers and their neighbours.
const EDGE_BYTES: [u8; 8] = [0x00, 0x01, 0x7F, 0x80, 0xFC, 0xFD, 0xFE, 0xFF];

fn python_ndn_seeds() -> Vec<Vec<u8>> {
    include_str!("fuzz/seeds.hex")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| (0..l.len()).step_by(2).map(|i| u8::from_str_radix(&l[i..i + 2], 16).expect("hex")).collect())
        .collect()
}

/// Frames whose link headers carry every field ndnflow writes (python-ndn knows none of them).
fn ndnflow_seeds() -> Vec<Vec<u8>> {
    let interest = Arc::new(Interest::new(Name::parse("/video/a/seg=3").expect("name"), 7, Time::from_secs(2)));
    let mut all = Frame::interest(interest.clone());
    all.lp = LpHeader {
        congestion_mark: 1,
        hop_count: Some(3),
        flags: flags::with_data_hops(flags::FROM_CACHE | flags::MIRCC_SECONDARY, 5),
        ext: Some(Box::new(LpExtensions {
            sequence: Some(1),
            tx_sequence: Some(2),
            acks: [3, 4].into_iter().collect(),
            path_id: Some(5),
            trajectory_id: Some(6),
            tags: [1, 300, 70_000].into_iter().collect(),
            mircc_rate: Some(9_500_000),
            mircc_rate2: Some(9_500),
            non_discovery: true,
            prefix_announcement: Some(PrefixAnnouncement {
                prefix: Name::parse("/video").expect("name"),
                expiration: Time::from_secs(3600),
            }),
        })),
    };
    let mut tags = Frame::interest(interest);
    tags.lp.ext_mut().tags = [2].into_iter().collect();
    vec![all.encode(), tags.encode()]
}

/// One of eight mutations, at a position drawn from the stream.
fn mutate(rng: &mut ChaCha8Rng, wire: &mut Vec<u8>) {
    if wire.is_empty() {
        wire.push(rng.random());
        return;
    }
    let at = rng.random_range(0..wire.len());
    match rng.random_range(0..8u8) {
        0 => wire[at] ^= 1 << rng.random_range(0..8u8),
        1 => wire[at] = EDGE_BYTES[rng.random_range(0..EDGE_BYTES.len())],
        2 => wire[at] = rng.random(),
        3 => wire.insert(at, rng.random()),
        4 => {
            wire.remove(at);
        }
        5 => wire.truncate(at),
        // A length off by one either way, the commonest framing mistake.
        6 => wire[at] = if rng.random() { wire[at].wrapping_add(1) } else { wire[at].wrapping_sub(1) },
        _ => {
            // A slice of the packet repeated in place (nested or duplicated elements).
            let end = rng.random_range(at..=wire.len().min(at + 16));
            let piece = wire[at..end].to_vec();
            wire.splice(at..at, piece);
        }
    }
}

/// Decodes `wire`; what decodes must survive encode-decode unchanged.
fn check(wire: &[u8]) -> bool {
    match decode_link_packet(wire) {
        Ok(LinkPacket::Frame(frame)) => {
            let again = frame.encode();
            assert_eq!(frame.wire_size() as usize, again.len(), "wire_size of {}", hex(wire));
            match decode_link_packet(&again) {
                Ok(LinkPacket::Frame(back)) => assert_eq!(back, frame, "re-encoding {}", hex(wire)),
                other => panic!("re-encoding {} gave {other:?}", hex(wire)),
            }
            true
        }
        Ok(LinkPacket::Idle(_)) => true,
        Err(_) => false,
    }
}

fn hex(wire: &[u8]) -> String {
    wire.iter().map(|b| format!("{b:02x}")).collect()
}

#[test]
fn mutated_packets_never_panic_and_what_decodes_round_trips() {
    let cases = std::env::var("NDNFLOW_FUZZ_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(DEFAULT_CASES);
    let seeds: Vec<Vec<u8>> = python_ndn_seeds().into_iter().chain(ndnflow_seeds()).collect();
    // Every seed decodes as it is: the corpus is valid, so mutations start from real packets.
    assert!(seeds.len() >= 15, "{} seeds", seeds.len());
    for s in &seeds {
        assert!(check(s), "seed {} does not decode", hex(s));
    }
    let mut rng = ChaCha8Rng::seed_from_u64(0x6e646e);
    let started = std::time::Instant::now();
    let mut decoded = 0u64;
    for _ in 0..cases {
        let mut wire = seeds[rng.random_range(0..seeds.len())].clone();
        for _ in 0..rng.random_range(1..=4u8) {
            mutate(&mut rng, &mut wire);
        }
        decoded += u64::from(check(&wire));
    }
    // Some mutations keep a packet valid (a changed name byte, nonce or payload byte): if none
    // decoded, the harness would be testing only the error paths.
    assert!(decoded > cases / 50, "{decoded} of {cases} mutated inputs decoded");
    println!(
        "{cases} mutated inputs from {} seeds: {decoded} decoded and round-tripped, the rest refused, no panic ({:.2} s)",
        seeds.len(),
        started.elapsed().as_secs_f64()
    );
}

#[test]
fn random_bytes_never_panic() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for _ in 0..20_000 {
        let len = rng.random_range(0..64usize);
        let mut wire: Vec<u8> = (0..len).map(|_| rng.random()).collect();
        // Half start with an Interest, Data or LpPacket type, so the decoders get past the first byte.
        if !wire.is_empty() && rng.random() {
            wire[0] = [0x05, 0x06, 0x64][rng.random_range(0..3)];
        }
        check(&wire);
    }
}
