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
    let results = sim.run();
    let wall = start.elapsed().as_secs_f64();
    println!("{}", serde_json::to_string_pretty(&results.summary).unwrap_or_default());
    let hops = results.summary.simulation.packet_hops;
    eprintln!("wall {wall:.3}s, {hops} packet-hops, {:.0} hops/s", hops as f64 / wall);
}
