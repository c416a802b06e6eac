//! Forwarder pipelines: HopLimit, loops, and how marks travel, on a two-face router.

use super::super::strategy::MulticastStrategy;
use super::*;
use crate::fw::testing::{interest, round_trip, router, router_with};
use crate::packet::{Nack, NO_PIT_HINT};

#[test]
fn hop_limit_is_decremented_on_arrival_and_an_exhausted_one_is_not_sent() {
    let mut fw = router();
    let mut out = Vec::new();
    fw.handle(Time::ZERO, FaceId(0), interest(1, Some(2)), &mut out);
    let NetPacket::Interest(sent) = &out[0].1.packet else { panic!("expected an Interest") };
    assert_eq!((out[0].0, sent.hop_limit), (FaceId(1), Some(1)));
    out.clear();
    // HopLimit 1 becomes 0 here: the Interest may reach this node but no further.
    fw.handle(Time::ZERO, FaceId(0), interest(2, Some(1)), &mut out);
    assert!(out.is_empty());
    assert_eq!(fw.counters.hop_limit_exceeded, 1);
    fw.handle(Time::ZERO, FaceId(0), interest(3, Some(0)), &mut out);
    assert!(out.is_empty());
    assert_eq!(fw.counters.hop_limit_exceeded, 2);
}

#[test]
fn marks_travel_down_with_the_data_and_count_the_hops_since_the_mark() {
    let mut fw = router();
    let lp = |mark, hops| LpHeader { congestion_mark: mark, hop_count: hops, ..Default::default() };
    // Unmarked stays unmarked.
    assert_eq!(round_trip(&mut fw, 1, 0, lp(0, None)).lp, lp(0, None));
    // Marked on the link just crossed: the next router is two hops from it.
    assert_eq!(round_trip(&mut fw, 2, 0, lp(1, None)).lp, lp(1, Some(1)));
    assert_eq!(round_trip(&mut fw, 3, 0, lp(1, Some(1))).lp, lp(1, Some(2)));
    // The Interest came over a congested link: the Data going back is marked here, afresh.
    assert_eq!(round_trip(&mut fw, 4, 1, lp(0, None)).lp, lp(1, None));
    assert_eq!(round_trip(&mut fw, 5, 1, lp(1, Some(3))).lp, lp(1, None));
}

#[test]
fn a_strategy_that_does_not_steer_passes_the_path_signal_on_but_not_the_local_one() {
    use crate::packet::lp::flags::{HIGH_CONG, HIGH_CONG_LOCAL};
    let mut fw = router(); // best-route: the default `after_receive_data`
    let lp = |flags| LpHeader { flags, ..Default::default() };
    // The link just crossed is highly congested: the routers below learn of a congested path,
    // not of a congested link of their own (PCON §3.6 resets the local bit).
    assert_eq!(round_trip(&mut fw, 1, 0, lp(HIGH_CONG | HIGH_CONG_LOCAL)).lp, lp(HIGH_CONG));
    assert_eq!(round_trip(&mut fw, 2, 0, lp(HIGH_CONG)).lp, lp(HIGH_CONG));
    assert_eq!(round_trip(&mut fw, 3, 0, lp(0)).lp, lp(0));
}

#[test]
fn interest_marks_can_be_ignored() {
    let mut fw = router_with(ForwarderConfig { interest_marks: InterestMarks::Ignore, ..ForwarderConfig::default() });
    assert_eq!(round_trip(&mut fw, 1, 1, LpHeader::default()).lp.congestion_mark, 0);
}

#[test]
fn a_nonce_seen_from_another_face_is_a_loop_answered_with_nack_duplicate() {
    let mut fw = router();
    fw.add_face(FaceKind::Link); // face 2, another downstream
    let mut out = Vec::new();
    fw.handle(Time::ZERO, FaceId(0), interest(7, None), &mut out);
    out.clear();
    fw.handle(Time::from_millis(1), FaceId(2), interest(7, None), &mut out);
    assert_eq!(out.len(), 1);
    let NetPacket::Nack(nack) = &out[0].1.packet else { panic!("expected a Nack") };
    assert_eq!((out[0].0, nack.reason), (FaceId(2), NackReason::Duplicate));
    assert_eq!(fw.counters.duplicates, 1);
}

#[test]
fn pit_hints_go_up_with_interests_and_come_back_with_data() {
    let mut fw = router();
    fw.add_face(FaceKind::Link); // face 2, another downstream
    let mut out = Vec::new();
    // Two downstreams with hints of their own: one PIT entry here, whose hint goes upstream.
    let name = Name::parse("/p").unwrap().append_segment(9);
    for (face, hint) in [(0, 40), (2, 42)] {
        let mut i = Frame::interest(Arc::new(Interest::new(name.clone(), hint, Time::from_secs(2))));
        i.set_pit_hint(hint);
        fw.handle(Time::ZERO, FaceId(face), i, &mut out);
    }
    assert_eq!(out.len(), 1, "the second Interest aggregates");
    let (_, up) = out.pop().unwrap();
    let NetPacket::Interest(sent) = &up.packet else { panic!("expected an Interest") };
    let id = fw.pit.find(sent).unwrap();
    assert_eq!(up.pit_hint(), id.hint());
    // The Data comes back with that hint (a wrong one would only cost the probe) and goes down
    // to each downstream with the hint its Interest brought.
    for hint in [id.hint(), NO_PIT_HINT] {
        let mut d = Frame::data(Arc::new(Data::new(name.clone(), bytes::Bytes::from_static(b"x"))));
        d.set_pit_hint(hint);
        fw.handle(Time::from_millis(1), FaceId(1), d, &mut out);
        if hint != NO_PIT_HINT {
            let hints: Vec<(FaceId, u32)> = out.iter().map(|(f, d)| (*f, d.pit_hint())).collect();
            assert_eq!(hints, [(FaceId(0), 40), (FaceId(2), 42)]);
        } else {
            assert_eq!(out.len(), 2, "the second copy is unsolicited");
            assert_eq!(fw.counters.unsolicited_data, 1);
        }
    }
}

/// A router whose /p Interests go to faces 1 and 2 at once (multicast), with straggler time `straggler`.
fn two_upstreams(straggler: Time) -> Forwarder {
    let config = ForwarderConfig { default_strategy: StrategyName::Multicast, straggler, ..ForwarderConfig::default() };
    let mut fw = Forwarder::new(config, 1);
    for _ in 0..3 {
        fw.add_face(FaceKind::Link);
    }
    fw.fib.add_nexthop(&Name::parse("/p").unwrap(), FaceId(1), 1);
    fw.fib.add_nexthop(&Name::parse("/p").unwrap(), FaceId(2), 1);
    fw
}

fn data(seg: u64) -> Frame {
    Frame::data(Arc::new(Data::new(Name::parse("/p").unwrap().append_segment(seg), bytes::Bytes::from_static(b"x"))))
}

/// Interest 1 from face 0 goes up both faces; face 1 answers at 10 ms, face 2 at 60 ms.
/// Returns what each answer sent.
fn answered_twice(fw: &mut Forwarder) -> (Outbox, Outbox) {
    let mut out = Vec::new();
    fw.handle(Time::ZERO, FaceId(0), interest(1, None), &mut out);
    assert_eq!(out.iter().map(|(f, _)| f.0).collect::<Vec<_>>(), vec![1, 2]);
    let (mut first, mut second) = (Vec::new(), Vec::new());
    fw.handle(Time::from_millis(10), FaceId(1), data(1), &mut first);
    fw.handle(Time::from_millis(60), FaceId(2), data(1), &mut second);
    (first, second)
}

#[test]
fn without_a_straggler_time_the_second_copy_is_unsolicited() {
    let mut fw = two_upstreams(Time::ZERO);
    let (first, second) = answered_twice(&mut fw);
    assert_eq!((first.len(), first[0].0), (1, FaceId(0)));
    assert!(second.is_empty());
    assert_eq!((fw.counters.unsolicited_data, fw.pit.len()), (1, 0));
}

#[test]
fn a_satisfied_entry_stays_for_the_straggler_time_and_takes_late_copies_silently() {
    let mut fw = two_upstreams(Time::from_millis(100));
    let (first, second) = answered_twice(&mut fw);
    assert_eq!((first.len(), first[0].0), (1, FaceId(0)));
    // The copy from face 2 is 50 ms late: it is taken (not unsolicited) and sent nowhere.
    assert!(second.is_empty());
    assert_eq!((fw.counters.unsolicited_data, fw.pit.len()), (0, 1));
    // The entry goes 100 ms after the first Data (at 110 ms), without counting as expired.
    assert_eq!(fw.poll_timeout(), Some(Time::from_millis(110)));
    fw.handle_timeout(Time::from_millis(109), &mut Vec::new());
    assert_eq!(fw.pit.len(), 1);
    fw.handle_timeout(Time::from_millis(110), &mut Vec::new());
    assert_eq!((fw.pit.len(), fw.counters.expired), (0, 0));
    // A copy later than that is unsolicited again.
    fw.handle(Time::from_millis(111), FaceId(1), data(1), &mut Vec::new());
    assert_eq!(fw.counters.unsolicited_data, 1);
}

#[test]
fn a_new_interest_for_a_lingering_entry_is_forwarded_afresh() {
    let mut fw = two_upstreams(Time::from_millis(100));
    let mut out = Vec::new();
    fw.handle(Time::ZERO, FaceId(0), interest(1, None), &mut out);
    fw.handle(Time::from_millis(2), FaceId(1), data(1), &mut Vec::new());
    // Face 2 has not answered, so the lingering entry still has its out-record; a new request
    // (another nonce) is not a retransmission of the one answered: it goes up both faces again,
    // where a retransmission 4 ms after the last would be suppressed (the 10 ms initial interval).
    out.clear();
    let name = Name::parse("/p").unwrap().append_segment(1);
    let again = Frame::interest(Arc::new(Interest::new(name, 99, Time::from_secs(2))));
    fw.handle(Time::from_millis(4), FaceId(0), again, &mut out);
    assert_eq!(out.iter().map(|(f, _)| f.0).collect::<Vec<_>>(), vec![1, 2]);
    // ... and the next Data goes down to it.
    out.clear();
    fw.handle(Time::from_millis(30), FaceId(2), data(1), &mut out);
    assert_eq!((out.len(), out[0].0), (1, FaceId(0)));
}

#[test]
fn a_nack_for_a_lingering_entry_changes_nothing() {
    let mut fw = two_upstreams(Time::from_millis(100));
    let mut out = Vec::new();
    fw.handle(Time::ZERO, FaceId(0), interest(1, None), &mut out);
    let sent_up = match &out[1].1.packet {
        NetPacket::Interest(i) => i.clone(),
        p => panic!("{p:?}"),
    };
    fw.handle(Time::from_millis(10), FaceId(1), data(1), &mut Vec::new());
    out.clear();
    let nack = Frame::nack(Arc::new(Nack { reason: NackReason::Congestion, interest: sent_up }));
    fw.handle(Time::from_millis(20), FaceId(2), nack, &mut out);
    assert!(out.is_empty(), "nothing retried, nothing sent down: {out:?}");
    assert_eq!(fw.pit.len(), 1);
}

/// Multicast, noting the face of every Data its before-satisfy trigger sees.
struct Recording(MulticastStrategy, std::sync::Arc<std::sync::Mutex<Vec<u32>>>);

impl Strategy for Recording {
    fn name(&self) -> &'static str {
        "recording"
    }
    fn after_receive_interest(
        &mut self,
        ctx: &StrategyCtx,
        in_face: FaceId,
        entry: &mut PitEntry,
        fib: Option<&crate::table::FibEntry>,
    ) -> InterestDecision {
        self.0.after_receive_interest(ctx, in_face, entry, fib)
    }
    fn before_satisfy_interest(&mut self, _: &StrategyCtx, _: &PitEntry, in_face: FaceId, _: &Data, _: &LpHeader) {
        self.1.lock().unwrap().push(in_face.0);
    }
}

#[test]
fn the_strategy_sees_a_late_copy_only_within_the_straggler_time() {
    for (straggler, seen) in [(0, vec![1]), (100, vec![1, 2]), (40, vec![1])] {
        let mut fw = two_upstreams(Time::from_millis(straggler));
        let faces = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        fw.set_strategy(&Name::root(), Box::new(Recording(MulticastStrategy::new(), faces.clone())));
        fw.handle(Time::ZERO, FaceId(0), interest(1, None), &mut Vec::new());
        fw.handle(Time::from_millis(10), FaceId(1), data(1), &mut Vec::new());
        fw.handle_timeout(Time::from_millis(50), &mut Vec::new()); // a 40 ms straggler time is over at 50 ms
        fw.handle(Time::from_millis(60), FaceId(2), data(1), &mut Vec::new());
        assert_eq!(*faces.lock().unwrap(), seen, "straggler {straggler} ms");
    }
}

/// Sends the Interest for /p/seg=`seg` from faces 0 and 2 (aggregated into one PIT entry), lets
/// `face` report it congested, and returns the marks of the Data sent to faces 0 and 2 when face 1
/// answers unmarked.
fn pit_marked_round_trip(fw: &mut Forwarder, seg: u32, face: FaceId) -> Vec<(FaceId, LpHeader)> {
    let name = Name::parse("/p").unwrap().append_segment(seg as u64);
    let mut out = Vec::new();
    for (face, nonce) in [(FaceId(0), seg), (FaceId(2), seg + 1000)] {
        let i = Interest::new(name.clone(), nonce, Time::from_secs(2));
        fw.handle(Time::ZERO, face, Frame::interest(Arc::new(i)), &mut out);
    }
    let NetPacket::Interest(sent) = &out[0].1.packet else { panic!("expected an Interest") };
    let sent = sent.clone();
    out.clear();
    fw.note_congested_interest(Time::ZERO, face, &sent);
    let data = Frame::data(Arc::new(Data::new(name, bytes::Bytes::from_static(b"x"))));
    fw.handle(Time::from_millis(1), FaceId(1), data, &mut out);
    out.into_iter().map(|(f, frame)| (f, frame.lp)).collect()
}

#[test]
fn a_pit_mark_marks_every_data_sent_down_afresh() {
    // PCON Algorithm 2 line 7: an unmarked Data leaves marked to every downstream of a marked
    // PIT entry, with no hop count (the next router is one hop from the congested link).
    let mut fw = router();
    fw.add_face(FaceKind::Link); // face 2, a second downstream
    let marked = LpHeader { congestion_mark: 1, ..Default::default() };
    assert_eq!(pit_marked_round_trip(&mut fw, 1, FaceId(1)), vec![(FaceId(0), marked.clone()), (FaceId(2), marked)]);
    // A report from a face the Interest was not sent on is not about it.
    let unmarked = LpHeader::default();
    assert_eq!(
        pit_marked_round_trip(&mut fw, 2, FaceId(0)),
        vec![(FaceId(0), unmarked.clone()), (FaceId(2), unmarked.clone())]
    );
    let mut fw = router_with(ForwarderConfig { interest_marks: InterestMarks::Ignore, ..ForwarderConfig::default() });
    fw.add_face(FaceKind::Link);
    assert_eq!(
        pit_marked_round_trip(&mut fw, 3, FaceId(1)),
        vec![(FaceId(0), unmarked.clone()), (FaceId(2), unmarked)]
    );
}
