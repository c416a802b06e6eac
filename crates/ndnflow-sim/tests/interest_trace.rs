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

mod common;

use common::run;

const ROUND_TRIP_NS: u64 = 20_000_000 + 16_000 + 863_200;

fn one_link(segments: u32, extra: &str) -> String {
    format!(
        r#"
[simulation]
duration = "5s"
[trace]
interests = true
[nodes]
c = {{}}
p = {{}}
[[links]]
between = ["c", "p"]
bandwidth = "10Mbps"
delay = "10ms"
[[producers]]
node = "p"
prefix = "/p"
payload = 1024
[[consumers]]
node = "c"
name = "/p"
segments = {segments}
cc = {{ algorithm = "fixed-window", window = 1 }}
{extra}
"#
    )
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
