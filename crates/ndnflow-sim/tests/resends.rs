//! Where a multipath consumer's resends go (PTP §5-C-1: "the lost packets are prioritized for
//! re-transmission on the same in-use path"): on a path it knows, never as a probe while one is
//! in use. A probe takes a path hop by hop at random, and on a network with a loop it comes back
//! as a Nack(Duplicate) or is lost; a resend riding the next probe may loop again, and the
//! object's last segments then wait a timeout each (measured before the rule: PTP here ended at
//! 4.7, 4.8, 2.5 and 7.2 s over seeds 1-4, 1.9-3.4 s with it; dpccp-mp4's consumers idled up to
//! 14.6 s at their ends).

use crate::common;

use common::run;

/// c - r, r - {a, b} at 10 Mbit/s, a - b (the loop: a's next hops towards p are p and b, and b's
/// are p and a), a, b - p; every node a PTP router (and DPCCP's); 3,000 segments for consumer c.
fn looped_diamond(cc: &str, seed: u64) -> String {
    let link = |x: &str, y: &str, bw: &str| {
        format!("[[links]]\nbetween = [\"{x}\", \"{y}\"]\nbandwidth = \"{bw}\"\ndelay = \"5ms\"\n")
    };
    let mut s = format!("[simulation]\nduration = \"30s\"\nseed = {seed}\n[nodes]\n");
    for n in ["c", "r", "a", "b", "p"] {
        s += &format!("{n} = {{ ptp = true, dpccp = true }}\n");
    }
    for (x, y, bw) in [
        ("c", "r", "100Mbps"),
        ("r", "a", "10Mbps"),
        ("r", "b", "10Mbps"),
        ("a", "b", "10Mbps"),
        ("a", "p", "100Mbps"),
        ("b", "p", "100Mbps"),
    ] {
        s += &link(x, y, bw);
    }
    s += "[[producers]]\nnode = \"p\"\nprefix = \"/p\"\n";
    s += &format!("[[consumers]]\nnode = \"c\"\nname = \"/p/obj\"\nsegments = 3000\ncc = {cc}\n");
    s + "[trace]\ninterests = true\n"
}

/// Over seeds 1-4: some segments are resent (the probes do loop, or the queues overflow: the
/// rule is exercised), and the last Interest of every resent segment went on a path (the
/// per-segment trace names its path; a probe has none), so the consumer finishes.
fn resends_stay_on_paths(cc: &str) {
    for seed in 1..=4 {
        let r = run(&looped_diamond(cc, seed));
        let t = &r.interests;
        let resent: Vec<usize> = (0..t.segment.len()).filter(|&k| t.retransmissions[k] > 0).collect();
        assert!(!resent.is_empty(), "{cc}, seed {seed}: nothing was resent");
        let as_probes = resent.iter().filter(|&&k| t.path[k].is_nan()).count();
        assert_eq!(
            as_probes,
            0,
            "{cc}, seed {seed}: {as_probes} of {} resent segments went last as a probe",
            resent.len()
        );
        assert!(r.summary.consumers["c"].finished, "{cc}, seed {seed}");
    }
}

#[test]
fn ptp_resends_go_on_in_use_paths() {
    resends_stay_on_paths("{ algorithm = \"ptp\" }");
}

#[test]
fn dpccp_resends_go_on_subflows() {
    resends_stay_on_paths("{ algorithm = \"dpccp\" }");
}
