//! A shaped face on loopback: two daemons, the producer's daemon B sending to the consumer's
//! daemon A at 1 Mbit/s through PCON's CoDel queue, as a scenario's bottleneck link direction.
//! A burst of Interests makes a standing queue of Data at B, and CoDel marks them on real sojourn
//! times; the marks reach the consumer through A unchanged.
//! With the Interests' direction shaped, a marked Interest marks the sending daemon's PIT entry
//! instead of crossing the wire marked (PCON §3.1).

use crate::common;

use std::time::Instant;

use common::*;
use ndnflow_core::packet::{Frame, NetPacket};
use ndnflow_net::config;
use ndnflow_net::Daemon;

/// Interests in the burst, and the Data's size on the wire without a link header.
const SEGMENTS: u64 = 40;
const DATA_BYTES: u32 = 1_000;

/// A daemon on a free loopback UDP port, applications' socket `DIR/app.sock`, no TCP, whose
/// first face (`face`: name, peer address) sends at `rate` through PCON's queue (100 packets);
/// `rest`: its other faces and its routes.
fn shaped_daemon(dir: &std::path::Path, face: (&str, &str), rate: &str, rest: &str) -> config::DaemonConfig {
    let (name, peer) = face;
    let text = format!(
        "[listen]\nudp = \"127.0.0.1:0\"\ntcp = false\nunix = \"{dir}/app.sock\"\n\
         [[faces]]\nname = \"{name}\"\nudp = \"{peer}\"\nbandwidth = \"{rate}\"\n\
         queue = {{ discipline = \"pcon\", packets = 100 }}\n{rest}",
        dir = dir.display()
    );
    config::parse(&text, "shaped.toml").unwrap()
}

#[tokio::test]
async fn a_bottleneck_face_paces_the_data_and_codel_marks_them_end_to_end() {
    let (dir_a, dir_b) = (socket_dir("shaped-a"), socket_dir("shaped-b"));
    let ports = (free_port(), free_port());
    let pcon = "bandwidth = \"1Mbps\"\nqueue = { discipline = \"pcon\", packets = 100 }";
    let (a, b) = two_daemons((&dir_a, &dir_b), ports, (loopback(ports.0), loopback(ports.1)), ("", pcon));
    let (a, b) = (Daemon::bind(a).await.unwrap(), Daemon::bind(b).await.unwrap());
    let status_b = b.status();
    let client = async {
        let mut producer = App::connect(&dir_b.join("producer.sock")).await;
        wait_until(&status_b, |r| r.faces.len() == 2).await;
        let mut consumer = App::connect(&dir_a.join("app.sock")).await;
        for s in 0..SEGMENTS {
            consumer.send(&interest(&format!("/p/seg={s}"), s as u32 + 1)).await;
        }
        for _ in 0..SEGMENTS {
            let name = producer.recv().await.packet.name().clone();
            producer.send(&data_of_size(name.last().unwrap().as_segment().unwrap(), DATA_BYTES)).await;
        }
        let start = Instant::now();
        let mut marks = Vec::new();
        for _ in 0..SEGMENTS {
            let frame = consumer.recv().await;
            assert!(matches!(frame.packet, NetPacket::Data(_)));
            marks.push(frame.lp.congestion_mark > 0);
        }
        (marks, start.elapsed())
    };
    let (_, report_b, (marks, elapsed)) = run_two(a, b, client, LIMIT * 3).await;
    // 40 Data of 1,000 bytes (a mark adds a few header bytes) at 1 Mbit/s: 8 ms each. The first
    // leaves at once, the other 39 back to back: the last reaches A at least 39 x 8 = 312 ms
    // after the first (lateness only adds).
    assert!(elapsed.as_millis() >= 300, "paced: {elapsed:?}");
    // PCON's CoDel (target 5 ms, interval 100 ms): the k-th Data starts about 8k ms after the
    // burst with a sojourn of about 8k ms, above the target from k = 1; the first mark comes once
    // the sojourn has been above it for 100 ms, near k = 14 (face::link's unit test derives it
    // exactly). On a loaded machine the burst reaches B spread out, so allow 11 to 20 here.
    let first = marks.iter().position(|&m| m).expect("CoDel marked the standing queue");
    assert!((11..=20).contains(&first), "first mark at {first}: {marks:?}");
    let link = report_b.faces[0].link.expect("face a is shaped");
    assert_eq!(link.marked, marks.iter().filter(|&&m| m).count() as u64);
    assert_eq!((link.queue_drops, link.codel_drops), (0, 0));
}

#[tokio::test]
async fn an_interest_marked_by_a_shaped_face_marks_the_pit_entry_of_the_daemon_that_sent_it() {
    // PCON §3.1's PIT marking, the other way round: the Interests' direction is the bottleneck.
    // A's face to B sends at 10 kbit/s through PCON's queue; an Interest of about 21 bytes takes
    // about 17 ms, so a burst of 40 queues for 0.7 s and CoDel marks some of them (the first near
    // the 8th: its sojourn has been above 5 ms since the 1st left, 17 ms in, for 100 ms). A mark
    // is for A, which sent the Interest: A marks the PIT entry and the Data it sends down for it,
    // and the Interest goes on unmarked (the simulator's rule, docs/protocols/pcon.md). B is a
    // bare UDP socket here, to see the Interests as they cross the wire; it marks nothing.
    let dir = socket_dir("pitmark");
    let b = tokio::net::UdpSocket::bind("127.0.0.1:0").await.unwrap();
    let b_addr = b.local_addr().unwrap();
    let a = shaped_daemon(&dir, ("b", &b_addr.to_string()), "10kbps", "[[routes]]\nprefix = \"/p\"\nnexthop = \"b\"\n");
    let a = Daemon::bind(a).await.unwrap();
    let client = async {
        let mut consumer = App::connect(&dir.join("app.sock")).await;
        for s in 0..SEGMENTS {
            consumer.send(&interest(&format!("/p/seg={s}"), s as u32 + 1)).await;
        }
        let (mut marked_interests, mut buf) = (0, [0u8; 9000]);
        for _ in 0..SEGMENTS {
            let (n, from) = b.recv_from(&mut buf).await.unwrap();
            let frame = Frame::decode(&buf[..n]).unwrap();
            marked_interests += u64::from(frame.lp.congestion_mark > 0);
            b.send_to(&data(&frame.packet.name().to_string(), b"x"), from).await.unwrap();
        }
        let mut marked_data = 0;
        for _ in 0..SEGMENTS {
            let frame = consumer.recv().await;
            assert!(matches!(frame.packet, NetPacket::Data(_)));
            marked_data += u64::from(frame.lp.congestion_mark > 0);
        }
        (marked_interests, marked_data)
    };
    let (report_a, (marked_interests, marked_data)) = run_with(a, client).await;
    let link = report_a.faces[0].link.expect("face b is shaped");
    assert!(link.marked > 0, "CoDel marked the standing queue of Interests");
    assert_eq!(marked_interests, 0, "a mark went on over the wire to B");
    // One marked PIT entry per marked Interest, one marked Data down for each.
    assert_eq!(marked_data, link.marked);
}

#[tokio::test]
async fn a_delayed_face_holds_each_packet_for_the_link_s_delay() {
    // Both directions delayed by 20 ms at 100 Mbit/s (a 1,000-byte Data takes 0.08 ms to send):
    // one Interest out and its Data back cross two delayed faces, so the exchange takes at least
    // 40 ms (lateness only adds), where without `delay` it takes well under a millisecond. The
    // upper bound, 70 ms, tells a delay held once per hop from one held twice (80 ms).
    let (dir_a, dir_b) = (socket_dir("delay-a"), socket_dir("delay-b"));
    let ports = (free_port(), free_port());
    let delayed = "bandwidth = \"100Mbps\"\ndelay = \"20ms\"";
    let (a, b) = two_daemons((&dir_a, &dir_b), ports, (loopback(ports.0), loopback(ports.1)), (delayed, delayed));
    let (a, b) = (Daemon::bind(a).await.unwrap(), Daemon::bind(b).await.unwrap());
    let status_b = b.status();
    let client = async {
        let mut producer = App::connect(&dir_b.join("producer.sock")).await;
        wait_until(&status_b, |r| r.faces.len() == 2).await;
        let mut consumer = App::connect(&dir_a.join("app.sock")).await;
        let start = Instant::now();
        consumer.send(&interest("/p/seg=0", 1)).await;
        let at_producer = producer.recv().await;
        let there = start.elapsed();
        producer.send(&data_of_size(at_producer.packet.name().last().unwrap().as_segment().unwrap(), DATA_BYTES)).await;
        assert!(matches!(consumer.recv().await.packet, NetPacket::Data(_)));
        (there, start.elapsed())
    };
    let (_, _, (there, back)) = run_two(a, b, client, LIMIT).await;
    assert!(there.as_millis() >= 20, "the Interest was held 20 ms: {there:?}");
    assert!(back.as_millis() >= 40 && back.as_millis() < 70, "held 20 ms each way: {back:?}");
}
