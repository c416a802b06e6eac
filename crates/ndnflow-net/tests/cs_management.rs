//! The Content Store's management on loopback (NFD's CsManager): cs/info, cs/config and cs/erase,
//! answered field by field.

use crate::common;

use common::mgmt::*;
use common::*;
use ndnflow_core::Name;
use ndnflow_net::mgmt::control::ControlParameters;
use ndnflow_net::Daemon;

/// The producer on `producer.sock` and a consumer on `app.sock`, once the daemon has both faces.
async fn producer_and_consumer(dir: &std::path::Path, status: &ndnflow_net::StatusHandle) -> (App, App) {
    let producer = App::connect(&dir.join("producer.sock")).await;
    let consumer = App::connect(&dir.join("app.sock")).await;
    wait_until(status, |r| r.faces.len() == 2).await;
    (producer, consumer)
}

/// `consumer` asks for `name`, the Interest reaches `producer`, which answers "cached": the
/// Data goes back to the consumer and into the Content Store.
async fn fetch_from_producer(consumer: &mut App, producer: &mut App, name: &str, nonce: u32) {
    consumer.send(&interest(name, nonce)).await;
    assert_eq!(producer.recv().await.packet.name().to_string(), name);
    producer.send(&data(name, b"cached")).await;
    consumer.recv().await;
}

/// cs/info after one miss and one hit: the consumer asks /p/x (a miss: the store is empty; the
/// producer answers, the Data is cached), then /p/x again with another nonce (a hit). CsInfo:
/// Capacity 65,536 (the daemon's default, 00 01 00 00), Flags 3 (admit and serve), NCsEntries 1,
/// NHits 1, NMisses 1.
#[tokio::test]
async fn cs_info_reports_the_content_stores_capacity_entries_hits_and_misses() {
    let dir = socket_dir("csinfo");
    let daemon = Daemon::bind(producer_daemon(&dir)).await.unwrap();
    let status = daemon.status();
    run_with(daemon, async {
        let (mut producer, mut consumer) = producer_and_consumer(&dir, &status).await;
        fetch_from_producer(&mut consumer, &mut producer, "/p/x", 1).await;
        consumer.send(&interest("/p/x", 2)).await;
        assert_eq!(name_and_content(&consumer.recv().await), ("/p/x".into(), b"cached".to_vec()));
        let (content, last) = dataset(&mut consumer, "cs", "info", 3).await;
        assert_eq!(last, Some(0));
        let rec = records(&content);
        assert_eq!(rec.len(), 1, "one CsInfo");
        let expected: Vec<(u64, Vec<u8>)> =
            vec![(0x83, vec![0, 1, 0, 0]), (0x6c, vec![3]), (0x87, vec![1]), (0x81, vec![1]), (0x82, vec![1])];
        assert_eq!(rec[0], expected);
    })
    .await;
}

/// cs/erase and cs/config. Three Data are cached (/p/x, /p/y, /p/z); erasing /p/y removes 1;
/// erasing under /p with Count 1 removes 1 more (one of /p/x and /p/z); cs/config with Capacity
/// 10, Flags 0 and Mask 2 (serving off) answers Capacity 10 and Flags 1 (admit on, serve off);
/// the Data left is then not served: the Interest goes to the producer.
#[tokio::test]
async fn cs_erase_and_cs_config_change_the_content_store() {
    let dir = socket_dir("cscmd");
    let daemon = Daemon::bind(producer_daemon(&dir)).await.unwrap();
    let status = daemon.status();
    run_with(daemon, async {
        let (mut producer, mut consumer) = producer_and_consumer(&dir, &status).await;
        for (nonce, name) in [(1, "/p/x"), (2, "/p/y"), (3, "/p/z")] {
            fetch_from_producer(&mut consumer, &mut producer, name, nonce).await;
        }
        let erase = |name: &str, count: Option<u64>| ControlParameters {
            name: Some(Name::parse(name).unwrap()),
            count,
            ..Default::default()
        };
        let r = command(&mut consumer, "cs", "erase", erase("/p/y", None), 4).await;
        let body = r.body.expect("a body");
        assert_eq!((r.status_code, body.count, body.capacity), (200, Some(1), None));
        assert_eq!(body.name, Some(Name::parse("/p/y").unwrap()));
        let r = command(&mut consumer, "cs", "erase", erase("/p", Some(1)), 5).await;
        assert_eq!((r.status_code, r.body.and_then(|b| b.count)), (200, Some(1)));
        assert_eq!(command(&mut consumer, "cs", "erase", erase("/p", Some(0)), 6).await.status_code, 400);
        assert_eq!(wait_until(&status, |_| true).await.forwarder.cs_hits, 0);
        let serve_off = ControlParameters { capacity: Some(10), flags: Some(0), mask: Some(2), ..Default::default() };
        let r = command(&mut consumer, "cs", "config", serve_off, 7).await;
        let body = r.body.expect("a body");
        assert_eq!((r.status_code, body.capacity, body.flags), (200, Some(10), Some(1)));
        let no_mask = ControlParameters { flags: Some(0), ..Default::default() };
        assert_eq!(command(&mut consumer, "cs", "config", no_mask, 8).await.status_code, 400);
        // One of /p/x and /p/z is still stored, but not served: both go to the producer.
        for (nonce, name) in [(9, "/p/x"), (10, "/p/z")] {
            consumer.send(&interest(name, nonce)).await;
            assert_eq!(producer.recv().await.packet.name().to_string(), name);
        }
        let (content, _) = dataset(&mut consumer, "cs", "info", 11).await;
        let rec = records(&content);
        assert_eq!(&rec[0][..3], &[(0x83, vec![10]), (0x6c, vec![1]), (0x87, vec![1])]);
    })
    .await;
}
