//! CHoPCoP (the PTP paper's Sol.3: RFA routers + CHoPCoP, §6) end to end.

use crate::common;

use common::{ptp_tree, run};
use ndnflow_sim::Results;

/// PTP's tree (as in ptp.rs), r forwarding with RFA, `queue` on every link, a CHoPCoP consumer.
fn tree(queue: &str, duration: &str) -> String {
    let node = |n: &str| if n == "r" { "{ strategy = \"rfa\" }" } else { "{}" }.to_string();
    ptp_tree(node, queue, "{ algorithm = \"chopcop\" }", duration)
}

/// Link bits per second a direction carried over the run.
fn rate(r: &Results, dir: &str) -> f64 {
    r.summary.links[dir].bytes as f64 * 8.0 / r.summary.simulation.end_s
}

#[test]
fn rfa_and_chopcop_use_both_paths_of_the_tree_and_a_deeper_marking_band_fills_more() {
    // The PTP paper §6-B: a pending-Interest strategy "will overload the paths with lower
    // bandwidth first", and with CHoPCoP "the backlogging queue helps in compensating the PI
    // metric". RFA splits by pending Interests, so the 5 Mbit/s path via b fills first and its
    // marks halve the one window of the consumer, leaving the 10 Mbit/s path via a short: the
    // total stays below the max flow of 15 Mbit/s. A deeper marking band lets b's queue hold
    // more Interests' Data before the halving, so a carries more. (Sol.3 in the paper: 86.89 % of
    // the max flow; here 60..180 packets give 90.8 %, 20..60 packets 73.6 %.)
    let deep = run(&tree("{ discipline = \"rem\", packets = 200, min_th = 60, max_th = 180 }", "20s"));
    let (a, b) = (rate(&deep, "a->r"), rate(&deep, "b->r"));
    assert!(b >= 0.95 * 5e6, "the slower path is full: {b}");
    assert!(a > 0.5 * 10e6 && a < 0.95 * 10e6, "the faster path is used but not full: {a}");
    assert!((0.85 * 15e6..0.95 * 15e6).contains(&(a + b)), "total {}", a + b);
    // The congestion signal was the marks: no Interest or Data dropped on the bottlenecks.
    let marks = deep.summary.links["a->r"].marks + deep.summary.links["b->r"].marks;
    assert!(marks > 0 && deep.summary.consumers["c"].marks == marks, "{marks}");
    assert_eq!(deep.summary.links["a->r"].drops + deep.summary.links["b->r"].drops, 0);

    let shallow = run(&tree("{ discipline = \"rem\", packets = 200, min_th = 20, max_th = 60 }", "20s"));
    let total = rate(&shallow, "a->r") + rate(&shallow, "b->r");
    assert!(total < a + b - 1e6, "shallow {total} vs deep {}", a + b);
}

#[test]
fn chopcop_runs_are_deterministic() {
    let text = tree("{ discipline = \"rem\", packets = 200, min_th = 5, max_th = 15 }", "3s");
    let (x, y) = (run(&text), run(&text));
    assert!(x.summary.links["b->r"].marks > 0);
    assert_eq!(format!("{:?}", x.summary), format!("{:?}", y.summary));
}

/// Two CHoPCoP consumers, /A/obj at c1 (1 ms from r1) and /B/obj at c2 (10 ms from r1), share the
/// 10 Mbit/s link r1 - r2 towards the producers of /A and /B at p.
fn shared(shaper: &str, duration: &str) -> String {
    let link = |a: &str, b: &str, bw: &str, delay: &str, extra: &str| {
        format!(
            "[[links]]\nbetween = [\"{a}\", \"{b}\"]\nbandwidth = \"{bw}\"\ndelay = \"{delay}\"\n\
             queue = {{ discipline = \"rem\", packets = 200 }}\n{extra}"
        )
    };
    format!(
        "[simulation]\nduration = \"{duration}\"\n[nodes]\nc1 = {{}}\nc2 = {{}}\nr1 = {{}}\nr2 = {{}}\np = {{}}\n{}{}{}{}\
         [[producers]]\nnode = \"p\"\nprefix = \"/A\"\n[[producers]]\nnode = \"p\"\nprefix = \"/B\"\n\
         [[consumers]]\nnode = \"c1\"\nname = \"/A/obj\"\ncc = {{ algorithm = \"chopcop\" }}\n\
         [[consumers]]\nnode = \"c2\"\nname = \"/B/obj\"\ncc = {{ algorithm = \"chopcop\" }}\n",
        link("c1", "r1", "100Mbps", "1ms", ""),
        link("c2", "r1", "100Mbps", "10ms", ""),
        link("r1", "r2", "10Mbps", "5ms", shaper),
        link("r2", "p", "100Mbps", "1ms", ""),
    )
}

/// c1's share of the two consumers' goodput.
fn share_of_c1(r: &Results) -> f64 {
    let (x, y) = (r.summary.consumers["c1"].goodput_bps, r.summary.consumers["c2"].goodput_bps);
    x / (x + y)
}

#[test]
fn fair_share_shaping_splits_a_bottleneck_equally_between_two_flows() {
    // c1's RTT (about 14 ms) is under half of c2's (about 32 ms), so two AIMD windows alone share
    // the bottleneck in c1's favour. The per-flow shaper on r1 -> r2 releases the two prefixes'
    // Interests in turn at the rate that fills the 10 Mbit/s Data direction: each gets half as
    // long as both keep Interests waiting. The paper reports 49:51 for Sol.3 (§6-D). Per-flow
    // queues only delay by default (FISP), so both stay backlogged until one fills its 100.
    let fair = run(&shared("shaper = { flows = 1 }\n", "20s"));
    let share = share_of_c1(&fair);
    assert!((0.48..=0.52).contains(&share), "c1's share {share}");
    // Together they fill the link: 10 Mbit/s x 1024 / 1080 payload bytes per Data wire byte =
    // 9.48 Mbit/s of goodput; over 95 % of it.
    let total = fair.summary.consumers["c1"].goodput_bps + fair.summary.consumers["c2"].goodput_bps;
    assert!(total > 0.95 * 9.48e6, "{total}");

    // The same shaper with one FIFO (Wang et al.) and no shaper at all leave c1 more than 55 %.
    for shaper in ["shaper = { target = \"20ms\" }\n", ""] {
        let share = share_of_c1(&run(&shared(shaper, "20s")));
        assert!(share > 0.55, "{shaper:?}: c1's share {share}");
    }
    // Per-flow queues under CoDel's 5 ms target: a drop halves c2's window, its queue runs dry
    // for most of its longer RTT, and round robin has nothing of c2 to serve (54:46).
    let share = share_of_c1(&run(&shared("shaper = { flows = 1, drop = \"codel\" }\n", "20s")));
    assert!(share > 0.52, "CoDel per flow: c1's share {share}");
}

#[test]
fn the_keys_parse_with_their_defaults_and_bad_values_are_named() {
    use ndnflow_core::app::cc::chopcop_defaults;
    use ndnflow_core::link::RemConfig;
    use ndnflow_sim::scenario::model::{CcConfig, QueueLimit, QueueSpec};
    use ndnflow_sim::scenario::toml::parse_scenario;
    let parse = |queue: &str, shaper: &str| {
        let text = tree(queue, "1s").replace("queue = ", &format!("{shaper}queue = "));
        parse_scenario(&text, "t.toml", None).map_err(|e| e.to_string())
    };
    let s = parse("{ discipline = \"rem\" }", "shaper = { flows = 2 }\n").unwrap();
    assert_eq!(s.consumers[0].cc, CcConfig::Chopcop(chopcop_defaults()));
    let dir = &s.links[1].ab;
    // A REM queue without a limit holds ns-3's DropTail default, 100 packets.
    assert_eq!(dir.queue, QueueSpec::Rem { limit: QueueLimit::Packets(100), rem: RemConfig::default() });
    assert_eq!(dir.shaper.unwrap().flow_components, Some(2));
    let s = parse("{ discipline = \"rem\", packets = 50, min_th = 5, max_th = 15, max_p = 0.2, weight = 0.002 }", "")
        .unwrap();
    let want = RemConfig { min_th: 5.0, max_th: 15.0, max_p: 0.2, weight: 0.002 };
    assert_eq!(s.links[0].ba.queue, QueueSpec::Rem { limit: QueueLimit::Packets(50), rem: want });

    for (queue, shaper, says) in [
        ("{ discipline = \"rem\", min_th = 30, max_th = 30 }", "", "max_th (30) must be above min_th (30)"),
        ("{ discipline = \"rem\", max_th = 10 }", "", "max_th (10) must be above min_th (20)"),
        ("{ discipline = \"rem\", max_p = 1.5 }", "", "must be above 0 and at most 1, found 1.5"),
        ("{ discipline = \"rem\", min_th = -1 }", "", "at least 0, found -1"),
        ("{ discipline = \"droptail\", min_th = 5 }", "", "\"min_th\" only applies to discipline = \"rem\""),
        ("{ discipline = \"rem\", target = \"5ms\" }", "", "only applies to discipline = \"codel\""),
        ("{ discipline = \"rem\" }", "shaper = { flows = 0 }\n", "flows"),
        ("{ discipline = \"rem\" }", "shaper = { flows = 1, drop = \"red\" }\n", "shaper.drop: unknown value \"red\""),
    ] {
        let err = parse(queue, shaper).unwrap_err();
        assert!(err.contains(says), "{queue} {shaper}: {err}");
    }
}
