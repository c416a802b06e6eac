//! DPCCP's router side: hop counts along the paper's path A-B-C-D (§VI-C), RTT-probing labels,
//! their lifetime and the drain flag (§VI-E-7), with and without PTP's tags.

use std::sync::Arc;

use super::*;
use crate::fw::{FaceKind, Forwarder, ForwarderConfig};
use crate::packet::lp::flags::{self, data_hops};
use crate::packet::{Data, Frame, Interest, NetPacket};
use crate::table::SimulatedCacheConfig;
use crate::{Name, Time};

fn dpccp_config() -> ForwarderConfig {
    ForwarderConfig { dpccp: Some(DpccpConfig::default()), ..ForwarderConfig::default() }
}

/// A forwarder whose face 0 faces the consumer and face 1 the producer, of the kinds given, with
/// /p via face 1.
fn node(config: ForwarderConfig, down: FaceKind, up: FaceKind) -> Forwarder {
    let mut fw = Forwarder::new(config, 1);
    fw.add_face(down);
    fw.add_face(up);
    fw.fib.add_nexthop(&Name::parse("/p").unwrap(), FaceId(1), 1);
    fw
}

fn interest(seg: u64, lp_flags: u64) -> Frame {
    let name = Name::parse("/p").unwrap().append_segment(seg);
    let mut f = Frame::interest(Arc::new(Interest::new(name, seg as u32 + 1, Time::from_secs(2))));
    f.lp.flags = lp_flags;
    f
}

fn data(seg: u64, lp_flags: u64) -> Frame {
    let name = Name::parse("/p").unwrap().append_segment(seg);
    let mut f = Frame::data(Arc::new(Data::new(name, bytes::Bytes::from_static(b"x"))));
    f.lp.flags = lp_flags;
    f
}

/// The paper's path A-B-C-D (§VI-C): a consumer application on A, a producer application on D.
/// `chain[0]` is A; on every node face 0 leads towards A and face 1 towards D.
fn path_abcd(config_c: ForwarderConfig) -> Vec<Forwarder> {
    vec![
        node(dpccp_config(), FaceKind::App, FaceKind::Link),
        node(dpccp_config(), FaceKind::Link, FaceKind::Link),
        node(config_c, FaceKind::Link, FaceKind::Link),
        node(dpccp_config(), FaceKind::Link, FaceKind::App),
    ]
}

/// Sends the consumer's Interest for /p/seg=`seg` up the chain until a node answers or D hands it
/// to its producer (which answers), then carries the Data down. Returns the hop count of the Data
/// each node sent downstream, A's (handed to the consumer) first.
fn fetch(chain: &mut [Forwarder], seg: u64) -> Vec<Option<u8>> {
    let mut out = Vec::new();
    let mut frame = interest(seg, 0);
    let mut at = 0;
    loop {
        chain[at].handle(Time::ZERO, FaceId(0), frame, &mut out);
        let (face, sent) = out.pop().expect("the Interest is forwarded or answered");
        if face == FaceId(0) {
            frame = sent; // answered from this node's cache
            break;
        }
        if at == chain.len() - 1 {
            // D's producer application answers through face 1.
            chain[at].handle(Time::ZERO, FaceId(1), data(seg, 0), &mut out);
            frame = out.pop().expect("D sends the Data on").1;
            break;
        }
        frame = sent;
        at += 1;
    }
    let mut hops = vec![data_hops(frame.lp.flags)];
    for below in (0..at).rev() {
        chain[below].handle(Time::ZERO, FaceId(1), frame, &mut out);
        frame = out.pop().expect("the Data goes down").1;
        hops.push(data_hops(frame.lp.flags));
    }
    hops.reverse();
    hops
}

#[test]
fn a_data_from_the_producer_on_d_reaches_a_consumer_on_a_with_three_hops() {
    // D's forwarder takes the Data from its producer's face and sends 0 on D-C (it holds the
    // content); C sends 0 + 1 = 1 on C-B, B sends 2 on B-A, A's forwarder hands 3 to the
    // consumer: the three links D-C, C-B, B-A.
    let mut chain = path_abcd(dpccp_config());
    assert_eq!(fetch(&mut chain, 1), vec![Some(3), Some(2), Some(1), Some(0)]);
    assert!(chain.iter().all(|n| n.dpccp().unwrap().counters.hop_counted == 1));
}

#[test]
fn a_data_from_cs_cache_on_c_reaches_a_with_two_hops() {
    // §VI-C's example: "the returned Data packet carries a tag with 2 hops, the consumer will
    // know that the Data packet is returned from C via C-B and B-A". C's simulated cache hits
    // every time (kappa = 1): C sends 0 on C-B, B sends 1, A hands 2 to the consumer.
    let cache =
        SimulatedCacheConfig { prefix: Name::parse("/p").unwrap(), payload: 1024, schedule: vec![(Time::ZERO, 1.0)] };
    let mut chain = path_abcd(ForwarderConfig { simulated_cache: Some(cache), ..dpccp_config() });
    assert_eq!(fetch(&mut chain, 1), vec![Some(2), Some(1), Some(0)]);
    assert_eq!(chain[2].counters.cs_hits, 1, "a simulated hit counts as a Content Store hit");
    assert_eq!(chain[3].counters.in_interests, 0, "D never hears of it");
}

#[test]
fn a_real_content_store_hit_starts_the_count_too() {
    // B caches the Data of the first fetch; the second is answered there: 0 on B-A, 1 at A.
    let mut chain = path_abcd(dpccp_config());
    chain[1] = node(ForwarderConfig { cs_capacity: 10, ..dpccp_config() }, FaceKind::Link, FaceKind::Link);
    fetch(&mut chain, 1);
    assert_eq!(fetch(&mut chain, 1), vec![Some(1), Some(0)]);
}

#[test]
fn nodes_without_the_extension_send_no_count() {
    // C is a stock forwarder: the count D set stops there, and B, which gets a Data without
    // one, adds none (a count that skipped C would name the wrong hop-flow).
    let mut chain = path_abcd(ForwarderConfig::default());
    assert_eq!(fetch(&mut chain, 1), vec![None, None, None, Some(0)]);
}

#[test]
fn the_count_saturates_at_63() {
    let mut fw = node(dpccp_config(), FaceKind::Link, FaceKind::Link);
    let mut out = Vec::new();
    for (seg, hops) in [(1, 62), (2, 63)] {
        fw.handle(Time::ZERO, FaceId(0), interest(seg, 0), &mut out);
        fw.handle(Time::ZERO, FaceId(1), data(seg, flags::with_data_hops(0, hops)), &mut out);
        assert_eq!(data_hops(out.pop().unwrap().1.lp.flags), Some(63), "from {hops}");
    }
}

/// A DPCCP router: faces 0 and 2 downstream links, face 1 upstream, /p via 1.
fn labelling_router(config: ForwarderConfig) -> Forwarder {
    let mut fw = node(config, FaceKind::Link, FaceKind::Link);
    fw.add_face(FaceKind::Link);
    fw
}

/// The Data for /p/seg=`seg` asked on `down` at `at_ms`, answered at once from upstream
/// (arriving with `data_flags`): the flags of the copy sent back to `down`.
fn round_trip(fw: &mut Forwarder, down: u32, seg: u64, at_ms: u64, data_flags: u64) -> u64 {
    let mut out = Vec::new();
    let now = Time::from_millis(at_ms);
    fw.handle(now, FaceId(down), interest(seg, 0), &mut out);
    fw.handle(now, FaceId(1), data(seg, data_flags), &mut out);
    let (face, frame) = out.pop().expect("the Data goes back");
    assert_eq!(face, FaceId(down));
    assert!(matches!(frame.packet, NetPacket::Data(_)));
    frame.lp.flags
}

#[test]
fn a_flagged_interest_labels_its_in_face_for_the_label_lifetime() {
    // A flagged Interest arrives on face 0 at 0 ms and goes on upstream with its flag. The
    // label (200 ms by default) holds until 200 ms: a Data sent out of face 0 at 100 ms and at
    // 199 ms carries the drain flag, one at 200 ms does not.
    let mut fw = labelling_router(dpccp_config());
    let mut out = Vec::new();
    fw.handle(Time::ZERO, FaceId(0), interest(100, flags::RTT_PROBING), &mut out);
    let (face, up) = out.pop().unwrap();
    assert_eq!((face, up.lp.flags & flags::RTT_PROBING), (FaceId(1), flags::RTT_PROBING), "the flag goes on");
    assert!(fw.dpccp().unwrap().is_labelled(Time::from_millis(199), FaceId(0)));
    let drained = |f: u64| f & flags::RTT_PROBING != 0;
    assert!(drained(round_trip(&mut fw, 0, 1, 100, 0)));
    assert!(drained(round_trip(&mut fw, 0, 2, 199, 0)));
    assert!(!drained(round_trip(&mut fw, 0, 3, 200, 0)), "the label has lapsed");
    let c = fw.dpccp().unwrap().counters;
    assert_eq!((c.faces_labelled, c.drain_flagged), (1, 2));
}

#[test]
fn each_flagged_interest_extends_the_label() {
    // Flagged Interests at 0 and 150 ms: the label lapses at 150 + 200 = 350 ms, not 200 ms;
    // the face was labelled once.
    let mut fw = labelling_router(dpccp_config());
    let mut out = Vec::new();
    fw.handle(Time::ZERO, FaceId(0), interest(100, flags::RTT_PROBING), &mut out);
    fw.handle(Time::from_millis(150), FaceId(0), interest(101, flags::RTT_PROBING), &mut out);
    let dpccp = fw.dpccp().unwrap();
    assert!(dpccp.is_labelled(Time::from_millis(349), FaceId(0)));
    assert!(!dpccp.is_labelled(Time::from_millis(350), FaceId(0)));
    assert_eq!(dpccp.counters.faces_labelled, 1);
}

#[test]
fn only_data_out_of_a_labelled_face_are_flagged_and_flags_travel_down() {
    // Face 0 is labelled; a Data to face 2 at the same instant is not flagged by this node, but
    // one that arrives flagged from upstream keeps its flag on the way down.
    let mut fw = labelling_router(dpccp_config());
    let mut out = Vec::new();
    fw.handle(Time::ZERO, FaceId(0), interest(100, flags::RTT_PROBING), &mut out);
    assert_eq!(round_trip(&mut fw, 2, 1, 10, 0) & flags::RTT_PROBING, 0);
    assert_eq!(round_trip(&mut fw, 2, 2, 10, flags::RTT_PROBING) & flags::RTT_PROBING, flags::RTT_PROBING);
    assert_eq!(fw.dpccp().unwrap().counters.drain_flagged, 0, "passed on, not flagged here");
}

#[test]
fn a_content_store_hit_out_of_a_labelled_face_is_flagged() {
    let mut fw = labelling_router(ForwarderConfig { cs_capacity: 10, ..dpccp_config() });
    round_trip(&mut fw, 0, 1, 0, 0); // caches /p/seg=1
    let mut out = Vec::new();
    fw.handle(Time::from_millis(1), FaceId(0), interest(100, flags::RTT_PROBING), &mut out);
    fw.handle(Time::from_millis(2), FaceId(0), interest(1, 0), &mut out);
    let (face, hit) = out.pop().unwrap();
    assert_eq!(face, FaceId(0));
    assert_eq!(hit.lp.flags, flags::with_data_hops(flags::RTT_PROBING, 0));
}

#[test]
fn an_application_face_is_not_labelled() {
    // The consumer's own node: its Interest comes from the application face, which has no queue
    // to drain; the flag goes on upstream all the same.
    let mut fw = node(dpccp_config(), FaceKind::App, FaceKind::Link);
    let mut out = Vec::new();
    fw.handle(Time::ZERO, FaceId(0), interest(100, flags::RTT_PROBING), &mut out);
    assert_eq!(out.pop().unwrap().1.lp.flags, flags::RTT_PROBING);
    assert_eq!(fw.dpccp().unwrap().counters.faces_labelled, 0);
}

#[test]
fn the_flag_travels_with_ptps_tag_switching() {
    // A tagged Interest (tags [7, 1]: pop 1, send [7] out of face 1) keeps its RTT-probing flag
    // and labels its in-face on a node that runs PTP and DPCCP.
    let mut fw = labelling_router(ForwarderConfig { ptp: true, ..dpccp_config() });
    let mut i = interest(100, flags::RTT_PROBING);
    i.lp.ext_mut().tags = [7, 1].into_iter().collect();
    let mut out = Vec::new();
    fw.handle(Time::ZERO, FaceId(0), i, &mut out);
    let (face, up) = out.pop().unwrap();
    assert_eq!(face, FaceId(1));
    assert_eq!(up.lp.flags, flags::RTT_PROBING);
    assert_eq!(up.lp.ext.as_ref().map(|e| e.tags.to_vec()), Some(vec![7]));
    assert_eq!(fw.mpfp().unwrap().counters.tag_switched, 1);
    assert!(fw.dpccp().unwrap().is_labelled(Time::ZERO, FaceId(0)));
}

#[test]
fn a_stock_forwarder_drops_the_flag() {
    let mut fw = labelling_router(ForwarderConfig::default());
    let mut out = Vec::new();
    fw.handle(Time::ZERO, FaceId(0), interest(100, flags::RTT_PROBING), &mut out);
    assert_eq!(out.pop().unwrap().1.lp.flags, 0);
}

#[test]
fn a_simulated_hit_is_a_content_store_hit_to_every_extension() {
    // A node with PTP, DPCCP and a cache hitting always: the strategy never sees the Interest
    // (nothing goes upstream), and the Data goes back with PTP's FROM_CACHE and hop count 0.
    let cache =
        SimulatedCacheConfig { prefix: Name::parse("/p").unwrap(), payload: 1024, schedule: vec![(Time::ZERO, 1.0)] };
    let config = ForwarderConfig { ptp: true, simulated_cache: Some(cache), ..dpccp_config() };
    let mut fw = labelling_router(config);
    let mut out = Vec::new();
    fw.handle(Time::ZERO, FaceId(0), interest(1, 0), &mut out);
    assert_eq!(out.len(), 1);
    let (face, hit) = out.pop().unwrap();
    assert_eq!(face, FaceId(0));
    assert_eq!(hit.lp.flags, flags::with_data_hops(flags::FROM_CACHE, 0));
    assert_eq!((fw.counters.cs_hits, fw.counters.out_interests), (1, 0));
    assert_eq!(fw.simulated_cache().unwrap().counters.hits, 1);
}
