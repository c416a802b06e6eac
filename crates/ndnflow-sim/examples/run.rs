//! Runs a scenario file and prints the summary as JSON: `cargo run --release --example run -- FILE`.
use std::path::Path;
fn main() {
    let path = std::env::args().nth(1).expect("usage: run FILE");
    let scenario = match ndnflow_sim::scenario::toml::load_scenario(Path::new(&path)) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    };
    let start = std::time::Instant::now();
    let mut sim = ndnflow_sim::Simulation::new(scenario);
    sim.run_until(sim.duration());
    let wall = start.elapsed().as_secs_f64();
    // The summary only, so that the process's peak memory is the engine's (traces included).
    let summary = sim.summary();
    println!("{}", serde_json::to_string_pretty(&summary).unwrap_or_default());
    let hops = summary.simulation.packet_hops;
    eprintln!("wall {wall:.3}s, {hops} packet-hops, {:.0} hops/s", hops as f64 / wall);
}
