//! Benchmarks of the discrete-event driver: the event queue alone, and a whole small simulation.
//!
//! Run with `cargo bench -p ndnflow-sim --bench engine` (add `-- --quick` for a fast pass).

use std::hint::black_box;
use std::path::Path;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use ndnflow_core::Time;
use ndnflow_sim::events::{Event, EventQueue};
use ndnflow_sim::scenario::model::Scenario;
use ndnflow_sim::scenario::toml::parse_scenario;
use ndnflow_sim::Simulation;

/// Events pending in the queue throughout the steady-state benchmark.
const PENDING: usize = 10_000;
/// Pre-generated inter-event delays (a power of two, so the round-robin index is a mask).
const DELAYS: usize = 4_096;

/// Deterministic xorshift64*, so the delays are the same on every run.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

/// The kinds of event the engine schedules for packets and timers (not trace samples).
fn event(k: u64) -> Event {
    let i = (k >> 2) as u32 & 0xFFFF;
    match k & 3 {
        0 => Event::Arrive(i),
        1 => Event::TxDone(i),
        2 => Event::NodeWake(i),
        _ => Event::AppWake(i),
    }
}

/// The "hold" model: pop the earliest event, schedule one a random delay after it, with the
/// queue holding 10,000 events throughout. One iteration = one schedule + one pop.
fn bench_event_queue(c: &mut Criterion) {
    let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
    // Uniform delays in [1 ns, 200 us]: link delays, serialisation times and timers mixed.
    let delays: Vec<Time> = (0..DELAYS).map(|_| Time(1 + rng.next() % 200_000)).collect();
    let kinds: Vec<Event> = (0..DELAYS).map(|_| event(rng.next())).collect();

    let mut group = c.benchmark_group("event_queue");
    group.throughput(Throughput::Elements(1));
    group.bench_function("schedule_pop_10000_pending", |b| {
        let mut q = EventQueue::new();
        for k in 0..PENDING {
            q.schedule(Time(rng.next() % 200_000), kinds[k & (DELAYS - 1)]);
        }
        let mut k = 0usize;
        b.iter(|| {
            let (now, _ev) = q.pop().expect("the queue is never empty");
            q.schedule(now + delays[k & (DELAYS - 1)], kinds[k & (DELAYS - 1)]);
            k = k.wrapping_add(1);
            black_box(now)
        });
        assert_eq!(q.len(), PENDING, "the queue must stay in steady state");
    });
    group.finish();
}

/// `examples/quickstart.toml` with its 30 s duration cut to 5 s.
fn quickstart_5s() -> Scenario {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/quickstart.toml");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    assert!(text.contains("duration = \"30s\""), "{} no longer sets duration = \"30s\"", path.display());
    let text = text.replace("duration = \"30s\"", "duration = \"5s\"");
    parse_scenario(&text, &path.display().to_string(), path.parent())
        .unwrap_or_else(|e| panic!("quickstart scenario: {e}"))
}

fn run(scenario: Scenario) -> Simulation {
    let mut sim = Simulation::new(scenario);
    black_box(sim.run());
    sim
}

/// The whole quickstart scenario (5 s simulated): build + run, in packet-hops per second. The
/// scenario is parsed once; each iteration builds the network from a clone of it (the clone is
/// not timed, nor is dropping the finished simulation).
fn bench_quickstart(c: &mut Criterion) {
    let scenario = quickstart_5s();
    let reference = run(scenario.clone());
    let hops = reference.packet_hops();
    assert!(hops > 0, "the quickstart scenario moved no packets");
    eprintln!("quickstart (5 s): {hops} packet-hops, {} events per run", reference.events_processed());
    drop(reference);

    let mut group = c.benchmark_group("simulation");
    group.sample_size(10);
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(5));
    group.throughput(Throughput::Elements(hops));
    group.bench_function("quickstart_5s", |b| b.iter_batched(|| scenario.clone(), run, BatchSize::PerIteration));
    group.finish();
}

criterion_group!(benches, bench_event_queue, bench_quickstart);
criterion_main!(benches);
