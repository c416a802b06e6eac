//! Issue 25 item 7, the flood half: an Interest flood from one face keeps the PIT within its bound,
//! and an honest consumer on another face keeps its goodput (the PIT's share per face,
//! `Forwarder::room_for_interest`).
//!
//! The daemon's PIT holds 200 entries. A flooder on UDP sends Interests for names under the routed
//! prefix that the producer never answers, so each entry it opens would stay its full lifetime
//! (4 s): 5,000 at once, then 10,000 a second for as long as the honest fetch lasts. The honest
//! consumer, on the applications' socket, fetches 20,000 segments of 1,000 bytes with `get`'s
//! default controller (ndncatchunks' CUBIC, which slows down on a Nack(Congestion)).

use crate::common;

use std::time::Duration;

use common::{interest, producer_daemon_with, run_with, serve_while_fetching, socket_dir, wait_until};
use ndnflow_core::Name;
use ndnflow_net::app::client::Client;
use ndnflow_net::app::get::{consumer_config, Fetched, GetOptions};
use ndnflow_net::app::serve::{Segments, ServeReport};
use ndnflow_net::{Daemon, Report};
use tokio::net::UdpSocket;
use tokio::sync::watch;

const CAPACITY: usize = 200;
const BURST: u32 = 5_000;
/// Flood Interests sent every `PACE` during the fetch: 50 every 5 ms, 10,000 a second.
const BATCH: u32 = 50;
const PACE: Duration = Duration::from_millis(5);

fn content() -> Vec<u8> {
    (0..20_000_000u32).map(|i| (i % 251) as u8).collect()
}

/// The honest fetch, beside a flood or not; what it fetched, the daemon's report, and the
/// flooder's face (if any).
async fn fetch_beside_flood(test: &str, flood: bool) -> (Fetched, Report, Option<usize>) {
    let dir = socket_dir(test);
    let daemon = Daemon::bind(producer_daemon_with(&dir, &format!("pit_capacity = {CAPACITY}"))).await.unwrap();
    let (status, udp) = (daemon.status(), daemon.udp_addr().unwrap());
    let segments = Segments::new(&Name::parse("/p/file").unwrap(), &content(), 1000, None).unwrap();
    let apps = async {
        let mut producer = Client::connect(&dir.join("producer.sock")).await.unwrap();
        wait_until(&status, |r| r.faces.iter().any(|f| f.name.as_deref() == Some("up"))).await;
        let flooder = UdpSocket::bind("127.0.0.1:0").await.unwrap();
        let (done_tx, done) = watch::channel(false);
        let mut sent = 0u32;
        if flood {
            for _ in 0..BURST {
                flood_one(&flooder, udp, &mut sent).await;
            }
            // The burst has filled the PIT before the fetch starts.
            wait_until(&status, |r| r.pit_entries == CAPACITY).await;
        }
        let keep_flooding = async {
            while flood && !*done.borrow() {
                for _ in 0..BATCH {
                    flood_one(&flooder, udp, &mut sent).await;
                }
                tokio::time::sleep(PACE).await;
            }
        };
        let mut report = ServeReport::default();
        let consumer = consumer_config("/p/file", &[]).unwrap();
        let get = GetOptions::new(consumer, dir.join("app.sock"), 7);
        let fetch = async {
            let fetched = serve_while_fetching(&mut producer, &segments, &mut report, &get).await;
            let _ = done_tx.send(true);
            fetched
        };
        let ((), fetched) = tokio::join!(keep_flooding, fetch);
        let flooder_port = flooder.local_addr().unwrap().port();
        (fetched, flooder_port)
    };
    let (report, (fetched, port)) = run_with(daemon, apps).await;
    let flooder = report.faces.iter().position(|f| f.remote.ends_with(&format!(":{port}")));
    (fetched, report, flooder)
}

async fn flood_one(socket: &UdpSocket, to: std::net::SocketAddr, sent: &mut u32) {
    *sent += 1;
    let name = format!("/p/flood/{sent}");
    // A full socket buffer drops the datagram, as a network would: the flood need not all arrive.
    let _ = socket.send_to(&interest(&name, *sent), to).await;
}

fn goodput_bps(f: &Fetched) -> f64 {
    f.summary.stats.payload_bytes as f64 * 8.0 / f.summary.elapsed.as_secs_f64()
}

#[tokio::test(flavor = "current_thread")]
async fn a_flood_from_one_face_keeps_the_pit_bounded_and_an_honest_consumer_its_goodput() {
    // Each goodput is the best of three runs: a fetch lasts a few tenths of a second, and a test
    // machine's other work can stall any one.
    let mut alone = 0f64;
    for run in 0..3 {
        let (fetched, _, _) = fetch_beside_flood(&format!("alone{run}"), false).await;
        alone = alone.max(goodput_bps(&fetched));
    }
    let mut flooded = 0f64;
    for run in 0..3 {
        let (fetched, report, flooder) = fetch_beside_flood(&format!("flooded{run}"), true).await;
        assert!(fetched.content.as_deref() == Some(&content()[..]), "the honest fetch completed");
        flooded = flooded.max(goodput_bps(&fetched));
        let flooder = report.faces[flooder.expect("the flooder's UDP face")].driver;
        let honest = report.faces.iter().find(|f| f.local_app && f.name.is_none()).expect("the consumer's face");
        // The bound held: a shed entry makes the room its successor takes.
        assert!(report.pit_entries <= CAPACITY, "{}", report.pit_entries);
        // The flood was refused once the flooder held its share, and gave up entries to the
        // honest consumer's Interests.
        assert!(flooder.pit_full > 0 && flooder.pit_shed > 0, "{flooder:?}");
        // The honest consumer lost nothing to a timeout. Every Nack it heard came from the bound:
        // an Interest of its own refused when it held its share, or an entry of its own shed.
        let s = &fetched.summary.stats;
        assert_eq!(s.timeouts, 0);
        assert_eq!(s.nacks, honest.driver.pit_full + honest.driver.pit_shed, "{:?}", honest.driver);
    }
    // Issue 25 item 7: at least 80 % of the goodput it has alone.
    assert!(flooded >= 0.8 * alone, "alone {:.1} Mbit/s, flooded {:.1} Mbit/s", alone / 1e6, flooded / 1e6);
}
