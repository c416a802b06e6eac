//! `ndnflow serve` and `ndnflow get` through a daemon on loopback, in one runtime: a producer's
//! socket with a route for /p (as a configuration gives it), the fetch on the applications' socket.

use std::path::{Path, PathBuf};
use std::time::Duration;

use ndnflow_core::packet::{Data, Frame, NetPacket};
use ndnflow_core::Name;
use ndnflow_net::app::client::{Client, Received};
use ndnflow_net::app::get::{consumer_config, fetch, GetOptions};
use ndnflow_net::app::serve::{serve, Segments};
use ndnflow_net::config;
use ndnflow_net::sign::verify_digest_sha256;
use ndnflow_net::{Daemon, Report};
use tokio::sync::oneshot;
use tokio::time::timeout;

const LIMIT: Duration = Duration::from_secs(20);

fn socket_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ndnflow-app-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

async fn daemon(dir: &Path) -> Daemon {
    let text = format!(
        r#"
        [listen]
        udp = false
        unix = "{d}/app.sock"
        [[faces]]
        name = "producer"
        unix = "{d}/producer.sock"
        [[routes]]
        prefix = "/p"
        nexthop = "producer"
        "#,
        d = dir.display()
    );
    Daemon::bind(config::parse(&text, "test.toml").unwrap()).await.unwrap()
}

/// 100,000 bytes that differ from segment to segment (a byte per position mod 251, a prime, so
/// no 8000-byte segment repeats another).
fn file_content() -> Vec<u8> {
    (0..100_000u32).map(|i| (i % 251) as u8).collect()
}

/// Runs the daemon, `serve` on the producer's socket and `get` with `options` on the
/// applications' socket; what `get` fetched, and the daemon's report.
async fn serve_and_get(test: &str, options: &[(&str, &str)]) -> (ndnflow_net::app::get::Fetched, Report) {
    let dir = socket_dir(test);
    let daemon = daemon(&dir).await;
    let status = daemon.status();
    let segments = Segments::new(&Name::parse("/p/file").unwrap(), &file_content(), 8000, None).unwrap();
    let (stop_daemon, daemon_stopped) = oneshot::channel::<()>();
    let (stop_serve, serve_stopped) = oneshot::channel::<()>();
    let producer_path = dir.join("producer.sock");
    let apps = async {
        let mut producer = Client::connect(&producer_path).await.unwrap();
        // Until the daemon has accepted the producer (and routed /p to it), a fetch would find no route.
        while !status.report().await.unwrap().faces.iter().any(|f| f.name.as_deref() == Some("producer")) {
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
        let options: Vec<(String, String)> = options.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        let consumer = consumer_config("/p/file", &options).unwrap();
        let get = GetOptions { consumer, socket: dir.join("app.sock"), seed: 7 };
        let (served, fetched) = tokio::join!(
            serve(&mut producer, &segments, async {
                let _ = serve_stopped.await;
            }),
            async {
                let f = fetch(&get, std::future::pending()).await;
                let _ = stop_serve.send(());
                f
            }
        );
        let report = status.report().await.unwrap();
        let _ = stop_daemon.send(());
        (served.unwrap(), fetched.unwrap(), report)
    };
    let run = async {
        tokio::join!(
            daemon.run(async {
                let _ = daemon_stopped.await;
            }),
            apps
        )
    };
    let (_, (served, fetched, report)) = timeout(LIMIT, run).await.expect("the test hung");
    assert_eq!(served.interests, fetched.summary.stats.interests_sent, "every Interest reached the producer");
    (fetched, report)
}

#[tokio::test(flavor = "current_thread")]
async fn get_fetches_what_serve_publishes_byte_for_byte() {
    let (fetched, _) = serve_and_get("aimd", &[("cc", "aimd")]).await;
    let s = &fetched.summary;
    assert_eq!(s.incomplete, None);
    // 100,000 bytes in 8000-byte segments: 12 full ones (96,000 bytes) and one of 4000.
    assert_eq!(s.segments, Some(13));
    assert_eq!(s.stats.data_received, 13);
    assert_eq!(s.stats.payload_bytes, 100_000);
    assert_eq!(s.controller, "aimd");
    // Loopback loses nothing: one Interest a segment, no timeout, no retransmission.
    assert_eq!((s.stats.interests_sent, s.stats.timeouts, s.stats.retransmissions), (13, 0, 0));
    assert_eq!(fetched.content.as_deref(), Some(&file_content()[..]));
    assert!(s.text().starts_with("All segments have been received.\n"), "{}", s.text());
}

#[tokio::test(flavor = "current_thread")]
async fn the_default_controller_and_an_inline_table_fetch_the_same_bytes() {
    for (test, options) in
        [("default", vec![]), ("fixed", vec![("cc", "{ algorithm = \"fixed-window\", window = 4 }")])]
    {
        let (fetched, _) = serve_and_get(test, &options).await;
        assert_eq!(fetched.content.as_deref(), Some(&file_content()[..]), "{test}");
    }
}

#[tokio::test(flavor = "current_thread")]
async fn segments_limits_the_fetch_and_the_object_is_then_those_segments() {
    // segments = 2: the consumer asks for seg 0 and 1 only, 16,000 bytes.
    let (fetched, _) = serve_and_get("two", &[("segments", "2")]).await;
    assert_eq!(fetched.summary.segments, Some(2));
    assert_eq!(fetched.content.as_deref(), Some(&file_content()[..16_000]));
}

#[test]
fn every_segment_carries_final_block_id_freshness_and_a_digest_that_verifies() {
    let prefix = Name::parse("/p/file").unwrap();
    let segments = Segments::new(&prefix, &file_content(), 8000, Some(ndnflow_core::Time::from_secs(10))).unwrap();
    assert_eq!(segments.len(), 13);
    for n in 0..13 {
        let wire = segments.packet(n).unwrap();
        assert!(verify_digest_sha256(wire), "segment {n}");
        let Ok(Frame { packet: NetPacket::Data(d), .. }) = Frame::decode(wire) else { panic!("segment {n} is a Data") };
        let d: &Data = &d;
        assert_eq!(d.name, prefix.append_segment(n as u64));
        assert_eq!(d.final_segment(), Some(12));
        assert_eq!(d.freshness_period, Some(ndnflow_core::Time::from_secs(10)));
        assert_eq!(d.content.len(), if n < 12 { 8000 } else { 4000 });
    }
    // An empty file is one empty segment, FinalBlockId 0 (ndnputchunks publishes one too).
    let empty = Segments::new(&prefix, &[], 8000, None).unwrap();
    assert_eq!(empty.len(), 1);
}

#[test]
fn serve_answers_exactly_prefix_and_a_segment() {
    let prefix = Name::parse("/p/file").unwrap();
    let segments = Segments::new(&prefix, b"abc", 2, None).unwrap(); // "ab", "c"
    let name = |s: &str| Name::parse(s).unwrap();
    assert!(segments.answer(&name("/p/file/seg=1")).is_some());
    assert!(segments.answer(&name("/p/file/seg=2")).is_none(), "past the last segment");
    assert!(segments.answer(&name("/p/file")).is_none(), "no segment number");
    assert!(segments.answer(&name("/p/file/seg=0/x")).is_none(), "a longer name");
    assert!(segments.answer(&name("/p/other/seg=0")).is_none());
}

#[test]
fn a_segment_size_that_overflows_a_packet_is_refused() {
    let prefix = Name::parse("/p").unwrap();
    let err = Segments::new(&prefix, &[0; 9000], 8800, None).err().expect("an error");
    assert!(err.to_string().contains("above the 8800 bytes"), "{err}");
    assert!(Segments::new(&prefix, b"x", 0, None).is_err());
}

#[tokio::test(flavor = "current_thread")]
async fn no_forwarder_at_the_socket_is_a_clear_error() {
    let dir = socket_dir("none");
    let err = Client::connect(&dir.join("nothing.sock")).await.err().expect("no forwarder");
    assert!(err.to_string().starts_with(&format!("no forwarder at {}", dir.join("nothing.sock").display())), "{err}");
    let _ = Received::Closed;
}
