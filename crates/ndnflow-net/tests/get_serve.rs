//! `ndnflow serve` and `ndnflow get` through a daemon on loopback, in one runtime: `serve`
//! registers its prefix with rib/register on the applications' socket, or (`Route::Configured`)
//! connects to a producer's socket the configuration routes /p to; `get` fetches on the
//! applications' socket.

use crate::common;

use std::path::PathBuf;
use std::time::Duration;

use common::{producer_daemon, producer_daemon_with, run_with, serve_while_fetching, socket_dir, wait_until};
use ndnflow_core::packet::{Data, Frame, NetPacket};
use ndnflow_core::Name;
use ndnflow_net::app::client::Client;
use ndnflow_net::app::get::{consumer_config, fetch, Fetched, GetOptions};
use ndnflow_net::app::serve::{register, Segments, ServeReport, REGISTER_TIMEOUT};
use ndnflow_net::mgmt::control::ControlResponse;
use ndnflow_net::sign::verify_digest_sha256;
use ndnflow_net::Daemon;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// How the producer's prefix reaches the FIB.
#[derive(Clone, Copy, PartialEq)]
enum Route {
    /// `serve` registers it on the applications' socket.
    Registered,
    /// The configuration routes /p to a producer's socket, where `serve` connects.
    Configured,
}

fn options(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
}

/// 100,000 bytes that differ from segment to segment (a byte per position mod 251, a prime, so
/// no 8000-byte segment repeats another).
fn file_content() -> Vec<u8> {
    (0..100_000u32).map(|i| (i % 251) as u8).collect()
}

/// Runs the daemon, `serve` (its prefix routed as `route` says) and `get` with `options` on the
/// applications' socket; what `get` fetched and what `serve` counted.
async fn serve_and_get(test: &str, route: Route, pairs: &[(&str, &str)]) -> (Fetched, ServeReport) {
    serve_and_get_with(test, "", route, pairs).await
}

/// `serve_and_get` with `top` at the head of the daemon's configuration (`[forwarder] ...`).
async fn serve_and_get_with(test: &str, top: &str, route: Route, pairs: &[(&str, &str)]) -> (Fetched, ServeReport) {
    let dir = socket_dir(test);
    let daemon = Daemon::bind(producer_daemon_with(&dir, top)).await.unwrap();
    let status = daemon.status();
    let segments = Segments::new(&Name::parse("/p/file").unwrap(), &file_content(), 8000, None).unwrap();
    let apps = async {
        let mut report = ServeReport::default();
        let mut producer = match route {
            Route::Registered => {
                let mut producer = Client::connect(&dir.join("app.sock")).await.unwrap();
                let route = register(&mut producer, &segments, REGISTER_TIMEOUT, &mut report).await.unwrap();
                assert_eq!(route.name, Some(Name::parse("/p/file").unwrap()));
                producer
            }
            Route::Configured => {
                let producer = Client::connect(&dir.join("producer.sock")).await.unwrap();
                // Until the daemon has accepted the producer (and routed /p to it), a fetch would
                // find no route.
                wait_until(&status, |r| r.faces.iter().any(|f| f.name.as_deref() == Some("up"))).await;
                producer
            }
        };
        let consumer = consumer_config("/p/file", &options(pairs)).unwrap();
        let get = GetOptions::new(consumer, dir.join("app.sock"), 7);
        let fetched = serve_while_fetching(&mut producer, &segments, &mut report, &get).await;
        (fetched, report)
    };
    let (_, (fetched, served)) = run_with(daemon, apps).await;
    // The version was discovered with one Interest (RDR metadata), then the segments were asked.
    let discovered = fetched.summary.discovered.as_ref().expect("a version discovery");
    assert_eq!((&discovered.versioned, discovered.interests), (segments.versioned_prefix(), 1));
    let sent = fetched.summary.stats.interests_sent + 1;
    assert_eq!(served.interests, sent, "every Interest reached the producer");
    (fetched, served)
}

#[tokio::test(flavor = "current_thread")]
async fn get_fetches_what_serve_publishes_byte_for_byte() {
    let (fetched, served) = serve_and_get("aimd", Route::Registered, &[("cc", "aimd")]).await;
    // 13 segments and the metadata of the version discovery.
    assert_eq!((served.data_sent, served.nacks_sent), (14, 0));
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
        let (fetched, _) = serve_and_get(test, Route::Registered, &options).await;
        assert_eq!(fetched.content.as_deref(), Some(&file_content()[..]), "{test}");
    }
}

#[tokio::test(flavor = "current_thread")]
async fn a_ptp_consumer_finds_its_path_through_a_ptp_daemon() {
    // PTP's consumer probes first (§3-A) and sends on a path only once a probing Data has come
    // back with the routers' tags; `serve` must echo the probe flag, as the simulator's producer
    // does. Without the echo no path is found and the 13 segments go at the probe rate, 10 a
    // second: 1.2 s at least. With it, loopback takes milliseconds; 1 s is a wide margin.
    let (fetched, served) =
        serve_and_get_with("ptp", "[forwarder]\nptp = true\n", Route::Registered, &[("cc", "{ algorithm = \"ptp\" }")])
            .await;
    assert_eq!(fetched.content.as_deref(), Some(&file_content()[..]));
    assert_eq!(fetched.summary.controller, "ptp");
    assert!(served.data_sent >= 13);
    assert!(fetched.summary.elapsed < ndnflow_core::Time::from_secs(1), "{:?}", fetched.summary.elapsed);
    // One daemon, one next hop: one path, in summary.json as in a simulated run. The probe
    // fetched segment 0, so the path carried the other 12; its rows, one per bin, add up to them.
    let paths = fetched.summary.paths.as_deref().expect("a PTP consumer's paths");
    assert_eq!(paths.len(), 1);
    assert_eq!((paths[0].state, paths[0].data), ("in-use", 12));
    assert_eq!(fetched.traces.path_names[0].route, paths[0].tags[0].to_string());
    assert_eq!(fetched.traces.paths.data.iter().sum::<u64>(), 12);
}

#[tokio::test(flavor = "current_thread")]
async fn segments_limits_the_fetch_and_the_object_is_then_those_segments() {
    // segments = 2: the consumer asks for seg 0 and 1 only, 16,000 bytes.
    let (fetched, _) = serve_and_get("two", Route::Configured, &[("segments", "2")]).await;
    assert_eq!(fetched.summary.segments, Some(2));
    assert_eq!(fetched.content.as_deref(), Some(&file_content()[..16_000]));
}

#[test]
fn every_segment_carries_final_block_id_freshness_and_a_digest_that_verifies() {
    let prefix = Name::parse("/p/file").unwrap();
    let segments = Segments::new(&prefix, &file_content(), 8000, Some(ndnflow_core::Time::from_secs(10))).unwrap();
    assert_eq!(segments.len(), 13);
    // PREFIX/v=<now in ms>: a version of this century (1.7e12 ms is November 2023).
    let version = segments.versioned_prefix().last().and_then(|c| c.as_version()).expect("a version");
    assert!(segments.versioned_prefix().len() == 3 && version > 1_700_000_000_000, "{version}");
    for n in 0..13 {
        let wire = segments.packet(n).unwrap();
        assert!(verify_digest_sha256(wire), "segment {n}");
        let Ok(Frame { packet: NetPacket::Data(d), .. }) = Frame::decode(wire) else { panic!("segment {n} is a Data") };
        let d: &Data = &d;
        assert_eq!(d.name, segments.versioned_prefix().append_segment(n as u64));
        assert_eq!(d.final_segment(), Some(12));
        assert_eq!(d.freshness_period, Some(ndnflow_core::Time::from_secs(10)));
        assert_eq!(d.content.len(), if n < 12 { 8000 } else { 4000 });
    }
    // An empty file is one empty segment, FinalBlockId 0 (ndnputchunks publishes one too).
    let empty = Segments::new(&prefix, &[], 8000, None).unwrap();
    assert_eq!(empty.len(), 1);
}

#[test]
fn a_served_segment_carries_the_sha256_of_its_signed_portion_as_the_spec_defines_it() {
    // A prefix that ends in a version is published under that version.
    let segments =
        Segments::new(&Name::parse("/p/v=1").unwrap(), b"hi", 8000, Some(ndnflow_core::Time::from_secs(10))).unwrap();
    let wire = segments.packet(0).unwrap();
    // The signed portion of Data /p/v=1/seg=0, written by hand from NDN packet format v0.3: Name,
    // MetaInfo, Content and SignatureInfo (31 bytes), then SignatureValue (17 20 + 32 bytes).
    #[rustfmt::skip]
    let signed: [u8; 31] = [
        0x07, 0x09, 0x08, 0x01, b'p', 0x36, 0x01, 0x01, 0x32, 0x01, 0x00, // Name /p/v=1/seg=0
        0x14, 0x09, 0x19, 0x02, 0x27, 0x10, 0x1A, 0x03, 0x32, 0x01, 0x00, // FreshnessPeriod 10000 ms, FinalBlockId seg=0
        0x15, 0x02, b'h', b'i', // Content
        0x16, 0x03, 0x1B, 0x01, 0x00, // SignatureInfo: SignatureType 0, DigestSha256
    ];
    // Data header 06 41: 31 + 34 = 65 bytes of value.
    assert_eq!(&wire[..2], &[0x06, 65]);
    assert_eq!(&wire[2..33], &signed[..]);
    assert_eq!(&wire[33..35], &[0x17, 0x20]);
    // sha256 of those 31 bytes, computed apart with Python's hashlib.
    let digest = "f2afd6bbd88564f109c700e98fbbd43962a7ca5c154ce4778ca974e2912bd60c";
    assert_eq!(wire[35..].iter().map(|b| format!("{b:02x}")).collect::<String>(), digest);
}

#[test]
fn serve_answers_as_ndnputchunks_does() {
    let segments = Segments::new(&Name::parse("/p/file/v=5").unwrap(), b"abc", 2, None).unwrap(); // "ab", "c"
    assert_eq!(segments.prefix(), &Name::parse("/p/file").unwrap(), "the prefix registered");
    let name = |s: &str| Name::parse(s).unwrap();
    assert!(segments.answer(&name("/p/file/v=5/seg=1")).is_some());
    assert!(segments.answer(&name("/p/file/v=5/seg=2")).is_none(), "past the last segment");
    assert!(segments.answer(&name("/p/file/seg=1")).is_none(), "no version");
    assert!(segments.answer(&name("/p/file/v=6/seg=1")).is_none(), "another version");
    assert!(segments.answer(&name("/p/file/v=5/seg=0/x")).is_none(), "a longer name");
    assert!(segments.answer(&name("/p/other/v=5/seg=0")).is_none());
    let ask = |uri: &str, can_be_prefix: bool| {
        let mut i = ndnflow_core::packet::Interest::new(name(uri), 1, ndnflow_core::Time::from_secs(4));
        i.can_be_prefix = can_be_prefix;
        segments.answer_interest(&i).map(|wire| Data::decode(&wire).unwrap())
    };
    // Segment 0 answers what its Data satisfies: PREFIX or PREFIX/v=5 with CanBePrefix.
    let first = name("/p/file/v=5/seg=0");
    assert_eq!(ask("/p/file", true).map(|d| d.name), Some(first.clone()));
    assert_eq!(ask("/p/file/v=5", true).map(|d| d.name), Some(first));
    assert_eq!(ask("/p/file", false), None);
    assert_eq!(ask("/p/file/v=6", true), None);
    // A discovery: metadata named after the Interest, a version and seg=0, naming /p/file/v=5;
    // without CanBePrefix, none (a Nack, as ndnputchunks answers).
    let metadata = ask("/p/file/32=metadata", true).expect("metadata");
    assert!(ndnflow_net::app::rdr::is_metadata_name(&metadata.name), "{}", metadata.name);
    assert_eq!(ndnflow_net::app::rdr::versioned_name(&metadata), Ok(name("/p/file/v=5")));
    assert!(verify_digest_sha256(&metadata.encode()));
    assert_eq!(ask("/p/file/32=metadata", false), None);
    assert_eq!(ask("/p/file/32=metadata/v=1", true), None, "a metadata version is not republished");
}

#[test]
fn with_a_key_every_segment_carries_an_ecdsa_signature_and_the_certificate_is_answered() {
    use ndnflow_core::packet::Interest;
    use ndnflow_net::ecdsa::{verify_ecdsa, EcdsaKey, SIGNATURE_SHA256_WITH_ECDSA};
    use p256::pkcs8::{EncodePrivateKey, LineEnding};
    let pem = p256::ecdsa::SigningKey::from_bytes(&[7u8; 32].into()).unwrap().to_pkcs8_pem(LineEnding::LF).unwrap();
    let prefix = Name::parse("/p/file").unwrap();
    let key = EcdsaKey::from_pem(&pem, &prefix, None).unwrap();
    let segments = Segments::signed(&prefix, b"abc", 2, None, Some(&key)).unwrap(); // "ab", "c"
    let spki = key.public_key_der();
    for n in 0..2 {
        let wire = segments.packet(n).unwrap();
        assert!(verify_ecdsa(wire, &spki), "segment {n}");
        assert_eq!(Data::decode(wire).unwrap().signature.sig_type, SIGNATURE_SHA256_WITH_ECDSA);
        assert!(!verify_digest_sha256(wire));
    }
    // The certificate, /p/file/KEY/<id>/self/v=<time>, answers an Interest for the key's name
    // with CanBePrefix (a validator following the KeyLocator), and for its own name; not the key's
    // name without CanBePrefix, nor the prefix itself without CanBePrefix (no segment: a Nack).
    let (cert_name, cert) = segments.certificate().expect("the key's name is under the prefix");
    assert!(key.name().is_prefix_of(cert_name) && verify_ecdsa(cert, &spki));
    let ask = |name: &Name, can_be_prefix: bool| {
        let mut i = Interest::new(name.clone(), 1, ndnflow_core::Time::from_secs(4));
        i.can_be_prefix = can_be_prefix;
        segments.answer_interest(&i).map(|wire| wire.to_vec())
    };
    assert_eq!(ask(key.name(), true).as_deref(), Some(cert));
    assert_eq!(ask(cert_name, false).as_deref(), Some(cert));
    assert_eq!(ask(key.name(), false), None);
    assert_eq!(ask(&prefix, false), None);
    assert_eq!(ask(&segments.versioned_prefix().append_segment(1), false).as_deref(), segments.packet(1));
    // The metadata a discovery gets is signed with the key too.
    let metadata = ask(&ndnflow_net::app::rdr::discovery_name(&prefix), true).expect("metadata");
    assert!(verify_ecdsa(&metadata, &spki));
    // A key named outside the prefix signs, and its certificate is not served here.
    let elsewhere = EcdsaKey::from_pem(&pem, &prefix, Some(Name::parse("/lab/KEY/k1").unwrap())).unwrap();
    assert!(Segments::signed(&prefix, b"abc", 2, None, Some(&elsewhere)).unwrap().certificate().is_none());
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
}

/// A stand-in forwarder on `path` that answers the first Interest it reads with `answer(its
/// name)`, if any, then keeps the connection open.
async fn fake_forwarder(path: PathBuf, answer: fn(Name) -> Option<Vec<u8>>) {
    let listener = tokio::net::UnixListener::bind(&path).unwrap();
    let (mut stream, _) = listener.accept().await.unwrap();
    let mut framer = ndnflow_net::face::unix::TlvFramer::default();
    let mut buf = [0u8; 9000];
    let interest = loop {
        if let Some(e) = framer.next_element().unwrap() {
            break e;
        }
        let n = stream.read(&mut buf).await.unwrap();
        framer.push(&buf[..n]);
    };
    let Ok(Frame { packet: NetPacket::Interest(i), .. }) = Frame::decode(&interest) else { panic!("an Interest") };
    if let Some(reply) = answer(i.name.clone()) {
        stream.write_all(&reply).await.unwrap();
    }
    std::future::pending::<()>().await;
}

async fn register_with(test: &str, answer: fn(Name) -> Option<Vec<u8>>, wait: Duration) -> String {
    let dir = socket_dir(test);
    let path = dir.join("fake.sock");
    let segments = Segments::new(&Name::parse("/p").unwrap(), b"x", 10, None).unwrap();
    let forwarder = fake_forwarder(path.clone(), answer);
    let app = async {
        while !path.exists() {
            tokio::task::yield_now().await;
        }
        let mut client = Client::connect(&path).await.unwrap();
        register(&mut client, &segments, wait, &mut ServeReport::default()).await.expect_err("refused")
    };
    let both = async {
        tokio::select! {
            e = app => e,
            _ = forwarder => unreachable!("the stand-in never ends"),
        }
    };
    tokio::time::timeout(common::LIMIT, both).await.expect("the test hung").to_string()
}

#[tokio::test(flavor = "current_thread")]
async fn a_refused_registration_is_an_error_with_the_status() {
    let refuse = |name: Name| {
        let content = ControlResponse::error(403, "not authorized").encode();
        Some(Data::new(name, content.into()).encode())
    };
    let e = register_with("refused", refuse, REGISTER_TIMEOUT).await;
    assert!(e.starts_with("rib/register /p at ") && e.ends_with(": refused, 403 not authorized"), "{e}");
}

#[tokio::test(flavor = "current_thread")]
async fn a_forwarder_that_does_not_answer_the_registration_is_an_error() {
    let e = register_with("silent", |_| None, Duration::from_millis(100)).await;
    assert!(e.ends_with("no answer in 0.1 s (a forwarder without NFD's management?)"), "{e}");
}

#[tokio::test(flavor = "current_thread")]
async fn a_name_nobody_serves_fails_once_a_segment_is_given_up() {
    let dir = socket_dir("nobody");
    let daemon = Daemon::bind(producer_daemon(&dir)).await.unwrap();
    // No route for /nothing: each Interest is Nacked (NoRoute) at once, and waits for its timer
    // (100 ms) before it is sent again; after one retransmission segment 0 is given up.
    // Without version discovery (ndncatchunks' -D), the consumer itself meets the Nacks.
    let pairs = [("max_retries", "1"), ("rto", "{ initial = \"100ms\", min = \"100ms\" }")];
    let mut get = GetOptions::new(consumer_config("/nothing", &options(&pairs)).unwrap(), dir.join("app.sock"), 1);
    get.discover = false;
    let (_, fetched) = run_with(daemon, async { fetch(&get, std::future::pending()).await.unwrap() }).await;
    assert!(fetched.content.is_none());
    assert_eq!(fetched.summary.stats.abandoned, 1);
    assert_eq!(
        fetched.summary.incomplete.as_deref(),
        Some("gave up on 1 segment(s) after max_retries retransmissions")
    );
}

#[tokio::test(flavor = "current_thread")]
async fn a_name_nobody_serves_fails_its_version_discovery_with_the_nack() {
    let dir = socket_dir("nobody-rdr");
    let daemon = Daemon::bind(producer_daemon(&dir)).await.unwrap();
    // The discovery Interest is Nacked (NoRoute) at once: ndncatchunks' DataFetcher retries only
    // Duplicate and Congestion Nacks, so the fetch ends there, before any segment is asked.
    let get = GetOptions::new(consumer_config("/nothing", &[]).unwrap(), dir.join("app.sock"), 1);
    let (_, result) = run_with(daemon, async { fetch(&get, std::future::pending()).await }).await;
    let e = result.err().expect("no version to discover").to_string();
    assert_eq!(e, "version discovery of /nothing: Nack (no-route) for /nothing/32=metadata");
}

#[tokio::test(flavor = "current_thread")]
async fn a_producer_without_rdr_metadata_fails_the_discovery_with_the_reason() {
    // A producer that answers the discovery with a plain Data named /p/32=metadata (no version,
    // no segment: not RDR metadata).
    let dir = socket_dir("no-rdr");
    let path = dir.join("fake.sock");
    let forwarder = fake_forwarder(path.clone(), |name| Some(Data::new(name, b"x".to_vec().into()).encode()));
    let get = GetOptions::new(consumer_config("/p", &[]).unwrap(), path.clone(), 1);
    let app = async {
        while !path.exists() {
            tokio::task::yield_now().await;
        }
        fetch(&get, std::future::pending()).await.err().expect("no metadata")
    };
    let e = tokio::time::timeout(common::LIMIT, async {
        tokio::select! {
            e = app => e,
            _ = forwarder => unreachable!("the stand-in never ends"),
        }
    })
    .await
    .expect("the test hung");
    let want = "version discovery of /p: /p/32=metadata is not a metadata name (NAME/32=metadata/v=N/seg=N)";
    assert_eq!(e.to_string(), want);
}

/// The P-256 private key of 32 bytes of `seed`, in PEM.
fn key_pem(seed: u8) -> String {
    use p256::pkcs8::{EncodePrivateKey, LineEnding};
    p256::ecdsa::SigningKey::from_bytes(&[seed; 32].into()).unwrap().to_pkcs8_pem(LineEnding::LF).unwrap().to_string()
}

/// `serve` signing /p/file/v=1 with the key of seed 7 (ECDSA), `get` asking for `name` and
/// checking with `verify`: what `get` fetched, or its error.
async fn fetch_signed(test: &str, name: &str, verify: &str) -> Result<Fetched, String> {
    use ndnflow_net::app::verify::Verifier;
    use ndnflow_net::ecdsa::EcdsaKey;
    let prefix = Name::parse("/p/file/v=1").unwrap();
    let key = EcdsaKey::from_pem(&key_pem(7), &Name::parse("/p/file").unwrap(), None).unwrap();
    let segments = Segments::signed(&prefix, &file_content(), 8000, None, Some(&key)).unwrap();
    let dir = socket_dir(test);
    let daemon = Daemon::bind(producer_daemon(&dir)).await.unwrap();
    let verifier = match verify {
        "digest" => Verifier::Digest,
        seed => Verifier::from_pem(&key_pem(seed.parse().unwrap()), &format!("key{seed}.pem")).unwrap(),
    };
    let apps = async {
        let mut report = ServeReport::default();
        let mut producer = Client::connect(&dir.join("app.sock")).await.unwrap();
        register(&mut producer, &segments, REGISTER_TIMEOUT, &mut report).await.unwrap();
        let mut get = GetOptions::new(consumer_config(name, &[]).unwrap(), dir.join("app.sock"), 7);
        get.verify = Some(verifier);
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let serving = ndnflow_net::app::serve::serve(&mut producer, &segments, &mut report, async {
            let _ = stopped.await;
        });
        let fetching = async {
            let f = fetch(&get, std::future::pending()).await;
            let _ = stop.send(());
            f
        };
        let (served, fetched) = tokio::join!(serving, fetching);
        served.unwrap();
        fetched.map_err(|e| e.to_string())
    };
    run_with(daemon, apps).await.1
}

#[tokio::test(flavor = "current_thread")]
async fn verify_takes_what_the_key_signed_and_stops_at_what_it_did_not() {
    // The signing key itself: the metadata and the 13 segments verify.
    let fetched = fetch_signed("verify-ok", "/p/file", "7").await.unwrap();
    assert_eq!(fetched.content.as_deref(), Some(&file_content()[..]));
    assert_eq!(fetched.summary.verified, Some(("ECDSA (key7.pem)".to_string(), 13)));
    assert!(
        fetched.summary.text().ends_with("\nSignatures verified: 13 (ECDSA (key7.pem))"),
        "{}",
        fetched.summary.text()
    );
    // Another key: the fetch does not get past the metadata.
    let e = fetch_signed("verify-other", "/p/file", "8").await.err().expect("refused metadata");
    assert!(e.starts_with("version discovery of /p/file: metadata /p/file/32=metadata/v="), "{e}");
    assert!(e.ends_with("/seg=0: its signature (SignatureSha256WithEcdsa) does not verify as ECDSA (key8.pem)"), "{e}");
    // A digest asked of ECDSA-signed segments (the version given, so no metadata): the first
    // segment to come ends the fetch, which keeps its summary and says why.
    let fetched = fetch_signed("verify-digest", "/p/file/v=1", "digest").await.unwrap();
    assert!(fetched.content.is_none());
    assert_eq!(fetched.summary.verified, Some(("DigestSha256".to_string(), 0)));
    let why = fetched.summary.incomplete.expect("incomplete");
    assert!(why.starts_with("/p/file/v=1/seg="), "{why}");
    assert!(why.ends_with(": its signature (SignatureSha256WithEcdsa) does not verify as DigestSha256"), "{why}");
}
