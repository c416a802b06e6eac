//! The per-segment trace (`[trace] interests = true`, ndnSIM's AppDelayTracer) and the RTT
//! percentiles of the summary, against delays derived by hand.
//!
//! One link c - p, 10 Mbit/s and 10 ms each way, a fixed window of 1, 1024-byte payloads.
//! Wire sizes (docs/wire-format.md), segments N < 256 taking one byte: Interest /p/seg=N is Name
//! (2 + 3 + 3) + Nonce 6 + InterestLifetime 4 = 18, plus 2 = 20 B; Data is Name 8 + Content
//! 1028 + SignatureInfo 5 + SignatureValue 34 = 1075, plus type and 3-byte length = 1079 B.
//! Transmission: 20 x 8 / 10^7 s = 16,000 ns and 1079 x 8 / 10^7 s = 863,200 ns. With one
//! Interest out at a time nothing queues, so every round trip is
//! 2 x 10 ms + 16,000 ns + 863,200 ns = 20,879,200 ns, and segment k leaves at k x 20,879,200 ns.

use crate::common;

use common::{one_link_c_p, run};

const ROUND_TRIP_NS: u64 = 20_000_000 + 16_000 + 863_200;

fn one_link(segments: u32, extra: &str) -> String {
    let consumer = format!("segments = {segments}\ncc = {{ algorithm = \"fixed-window\", window = 1 }}\n{extra}");
    one_link_c_p("5s", &consumer)
}

/// c -> p down from 60 to 70 ms.
const DOWN_60_TO_70_MS: &str = r#"
[[events]]
at = "60ms"
link = ["c", "p"]
direction = "forward"
down = true
[[events]]
at = "70ms"
link = ["c", "p"]
direction = "forward"
up = true
"#;

fn secs(ns: u64) -> f64 {
    ns as f64 / 1e9
}

#[test]
fn every_row_of_a_window_of_one_takes_two_delays_and_two_transmissions() {
    let r = run(&one_link(20, ""));
    let t = &r.interests;
    assert_eq!(t.segment, (0..20).collect::<Vec<u64>>(), "one row per segment, in arrival order");
    for k in 0..20 {
        let sent = secs(k * ROUND_TRIP_NS);
        assert_eq!(t.first_sent_s[k as usize], sent, "segment {k} first sent");
        assert_eq!(t.last_sent_s[k as usize], sent, "never resent");
        assert_eq!(t.arrival_s[k as usize], secs((k + 1) * ROUND_TRIP_NS));
        assert_eq!(t.last_delay_s[k as usize], secs(ROUND_TRIP_NS));
        assert_eq!(t.full_delay_s[k as usize], secs(ROUND_TRIP_NS));
        assert_eq!(t.retransmissions[k as usize], 0);
        assert!(t.path[k as usize].is_nan(), "single path: no path");
    }
    let names = &r.interest_names[t.consumer[0] as usize];
    assert_eq!((names.id.as_str(), names.prefix.as_str()), ("c", "/p"));
    // Twenty equal samples: every percentile is that sample, exactly (clamped to min = max).
    let c = &r.summary.consumers["c"];
    let ms = ROUND_TRIP_NS as f64 / 1e6;
    assert_eq!((c.rtt_p50_ms, c.rtt_p95_ms, c.rtt_p99_ms), (Some(ms), Some(ms), Some(ms)));
}

#[test]
fn a_lost_interest_is_late_by_one_rto_in_full_delay_only() {
    // c -> p is down from 60 to 70 ms. Segment 2's Data arrives at 3 x 20.8792 = 62.6376 ms and
    // segment 3 leaves then, into the down link, and is lost. Its timer: after three samples of
    // 20.8792 ms, SRTT = 20.8792 ms and RTTVAR = 10.4396 x 0.75^2 = 5.87 ms, so SRTT + 4 RTTVAR =
    // 44.4 ms, below the 200 ms minimum (ndn-cxx's default): RTO = 200 ms. It is resent at
    // 262.6376 ms and answered one round trip later: last delay 20.8792 ms, full delay 200 ms
    // more, one retransmission. Every other row is as without the loss.
    let r = run(&one_link(5, DOWN_60_TO_70_MS));
    let t = &r.interests;
    assert_eq!(t.segment, vec![0, 1, 2, 3, 4]);
    let rto = 200_000_000;
    assert_eq!(t.retransmissions, vec![0, 0, 0, 1, 0]);
    assert_eq!(t.first_sent_s[3], secs(3 * ROUND_TRIP_NS));
    assert_eq!(t.last_sent_s[3], secs(3 * ROUND_TRIP_NS + rto));
    assert_eq!(t.last_delay_s[3], secs(ROUND_TRIP_NS));
    assert_eq!(t.full_delay_s[3], secs(ROUND_TRIP_NS + rto));
    assert_eq!(t.full_delay_s[4], secs(ROUND_TRIP_NS));
    let c = &r.summary.consumers["c"];
    assert_eq!((c.retransmissions, c.data_received), (1, 5));
}

#[test]
fn a_segment_given_up_has_a_row_without_data() {
    // As above with max_retries = 0: segment 3 is given up when its timer fires, at 262.6376 ms;
    // its row has no arrival, then the consumer goes on with segment 4.
    let text = one_link(5, DOWN_60_TO_70_MS).replace("window = 1 }", "window = 1 }\nmax_retries = 0");
    let r = run(&text);
    let t = &r.interests;
    assert_eq!(t.segment, vec![0, 1, 2, 3, 4]);
    assert!(t.arrival_s[3].is_nan() && t.full_delay_s[3].is_nan() && t.last_delay_s[3].is_nan());
    assert_eq!(t.first_sent_s[3], secs(3 * ROUND_TRIP_NS));
    assert_eq!(r.summary.consumers["c"].abandoned, 1);
}

#[test]
fn the_trace_is_empty_when_off() {
    let r = run(&one_link(5, "").replace("[trace]\ninterests = true", ""));
    assert!(r.interests.segment.is_empty());
    let r = run(&one_link(5, "").replace("interests = true", "interests = false"));
    assert!(r.interests.segment.is_empty());
}

#[test]
fn an_unknown_trace_key_is_an_error_naming_it() {
    let text = one_link(5, "").replace("interests = true", "interest = true");
    let e = ndnflow_sim::scenario::toml::parse_scenario(&text, "t.toml", None).unwrap_err().to_string();
    assert!(e.contains("trace") && e.contains("\"interest\"") && e.contains("interests"), "{e}");
    let text = one_link(5, "").replace("interests = true", "interests = 1");
    let e = ndnflow_sim::scenario::toml::parse_scenario(&text, "t.toml", None).unwrap_err().to_string();
    assert!(e.contains("trace.interests") && e.contains("true or false"), "{e}");
}

#[test]
fn a_catalog_consumer_names_each_row_by_object_and_segment_in_it() {
    // Objects of 4 segments, one after another: every row's segment is its place in its object
    // (0..=3), and the rows' objects, four rows each, are the objects in the order requested.
    let text = one_link(4, "catalog = { objects = 5, alpha = 1.0 }").replace("duration = \"5s\"", "duration = \"1s\"");
    let r = run(&text);
    let t = &r.interests;
    assert!(t.segment.len() >= 8, "{} rows", t.segment.len());
    for (k, (&seg, &object)) in t.segment.iter().zip(&t.object).enumerate() {
        assert_eq!(seg, k as u64 % 4, "row {k}");
        assert_eq!(object, r.objects.rank[k / 4], "row {k}");
    }
}

/// c - r1 - r2 - p, and c2 - r1; only r1 has a Content Store. c fetches five segments of /p from
/// 0 s, c2 the same five from 1 s; links of `one_link`'s kind (10 Mbit/s, 10 ms).
fn chain() -> String {
    let mut text = one_link(5, "")
        .replace("duration = \"5s\"", "duration = \"3s\"")
        .replace("c = {}\np = {}", "c = {}\nc2 = {}\nr1 = { cs = { capacity = 100 } }\nr2 = {}\np = {}")
        .replace("between = [\"c\", \"p\"]", "between = [\"c\", \"r1\"]");
    for (a, b) in [("c2", "r1"), ("r1", "r2"), ("r2", "p")] {
        text += &format!("[[links]]\nbetween = [\"{a}\", \"{b}\"]\nbandwidth = \"10Mbps\"\ndelay = \"10ms\"\n");
    }
    text + "[[consumers]]\nnode = \"c2\"\nname = \"/p\"\nsegments = 5\nstart = \"1s\"\ncc = { algorithm = \"fixed-window\", window = 1 }\n"
}

#[test]
fn hops_count_links_from_the_node_that_answered_and_a_store_answer_says_so() {
    // c's Data come from p's producer over p -> r2 -> r1 -> c: three links, hops = 3, no store
    // (r1 stores them on the way). c is done within 5 x 3 x 2 x 10 ms plus transmissions, well
    // before 1 s, when c2 asks for the same five names: r1's store answers each, and the Data
    // crosses r1 -> c2 only, hops = 1, from_cache = 1. The summary counts the store's answers.
    let r = run(&chain());
    let t = &r.interests;
    let id = |name: &str| r.interest_names.iter().position(|n| n.id == name).unwrap() as u32;
    let (c, c2) = (id("c"), id("c2"));
    let rows = |who: u32| -> Vec<(u64, f64, f64)> {
        (0..t.segment.len())
            .filter(|&k| t.consumer[k] == who)
            .map(|k| (t.segment[k], t.hops[k], t.from_cache[k]))
            .collect()
    };
    assert_eq!(rows(c), (0..5).map(|s| (s, 3.0, 0.0)).collect::<Vec<_>>(), "from the producer");
    assert_eq!(rows(c2), (0..5).map(|s| (s, 1.0, 1.0)).collect::<Vec<_>>(), "from r1's store");
    let s = &r.summary.consumers;
    assert_eq!((s["c"].data_from_cache, s["c2"].data_from_cache), (0, 5));
    assert_eq!((s["c"].data_received, s["c2"].data_received), (5, 5));
}

#[test]
fn a_segment_given_up_has_no_hops_and_no_origin() {
    let text = one_link(5, DOWN_60_TO_70_MS).replace("window = 1 }", "window = 1 }\nmax_retries = 0");
    let t = run(&text).interests;
    // One link c - p: every Data crossed p -> c, from the producer; segment 3 never came.
    assert_eq!(
        t.hops.iter().map(|h| if h.is_nan() { -1.0 } else { *h }).collect::<Vec<_>>(),
        [1.0, 1.0, 1.0, -1.0, 1.0]
    );
    assert!(t.from_cache[3].is_nan());
    assert_eq!(t.from_cache.iter().filter(|v| **v == 0.0).count(), 4);
}
