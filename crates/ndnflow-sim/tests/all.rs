//! One test binary for the scenario-level tests: each file of this directory is a module of it.
//!
//! Cargo builds a binary per file of `tests/` by default, and each one links the whole crate
//! graph again (thin LTO in the release profile the suite builds): with some fifty such binaries
//! the links took most of the suite's build time. Run one file's tests with
//! `cargo test -p ndnflow-sim --test all FILE::`.

mod common;

mod asf;
mod batches;
mod captures;
mod catalog;
mod cc_config;
mod cc_scenarios;
mod chopcop;
mod conservation;
mod counter_traces;
mod dpccp_router;
mod engine;
mod external_protocols;
mod forwarding_log;
mod fpf;
mod fragmentation;
mod interest_trace;
mod mircc_router;
mod mptcp;
mod ndnsim_import;
mod next_hops;
mod nfd_marking;
mod paf;
mod pcon;
mod ptp;
mod ptp_selection;
mod resends;
mod scenario_errors;
mod scenario_parse;
mod scenario_proptest;
mod self_learning;
mod shaper;
mod smic_consumer;
mod smic_router;
mod strategies;
mod strategy_queue_readers;
mod strategy_timers;
