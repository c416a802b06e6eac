//! FPF (Thibaud et al. §II-B, formula (1)) in the simulator: r has a short path via a and a long one
//! via b, both 10 Mbit/s with 10-packet queues. The driver gives r's faces their Data rate and
//! queue limit, so FPF computes each face's capacity C = rtt x rate + queue and uses b only when a
//! holds C pending Interests.
//!
//! Wire sizes as in engine.rs: a Data /p/seg=N with a 1024-byte payload is 1080 B on the wire, so a
//! path carries ~1157 Data/s. From r, path a's RTT is 2 x 6 ms + 0.95 ms of serialization with an
//! empty queue: C(a) ~ 0.013 x 1157 + 10 = 25, growing to ~35 with a full queue (+8.6 ms).

use crate::common;

use common::{goodput, run};
use ndnflow_sim::Results;

fn paths(strategy: &str, window: u32) -> String {
    format!(
        r#"
[simulation]
duration = "5s"
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
queue = {{ discipline = "droptail", packets = 10 }}
[[links]]
between = ["r", "b"]
bandwidth = "10Mbps"
delay = "20ms"
queue = {{ discipline = "droptail", packets = 10 }}
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
cc = {{ algorithm = "fixed-window", window = {window} }}
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
fn fpf_keeps_to_the_fast_path_below_its_capacity() {
    // A window of 20 never fills path a (C(a) >= 25): everything goes via a. The first window
    // arrives at a's 10-packet queue as a burst and loses a few Data; FPF places the
    // retransmissions by formula (1) too (a again), where best-route sends them to b.
    let r = run(&paths("fpf", 20));
    let (a, b) = split(&r);
    assert!(a > 0 && b == 0, "fpf split {a}/{b}");
    let (a_br, b_br) = split(&run(&paths("best-route", 20)));
    assert!(a_br > 0 && b_br > 0 && b_br < 20, "best-route split {a_br}/{b_br}");
}

#[test]
fn fpf_fills_the_second_path_when_the_first_is_full() {
    // A window of 80: a holds at most C(a) ~ 25-35 pending Interests, b takes the rest (its
    // capacity is ~ 0.043 x 1157 + 10 = 60): both paths carry about half.
    let r = run(&paths("fpf", 80));
    let (a, b) = split(&r);
    let total = (a + b) as f64;
    assert!(a as f64 >= 0.4 * total && b as f64 >= 0.3 * total, "fpf split {a}/{b}");
    let g = goodput(&r, "c", 1.0, 5.0);
    assert!(g > 1.5 * ONE_PATH, "fpf goodput {g} vs one path {ONE_PATH}");
    // The survey's critique (§IV-B): the queue term is r's own queue, while a's queueing delay
    // already raises rtt x rate; C(a) exceeds what a's pipe and queue hold by up to 10 Data, so a's
    // queue still overflows.
    assert!(r.summary.links["a->r"].drops > 0);
    // best-route, same window: one path (b sees only retransmissions).
    let (a, b) = split(&run(&paths("best-route", 80)));
    assert!(b as f64 <= 0.1 * (a + b) as f64, "best-route split {a}/{b}");
}

#[test]
fn fpf_is_a_scenario_strategy_name() {
    let text = paths("fpf", 1).replace("r = { strategy = \"fpf\" }", "r = { strategy = \"fpff\" }");
    let err = ndnflow_sim::scenario::toml::parse_scenario(&text, "test.toml", None).unwrap_err().to_string();
    assert!(err.contains("fpf"), "{err}");
}
