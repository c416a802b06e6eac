//! Hop-by-hop Interest shaping (PCON §4.6's baseline, after Wang et al.) in whole scenarios: the
//! shaper told the bottleneck's capacity keeps the Data queue empty without timeouts
//! (Shaper_Ideal), a shaper told too little caps the consumer at what it was told, and a shaper that
//! trusts the local link of an overlay (Shaper_Overlay) fills the underlay's queue until it drops.

use crate::common;

use common::{goodput, run};
use ndnflow_sim::Results;

/// c - r - p: c - r is 100 Mbit/s and 5 ms; r - p is 10 ms one way, its other fields given by
/// `rp` (TOML lines). The consumer is PCON-CS with PCON's fixed 1 s RTO and fetches for 30 s.
fn line(rp: &str) -> String {
    format!(
        r#"
[simulation]
duration = "30s"
seed = 5
[nodes]
c = {{}}
r = {{}}
p = {{}}
[[links]]
between = ["c", "r"]
bandwidth = "100Mbps"
delay = "5ms"
[[links]]
between = ["r", "p"]
delay = "10ms"
{rp}
[[producers]]
node = "p"
prefix = "/data"
[[consumers]]
node = "c"
name = "/data/a"
cc = {{ algorithm = "pcon" }}
rto = {{ initial = "1s", min = "1s", max = "1s" }}
"#
    )
}

/// Mean wire size of what crossed `dir` (Data only on the Data direction), bytes.
fn mean_size(r: &Results, dir: &str) -> f64 {
    let l = &r.summary.links[dir];
    l.bytes as f64 / l.packets as f64
}

/// Mean of the end-of-bin queue occupancy (packets) of `dir` over bins starting in [from_s, to_s),
/// and its largest value.
fn queue_packets(r: &Results, dir: &str, from_s: f64, to_s: f64) -> (f64, u64) {
    let l = &r.links;
    let rows: Vec<usize> = (0..l.time_s.len())
        .filter(|&i| r.link_names[l.dir[i] as usize].name == dir && l.time_s[i] >= from_s && l.time_s[i] < to_s)
        .collect();
    let sum: u64 = rows.iter().map(|&i| l.queue_packets[i]).sum();
    (sum as f64 / rows.len() as f64, rows.iter().map(|&i| l.queue_packets[i]).max().unwrap_or(0))
}

#[test]
fn shaper_ideal_fills_the_link_with_an_empty_data_queue_and_no_timeouts() {
    let text = line(
        r#"bandwidth = "10Mbps"
forward = { shaper = { capacity = "10Mbps" } }"#,
    );
    let r = run(&text);
    let c = &r.summary.consumers["c"];
    let data = mean_size(&r, "p->r");
    let (mean_q, max_q) = queue_packets(&r, "p->r", 2.0, 30.0);
    let g = goodput(&r, "c", 2.0, 30.0);
    let up = &r.summary.links["r->p"];
    eprintln!(
        "ideal: goodput {g:.0} (summary {:.0}), data {data:.1} B, p->r queue mean {mean_q:.2} max {max_q}, \
         shaper drops {}, nacks {}, timeouts {}, rtt avg {:?} max {:?}",
        c.goodput_bps, up.shaper_drops, c.nacks, c.timeouts, c.rtt_avg_ms, c.rtt_max_ms
    );
    // The link carries Data at 10 Mbit/s x payload / wire size of content at most; the shaper
    // plans 0.98 of it (headroom) and gets it.
    let ceiling = 10e6 * 1024.0 / data;
    assert!((g - 0.98 * ceiling).abs() < 0.01 * ceiling, "goodput {g:.0} vs 0.98 x {ceiling:.0}");
    assert!(mean_q < 1.0 && max_q <= 2, "p->r queue mean {mean_q} max {max_q}");
    assert_eq!(c.timeouts, 0);
    assert_eq!(r.summary.links["p->r"].drops, 0);
    // The consumer is held back by the shaper's Nacks: each drop is one marked Nack at r, passed on
    // to the consumer, which retransmits it.
    assert!(up.shaper_drops > 0);
    assert_eq!(up.drops, up.shaper_drops);
    assert_eq!(r.summary.nodes["r"].in_nacks, up.shaper_drops);
    assert_eq!(c.nacks, up.shaper_drops);
    assert!(c.retransmissions >= c.nacks);
    // Deterministic.
    assert_eq!(format!("{:?}", run(&text).summary), format!("{:?}", r.summary));
    // Data and Nacks are not shaped: a shaper on p -> r as well (it carries only Data) changes
    // nothing.
    let both =
        run(&text.replace("forward = { shaper = { capacity = \"10Mbps\" } }", "shaper = { capacity = \"10Mbps\" }"));
    assert_eq!(format!("{:?}", both.summary), format!("{:?}", r.summary));
}

#[test]
fn a_shaper_told_5_mbps_caps_the_consumer_at_5_mbps() {
    let r = run(&line(
        r#"bandwidth = "10Mbps"
forward = { shaper = { capacity = "5Mbps" } }"#,
    ));
    let c = &r.summary.consumers["c"];
    let data = mean_size(&r, "p->r");
    let g = goodput(&r, "c", 2.0, 30.0);
    eprintln!("5 Mbit/s: goodput {g:.0}, data {data:.1} B, nacks {}, timeouts {}", c.nacks, c.timeouts);
    // §4.6: "when the shaper assumes a link capacity of 5 Mbps, the maximum consumer throughput
    // will be 5 Mbps" (x 0.98 headroom here).
    let expected = 5e6 * 0.98 * 1024.0 / data;
    assert!((g - expected).abs() / expected < 0.02, "goodput {g:.0} vs {expected:.0}");
    assert_eq!(c.timeouts, 0);
}

#[test]
fn shaper_overlay_trusts_the_local_link_and_overflows_the_underlay() {
    // PCON §4.6's UDP tunnel: 20 Mbit/s locally, a 10 Mbit/s underlay hop with a 250 KB drop-tail
    // queue behind it. The shaper (no capacity given) assumes the local 20 Mbit/s.
    let r = run(&line(
        r#"bandwidth = "20Mbps"
underlay = [{ bandwidth = "10Mbps", delay = "5ms", queue = { discipline = "droptail", bytes = "250KB" } }]
forward = { shaper = {} }"#,
    ));
    let c = &r.summary.consumers["c"];
    let under = &r.summary.links["p->r/u1"];
    let (mean_q, max_q) = queue_packets(&r, "p->r/u1", 2.0, 30.0);
    let g = goodput(&r, "c", 2.0, 30.0);
    eprintln!(
        "overlay: goodput {g:.0}, underlay queue mean {mean_q:.1} max {max_q}, underlay drops {}, \
         shaper drops {}, timeouts {}, rtt avg {:?} max {:?}",
        under.drops, r.summary.links["r->p"].shaper_drops, c.timeouts, c.rtt_avg_ms, c.rtt_max_ms
    );
    assert!(max_q > 150, "the underlay queue must build up (max {max_q})");
    assert!(under.drops > 0 && c.timeouts > 0);
    // "Periodic bursts of timeouts": the bins with timeouts form separate episodes (a new one
    // starts after more than 1 s without any).
    let t = &r.consumers;
    let bins: Vec<f64> = (0..t.time_s.len()).filter(|&i| t.timeouts[i] > 0).map(|i| t.time_s[i]).collect();
    let starts: Vec<f64> =
        bins.iter().enumerate().filter(|&(k, &x)| k == 0 || x - bins[k - 1] > 1.0).map(|(_, &x)| x).collect();
    eprintln!("timeout episodes start at {starts:?} s");
    assert!(starts.len() >= 3, "timeout episodes {starts:?}");

    // Shaper_Ideal on the same tunnel: told the underlay's 10 Mbit/s, the shaper keeps the
    // underlay queue short and nothing times out.
    let ideal = run(&line(
        r#"bandwidth = "20Mbps"
underlay = [{ bandwidth = "10Mbps", delay = "5ms", queue = { discipline = "droptail", bytes = "250KB" } }]
forward = { shaper = { capacity = "10Mbps" } }"#,
    ));
    let c = &ideal.summary.consumers["c"];
    let (mean_q, max_q) = queue_packets(&ideal, "p->r/u1", 2.0, 30.0);
    let g = goodput(&ideal, "c", 2.0, 30.0);
    eprintln!(
        "overlay, ideal: goodput {g:.0}, underlay queue mean {mean_q:.2} max {max_q}, drops {}, timeouts {}",
        ideal.summary.links["p->r/u1"].drops, c.timeouts
    );
    assert!(mean_q < 1.0 && max_q <= 2, "underlay queue mean {mean_q} max {max_q}");
    assert_eq!((ideal.summary.links["p->r/u1"].drops, c.timeouts), (0, 0));
}
