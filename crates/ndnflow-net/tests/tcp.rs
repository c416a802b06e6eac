//! TCP faces on loopback: an application connecting over TCP from a loopback address is local
//! (NFD's TcpChannel rule) and may register a prefix; a daemon makes a TCP face to another with
//! management's faces/create, and Interests and Data cross it.

use crate::common;

use common::*;
use ndnflow_core::packet::{Interest, NetPacket};
use ndnflow_core::{Name, Time};
use ndnflow_net::face::unix::TlvFramer;
use ndnflow_net::mgmt::control::{signed_command_name, ControlParameters, ControlResponse};
use ndnflow_net::Daemon;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Reads one whole TLV element from a TCP stream.
async fn read_element(stream: &mut TcpStream, framer: &mut TlvFramer) -> Vec<u8> {
    let mut chunk = [0u8; 9000];
    loop {
        if let Some(e) = framer.next_element().unwrap() {
            return e;
        }
        let n = stream.read(&mut chunk).await.unwrap();
        assert!(n > 0, "the daemon closed the connection");
        framer.push(&chunk[..n]);
    }
}

fn command_interest(module: &str, verb: &str, params: &ControlParameters, nonce: u32) -> Vec<u8> {
    let name = signed_command_name(module, verb, params, 1_700_000_000_000, nonce as u64);
    Interest::new(name, nonce, Time::from_secs(1)).encode()
}

fn response(wire: &[u8]) -> ControlResponse {
    let frame = ndnflow_core::packet::Frame::decode(wire).unwrap();
    let NetPacket::Data(d) = frame.packet else { panic!("expected a Data") };
    ControlResponse::decode(&d.content).unwrap()
}

fn prefix(s: &str) -> ControlParameters {
    ControlParameters { name: Some(Name::parse(s).unwrap()), ..Default::default() }
}

#[tokio::test]
async fn a_loopback_tcp_application_registers_and_serves() {
    let dir = socket_dir("tcp-app");
    let daemon = Daemon::bind(producer_daemon(&dir)).await.unwrap();
    let tcp = daemon.tcp_addr().expect("listen.tcp is set");
    run_with(daemon, async {
        let mut producer = TcpStream::connect(tcp).await.unwrap();
        let mut framer = TlvFramer::default();
        producer.write_all(&command_interest("rib", "register", &prefix("/t"), 1)).await.unwrap();
        let r = response(&read_element(&mut producer, &mut framer).await);
        // From 127.0.0.1: local scope, so the command is heard. The TCP face is the daemon's
        // first (256).
        assert_eq!((r.status_code, r.body.unwrap().face_id), (200, Some(256)));
        let mut consumer = App::connect(&dir.join("app.sock")).await;
        consumer.send(&interest("/t/1", 5)).await;
        let got = read_element(&mut producer, &mut framer).await;
        assert_eq!(ndnflow_core::packet::Frame::decode(&got).unwrap().packet.name().to_string(), "/t/1");
        producer.write_all(&data("/t/1", b"over tcp")).await.unwrap();
        assert_eq!(name_and_content(&consumer.recv().await), ("/t/1".into(), b"over tcp".to_vec()));
    })
    .await;
}

#[tokio::test]
async fn faces_create_connects_two_daemons_over_tcp() {
    let (dir_a, dir_b) = (socket_dir("tcp-a"), socket_dir("tcp-b"));
    let b = Daemon::bind(producer_daemon(&dir_b)).await.unwrap();
    let b_tcp = b.tcp_addr().unwrap();
    let a = Daemon::bind(producer_daemon(&dir_a)).await.unwrap();
    let status_b = b.status();
    let client = async {
        let mut producer = App::connect(&dir_b.join("producer.sock")).await; // B's /p
        wait_until(&status_b, |r| r.faces.len() == 1).await;
        let mut tool = App::connect(&dir_a.join("app.sock")).await; // A's face 256
        let create = ControlParameters { uri: Some(format!("tcp4://{b_tcp}")), ..Default::default() };
        tool.send(&command_interest("faces", "create", &create, 1)).await;
        let r = response(&tool.recv_bytes().await.unwrap());
        assert_eq!((r.status_code, r.body.as_ref().unwrap().face_id), (200, Some(257)));
        let again = {
            tool.send(&command_interest("faces", "create", &create, 2)).await;
            response(&tool.recv_bytes().await.unwrap())
        };
        assert_eq!((again.status_code, again.body.unwrap().face_id), (409, Some(257)));
        let route = ControlParameters { face_id: Some(257), ..prefix("/p") };
        tool.send(&command_interest("rib", "register", &route, 3)).await;
        assert_eq!(response(&tool.recv_bytes().await.unwrap()).status_code, 200);
        let mut consumer = App::connect(&dir_a.join("app.sock")).await;
        consumer.send(&interest("/p/tcp", 9)).await;
        assert_eq!(producer.recv().await.packet.name().to_string(), "/p/tcp");
        producer.send(&data("/p/tcp", b"two hops")).await;
        assert_eq!(name_and_content(&consumer.recv().await), ("/p/tcp".into(), b"two hops".to_vec()));
    };
    let (report_a, report_b, ()) = run_two(a, b, client, LIMIT).await;
    assert!(report_a.faces[1].remote.starts_with("tcp4://127.0.0.1:"));
    // B accepted the connection as an on-demand face; the Interest came in on it.
    let accepted = report_b.faces.iter().find(|f| f.remote.starts_with("tcp4://")).expect("B's TCP face");
    assert_eq!(accepted.packets.received[ndnflow_core::fw::FaceCounters::INTERESTS], 1);
}

#[tokio::test]
async fn faces_create_makes_a_permanent_tcp_face_when_asked_and_refuses_on_demand() {
    let dir = socket_dir("tcp-permanent");
    let a = Daemon::bind(producer_daemon(&dir)).await.unwrap();
    let peer = std::net::TcpListener::bind("127.0.0.1:0").unwrap(); // connections wait in its backlog
    let uri = Some(format!("tcp4://{}", peer.local_addr().unwrap()));
    let client = async {
        let mut tool = App::connect(&dir.join("app.sock")).await;
        let ask =
            |persistency| ControlParameters { uri: uri.clone(), face_persistency: persistency, ..Default::default() };
        tool.send(&command_interest("faces", "create", &ask(Some(1)), 1)).await;
        let on_demand = response(&tool.recv_bytes().await.unwrap());
        tool.send(&command_interest("faces", "create", &ask(Some(2)), 2)).await;
        let permanent = response(&tool.recv_bytes().await.unwrap());
        (on_demand, permanent)
    };
    let (_, (on_demand, permanent)) = run_with(a, client).await;
    assert_eq!(on_demand.status_code, 406);
    // NFD's FacePersistency numbers: persistent 0, on-demand 1, permanent 2.
    assert_eq!((permanent.status_code, permanent.body.unwrap().face_persistency), (200, Some(2)));
}
