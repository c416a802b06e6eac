//! One test binary for the daemon's and the applications' tests: each file of this directory is a module of it.
//!
//! Cargo builds a binary per file of `tests/` by default, and each one links the whole crate
//! graph again (thin LTO in the release profile the suite builds): with some fifty such binaries
//! the links took most of the suite's build time. Run one file's tests with
//! `cargo test -p ndnflow-net --test all FILE::`.

mod common;

mod binary;
mod chain;
mod cs_management;
mod face_events;
mod face_fuzz;
mod flood;
mod get_serve;
mod loopback;
mod lp;
mod management;
mod persistency;
mod shaped;
mod tcp;
