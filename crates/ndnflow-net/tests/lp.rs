//! NDNLPv2 between two daemons over UDP on loopback: Data past a face's MTU crossing in
//! fragments, and link reliability resending what a lossy wire (a relay in the test that drops
//! chosen datagrams) lost.

use crate::common;

use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use common::*;
use ndnflow_core::packet::lp::{decode_link_packet, LinkPacket};
use ndnflow_core::packet::NetPacket;
use ndnflow_net::Daemon;
use tokio::net::UdpSocket;

/// The consumer at A asks for `n` segments; the producer at B answers each with a Data of `size`
/// bytes; the segments A's application received, sorted.
async fn fetch(
    dirs: (&std::path::Path, &std::path::Path),
    status_b: &ndnflow_net::StatusHandle,
    n: u64,
    size: u32,
) -> Vec<u64> {
    let mut producer = App::connect(&dirs.1.join("producer.sock")).await;
    wait_until(status_b, |r| r.faces.len() == 2).await;
    let mut consumer = App::connect(&dirs.0.join("app.sock")).await;
    for s in 0..n {
        consumer.send(&interest(&format!("/p/seg={s}"), s as u32 + 1)).await;
    }
    for _ in 0..n {
        let name = producer.recv().await.packet.name().clone();
        producer.send(&data_of_size(name.last().unwrap().as_segment().unwrap(), size)).await;
    }
    let mut got = Vec::new();
    for _ in 0..n {
        let frame = consumer.recv().await;
        let NetPacket::Data(data) = &frame.packet else { panic!("not a Data: {frame:?}") };
        assert_eq!(frame.wire_size(), size, "the Data as the producer made it");
        got.push(data.name.last().unwrap().as_segment().unwrap());
    }
    got.sort_unstable();
    got
}

/// B's face to A has MTU 1500: 1500 - 12 - 50 = 1438 bytes of a packet per fragment (NFD's
/// fragmenter, as frag.rs derives), so each 3,000-byte Data leaves B in three datagrams
/// (1438 + 1438 + 124). Four Data: 4 packets fragmented, 12 fragments, 4 reassembled at A.
#[tokio::test]
async fn data_past_the_mtu_cross_in_fragments() {
    let (dir_a, dir_b) = (socket_dir("lp-frag-a"), socket_dir("lp-frag-b"));
    let ports = (free_port(), free_port());
    let peers = (loopback(ports.0), loopback(ports.1));
    let (a, b) = two_daemons((&dir_a, &dir_b), ports, peers, ("", "mtu = 1500"));
    let (a, b) = (Daemon::bind(a).await.unwrap(), Daemon::bind(b).await.unwrap());
    let status_b = b.status();
    let (report_a, report_b, got) =
        run_two(a, b, async { fetch((&dir_a, &dir_b), &status_b, 4, 3000).await }, LIMIT).await;
    assert_eq!(got, [0, 1, 2, 3]);
    let (mtu_b, sent) = report_b.faces[0].lp.unwrap();
    assert_eq!(mtu_b, 1500);
    assert_eq!((sent.fragmented, sent.fragments_sent, sent.too_large), (4, 12, 0));
    let (mtu_a, received) = report_a.faces[0].lp.unwrap();
    assert_eq!(mtu_a, 65_467, "NFD's UDP MTU by default");
    assert_eq!((received.reassembled, received.reassembly_timeouts, received.fragments_dropped), (4, 0, 0));
}

/// Whether a datagram carries a Data (bare, or in an LpPacket).
fn is_data(wire: &[u8]) -> bool {
    matches!(decode_link_packet(wire), Ok(LinkPacket::Frame(f)) if matches!(f.packet, NetPacket::Data(_)))
}

/// A wire between A and B: A sends to `to_b`, which passes it on to B; B sends to `to_a`, which
/// passes it on to A, except the Data datagrams among B's first `first` whose index is 1 mod 4.
async fn lossy_wire(
    to_b: UdpSocket,
    to_a: UdpSocket,
    a: SocketAddr,
    b: SocketAddr,
    first: u64,
    dropped: Arc<AtomicU64>,
) {
    let (mut from_a, mut from_b) = (vec![0u8; 9000], vec![0u8; 9000]);
    let mut data_seen = 0u64;
    loop {
        tokio::select! {
            Ok((n, _)) = to_b.recv_from(&mut from_a) => {
                let _ = to_a.send_to(&from_a[..n], b).await;
            }
            Ok((n, _)) = to_a.recv_from(&mut from_b) => {
                let wire = &from_b[..n];
                if is_data(wire) {
                    data_seen += 1;
                    if data_seen <= first && data_seen % 4 == 2 {
                        dropped.fetch_add(1, Ordering::Relaxed);
                        continue;
                    }
                }
                let _ = to_b.send_to(wire, a).await;
            }
        }
    }
}

/// Reliability on both faces, through a wire that drops B's 2nd, 6th, 10th, 14th and 18th Data
/// (the first transmissions of 20). Each is found lost (three later TxSequences acknowledged, or
/// its timer) and sent again once: all 20 reach the consumer, B's face resends at least 5 and
/// gives up on none.
#[tokio::test]
async fn reliability_resends_the_data_a_lossy_wire_dropped() {
    let (dir_a, dir_b) = (socket_dir("lp-rel-a"), socket_dir("lp-rel-b"));
    let ports = (free_port(), free_port());
    let to_b = UdpSocket::bind("127.0.0.1:0").await.unwrap();
    let to_a = UdpSocket::bind("127.0.0.1:0").await.unwrap();
    // A's face "b" is the wire's end `to_b`; B's face "a" is its end `to_a`.
    let peers = (to_a.local_addr().unwrap(), to_b.local_addr().unwrap());
    let reliable = "reliability = true";
    let (a, b) = two_daemons((&dir_a, &dir_b), ports, peers, (reliable, reliable));
    let (a, b) = (Daemon::bind(a).await.unwrap(), Daemon::bind(b).await.unwrap());
    let dropped = Arc::new(AtomicU64::new(0));
    let wire = tokio::spawn(lossy_wire(to_b, to_a, loopback(ports.0), loopback(ports.1), 20, dropped.clone()));
    let status_b = b.status();
    let acked = |r: &ndnflow_net::Report| r.faces[0].lp.is_some_and(|(_, c)| c.acknowledged >= 20);
    let client = async {
        let got = fetch((&dir_a, &dir_b), &status_b, 20, 1000).await;
        // A acknowledges the last Data in an IDLE packet up to 5 ms after it came.
        wait_until(&status_b, acked).await;
        got
    };
    let (report_a, report_b, got) = run_two(a, b, client, LIMIT).await;
    wire.abort();
    assert_eq!(got, (0..20).collect::<Vec<_>>());
    assert_eq!(dropped.load(Ordering::Relaxed), 5);
    let (_, b_lp) = report_b.faces[0].lp.unwrap();
    assert!(b_lp.retransmitted >= 5, "{b_lp:?}");
    assert_eq!(b_lp.retx_exhausted, 0);
    let (_, a_lp) = report_a.faces[0].lp.unwrap();
    assert_eq!(a_lp.retx_exhausted, 0, "{a_lp:?}");
}
