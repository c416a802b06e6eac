//! The daemon on loopback: applications on Unix sockets under a fresh temporary directory, UDP on
//! 127.0.0.1 with ports the system picks. Every test runs under `LIMIT`, so a hang fails.
//!
//! The test applications encode and decode with the core's codec, as the daemon does; the
//! Interest the consumer sends is written by hand (`INTEREST_P_X`), so the wire format is checked
//! against the NDN packet format and not only against itself.

use crate::common;

use common::*;
use ndnflow_core::packet::{Interest, NackReason, NetPacket};
use ndnflow_core::Time;
use ndnflow_net::config;
use ndnflow_net::Daemon;
use tokio::net::UdpSocket;

/// Interest /p/x with Nonce 01 02 03 04 and InterestLifetime 4000 ms, written by hand from the
/// NDN packet format v0.3 ("Interest Packet": Name, Nonce, InterestLifetime in that order; every
/// type and length here fits one byte).
const INTEREST_P_X: [u8; 20] = [
    0x05, 0x12, // Interest, 18 bytes: 8 (Name) + 6 (Nonce) + 4 (InterestLifetime)
    0x07, 0x06, //   Name, 6 bytes
    0x08, 0x01, b'p', //     GenericNameComponent "p"
    0x08, 0x01, b'x', //     GenericNameComponent "x"
    0x0A, 0x04, 0x01, 0x02, 0x03, 0x04, //   Nonce
    0x0C, 0x02, 0x0F, 0xA0, //   InterestLifetime 0x0FA0 = 4000 ms
];

#[test]
fn the_hand_written_interest_decodes_as_written_and_encodes_back_to_the_same_bytes() {
    let i = Interest::decode(&INTEREST_P_X).unwrap();
    assert_eq!(i.name.to_string(), "/p/x");
    assert_eq!(i.nonce, Some(0x0102_0304));
    assert_eq!(i.lifetime, Some(Time::from_millis(4000)));
    assert_eq!(i.encode(), INTEREST_P_X);
}

#[tokio::test]
async fn a_consumer_gets_the_producer_s_data_through_unix_faces() {
    let dir = socket_dir("unix");
    let daemon = Daemon::bind(producer_daemon(&dir)).await.unwrap();
    let status = daemon.status();
    let (report, ()) = run_with(daemon, async {
        let mut producer = App::connect(&dir.join("producer.sock")).await;
        wait_until(&status, |r| r.faces.len() == 1).await; // face 0: the producer, with /p
        let mut consumer = App::connect(&dir.join("app.sock")).await;
        consumer.send(&INTEREST_P_X).await;
        // The forwarder passes the Interest on unchanged: the producer reads the same 20 bytes.
        assert_eq!(producer.recv_bytes().await.unwrap(), INTEREST_P_X);
        producer.send(&data("/p/x", b"hello")).await;
        assert_eq!(name_and_content(&consumer.recv().await), ("/p/x".into(), b"hello".to_vec()));
    })
    .await;
    // One Interest came in from the consumer and went out to the producer; one Data the other way.
    let c = report.forwarder;
    assert_eq!((c.in_interests, c.out_interests, c.in_data, c.out_data), (1, 1, 1, 1));
    assert_eq!((c.cs_hits, c.cs_misses), (0, 1));
    assert_eq!(report.faces.len(), 2);
    assert!(report.faces.iter().all(|f| f.local_app));
    assert_eq!(report.faces[0].name.as_deref(), Some("up"));
    assert_eq!(io(&report, 0), ((0, 1), (1, 0)), "producer face: 1 Interest out, 1 Data in");
    assert_eq!(io(&report, 1), ((1, 0), (0, 1)), "consumer face: 1 Interest in, 1 Data out");
    // Bytes are the network packets': the Interest's 20, and the Data's as encoded.
    assert_eq!(report.faces[1].packets.in_bytes, 20);
    assert_eq!(report.faces[1].packets.out_bytes, data("/p/x", b"hello").len() as u64);
    assert!(!dir.join("app.sock").exists(), "the daemon removes its sockets when it stops");
}

#[tokio::test]
async fn a_second_interest_for_the_name_is_answered_from_the_content_store() {
    let dir = socket_dir("cs");
    let daemon = Daemon::bind(producer_daemon(&dir)).await.unwrap();
    let status = daemon.status();
    let (report, ()) = run_with(daemon, async {
        let mut producer = App::connect(&dir.join("producer.sock")).await;
        wait_until(&status, |r| r.faces.len() == 1).await;
        let mut consumer = App::connect(&dir.join("app.sock")).await;
        consumer.send(&interest("/p/x", 1)).await;
        producer.recv().await;
        producer.send(&data("/p/x", b"hello")).await;
        consumer.recv().await;
        // Another nonce, so not a duplicate: the Content Store (NFD's default, 65536 packets)
        // answers it.
        consumer.send(&interest("/p/x", 2)).await;
        assert_eq!(name_and_content(&consumer.recv().await), ("/p/x".into(), b"hello".to_vec()));
    })
    .await;
    // Interests: 2 in, 1 out (the second hit the store); Data: 1 in, 2 out.
    let c = report.forwarder;
    assert_eq!((c.in_interests, c.out_interests, c.in_data, c.out_data), (2, 1, 1, 2));
    assert_eq!((c.cs_hits, c.cs_misses), (1, 1));
    assert_eq!(io(&report, 0), ((0, 1), (1, 0)), "the producer saw one Interest");
    assert_eq!(io(&report, 1), ((2, 0), (0, 2)));
}

#[tokio::test]
async fn two_daemons_chained_over_udp_bring_the_data_back() {
    let (dir_a, dir_b) = (socket_dir("chain-a"), socket_dir("chain-b"));
    let b = Daemon::bind(producer_daemon(&dir_b)).await.unwrap();
    let b_addr = b.udp_addr().unwrap();
    let a = Daemon::bind(relay_daemon(&dir_a, b_addr)).await.unwrap();
    let a_addr = a.udp_addr().unwrap();
    let (status_a, status_b) = (a.status(), b.status());
    let client = async {
        let mut producer = App::connect(&dir_b.join("producer.sock")).await;
        wait_until(&status_b, |r| r.faces.len() == 1).await;
        let mut consumer = App::connect(&dir_a.join("app.sock")).await;
        consumer.send(&INTEREST_P_X).await;
        assert_eq!(producer.recv_bytes().await.unwrap(), INTEREST_P_X, "unchanged across two hops");
        producer.send(&data("/p/x", b"far")).await;
        assert_eq!(name_and_content(&consumer.recv().await), ("/p/x".into(), b"far".to_vec()));
        let _ = status_a.report().await; // A is still up
    };
    let (report_a, report_b, ()) = run_two(a, b, client, LIMIT).await;
    for r in [&report_a, &report_b] {
        let c = r.forwarder;
        assert_eq!((c.in_interests, c.out_interests, c.in_data, c.out_data), (1, 1, 1, 1));
    }
    // A: face 0 is the configured UDP face to B, face 1 the consumer.
    assert_eq!(report_a.faces[0].remote, format!("udp://{b_addr}"));
    assert_eq!(io(&report_a, 0), ((0, 1), (1, 0)));
    assert!(!report_a.faces[0].local_app);
    // B: face 0 the producer, face 1 made on demand for A's first datagram.
    assert_eq!(report_b.faces[1].remote, format!("udp://{a_addr}"));
    assert_eq!(report_b.faces[1].name, None);
    assert_eq!(io(&report_b, 1), ((1, 0), (0, 1)));
}

#[tokio::test]
async fn garbage_is_dropped_and_counted_and_the_daemon_keeps_serving() {
    let dir = socket_dir("garbage");
    let daemon = Daemon::bind(producer_daemon(&dir)).await.unwrap();
    let udp_addr = daemon.udp_addr().unwrap();
    let status = daemon.status();
    let (report, ()) = run_with(daemon, async {
        let mut producer = App::connect(&dir.join("producer.sock")).await;
        wait_until(&status, |r| r.faces.len() == 1).await;

        // UDP from an endpoint without a face: an empty datagram, bytes that are no TLV, and a
        // truncated Interest. 3 dropped, and no face made for them.
        let stranger = UdpSocket::bind("127.0.0.1:0").await.unwrap();
        for junk in [&[][..], &[0xFF; 7][..], &INTEREST_P_X[..10]] {
            stranger.send_to(junk, udp_addr).await.unwrap();
        }
        wait_until(&status, |r| r.unknown_malformed == 3).await;

        // A peer whose first datagram decodes gets a face (face 1); its garbage after that
        // counts on that face: a truncated Interest, and an LpPacket whose Fragment holds one
        // byte that is no packet. An LpPacket with no Fragment is an IDLE packet (NDNLPv2): the
        // link service reads it, and it is not garbage.
        let peer = UdpSocket::bind("127.0.0.1:0").await.unwrap();
        peer.send_to(&interest("/nowhere", 9), udp_addr).await.unwrap();
        wait_until(&status, |r| r.faces.len() == 2).await;
        peer.send_to(&INTEREST_P_X[..19], udp_addr).await.unwrap();
        peer.send_to(&[0x64, 0x00], udp_addr).await.unwrap();
        peer.send_to(&[0x64, 0x03, 0x50, 0x01, 0xFF], udp_addr).await.unwrap();
        wait_until(&status, |r| r.faces[1].driver.malformed == 2).await;

        // A consumer that sends an element whose value is not an Interest: dropped, counted, and
        // its connection goes on (the length kept the stream in step): its next Interest is served.
        let mut consumer = App::connect(&dir.join("app.sock")).await;
        consumer.send(&[0x05, 0x03, 0xFF, 0xFF, 0xFF]).await;
        consumer.send(&INTEREST_P_X).await;
        assert_eq!(producer.recv_bytes().await.unwrap(), INTEREST_P_X);
        producer.send(&data("/p/x", b"still here")).await;
        assert_eq!(name_and_content(&consumer.recv().await).1, b"still here".to_vec());

        // An application announcing a 65536-byte element (past 8800): counted, and the daemon
        // closes that connection, which reads the end of the stream.
        let mut flooder = App::connect(&dir.join("app.sock")).await;
        flooder.send(&[0x06, 0xFE, 0x00, 0x01, 0x00, 0x00]).await;
        assert_eq!(flooder.recv_bytes().await, None);
    })
    .await;
    assert_eq!(report.unknown_malformed, 3);
    assert_eq!(report.faces.len(), 4, "producer, UDP peer, consumer, flooder");
    let malformed: Vec<u64> = report.faces.iter().map(|f| f.driver.malformed).collect();
    assert_eq!(malformed, [0, 2, 1, 1]);
    assert!(!report.faces[3].up, "the flooder's face is down");
    // What decoded was forwarded as usual: /nowhere (no route) and /p/x came in; /p/x went out.
    let c = report.forwarder;
    assert_eq!((c.in_interests, c.out_interests, c.in_data, c.out_data), (2, 1, 1, 1));
}

#[tokio::test]
async fn interests_past_the_pit_bound_are_nacked_and_counted_on_their_face() {
    let dir = socket_dir("pit");
    let daemon = Daemon::bind(producer_daemon_with(&dir, "pit_capacity = 2")).await.unwrap();
    let status = daemon.status();
    let (report, ()) = run_with(daemon, async {
        let mut producer = App::connect(&dir.join("producer.sock")).await;
        wait_until(&status, |r| r.faces.len() == 1).await;
        let mut consumer = App::connect(&dir.join("app.sock")).await;
        // Three names, none answered: two entries fill the PIT, the third finds no room. Then
        // a copy of /p/a with a new nonce joins its entry (no new entry needed), so it passes.
        for (name, nonce) in [("/p/a", 1), ("/p/b", 2), ("/p/c", 3), ("/p/a", 4)] {
            consumer.send(&interest(name, nonce)).await;
        }
        wait_until(&status, |r| r.forwarder.in_interests == 3).await;
        let names = [producer.recv().await, producer.recv().await];
        let names: Vec<String> = names.iter().map(|f| f.packet.name().to_string()).collect();
        assert_eq!(names, ["/p/a", "/p/b"]);
        // The refusal is a Nack(Congestion), so the consumer need not wait out its timer.
        let NetPacket::Nack(nack) = consumer.recv().await.packet else { panic!("a Nack for /p/c") };
        assert_eq!((nack.reason, nack.interest.name.to_string()), (NackReason::Congestion, "/p/c".to_string()));
    })
    .await;
    assert_eq!(report.faces[1].driver.pit_full, 1, "/p/c");
    assert_eq!(report.pit_entries, 2);
    // The forwarder saw /p/a, /p/b and /p/a again (aggregated, or retransmitted: NFD forwards a
    // new nonce from the same face again); /p/c never reached it.
    assert_eq!(report.forwarder.in_interests, 3);
}

#[tokio::test]
async fn a_start_that_fails_half_way_leaves_no_socket_file() {
    let dir = socket_dir("half");
    // listen.unix binds app.sock; the face's listener at the same path is then refused.
    let mut config = producer_daemon(&dir);
    config.faces[0].transport = config::FaceTransport::Unix(dir.join("app.sock"));
    let err = Daemon::bind(config).await.err().expect("the second listener is refused");
    assert_eq!(err.to_string(), format!("faces[0].unix: {}/app.sock is already a listener", dir.display()));
    assert!(!dir.join("app.sock").exists(), "the first listener's file is removed");
}

#[tokio::test]
async fn a_burst_longer_than_one_wake_up_takes_is_forwarded_whole_and_in_order() {
    // 100 Interests sent back to back over UDP, more than the 64 the daemon takes per wake-up
    // (`Daemon::take_waiting`), so it goes back to sleep at least once in the middle of them; the
    // producer's writer gathers the ones queued together into single writes. All 100 reach the
    // producer as whole packets, in the order sent; its 100 Data, written in one go, all come
    // back, in order too (loopback keeps UDP's order, and the daemon handles packets as they come).
    const N: usize = 100;
    let dir = socket_dir("burst");
    let daemon = Daemon::bind(producer_daemon(&dir)).await.unwrap();
    let udp_addr = daemon.udp_addr().unwrap();
    let status = daemon.status();
    let names: Vec<String> = (0..N).map(|i| format!("/p/{i}")).collect();
    let (report, ()) = run_with(daemon, async {
        let mut producer = App::connect(&dir.join("producer.sock")).await;
        wait_until(&status, |r| r.faces.len() == 1).await;
        let consumer = UdpSocket::bind("127.0.0.1:0").await.unwrap();
        for (i, name) in names.iter().enumerate() {
            consumer.send_to(&interest(name, i as u32), udp_addr).await.unwrap();
        }
        let mut answers = Vec::new();
        for name in &names {
            let got = producer.recv().await;
            assert_eq!(&got.packet.name().to_string(), name);
            answers.extend_from_slice(&data(name, b"d"));
        }
        producer.send(&answers).await;
        let mut buf = [0u8; 9000];
        for name in &names {
            let n = consumer.recv(&mut buf).await.unwrap();
            let frame = ndnflow_core::packet::Frame::decode(&buf[..n]).unwrap();
            assert_eq!(name_and_content(&frame), (name.clone(), b"d".to_vec()));
        }
    })
    .await;
    let c = report.forwarder;
    assert_eq!((c.in_interests, c.out_interests, c.in_data, c.out_data), (100, 100, 100, 100));
    assert_eq!(report.faces.iter().map(|f| f.driver.send_dropped).sum::<u64>(), 0);
}
