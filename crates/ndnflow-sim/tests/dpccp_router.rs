//! DPCCP's router side end to end on SP-1's linear topology (DPCCP §VII-B, Figure 7): consumer A,
//! routers B and C, producer D; C has a simulated cache (§VII-A). Every node runs the `dpccp`
//! extension, so a Data answered by C's cache reaches A's consumer with hop count 2 (C-B, B-A)
//! and one from D with 3 (D-C, C-B, B-A): the share of 2s is the cache's hit probability.
//!
//! Link delays: the paper gives only their round-trip sum, 170 ms = 2 x (25 + 50 + 10) ms, and
//! the bottleneck D-C at 10 Mbit/s; we put 10 ms on A-B, 50 ms on B-C and 25 ms on C-D (the figure
//! that assigns them did not survive), the other links at 100 Mbit/s.

use crate::common;

use ndnflow_core::packet::lp::flags::data_hops;
use ndnflow_core::Time;

/// SP-1 with C's simulated cache `cache` (a TOML inline table's inner keys): the consumer on A
/// asks 500 Interests/s of 1024-byte Data (4.2 Mbit/s of payload: no queue at the 10 Mbit/s
/// D-C link) for `segments` segments, and the run ends when the last has arrived.
fn sp1(cache: &str, segments: u64) -> String {
    let link = |a: &str, b: &str, bandwidth: &str, delay: &str| {
        format!("[[links]]\nbetween = [\"{a}\", \"{b}\"]\nbandwidth = \"{bandwidth}\"\ndelay = \"{delay}\"\n")
    };
    let links =
        [link("A", "B", "100Mbps", "10ms"), link("B", "C", "100Mbps", "50ms"), link("C", "D", "10Mbps", "25ms")];
    format!(
        r#"
[simulation]
duration = "60s"
seed = 1

[nodes]
A = {{ dpccp = true }}
B = {{ dpccp = true }}
C = {{ dpccp = true, simulated_cache = {{ prefix = "/data", payload = 1024, {cache} }} }}
D = {{ dpccp = true }}

{}
[[producers]]
node = "D"
prefix = "/data"
payload = 1024

[[consumers]]
node = "A"
name = "/data/obj"
segments = {segments}
cc = {{ algorithm = "constant-rate", rate = 500 }}
"#,
        links.concat()
    )
}

/// (instant, hop count) of each Data handed to a local application.
type Arrivals = Vec<(Time, Option<u8>)>;

/// Runs `text`, returning its summary and the (instant, hop count) of each Data A's consumer got.
fn run(text: &str) -> (ndnflow_sim::trace::Summary, Arrivals) {
    common::run_recording_app_data(text, "A", |_, lp_out| data_hops(lp_out.flags))
}

fn count(seen: &[(Time, Option<u8>)], hops: u8, from_s: f64, to_s: f64) -> u64 {
    let inside = |t: Time| (from_s..to_s).contains(&t.as_secs_f64());
    seen.iter().filter(|&&(t, h)| h == Some(hops) && inside(t)).count() as u64
}

#[test]
fn the_share_of_data_with_two_hops_is_cs_hit_probability() {
    let (summary, seen) = run(&sp1("hit = 0.4", 10_000));
    let (two, three) = (count(&seen, 2, 0.0, 60.0), count(&seen, 3, 0.0, 60.0));
    // Every Data came from C (2 hops) or D (3 hops), and each one the consumer counted.
    assert_eq!(two + three, seen.len() as u64);
    assert_eq!(seen.len() as u64, summary.consumers["A"].data_received);
    // The 2s are exactly C's hits, the 3s exactly D's Data.
    let cache = summary.nodes["C"].simulated_cache.expect("C has a simulated cache");
    assert_eq!(two, cache.hits);
    assert_eq!(summary.nodes["C"].cs_hits, cache.hits, "a simulated hit is a Content Store hit");
    assert_eq!(three, summary.nodes["D"].out_data);
    // 10,000 segments, each asked once: the hits are Binomial(10,000, 0.4), mean 4,000,
    // sigma = sqrt(10,000 x 0.4 x 0.6) = 49, 4 sigma = 196.
    let n = two + three;
    assert_eq!(n, 10_000);
    let expected = 0.4 * n as f64;
    assert!((two as f64 - expected).abs() <= 196.0, "{two} of {n} from C's cache");
    let dpccp = summary.nodes["B"].dpccp.expect("B runs DPCCP");
    assert_eq!(dpccp.hop_counted, n, "B counted every Data it passed on");
}

#[test]
fn sp2s_schedule_switches_the_source_at_its_instants() {
    // SP-2's kappa, 0 -> 0.95 -> 0, at 5 s and 10 s here (50 s and 150 s in the paper). C
    // answers a hit at once, and its Data reaches A 60.2 ms later (50 + 10 ms of propagation, two
    // transmissions of about 0.09 ms at 100 Mbit/s). So the 2s arrive from 5.060 s, when the first
    // Interests that reach C at or after 5 s come back (one every 2 ms; that none of the first
    // ten hits has probability 0.05^10), to before 10.061 s, for those that reached C before 10 s.
    let (_, seen) = run(&sp1(
        "schedule = [{ at = \"0s\", hit = 0.0 }, { at = \"5s\", hit = 0.95 }, { at = \"10s\", hit = 0.0 }]",
        7_500,
    ));
    let twos: Vec<f64> = seen.iter().filter(|(_, h)| *h == Some(2)).map(|(t, _)| t.as_secs_f64()).collect();
    let (first, last) = (twos[0], twos[twos.len() - 1]);
    assert!((5.060..5.080).contains(&first), "first Data from C's cache at {first} s");
    assert!((10.040..10.061).contains(&last), "last Data from C's cache at {last} s");
    // From 5.5 s to 9.5 s C answers every Interest with probability 0.95: of the n Data that
    // arrive in that window, the 2s are Binomial(n, 0.95), sigma = sqrt(n x 0.95 x 0.05).
    let (two, three) = (count(&seen, 2, 5.5, 9.5), count(&seen, 3, 5.5, 9.5));
    let n = (two + three) as f64;
    assert!((1_999.0..=2_001.0).contains(&n), "{n} Data in 4 s at 500/s");
    let sigma = (n * 0.95 * 0.05).sqrt();
    assert!((two as f64 - 0.95 * n).abs() <= 4.0 * sigma, "{two} of {n}");
}
