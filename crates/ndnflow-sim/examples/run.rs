//! Runs a scenario file and prints the summary as JSON: `cargo run --release --example run -- FILE`.
//! With a second argument, the captures the scenario asks for (`[trace] pcap`) are written into
//! that folder; without one they are not started.
use std::io::{BufWriter, Write};
use std::path::Path;

/// As in the Python extension: a refused allocation ends the run with its summary
/// (`ndnflow_core::reserve`).
#[global_allocator]
static ALLOCATOR: ndnflow_core::reserve::ReserveAllocator = ndnflow_core::reserve::ReserveAllocator;

fn main() {
    ndnflow_core::reserve::arm();
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: run FILE [CAPTURE_DIR]");
        std::process::exit(2);
    };
    let scenario = match ndnflow_sim::scenario::toml::load_scenario(Path::new(&path)) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    };
    let start = std::time::Instant::now();
    let mut sim = ndnflow_sim::Simulation::new(scenario);
    if let Some(dir) = std::env::args().nth(2) {
        let open = |name: &str| -> std::io::Result<Box<dyn Write + Send>> {
            let file = std::fs::File::create(Path::new(&dir).join(name))?;
            Ok(Box::new(BufWriter::with_capacity(ndnflow_sim::capture::BUFFER_BYTES, file)))
        };
        if let Err(e) = sim.start_captures(open) {
            eprintln!("error: cannot start the captures in {dir}: {e}");
            std::process::exit(2);
        }
    }
    sim.run_until(sim.duration());
    if let Err(e) = sim.finish_captures() {
        eprintln!("error: a capture failed: {e}");
        std::process::exit(1);
    }
    let wall = start.elapsed().as_secs_f64();
    // The summary only, so that the process's peak memory is the engine's (traces included).
    let summary = sim.summary();
    // A reader that closed the pipe early (`| head`) ends the output, not the process with a panic.
    let _ = writeln!(std::io::stdout(), "{}", serde_json::to_string_pretty(&summary).unwrap_or_default());
    let hops = summary.simulation.packet_hops;
    eprintln!("wall {wall:.3}s, {hops} packet-hops, {:.0} hops/s", hops as f64 / wall);
}
