//! SMIC's consumer end to end (docs/protocols/smic.md#consumer), `smic = true` on every node:
//!
//! * On the diamond c - r - {a 10 Mbit/s, b 5 Mbit/s} - p of `common::ptp_tree` the path ids
//!   split as the hash says (2, 4, 5, 6, 8, 9, 10 to a; 0, 1, 3, 7 to b: fw/ext/smic_tests.rs),
//!   merge into two sub-flows, and fill both paths; ICP on the same network fills only a.
//! * At a shared drop-tail bottleneck with a single-path ICP flow, the two sub-flows find that
//!   they share it (Algorithm 1's S_r) and take about one flow's share, where uncoupled windows
//!   take about two. Readings fixed before measuring: the fluid model of the increase
//!   `1 / (n^2 w)` with n = 2 gives one TCP flow's share (ratio 1), uncoupled windows two (ratio
//!   2); "about one" is a median over seeds 1-4 between 0.7 and 1.4, "about two" above 1.6. The
//!   consumers delay each send by up to 0.9 ms (a Data's service time at 10 Mbit/s), the
//!   randomness that keeps a deterministic drop-tail run from allocating drops by traffic phase
//!   (tests/mptcp.rs explains it).

use crate::common;

use common::run;
use ndnflow_sim::Results;

fn data_mbps(r: &Results, link: &str, secs: f64) -> f64 {
    r.summary.links[link].bytes as f64 * 8.0 / secs / 1e6
}

#[test]
fn on_the_diamond_the_subflows_fill_both_paths() {
    let smic = run(&common::ptp_tree(|_| "{ smic = true }".into(), "{}", r#"{ algorithm = "smic" }"#, "20s"));
    // Over 20 s, start-up included, each path's Data link carries at least 90 % of its rate.
    let (a, b) = (data_mbps(&smic, "a->r", 20.0), data_mbps(&smic, "b->r", 20.0));
    assert!(a > 9.0 && b > 4.5, "a {a:.2} b {b:.2} Mbit/s");
    let paths = smic.summary.consumers["c"].paths.as_ref().expect("a multipath consumer reports its paths");
    let ids: Vec<&[u64]> = paths.iter().map(|p| p.tags.as_slice()).collect();
    assert_eq!(ids, vec![&[2, 4, 5, 6, 8, 9, 10][..], &[0, 1, 3, 7][..]]);
    assert!(paths.iter().all(|p| p.state == "in-use"));
    // Path ids are not a tag stack: no nodes are read from them.
    assert!(paths.iter().all(|p| p.nodes.is_none()), "{paths:?}");

    let icp = run(&common::ptp_tree(|_| "{ smic = true }".into(), "{}", r#"{ algorithm = "icp" }"#, "20s"));
    // Best route sends ICP's Interests to a, all but a retransmission now and then (NFD's
    // best-route tries another next hop for a retransmission): under 1 % go over b.
    let (to_a, to_b) = (icp.summary.links["a->r"].data, icp.summary.links["b->r"].data);
    assert!(to_b * 100 < to_a, "a {to_a} b {to_b} Data");
}

/// c's two paths r - a - m and r - b - m meet at m, whose link to p (10 Mbit/s, drop-tail of
/// 50) is the bottleneck it shares with d's single path; every path 15 ms from m.
fn shared(cc: &str, seed: u64) -> String {
    let link = |a: &str, b: &str, bw: &str, delay: &str| {
        format!(
            "[[links]]\nbetween = [\"{a}\", \"{b}\"]\nbandwidth = \"{bw}\"\ndelay = \"{delay}\"\n\
             queue = {{ discipline = \"droptail\", packets = 50 }}\n"
        )
    };
    let route = |n: &str, h: &str| format!("[[routes]]\nnode = \"{n}\"\nprefix = \"/p\"\nnexthop = \"{h}\"\n");
    let nodes: String =
        ["c", "d", "r", "a", "b", "m", "p"].iter().map(|n| format!("{n} = {{ smic = true }}\n")).collect();
    let mut s = format!("[simulation]\nduration = \"60s\"\nrouting = \"none\"\nseed = {seed}\n[nodes]\n{nodes}");
    for (a, b, bw, delay) in [
        ("c", "r", "100Mbps", "5ms"),
        ("r", "a", "100Mbps", "5ms"),
        ("r", "b", "100Mbps", "5ms"),
        ("a", "m", "100Mbps", "5ms"),
        ("b", "m", "100Mbps", "5ms"),
        ("d", "m", "100Mbps", "15ms"),
        ("m", "p", "10Mbps", "5ms"),
    ] {
        s += &link(a, b, bw, delay);
    }
    for (n, h) in [("c", "r"), ("r", "a"), ("r", "b"), ("a", "m"), ("b", "m"), ("d", "m"), ("m", "p")] {
        s += &route(n, h);
    }
    s += "[[producers]]\nnode = \"p\"\nprefix = \"/p\"\n";
    for (node, cc) in [("c", cc), ("d", r#"{ algorithm = "icp", rto = "rfc6298" }"#)] {
        s += &format!("[[consumers]]\nnode = \"{node}\"\nname = \"/p/{node}\"\nsend_jitter = \"0.9ms\"\ncc = {cc}\n");
    }
    s
}

/// goodput(c) / goodput(d) on seeds 1-4, sorted, and whether c's sub-flows found the sharing on
/// each.
fn ratios(cc: &str) -> (Vec<f64>, Vec<bool>) {
    let mut out: Vec<(f64, bool)> = (1..=4)
        .map(|seed| {
            let r = run(&shared(cc, seed));
            let c = &r.summary.consumers["c"];
            let paths = c.paths.as_deref().unwrap_or_default();
            let found = paths.len() == 2 && paths.iter().all(|p| p.sharing == Some(2));
            (c.goodput_bps / r.summary.consumers["d"].goodput_bps, found)
        })
        .collect();
    out.sort_by(|x, y| x.0.total_cmp(&y.0));
    out.into_iter().unzip()
}

#[test]
fn at_a_shared_bottleneck_algorithm_1_takes_about_one_flows_share() {
    let (smic, found) = ratios(r#"{ algorithm = "smic" }"#);
    assert!(found.iter().all(|f| *f), "every seed finds the shared bottleneck: {found:?}");
    let median = (smic[1] + smic[2]) / 2.0;
    assert!((0.7..=1.4).contains(&median), "SMIC / ICP {smic:?}");
    let (uncoupled, _) = ratios(r#"{ algorithm = "smic", coupling = "uncoupled" }"#);
    let median_uncoupled = (uncoupled[1] + uncoupled[2]) / 2.0;
    assert!(median_uncoupled > 1.6, "uncoupled / ICP {uncoupled:?}");
}

/// The paths trace's `sharing` column (paths.parquet): at the shared bottleneck each of c's two
/// sub-flows is alone in its set (|S_r| = 1) in the first bin, before any timeout can have grouped
/// it, and in the last bin is grouped with the other (2, as the summary says); a transport
/// without Algorithm 1's sets (PTP) writes NaN in every row.
#[test]
fn the_paths_trace_shows_when_subflows_group() {
    let r = run(&shared(r#"{ algorithm = "smic" }"#, 1));
    let p = &r.paths;
    for k in 0..2 {
        let rows: Vec<usize> = (0..p.time_s.len()).filter(|&i| p.index[i] == k).collect();
        let (first, last) = (rows[0], rows[rows.len() - 1]);
        assert_eq!((p.sharing[first], p.sharing[last]), (1.0, 2.0), "sub-flow {k}");
        // The last row names the route the summary lists for the sub-flow.
        let route = |i: usize| r.path_names[p.path[i] as usize].route.clone();
        let tags = &r.summary.consumers["c"].paths.as_ref().unwrap()[k as usize].tags;
        let listed = tags.iter().map(u64::to_string).collect::<Vec<_>>().join(" ");
        assert_eq!(route(last), listed, "sub-flow {k}");
    }
    let ptp = run(&common::ptp_tree(
        |_| "{ ptp = true }".to_string(),
        "{ discipline = \"droptail\", packets = 100 }",
        "{ algorithm = \"ptp\" }",
        "5s",
    ));
    assert!(!ptp.paths.sharing.is_empty() && ptp.paths.sharing.iter().all(|s| s.is_nan()));
}

/// A catalog consumer that starts a new flow per object numbers its sub-flows, and their Data
/// counts, from zero again; the paths trace keeps counting (`Consumer::traced_paths`). Before,
/// the first bin after an object's start subtracted the old flow's count from the new one's and
/// wrapped to about 1.8e19. Now, bin by bin, the path rows' Data so far never exceed the
/// consumer's (a Data on a path is a Data received), and at the end they are the consumer's.
#[test]
fn the_paths_trace_counts_on_across_each_objects_new_flow() {
    let text = shared(r#"{ algorithm = "smic" }"#, 1).replace(
        "name = \"/p/c\"\n",
        "name = \"/p/c\"\nsegments = 2000\ncatalog = { objects = 1000, alpha = 1.0, restart = true, gap = \"100ms\" }\n",
    );
    let r = run(&text);
    let c = &r.summary.consumers["c"];
    assert!(c.catalog.as_ref().expect("a catalog consumer").objects_completed >= 5, "{:?}", c.catalog);
    let code = r.consumer_names.iter().position(|n| n.id == "c").unwrap() as u32;
    // Bin by bin over the consumer's rows: a bin may have no path row (between two objects,
    // before the new flow's first sub-flow), and the Data of the old flow's last bin then show
    // in the new flow's first row at the same index.
    let (mut consumer_so_far, mut paths_so_far) = (0, 0);
    for i in (0..r.consumers.time_s.len()).filter(|&i| r.consumers.consumer[i] == code) {
        let t = r.consumers.time_s[i];
        consumer_so_far += r.consumers.data[i];
        paths_so_far +=
            (0..r.paths.time_s.len()).filter(|&j| r.paths.time_s[j] == t).map(|j| r.paths.data[j]).sum::<u64>();
        assert!(paths_so_far <= consumer_so_far, "at {t} s: paths {paths_so_far} > consumer {consumer_so_far}");
    }
    // Every Data of c arrives on one of its sub-flows, and the last object's flow has as many
    // sub-flows as the earlier ones, so no old flow's last Data are left unreported: all of them.
    assert_eq!(paths_so_far, c.data_received);
    // Row k of the last bin names the route of the last object's k-th sub-flow, whichever
    // sub-flow had index k in the objects before.
    let end = *r.paths.time_s.last().unwrap();
    for (k, listed) in c.paths.as_ref().unwrap().iter().enumerate() {
        let row =
            (0..r.paths.time_s.len()).find(|&j| r.paths.time_s[j] == end && r.paths.index[j] == k as u64).unwrap();
        let tags = listed.tags.iter().map(u64::to_string).collect::<Vec<_>>().join(" ");
        assert_eq!(r.path_names[r.paths.path[row] as usize].route, tags, "sub-flow {k}");
    }
}
