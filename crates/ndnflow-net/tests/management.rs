//! NFD's management protocol on loopback: applications register prefixes, make and destroy faces,
//! choose strategies and read the status datasets, as NFD's tools and python-ndn do. Commands are
//! signed command Interests (`signed_command_name`); replies are checked field by field.

use crate::common;

use common::mgmt::*;
use common::*;
use ndnflow_core::packet::tlv::Reader;
use ndnflow_core::packet::{Data, Frame, Interest, NackReason, NetPacket};
use ndnflow_core::{Name, Time};
use ndnflow_net::mgmt::control::{signed_command_name, ControlParameters, ControlResponse};
use ndnflow_net::Daemon;
use tokio::net::UdpSocket;

#[tokio::test]
async fn a_registered_prefix_reaches_its_application_until_it_unregisters() {
    let dir = socket_dir("register");
    let daemon = Daemon::bind(producer_daemon(&dir)).await.unwrap();
    let (report, ()) = run_with(daemon, async {
        let mut producer = App::connect(&dir.join("app.sock")).await;
        let r = command(&mut producer, "rib", "register", prefix("/q"), 1).await;
        // The producer is the daemon's first face (index 0): NFD FaceId 256. Defaults: origin 0
        // (an application), cost 0, flags 1 (ChildInherit).
        assert_eq!((r.status_code, r.status_text.as_str()), (200, "OK"));
        let body = r.body.unwrap();
        assert_eq!((body.face_id, body.origin, body.cost, body.flags), (Some(256), Some(0), Some(0), Some(1)));
        assert_eq!(body.name, Some(Name::parse("/q").unwrap()));

        let mut consumer = App::connect(&dir.join("app.sock")).await;
        consumer.send(&interest("/q/x", 7)).await;
        assert_eq!(producer.recv().await.packet.name().to_string(), "/q/x");
        producer.send(&data("/q/x", b"hi")).await;
        assert_eq!(name_and_content(&consumer.recv().await), ("/q/x".into(), b"hi".to_vec()));

        let r = command(&mut producer, "rib", "unregister", prefix("/q"), 2).await;
        assert_eq!(r.status_code, 200);
        consumer.send(&interest("/q/y", 8)).await;
        match consumer.recv().await.packet {
            NetPacket::Nack(n) => assert_eq!(n.reason, NackReason::NoRoute),
            other => panic!("expected Nack(NoRoute), got {other:?}"),
        }
    })
    .await;
    assert_eq!(report.faces[0].id, 256);
}

#[tokio::test]
async fn a_closed_application_takes_its_routes_and_the_datasets_say_so() {
    let dir = socket_dir("closed");
    let daemon = Daemon::bind(producer_daemon(&dir)).await.unwrap();
    let status = daemon.status();
    run_with(daemon, async {
        let mut tool = App::connect(&dir.join("app.sock")).await; // face 256
        let mut producer = App::connect(&dir.join("app.sock")).await; // face 257
        let mut params = prefix("/r");
        params.cost = Some(5);
        assert_eq!(command(&mut producer, "rib", "register", params, 1).await.status_code, 200);
        let (fib, last) = dataset(&mut tool, "fib", "list", 2).await;
        assert_eq!(last, Some(0), "one segment");
        // One FibEntry: Name /r, NextHopRecord { FaceId 257, Cost 5 }.
        let rec = records(&fib);
        assert_eq!(rec.len(), 1);
        assert_eq!(rec[0][0], (0x07, vec![0x08, 1, b'r']));
        assert_eq!(rec[0][1], (0x81, vec![0x69, 2, 0x01, 0x01, 0x6a, 1, 5]));
        let (rib, _) = dataset(&mut tool, "rib", "list", 3).await;
        // Route { FaceId 257, Origin 0, Cost 5, Flags 1 }.
        assert_eq!(records(&rib)[0][1], (0x81, vec![0x69, 2, 0x01, 0x01, 0x6f, 1, 0, 0x6a, 1, 5, 0x6c, 1, 1]));

        drop(producer);
        wait_until(&status, |r| !r.faces[1].up).await;
        assert!(records(&dataset(&mut tool, "fib", "list", 4).await.0).is_empty());
        assert!(records(&dataset(&mut tool, "rib", "list", 5).await.0).is_empty());
        // faces/list: the tool alone, a local (scope 1), on-demand (persistency 1) face.
        let faces = records(&dataset(&mut tool, "faces", "list", 6).await.0);
        assert_eq!(faces.len(), 1);
        let field = |t: u64| faces[0].iter().find(|(typ, _)| *typ == t).map(|(_, v)| v.clone());
        assert_eq!(field(0x69), Some(vec![0x01, 0x00])); // FaceId 256
        assert_eq!((field(0x84), field(0x85)), (Some(vec![1]), Some(vec![1])));
    })
    .await;
}

#[tokio::test]
async fn udp_faces_are_created_once_and_destroyed() {
    let dir = socket_dir("faces");
    let peer = UdpSocket::bind("127.0.0.1:0").await.unwrap();
    let peer_addr = peer.local_addr().unwrap();
    let daemon = Daemon::bind(producer_daemon(&dir)).await.unwrap();
    run_with(daemon, async {
        let mut tool = App::connect(&dir.join("app.sock")).await; // face 256
        let uri = format!("udp4://{peer_addr}");
        let create = ControlParameters { uri: Some(uri.clone()), ..Default::default() };
        let r = command(&mut tool, "faces", "create", create.clone(), 1).await;
        assert_eq!(r.status_code, 200);
        let body = r.body.unwrap();
        assert_eq!((body.face_id, body.uri.as_deref()), (Some(257), Some(uri.as_str())));
        let again = command(&mut tool, "faces", "create", create, 2).await;
        assert_eq!((again.status_code, again.body.unwrap().face_id), (409, Some(257)));
        // A route over it: an Interest for /u goes out to the peer as a datagram.
        let route = ControlParameters { face_id: Some(257), ..prefix("/u") };
        assert_eq!(command(&mut tool, "rib", "register", route, 3).await.status_code, 200);
        tool.send(&interest("/u/1", 9)).await;
        let mut buf = [0u8; 9000];
        let (n, _) = peer.recv_from(&mut buf).await.unwrap();
        assert_eq!(Frame::decode(&buf[..n]).unwrap().packet.name().to_string(), "/u/1");

        let destroy = ControlParameters { face_id: Some(257), ..Default::default() };
        assert_eq!(command(&mut tool, "faces", "destroy", destroy, 4).await.status_code, 200);
        let faces = records(&dataset(&mut tool, "faces", "list", 5).await.0);
        assert_eq!(faces.len(), 1, "only the tool's face is left");
        let route = ControlParameters { face_id: Some(257), ..prefix("/u") };
        assert_eq!(command(&mut tool, "rib", "register", route, 6).await.status_code, 410);
        let ether = ControlParameters { uri: Some("ether://[01:00:5e:00:17:aa]".into()), ..Default::default() };
        assert_eq!(command(&mut tool, "faces", "create", ether, 7).await.status_code, 406);
    })
    .await;
}

/// faces/create's link options: the reliability bit (Flags and Mask 2) makes a reliable face with
/// NFD's UDP MTU (65,535 - 60 - 8 = 65,467), which faces/list reports in Mtu and Flags; an Mtu of
/// 1500 makes a fragmenting one; Flags without Mask is 400; an Mtu below 64, or both options, 406.
#[tokio::test]
async fn faces_create_sets_the_mtu_and_link_reliability() {
    let dir = socket_dir("faces-lp");
    let (p1, p2) = (UdpSocket::bind("127.0.0.1:0").await.unwrap(), UdpSocket::bind("127.0.0.1:0").await.unwrap());
    let daemon = Daemon::bind(producer_daemon(&dir)).await.unwrap();
    let (report, ()) = run_with(daemon, async {
        let mut tool = App::connect(&dir.join("app.sock")).await; // face 256
        let uri = |s: &UdpSocket| Some(format!("udp4://{}", s.local_addr().unwrap()));
        let reliable = ControlParameters { uri: uri(&p1), flags: Some(2), mask: Some(2), ..Default::default() };
        let r = command(&mut tool, "faces", "create", reliable, 1).await;
        let body = r.body.unwrap();
        assert_eq!((r.status_code, body.flags, body.mtu), (200, Some(2), Some(65_467)));
        let small = ControlParameters { uri: uri(&p2), mtu: Some(1500), ..Default::default() };
        let r = command(&mut tool, "faces", "create", small, 2).await;
        assert_eq!((r.status_code, r.body.unwrap().mtu), (200, Some(1500)));
        let faces = records(&dataset(&mut tool, "faces", "list", 3).await.0);
        let field = |rec: &Vec<(u64, Vec<u8>)>, typ: u64| rec.iter().find(|(t, _)| *t == typ).map(|(_, v)| v.clone());
        // Mtu 0x89 and Flags 0x6c of face 257: 65,467 = 0xffbb, and 2.
        assert_eq!(field(&faces[1], 0x89), Some(vec![0xff, 0xbb]));
        assert_eq!(field(&faces[1], 0x6c), Some(vec![2]));
        let half = ControlParameters { uri: Some("udp4://127.0.0.1:9".into()), flags: Some(2), ..Default::default() };
        assert_eq!(command(&mut tool, "faces", "create", half, 4).await.status_code, 400);
        let tiny = ControlParameters { uri: Some("udp4://127.0.0.1:9".into()), mtu: Some(63), ..Default::default() };
        assert_eq!(command(&mut tool, "faces", "create", tiny, 5).await.status_code, 406);
        let both = ControlParameters {
            uri: Some("udp4://127.0.0.1:9".into()),
            mtu: Some(1500),
            flags: Some(2),
            mask: Some(2),
            ..Default::default()
        };
        assert_eq!(command(&mut tool, "faces", "create", both, 6).await.status_code, 406);
        let marking = ControlParameters {
            uri: Some("udp4://127.0.0.1:9".into()),
            flags: Some(4),
            mask: Some(4),
            ..Default::default()
        };
        assert_eq!(command(&mut tool, "faces", "create", marking, 7).await.status_code, 406);
    })
    .await;
    assert_eq!(report.faces.len(), 3, "the refused commands made no face");
    assert_eq!(report.faces[2].lp.map(|(mtu, _)| mtu), Some(1500));
}

#[tokio::test]
async fn strategies_are_chosen_listed_and_unset_by_name() {
    let dir = socket_dir("strategy");
    let daemon = Daemon::bind(producer_daemon(&dir)).await.unwrap();
    run_with(daemon, async {
        let mut tool = App::connect(&dir.join("app.sock")).await;
        let set = |s: &str| ControlParameters { strategy: Some(Name::parse(s).unwrap()), ..prefix("/m") };
        let r = command(&mut tool, "strategy-choice", "set", set("/localhost/nfd/strategy/multicast/v=4"), 1).await;
        assert_eq!(r.status_code, 200);
        let list = records(&dataset(&mut tool, "strategy-choice", "list", 2).await.0);
        // Longest prefix first: /m with multicast, then / with best-route (the default).
        let strategy_of = |rec: &Vec<(u64, Vec<u8>)>| {
            let Some((_, v)) = rec.iter().find(|(t, _)| *t == 0x6b) else { return String::new() };
            Name::from_component_wire(&v[2..]).unwrap().to_string()
        };
        assert_eq!(list.len(), 2);
        assert_eq!(strategy_of(&list[0]), "/localhost/nfd/strategy/multicast");
        assert_eq!(strategy_of(&list[1]), "/localhost/nfd/strategy/best-route");
        let unknown = command(&mut tool, "strategy-choice", "set", set("/localhost/nfd/strategy/nope"), 3).await;
        assert_eq!(unknown.status_code, 404);
        // The reader's reason alone: it named "strategy-choice:1:20: set.strategy" until 2026-11-28.
        assert!(
            unknown
                .status_text
                .starts_with("strategy \"nope\" not registered: unknown value \"nope\"; expected one of"),
            "{}",
            unknown.status_text
        );
        assert_eq!(command(&mut tool, "strategy-choice", "unset", prefix("/m"), 4).await.status_code, 200);
        assert_eq!(records(&dataset(&mut tool, "strategy-choice", "list", 5).await.0).len(), 1);
        assert_eq!(command(&mut tool, "strategy-choice", "unset", prefix("/"), 6).await.status_code, 400);
    })
    .await;
}

#[tokio::test]
async fn bad_commands_are_answered_with_their_reason_and_udp_commands_are_refused() {
    let dir = socket_dir("badcmd");
    let daemon = Daemon::bind(producer_daemon(&dir)).await.unwrap();
    let addr = daemon.udp_addr().unwrap();
    let status = daemon.status();
    let (report, ()) = run_with(daemon, async {
        let mut tool = App::connect(&dir.join("app.sock")).await;
        let r = command(&mut tool, "rib", "register", ControlParameters::default(), 1).await;
        assert_eq!((r.status_code, r.status_text.as_str()), (400, "Name is missing"));
        assert_eq!(command(&mut tool, "rib", "launch", prefix("/x"), 2).await.status_code, 501);
        // A fifth component that is not ControlParameters.
        tool.send(&interest("/localhost/nfd/rib/register/garbage", 3)).await;
        let d = data_of(&tool.recv_bytes().await.unwrap());
        assert_eq!(ControlResponse::decode(&d.content).unwrap().status_code, 400);

        // From UDP (a non-local face): dropped and counted, never answered or forwarded.
        let remote = UdpSocket::bind("127.0.0.1:0").await.unwrap();
        let name = signed_command_name("rib", "register", &prefix("/evil"), 1, 1);
        remote.send_to(&Interest::new(name, 4, Time::from_secs(1)).encode(), addr).await.unwrap();
        wait_until(&status, |r| r.faces.iter().any(|f| f.driver.refused_commands == 1)).await;
    })
    .await;
    assert_eq!(report.forwarder.in_interests, 0, "management Interests never reach the forwarder");
    // The status dataset's general record is checked in `the_general_status_counts_what_the_forwarder_counted`.
}

#[tokio::test]
async fn the_general_status_counts_what_the_forwarder_counted() {
    let dir = socket_dir("general");
    let daemon = Daemon::bind(producer_daemon(&dir)).await.unwrap();
    run_with(daemon, async {
        let mut tool = App::connect(&dir.join("app.sock")).await;
        // Two Interests with no route: two in, two Nacks out, no FIB entry but the config's /p
        // (its face has not connected, so /p has no next hop yet and is not counted).
        tool.send(&interest("/none/1", 1)).await;
        tool.recv().await;
        tool.send(&interest("/none/2", 2)).await;
        tool.recv().await;
        let (content, _) = dataset(&mut tool, "status", "general", 3).await;
        let mut fields = std::collections::HashMap::new();
        let mut r = Reader::new(&content);
        while !r.is_empty() {
            let e = r.read_element().unwrap();
            fields.insert(e.typ, e.value.to_vec());
        }
        assert!(String::from_utf8(fields[&0x80].clone()).unwrap().starts_with("ndnflow "));
        let n = |t: u64| ndnflow_core::packet::tlv::read_nonneg(&fields[&t], 0).unwrap();
        assert_eq!((n(0x84), n(0x90), n(0x98)), (0, 2, 2), "NFibEntries, NInInterests, NOutNacks");
        assert!(n(0x82) >= n(0x81), "current time after start time");
    })
    .await;
}

#[tokio::test]
async fn a_signed_dataset_request_is_answered_under_its_own_name_and_its_segments_by_theirs() {
    let dir = socket_dir("signedds");
    let daemon = Daemon::bind(producer_daemon(&dir)).await.unwrap();
    run_with(daemon, async {
        let mut tool = App::connect(&dir.join("app.sock")).await;
        // /localhost/nfd/faces/list/params-sha256=<32 bytes>, as python-ndn's pynfdc asks (v0.3).
        let digest = ndnflow_core::name::component_type::PARAMETERS_SHA256_DIGEST;
        let asked = Name::parse("/localhost/nfd/faces/list").unwrap().append(digest, &[0xab; 32]);
        let mut i = Interest::new(asked.clone(), 1, Time::from_secs(1));
        i.can_be_prefix = true;
        tool.send(&i.encode()).await;
        let first = data_of(&tool.recv_bytes().await.unwrap());
        // The reply extends the asked name by a version and segment 0: 5 + 2 components.
        assert!(asked.is_prefix_of(&first.name));
        assert_eq!((first.name.len(), first.name.last().unwrap().as_segment()), (7, Some(0)));
        // Segment 0 asked again by its full name comes from the published version, unchanged.
        tool.send(&Interest::new(first.name.clone(), 2, Time::from_secs(1)).encode()).await;
        assert_eq!(data_of(&tool.recv_bytes().await.unwrap()), first);
        // A version followed by no segment (a 3-octet SegmentNameComponent is none) is no command:
        // nothing answers it, where a 400 "bad ControlParameters" did until 2026-11-28. The next
        // request's answer is the next thing the tool reads.
        let version = first.name.get(5).unwrap();
        let odd =
            asked.append(version.typ, version.value).append(ndnflow_core::name::component_type::SEGMENT, &[0, 0, 0]);
        tool.send(&Interest::new(odd, 3, Time::from_secs(1)).encode()).await;
        tool.send(&Interest::new(first.name.clone(), 4, Time::from_secs(1)).encode()).await;
        assert_eq!(data_of(&tool.recv_bytes().await.unwrap()), first);
    })
    .await;
}

#[tokio::test]
async fn a_destroyed_application_face_is_heard_no_more() {
    let dir = socket_dir("destroyed");
    let daemon = Daemon::bind(producer_daemon(&dir)).await.unwrap();
    let status = daemon.status();
    let (report, ()) = run_with(daemon, async {
        let mut tool = App::connect(&dir.join("app.sock")).await; // 256
        let mut app = App::connect(&dir.join("app.sock")).await; // 257
        wait_until(&status, |r| r.faces.len() == 2).await;
        let destroy = ControlParameters { face_id: Some(257), ..Default::default() };
        assert_eq!(command(&mut tool, "faces", "destroy", destroy, 1).await.status_code, 200);
        // The daemon closed its end: the application reads the end of the stream, and what it
        // still sends is not forwarded.
        assert!(app.recv_bytes().await.is_none());
        let _ = tokio::io::AsyncWriteExt::write_all(&mut app.stream, &interest("/none/1", 2)).await;
        // Time for the reader to pass it on (the check below fails without the daemon's rule
        // only if the frame got through; 200 ms is ample on loopback).
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    })
    .await;
    assert_eq!(report.forwarder.in_interests, 0);
}

#[tokio::test]
async fn a_route_with_an_expiration_period_leaves_at_its_deadline_and_the_longest_period_never_wraps() {
    let dir = socket_dir("expiry");
    let daemon = Daemon::bind(producer_daemon(&dir)).await.unwrap();
    run_with(daemon, async {
        let mut producer = App::connect(&dir.join("app.sock")).await;
        let short = ControlParameters { expiration_period: Some(50), ..prefix("/e") };
        assert_eq!(command(&mut producer, "rib", "register", short, 1).await.status_code, 200);
        // u64::MAX ms: saturates to "never" instead of wrapping into the past.
        let forever = ControlParameters { expiration_period: Some(u64::MAX), ..prefix("/f") };
        assert_eq!(command(&mut producer, "rib", "register", forever, 2).await.status_code, 200);
        tokio::time::sleep(std::time::Duration::from_millis(150)).await;
        let mut tool = App::connect(&dir.join("app.sock")).await;
        let routes = records(&dataset(&mut tool, "rib", "list", 3).await.0);
        // Only /f is left, 50 ms having passed for /e's route.
        assert_eq!(routes.len(), 1);
        assert_eq!(routes[0][0], (0x07, vec![0x08, 1, b'f']));
    })
    .await;
}

/// faces/query with `filter` (the FaceQueryFilter's value: its fields' TLVs): segment 0's Data.
async fn query(app: &mut App, filter: &[u8], nonce: u32) -> Data {
    let mut wire = vec![0x96, filter.len() as u8];
    wire.extend_from_slice(filter);
    let generic = ndnflow_core::name::component_type::GENERIC;
    let name = Name::parse("/localhost/nfd/faces/query").unwrap().append(generic, &wire);
    let mut i = Interest::new(name, nonce, Time::from_secs(1));
    i.can_be_prefix = true;
    app.send(&i.encode()).await;
    data_of(&app.recv_bytes().await.expect("a faces/query answer"))
}

/// The FaceIds of the FaceStatus records in `content` (FaceId is each record's first field).
fn face_ids(content: &[u8]) -> Vec<u64> {
    let id = |rec: &Vec<(u64, Vec<u8>)>| ndnflow_core::packet::tlv::read_nonneg(&rec[0].1, 0).unwrap();
    records(content).iter().map(id).collect()
}

/// faces/update as NFD's FaceManager answers it. Faces: the tool 256 (Unix, on-demand), UDP 257
/// (default MTU) and UDP 258 (Mtu 1500). The reliability bit on 257 turns its link reliability on
/// (Flags 2 in the answer and in faces/query; the next Interest out carries a TxSequence) and off
/// again (the next goes bare); on 258, made with an Mtu, it is 409
/// with Flags and Mask 2 in the body; the tool's own face (FaceId 0) keeps on-demand (1, 200) but
/// cannot become persistent (409, FacePersistency 0 in the body); a UDP face becomes permanent
/// (200, 2); an unknown face is 404; Flags without Mask 400.
#[tokio::test]
async fn faces_update_changes_what_nfd_lets_change_and_names_what_it_refuses() {
    let dir = socket_dir("update");
    let (p1, p2) = (UdpSocket::bind("127.0.0.1:0").await.unwrap(), UdpSocket::bind("127.0.0.1:0").await.unwrap());
    let daemon = Daemon::bind(producer_daemon(&dir)).await.unwrap();
    run_with(daemon, async {
        let mut tool = App::connect(&dir.join("app.sock")).await; // 256
        let uri = |s: &UdpSocket| Some(format!("udp4://{}", s.local_addr().unwrap()));
        let plain = ControlParameters { uri: uri(&p1), ..Default::default() };
        assert_eq!(command(&mut tool, "faces", "create", plain, 1).await.status_code, 200); // 257
        let small = ControlParameters { uri: uri(&p2), mtu: Some(1500), ..Default::default() };
        assert_eq!(command(&mut tool, "faces", "create", small, 2).await.status_code, 200); // 258
        let update = |id: u64| ControlParameters { face_id: Some(id), ..Default::default() };
        let reliable =
            |id: u64, on: bool| ControlParameters { flags: Some(2 * on as u64), mask: Some(2), ..update(id) };

        let r = command(&mut tool, "faces", "update", reliable(257, true), 3).await;
        let body = r.body.unwrap();
        assert_eq!(
            (r.status_code, body.face_id, body.face_persistency, body.flags),
            (200, Some(257), Some(0), Some(2))
        );
        assert_eq!(body.uri, None, "NFD's update answer carries no URIs");
        let listed = query(&mut tool, &[0x69, 2, 0x01, 0x01], 4).await; // FaceId 257
        let rec = records(&listed.content);
        assert_eq!(rec.len(), 1);
        assert_eq!(rec[0].iter().find(|(t, _)| *t == 0x6c).map(|(_, v)| v.clone()), Some(vec![2]));
        // On the wire: with reliability on, an Interest routed to 257 leaves in an LpPacket (0x64)
        // carrying a TxSequence (type 840: fd 03 48); with it off again, as a bare Interest (0x05).
        let route = ControlParameters { face_id: Some(257), ..prefix("/u") };
        assert_eq!(command(&mut tool, "rib", "register", route, 13).await.status_code, 200);
        let mut buf = [0u8; 9000];
        tool.send(&interest("/u/1", 14)).await;
        let (n, _) = p1.recv_from(&mut buf).await.unwrap();
        assert_eq!(buf[0], 0x64);
        assert!(buf[..n].windows(3).any(|w| w == [0xfd, 0x03, 0x48]), "a TxSequence");
        let r = command(&mut tool, "faces", "update", reliable(257, false), 5).await;
        assert_eq!((r.status_code, r.body.unwrap().flags), (200, Some(0)));
        tool.send(&interest("/u/2", 15)).await;
        let (n, _) = p1.recv_from(&mut buf).await.unwrap();
        assert_eq!((buf[0], Frame::decode(&buf[..n]).unwrap().packet.name().to_string()), (0x05, "/u/2".into()));

        let r = command(&mut tool, "faces", "update", reliable(258, true), 6).await;
        let body = r.body.unwrap();
        assert_eq!((r.status_code, body.flags, body.mask, body.face_id), (409, Some(2), Some(2), None));
        let rec = records(&query(&mut tool, &[0x69, 2, 0x01, 0x02], 12).await.content); // FaceId 258
        let field = |typ: u64| rec[0].iter().find(|(t, _)| *t == typ).map(|(_, v)| v.clone());
        assert_eq!((field(0x6c), field(0x89)), (Some(vec![0]), Some(vec![0x05, 0xdc])), "unchanged: Flags 0, Mtu 1500");

        let own = |p: u64| ControlParameters { face_id: Some(0), face_persistency: Some(p), ..Default::default() };
        let r = command(&mut tool, "faces", "update", own(1), 7).await;
        assert_eq!((r.status_code, r.body.unwrap().face_id), (200, Some(256)));
        let r = command(&mut tool, "faces", "update", own(0), 8).await;
        assert_eq!((r.status_code, r.body.unwrap().face_persistency), (409, Some(0)));

        let permanent = ControlParameters { face_persistency: Some(2), ..update(258) };
        let r = command(&mut tool, "faces", "update", permanent, 9).await;
        assert_eq!((r.status_code, r.body.unwrap().face_persistency), (200, Some(2)));
        assert_eq!(command(&mut tool, "faces", "update", update(999), 10).await.status_code, 404);
        let half = ControlParameters { flags: Some(2), ..update(257) };
        assert_eq!(command(&mut tool, "faces", "update", half, 11).await.status_code, 400);
        // Congestion marking (bit 2, value 4) is not built on these faces: 409 naming it, where it
        // got 200 and nothing changed until 2026-11-28.
        let marking = ControlParameters { flags: Some(4), mask: Some(4), ..update(257) };
        let r = command(&mut tool, "faces", "update", marking, 12).await;
        let body = r.body.unwrap();
        assert_eq!((r.status_code, body.flags, body.mask), (409, Some(4), Some(4)));
    })
    .await;
}

/// faces/update's Mtu on UDP face 257 (made without one: NFD's 65,467 for IPv4). Mtu 1500: 200
/// with Mtu 1500 (05 dc), and an Interest of about 2,000 bytes routed there leaves in fragments
/// of at most 1,500 bytes, LpPackets (0x64). Mtu 70,000: clamped to the transport's 65,467
/// (ff bb). Mtu 63, below NFD's MIN_MTU, and any Mtu on the tool's own Unix face (a stream has no
/// MTU): 409 with the refused Mtu in the body, nothing changed.
#[tokio::test]
async fn faces_update_overrides_a_udp_faces_mtu() {
    let dir = socket_dir("updmtu");
    let peer = UdpSocket::bind("127.0.0.1:0").await.unwrap();
    let daemon = Daemon::bind(producer_daemon(&dir)).await.unwrap();
    run_with(daemon, async {
        let mut tool = App::connect(&dir.join("app.sock")).await; // 256
        let create =
            ControlParameters { uri: Some(format!("udp4://{}", peer.local_addr().unwrap())), ..Default::default() };
        assert_eq!(command(&mut tool, "faces", "create", create, 1).await.status_code, 200); // 257
        let mtu = |id: u64, m: u64| ControlParameters { face_id: Some(id), mtu: Some(m), ..Default::default() };
        let r = command(&mut tool, "faces", "update", mtu(257, 1500), 2).await;
        assert_eq!((r.status_code, r.body.unwrap().mtu), (200, Some(1500)));
        let route = ControlParameters { face_id: Some(257), ..prefix("/u") };
        assert_eq!(command(&mut tool, "rib", "register", route, 3).await.status_code, 200);
        tool.send(&interest(&format!("/u/{}", "a".repeat(2000)), 4)).await;
        let mut buf = [0u8; 9000];
        let (n, _) = peer.recv_from(&mut buf).await.unwrap();
        assert!(buf[0] == 0x64 && n <= 1500, "a fragment: type {:#x}, {n} bytes", buf[0]);
        let r = command(&mut tool, "faces", "update", mtu(257, 70_000), 5).await;
        assert_eq!((r.status_code, r.body.unwrap().mtu), (200, Some(65_467)));
        let r = command(&mut tool, "faces", "update", mtu(257, 63), 6).await;
        assert_eq!((r.status_code, r.body.unwrap().mtu), (409, Some(63)));
        let r = command(&mut tool, "faces", "update", mtu(0, 1500), 7).await;
        assert_eq!((r.status_code, r.body.unwrap().mtu), (409, Some(1500)));
        let rec = records(&query(&mut tool, &[0x69, 2, 0x01, 0x01], 8).await.content); // FaceId 257
        let field = rec[0].iter().find(|(t, _)| *t == 0x89).map(|(_, v)| v.clone());
        assert_eq!(field, Some(vec![0xff, 0xbb]), "still 65,467");
    })
    .await;
}

/// faces/query's filter fields, each against the same three faces: the tool 256 (Unix:
/// `fd://256`, local `unix://.../app.sock`, scope local 1, on-demand 1), UDP 257 (permanent 2)
/// and UDP 258 (persistent 0), both non-local. A malformed filter is a ControlResponse 400.
#[tokio::test]
async fn faces_query_answers_the_faces_each_filter_field_matches() {
    let dir = socket_dir("query");
    let (p1, p2) = (UdpSocket::bind("127.0.0.1:0").await.unwrap(), UdpSocket::bind("127.0.0.1:0").await.unwrap());
    let daemon = Daemon::bind(producer_daemon(&dir)).await.unwrap();
    run_with(daemon, async {
        let mut tool = App::connect(&dir.join("app.sock")).await; // 256
        let uri1 = format!("udp4://{}", p1.local_addr().unwrap());
        let permanent = ControlParameters { uri: Some(uri1.clone()), face_persistency: Some(2), ..Default::default() };
        assert_eq!(command(&mut tool, "faces", "create", permanent, 1).await.status_code, 200); // 257
        let uri2 = Some(format!("udp4://{}", p2.local_addr().unwrap()));
        let plain = ControlParameters { uri: uri2, ..Default::default() };
        assert_eq!(command(&mut tool, "faces", "create", plain, 2).await.status_code, 200); // 258

        let text = |typ: u8, s: &str| [vec![typ, s.len() as u8], s.as_bytes().to_vec()].concat();
        let ids = |d: Data| face_ids(&d.content);
        assert_eq!(ids(query(&mut tool, &[], 3).await), vec![256, 257, 258], "no field: every face");
        assert_eq!(ids(query(&mut tool, &text(0x83, "udp4"), 4).await), vec![257, 258]);
        // The tool's remote URI is fd://256, its local one unix://...: either scheme matches.
        assert_eq!(ids(query(&mut tool, &text(0x83, "unix"), 5).await), vec![256]);
        assert_eq!(ids(query(&mut tool, &text(0x83, "fd"), 6).await), vec![256]);
        assert_eq!(ids(query(&mut tool, &text(0x72, &uri1), 7).await), vec![257]);
        let local = format!("unix://{}", dir.join("app.sock").display());
        assert_eq!(ids(query(&mut tool, &text(0x81, &local), 8).await), vec![256]);
        assert_eq!(ids(query(&mut tool, &[0x84, 1, 1], 9).await), vec![256], "FaceScope local");
        assert_eq!(ids(query(&mut tool, &[0x84, 1, 0], 10).await), vec![257, 258], "FaceScope non-local");
        assert_eq!(ids(query(&mut tool, &[0x85, 1, 2], 11).await), vec![257], "permanent");
        assert_eq!(ids(query(&mut tool, &[0x85, 1, 0], 12).await), vec![258], "persistent");
        assert_eq!(ids(query(&mut tool, &[0x86, 1, 1], 13).await), Vec::<u64>::new(), "no multi-access face");
        // Two fields: both must match (UDP and local: none).
        assert_eq!(ids(query(&mut tool, &[0x84, 1, 1, 0x83, 4, b'u', b'd', b'p', b'4'], 14).await), Vec::<u64>::new());
        // A component that is no FaceQueryFilter.
        let name = Name::parse("/localhost/nfd/faces/query/garbage").unwrap();
        tool.send(&Interest::new(name, 15, Time::from_secs(1)).encode()).await;
        let d = data_of(&tool.recv_bytes().await.unwrap());
        assert_eq!(ControlResponse::decode(&d.content).unwrap().status_code, 400);
    })
    .await;
}
