//! TLV codec property tests: encode-decode round trips for every packet type, `wire_size ==
//! encode().len()`, and no decoder panics on truncated, mutated or random input.
//! The hand-derived byte vectors and strictness rules are in codec.rs.

use std::sync::Arc;

use bytes::Bytes;
use proptest::prelude::*;
use proptest::sample::Index;
use smallvec::SmallVec;

use ndnflow_core::packet::data::Signature;
use ndnflow_core::packet::lp::{decode_frame, encode_frame, LpExtensions, LpHeader};
use ndnflow_core::packet::{tlv, PrefixAnnouncement};
use ndnflow_core::{Data, Frame, Interest, Nack, NackReason, Name, NetPacket, Time};

/// Largest millisecond count that fits `Time` (u64 nanoseconds).
const MAX_MS: u64 = u64::MAX / 1_000_000;

fn nonneg_bytes(n: u64) -> Vec<u8> {
    let mut v = Vec::new();
    tlv::write_nonneg(&mut v, n);
    v
}

fn component() -> impl Strategy<Value = (u64, Vec<u8>)> {
    prop_oneof![
        4 => prop::collection::vec(any::<u8>(), 0..12).prop_map(|v| (8, v)),
        3 => any::<u64>().prop_map(|n| (50, nonneg_bytes(n))),
        1 => any::<u64>().prop_map(|n| (54, nonneg_bytes(n))),
        1 => prop::collection::vec(any::<u8>(), 32).prop_map(|v| (1, v)),
        1 => (1u64..=0xFFFF, prop::collection::vec(any::<u8>(), 0..8)),
        // Long enough to need a 3-octet length on the Name.
        1 => prop::collection::vec(any::<u8>(), 250..300).prop_map(|v| (8, v)),
    ]
}

fn name(min: usize) -> impl Strategy<Value = Name> {
    prop::collection::vec(component(), min..6)
        .prop_map(|comps| Name::from_components(comps.iter().map(|(t, v)| (*t, v.as_slice()))))
}

fn millis() -> impl Strategy<Value = Time> {
    prop_oneof![0u64..100_000, 0..=MAX_MS].prop_map(Time::from_millis)
}

fn interest() -> impl Strategy<Value = Interest> {
    (
        name(1),
        any::<bool>(),
        any::<bool>(),
        any::<Option<u32>>(),
        prop::option::of(millis()),
        any::<Option<u8>>(),
        prop::option::of(prop::collection::vec(any::<u8>(), 0..300)),
    )
        .prop_map(|(name, can_be_prefix, must_be_fresh, nonce, lifetime, hop_limit, params)| Interest {
            name,
            can_be_prefix,
            must_be_fresh,
            nonce,
            lifetime,
            hop_limit,
            app_parameters: params.map(Bytes::from),
        })
}

/// SignatureInfo extras as real signers write them (always well-formed TLVs).
fn info_extra() -> impl Strategy<Value = Bytes> {
    prop_oneof![
        Just(Vec::new()),
        prop::collection::vec(any::<u8>(), 32).prop_map(|digest| {
            let mut kd = Vec::new();
            tlv::write_tlv(&mut kd, 29, &digest); // KeyDigest
            let mut out = Vec::new();
            tlv::write_tlv(&mut out, 28, &kd); // KeyLocator
            out
        }),
        (name(0), any::<u64>()).prop_map(|(n, nonce)| {
            let mut kl = Vec::new();
            tlv::write_tlv(&mut kl, 7, n.component_wire());
            let mut out = Vec::new();
            tlv::write_tlv(&mut out, 28, &kl);
            tlv::write_nonneg_tlv(&mut out, 38, nonce); // SignatureNonce
            out
        }),
    ]
    .prop_map(Bytes::from)
}

fn content() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        4 => prop::collection::vec(any::<u8>(), 0..300),
        1 => (0usize..9000).prop_map(|n| vec![0x5A; n]),
    ]
}

fn data() -> impl Strategy<Value = Data> {
    (
        name(0),
        any::<Option<u64>>(),
        // FreshnessPeriod in milliseconds, past `Time`'s range too (kept as the wire gave it).
        prop::option::of(prop_oneof![0u64..100_000, 0..=MAX_MS, MAX_MS + 1..=u64::MAX]),
        prop::option::of(component()),
        content(),
        any::<u64>(),
        info_extra(),
        prop::collection::vec(any::<u8>(), 0..80),
    )
        .prop_map(|(name, content_type, freshness_ms, fbi, content, sig_type, info_extra, value)| Data {
            name,
            content_type,
            freshness_period: freshness_ms.map(|ms| tlv::millis_to_time(ms).unwrap_or(Time::MAX)),
            freshness_beyond_ms: freshness_ms.filter(|&ms| ms > MAX_MS).and_then(std::num::NonZeroU64::new),
            final_block_id: fbi.map(|(t, v)| (t, Bytes::from(v))),
            content: Bytes::from(content),
            signature: Signature { sig_type, info_extra, value: Bytes::from(value) },
        })
}

fn nack_reason() -> impl Strategy<Value = NackReason> {
    prop::sample::select(vec![NackReason::None, NackReason::Congestion, NackReason::Duplicate, NackReason::NoRoute])
}

fn lp_header() -> impl Strategy<Value = LpHeader> {
    let sometimes_zero = || prop_oneof![Just(0u64), any::<u64>()];
    (
        sometimes_zero(),
        (any::<Option<u64>>(), any::<Option<u64>>()),
        prop::collection::vec(any::<u64>(), 0..3),
        any::<Option<u64>>(),
        any::<Option<u64>>(),
        any::<Option<u64>>(),
        prop::collection::vec(any::<u64>(), 0..5),
        sometimes_zero(),
        (any::<Option<u64>>(), any::<Option<u64>>(), any::<bool>(), prop::option::of((name(0), 0..=MAX_MS))),
    )
        .prop_map(
            |(
                congestion_mark,
                (sequence, tx_sequence),
                acks,
                hop_count,
                path_id,
                trajectory_id,
                tags,
                flags,
                (mircc_rate, mircc_rate2, non_discovery, announcement),
            )| {
                let ext = LpExtensions {
                    sequence,
                    tx_sequence,
                    acks: SmallVec::from_vec(acks),
                    path_id,
                    trajectory_id,
                    tags: SmallVec::from_vec(tags),
                    mircc_rate,
                    mircc_rate2,
                    non_discovery,
                    prefix_announcement: announcement
                        .map(|(prefix, ms)| PrefixAnnouncement { prefix, expiration: Time::from_millis(ms) }),
                };
                // Decoding creates the box only when an extension field is present.
                let ext = (ext != LpExtensions::default()).then(|| Box::new(ext));
                LpHeader { congestion_mark, hop_count, flags, ext }
            },
        )
}

fn net_packet() -> impl Strategy<Value = NetPacket> {
    prop_oneof![
        interest().prop_map(|i| NetPacket::Interest(Arc::new(i))),
        data().prop_map(|d| NetPacket::Data(Arc::new(d))),
        (nack_reason(), interest())
            .prop_map(|(reason, i)| NetPacket::Nack(Arc::new(Nack { reason, interest: Arc::new(i) }))),
    ]
}

fn frame() -> impl Strategy<Value = Frame> {
    (prop_oneof![Just(LpHeader::default()), lp_header()], net_packet()).prop_map(|(lp, p)| Frame::new(lp, p))
}

/// Random TLV trees over the types the decoders know, so that fuzzing reaches deep code paths
/// instead of failing at the first byte.
fn tlv_tree() -> impl Strategy<Value = Vec<u8>> {
    let types = prop::sample::select(vec![
        5u64, 6, 7, 8, 10, 12, 18, 20, 21, 22, 23, 24, 25, 26, 27, 28, 30, 31, 33, 34, 36, 44, 46, 50, 80, 81, 82, 83,
        98, 100, 800, 801, 832, 836, 840, 856, 860, 864, 868, 872, 876, 880, 884, 888, 889, 1, 9, 40, 41,
    ]);
    let leaf = (types.clone(), prop::collection::vec(any::<u8>(), 0..10)).prop_map(|(t, v)| {
        let mut out = Vec::new();
        tlv::write_tlv(&mut out, t, &v);
        out
    });
    leaf.prop_recursive(4, 64, 6, move |inner| {
        (types.clone(), prop::collection::vec(inner, 0..6)).prop_map(|(t, children)| {
            let mut out = Vec::new();
            tlv::write_tlv(&mut out, t, &children.concat());
            out
        })
    })
}

/// Every decoder on arbitrary input: no panic; anything accepted re-encodes to its exact size and
/// decodes back to itself.
fn check_all_decoders(wire: &[u8]) {
    if let Ok(i) = Interest::decode(wire) {
        let enc = i.encode();
        assert_eq!(i.wire_size(), enc.len());
        assert_eq!(Interest::decode(&enc).as_ref(), Ok(&i));
    }
    if let Ok(d) = Data::decode(wire) {
        let enc = d.encode();
        assert_eq!(d.wire_size(), enc.len());
        assert_eq!(Data::decode(&enc).as_ref(), Ok(&d));
    }
    if let Ok(f) = decode_frame(wire) {
        let enc = f.encode();
        assert_eq!(f.wire_size() as usize, enc.len());
        assert_eq!(decode_frame(&enc).as_ref(), Ok(&f));
    }
    let _ = Name::from_component_wire(wire);
}

/// 512 cases per property unless PROPTEST_CASES asks for more (for a long fuzzing run).
fn cases() -> u32 {
    std::env::var("PROPTEST_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(512)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    #[test]
    fn interest_round_trip_and_size(i in interest()) {
        let wire = i.encode();
        prop_assert_eq!(i.wire_size(), wire.len());
        prop_assert_eq!(Interest::decode(&wire), Ok(i));
    }

    #[test]
    fn data_round_trip_and_size(d in data()) {
        let wire = d.encode();
        prop_assert_eq!(d.wire_size(), wire.len());
        prop_assert_eq!(Data::decode(&wire), Ok(d));
    }

    #[test]
    fn frame_round_trip_and_size(f in frame()) {
        let wire = encode_frame(&f.lp, &f.packet);
        prop_assert_eq!(f.wire_size() as usize, wire.len());
        // Bare exactly when there is nothing for the header to carry.
        let bare = f.lp.is_empty() && !matches!(f.packet, NetPacket::Nack(_));
        prop_assert_eq!(wire[0] != 100, bare);
        prop_assert_eq!(decode_frame(&wire), Ok(f));
    }

    #[test]
    fn random_bytes_never_panic(wire in prop::collection::vec(any::<u8>(), 0..256)) {
        check_all_decoders(&wire);
    }

    #[test]
    fn random_tlv_trees_never_panic(wire in tlv_tree()) {
        check_all_decoders(&wire);
    }

    #[test]
    fn truncations_never_panic(f in frame(), cut in any::<Index>()) {
        let wire = f.encode();
        let len = cut.index(wire.len());
        let result = decode_frame(&wire[..len]);
        prop_assert!(result.is_err(), "a strict prefix of a frame must not decode");
        check_all_decoders(&wire[..len]);
    }

    #[test]
    fn bit_flips_never_panic(f in frame(), flips in prop::collection::vec((any::<Index>(), 0u8..8), 1..4)) {
        let mut wire = f.encode();
        for (at, bit) in flips {
            let i = at.index(wire.len());
            wire[i] ^= 1 << bit;
        }
        check_all_decoders(&wire);
    }

    #[test]
    fn spliced_bytes_never_panic(f in frame(), at in any::<Index>(), junk in prop::collection::vec(any::<u8>(), 1..8)) {
        let mut wire = f.encode();
        let i = at.index(wire.len() + 1);
        wire.splice(i..i, junk);
        check_all_decoders(&wire);
    }
}
