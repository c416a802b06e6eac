//! MPFP on one router: probes spread over the next hops, tags pushed into probing Data and popped
//! from Interests, the fallback on an invalid tag, and the from-cache flag (PTP §4-A, §4-B, §5-D).

use std::sync::Arc;

use super::*;
use crate::fw::{FaceKind, Forwarder, ForwarderConfig};
use crate::packet::lp::flags;
use crate::packet::{Data, Frame, Interest, NetPacket};
use crate::Time;

/// A PTP router: face 0 downstream, faces 1, 2, 3 upstream, /p via 1 and 2 (3 is no next hop).
fn router(cs_capacity: usize) -> Forwarder {
    let config = ForwarderConfig { ptp: true, cs_capacity, ..ForwarderConfig::default() };
    let mut fw = Forwarder::new(config, 1);
    for _ in 0..4 {
        fw.add_face(FaceKind::Link);
    }
    let p = Name::parse("/p").unwrap();
    fw.fib.add_nexthop(&p, FaceId(1), 1);
    fw.fib.add_nexthop(&p, FaceId(2), 2);
    fw
}

fn interest(seg: u64, lp: LpHeader) -> Frame {
    let name = Name::parse("/p").unwrap().append_segment(seg);
    let mut f = Frame::interest(Arc::new(Interest::new(name, seg as u32 + 1, Time::from_secs(2))));
    f.lp = lp;
    f
}

fn data(seg: u64, lp: LpHeader) -> Frame {
    let name = Name::parse("/p").unwrap().append_segment(seg);
    let mut f = Frame::data(Arc::new(Data::new(name, bytes::Bytes::from_static(b"x"))));
    f.lp = lp;
    f
}

fn probe() -> LpHeader {
    LpHeader { flags: flags::PTP_PROBE, ..Default::default() }
}

fn tagged(tags: &[u64]) -> LpHeader {
    let mut lp = LpHeader::default();
    lp.ext_mut().tags = tags.iter().copied().collect();
    lp
}

fn tags(lp: &LpHeader) -> Vec<u64> {
    lp.ext.as_ref().map(|e| e.tags.to_vec()).unwrap_or_default()
}

#[test]
fn probes_take_the_next_hops_in_turn_and_keep_their_flag() {
    let mut fw = router(0);
    let mut out = Vec::new();
    for seg in 0..4 {
        fw.handle(Time::ZERO, FaceId(0), interest(seg, probe()), &mut out);
    }
    let faces: Vec<u32> = out.iter().map(|(f, _)| f.0).collect();
    assert_eq!(faces, vec![1, 2, 1, 2], "equal weight over /p's two next hops");
    assert!(out.iter().all(|(_, fr)| fr.lp.flags == flags::PTP_PROBE));
    assert_eq!(fw.mpfp().unwrap().counters.probes, 4);
}

#[test]
fn a_probing_data_gets_the_face_it_arrived_on_pushed_onto_its_stack() {
    let mut fw = router(0);
    let mut out = Vec::new();
    fw.handle(Time::ZERO, FaceId(0), interest(0, probe()), &mut out);
    out.clear();
    // From upstream with [7] already pushed by the router above: this one adds its face 1.
    let mut lp = probe();
    lp.ext_mut().tags = [7].into_iter().collect();
    fw.handle(Time::from_millis(1), FaceId(1), data(0, lp), &mut out);
    let (face, back) = out.pop().unwrap();
    assert_eq!(face, FaceId(0));
    assert_eq!(back.lp.flags & flags::PTP_PROBE, flags::PTP_PROBE);
    assert_eq!(tags(&back.lp), vec![7, 1]);
    // An ordinary Data gets no stack.
    fw.handle(Time::from_millis(2), FaceId(0), interest(1, LpHeader::default()), &mut out);
    out.clear();
    fw.handle(Time::from_millis(3), FaceId(1), data(1, LpHeader::default()), &mut out);
    assert!(tags(&out.pop().unwrap().1.lp).is_empty());
}

#[test]
fn a_tagged_interest_pops_its_top_and_goes_out_of_that_face_with_the_rest() {
    let mut fw = router(0);
    let mut out = Vec::new();
    // Top (last) = 2, the second next hop, which best-route would not pick.
    fw.handle(Time::ZERO, FaceId(0), interest(0, tagged(&[9, 2])), &mut out);
    let (face, sent) = out.pop().unwrap();
    assert_eq!(face, FaceId(2));
    assert_eq!(tags(&sent.lp), vec![9]);
    // The last tag leaves an empty stack: the Interest goes on untagged.
    fw.handle(Time::ZERO, FaceId(0), interest(1, tagged(&[2])), &mut out);
    let (face, sent) = out.pop().unwrap();
    assert_eq!((face, tags(&sent.lp)), (FaceId(2), vec![]));
    assert_eq!(fw.mpfp().unwrap().counters.tag_switched, 2);
}

#[test]
fn an_invalid_tag_falls_back_to_the_strategy_untagged() {
    let mut fw = router(0);
    let mut out = Vec::new();
    // Face 3 is up but no next hop of /p; face 8 does not exist; face 0 is where it came from.
    for (seg, top) in [(0, 3), (1, 8), (2, 0)] {
        fw.handle(Time::ZERO, FaceId(0), interest(seg, tagged(&[5, top])), &mut out);
        let (face, sent) = out.pop().unwrap();
        assert_eq!((face, tags(&sent.lp)), (FaceId(1), vec![]), "best-route's choice, tag {top}");
    }
    // A next hop that is down is invalid too.
    fw.set_face_up(FaceId(2), false);
    fw.handle(Time::ZERO, FaceId(0), interest(3, tagged(&[2])), &mut out);
    assert_eq!(out.pop().unwrap().0, FaceId(1));
    assert_eq!(fw.mpfp().unwrap().counters.tag_fallbacks, 4);
}

#[test]
fn a_cache_hit_is_flagged_and_probes_skip_the_cache() {
    let mut fw = router(10);
    let mut out = Vec::new();
    fw.handle(Time::ZERO, FaceId(0), interest(0, LpHeader::default()), &mut out);
    fw.handle(Time::from_millis(1), FaceId(1), data(0, LpHeader::default()), &mut out);
    out.clear();
    // A tagged Interest for the cached Data is answered here, flagged as from a cache.
    fw.handle(Time::from_millis(2), FaceId(0), interest(0, tagged(&[2])), &mut out);
    let (face, back) = out.pop().unwrap();
    assert!(matches!(back.packet, NetPacket::Data(_)));
    assert_eq!((face, back.lp.flags), (FaceId(0), flags::FROM_CACHE));
    // A probe for it goes upstream all the same: it must reach a producer.
    fw.handle(Time::from_millis(3), FaceId(0), interest(0, probe()), &mut out);
    let (face, sent) = out.pop().unwrap();
    assert!(matches!(sent.packet, NetPacket::Interest(_)));
    assert_eq!(face, FaceId(1));
    // The flag set by a cache upstream stays on the way down.
    fw.handle(Time::from_millis(4), FaceId(0), interest(5, LpHeader::default()), &mut out);
    out.clear();
    let cached = LpHeader { flags: flags::FROM_CACHE, ..Default::default() };
    fw.handle(Time::from_millis(5), FaceId(1), data(5, cached), &mut out);
    assert_eq!(out.pop().unwrap().1.lp.flags, flags::FROM_CACHE);
}

#[test]
fn a_forwarder_without_ptp_ignores_the_fields() {
    let mut fw = Forwarder::new(ForwarderConfig::default(), 1);
    fw.add_face(FaceKind::Link);
    fw.add_face(FaceKind::Link);
    fw.add_face(FaceKind::Link);
    let p = Name::parse("/p").unwrap();
    fw.fib.add_nexthop(&p, FaceId(1), 1);
    fw.fib.add_nexthop(&p, FaceId(2), 2);
    let mut out = Vec::new();
    fw.handle(Time::ZERO, FaceId(0), interest(0, tagged(&[2])), &mut out);
    let (face, sent) = out.pop().unwrap();
    assert_eq!((face, sent.lp.is_empty()), (FaceId(1), true));
    assert!(fw.mpfp().is_none());
}
