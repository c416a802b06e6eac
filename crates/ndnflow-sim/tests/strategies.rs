//! Multipath strategies (issue 3, router side) on a diamond: c - r - {a, b} - p, where r-a and r-b
//! are the two equal 10 Mbit/s bottlenecks. best-route keeps to one path; pi, rfa and drf split the
//! Interests between both by pending Interests.
//!
//! Wire sizes as in engine.rs: Data /p/seg=N with a 1024-byte payload is 1080 B on the wire.

use crate::common;

use common::{goodput, run};
use ndnflow_sim::Results;

fn diamond(strategy: &str) -> String {
    format!(
        r#"
[simulation]
duration = "10s"
routing = "none"
[nodes]
c = {{}}
r = {{ strategy = "{strategy}" }}
a = {{}}
b = {{}}
p = {{}}
[[links]]
between = ["c", "r"]
bandwidth = "100Mbps"
delay = "1ms"
queue = {{ discipline = "droptail", packets = 1000 }}
[[links]]
between = ["r", "a"]
bandwidth = "10Mbps"
delay = "5ms"
queue = {{ discipline = "droptail", packets = 1000 }}
[[links]]
between = ["r", "b"]
bandwidth = "10Mbps"
delay = "5ms"
queue = {{ discipline = "droptail", packets = 1000 }}
[[links]]
between = ["a", "p"]
bandwidth = "100Mbps"
delay = "1ms"
queue = {{ discipline = "droptail", packets = 1000 }}
[[links]]
between = ["b", "p"]
bandwidth = "100Mbps"
delay = "1ms"
queue = {{ discipline = "droptail", packets = 1000 }}
[[routes]]
node = "c"
prefix = "/p"
nexthop = "r"
[[routes]]
node = "r"
prefix = "/p"
nexthop = "a"
[[routes]]
node = "r"
prefix = "/p"
nexthop = "b"
[[routes]]
node = "a"
prefix = "/p"
nexthop = "p"
[[routes]]
node = "b"
prefix = "/p"
nexthop = "p"
[[producers]]
node = "p"
prefix = "/p"
payload = 1024
[[consumers]]
node = "c"
name = "/p"
cc = {{ algorithm = "fixed-window", window = 100 }}
"#
    )
}

/// Interests r sent towards a and towards b.
fn split(r: &Results) -> (u64, u64) {
    (r.summary.links["r->a"].interests, r.summary.links["r->b"].interests)
}

/// One path's goodput ceiling: 10 Mbit/s x payload / wire size.
const ONE_PATH: f64 = 10e6 * 1024.0 / 1080.0;

#[test]
fn best_route_uses_one_path_only() {
    let r = run(&diamond("best-route"));
    let (a, b) = split(&r);
    assert!(a > 0 && b == 0, "best-route split {a}/{b}");
    let g = goodput(&r, "c", 2.0, 10.0);
    assert!(g <= ONE_PATH * 1.001, "best-route goodput {g}");
}

#[test]
fn pending_interest_strategies_use_both_paths() {
    for strategy in ["pi", "rfa", "cf", "drf"] {
        let r = run(&diamond(strategy));
        let (a, b) = split(&r);
        let total = (a + b) as f64;
        assert!(a as f64 >= 0.3 * total && b as f64 >= 0.3 * total, "{strategy}: split {a}/{b}");
        let g = goodput(&r, "c", 2.0, 10.0);
        eprintln!("{strategy}: split {a}/{b}, goodput {:.2} Mbit/s", g / 1e6);
        assert!(g > ONE_PATH, "{strategy} goodput {g} vs one path {ONE_PATH}");
        if strategy == "pi" {
            // Both bottlenecks full: twice one path, within 1 %.
            assert!((g - 2.0 * ONE_PATH).abs() < 0.01 * 2.0 * ONE_PATH, "pi goodput {g}");
        }
    }
}

#[test]
fn rfa_is_deterministic_per_seed() {
    let (x, y) = (run(&diamond("rfa")), run(&diamond("rfa")));
    assert_eq!(split(&x), split(&y));
}

/// NFD's random strategy: each Interest takes a or b with probability 1/2, so of N Interests a
/// gets N/2 ± sqrt(N)/2 (binomial); 5 of those is the bound. The two paths are equal, so both
/// bottlenecks fill and the goodput passes one path's.
#[test]
fn random_strategy_splits_evenly_at_random() {
    let r = run(&diamond("random"));
    let (a, b) = split(&r);
    let n = (a + b) as f64;
    assert!((a as f64 - n / 2.0).abs() < 5.0 * n.sqrt() / 2.0, "random split {a}/{b}");
    // Not a round robin: an alternating split would be within one Interest of even.
    assert!(a.abs_diff(b) > 1, "random split {a}/{b} looks alternating");
    let g = goodput(&r, "c", 2.0, 10.0);
    assert!(g > 1.5 * ONE_PATH, "random goodput {g} vs one path {ONE_PATH}");
    // The draws come from the seed: another seed, another split; the same seed, the same one.
    let seeded = |seed: u32| {
        let text = diamond("random").replace("routing = \"none\"", &format!("routing = \"none\"\nseed = {seed}"));
        split(&run(&text))
    };
    assert_eq!(seeded(1), seeded(1));
    assert_ne!(seeded(1), seeded(2));
}
