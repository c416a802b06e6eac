//! The PIT's bound shared among faces, on the two-face router of `fw::testing` plus a third face.

use super::*;
use crate::fw::testing::{interest, router};
use crate::fw::FaceKind;
use crate::packet::{Frame, NetPacket};

/// Offers the Interest for /p/seg=`seg` from `face` as the daemon does (`handle_bounded`).
/// Returns the verdict and what the forwarder sent.
fn offer(fw: &mut Forwarder, face: u32, seg: u32) -> (PitRoom, Vec<(FaceId, Frame)>) {
    let mut out = Vec::new();
    let room = fw.handle_bounded(Time::ZERO, FaceId(face), interest(seg, None), &mut out);
    if room == PitRoom::Full {
        let NetPacket::Nack(nack) = &out[0].1.packet else { panic!("a refusal is a Nack: {out:?}") };
        assert_eq!((out[0].0, nack.reason), (FaceId(face), NackReason::Congestion));
        assert_eq!(out.len(), 1, "nothing else: the Interest went no further");
    }
    (room, out)
}

/// A router bounded at 4 entries, with downstreams 0 and 2 and the upstream 1.
fn bounded() -> Forwarder {
    let mut fw = router();
    fw.add_face(FaceKind::Link); // face 2
    fw.set_pit_capacity(4);
    fw
}

#[test]
fn one_face_alone_fills_the_table_and_cannot_shed_its_own_entries() {
    let mut fw = bounded();
    for seg in 1..=4 {
        assert_eq!(offer(&mut fw, 0, seg).0, PitRoom::Free);
    }
    assert_eq!(offer(&mut fw, 0, 5).0, PitRoom::Full);
    // An Interest that joins a pending entry needs no room.
    assert_eq!(offer(&mut fw, 0, 4).0, PitRoom::Free);
    assert_eq!(fw.pit.len(), 4);
}

#[test]
fn a_full_table_is_shared_half_and_half_between_two_faces() {
    let mut fw = bounded();
    for seg in 1..=4 {
        offer(&mut fw, 0, seg);
    }
    // Face 2 holds 0 and face 0 holds 4: 4 >= 0 + 2, so face 0's oldest (/p/seg=1) goes, and face 0
    // hears a Nack(Congestion) for it; face 2's Interest goes upstream.
    let (room, out) = offer(&mut fw, 2, 101);
    assert_eq!(room, PitRoom::Shed(FaceId(0)));
    let NetPacket::Nack(nack) = &out[0].1.packet else { panic!("a Nack first: {out:?}") };
    assert_eq!(
        (out[0].0, nack.reason, nack.interest.name.to_string()),
        (FaceId(0), NackReason::Congestion, "/p/seg=1".to_string())
    );
    assert!(matches!(out[1].1.packet, NetPacket::Interest(_)) && out[1].0 == FaceId(1));
    // 3 against 1: 3 >= 1 + 2, one more of face 0's goes (/p/seg=2).
    assert_eq!(offer(&mut fw, 2, 102).0, PitRoom::Shed(FaceId(0)));
    // 2 against 2: 2 < 2 + 2, face 2 has its half.
    assert_eq!(offer(&mut fw, 2, 103).0, PitRoom::Full);
    assert_eq!((fw.pit.opened_by(FaceId(0)), fw.pit.opened_by(FaceId(2)), fw.pit.len()), (2, 2, 4));
    // Face 0 cannot take back what it lost either: 2 < 2 + 2.
    assert_eq!(offer(&mut fw, 0, 5).0, PitRoom::Full);
    let shed: Vec<String> = ["/p/seg=1", "/p/seg=2"].iter().map(|s| s.to_string()).collect();
    for name in &shed {
        let i = Interest::new(crate::Name::parse(name).unwrap(), 0, Time::from_secs(2));
        assert!(fw.pit.find(&i).is_none(), "{name} was shed");
    }
    // Two for the shed entries, two for the refused Interests.
    assert_eq!(fw.counters.out_nacks, 4);
}

#[test]
fn satisfied_entries_leave_their_opener_share() {
    let mut fw = bounded();
    for seg in 1..=4 {
        offer(&mut fw, 0, seg);
    }
    // Data for /p/seg=1 satisfies its entry: it lingers for stragglers, then goes.
    let mut out = Vec::new();
    fw.handle(Time::from_millis(1), FaceId(1), crate::fw::testing::data(1, Default::default()), &mut out);
    fw.handle_timeout(Time::from_secs(1), &mut out);
    assert_eq!((fw.pit.len(), fw.pit.opened_by(FaceId(0))), (3, 3));
    assert_eq!(offer(&mut fw, 2, 101).0, PitRoom::Free);
}

#[test]
fn an_unbounded_pit_never_refuses() {
    let mut fw = router();
    for seg in 1..=100 {
        assert_eq!(offer(&mut fw, 0, seg).0, PitRoom::Free);
    }
    assert_eq!((fw.pit.len(), fw.pit.opened_by(FaceId(0))), (100, 0), "openers are not tracked");
}

#[test]
fn an_interest_that_replaces_a_lingering_entry_opens_it_for_its_own_face() {
    let mut fw = bounded(); // no Content Store: the default one holds nothing
    offer(&mut fw, 0, 1);
    let mut out = Vec::new();
    fw.handle(Time::from_millis(1), FaceId(1), crate::fw::testing::data(1, Default::default()), &mut out);
    // Face 0's entry lingers, satisfied, for stragglers. Face 2 asks for the same name (another
    // nonce): the pipeline starts a fresh entry in its place, and that one is face 2's.
    let frame = crate::fw::testing::interest(1, None);
    let NetPacket::Interest(i) = &frame.packet else { unreachable!() };
    let mut again = Interest::clone(i);
    again.nonce = Some(77);
    out.clear();
    let room =
        fw.handle_bounded(Time::from_millis(2), FaceId(2), Frame::interest(std::sync::Arc::new(again)), &mut out);
    assert_eq!(room, PitRoom::Free);
    assert!(matches!(out[0].1.packet, NetPacket::Interest(_)) && out[0].0 == FaceId(1), "{out:?}");
    assert_eq!((fw.pit.len(), fw.pit.opened_by(FaceId(0)), fw.pit.opened_by(FaceId(2))), (1, 0, 1));
}
