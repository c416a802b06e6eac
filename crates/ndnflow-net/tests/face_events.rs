//! NFD's face status change notifications (`mgmt::notify`), subscribed to as ndn-cxx's
//! `NotificationSubscriber` does: the stream's name with CanBePrefix and MustBeFresh first, then
//! seq=N+1 after each notification N.

use crate::common;

use common::mgmt::*;
use common::*;
use ndnflow_core::packet::tlv::Reader;
use ndnflow_core::packet::Interest;
use ndnflow_core::{Name, Time};
use ndnflow_net::mgmt::control::ControlParameters;
use ndnflow_net::Daemon;
use tokio::net::UdpSocket;

/// The next notification on `app`: its sequence number and its fields as (type, value).
async fn notification(app: &mut App) -> (u64, Vec<(u64, Vec<u8>)>) {
    let data = data_of(&app.recv_bytes().await.expect("a notification"));
    let seq = data.name.last().and_then(|c| c.as_number()).expect("seq=N");
    let mut r = Reader::new(&data.content);
    let outer = r.read_element().unwrap();
    assert_eq!(outer.typ, 0xc0, "FaceEventNotification");
    let mut fields = Vec::new();
    let mut f = outer.reader();
    while !f.is_empty() {
        let e = f.read_element().unwrap();
        fields.push((e.typ, e.value.to_vec()));
    }
    (seq, fields)
}

/// A field's value as a NonNegativeInteger.
fn number(fields: &[(u64, Vec<u8>)], typ: u64) -> u64 {
    let v = &fields.iter().find(|(t, _)| *t == typ).expect("the field").1;
    v.iter().fold(0, |n, b| n << 8 | u64::from(*b))
}

fn text(fields: &[(u64, Vec<u8>)], typ: u64) -> String {
    String::from_utf8(fields.iter().find(|(t, _)| *t == typ).expect("the field").1.clone()).unwrap()
}

fn ask(name: &str, nonce: u32, subscribe: bool) -> Vec<u8> {
    let mut i = Interest::new(Name::parse(name).unwrap(), nonce, Time::from_secs(4));
    i.can_be_prefix = subscribe;
    i.must_be_fresh = subscribe;
    i.encode()
}

const EVENTS: &str = "/localhost/nfd/faces/events";
// FaceEventNotification's fields (NFD Face Management): FaceEventKind, FaceId, Uri, FaceScope,
// FacePersistency.
const KIND: u64 = 0xc1;
const FACE_ID: u64 = 0x69;
const URI: u64 = 0x72;
const SCOPE: u64 = 0x84;
const PERSISTENCY: u64 = 0x85;

#[tokio::test]
async fn a_subscriber_hears_faces_created_and_destroyed_in_order() {
    let dir = socket_dir("events");
    let peer = UdpSocket::bind("127.0.0.1:0").await.unwrap();
    let uri = format!("udp4://{}", peer.local_addr().unwrap());
    let daemon = Daemon::bind(producer_daemon(&dir)).await.unwrap();
    run_with(daemon, async {
        // The tool's face (256) is notification 0; a command makes sure it was taken first.
        let mut tool = App::connect(&dir.join("app.sock")).await;
        let r = command(&mut tool, "rib", "register", prefix("/x"), 1).await;
        assert_eq!(r.status_code, 200);
        // The watcher's face (257) is notification 1: posted just now, so still fresh (1 s), it
        // answers the subscription at once.
        let mut watcher = App::connect(&dir.join("app.sock")).await;
        watcher.send(&ask(EVENTS, 10, true)).await;
        let (seq, f) = notification(&mut watcher).await;
        assert_eq!((seq, number(&f, KIND), number(&f, FACE_ID)), (1, 1, 257), "created, face 257");
        // An application's face: local scope (1), on-demand (1).
        assert_eq!((number(&f, SCOPE), number(&f, PERSISTENCY)), (1, 1));

        // seq=2 waits; faces/create answers it: created, face 258, its URI, persistent (0).
        watcher.send(&ask(&format!("{EVENTS}/seq=2"), 11, false)).await;
        let create = ControlParameters { uri: Some(uri.clone()), ..Default::default() };
        assert_eq!(command(&mut tool, "faces", "create", create, 2).await.status_code, 200);
        let (seq, f) = notification(&mut watcher).await;
        assert_eq!((seq, number(&f, KIND), number(&f, FACE_ID)), (2, 1, 258));
        assert_eq!((text(&f, URI), number(&f, SCOPE), number(&f, PERSISTENCY)), (uri.clone(), 0, 0));

        // seq=3: faces/destroy, destroyed (2), the same face and URI.
        watcher.send(&ask(&format!("{EVENTS}/seq=3"), 12, false)).await;
        let destroy = ControlParameters { face_id: Some(258), ..Default::default() };
        assert_eq!(command(&mut tool, "faces", "destroy", destroy, 3).await.status_code, 200);
        let (seq, f) = notification(&mut watcher).await;
        assert_eq!((seq, number(&f, KIND), number(&f, FACE_ID), text(&f, URI)), (3, 2, 258, uri.clone()));

        // One already posted is answered by its name at once.
        watcher.send(&ask(&format!("{EVENTS}/seq=2"), 13, false)).await;
        assert_eq!(notification(&mut watcher).await.0, 2);
    })
    .await;
}

#[tokio::test(flavor = "current_thread")]
async fn a_permanent_tcp_face_is_heard_going_down_and_up() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let peer = listener.local_addr().unwrap();
    let dir = socket_dir("events-tcp");
    // Face 256 connects out over TCP (permanent, the default): notification 0, at the start.
    let text = format!(
        "[listen]\nudp = false\ntcp = false\nunix = \"{}/app.sock\"\n[[faces]]\nname = \"up\"\ntcp = \"{peer}\"\n",
        dir.display()
    );
    let daemon = Daemon::bind(ndnflow_net::config::parse(&text, "test.toml").unwrap()).await.unwrap();
    run_with(daemon, async {
        let (first, _) = listener.accept().await.unwrap();
        // The watcher (257) is notification 1; it subscribes, then asks for what follows.
        let mut watcher = App::connect(&dir.join("app.sock")).await;
        watcher.send(&ask(EVENTS, 10, true)).await;
        assert_eq!(notification(&mut watcher).await.0, 1);
        watcher.send(&ask(&format!("{EVENTS}/seq=2"), 11, false)).await;
        // The peer drops the connection: the face goes down (4), connects again at once (the
        // listener is still there) and comes up (3), keeping its id.
        drop(first);
        let (_second, _) = listener.accept().await.unwrap();
        let (seq, f) = notification(&mut watcher).await;
        assert_eq!((seq, number(&f, KIND), number(&f, FACE_ID)), (2, 4, 256));
        watcher.send(&ask(&format!("{EVENTS}/seq=3"), 12, false)).await;
        let (seq, f) = notification(&mut watcher).await;
        assert_eq!((seq, number(&f, KIND), number(&f, FACE_ID)), (3, 3, 256));
    })
    .await;
}
