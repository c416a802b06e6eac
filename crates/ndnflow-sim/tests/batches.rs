//! Batches (`batches = "..."`, ndnSIM's ConsumerBatches, docs/protocols/consumer.md): each batch
//! asks for its segments at its instant, the object is as long as the batches together, and the
//! reader refuses what cannot be a batch list.
//!
//! One link c - p, 10 Mbit/s and 10 ms each way, 1024-byte payloads, a fixed window of 10 (larger
//! than any batch, so that a batch's Interests all leave at its instant). Wire sizes as in
//! interest_trace.rs: an Interest for a segment below 256 is 20 B (16,000 ns at 10 Mbit/s), its
//! Data 1079 B (863,200 ns).

use crate::common;

use common::{one_link_c_p, parse, run};

const INTEREST_NS: u64 = 16_000;
const DATA_NS: u64 = 863_200;
const DELAY_NS: u64 = 10_000_000;

fn one_link(consumer: &str) -> String {
    one_link_c_p("20s", &format!("cc = {{ algorithm = \"fixed-window\", window = 10 }}\n{consumer}"))
}

fn secs(ns: u64) -> f64 {
    ns as f64 / 1e9
}

/// When the `i`-th Interest (from 0) of a batch sent together at `at_ns` gets its Data back. Each
/// Interest reaches p one Interest time after the one before it, sooner than p takes to send a
/// Data, so p's link sends the Data back to back from the first Interest's arrival:
/// at + 16,000 + 10 ms + (i + 1) x 863,200 + 10 ms.
fn batch_arrival(at_ns: u64, i: u64) -> u64 {
    at_ns + INTEREST_NS + 2 * DELAY_NS + (i + 1) * DATA_NS
}

#[test]
fn ndnsims_documented_batches_leave_at_their_instants() {
    // "1s 1 2s 5 10s 2": segment 0 at 1 s, 1-5 at 2 s, 6-7 at 10 s; 8 segments in all.
    let r = run(&one_link(r#"batches = "1s 1 2s 5 10s 2""#));
    let t = &r.interests;
    assert_eq!(t.segment, (0..8).collect::<Vec<u64>>());
    let batch_of = |seg: u64| match seg {
        0 => (1_000_000_000, 0),
        1..=5 => (2_000_000_000, seg - 1),
        _ => (10_000_000_000, seg - 6),
    };
    for seg in 0..8 {
        let (at, i) = batch_of(seg);
        let k = seg as usize;
        assert_eq!(t.first_sent_s[k], secs(at), "segment {seg} sent with its batch");
        assert_eq!(t.arrival_s[k], secs(batch_arrival(at, i)), "segment {seg}'s Data");
        assert_eq!(t.retransmissions[k], 0);
    }
    let c = &r.summary.consumers["c"];
    assert_eq!((c.interests_sent, c.data_received), (8, 8));
    // Done with the last batch's second Data, well before the 20 s run ends.
    assert!(c.finished);
}

#[test]
fn batches_count_from_the_consumers_start() {
    // Started at 0.5 s, the batch "1s 3" leaves at 1.5 s.
    let r = run(&one_link("start = \"0.5s\"\nbatches = \"1s 3\""));
    assert_eq!(r.interests.first_sent_s, vec![1.5; 3]);
}

#[test]
fn what_is_not_a_batch_list_is_refused_naming_the_field() {
    let cases = [
        (r#"batches = "1s 1 2s""#, "expected pairs of a time and a number of segments"),
        (r#"batches = "1s 0""#, "\"0\" is not a number of segments (1 or more)"),
        (r#"batches = "soon 1""#, "batch time \"soon\""),
        (r#"batches = """#, "expected pairs"),
        (r#"batches = 5"#, "expected batches as ndnSIM writes them"),
        ("segments = 8\nbatches = \"1s 8\"", "batches and segments do not go together: the batches ask for 8 segments"),
    ];
    for (line, want) in cases {
        let e = parse(&one_link(line)).expect_err(line).to_string();
        assert!(e.contains(want) && e.contains("consumers[0]."), "{line}: {e}");
    }
}
