//! Two properties of every run, checked on small random scenarios drawn from a seeded stream:
//!
//! * the trace rows add up to the summary's totals (docs/protocols/links.md, "Traces"), for every
//!   counter column of both traces, including events at the run's final instant;
//! * every consumer's counters satisfy the conservation identity of docs/protocols/consumer.md
//!   ("Conservation"): each Interest sent is counted once, under what settled it.
//!
//! The scenarios mix single-path controllers with PTP and MPTCP consumers (which need
//! `ptp = true` on every node), lossy links, small queues, Nacking strategies, FinalBlockId,
//! stop times and retry limits, so that every way an Interest can be settled occurs.

use ndnflow_sim::scenario::toml::parse_scenario;
use ndnflow_sim::{Results, Simulation};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Scenarios per property; each runs a few simulated seconds.
const CASES: u64 = 200;

fn pick<'a>(rng: &mut ChaCha8Rng, from: &[&'a str]) -> &'a str {
    from[rng.random_range(0..from.len())]
}

/// A link between `a` and `b` with random bandwidth, delay (whole milliseconds, so that events
/// often fall on the final instant), queue and loss.
fn link(rng: &mut ChaCha8Rng, a: usize, b: usize) -> String {
    let bw = pick(rng, &["1Mbps", "2Mbps", "5Mbps", "10Mbps"]);
    let delay = rng.random_range(1..20);
    let packets = rng.random_range(3..40);
    let discipline = pick(rng, &["droptail", "codel", "pcon"]);
    let mut loss = match rng.random_range(0..3) {
        0 => format!("loss = {{ model = \"bernoulli\", p = {} }}\n", rng.random_range(1..10) as f64 / 100.0),
        _ => String::new(),
    };
    // PCON §3.5's loss detection turns every frame lost on the link into a Nack(Congestion).
    if rng.random_bool(0.25) {
        loss += &format!("loss_detection = \"{}\"\n", pick(rng, &["wireless", "overlay"]));
    }
    format!(
        "[[links]]\nbetween = [\"n{a}\", \"n{b}\"]\nbandwidth = \"{bw}\"\ndelay = \"{delay}ms\"\n\
         queue = {{ discipline = \"{discipline}\", packets = {packets} }}\n{loss}"
    )
}

fn consumer(rng: &mut ChaCha8Rng, node: usize, k: usize, multipath: bool) -> String {
    let cc = if multipath {
        pick(
            rng,
            &["{ algorithm = \"ptp\" }", "{ algorithm = \"mptcp\" }", "{ algorithm = \"mptcp\", coupling = \"olia\" }"],
        )
        .to_string()
    } else {
        match rng.random_range(0..5) {
            0 => format!("{{ algorithm = \"fixed-window\", window = {} }}", rng.random_range(1..60)),
            1 => format!("{{ algorithm = \"constant-rate\", rate = {} }}", rng.random_range(10..1500)),
            2 => "{ algorithm = \"aimd\" }".to_string(),
            3 => "{ algorithm = \"cubic\" }".to_string(),
            _ => "{ algorithm = \"pcon\" }".to_string(),
        }
    };
    let mut extra = String::new();
    if rng.random_bool(0.3) {
        extra += &format!("stop = \"{}ms\"\n", rng.random_range(600..3000));
    }
    if rng.random_bool(0.3) {
        extra += &format!("max_retries = {}\n", rng.random_range(0..3));
    }
    if rng.random_bool(0.3) {
        extra += "rto = { initial = \"100ms\", min = \"20ms\" }\n";
    }
    let start = rng.random_range(0..500);
    format!("[[consumers]]\nnode = \"n{node}\"\nname = \"/p/o{k}\"\nstart = \"{start}ms\"\ncc = {cc}\n{extra}")
}

/// A connected random network of 3-6 nodes (a random tree plus up to two more links), one
/// producer, one to three consumers; multipath scenarios turn on PTP at every node.
fn scenario(seed: u64) -> String {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let n = rng.random_range(3..7);
    let multipath = rng.random_bool(0.4);
    let strategy = pick(&mut rng, &["best-route", "multicast", "pcon"]);
    let node = if multipath { "{ ptp = true }".to_string() } else { format!("{{ strategy = \"{strategy}\" }}") };
    let mut text = format!(
        "[simulation]\nduration = \"{}ms\"\nbin = \"{}\"\nseed = {seed}\n[nodes]\n",
        rng.random_range(5..30) * 100,
        pick(&mut rng, &["10ms", "100ms", "250ms", "300ms", "1s"]),
    );
    for i in 0..n {
        text += &format!("n{i} = {node}\n");
    }
    let mut pairs: Vec<(usize, usize)> = (1..n).map(|i| (rng.random_range(0..i), i)).collect();
    for _ in 0..rng.random_range(0..3) {
        let (a, b) = (rng.random_range(0..n), rng.random_range(0..n));
        if a != b && !pairs.contains(&(a.min(b), a.max(b))) {
            pairs.push((a.min(b), a.max(b)));
        }
    }
    for &(a, b) in &pairs {
        text += &link(&mut rng, a, b);
    }
    // A link that goes down (and maybe up again): routers facing it answer Nacks.
    if rng.random_bool(0.3) {
        let (a, b) = pairs[rng.random_range(0..pairs.len())];
        let down = rng.random_range(200..2000);
        text += &format!("[[events]]\nat = \"{down}ms\"\nlink = [\"n{a}\", \"n{b}\"]\ndown = true\n");
        if rng.random_bool(0.5) {
            let up = down + rng.random_range(100..1000);
            text += &format!("[[events]]\nat = \"{up}ms\"\nlink = [\"n{a}\", \"n{b}\"]\nup = true\n");
        }
    }
    let producer = rng.random_range(0..n);
    text +=
        &format!("[[producers]]\nnode = \"n{producer}\"\nprefix = \"/p\"\npayload = {}\n", rng.random_range(0..1500));
    if rng.random_bool(0.3) {
        text += &format!("segments = {}\n", rng.random_range(1..200));
    }
    for k in 0..rng.random_range(1..4) {
        let at = (producer + 1 + rng.random_range(0..n - 1)) % n;
        text += &consumer(&mut rng, at, k, multipath);
    }
    text
}

fn run(seed: u64) -> (String, Results) {
    let text = scenario(seed);
    let parsed = parse_scenario(&text, "random.toml", None).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let results = Simulation::new(parsed).run();
    (text, results)
}

/// Sum of column `values` over the rows whose code is `index`.
fn total(codes: &[u32], values: &[u64], index: usize) -> u64 {
    codes.iter().zip(values).filter(|(c, _)| **c as usize == index).map(|(_, v)| v).sum()
}

#[test]
fn trace_rows_add_up_to_the_summary() {
    for seed in 0..CASES {
        let (text, r) = run(seed);
        let (c, l) = (&r.consumers, &r.links);
        for (i, name) in r.consumer_names.iter().enumerate() {
            let s = &r.summary.consumers[&name.id];
            let column = |values: &[u64]| total(&c.consumer, values, i);
            let sums = [
                ("interests", column(&c.interests), s.interests_sent),
                ("data", column(&c.data), s.data_received),
                ("retransmissions", column(&c.retransmissions), s.retransmissions),
                ("timeouts", column(&c.timeouts), s.timeouts),
                ("nacks", column(&c.nacks), s.nacks),
                ("losses", column(&c.losses), s.losses),
                ("marks", column(&c.marks), s.marks),
            ];
            assert!(sums.iter().all(|(_, rows, total)| rows == total), "seed {seed}: {} {sums:?}\n{text}", name.id);
        }
        for (i, name) in r.link_names.iter().enumerate() {
            let s = &r.summary.links[&name.name];
            let column = |values: &[u64]| total(&l.dir, values, i);
            let sums = [
                ("bytes", column(&l.bytes), s.bytes),
                ("packets", column(&l.packets), s.packets),
                ("interests", column(&l.interests), s.interests),
                ("data", column(&l.data), s.data),
                ("nacks", column(&l.nacks), s.nacks),
                ("drops", column(&l.drops), s.drops),
                ("marks", column(&l.marks), s.marks),
                ("losses", column(&l.losses), s.losses),
            ];
            assert!(sums.iter().all(|(_, rows, total)| rows == total), "seed {seed}: {} {sums:?}\n{text}", name.name);
        }
        // Each path of a multipath consumer: its rows' Data add up to its count in the summary.
        for (i, name) in r.path_names.iter().enumerate() {
            let paths = r.summary.consumers[&name.consumer].paths.as_ref().expect("a multipath consumer");
            let rows = total(&r.paths.path, &r.paths.data, i);
            assert_eq!(rows, paths[name.index as usize].data, "seed {seed}: path {i} of {}\n{text}", name.consumer);
        }
    }
}

#[test]
fn every_interest_sent_is_counted_once() {
    // Consumers with each term of the identity non-zero, so that none goes untested: multipath
    // transports, detected losses, late Data, FinalBlockId's forgotten Interests, Nacks, and
    // Nacked Interests pending at the end.
    let mut reached = [0; 6];
    for seed in 0..CASES {
        let (text, r) = run(seed);
        for (id, c) in &r.summary.consumers {
            // docs/protocols/consumer.md, "Conservation".
            let settled = c.data_received - c.late_data
                + c.timeouts
                + c.nacks
                + c.losses
                + c.forgotten
                + (c.pending - c.pending_nacked);
            assert_eq!(c.interests_sent, settled, "seed {seed}: consumer {id}: {c:?}\n{text}");
            let terms =
                [c.paths.is_some(), c.losses > 0, c.late_data > 0, c.forgotten > 0, c.nacks > 0, c.pending_nacked > 0];
            for (n, hit) in reached.iter_mut().zip(terms) {
                *n += usize::from(hit);
            }
        }
    }
    assert!(reached.iter().all(|&n| n >= 10), "consumers reaching each term: {reached:?}");
}

#[test]
fn an_interest_at_the_final_instant_is_in_the_last_bin() {
    // 10 Interests/s from 0 s for 2 s: sends at 0, 0.1, ..., 2.0 s, 21 in all; the one at
    // exactly 2.0 s is the run's final instant and belongs to the last bin, [1 s, 2 s]: rows of
    // 10 and 11. The producer is 1 s away: no Data comes back before the end (2 s plus the
    // transmission times).
    let text = "[simulation]\nduration = \"2s\"\nbin = \"1s\"\n[nodes]\na = {}\nb = {}\n\
        [[links]]\nbetween = [\"a\", \"b\"]\nbandwidth = \"10Mbps\"\ndelay = \"1s\"\n\
        [[producers]]\nnode = \"b\"\nprefix = \"/p\"\n\
        [[consumers]]\nnode = \"a\"\nname = \"/p/o\"\ncc = { algorithm = \"constant-rate\", rate = 10 }\n";
    let r = Simulation::new(parse_scenario(text, "t.toml", None).unwrap()).run();
    assert_eq!(r.summary.consumers["a"].interests_sent, 21);
    assert_eq!(r.consumers.interests, [10, 11]);
    assert_eq!(r.consumers.time_s, [0.0, 1.0]);
}

/// A random scenario run with `[trace] faces` and `nodes` on.
fn run_traced(seed: u64) -> (String, Results) {
    let text = scenario(seed) + "[trace]\nfaces = true\nnodes = true\n";
    let parsed = parse_scenario(&text, "random.toml", None).unwrap_or_else(|e| panic!("{e}\n{text}"));
    (text.clone(), Simulation::new(parsed).run())
}

#[test]
fn node_and_face_rows_add_up_to_the_summary_and_to_each_other() {
    for seed in 0..CASES / 2 {
        let (text, r) = run_traced(seed);
        let (n, f) = (&r.nodes, &r.faces);
        for (i, name) in r.node_names.iter().enumerate() {
            let s = &r.summary.nodes[name];
            let column = |values: &[u64]| total(&n.node, values, i);
            let sums = [
                ("in_interests", column(&n.packets.in_interests), s.in_interests),
                ("out_interests", column(&n.packets.out_interests), s.out_interests),
                ("in_data", column(&n.packets.in_data), s.in_data),
                ("out_data", column(&n.packets.out_data), s.out_data),
                ("in_nacks", column(&n.packets.in_nacks), s.in_nacks),
                ("out_nacks", column(&n.packets.out_nacks), s.out_nacks),
                ("cs_hits", column(&n.cs_hits), s.cs_hits),
                ("cs_misses", column(&n.cs_misses), s.cs_misses),
                ("aggregated", column(&n.aggregated), s.pit_aggregated),
                ("loops", column(&n.loops), s.duplicates),
                ("unsolicited_data", column(&n.unsolicited_data), s.unsolicited_data),
                ("expired", column(&n.expired), s.pit_expired),
            ];
            assert!(sums.iter().all(|(_, rows, total)| rows == total), "seed {seed}: {name} {sums:?}\n{text}");
            let last = (0..n.node.len()).rev().find(|&k| n.node[k] as usize == i).expect("a row per node");
            assert_eq!(n.pit_entries[last], s.pit_entries_at_end, "seed {seed}: {name}\n{text}");
            // A node's packets are its faces' packets: the rows of its faces, in every bin.
            let faces: Vec<u32> =
                (0..r.face_names.len() as u32).filter(|&k| r.face_names[k as usize].node == *name).collect();
            let over_faces = |values: &[u64]| faces.iter().map(|&k| total(&f.face, values, k as usize)).sum::<u64>();
            let per_face = [
                over_faces(&f.packets.in_interests),
                over_faces(&f.packets.out_interests),
                over_faces(&f.packets.in_data),
                over_faces(&f.packets.out_data),
                over_faces(&f.packets.in_nacks),
                over_faces(&f.packets.out_nacks),
            ];
            let per_node = [s.in_interests, s.out_interests, s.in_data, s.out_data, s.in_nacks, s.out_nacks];
            assert_eq!(per_face, per_node, "seed {seed}: {name}\n{text}");
        }
    }
}

#[test]
fn every_interest_a_node_receives_meets_one_fate() {
    // docs/protocols/links.md, "nodes.parquet": in a bin, each Interest received is dropped as a
    // loop or for its HopLimit, answered from the store, or handed to the strategy, which
    // forwards it, aggregates it or Nacks it; all at the instant it arrives.
    let mut reached = [0; 4];
    for seed in 0..CASES / 2 {
        let (text, r) = run_traced(seed);
        let n = &r.nodes;
        for k in 0..n.node.len() {
            let fates =
                n.loops[k] + n.hop_limit_drops[k] + n.cs_hits[k] + n.forwarded[k] + n.aggregated[k] + n.rejected[k];
            let name = &r.node_names[n.node[k] as usize];
            assert_eq!(n.packets.in_interests[k], fates, "seed {seed}: {name} at {} s\n{text}", n.time_s[k]);
            let terms = [n.loops[k], n.aggregated[k], n.rejected[k], n.cs_hits[k]];
            for (count, term) in reached.iter_mut().zip(terms) {
                *count += usize::from(term > 0);
            }
        }
        // A face's satisfied and timed-out Interests are at most those it received: each counts an
        // in-record or a store hit, and each Interest makes at most one of either.
        let f = &r.faces;
        for code in 0..r.face_names.len() {
            let settled = total(&f.face, &f.satisfied, code) + total(&f.face, &f.timed_out, code);
            assert!(
                settled <= total(&f.face, &f.packets.in_interests, code),
                "seed {seed}: {:?}\n{text}",
                r.face_names[code]
            );
        }
    }
    // Loops, aggregation and rejections occur in these scenarios; store hits need a cache, which
    // the generator does not give (the hand-derived test has them).
    assert!(reached[..3].iter().all(|&k| k >= 5), "rows reaching loops, aggregated, rejected, cs_hits: {reached:?}");
}

#[test]
fn turning_the_counter_traces_on_changes_no_other_result() {
    for seed in 0..CASES / 4 {
        let (text, traced) = run_traced(seed);
        let (_, plain) = run(seed);
        assert_eq!(plain.summary, traced.summary, "seed {seed}\n{text}");
        // As text: NaN (a bin without samples) is not equal to itself.
        assert_eq!(format!("{:?}", plain.links), format!("{:?}", traced.links), "seed {seed}");
        assert_eq!(format!("{:?}", plain.consumers), format!("{:?}", traced.consumers), "seed {seed}");
    }
}
