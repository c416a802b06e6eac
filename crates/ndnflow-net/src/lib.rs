//! ndnflow-net: the real-time driver (issue 25). The same sans-IO forwarder the simulator runs,
//! with its strategies, Content Store and PIT unchanged, behind real sockets: UDP faces (NFD's
//! unicast UDP model, port 6363), TCP faces (port 6363) and Unix stream faces for local
//! applications, driven by one tokio task on the monotonic clock, answering NFD's management
//! protocol for applications. `ndnflow-fwd CONFIG.toml` (src/bin) runs it as a daemon.
//!
//! Modules: `clock` (Instant <-> the core's Time), `config` (the daemon's TOML), `face` (UDP, TCP
//! and Unix transports, TLV stream framing, shaped faces), `daemon` (the event loop), `report` (its counters),
//! `mgmt` (NFD's management subset: commands, RIB, status datasets), `sign` (DigestSha256), `files` (reading
//! user-named files with a ceiling), `app`
//! (the applications' client face, `ndnflow get` and `ndnflow serve`). What is not built yet is
//! listed in docs/real-network.md.

pub mod app;
pub mod clock;
pub mod config;
pub mod daemon;
pub mod ecdsa;
pub mod face;
pub mod files;
pub mod mgmt;
pub mod report;
pub mod sign;
pub mod timer;

pub use config::{ConfigError, DaemonConfig};
pub use daemon::{run, run_blocking, shutdown_signals, Daemon, DaemonError, StatusHandle};
pub use report::{FaceReport, Report};
