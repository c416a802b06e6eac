//! SMIC's router side on one router (docs/protocols/smic.md): the hash and its spread, the order
//! of the candidates, the in-face and down faces left out, Interests without a path id left to
//! the strategy, retransmissions, the salted option, and the trajectory fold.
//!
//! The hash values used below are SplitMix64's finaliser (`mix.rs`) of the path id, in hex; the
//! first, mix64(0) = 0xE220A8397B1DCDAF, is SplitMix64's well-known first output from seed 0.
//! Modulo 2 is the parity of the last hex digit; modulo 3 is the sum of the hex digits modulo 3
//! (16 = 1 mod 3):
//!
//! | path id | mix64 | last digit: mod 2 | digit sum: mod 3 |
//! |---|---|---|---|
//! | 0 | E220A8397B1DCDAF | F: 1 | 130: 1 |
//! | 1 | 910A2DEC89025CC1 | 1: 1 | 110: 2 |
//! | 2 | 975835DE1C9756CE | E: 0 | 130: 1 |
//! | 3 | 1D0B14E4DB018FED | D: 1 | 123: 0 |
//! | 4 | 6E73E372E2338ACA | A: 0 | 118: 1 |
//! | 5 | 63033B0CA389C35A | A: 0 | 98: 2 |
//! | 6 | BD64A5D9ADEFE000 | 0: 0 | 137: 2 |
//! | 7 | 63CBE1E459320DD7 | 7: 1 | 117: 0 |
//! | 8 | 9E5651B0EF953636 | 6: 0 | 112: 1 |
//! | 9 | AEAF52FEBE706064 | 4: 0 | 133: 1 |
//! | 10 | 088712BE8A582FCA | A: 0 | 121: 1 |

use std::sync::Arc;

use super::*;
use crate::fw::testing::{data, interest};
use crate::fw::{FaceKind, Forwarder, ForwarderConfig};
use crate::packet::{Frame, Interest, NetPacket};
use crate::table::FaceId;
use crate::{Name, Time};

fn smic(hash: PathHash) -> ForwarderConfig {
    ForwarderConfig { smic: Some(SmicConfig { hash }), ..ForwarderConfig::default() }
}

/// A router with link faces 0 (downstream) to the largest face in `hops`, and /p via each
/// (face, cost) of `hops`.
fn router_with_hops(config: ForwarderConfig, seed: u64, hops: &[(u32, u64)]) -> Forwarder {
    let mut fw = Forwarder::new(config, seed);
    for _ in 0..=hops.iter().map(|&(f, _)| f).max().unwrap_or(0) {
        fw.add_face(FaceKind::Link);
    }
    let p = Name::parse("/p").unwrap();
    for &(face, cost) in hops {
        fw.fib.add_nexthop(&p, FaceId(face), cost);
    }
    fw
}

/// /p via face 3 (cost 1), face 1 (cost 5), face 2 (cost 1): in the FIB's order (cost, then face
/// id) the candidates are [2, 3, 1].
fn three_hop_router(config: ForwarderConfig, seed: u64) -> Forwarder {
    router_with_hops(config, seed, &[(3, 1), (1, 5), (2, 1)])
}

/// The Interest for /p/seg=`seg` with path id `path_id`, if any.
fn with_path_id(seg: u32, path_id: Option<u64>) -> Frame {
    let mut f = interest(seg, None);
    if path_id.is_some() {
        f.lp.ext_mut().path_id = path_id;
    }
    f
}

/// Sends `frame` in on `in_face` at `now`; the frames sent out.
fn send(fw: &mut Forwarder, now: Time, in_face: u32, frame: Frame) -> Vec<(FaceId, Frame)> {
    let mut out = Vec::new();
    fw.handle(now, FaceId(in_face), frame, &mut out);
    out
}

/// The face an Interest with `path_id` from `in_face` leaves on, checking that it carries the
/// path id upstream.
fn hashed(fw: &mut Forwarder, seg: u32, in_face: u32, path_id: u64) -> u32 {
    let out = send(fw, Time::ZERO, in_face, with_path_id(seg, Some(path_id)));
    assert_eq!(out.len(), 1, "one copy");
    let (face, frame) = &out[0];
    assert_eq!(frame.lp.ext.as_deref().and_then(|e| e.path_id), Some(path_id), "the path id goes on");
    face.0
}

fn counters(fw: &Forwarder) -> SmicCounters {
    fw.extension::<Smic>().expect("smic installed").counters
}

#[test]
fn path_ids_0_to_10_over_two_next_hops_take_the_indices_of_their_hash() {
    // The parity column of the table above.
    let indices: Vec<usize> = (0..=10).map(|p| path_index(PathHash::Paper, 0, p, 2)).collect();
    assert_eq!(indices, [1, 1, 0, 1, 0, 0, 0, 1, 0, 0, 0]);
    // The digit-sum column.
    let indices: Vec<usize> = (0..=3).map(|p| path_index(PathHash::Paper, 0, p, 3)).collect();
    assert_eq!(indices, [1, 2, 1, 0]);
}

#[test]
fn over_ten_thousand_path_ids_each_of_three_next_hops_gets_a_third() {
    // SplitMix64's output is uniform enough that 10,000 consecutive inputs split within a few
    // percent of 10,000 / 3 = 3,333.3 per residue (a binomial's standard deviation is 47, 1.4 %).
    for hash in [PathHash::Paper, PathHash::Salted] {
        let mut counts = [0u32; 3];
        for p in 0..10_000 {
            counts[path_index(hash, 0x1234_5678, p, 3)] += 1;
        }
        for (i, &n) in counts.iter().enumerate() {
            let off = (f64::from(n) - 10_000.0 / 3.0).abs() / (10_000.0 / 3.0);
            assert!(off < 0.03, "{hash:?}: index {i} got {n} of 10,000 ({:.1} % off)", off * 100.0);
        }
    }
}

#[test]
fn candidates_are_in_cost_then_face_id_order_and_the_path_id_goes_upstream() {
    let mut fw = three_hop_router(smic(PathHash::Paper), 1);
    // Candidates [2, 3, 1]; mix64 mod 3: path id 3 -> 0, 0 -> 1, 1 -> 2.
    assert_eq!(hashed(&mut fw, 1, 0, 3), 2);
    assert_eq!(hashed(&mut fw, 2, 0, 0), 3);
    assert_eq!(hashed(&mut fw, 3, 0, 1), 1);
    assert_eq!(counters(&fw), SmicCounters { hashed: 3, no_route: 0 });
}

#[test]
fn the_path_id_goes_on_without_the_arrived_headers_other_fields() {
    // The forwarded header reuses the arrived one's extension box: the path id alone goes on, not
    // the last link's sequence numbers or rates. Path id 3 leaves on face 2 (the test above).
    let mut fw = three_hop_router(smic(PathHash::Paper), 1);
    let mut frame = with_path_id(1, Some(3));
    let ext = frame.lp.ext_mut();
    (ext.sequence, ext.tx_sequence, ext.mircc_rate) = (Some(7), Some(8), Some(1_000));
    let (face, sent) = send(&mut fw, Time::ZERO, 0, frame).pop().unwrap();
    let expected = LpExtensions { path_id: Some(3), ..LpExtensions::default() };
    assert_eq!((face, sent.lp.ext.as_deref()), (FaceId(2), Some(&expected)));
}

#[test]
fn the_in_face_is_not_a_candidate() {
    let mut fw = three_hop_router(smic(PathHash::Paper), 1);
    // From face 2 the candidates are [3, 1]: path id 0 (odd hash) -> index 1, path id 2 (even) -> 0.
    assert_eq!(hashed(&mut fw, 1, 2, 0), 1);
    assert_eq!(hashed(&mut fw, 2, 2, 2), 3);
    // From face 3: [2, 1]; path id 0 -> index 1.
    assert_eq!(hashed(&mut fw, 3, 3, 0), 1);
}

#[test]
fn a_down_face_is_not_a_candidate_and_none_left_is_nack_no_route() {
    let mut fw = three_hop_router(smic(PathHash::Paper), 1);
    fw.set_face_up(FaceId(3), false);
    // Candidates [2, 1]: path id 0 (index 1 of 2) -> face 1, where [2, 3, 1] gave face 3.
    assert_eq!(hashed(&mut fw, 1, 0, 0), 1);
    fw.set_face_up(FaceId(1), false);
    fw.set_face_up(FaceId(2), false);
    let out = send(&mut fw, Time::ZERO, 0, with_path_id(2, Some(0)));
    assert_eq!(out.len(), 1);
    assert_eq!(out[0].0, FaceId(0), "back to the downstream");
    let NetPacket::Nack(nack) = &out[0].1.packet else { panic!("expected a Nack, got {:?}", out[0].1.packet) };
    assert_eq!(nack.reason, crate::packet::NackReason::NoRoute);
    assert_eq!(counters(&fw), SmicCounters { hashed: 1, no_route: 1 });
}

#[test]
fn interests_without_a_path_id_go_to_the_strategy_unchanged() {
    let mut plain = three_hop_router(ForwarderConfig::default(), 1);
    let mut fw = three_hop_router(smic(PathHash::Paper), 1);
    for seg in 0..5 {
        let a = send(&mut plain, Time::ZERO, 0, with_path_id(seg, None));
        let b = send(&mut fw, Time::ZERO, 0, with_path_id(seg, None));
        // Best-route: the first eligible next hop, face 2 (cost 1, lower face id than 3).
        assert_eq!(b[0].0, FaceId(2));
        assert_eq!(a, b);
    }
    assert_eq!(counters(&fw), SmicCounters::default());
}

#[test]
fn a_retransmission_is_suppressed_then_sent_on_the_same_hashed_face() {
    let mut fw = three_hop_router(smic(PathHash::Paper), 1);
    assert_eq!(hashed(&mut fw, 7, 0, 0), 3);
    let again = |nonce: u32| {
        let i = Interest::new(Name::parse("/p").unwrap().append_segment(7), nonce, Time::from_secs(2));
        let mut f = Frame::interest(Arc::new(i));
        f.lp.ext_mut().path_id = Some(0);
        f
    };
    // NFD's suppression: 10 ms after the first sending nothing goes out before 10 ms.
    assert!(send(&mut fw, Time::from_millis(5), 0, again(70)).is_empty());
    let out = send(&mut fw, Time::from_millis(15), 0, again(71));
    assert_eq!(out.iter().map(|(f, _)| f.0).collect::<Vec<_>>(), [3]);
}

#[test]
fn the_paper_hash_takes_the_same_index_at_every_router_the_salted_one_does_not() {
    // Two routers of two next hops each (faces 1 and 2, equal cost), seeds 1 and 2.
    let agreement = |hash| {
        let two = |seed| router_with_hops(smic(hash), seed, &[(1, 1), (2, 1)]);
        let (mut x, mut y) = (two(1), two(2));
        (0..400u32).filter(|&p| hashed(&mut x, p, 0, u64::from(p)) == hashed(&mut y, p, 0, u64::from(p))).count()
    };
    assert_eq!(agreement(PathHash::Paper), 400);
    // Independent salts agree half of the time: 200 of 400, standard deviation 10 (203 with
    // these seeds, docs/protocols/smic.md).
    let salted = agreement(PathHash::Salted);
    assert!((160..=240).contains(&salted), "{salted} of 400");
}

/// The trajectory id of the Data for /p/seg=`seg` sent back when upstream `face` answers with
/// trajectory id `upstream` (none: the producer's node is next).
fn trajectory(fw: &mut Forwarder, seg: u64, face: u32, upstream: Option<u64>) -> Option<u64> {
    let mut lp = LpHeader::default();
    if upstream.is_some() {
        lp.ext_mut().trajectory_id = upstream;
    }
    let out = send(fw, Time::from_millis(1), face, data(seg, lp));
    assert_eq!(out.len(), 1);
    out[0].1.lp.trajectory_id()
}

#[test]
fn the_same_route_gives_the_same_trajectory_two_routes_and_a_cache_hit_differ() {
    let mut config = smic(PathHash::Paper);
    config.cs_capacity = 10;
    let mut fw = three_hop_router(config, 1);
    let seed = Some(0x0123_4567_89AB_CDEF); // what the holder upstream seeded and folded
                                            // Path id 3 goes to face 2, path id 0 to face 3 (candidates [2, 3, 1]).
    assert_eq!(hashed(&mut fw, 1, 0, 3), 2);
    let via_2 = trajectory(&mut fw, 1, 2, seed);
    assert_eq!(hashed(&mut fw, 2, 0, 3), 2);
    assert_eq!(trajectory(&mut fw, 2, 2, seed), via_2, "the same route twice, the same id");
    assert_eq!(hashed(&mut fw, 3, 0, 0), 3);
    let via_3 = trajectory(&mut fw, 3, 3, seed);
    // Route labels' fold, once: mix64(rotl(L, 17) xor face).
    let fold = |face: u64| Some(crate::mix::mix64(0x0123_4567_89AB_CDEF_u64.rotate_left(17) ^ face));
    assert_eq!((via_2, via_3), (fold(2), fold(3)));
    // Segment 1 again, now from this router's Content Store: the route ends here, mix64(2^64 - 1).
    let hit = send(&mut fw, Time::from_millis(2), 0, with_path_id(1, Some(3)));
    assert_eq!(hit.len(), 1);
    assert_eq!(hit[0].1.lp.trajectory_id(), Some(crate::mix::mix64(u64::MAX)));
    assert_ne!(hit[0].1.lp.trajectory_id(), via_2, "a cache hit is not the producer's route");
}

#[test]
fn smic_and_route_labels_together_fold_once() {
    let mut both = smic(PathHash::Paper);
    both.route_labels = true;
    let mut fw = three_hop_router(both, 1);
    assert_eq!(hashed(&mut fw, 1, 0, 3), 2);
    // From the end of the route (no label): one fold of face 2, mix64(rotl(0, 17) xor 2).
    assert_eq!(trajectory(&mut fw, 1, 2, None), Some(crate::mix::mix64(2)));
}
