//! Route labels on one router: the fold of upstream faces hop by hop, none without the option,
//! and the Content Store's own route (docs/protocols/forwarder.md, "Route labels").

use std::sync::Arc;

use super::*;
use crate::fw::testing::{interest, round_trip, router, router_with};
use crate::fw::{FaceKind, ForwarderConfig};
use crate::packet::{Data, Frame};
use crate::{Name, Time};

#[test]
fn route_labels_fold_the_upstream_face_hop_by_hop() {
    let mut fw = router_with(ForwarderConfig { route_labels: true, ..ForwarderConfig::default() });
    fw.add_face(FaceKind::Link); // face 2: a second way to /p
                                 // From the end of the route (no label yet), in on face 1: mix64(rotl(0, 17) ^ 1) = mix64(1).
    let first = round_trip(&mut fw, 1, 0, LpHeader::default()).lp.trajectory_id();
    assert_eq!(first, Some(crate::mix::mix64(1)));
    // A label from upstream is folded further: mix64(rotl(L, 17) ^ 1).
    let mut lp = LpHeader::default();
    lp.ext_mut().trajectory_id = Some(0x8000_0000_0000_0001);
    let folded = round_trip(&mut fw, 2, 0, lp).lp.trajectory_id();
    // By hand: rotl(L, 17) takes bit 63 to bit 16 and bit 0 to bit 17 (0x3_0000); xor face 1.
    assert_eq!(folded, Some(crate::mix::mix64(0x3_0001)));
    // Another upstream face, another route.
    fw.fib.add_nexthop(&Name::parse("/p").unwrap(), FaceId(2), 0); // now the cheaper next hop
    let mut out = Vec::new();
    fw.handle(Time::ZERO, FaceId(0), interest(3, None), &mut out);
    assert_eq!(out.pop().unwrap().0, FaceId(2));
    let name = Name::parse("/p").unwrap().append_segment(3);
    let d = Frame::data(Arc::new(Data::new(name, bytes::Bytes::from_static(b"x"))));
    fw.handle(Time::from_millis(1), FaceId(2), d, &mut out);
    assert_eq!(out.pop().unwrap().1.lp.trajectory_id(), Some(crate::mix::mix64(2)));
    // The label is 12 bytes on the wire: TLV-TYPE 864 (3 octets), TLV-LENGTH 8 (1), 8 octets.
    let mut labelled = LpHeader::default();
    labelled.ext_mut().trajectory_id = Some(1);
    assert_eq!(labelled.fields_size(), 12);
}

#[test]
fn without_route_labels_no_label_goes_down() {
    let mut fw = router();
    let mut lp = LpHeader::default();
    lp.ext_mut().trajectory_id = Some(5);
    // Link header fields are per hop: a forwarder that does not label drops the field.
    assert_eq!(round_trip(&mut fw, 1, 0, lp).lp.trajectory_id(), None);
}

#[test]
fn a_content_store_hit_starts_its_own_route() {
    let mut fw = router_with(ForwarderConfig { route_labels: true, cs_capacity: 10, ..ForwarderConfig::default() });
    round_trip(&mut fw, 1, 0, LpHeader::default()); // fills the Content Store
    let mut out = Vec::new();
    fw.handle(Time::from_millis(5), FaceId(0), interest(1, None), &mut out);
    let (face, hit) = out.pop().expect("answered from the Content Store");
    assert_eq!(face, FaceId(0));
    // mix64(rotl(0, 17) ^ (2^64 - 1)) = mix64(2^64 - 1): no upstream label, the store's own hop.
    assert_eq!(hit.lp.trajectory_id(), Some(crate::mix::mix64(u64::MAX)));
}
