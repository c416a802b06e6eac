//! ASF (NFD's Adaptive SRTT-based Forwarding) on c - r - {a, b} - p, r running the strategy under
//! test, 100 Mbit/s links (a 1080-byte Data takes 0.09 ms to serialise: negligible below). Path a
//! is r's lower-cost route (cost 1) and the slow one, 50 ms per link, an RTT from r of 200 ms; path
//! b costs 10 and has 10 ms links, an RTT of 40 ms. The consumer sends 100 Interests per second
//! (one every 10 ms) whatever comes back, so each 1-second bin carries 100 Interests.

use crate::common;

use common::run;
use ndnflow_sim::Results;

/// The scenario with `strategy` on r, trace bins of `bin`, `consumer` lines added to the
/// consumer and `events` appended.
fn two_paths(strategy: &str, bin: &str, duration: &str, consumer: &str, events: &str) -> String {
    let link = |a: &str, b: &str, delay: &str| {
        format!("[[links]]\nbetween = [\"{a}\", \"{b}\"]\nbandwidth = \"100Mbps\"\ndelay = \"{delay}\"\n")
    };
    let route = |n: &str, h: &str, cost: u32| {
        format!("[[routes]]\nnode = \"{n}\"\nprefix = \"/p\"\nnexthop = \"{h}\"\ncost = {cost}\n")
    };
    format!(
        "[simulation]\nduration = \"{duration}\"\nbin = \"{bin}\"\nrouting = \"none\"\n\
         [nodes]\nc = {{}}\nr = {{ strategy = {strategy} }}\na = {{}}\nb = {{}}\np = {{}}\n\
         {}{}{}{}{}{}{}{}{}{}\
         [[producers]]\nnode = \"p\"\nprefix = \"/p\"\n\
         [[consumers]]\nnode = \"c\"\nname = \"/p/obj\"\ncc = {{ algorithm = \"constant-rate\", rate = 100 }}\n{consumer}{events}",
        link("c", "r", "5ms"),
        link("r", "a", "50ms"),
        link("a", "p", "50ms"),
        link("r", "b", "10ms"),
        link("b", "p", "10ms"),
        route("c", "r", 1),
        route("r", "a", 1),
        route("r", "b", 10),
        route("a", "p", 1),
        route("b", "p", 1),
    )
}

/// Interests per bin on the link direction `dir` ("r->a").
fn per_bin(r: &Results, dir: &str) -> Vec<u64> {
    let d = r.link_names.iter().position(|n| n.name == dir).unwrap_or_else(|| panic!("no link {dir}")) as u32;
    (0..r.links.dir.len()).filter(|&i| r.links.dir[i] == d).map(|i| r.links.interests[i]).collect()
}

const ASF_1S: &str = "{ name = \"asf\", probing-interval = \"1s\" }";

#[test]
fn best_route_keeps_the_cheap_slow_path_asf_moves_after_its_first_probe() {
    // best-route: every Interest to a, the lower cost, 100 per bin.
    let r = run(&two_paths("\"best-route\"", "1s", "10s", "", ""));
    assert_eq!((per_bin(&r, "r->a"), per_bin(&r, "r->b")), (vec![100; 10], vec![0; 10]));
    // ASF: both faces unmeasured at first, so a (the lower cost) carries every Interest, and gets
    // measured (200 ms). The first probe is due a uniform 0-5000 ms after the first Interest (at r
    // at 5 ms): b gets a copy of the Interest of that instant, in bin j <= 5. b's Data comes back
    // 40 ms later: b is measured at 40 ms < 200 ms and takes every later Interest. From then on a
    // probe goes to a once a second (the interval): one Interest in each later bin.
    let r = run(&two_paths(ASF_1S, "1s", "10s", "", ""));
    let (a, b) = (per_bin(&r, "r->a"), per_bin(&r, "r->b"));
    let j = b.iter().position(|&n| n > 0).expect("a probe went to b");
    assert!(j <= 5, "first probe in bin {j}");
    for k in 0..10 {
        match k {
            // Before the first probe: all on a.
            _ if k < j => assert_eq!((a[k], b[k]), (100, 0), "bin {k}"),
            // A bin with a probe carries one Interest more than the consumer sent.
            _ if k <= j + 1 => assert_eq!(a[k] + b[k], 101, "bin {k}"),
            // After the switch (the 40 ms of b's first RTT may reach into bin j + 1): b carries the
            // consumer's 100, a one probe.
            _ => assert_eq!((a[k], b[k]), (1, 100), "bin {k}"),
        }
    }
    // The consumer's Interests reach r at 5.09 ms + k x 10 ms, k = 0..999. Before b took over, a
    // carried at most those up to the first probe (due by 5.005 s: k <= 500, 501 Interests) and the
    // 4 of the 40 ms after it: 505; plus at most 9 later probes. So b carried at least 495.
    assert!(b.iter().sum::<u64>() >= 495 && a.iter().sum::<u64>() <= 514, "{a:?} {b:?}");
}

/// The Data direction of path b (p -> b) goes down at 7 s: the Interests still reach p, their Data
/// are lost, and r's face to b stays up, so only its RTO timer can tell.
const B_DATA_DOWN: &str = "[[events]]\nat = \"7s\"\nlink = [\"b\", \"p\"]\ndirection = \"reverse\"\ndown = true\n";

#[test]
fn failover_after_max_timeouts_timeouts() {
    // The consumer does not retransmit (max_retries = 0), so each Interest at r is new and goes to
    // the best face. Before 7 s ASF is on b (RTT 40.2 ms; its RTO is the 200 ms floor). b watches
    // one Interest at a time, re-armed at the first Interest after each Data (<= 10 ms later), so
    // the watched Interests leave r at most 50.2 ms apart. The first whose Data is lost reaches p
    // (20.1 ms from r) after 7 s: it left r at s1 in [6.9799, 7.0302) s. Its timer fires at
    // s1 + 200 ms; the next Interest (<= 10 ms later) re-arms it, and so on: the third timeout,
    // which marks b timed out (max-timeouts = 3), falls in [s1 + 600, s1 + 620] ms, within
    // [7.58, 7.65] s. From then on the Interests go to a, and a probe to b once a second.
    let r = run(&two_paths(ASF_1S, "100ms", "10s", "max_retries = 0\n", B_DATA_DOWN));
    let (a, b) = (per_bin(&r, "r->a"), per_bin(&r, "r->b"));
    for k in 60..75 {
        // 6.0-7.5 s: on b; a gets at most the one probe of the bin.
        assert!(b[k] == 10 && a[k] <= 1, "bin {k}: a {} b {}", a[k], b[k]);
    }
    for k in 77..100 {
        assert!(a[k] == 10 && b[k] <= 1, "bin {k}: a {} b {}", a[k], b[k]);
    }
    // With max-timeouts = 1 the first timeout marks b, at s1 + 200 ms, within [7.18, 7.231) s:
    // bins from 7.3 s on are all on a.
    let one = "{ name = \"asf\", probing-interval = \"1s\", max-timeouts = 1 }";
    let r = run(&two_paths(one, "100ms", "10s", "max_retries = 0\n", B_DATA_DOWN));
    let (a, b) = (per_bin(&r, "r->a"), per_bin(&r, "r->b"));
    assert!(b[70] == 10 && a[70] <= 1, "bin 70: a {} b {}", a[70], b[70]);
    for k in 73..100 {
        assert!(a[k] == 10 && b[k] <= 1, "bin {k}: a {} b {}", a[k], b[k]);
    }
}

#[test]
fn asf_runs_are_deterministic() {
    let text = two_paths(ASF_1S, "1s", "6s", "", "");
    assert_eq!(run(&text).summary, run(&text).summary);
}
