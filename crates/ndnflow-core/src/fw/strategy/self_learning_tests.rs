//! self-learning unit tests, through a forwarder (the strategy's decisions and the link-header
//! fields the pipelines carry for it): broadcast, Nack without a route, routes learned from an
//! announcement and their expiry, the announcement a producer's node makes, and a route that a
//! Nack(NoRoute) ends.

use std::sync::Arc;

use super::*;
use crate::fw::config::StrategyName;
use crate::fw::{FaceKind, Forwarder, ForwarderConfig};
use crate::packet::{Data, Frame, Interest, NetPacket};

const MS: u64 = 1_000_000;

/// A self-learning router with link faces 0, 1, 2 and application face 3, and no route.
fn router() -> Forwarder {
    let config = ForwarderConfig { default_strategy: StrategyName::SelfLearning, ..Default::default() };
    let mut fw = Forwarder::new(config, 1);
    for kind in [FaceKind::Link, FaceKind::Link, FaceKind::Link, FaceKind::App] {
        fw.add_face(kind);
    }
    fw
}

fn p() -> Name {
    Name::parse("/p").unwrap()
}

/// The Interest for /p/seg=`seg` with nonce `seg`, NonDiscovery or not.
fn interest(seg: u32, non_discovery: bool) -> Frame {
    let mut f = Frame::interest(Arc::new(Interest::new(p().append_segment(seg.into()), seg, Time::from_secs(4))));
    if non_discovery {
        f.lp.ext_mut().non_discovery = true;
    }
    f
}

/// The Data for /p/seg=`seg`, announcing /p for `announce` if given.
fn data(seg: u32, announce: Option<Time>) -> Frame {
    let mut f = Frame::data(Arc::new(Data::new(p().append_segment(seg.into()), bytes::Bytes::from_static(b"x"))));
    if let Some(expiration) = announce {
        f.lp.ext_mut().prefix_announcement = Some(PrefixAnnouncement { prefix: p(), expiration });
    }
    f
}

/// What `fw` sends when `frame` arrives on `face` at `t_ns`: (face, kind, NonDiscovery, the
/// announcement's expiration if any).
fn send(fw: &mut Forwarder, t_ns: u64, face: u32, frame: Frame) -> Vec<(u32, &'static str, bool, Option<Time>)> {
    let mut out = Vec::new();
    fw.handle(Time::from_nanos(t_ns), FaceId(face), frame, &mut out);
    out.into_iter()
        .map(|(f, fr)| {
            let kind = match &fr.packet {
                NetPacket::Interest(_) => "interest",
                NetPacket::Data(_) => "data",
                NetPacket::Nack(n) if n.reason == NackReason::NoRoute => "nack-noroute",
                NetPacket::Nack(_) => "nack",
            };
            (f.0, kind, fr.lp.non_discovery(), fr.lp.prefix_announcement().map(|a| a.expiration))
        })
        .collect()
}

#[test]
fn a_discovery_interest_without_route_goes_to_every_link_face_but_the_incoming() {
    let mut fw = router();
    // Faces 1 and 2: not 0 (it came from there), not 3 (an application face), unmarked.
    assert_eq!(send(&mut fw, 0, 0, interest(1, false)), [(1, "interest", false, None), (2, "interest", false, None)]);
    // From the local application face 3: all three link faces.
    assert_eq!(send(&mut fw, 0, 3, interest(2, false)).len(), 3);
}

#[test]
fn a_non_discovery_interest_without_route_is_nacked_no_route() {
    let mut fw = router();
    assert_eq!(send(&mut fw, 0, 0, interest(1, true)), [(0, "nack-noroute", false, None)]);
    assert_eq!(fw.counters.no_route, 1);
}

#[test]
fn an_announcement_teaches_a_route_for_its_lifetime() {
    let mut fw = router();
    send(&mut fw, 0, 0, interest(1, false));
    // The Data comes back on face 2 at 10 ms announcing /p for 300 s: the route via 2 lasts until
    // 10 ms + 300 s (less than the 600 s cap). The announcement goes on downstream.
    assert_eq!(
        send(&mut fw, 10 * MS, 2, data(1, Some(Time::from_secs(300)))),
        [(0, "data", false, Some(Time::from_secs(300)))]
    );
    let expires = 10 * MS + 300_000 * MS;
    // 1 ns before: unicast to face 2, marked NonDiscovery.
    assert_eq!(send(&mut fw, expires - 1, 0, interest(2, false)), [(2, "interest", true, None)]);
    // At the expiry the route is gone: broadcast again.
    assert_eq!(send(&mut fw, expires, 0, interest(3, false)).len(), 2);
}

#[test]
fn a_learned_route_lasts_at_most_ten_minutes() {
    let mut fw = router();
    send(&mut fw, 0, 0, interest(1, false));
    // A 1 h announcement at t = 0 gives a route until 600 s (ROUTE_RENEW_LIFETIME).
    send(&mut fw, 0, 1, data(1, Some(Time::from_secs(3600))));
    assert_eq!(send(&mut fw, 600_000 * MS - 1, 0, interest(2, false)), [(1, "interest", true, None)]);
    assert_eq!(send(&mut fw, 600_000 * MS, 0, interest(3, false)).len(), 2);
}

#[test]
fn data_without_announcement_or_for_a_non_discovery_interest_teaches_nothing() {
    let mut fw = router();
    send(&mut fw, 0, 0, interest(1, false));
    send(&mut fw, MS, 1, data(1, None));
    assert_eq!(send(&mut fw, 2 * MS, 0, interest(2, false)).len(), 2, "no announcement, no route");
    // A NonDiscovery Interest has no route here: Nack, so no out-record; a Data it does not ask
    // for is unsolicited and changes nothing either.
    send(&mut fw, 3 * MS, 0, interest(3, true));
    send(&mut fw, 4 * MS, 1, data(3, Some(Time::from_secs(60))));
    assert_eq!(send(&mut fw, 5 * MS, 0, interest(4, false)).len(), 2);
}

#[test]
fn the_producers_node_announces_its_static_route_for_an_hour() {
    let mut fw = router();
    fw.fib.add_nexthop(&p(), FaceId(3), 0); // the producer's registration on application face 3
                                            // A discovery Interest from a forwarder: to the producer, marked NonDiscovery.
    assert_eq!(send(&mut fw, 0, 0, interest(1, false)), [(3, "interest", true, None)]);
    // Its Data goes back with /p announced for 1 h (STATIC_ROUTE_ANNOUNCEMENT).
    assert_eq!(send(&mut fw, MS, 3, data(1, None)), [(0, "data", false, Some(Time::from_secs(3600)))]);
    // A NonDiscovery Interest needs no announcement.
    send(&mut fw, 2 * MS, 0, interest(2, true));
    assert_eq!(send(&mut fw, 3 * MS, 3, data(2, None)), [(0, "data", false, None)]);
}

#[test]
fn a_learned_route_is_announced_to_a_discovery_downstream() {
    let mut fw = router();
    send(&mut fw, 0, 0, interest(1, false));
    send(&mut fw, MS, 2, data(1, Some(Time::from_secs(300))));
    // A discovery Interest from face 1 now has a route: to face 2, marked. Its Data comes back
    // without an announcement (the upstream saw NonDiscovery); this node adds the one it learned.
    assert_eq!(send(&mut fw, 2 * MS, 1, interest(2, false)), [(2, "interest", true, None)]);
    assert_eq!(send(&mut fw, 3 * MS, 2, data(2, None)), [(1, "data", false, Some(Time::from_secs(300)))]);
}

#[test]
fn nack_no_route_ends_the_learned_route_and_goes_downstream() {
    let mut fw = router();
    send(&mut fw, 0, 0, interest(1, false));
    send(&mut fw, MS, 2, data(1, Some(Time::from_secs(300))));
    let mut out = Vec::new();
    fw.handle(Time::from_nanos(2 * MS), FaceId(0), interest(2, false), &mut out);
    let (_, sent) = out.pop().unwrap();
    let NetPacket::Interest(i) = sent.packet else { panic!("an Interest") };
    let nack = Frame::nack(Arc::new(Nack { reason: NackReason::NoRoute, interest: i }));
    assert_eq!(send(&mut fw, 3 * MS, 2, nack), [(0, "nack-noroute", false, None)]);
    // The route via 2 is gone: the next Interest is a discovery broadcast.
    assert_eq!(send(&mut fw, 4 * MS, 0, interest(3, false)).len(), 2);
}

#[test]
fn other_nacks_leave_the_entry_pending() {
    let mut fw = router();
    let mut out = Vec::new();
    fw.handle(Time::ZERO, FaceId(0), interest(1, false), &mut out);
    let (_, sent) = out.pop().unwrap();
    let NetPacket::Interest(i) = sent.packet else { panic!("an Interest") };
    // Duplicate from face 2 (the flood met itself): nothing goes downstream.
    let nack = Frame::nack(Arc::new(Nack { reason: NackReason::Duplicate, interest: i }));
    assert_eq!(send(&mut fw, MS, 2, nack), []);
    // Face 1's Data still reaches the consumer.
    assert_eq!(send(&mut fw, 2 * MS, 1, data(1, None)), [(0, "data", false, None)]);
}
