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
