//! ndnflow-sim: the discrete-event simulator that runs the ndnflow protocol core over modelled links.
//!
//! `scenario` reads and validates scenarios, `build` turns one into forwarders, link directions and
//! applications, `engine::Simulation` runs it, `trace` holds the time series (`trace_interests` the per-segment trace), `summary` the end-of-run summary,
//! `trace_schema` their columns, `capture` the pcap captures of chosen link directions; `flow_network` describes a scenario's links as a flow problem.

pub mod build;
pub mod capture;
pub mod engine;
pub mod events;
pub mod flow_network;
pub mod fwlog;
pub mod link;
mod link_frag;
mod link_log;
pub mod memory;
pub mod rng;
pub mod routing;
mod routing_detours;
pub mod scenario;
pub mod summary;
pub mod trace;
pub mod trace_counters;
pub mod trace_interests;
pub mod trace_log;
pub mod trace_schema;
pub mod warnings;

pub use engine::Simulation;
pub use trace::Results;

/// The Python front runs several simulations at once, one per thread, so nothing in a simulation
/// may be tied to a thread (this is why `Strategy` and `CongestionController` are `Send`).
const _: fn() = || {
    fn send<T: Send>() {}
    send::<Simulation>();
};
