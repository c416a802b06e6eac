//! Helpers shared by the scenario-level tests.
#![allow(dead_code)] // each test crate uses its own subset

use ndnflow_sim::scenario::toml::parse_scenario;
use ndnflow_sim::{Results, Simulation};

/// Parses and runs a scenario to its end.
pub fn run(text: &str) -> Results {
    let scenario = parse_scenario(text, "test.toml", None).unwrap_or_else(|e| panic!("{e}"));
    Simulation::new(scenario).run()
}

/// Rows of `consumer` in the consumer trace whose bin starts in [from_s, to_s).
pub fn rows(r: &Results, consumer: &str, from_s: f64, to_s: f64) -> Vec<usize> {
    let c = &r.consumers;
    let index = r.consumer_names.iter().position(|n| n.id == consumer).expect("consumer id") as u32;
    (0..c.time_s.len())
        .filter(|&i| c.consumer[i] == index && c.time_s[i] >= from_s - 1e-9 && c.time_s[i] < to_s - 1e-9)
        .collect()
}

/// Mean goodput of `consumer` over bins starting in [from_s, to_s).
pub fn goodput(r: &Results, consumer: &str, from_s: f64, to_s: f64) -> f64 {
    let rows = rows(r, consumer, from_s, to_s);
    rows.iter().map(|&i| r.consumers.goodput_bps[i]).sum::<f64>() / rows.len() as f64
}

pub fn assert_within(measured: f64, expected: f64, rel: f64, what: &str) {
    let err = (measured - expected).abs() / expected;
    assert!(err <= rel, "{what}: measured {measured:.1}, expected {expected:.1} ({:.3} % off)", err * 100.0);
}
