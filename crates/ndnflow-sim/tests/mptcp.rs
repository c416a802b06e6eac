//! MPTCP's fairness goals (RFC 6356 §2: "improve throughput" on disjoint paths, "do no harm" to a
//! single-path flow at a shared bottleneck), measured on the paths PTP's routers let a consumer
//! name. Every node is a PTP router; the multipath consumer c finds the paths r1 - a - r2 and
//! r1 - b - r2 by probing.
//!
//! The single-path flow d is TCP Reno: an `mptcp` consumer limited to one path (`max_paths = 1`),
//! where every coupling is Reno's `1 / w`, with the same loss detection and timers as each
//! multipath subflow. Readings, fixed before measuring: "about one flow's share" is goodput(c) /
//! goodput(d) within 10 % of 1, "about two" within 10 % of 2 (medians over seeds 1-4 where the
//! seed matters), "use both fully" each bottleneck carrying at least 95 % of its bit rate over
//! the run, start-up included (as the PTP tree test reads "fills").
//!
//! RFC 6356 derives its goals with one loss rate for every packet through the shared link; that is
//! the first shared link below (random loss, no queue). At a queue-limited drop-tail link a
//! deterministic run allocates the drops by traffic phase, not by share (Floyd and Jacobson,
//! 1991/92; traced drop by drop in docs/protocols/multipath.md): see `at_a_congested_bottleneck`.
//! With the randomness they prescribe, a random delay before each send of up to the bottleneck's
//! service time (ns-2's `overhead_`, our `send_jitter`), OLIA meets the goal there and LIA comes
//! to its own fluid model's value: `at_a_drop_tail_bottleneck_with_a_send_jitter`.

use crate::common;

use common::run;
use ndnflow_sim::Results;

/// A link of 2 ms; `tail` is the rest of its table (bandwidth, queue, loss).
fn link(a: &str, b: &str, tail: &str) -> String {
    format!("[[links]]\nbetween = [\"{a}\", \"{b}\"]\ndelay = \"2ms\"\n{tail}\n")
}

const FAST: &str = "bandwidth = \"100Mbps\"\nqueue = { discipline = \"droptail\", packets = 100 }";
/// The shared link of RFC 6356's model: every packet lost with the same probability, 0.5 %, and
/// capacity to spare (no queue builds).
const LOSSY: &str = "bandwidth = \"1000Mbps\"\nloss = { model = \"bernoulli\", p = 0.005 }";
/// A queue-limited shared link: 10 Mbit/s, drop-tail of 25 packets (about one bandwidth-delay
/// product: 10 Mbit/s x 16 ms of propagation is 20 Data of ~1,050 bytes).
const BOTTLENECK: &str = "bandwidth = \"10Mbps\"\nqueue = { discipline = \"droptail\", packets = 25 }";
/// The disjoint paths' own bottlenecks.
const FIVE: &str = "bandwidth = \"5Mbps\"\nqueue = { discipline = \"droptail\", packets = 100 }";

fn route(node: &str, hop: &str) -> String {
    format!("[[routes]]\nnode = \"{node}\"\nprefix = \"/p\"\nnexthop = \"{hop}\"\n")
}

fn consumer(node: &str, cc: &str) -> String {
    format!("[[consumers]]\nnode = \"{node}\"\nname = \"/p/{node}\"\ncc = {cc}\n")
}

/// `text` with every consumer delaying each send by up to `jitter` (`send_jitter`).
fn with_jitter(text: &str, jitter: &str) -> String {
    text.replace("\ncc = ", &format!("\nsend_jitter = \"{jitter}\"\ncc = "))
}

/// c - r1 - {a, b} - r2 - p, every link 2 ms; `paths` on r1 - a and r1 - b, `shared` on r2 - p.
/// Both consumers' Data cross r2 - p; c (and d, when given) sit on r1.
fn diamond(paths: &str, shared: &str, c_cc: &str, d_cc: Option<&str>, duration: &str, seed: u64) -> String {
    let mut s = format!(
        "[simulation]\nduration = \"{duration}\"\nseed = {seed}\nrouting = \"none\"\n[nodes]\n\
         c = {{ ptp = true }}\nd = {{ ptp = true }}\nr1 = {{ ptp = true }}\na = {{ ptp = true }}\n\
         b = {{ ptp = true }}\nr2 = {{ ptp = true }}\np = {{ ptp = true }}\n"
    );
    for (x, y, tail) in [
        ("c", "r1", FAST),
        ("d", "r1", FAST),
        ("r1", "a", paths),
        ("r1", "b", paths),
        ("a", "r2", FAST),
        ("b", "r2", FAST),
        ("r2", "p", shared),
    ] {
        s += &link(x, y, tail);
    }
    for (n, h) in [("c", "r1"), ("d", "r1"), ("r1", "a"), ("r1", "b"), ("a", "r2"), ("b", "r2"), ("r2", "p")] {
        s += &route(n, h);
    }
    s += "[[producers]]\nnode = \"p\"\nprefix = \"/p\"\n";
    s += &consumer("c", c_cc);
    if let Some(d) = d_cc {
        s += &consumer("d", d);
    }
    s
}

const RENO: &str = "{ algorithm = \"mptcp\", max_paths = 1 }";

fn mptcp(coupling: &str) -> String {
    format!("{{ algorithm = \"mptcp\", coupling = \"{coupling}\" }}")
}

fn goodput(r: &Results, consumer: &str) -> f64 {
    r.summary.consumers[consumer].goodput_bps
}

/// Link bits per second a direction carried over the run.
fn rate(r: &Results, dir: &str) -> f64 {
    r.summary.links[dir].bytes as f64 * 8.0 / r.summary.simulation.end_s
}

/// c's goodput over d's, both crossing `shared`, for one seed; `jitter`: each consumer's
/// `send_jitter`, if any.
fn ratio_with(coupling: &str, shared: &str, seed: u64, jitter: Option<&str>) -> f64 {
    let text = diamond(FAST, shared, &mptcp(coupling), Some(RENO), "60s", seed);
    let r = run(&jitter.map_or(text.clone(), |j| with_jitter(&text, j)));
    goodput(&r, "c") / goodput(&r, "d")
}

fn ratio(coupling: &str, shared: &str, seed: u64) -> f64 {
    ratio_with(coupling, shared, seed, None)
}

/// The median of `ratio_with` over seeds 1-4 (the mean of the middle two).
fn median_ratio_with(coupling: &str, shared: &str, jitter: Option<&str>) -> f64 {
    let mut r: Vec<f64> = (1..=4).map(|seed| ratio_with(coupling, shared, seed, jitter)).collect();
    r.sort_by(f64::total_cmp);
    (r[1] + r[2]) / 2.0
}

fn median_ratio(coupling: &str, shared: &str) -> f64 {
    median_ratio_with(coupling, shared, None)
}

#[test]
fn with_one_loss_rate_for_all_lia_takes_one_flows_share() {
    // LIA's alpha with two equal paths is 1/2 (lia.rs), so the pair grows by 1/2 per RTT and
    // halves one path (a quarter of the total) per loss: W^2 / 4 * p = 1/2, W = sqrt(2 / p), one
    // Reno flow's window. Ratio 1. (Measured, seeds 1-4: 1.115, 1.046, 1.089, 0.973, median
    // 1.068, since resends stay off the probing Interests; 1.126, 1.030, 1.022, 1.034 before.)
    let m = median_ratio("lia", LOSSY);
    assert!((m - 1.0).abs() <= 0.10, "LIA / Reno = {m}");
}

#[test]
fn with_one_loss_rate_for_all_olia_takes_one_flows_share() {
    // OLIA's alphas sum to 0 and its first term sums to sum w_r^2 / W^2 per RTT; a loss halves a
    // path with probability w_r / W, taking sum w_r^2 / 2W per RTT in all, so whatever the split
    // W^2 = 2 / p, one Reno flow's window: ratio 1. Measured, seeds 1-4: 1.065, 0.963, 0.986,
    // 0.971, median 0.978 since resends stay off the probing Interests (1.062, 0.955, 0.933,
    // 1.012, median 0.983, before; 0.979 before a path's timeout ended its whole flight). OLIA leaves one path at a few Interests, where a loss at the tail of
    // its flight has no later Data to reveal it: before each subflow sent RFC 8985's tail loss
    // probe, those losses waited for the 1 s RTO (4-9 path timeouts a run, then 0-3) and the
    // median was 0.893; 0.924 with the probe, before fast recovery stopped growing windows.
    let m = median_ratio("olia", LOSSY);
    assert!((m - 1.0).abs() <= 0.10, "OLIA / Reno = {m}");
}

#[test]
fn with_one_loss_rate_for_all_uncoupled_takes_two_flows_shares() {
    // Three Reno flows with one loss rate have one window each: c has two. Ratio 2.
    let m = median_ratio("uncoupled", LOSSY);
    assert!((m - 2.0).abs() <= 0.20, "uncoupled / Reno = {m}");
}

#[test]
fn at_a_congested_bottleneck() {
    // Uncoupled: three Reno flows share the queue, c takes two shares.
    let uncoupled = ratio("uncoupled", BOTTLENECK, 1);
    assert!((uncoupled - 2.0).abs() <= 0.20, "uncoupled / Reno = {uncoupled}");
    // LIA and OLIA take more than one share here (seed 1: 1.320 and 1.245; medians over seeds
    // 1-4: 1.339 and 1.238, 1.381 and 1.237 before resends stayed off the probing Interests):
    // RFC 6356's "do no harm" does not hold within 10 % at a drop-tail
    // queue in a deterministic run. Its derivation assumes one loss probability per packet; here
    // the queue refuses the Data of the Interest a window adds about one time in ten and a
    // replacement's one time in 600-1,100 (traced, docs/protocols/multipath.md, before resends
    // stayed off the probes), so the Reno flow, which adds one per RTT, has a loss event every
    // ~185 Data and each LIA subflow every ~250-280 (seed 1). With a send jitter see the next test. Coupling still takes back most of
    // uncoupled's extra share.
    for coupling in ["lia", "olia"] {
        let r = ratio(coupling, BOTTLENECK, 1);
        assert!(r > 1.0 && r < 1.5, "{coupling} / Reno = {r}");
        assert!(r - 1.0 < (uncoupled - 1.0) / 2.0, "{coupling} / Reno = {r}, uncoupled {uncoupled}");
    }
}

/// One Data's transmission time at `BOTTLENECK`: 1,082 bytes on the wire x 8 / 10 Mbit/s =
/// 865.6 us (0.866 ms to the microsecond), the bound Floyd and Jacobson give the random delay at
/// each source (the bottleneck service time), fixed before measuring.
const SERVICE_TIME: &str = "0.866ms";

#[test]
fn at_a_drop_tail_bottleneck_with_a_send_jitter() {
    // Without the jitter the drop-tail queue refuses the Data of the Interest a window adds about
    // one time in ten and an ACK-clocked replacement one time in 700 (seed 1), so losses follow
    // growth, which coupling slows: LIA 1.339, OLIA 1.238 (medians). With it, seeds 1-4 measured
    // LIA 1.094, 1.037, 1.057, 1.105; OLIA 0.993, 0.880, 0.986, 1.120; uncoupled 1.815, 1.760,
    // 1.967, 1.972 (before resends stayed off the probing Interests: LIA 1.105, 1.117, 1.087,
    // 1.155; OLIA 0.949, 0.927, 1.015, 0.954; uncoupled 2.106, 1.797, 1.964, 1.894).
    // OLIA: whatever its split, one Reno flow's window (see the random-loss test): within 10 % of 1.
    let olia = median_ratio_with("olia", BOTTLENECK, Some(SERVICE_TIME));
    assert!((olia - 1.0).abs() <= 0.10, "OLIA / Reno = {olia}");
    // LIA: with equal RTTs and its larger window a share `a` of the total, the fluid model gives
    // sqrt(a / (a^2 + (1 - a)^2)) times Reno's throughput (multipath.md), at most 1.099 (at
    // a = 1/sqrt(2)); LIA's own design, not the queue. Bound: about that maximum, in the
    // catalog's one reading of "about" a rate (within 10 %, docs/experiments/README.md), so at
    // most 1.099 x 1.1 = 1.209; the default, 1.339, is outside it.
    let lia = median_ratio_with("lia", BOTTLENECK, Some(SERVICE_TIME));
    assert!(lia > 1.0 && lia <= 1.099 * 1.10, "LIA / Reno = {lia}");
    let uncoupled = median_ratio_with("uncoupled", BOTTLENECK, Some(SERVICE_TIME));
    assert!((uncoupled - 2.0).abs() <= 0.20, "uncoupled / Reno = {uncoupled}");
}

#[test]
fn on_disjoint_paths_lia_and_olia_fill_both() {
    // Alone on r1 - a and r1 - b (5 Mbit/s each, the rest 100 Mbit/s): each subflow is limited by
    // its own bottleneck only, so both fill (100-packet queues are above each path's
    // bandwidth-delay product of ~10 Data, so a halving does not empty them).
    for coupling in ["lia", "olia"] {
        let r = run(&diamond(FIVE, FAST, &mptcp(coupling), None, "20s", 1));
        let (a, b) = (rate(&r, "a->r1"), rate(&r, "b->r1"));
        assert!(a >= 0.95 * 5e6 && b >= 0.95 * 5e6, "{coupling}: a {a}, b {b}");
    }
}

#[test]
fn mptcp_runs_are_deterministic() {
    let text = diamond(FAST, LOSSY, &mptcp("olia"), Some(RENO), "3s", 2);
    assert_eq!(run(&text).summary, run(&text).summary);
}
