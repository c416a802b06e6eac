//! Runs a scenario as logical processes on threads (`ndnflow_sim::engine::partition`, a
//! prototype) or sequentially, and prints the summary as JSON, so the two can be compared byte for
//! byte: `run_partitioned FILE MODE NODES`, MODE `seq` (the engine as `run` runs it), `threads`
//! (one thread per LP, meeting at a spinning barrier), `threads-parked` (the same at
//! `std::sync::Barrier`) or `one-thread` (the same windows on one thread); NODES, a comma-separated
//! list of names and of prefixes ending in `*` ("b-*", "n50,n51"), form LP 1, the other nodes LP 0.
//! Wall time and the windows' figures go to stderr.
use std::path::Path;

use ndnflow_sim::engine::partition::{run_partitioned, Schedule};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, path, mode, nodes] = &args[..] else {
        eprintln!("usage: run_partitioned FILE seq|threads|threads-parked|one-thread NODES");
        std::process::exit(2);
    };
    let scenario = match ndnflow_sim::scenario::toml::load_scenario(Path::new(path)) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    };
    let in_lp1 = |name: &str| {
        nodes.split(',').any(|p| match p.strip_suffix('*') {
            Some(prefix) => name.starts_with(prefix),
            None => name == p,
        })
    };
    let owner: Vec<usize> = scenario.nodes.iter().map(|n| usize::from(in_lp1(&n.name))).collect();
    let schedule = match mode.as_str() {
        "seq" => None,
        "threads" => Some(Schedule::Threads),
        "threads-parked" => Some(Schedule::ThreadsParked),
        "one-thread" => Some(Schedule::OneThread),
        _ => {
            eprintln!("error: MODE must be seq, threads, threads-parked or one-thread, not {mode:?}");
            std::process::exit(2);
        }
    };
    let start = std::time::Instant::now();
    let summary = match schedule {
        None => {
            let mut sim = ndnflow_sim::Simulation::new(scenario);
            let built = start.elapsed().as_secs_f64();
            let run = std::time::Instant::now();
            sim.run_until(sim.duration());
            eprintln!("build {built:.3}s run {:.3}s events {}", run.elapsed().as_secs_f64(), sim.events_processed());
            sim.summary()
        }
        Some(schedule) => match run_partitioned(&scenario, &owner, schedule) {
            Ok(o) => {
                let events: u64 = o.lp_events.iter().sum();
                eprintln!(
                    "total {:.3}s run {:.3}s lookahead {} windows {} events/window {:.0} cut frames {} lp events {:?} waited {:?} cpu {:?}",
                    start.elapsed().as_secs_f64(),
                    o.run_wall.as_secs_f64(),
                    o.lookahead,
                    o.windows,
                    events as f64 / o.windows.max(1) as f64,
                    o.cut_frames,
                    o.lp_events,
                    o.lp_waited.iter().map(|w| format!("{:.3}s", w.as_secs_f64())).collect::<Vec<_>>(),
                    o.lp_cpu.iter().map(|c| c.map_or("-".into(), |c| format!("{:.2}s", c.as_secs_f64()))).collect::<Vec<_>>()
                );
                o.summary
            }
            Err(e) => {
                eprintln!("error: {e}");
                std::process::exit(1);
            }
        },
    };
    println!("{}", serde_json::to_string_pretty(&summary).unwrap_or_default());
}
