//! PTP end to end (Ye et al., §3-§5) on a tree: c - r - {a: 10 Mbit/s, b: 5 Mbit/s} - p, every
//! node a PTP router. The consumer finds both paths by probing and fills each with its own window,
//! where best-route keeps to one. PTP's tree experiment (§6-B, Case I) reports ~97.8 % of the
//! max flow; here the max flow is 10 + 5 = 15 Mbit/s of link bits.

use crate::common;

use common::{ptp_tree, run};
use ndnflow_sim::Results;

fn tree(cc: &str, ptp: bool, duration: &str) -> String {
    let node = if ptp { "{ ptp = true }" } else { "{}" };
    ptp_tree(|_| node.to_string(), "{ discipline = \"droptail\", packets = 100 }", cc, duration)
}

/// Link bits per second a direction carried over the run.
fn rate(r: &Results, dir: &str) -> f64 {
    r.summary.links[dir].bytes as f64 * 8.0 / r.summary.simulation.end_s
}

#[test]
fn ptp_fills_both_paths_of_the_tree() {
    let r = run(&tree("{ algorithm = \"ptp\" }", true, "20s"));
    // Each bottleneck carries at least 95 % of its bandwidth over the whole run, start-up
    // included (the paper: 97.78 % of the max flow).
    let (a, b) = (rate(&r, "a->r"), rate(&r, "b->r"));
    assert!(a >= 0.95 * 10e6, "path via a: {a}");
    assert!(b >= 0.95 * 5e6, "path via b: {b}");
    let ptp = r.summary.nodes["r"].ptp.expect("r runs PTP");
    // r sent every probe and every tagged Interest on by its tag; none fell back to the strategy.
    assert!(ptp.probes > 0 && ptp.tag_switched > 0 && ptp.tag_fallbacks == 0, "{ptp:?}");
    // One flow, one LPM: every later Interest found its FIB entry in the FAB.
    assert_eq!(ptp.fab_misses, 1);
    // The consumer reports its two paths, both in use, the one via a (10 Mbit/s) carrying about
    // twice what the one via b (5 Mbit/s) carries; the rest of its Data answered probes, at most
    // one per 100 ms of the 20 s.
    let c = &r.summary.consumers["c"];
    let paths = c.paths.as_ref().expect("a multipath consumer reports its paths");
    assert_eq!(paths.len(), 2);
    assert!(paths.iter().all(|p| p.state == "in-use" && p.srtt_ms.is_some()), "{paths:?}");
    let (hi, lo) = (paths[0].data.max(paths[1].data) as f64, paths[0].data.min(paths[1].data) as f64);
    assert!((hi / lo - 2.0).abs() < 0.2, "{hi} / {lo}");
    let probes = c.data_received - paths.iter().map(|p| p.data).sum::<u64>();
    assert!(probes > 0 && probes <= 201, "{probes} probe Data");
}

#[test]
fn each_path_is_read_back_into_its_nodes() {
    let r = run(&tree("{ algorithm = \"ptp\" }", true, "2s"));
    // Faces by file order (links c-r, r-a, r-b, a-p, b-p, then the producer): c: r 0; r: c 0,
    // a 1, b 2; a: r 0, p 1; b: r 0, p 1; p: a 0, b 1, its producer 2. The Data via a gather,
    // bottom first, p's producer face 2, a's face from p 1, r's from a 1, c's from r 0; via b,
    // r's face from b is 2.
    let mut paths: Vec<(Vec<u64>, Option<Vec<String>>)> =
        r.summary.consumers["c"].paths.clone().expect("multipath").into_iter().map(|p| (p.tags, p.nodes)).collect();
    paths.sort();
    let nodes = |names: [&str; 4]| Some(names.iter().map(|n| n.to_string()).collect::<Vec<_>>());
    assert_eq!(
        paths,
        vec![(vec![2, 1, 1, 0], nodes(["p", "a", "r", "c"])), (vec![2, 1, 2, 0], nodes(["p", "b", "r", "c"]))]
    );
}

#[test]
fn without_ptp_routers_best_route_keeps_to_one_path() {
    let r = run(&tree("{ algorithm = \"aimd\" }", false, "5s"));
    // Only retransmissions take b (NFD's best-route sends them to an unused next hop).
    let (a, b) = (r.summary.links["a->r"].data, r.summary.links["b->r"].data);
    assert!(b * 20 < a, "best-route split {a}/{b}");
    assert!(r.summary.nodes["r"].ptp.is_none());
    assert!(r.summary.consumers["c"].paths.is_none(), "a single-path consumer has no paths");
}

#[test]
fn ptp_runs_are_deterministic() {
    let text = tree("{ algorithm = \"ptp\" }", true, "3s");
    let (x, y) = (run(&text), run(&text));
    assert_eq!(x.summary, y.summary);
}

#[test]
fn a_repaired_path_is_used_again() {
    // Link a - p is down from 8 to 16 s: Nacks (NoRoute) mark the path via a failed, and the
    // consumer carries on over b. Once the link is back, probes find the path again (§4-C-2
    // replaces failed paths; nothing says for good) and it fills again. Runs are deterministic,
    // so a 16 s run is the first 16 s of the 30 s one: their difference is what [16, 30) s carried.
    let down = "[[events]]\nat = \"8s\"\nlink = [\"a\", \"p\"]\ndown = true\n\
                [[events]]\nat = \"16s\"\nlink = [\"a\", \"p\"]\nup = true\n";
    let text = |duration: &str| tree("{ algorithm = \"ptp\" }", true, duration) + down;
    let (long, short) = (run(&text("30s")), run(&text("16s")));
    assert!(long.summary.consumers["c"].nacks > 0, "the failure was seen");
    let bytes = |r: &Results| r.summary.links["a->r"].bytes as f64;
    let after = (bytes(&long) - bytes(&short)) * 8.0 / 14.0;
    // Before the fix the path stayed failed: a->r carried only probes after the repair.
    assert!(after >= 0.9 * 10e6, "a->r after the repair: {after} bit/s");
}

#[test]
fn two_consumers_probing_in_step_each_find_both_paths() {
    // Issue: probes took the next hops in a turn shared by every consumer, so two consumers
    // starting 50 ms apart (probing on one 100 ms grid, alternately) found one path each. Drawn
    // independently, each consumer's ~30 probes in 3 s reach both branches.
    let second = "[[consumers]]\nnode = \"c\"\nname = \"/p/other\"\nstart = \"50ms\"\ncc = { algorithm = \"ptp\" }\n";
    let r = run(&(tree("{ algorithm = \"ptp\" }", true, "3s") + second));
    for id in ["c#0", "c#1"] {
        let paths = r.summary.consumers[id].paths.as_ref().expect("multipath");
        assert_eq!(paths.len(), 2, "{id}: {paths:?}");
    }
}

#[test]
fn a_path_that_keeps_delivering_times_out_only_for_lost_resends() {
    // One path of four 20 ms hops whose last two run at 200 kbit/s behind 20-packet queues (PTP's
    // Scenario 5 links). Its window grows the queue and the RTT with it, 44 ms per queued Data;
    // RFC 6298 §5.3 restarts the path's timer on each Data, so while Data flow it fires only for
    // what order cannot find: a first send's loss shows when later Data come back (§5-C-1), a
    // resend's does not (the Data of a resent segment shows no order, as TCP without RACK), so
    // each timeout is a resend lost again, a segment sent three times or more. (Measured: 1
    // timeout, 7 such segments. With a deadline fixed when each Interest left, the same run timed
    // out 25 times, the RTT growth alone doing it; while resends could ride the probes, they were
    // on no path's books and the path never timed out.)
    let link = |a: &str, b: &str, bw: &str| {
        format!(
            "[[links]]\nbetween = [\"{a}\", \"{b}\"]\nbandwidth = \"{bw}\"\ndelay = \"20ms\"\n\
             queue = {{ discipline = \"droptail\", packets = 20 }}\n"
        )
    };
    let text = format!(
        "[simulation]\nduration = \"60s\"\n[nodes]\nc = {{ ptp = true }}\nr1 = {{ ptp = true }}\n\
         r2 = {{ ptp = true }}\nr3 = {{ ptp = true }}\np = {{ ptp = true }}\n{}{}{}{}\
         [[producers]]\nnode = \"p\"\nprefix = \"/p\"\n[[consumers]]\nnode = \"c\"\nname = \"/p/obj\"\n\
         cc = {{ algorithm = \"ptp\" }}\n[trace]\ninterests = true\n",
        link("c", "r1", "1400kbps"),
        link("r1", "r2", "400kbps"),
        link("r2", "r3", "200kbps"),
        link("r3", "p", "200kbps"),
    );
    let r = run(&text);
    let paths = r.summary.consumers["c"].paths.clone().expect("paths");
    assert_eq!(paths.len(), 1);
    assert!(r.summary.links["p->r3"].drops > 0, "the queue overflows: there are real losses");
    let resent_twice = r.interests.retransmissions.iter().filter(|&&n| n >= 2).count() as u64;
    assert!(paths[0].timeouts <= resent_twice, "{paths:?}, {resent_twice} segments resent twice or more");
    assert!(rate(&r, "p->r3") >= 0.95 * 200e3, "{}", rate(&r, "p->r3"));
}

#[test]
fn a_tag_over_a_broken_link_is_nacked_unless_the_router_forwards_by_name() {
    // Link r - a is down from 2 s: r's tag for the path via a names a face that is down. By
    // default (§4-C-2) r answers Nack(NoRoute) and the consumer disables the path; with
    // `invalid_tag = "forward"` (§2-D) r forwards by name via b, untagged, and the consumer never
    // learns: it keeps counting those Interests against the path via a.
    let down = "[[events]]\nat = \"2s\"\nlink = [\"r\", \"a\"]\ndown = true\n";
    let run_with = |node: &'static str| {
        let text = ptp_tree(
            move |_| node.to_string(),
            "{ discipline = \"droptail\", packets = 100 }",
            "{ algorithm = \"ptp\" }",
            "5s",
        );
        run(&(text + down))
    };
    let via_a = |r: &Results| {
        let paths = r.summary.consumers["c"].paths.clone().expect("multipath");
        assert_eq!(paths.len(), 2, "{paths:?}");
        // Below c's own face on top of the stack, r's face 1 (its links: c 0, a 1, b 2).
        paths.into_iter().find(|p| p.tags[p.tags.len() - 2] == 1).expect("the path via a")
    };
    let nack = run_with("{ ptp = true }");
    let counters = nack.summary.nodes["r"].ptp.unwrap();
    assert!(counters.tag_nacks > 0 && counters.tag_fallbacks == 0, "{counters:?}");
    assert_eq!(via_a(&nack).state, "failed");
    let forward = run_with("{ ptp = true, invalid_tag = \"forward\" }");
    let counters = forward.summary.nodes["r"].ptp.unwrap();
    assert!(counters.tag_fallbacks > 0 && counters.tag_nacks == 0, "{counters:?}");
    assert_eq!(via_a(&forward).state, "in-use");
}

#[test]
fn the_path_trace_adds_up_to_each_paths_total() {
    // One row per path and 100 ms bin from the bin its probe came back in; the rows' Data add up
    // to the path's count in the summary, and each row names the path's tag stack.
    let r = run(&tree("{ algorithm = \"ptp\" }", true, "5s"));
    let paths = r.summary.consumers["c"].paths.clone().expect("multipath");
    assert_eq!(r.path_names.len(), paths.len());
    for (k, p) in paths.iter().enumerate() {
        let name = &r.path_names[k];
        let tags: Vec<String> = p.tags.iter().map(u64::to_string).collect();
        assert_eq!((name.consumer.as_str(), name.index as usize, name.route.clone()), ("c", k, tags.join(" ")));
        let rows: Vec<usize> = (0..r.paths.path.len()).filter(|&i| r.paths.path[i] as usize == k).collect();
        assert_eq!(rows.iter().map(|&i| r.paths.data[i]).sum::<u64>(), p.data, "path {k}");
        // Both paths stay in use (two paths, N = 10): every row says so; the last window is the summary's.
        assert!(rows.iter().all(|&i| r.paths.in_use[i] == 1 && r.paths.failed[i] == 0));
        assert_eq!(r.paths.window[*rows.last().unwrap()], p.window);
        // One row per 100 ms bin from the bin the path was found in to the end of the 5 s run.
        let first = r.paths.time_s[rows[0]];
        assert_eq!(rows.len(), ((5.0 - first) / 0.1).round() as usize, "found in the bin at {first} s");
    }
}

#[test]
fn a_timed_out_flight_is_resent_at_once() {
    // 1,000 segments through 60-packet queues: slow start overflows them near 1 s, and each path
    // times out with a flight behind the Interest that timed out. As TCP after its timer, the
    // rest of that flight is lost and resent as the new window allows (mpccp.rs). Before, it
    // stayed in flight on the path, which had no room for anything else, and came back one
    // Interest per path timeout at 1, 2, 4, 8 and 16 s: 21 segments were still missing at 30 s.
    // The object is 1,000 x 8,192 bits of payload, 0.55 s at the 15 Mbit/s of both paths; the
    // loss round and slow start again take a few RTTs of at most 0.15 s more.
    let queue = "{ discipline = \"droptail\", packets = 60 }";
    let r = run(&ptp_tree(|_| "{ ptp = true }".to_string(), queue, "{ algorithm = \"ptp\" }\nsegments = 1000", "30s"));
    let c = &r.summary.consumers["c"];
    assert!(c.finished && c.pending == 0, "{c:?}");
    assert!(c.end_s < 3.0, "finished at {} s", c.end_s);
    assert!(c.timeouts > 0 && c.losses > c.timeouts, "the run went through timed-out flights: {c:?}");
}
