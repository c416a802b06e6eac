//! PCON's router side in whole scenarios (issue 3): mark-driven multipath forwarding reaching the
//! split the paper expects (§4.4 Diff_BW), and PIT marking of Interest-path congestion (§4.3
//! Cross_Opp_1 vs Cross_Opp_2).

mod common;

use common::run;
use ndnflow_sim::Results;

/// §4.4's three-path setting: r2 is the consumer's node, each path one link to a producer of
/// /data, equal 10 ms one-way delays, PCON queues, and the bandwidths given.
fn three_paths(strategy: &str, bandwidths: [&str; 3]) -> String {
    let mut s = format!(
        r#"
[simulation]
duration = "60s"
seed = 1
[nodes]
r2 = {{ strategy = "{strategy}" }}
p1 = {{}}
p2 = {{}}
p3 = {{}}
"#
    );
    for (i, bw) in bandwidths.iter().enumerate() {
        s += &format!(
            r#"
[[links]]
between = ["r2", "p{n}"]
bandwidth = "{bw}"
delay = "10ms"
queue = {{ discipline = "pcon", packets = 1000 }}
[[producers]]
node = "p{n}"
prefix = "/data"
"#,
            n = i + 1
        );
    }
    s += r#"
[[consumers]]
node = "r2"
name = "/data/a"
cc = { algorithm = "pcon" }
"#;
    s
}

/// Each producer's share of the Data that reached r2 in bins starting in [from_s, to_s).
fn data_shares(r: &Results, from_s: f64, to_s: f64) -> Vec<f64> {
    let l = &r.links;
    let mut per = [0u64; 3];
    for i in 0..l.time_s.len() {
        let name = &r.link_names[l.dir[i] as usize];
        if name.dst == "r2" && l.time_s[i] >= from_s && l.time_s[i] < to_s {
            let k: usize = name.src[1..].parse().expect("producer pN");
            per[k - 1] += l.data[i];
        }
    }
    let total: u64 = per.iter().sum();
    per.iter().map(|&n| n as f64 / total as f64).collect()
}

#[test]
fn pcon_converges_to_the_capacity_split_on_different_bandwidths() {
    // 22.5 : 6 : 1.5 Mbit/s is 75 % : 20 % : 5 % (§4.4 Diff_BW).
    let bws = ["22.5Mbps", "6Mbps", "1.5Mbps"];
    let r = run(&three_paths("pcon", bws));
    let shares = data_shares(&r, 30.0, 60.0);
    eprintln!("pcon shares {shares:?}");
    for (got, want) in shares.iter().zip([0.75, 0.20, 0.05]) {
        assert!((got - want).abs() <= 0.05, "shares {shares:?}: {got} vs {want} (5 points)");
    }
    // Pending-Interest forwarding keeps too much on the slow paths (§4.4: "only about 54%").
    let pi = run(&three_paths("pi", bws));
    let pi_shares = data_shares(&pi, 30.0, 60.0);
    eprintln!("pi shares {pi_shares:?}");
    assert!(pi_shares[0] < 0.6, "pi {pi_shares:?}");
    let (g_pcon, g_pi) = (r.summary.consumers["r2"].goodput_bps, pi.summary.consumers["r2"].goodput_bps);
    assert!(g_pcon > 1.5 * g_pi, "pcon {g_pcon} vs pi {g_pi}");
}

#[test]
fn pcon_starts_on_the_shortest_path_and_stays_there_while_it_suffices() {
    // A consumer held to 200 Interests/s (1.7 Mbit/s) never congests the first path: no mark, no
    // traffic anywhere else.
    let text = three_paths("pcon", ["10Mbps", "10Mbps", "10Mbps"])
        .replace(r#"cc = { algorithm = "pcon" }"#, r#"cc = { algorithm = "constant-rate", rate = 200 }"#);
    let r = run(&text);
    let shares = data_shares(&r, 0.0, 60.0);
    assert_eq!(shares, vec![1.0, 0.0, 0.0]);
    assert_eq!(r.summary.consumers["r2"].marks, 0);
}

/// c - r - p where the Interest direction r -> p is the bottleneck (asymmetric link: 160 kbit/s
/// up, 100 Mbit/s down) with a PCON queue of 100 packets.
fn interest_path_congestion(interest_marks: &str) -> String {
    format!(
        r#"
[simulation]
duration = "20s"
seed = 1
[nodes]
c = {{}}
r = {{}}
p = {{ interest_marks = "{interest_marks}" }}
[[links]]
between = ["c", "r"]
bandwidth = "100Mbps"
delay = "5ms"
[[links]]
between = ["r", "p"]
delay = "20ms"
forward = {{ bandwidth = "160Kbps", queue = {{ discipline = "pcon", packets = 100 }} }}
reverse = {{ bandwidth = "100Mbps" }}
[[producers]]
node = "p"
prefix = "/data"
[[consumers]]
node = "c"
name = "/data/a"
cc = {{ algorithm = "pcon" }}
"#
    )
}

#[test]
fn pit_marking_signals_interest_path_congestion_and_ignoring_it_fills_the_queue() {
    // Cross_Opp_2: marks on the Interests come back on the Data; the consumer slows down before
    // the 100-packet queue overflows.
    let marked = run(&interest_path_congestion("pit"));
    let up = &marked.summary.links["r->p"];
    let c = &marked.summary.consumers["c"];
    eprintln!("pit: marks {} drops {} consumer marks {} timeouts {}", up.marks, up.drops, c.marks, c.timeouts);
    assert!(up.marks > 0 && c.marks > 0);
    assert_eq!((up.drops, c.timeouts), (0, 0));
    // Cross_Opp_1: the same marks are ignored, so the consumer only learns from tail drops.
    let ignored = run(&interest_path_congestion("ignore"));
    let up = &ignored.summary.links["r->p"];
    let c = &ignored.summary.consumers["c"];
    eprintln!("ignore: marks {} drops {} consumer marks {} timeouts {}", up.marks, up.drops, c.marks, c.timeouts);
    assert_eq!(c.marks, 0);
    assert!(up.drops > 0 && c.timeouts > 0);
}
