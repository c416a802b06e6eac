//! PAF (Qian et al., IM 2013; the PTP paper's Sol.4, "PAF + RAAQM") on the PTP tree: c - r -
//! {a: 10 Mbit/s, b: 5 Mbit/s} - p, both paths 2 x (5 + 10 + 5) ms = 40 ms of propagation, r running
//! PAF. A Data of /p/obj with the producer's default 1024-byte payload is 1080 B on the wire
//! (engine.rs): 0.86 ms to serialise on a, 1.73 ms on b, 1157 and 579 Data/s.
//!
//! PAF moves probability to the face whose smoothed RTT is below the others' until the RTTs of the
//! faces in use are equal (paf.rs). With queues (a fixed window larger than both pipes) the RTTs
//! equalise when both bottlenecks are busy, each carrying its capacity: 2/3 of the Interests to a.
//! Under RAAQM, which keeps queues empty, a's RTT stays the lower by its shorter serialisation, so
//! the split leans to a, and the consumer gets little of the 15 Mbit/s: the PTP paper's point
//! (§6, Sol.4) that "the latency-based strategy also requires long queues to guarantee throughput.
//! When it is cooperating with the delay-based congestion control (e.g. RAAQM), the performance is
//! poor."

use crate::common;

use common::{goodput, parse, quickstart_with_line, run};
use ndnflow_sim::scenario::model::{PafConfig, StrategyKind};
use ndnflow_sim::Results;

/// The tree with `strategy` on r and 100-packet drop-tail queues.
fn tree(strategy: &str, cc: &str, duration: &str) -> String {
    let node = |n: &str| if n == "r" { format!("{{ strategy = {strategy} }}") } else { "{}".into() };
    common::ptp_tree(node, "{ discipline = \"droptail\", packets = 100 }", cc, duration)
}

/// Interests r sent towards a and towards b.
fn split(r: &Results) -> (f64, f64) {
    (r.summary.links["r->a"].interests as f64, r.summary.links["r->b"].interests as f64)
}

/// Link bits per second a direction carried over the run.
fn rate(r: &Results, dir: &str) -> f64 {
    r.summary.links[dir].bytes as f64 * 8.0 / r.summary.simulation.end_s
}

const RAAQM: &str = "{ algorithm = \"raaqm\" }";

#[test]
fn under_raaqm_both_paths_are_used_leaning_to_the_faster() {
    let r = run(&tree("\"paf\"", RAAQM, "20s"));
    let (a, b) = split(&r);
    let share_b = b / (a + b);
    // Exploration alone sends b at least explore / 2 = 2.5 % of the Interests; b's RTT, 0.86 ms
    // longer with empty queues, gives it less than half.
    assert!((0.025..0.5).contains(&share_b), "paf split {a}/{b}");
    assert_eq!(r.summary.links["a->r"].drops + r.summary.links["b->r"].drops, 0);
    // Poor throughput, as the paper says: under a third of the 15 Mbit/s max flow.
    let g = goodput(&r, "c", 2.0, 20.0);
    assert!(g < 15e6 / 3.0, "goodput {g}");
    // best-route under the same consumer: one path.
    let (a, b) = split(&run(&tree("\"best-route\"", RAAQM, "20s")));
    assert!(a > 0.0 && b == 0.0, "best-route split {a}/{b}");
}

#[test]
fn with_queues_the_split_follows_the_capacities() {
    // A window of 150 exceeds both pipes (1157 x 0.042 = 49 and 579 x 0.042 = 24 Data): the rest
    // queues, and PAF keeps it where the queueing delays are equal, q_a / 1157 = q_b / 579, so
    // q_a ~ 51 and q_b ~ 26 Data, both under the 100-packet limit. Both bottlenecks busy: Interests
    // split 1157 : 579 = 2/3 : 1/3.
    let r = run(&tree("\"paf\"", "{ algorithm = \"fixed-window\", window = 150 }", "20s"));
    let (a, b) = split(&r);
    assert!((a / (a + b) - 2.0 / 3.0).abs() < 0.02, "paf split {a}/{b}");
    assert!(rate(&r, "a->r") >= 0.95 * 10e6 && rate(&r, "b->r") >= 0.95 * 5e6);
    assert_eq!(r.summary.links["a->r"].drops + r.summary.links["b->r"].drops, 0);
}

#[test]
fn paf_runs_are_deterministic() {
    let text = tree("\"paf\"", RAAQM, "3s");
    assert_eq!(run(&text).summary, run(&text).summary);
}

#[test]
fn paf_by_name_or_with_parameters() {
    let s = parse(&quickstart_with_line(8, r#"r  = { strategy = "paf" }"#)).unwrap();
    assert_eq!(s.nodes[2].forwarder.default_strategy, StrategyKind::Paf(PafConfig::default()));
    let s = parse(&quickstart_with_line(8, r#"r  = { strategy = { name = "paf", explore = 0.1, alpha = 0.02 } }"#))
        .unwrap();
    let want = PafConfig { explore: 0.1, alpha: 0.02, ..PafConfig::default() };
    assert_eq!(s.nodes[2].forwarder.default_strategy, StrategyKind::Paf(want));
    for (line, field) in [
        (r#"r  = { strategy = { name = "paf", penalty = -0.1 } }"#, "nodes.r.strategy.penalty"),
        (r#"r  = { strategy = { name = "paf", change_perc = 0.1 } }"#, "nodes.r.strategy.change_perc"),
        (r#"r  = { strategy = "pafx" }"#, "nodes.r.strategy"),
    ] {
        let e = parse(&quickstart_with_line(8, line)).unwrap_err();
        assert_eq!(e.field.as_deref(), Some(field), "{line}: {e}");
    }
}

#[test]
fn a_failed_path_loses_its_share_and_regains_it() {
    // Link a - p is down from 5 to 10 s: a Nacks r's Interests (NoRoute), each Nack costs face a
    // the penalty, and every answer via b reinforces b. A window of 100 fits b alone (pipe 24 +
    // queue 100 Data), so b loses nothing while a is down (losses on b would hand a share back to
    // a). Runs are deterministic, so a run of t s is the first t s of a longer one: differences of
    // runs give what [t1, t2) carried.
    let down = "[[events]]\nat = \"5s\"\nlink = [\"a\", \"p\"]\ndown = true\n\
                [[events]]\nat = \"10s\"\nlink = [\"a\", \"p\"]\nup = true\n";
    let text = |d: &str| tree("\"paf\"", "{ algorithm = \"fixed-window\", window = 100 }", d) + down;
    let [(a7, b7), (a10, b10), (a12, b12), (a15, b15)] = ["7s", "10s", "12s", "15s"].map(|d| split(&run(&text(d))));
    // In [7, 10) s a gets little more than exploration's 2.5 %.
    let down_share = (a10 - a7) / (a10 - a7 + b10 - b7);
    assert!(down_share < 0.05, "a's share while down: {down_share}");
    // Exploration finds a again: in [12, 15) s the split is back at the capacities' 2/3.
    let up_share = (a15 - a12) / (a15 - a12 + b15 - b12);
    assert!((up_share - 2.0 / 3.0).abs() < 0.03, "a's share after the repair: {up_share}");
}
