//! The partitioned run against the sequential one, on scenarios whose counts can be worked out.

use super::*;
use crate::scenario::toml::parse_scenario;

/// Two halves joined by one link a-r - b-r (`cut_delay`): in each half a consumer fetches
/// from its own half's producer, and a-c also fetches across, from b-p. Every link is 100 Mbit/s;
/// the access links have a 1 ms delay. Two seconds.
fn halves(cut_delay: &str) -> Scenario {
    let text = format!(
        "[simulation]\nduration = \"2s\"\nseed = 3\n\
         [nodes]\na-c = {{}}\na-r = {{}}\na-p = {{}}\nb-c = {{}}\nb-r = {{}}\nb-p = {{}}\n\
         [[links]]\nbetween = [\"a-c\", \"a-r\"]\nbandwidth = \"100Mbps\"\ndelay = \"1ms\"\n\
         [[links]]\nbetween = [\"a-r\", \"a-p\"]\nbandwidth = \"100Mbps\"\ndelay = \"1ms\"\n\
         [[links]]\nbetween = [\"b-c\", \"b-r\"]\nbandwidth = \"100Mbps\"\ndelay = \"1ms\"\n\
         [[links]]\nbetween = [\"b-r\", \"b-p\"]\nbandwidth = \"100Mbps\"\ndelay = \"1ms\"\n\
         [[links]]\nbetween = [\"a-r\", \"b-r\"]\nbandwidth = \"100Mbps\"\ndelay = \"{cut_delay}\"\n\
         [[producers]]\nnode = \"a-p\"\nprefix = \"/a\"\npayload = 1000\n\
         [[producers]]\nnode = \"b-p\"\nprefix = \"/b\"\npayload = 1000\n\
         [[consumers]]\nnode = \"a-c\"\nname = \"/a/x\"\nsegments = 1000000\ncc = {{ algorithm = \"fixed-window\", window = 8 }}\n\
         [[consumers]]\nnode = \"b-c\"\nname = \"/b/x\"\nsegments = 1000000\ncc = {{ algorithm = \"fixed-window\", window = 8 }}\n\
         [[consumers]]\nnode = \"a-c\"\nname = \"/b/y\"\nsegments = 1000000\n\
         cc = {{ algorithm = \"constant-rate\", rate = 100.0 }}\n"
    );
    parse_scenario(&text, "t.toml", None).expect("a valid scenario")
}

/// LP 1 holds the nodes whose names start with "b-".
fn b_side(s: &Scenario) -> Vec<usize> {
    s.nodes.iter().map(|n| usize::from(n.name.starts_with("b-"))).collect()
}

fn json(summary: &Summary) -> String {
    serde_json::to_string_pretty(summary).expect("a summary serialises")
}

#[test]
fn two_lps_give_the_sequential_summary_byte_for_byte() {
    let s = halves("20ms");
    let sequential = Simulation::new(s.clone()).run().summary;
    for schedule in [Schedule::Threads, Schedule::ThreadsParked, Schedule::OneThread] {
        let run = run_partitioned(&s, &b_side(&s), schedule).expect("the split is supported");
        assert_eq!(json(&run.summary), json(&sequential), "{schedule:?}");
        // Windows of 20 ms over 2 s: [0, 20 ms), ..., [1980 ms, 2 s), and the last one that
        // holds the events at exactly 2 s (the run's end is inclusive).
        assert_eq!(run.lookahead, Time::from_secs_f64(0.02));
        assert_eq!(run.windows, 101);
        assert_eq!(run.lp_events.iter().sum::<u64>(), sequential.simulation.events);
    }
    // The constant-rate consumer sends at 0, 10 ms, ..., 2 s: 201 Interests (nothing is lost:
    // the windows of 8 keep every queue short).
    let across = &sequential.consumers["a-c#1"];
    assert_eq!(across.interests_sent, 201);
    // Its round trip is 2 x (1 + 20 + 1) ms plus the transmissions (a few microseconds): the
    // Interests sent by 1950 ms have their Data back by 2 s, 196 of them.
    assert_eq!(across.data_received, 196);
    // a-r forwards each over the cut 1 ms (and a few microseconds) after it was sent: all but
    // the one sent at 2 s, 200.
    let cut = &sequential.links["a-r->b-r"];
    assert_eq!(cut.interests, 200);
    assert_eq!(cut.data, 0);
}

#[test]
fn frames_that_cross_are_counted_once_per_crossing() {
    let s = halves("20ms");
    let run = run_partitioned(&s, &b_side(&s), Schedule::OneThread).expect("the split is supported");
    // Every frame sent on the cut in either direction whose arrival falls in the run crossed
    // between the LPs at a window's end; frames sent in the last 20 ms also crossed (their
    // arrival is after the end, but they left the sender's LP).
    let links = &run.summary.links;
    assert_eq!(run.cut_frames, links["a-r->b-r"].packets + links["b-r->a-r"].packets);
}

#[test]
fn a_cut_without_delay_is_refused_by_name() {
    let s = halves("0ms");
    let e = run_partitioned(&s, &b_side(&s), Schedule::Threads).expect_err("no lookahead");
    assert!(e.contains("a-r->b-r") && e.contains("no delay"), "{e}");
    let e = run_partitioned(&s, &[0, 0, 0, 2, 2, 2], Schedule::Threads).expect_err("LP 1 is empty");
    assert!(e.contains("LP 1 owns no node"), "{e}");
}

#[test]
fn three_lps_with_two_cuts_give_the_sequential_summary() {
    // b-c alone in LP 2: the cut b-c - b-r (1 ms) sets the lookahead, and LP 1 receives from
    // both other LPs in the same window.
    let s = halves("20ms");
    let owner: Vec<usize> =
        s.nodes.iter().map(|n| if n.name == "b-c" { 2 } else { usize::from(n.name.starts_with("b-")) }).collect();
    let sequential = Simulation::new(s.clone()).run().summary;
    for schedule in [Schedule::Threads, Schedule::ThreadsParked, Schedule::OneThread] {
        let run = run_partitioned(&s, &owner, schedule).expect("the split is supported");
        assert_eq!(run.lookahead, Time::from_secs_f64(0.001));
        // 1 ms windows over 2 s, and the one at exactly 2 s.
        assert_eq!(run.windows, 2001);
        assert_eq!(json(&run.summary), json(&sequential), "{schedule:?}");
    }
}

#[test]
fn the_spinning_barrier_holds_every_thread_until_the_last_arrives() {
    // Three threads, 10,000 rounds: each adds 1 to a shared count before the barrier and reads it
    // after; a thread let through early would read a count below 3 x (round + 1).
    let barrier = SpinBarrier::new(3);
    let count = AtomicU64::new(0);
    std::thread::scope(|s| {
        for _ in 0..3 {
            s.spawn(|| {
                for round in 0..10_000u64 {
                    count.fetch_add(1, Ordering::SeqCst);
                    barrier.wait();
                    assert!(count.load(Ordering::SeqCst) >= 3 * (round + 1), "round {round}");
                    // And none of the next round's additions before everyone has read this one's.
                    barrier.wait();
                }
            });
        }
    });
    assert_eq!(count.into_inner(), 30_000);
}
