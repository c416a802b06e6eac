//! MPFP on one router: probes spread over the next hops, tags pushed into probing Data and popped
//! from Interests, an invalid tag's Nack or fallback, and the from-cache flag (PTP §4-A, §4-B, §5-D).

use std::sync::Arc;

use super::*;
use crate::fw::{FaceKind, Forwarder, ForwarderConfig};
use crate::packet::lp::flags;
use crate::packet::{Data, Frame, Interest, NetPacket};
use crate::Time;

/// A PTP router: face 0 downstream, faces 1, 2, 3 upstream, /p via 1 and 2 (3 is no next hop).
fn router(cs_capacity: usize) -> Forwarder {
    router_with(ForwarderConfig { ptp: true, cs_capacity, ..ForwarderConfig::default() })
}

fn router_with(config: ForwarderConfig) -> Forwarder {
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
fn probes_draw_their_next_hop_with_equal_weight_and_keep_their_flag() {
    // 2,000 probes for /p, whose next hops are faces 1 and 2 (face 3 is none): each face is a
    // Binomial(2000, 1/2) count, mean 1,000 and standard deviation sqrt(2000 / 4) = 22.4; both
    // within 5 sigma (112) of the mean. The draws are the router's seeded stream: deterministic.
    let mut fw = router(0);
    let mut out = Vec::new();
    for seg in 0..2000 {
        fw.handle(Time::ZERO, FaceId(0), interest(seg, probe()), &mut out);
    }
    let on = |face: u32| out.iter().filter(|(f, _)| f.0 == face).count() as i64;
    assert_eq!(on(1) + on(2), 2000, "only the FIB's next hops");
    assert!((on(1) - 1000).abs() <= 112, "face 1: {}", on(1));
    assert!(out.iter().all(|(_, fr)| fr.lp.flags == flags::PTP_PROBE));
    assert_eq!(fw.mpfp().unwrap().counters.probes, 2000);
}

#[test]
fn a_probe_at_a_producers_node_goes_to_the_producer() {
    // Face 4 is a local producer of /p, next hop at cost 0 beside links 1 and 2. Every one of 200
    // probes goes to it ("always forwarded to a producer", §4-A): none walks on past it. Without
    // the rule each would take face 4 with probability 1/3 only.
    let mut fw = router(0);
    let app = fw.add_face(FaceKind::App);
    fw.fib.add_nexthop(&Name::parse("/p").unwrap(), app, 0);
    let mut out = Vec::new();
    for seg in 0..200 {
        fw.handle(Time::ZERO, FaceId(0), interest(seg, probe()), &mut out);
    }
    assert_eq!(out.len(), 200);
    assert!(out.iter().all(|(f, _)| *f == app));
}

#[test]
fn consumers_probing_in_step_each_see_every_next_hop() {
    // Two downstreams (faces 0 and 3) probe alternately, as two consumers on one grid would. A
    // turn shared by both gave face 0 every odd probe's hop and face 3 every even one's, so each
    // found one path; drawn independently, each downstream's 20 probes reach both next hops
    // unless all 20 draws agree: probability 2 x 2^-20 per downstream.
    let mut fw = router(0);
    let mut out = Vec::new();
    let mut seen = [std::collections::BTreeSet::new(), std::collections::BTreeSet::new()];
    for seg in 0..40u64 {
        let down = if seg % 2 == 0 { FaceId(0) } else { FaceId(3) };
        fw.handle(Time::ZERO, down, interest(seg, probe()), &mut out);
        let (face, _) = out.pop().expect("a probe goes upstream");
        seen[(seg % 2) as usize].insert(face.0);
    }
    assert_eq!(seen[0].iter().copied().collect::<Vec<_>>(), vec![1, 2]);
    assert_eq!(seen[1].iter().copied().collect::<Vec<_>>(), vec![1, 2]);
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
fn a_popped_stack_goes_on_without_the_arrived_headers_other_fields() {
    // The forwarded header reuses the arrived one's extension box: only the rest of the stack
    // may go on, not the last link's sequence numbers, Acks or rates.
    let mut fw = router(0);
    let mut out = Vec::new();
    let mut lp = tagged(&[9, 2]);
    let ext = lp.ext_mut();
    (ext.sequence, ext.tx_sequence, ext.mircc_rate) = (Some(7), Some(8), Some(1_000));
    ext.acks = [3, 4].into_iter().collect();
    fw.handle(Time::ZERO, FaceId(0), interest(0, lp), &mut out);
    let (face, sent) = out.pop().unwrap();
    let expected = LpExtensions { tags: [9].into_iter().collect(), ..LpExtensions::default() };
    assert_eq!((face, sent.lp.ext.as_deref()), (FaceId(2), Some(&expected)));
}

#[test]
fn an_invalid_tag_is_nacked_by_default() {
    // §4-C-2: Nack(NoRoute) back to the downstream, nothing upstream.
    let mut fw = router(0);
    let mut out = Vec::new();
    fw.handle(Time::ZERO, FaceId(0), interest(0, tagged(&[5, 3])), &mut out);
    let (face, back) = out.pop().unwrap();
    assert!(out.is_empty());
    let NetPacket::Nack(nack) = &back.packet else { panic!("{back:?}") };
    assert_eq!((face, nack.reason), (FaceId(0), NackReason::NoRoute));
    assert_eq!(fw.mpfp().unwrap().counters.tag_nacks, 1);
}

#[test]
fn an_invalid_tag_falls_back_to_the_strategy_untagged_when_asked() {
    let mut fw =
        router_with(ForwarderConfig { ptp: true, invalid_tag: InvalidTag::Forward, ..ForwarderConfig::default() });
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
    assert!(face == FaceId(1) || face == FaceId(2), "upstream, to a next hop: {face:?}");
    // The flag set by a cache upstream stays on the way down.
    fw.handle(Time::from_millis(4), FaceId(0), interest(5, LpHeader::default()), &mut out);
    out.clear();
    let cached = LpHeader { flags: flags::FROM_CACHE, ..Default::default() };
    fw.handle(Time::from_millis(5), FaceId(1), data(5, cached), &mut out);
    assert_eq!(out.pop().unwrap().1.lp.flags, flags::FROM_CACHE);
}

#[test]
fn a_data_answering_an_aggregated_interest_is_flagged() {
    // Face 0 asks for /p/seg=5 first; face 3 asks for the same name while it is pending: its
    // Interest is aggregated. The producer's Data goes to face 0 unflagged (it is in the
    // producer's order for that requester) and to face 3 with FROM_CACHE (PTP §5-A, §5-D-1).
    let mut fw = router(0);
    let mut out = Vec::new();
    fw.handle(Time::ZERO, FaceId(0), interest(5, LpHeader::default()), &mut out);
    let mut other = interest(5, LpHeader::default());
    if let NetPacket::Interest(i) = &mut other.packet {
        Arc::make_mut(i).nonce = Some(99);
    }
    fw.handle(Time::from_millis(1), FaceId(3), other, &mut out);
    assert_eq!(out.len(), 1, "the second Interest is aggregated");
    out.clear();
    fw.handle(Time::from_millis(10), FaceId(1), data(5, LpHeader::default()), &mut out);
    let flagged: Vec<(u32, bool)> = out.iter().map(|(f, fr)| (f.0, fr.lp.flags & flags::FROM_CACHE != 0)).collect();
    assert_eq!(flagged, vec![(0, false), (3, true)]);
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
