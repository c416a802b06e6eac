//! How long faces live (NFD's FacePersistency): a permanent TCP face goes down when its connection
//! breaks and reconnects with NFD's backoff, keeping its routes; a persistent one closes; an
//! on-demand UDP face closes when idle (docs/real-network.md, "Faces that come and go").

use crate::common;

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use common::{interest, name_and_content, run_with, socket_dir, wait_until, App};
use ndnflow_core::packet::Frame;
use ndnflow_net::config;
use ndnflow_net::face::unix::TlvFramer;
use ndnflow_net::{Daemon, Report};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream, UdpSocket};

/// A daemon whose face "up" connects over TCP to `peer`, /p routed to it; `persistency`: the
/// face's key, if any; `listen`: more `[listen]` keys.
async fn daemon(test: &str, peer: SocketAddr, persistency: &str, listen: &str) -> (Daemon, std::path::PathBuf) {
    let dir = socket_dir(test);
    let text = format!(
        "[listen]\nudp = \"127.0.0.1:0\"\ntcp = false\nunix = \"{}/app.sock\"\n{listen}\n\
         [[faces]]\nname = \"up\"\ntcp = \"{peer}\"\n{persistency}\n[[routes]]\nprefix = \"/p\"\nnexthop = \"up\"\n",
        dir.display()
    );
    (Daemon::bind(config::parse(&text, "test.toml").unwrap()).await.unwrap(), dir)
}

/// The next whole element the peer sent on `stream`, decoded.
async fn read_frame(stream: &mut TcpStream, framer: &mut TlvFramer) -> Frame {
    let mut buf = [0u8; 9000];
    loop {
        if let Some(element) = framer.next_element().unwrap() {
            return Frame::decode(&element).unwrap();
        }
        let n = stream.read(&mut buf).await.unwrap();
        assert!(n > 0, "the daemon closed the connection");
        framer.push(&buf[..n]);
    }
}

/// Sends Interest `name` from `consumer`, answers it on `upstream` (the peer's end of the face),
/// and checks that the Data comes back.
async fn exchange(consumer: &mut App, upstream: &mut TcpStream, name: &str, nonce: u32) {
    consumer.send(&interest(name, nonce)).await;
    let got = read_frame(upstream, &mut TlvFramer::default()).await;
    assert_eq!(got.packet.name().to_string(), name);
    upstream.write_all(&common::data(name, b"over tcp")).await.unwrap();
    assert_eq!(name_and_content(&consumer.recv().await), (name.to_string(), b"over tcp".to_vec()));
}

fn up_face(report: &Report) -> &ndnflow_net::FaceReport {
    report.faces.iter().find(|f| f.name.as_deref() == Some("up")).expect("the face named up")
}

#[tokio::test(flavor = "current_thread")]
async fn a_permanent_tcp_face_reconnects_and_keeps_its_routes() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let peer = listener.local_addr().unwrap();
    let (a, dir) = daemon("permanent", peer, "", "").await; // TCP faces are permanent by default
    let status = a.status();
    let client = async {
        let (mut first, _) = listener.accept().await.unwrap();
        let mut consumer = App::connect(&dir.join("app.sock")).await;
        exchange(&mut consumer, &mut first, "/p/1", 1).await;
        // The peer drops the connection: the face goes down and connects again at once (the
        // listener is still there), up, with the route it had.
        drop(first);
        let (mut second, _) = listener.accept().await.unwrap();
        let r = wait_until(&status, |r| up_face(r).driver.reconnects == 1 && up_face(r).up).await;
        assert!(up_face(&r).remote.ends_with(&peer.to_string()));
        exchange(&mut consumer, &mut second, "/p/2", 2).await;
        // Now the peer is gone altogether: connections are refused, the face is down, and the
        // daemon tries again after 1 s (NFD's first wait). The peer comes back on the same port
        // after 300 ms; the face reconnects at the 1 s attempt.
        let port = peer.port();
        drop(second);
        drop(listener);
        wait_until(&status, |r| !up_face(r).up).await;
        let down_at = Instant::now();
        tokio::time::sleep(Duration::from_millis(300)).await;
        let listener = TcpListener::bind(("127.0.0.1", port)).await.unwrap();
        let (mut third, _) = listener.accept().await.unwrap();
        let waited = down_at.elapsed();
        wait_until(&status, |r| up_face(r).driver.reconnects == 2 && up_face(r).up).await;
        exchange(&mut consumer, &mut third, "/p/3", 3).await;
        waited
    };
    let (report, waited) = run_with(a, client).await;
    // At once after the break (refused: the listener was gone), then 1 s after that attempt.
    assert!(waited >= Duration::from_millis(900) && waited < Duration::from_secs(3), "{waited:?}");
    assert_eq!(up_face(&report).packets.received[ndnflow_core::fw::FaceCounters::DATA], 3);
}

#[tokio::test(flavor = "current_thread")]
async fn a_persistent_tcp_face_closes_when_its_connection_breaks() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let (a, _dir) = daemon("persistent", listener.local_addr().unwrap(), "persistency = \"persistent\"", "").await;
    let status = a.status();
    let client = async {
        let (first, _) = listener.accept().await.unwrap();
        wait_until(&status, |r| up_face(r).up).await;
        drop(first);
        wait_until(&status, |r| !up_face(r).up).await
    };
    let (_, report) = run_with(a, client).await;
    assert_eq!(up_face(&report).driver.reconnects, 0);
}

#[tokio::test(flavor = "current_thread")]
async fn an_idle_on_demand_udp_face_closes_and_the_peer_gets_a_new_one() {
    // Idle checks every 200 ms: a face silent since the check before closes, so within 200 to
    // 400 ms of its last datagram. The face "up" points at a closed port; it is persistent and
    // stays whatever it receives.
    let nobody = TcpListener::bind("127.0.0.1:0").await.unwrap().local_addr().unwrap();
    let (a, _dir) = daemon("idle", nobody, "", "udp_idle_timeout = \"200ms\"").await;
    let (status, udp) = (a.status(), a.udp_addr().unwrap());
    let client = async {
        let peer = UdpSocket::bind("127.0.0.1:0").await.unwrap();
        peer.send_to(&interest("/q/1", 1), udp).await.unwrap();
        let made = wait_until(&status, |r| r.faces.len() == 2).await;
        let sent = Instant::now();
        assert!(made.faces[1].up);
        wait_until(&status, |r| !r.faces[1].up).await;
        let closed_after = sent.elapsed();
        // Its next datagram makes a face anew.
        peer.send_to(&interest("/q/2", 2), udp).await.unwrap();
        let again = wait_until(&status, |r| r.faces.len() == 3).await;
        assert!(again.faces[2].up && again.faces[2].remote == again.faces[1].remote);
        closed_after
    };
    let (_, closed_after) = run_with(a, client).await;
    assert!(
        closed_after >= Duration::from_millis(150) && closed_after < Duration::from_millis(1000),
        "{closed_after:?}"
    );
}

/// faces/update on face 256 ("up") from `app`: FacePersistency `persistency`; (status code, the
/// answer's FacePersistency).
async fn update(app: &mut App, persistency: u64, nonce: u32) -> (u64, Option<u64>) {
    use ndnflow_net::mgmt::control::{signed_command_name, ControlParameters, ControlResponse};
    let p = ControlParameters { face_id: Some(256), face_persistency: Some(persistency), ..Default::default() };
    let name = signed_command_name("faces", "update", &p, 1_700_000_000_000 + nonce as u64, nonce as u64);
    let i = ndnflow_core::packet::Interest::new(name, nonce, ndnflow_core::Time::from_secs(1));
    app.send(&i.encode()).await;
    let frame = Frame::decode(&app.recv_bytes().await.unwrap()).unwrap();
    let ndnflow_core::packet::NetPacket::Data(d) = frame.packet else { panic!("expected a Data") };
    let r = ControlResponse::decode(&d.content).unwrap();
    (r.status_code, r.body.and_then(|b| b.face_persistency))
}

/// faces/update makes a persistent TCP face permanent (NFD's TcpTransport takes any change):
/// when its connection then breaks it goes down, keeps /p and connects again at once, as a face
/// permanent from the start does. Made persistent again, its next break closes it: after that a
/// faces/update naming it is 404.
#[tokio::test(flavor = "current_thread")]
async fn a_tcp_face_made_permanent_by_faces_update_reconnects() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let peer = listener.local_addr().unwrap();
    let (a, dir) = daemon("made-permanent", peer, "persistency = \"persistent\"", "").await;
    let status = a.status();
    let client = async {
        let (mut first, _) = listener.accept().await.unwrap();
        let mut consumer = App::connect(&dir.join("app.sock")).await; // 257; "up" is 256
        exchange(&mut consumer, &mut first, "/p/1", 1).await;
        assert_eq!(update(&mut consumer, 2, 10).await, (200, Some(2)));
        drop(first);
        let (mut second, _) = listener.accept().await.unwrap();
        wait_until(&status, |r| up_face(r).driver.reconnects == 1 && up_face(r).up).await;
        exchange(&mut consumer, &mut second, "/p/2", 2).await;
        assert_eq!(update(&mut consumer, 0, 11).await, (200, Some(0)));
        // The peer goes away altogether (so that the attempt the break starts is refused).
        drop(listener);
        drop(second);
        wait_until(&status, |r| !up_face(r).up).await;
        tokio::time::sleep(Duration::from_millis(100)).await;
        update(&mut consumer, 0, 12).await
    };
    let (report, after) = run_with(a, client).await;
    assert_eq!(after, (404, None), "closed");
    assert_eq!(up_face(&report).driver.reconnects, 1);
}
