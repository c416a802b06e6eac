//! The forwarding log (`[trace] forwarding`, docs/protocols/forwarder.md "Forwarding log"): the
//! pipeline steps NFD's Forwarder logs, in order and at the instants derived by hand, on a chain
//! c - r - p with best-route; the Content Store hit of a second consumer; the cap; the node and
//! prefix filters; queue drops; the error for an unknown node.

use crate::common;
use common::{parse, run};
use ndnflow_sim::fwlog::LogLine;
use ndnflow_sim::Results;

/// c - r - p and c2 - r, 10 Mbps and 10 ms each way; r caches; c fetches /a/x (3 segments, one
/// at a time) from t = 0, c2 the same from 0.5 s, after c is done. `trace` is the `[trace]`
/// table's body.
fn chain(trace: &str) -> String {
    let link = |a: &str, b: &str| {
        format!("[[links]]\nbetween = [\"{a}\", \"{b}\"]\nbandwidth = \"10Mbps\"\ndelay = \"10ms\"\n")
    };
    format!(
        "[simulation]\nduration = \"1s\"\n[nodes]\nc = {{}}\nr = {{ cs = {{ capacity = 100 }} }}\np = {{}}\nc2 = {{}}\n\
         {}{}{}[[producers]]\nnode = \"p\"\nprefix = \"/a\"\n\
         [[consumers]]\nnode = \"c\"\nname = \"/a/x\"\nsegments = 3\ncc = {{ algorithm = \"fixed-window\", window = 1 }}\n\
         [[consumers]]\nnode = \"c2\"\nname = \"/a/x\"\nstart = \"0.5s\"\nsegments = 3\n\
         cc = {{ algorithm = \"fixed-window\", window = 1 }}\n[trace]\n{trace}\n",
        link("c", "r"),
        link("r", "p"),
        link("c2", "r"),
    )
}

/// (time in ns, node, event, in, out, name, detail) of every row.
fn rows(r: &Results) -> Vec<(u64, &str, &str, &str, &str, &str, &str)> {
    let f = &r.forwarding;
    f.row
        .iter()
        .map(|&k| {
            let l: &LogLine = &f.lines[k as usize];
            let ns = (f.time_s[k as usize] * 1e9).round() as u64;
            (
                ns,
                l.node.as_str(),
                l.event.as_str(),
                l.face_in.as_str(),
                l.face_out.as_str(),
                l.name.as_str(),
                l.detail.as_str(),
            )
        })
        .collect()
}

// The first Interest, /a/x/seg=0, is 23 bytes on the wire: Name 11 (07 09, then three 3-byte
// components "a", "x", segment 0), Nonce 6, InterestLifetime 4 (4000 ms), Interest header 2. It
// leaves c at 0 and reaches r after 23 x 8 / 10^7 s = 18.4 us and 10 ms: 10,018,400 ns. r sends
// it on to p at once, where it arrives at 20,036,800 ns; p answers at once with 1082 bytes of
// Data (Name 11, Content 1024 + 4, SignatureInfo 5, SignatureValue 34, Data header 4), which
// reach r after 1082 x 8 / 10^7 s = 865.6 us and 10 ms: 30,902,400 ns.
const INTEREST_AT_R: u64 = 10_018_400;
const DATA_AT_R: u64 = 30_902_400;

#[test]
fn first_interest_and_its_data_take_nfds_pipeline_steps_at_r() {
    let r = run(&chain("forwarding = { nodes = [\"r\"] }"));
    let got = rows(&r);
    let seg0 = "/a/x/seg=0";
    let why = "strategy=best-route forward to 1: new Interest: lowest-cost eligible next hop";
    let want = [
        (INTEREST_AT_R, "r", "onIncomingInterest", "c", "", seg0, ""),
        (INTEREST_AT_R, "r", "onContentStoreMiss", "c", "", seg0, ""),
        (INTEREST_AT_R, "r", "afterReceiveInterest", "c", "", seg0, why),
        (INTEREST_AT_R, "r", "onOutgoingInterest", "", "p", seg0, ""),
        (DATA_AT_R, "r", "onIncomingData", "p", "", seg0, ""),
        (DATA_AT_R, "r", "onInterestFinalize", "", "", seg0, "satisfied by data"),
        (DATA_AT_R, "r", "onOutgoingData", "", "c", seg0, ""),
    ];
    assert_eq!(got[..7], want);
    // The nonce c's forwarder gave the Interest is the one r logs in and out.
    let f = &r.forwarding;
    assert!(!f.lines[0].nonce.is_empty());
    assert_eq!(f.lines[0].nonce, f.lines[3].nonce);
}

#[test]
fn a_second_consumer_is_answered_from_r_s_content_store() {
    let r = run(&chain("forwarding = { nodes = [\"r\"] }"));
    let got = rows(&r);
    // c2's first Interest reaches r 10,018,400 ns after its start at 0.5 s (the same 23 bytes
    // over the same kind of link); r holds seg=0 since c fetched it.
    let at = 500_000_000 + INTEREST_AT_R;
    let from_c2: Vec<_> = got.iter().filter(|g| g.0 == at).map(|g| (g.2, g.3, g.4, g.6)).collect();
    assert_eq!(
        from_c2,
        [
            ("onIncomingInterest", "c2", "", ""),
            ("onContentStoreHit", "c2", "", ""),
            ("onOutgoingData", "", "c2", ""),
            ("onInterestFinalize", "", "", "satisfied by content store"),
        ]
    );
}

#[test]
fn the_cap_stops_recording_and_the_summary_counts_what_it_dropped() {
    // At r: 7 records per segment of c (3 segments: 21), 4 per segment of c2 (all CS hits: 12).
    let all = run(&chain("forwarding = { nodes = [\"r\"] }"));
    let log = all.summary.simulation.forwarding_log.expect("the summary has the log's size");
    assert_eq!((log.records, log.dropped), (33, 0));
    let capped = run(&chain("forwarding = { nodes = [\"r\"], max_records = 5 }"));
    let log = capped.summary.simulation.forwarding_log.unwrap();
    assert_eq!((log.records, log.dropped, log.max_records), (5, 28, 5));
    assert_eq!(rows(&capped), rows(&all)[..5]);
}

#[test]
fn nodes_and_prefix_filter_the_records() {
    // Only p: per segment of c, its 7 steps, the producer being its application (c2's Interests
    // end at r's Content Store).
    let r = run(&chain("forwarding = { nodes = [\"p\"] }"));
    let got = rows(&r);
    assert_eq!(got.len(), 21);
    assert!(got.iter().all(|g| g.1 == "p"));
    assert_eq!(got[3].2, "onOutgoingInterest");
    assert_eq!(got[3].4, "app:producer");
    // Every node, one segment: c's, r's and p's 7 steps for c's request, c2's 7 and r's 4 for
    // c2's: 32 records, all of seg=1.
    let r = run(&chain("forwarding = { prefix = \"/a/x/seg=1\" }"));
    let got = rows(&r);
    assert_eq!(got.len(), 32);
    assert!(got.iter().all(|g| g.5 == "/a/x/seg=1"));
    assert_eq!(got[0].1, "c");
    assert_eq!(got[0].3, "app:c");
}

#[test]
fn without_the_key_nothing_is_recorded() {
    let r = run(&chain("").replace("[trace]\n", ""));
    assert!(r.forwarding.row.is_empty());
    assert_eq!(r.summary.simulation.forwarding_log, None);
}

#[test]
fn a_full_queue_logs_its_drops_at_the_sending_node() {
    // With a window of 5, c sends its 3 Interests at t = 0 onto c -> r, whose queue holds 1
    // packet: the first goes on the wire at once, the second waits, the third is dropped.
    let text = chain("forwarding = { nodes = [\"c\"] }").replacen("window = 1", "window = 5", 1).replacen(
        "delay = \"10ms\"\n",
        "delay = \"10ms\"\nqueue = { discipline = \"droptail\", packets = 1 }\n",
        1,
    );
    let r = run(&text);
    let drops: Vec<_> = rows(&r).into_iter().filter(|g| g.2 == "queueDrop").collect();
    let names: Vec<&str> = drops.iter().map(|g| g.5).collect();
    assert_eq!(names, ["/a/x/seg=2"]);
    for d in &drops {
        assert_eq!((d.0, d.1, d.4), (0, "c", "r"));
        assert_eq!(d.6, "packet=Interest cause=\"queue full\" sojourn_ms=0.000 queued=1");
    }
}

#[test]
fn an_unknown_node_is_an_error_naming_it() {
    let err = parse(&chain("forwarding = { nodes = [\"r\", \"zz\"] }")).unwrap_err().to_string();
    assert!(err.contains("trace.forwarding.nodes[1]"), "{err}");
    assert!(err.contains("unknown node \"zz\""), "{err}");
    let err = parse(&chain("forwarding = { nodes = [\"r\"], depth = 3 }")).unwrap_err().to_string();
    assert!(err.contains("depth"), "{err}");
    let err = parse(&chain("interest = true")).unwrap_err().to_string();
    assert!(err.contains("interest"), "{err}");
}

#[test]
fn the_cap_counts_toward_the_memory_limit() {
    // 10^6 records at 1024 bytes each (memory::FORWARDING_RECORD_BYTES) are about 977 MiB, above
    // a 512 MiB limit; the other parts of this tiny run are a few kilobytes.
    let text = chain("forwarding = { max_records = 1000000 }")
        .replace("duration = \"1s\"\n", "duration = \"1s\"\nmemory_limit = \"512MiB\"\n");
    let err = parse(&text).unwrap_err().to_string();
    assert!(err.contains("trace.forwarding.max_records"), "{err}");
    assert!(parse(&text.replace("1000000", "100000")).is_ok());
}
