//! NDNLPv2 fragmentation on links with an MTU (`mtu`, docs/protocols/links.md "Fragmentation"),
//! end to end, against sizes derived by hand.
//!
//! Data /p/seg=N (N < 65536) with 8400 bytes of payload, DigestSha256: Name 9 + Content
//! (1 + 3 + 8400) + SignatureInfo 5 + SignatureValue 34 = 8452, plus type 1 and length 3 = 8456 B.
//! At MTU 1500 (1488 after NFD's 12-byte mark reserve) each fragment carries 1488 - 50 = 1438 B:
//! 6 fragments, five of 1438 + 24 = 1462 B (LpPacket 1 + 3, Sequence 10, FragIndex 3, FragCount
//! 3, Fragment 1 + 3) and one carrying 8456 - 5 x 1438 = 1266 B: 1290 B. 8600 B per Data.
//! An Interest (21 B) is sent whole.

use crate::common;

use common::{assert_within, goodput, run};
use ndnflow_sim::scenario::toml::parse_scenario;

const FRAMES_PER_DATA: u64 = 6;
const DATA_ON_WIRE: u64 = 5 * 1462 + 1290;

fn line(mtu: &str, queue: &str, bottleneck: &str, window: u32, segments: u64) -> String {
    format!(
        r#"
[simulation]
duration = "20s"
[nodes]
c = {{}}
r = {{}}
p = {{}}
[[links]]
between = ["c", "r"]
bandwidth = "{bottleneck}"
delay = "10ms"
queue = {queue}
{mtu}
[[links]]
between = ["r", "p"]
bandwidth = "100Mbps"
delay = "1ms"
queue = {{ discipline = "droptail", packets = 10000 }}
{mtu}
[[producers]]
node = "p"
prefix = "/p"
payload = 8400
[[consumers]]
node = "c"
name = "/p"
segments = {segments}
cc = {{ algorithm = "fixed-window", window = {window} }}
"#
    )
}

/// A link-limited transfer: each Data costs 8600 B on the wire in six frames, so goodput is
/// bandwidth x 8400 / 8600 (9.767 Mbit/s at 10 Mbit/s; 9.934 without an MTU, 8400 / 8456).
#[test]
fn each_data_is_six_frames_of_8600_bytes_on_the_wire() {
    let queue = r#"{ discipline = "droptail", packets = 10000 }"#;
    // Window 10: RTT ~ 22 ms + 6.9 ms of serialisation, 10 x 67 200 bit / 29 ms = 23 Mbit/s > 10.
    let r = run(&line("mtu = 1500", queue, "10Mbps", 10, 1_000_000));
    assert_within(goodput(&r, "c", 2.0, 20.0), 10e6 * 8400.0 / DATA_ON_WIRE as f64, 0.005, "goodput");
    let l = &r.summary.links["r->c"];
    assert_eq!(l.drops, 0);
    // The run may end with one Data part-way through its fragments.
    assert!(l.packets >= FRAMES_PER_DATA * l.data && l.packets < FRAMES_PER_DATA * (l.data + 1), "{l:?}");
    assert!(l.bytes >= DATA_ON_WIRE * l.data && l.bytes < DATA_ON_WIRE * (l.data + 1), "{l:?}");
    // Interests go whole: one frame each, 21 B (20 B for segments below 256).
    let up = &r.summary.links["c->r"];
    assert_eq!(up.packets, up.interests);
    assert!(up.bytes <= 21 * up.interests && up.bytes > 20 * up.interests, "{up:?}");
    assert_eq!(r.summary.consumers["c"].timeouts, 0);
    let plain = run(&line("", queue, "10Mbps", 10, 1_000_000));
    assert_within(goodput(&plain, "c", 2.0, 20.0), 10e6 * 8400.0 / 8456.0, 0.005, "goodput without an MTU");
}

/// A 15-frame drop-tail queue (two and a half Data) fed by a 100 Mbit/s link and drained at
/// 10 Mbit/s: a burst of 20 Data overflows it, Data arrive part-way into the queue, and the
/// fragments that got in are sent for nothing. Every Data the producer sent is delivered or
/// counted once as dropped, and only complete Data reach the consumer.
#[test]
fn a_full_queue_drops_parts_of_data_and_each_loss_counts_once() {
    let queue = r#"{ discipline = "droptail", packets = 15 }"#;
    let r = run(&line("mtu = 1500", queue, "10Mbps", 20, 400));
    let (feed, out) = (&r.summary.links["p->r"], &r.summary.links["r->c"]);
    assert!(out.data_drops > 0, "{out:?}");
    assert_eq!(feed.data, out.data + out.data_drops, "feed {feed:?} out {out:?}");
    assert_eq!(r.summary.consumers["c"].data_received, out.data);
    // Frames of dropped Data were transmitted too.
    assert!(out.packets > FRAMES_PER_DATA * out.data, "{out:?}");
    assert!(out.bytes > DATA_ON_WIRE * out.data, "{out:?}");
}

#[test]
fn same_scenario_gives_identical_results_with_fragmentation() {
    let text = line("mtu = 1500", r#"{ discipline = "droptail", packets = 15 }"#, "10Mbps", 20, 400);
    let (a, b) = (run(&text), run(&text));
    assert_eq!(format!("{:?}", a.summary.links), format!("{:?}", b.summary.links));
}

#[test]
fn bad_mtus_are_clear_errors() {
    let queue = r#"{ discipline = "droptail", packets = 15 }"#;
    let e = parse_scenario(&line("mtu = 63", queue, "10Mbps", 1, 1), "t.toml", None).unwrap_err();
    assert!(e.to_string().contains("between 64"), "{e}");
    let e = parse_scenario(&line("mtu = 1500\nloss_detection = \"overlay\"", queue, "10Mbps", 1, 1), "t.toml", None)
        .unwrap_err();
    assert!(e.to_string().contains("cannot be combined"), "{e}");
    let e = parse_scenario(&line("mtu = \"big\"", queue, "10Mbps", 1, 1), "t.toml", None).unwrap_err();
    assert_eq!(e.field.as_deref(), Some("links[0].mtu"), "{e}");
}
