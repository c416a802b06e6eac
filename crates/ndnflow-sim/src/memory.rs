//! What a run needs in memory: estimated from the scenario before it runs, so that a value that
//! cannot fit is refused with the field that asks for it, and watched while it runs, so that a
//! run outgrowing the limit stops with what it computed instead of aborting the process.
//!
//! A simulation's memory grows with what is pending (Interests in PIT entries and in consumers'
//! outstanding maps, packets in queues, events) and with the trace rows it keeps. The costs below
//! were measured on the quick start with `/usr/bin/time` (docs/performance.md, "Memory"): a
//! constant-rate consumer of 10^6 Interests/s for 2 s peaked at 463 MB (2 x 10^6 Interests
//! pending: about 230 bytes each); a fixed window of 10^6 at 917 MB (sent in one burst, every
//! Interest is also a frame in flight between the consumer and its forwarder: about 900 bytes
//! each); 1 ms bins over 30 s (240,000 trace rows) at 56 MB against 8 MB with 100 ms bins (about
//! 200 bytes a row in the engine, twice that once the Python layer had copied them). The engine
//! now holds its rows in about 15 bytes (`crate::trace_log`), but `ndnflow run --out` still peaks
//! at about 270 bytes a row while it turns them into DataFrames and Parquet (docs/performance.md,
//! "Memory"), so the watch keeps counting 400: an upper bound for the whole process. A catalog's
//! Zipf table (8 bytes an object) counts once per distinct table, as the engine shares it.

use ndnflow_core::app::cc::CcConfig;
use ndnflow_core::app::ZipfMandelbrot;
use ndnflow_core::grow::OutOfMemory;
use ndnflow_core::Time;

use crate::scenario::model::{ConsumerSpec, Scenario};

/// The default limit: 4 GiB, far above what any experiment of the catalog needs (the largest
/// peaks under 200 MB) and below what a laptop has. `[simulation] memory_limit` raises it.
pub const DEFAULT_LIMIT: u64 = 4 << 30;
/// Bytes per record of a pending Interest (a PIT entry, or a consumer's outstanding record, with
/// its timer).
pub const PENDING_RECORD_BYTES: u64 = 128;
/// Bytes per Interest pending at a steady rate: its consumer's record and its node's PIT entry.
pub const PENDING_INTEREST_BYTES: u64 = 2 * PENDING_RECORD_BYTES;
/// Bytes per Interest of a window sent in one burst (the pending Interest and its frame in flight).
pub const BURST_INTEREST_BYTES: u64 = 1024;
/// Bytes per trace row at the whole process's peak, once copied to Python (an upper bound: about
/// 270 measured with `--out`, 15 in the engine).
pub const TRACE_ROW_BYTES: u64 = 400;
/// Bytes per record of the forwarding log at the whole process's peak (an estimate from the
/// sizes, an upper bound: about 150 in the engine, a record and the name it keeps alive; about
/// 250 more as text columns; about 450 more as Python strings once copied).
pub const FORWARDING_RECORD_BYTES: u64 = 1024;
/// Bytes per queued packet or pending event (a frame and its slot).
pub const QUEUED_PACKET_BYTES: u64 = 128;
/// Bytes per Data held in a Content Store: its slot, its index bucket and the packet with its name
/// (205 and 354 bytes measured, docs/performance.md "The benchmark suite"; 85 and 175 since a
/// simulated producer's Data is stored as its name and length, "Cached Data"; the payloads of
/// simulated producers are shared, not copied); 400 is an upper bound, as for trace rows (and for
/// a Data stored whole).
pub const CACHED_DATA_BYTES: u64 = 400;
/// Bytes per node before any traffic: its forwarder's tables, sized up front (a chain of 100,001
/// nodes peaked at 1.9 GiB, docs/performance.md "Building large scenarios").
pub const NODE_BYTES: u64 = 20 << 10;

/// One part of a scenario's estimated need, and the field that sets it.
#[derive(Clone, Debug, PartialEq)]
pub struct Demand {
    /// The scenario field that sets it ("consumers[0].cc.rate", "simulation.bin").
    pub field: String,
    /// Which consumer it is, for a consumer's demand.
    pub consumer: Option<usize>,
    pub bytes: u64,
    /// How it was worked out, for the message.
    pub how: String,
    /// What the user can change to need less.
    pub remedy: &'static str,
}

/// The parts of a scenario's need that its own values set, largest first: a constant rate, a
/// window's first burst, the trace bins. How far an adaptive window grows is bounded by the
/// network rather than by a value: that is left to the watch during the run.
pub fn demands(s: &Scenario) -> Vec<Demand> {
    let mut out: Vec<Demand> = s.consumers.iter().enumerate().flat_map(|(i, c)| consumer_demands(s, i, c)).collect();
    out.extend(catalog_demands(s));
    out.push(trace_demand(s));
    if let Some(log) = &s.trace.forwarding {
        out.push(Demand {
            field: "trace.forwarding.max_records".into(),
            consumer: None,
            bytes: log.max_records.saturating_mul(FORWARDING_RECORD_BYTES),
            how: format!("the forwarding log's {} records at most", log.max_records),
            remedy: "lower max_records, or log fewer nodes or a longer prefix",
        });
    }
    out.push(Demand {
        field: "nodes".into(),
        consumer: None,
        bytes: (s.nodes.len() as u64).saturating_mul(NODE_BYTES),
        how: format!("{} nodes' tables", s.nodes.len()),
        remedy: "use fewer nodes",
    });
    out.sort_by_key(|d| std::cmp::Reverse(d.bytes));
    out
}

/// A consumer's own values' demands: a constant rate's Interests pending for their lifetime, a
/// window's first burst, or a multipath controller's first windows on all its paths at once and
/// its probes pending for their lifetime (each an upper bound).
fn consumer_demands(s: &Scenario, i: usize, c: &ConsumerSpec) -> Vec<Demand> {
    let end = c.stop.unwrap_or(s.duration).min(s.duration);
    let held = c.lifetime.min(end.saturating_sub(c.start)).as_secs_f64();
    let cap = |n: f64| c.segments.map_or(n, |k| n.min(k as f64));
    let demand = |field: &str, pending: f64, per: u64, how: String| Demand {
        field: format!("consumers[{i}].cc.{field}"),
        consumer: Some(i),
        bytes: bytes(pending, per),
        how,
        remedy: "lower this value",
    };
    let steady = |field: &str, rate: f64, what: &str| {
        let n = cap(rate * held);
        let how = format!("{n:.3e} {what} pending ({rate} {what}/s, each for up to {held} s)");
        demand(field, n, PENDING_INTEREST_BYTES, how)
    };
    match c.cc {
        CcConfig::ConstantRate { rate, .. } => vec![steady("rate", rate, "Interests")],
        cc => match (cc.multipath_start(), cc.initial_window()) {
            (Some((paths, window, probes)), _) => {
                let n = cap(paths * window);
                let how = format!("{n:.0} Interests sent at once ({window} on each of up to {paths} paths)");
                let mut out = vec![demand("initial_window", n, BURST_INTEREST_BYTES, how)];
                if probes > 0.0 {
                    out.push(steady("probe_rate", probes, "probes"));
                }
                out
            }
            (None, Some(window)) => {
                let n = cap(window);
                let field = if matches!(cc, CcConfig::FixedWindow { .. }) { "window" } else { "initial_window" };
                vec![demand(field, n, BURST_INTEREST_BYTES, format!("a window of {n:.0} Interests sent at once"))]
            }
            (None, None) => Vec::new(),
        },
    }
}

/// The catalogs' Zipf tables: one per distinct (objects, alpha, q), shared by the consumers that
/// ask for it (the engine builds each once), 8 bytes an object; named by its first consumer.
fn catalog_demands(s: &Scenario) -> Vec<Demand> {
    let mut tables: Vec<((u64, u64, u64), usize, usize)> = Vec::new(); // (key, first consumer, users)
    for (i, c) in s.consumers.iter().enumerate() {
        let Some(cat) = c.catalog else { continue };
        match tables.iter_mut().find(|t| t.0 == cat.table_key()) {
            Some(t) => t.2 += 1,
            None => tables.push((cat.table_key(), i, 1)),
        }
    }
    tables
        .into_iter()
        .map(|((objects, _, _), i, users)| Demand {
            field: format!("consumers[{i}].catalog.objects"),
            consumer: Some(i),
            bytes: ZipfMandelbrot::table_bytes(objects),
            how: format!("a Zipf table of {objects} objects at 8 B, shared by {users} consumer(s)"),
            remedy: "use fewer objects",
        })
        .collect()
}

fn trace_demand(s: &Scenario) -> Demand {
    let bins = (s.duration.as_nanos() as f64 / s.bin.as_nanos().max(1) as f64).ceil();
    let dirs: usize = s.links.iter().map(|l| 2 + l.ab.underlay.len() + l.ba.underlay.len()).sum();
    let counted = counter_rows_per_bin(s);
    let per_bin = (dirs + s.consumers.len() + counted) as f64;
    let what =
        if counted > 0 { "link directions, consumers, faces and nodes" } else { "link directions and consumers" };
    Demand {
        field: "simulation.bin".into(),
        consumer: None,
        bytes: bytes(bins * per_bin, TRACE_ROW_BYTES),
        how: format!("{:.3e} trace rows ({bins:.0} bins x {per_bin:.0} {what})", bins * per_bin),
        remedy: "widen the bins (simulation.bin), or shorten the run",
    }
}

/// The rows `[trace] faces` and `nodes` add per bin: one per face (two per link, one per
/// application) and one per node.
fn counter_rows_per_bin(s: &Scenario) -> usize {
    let faces = if s.trace.faces { 2 * s.links.len() + s.producers.len() + s.consumers.len() } else { 0 };
    faces + if s.trace.nodes { s.nodes.len() } else { 0 }
}

fn bytes(count: f64, each: u64) -> u64 {
    let b = count * each as f64;
    if b >= u64::MAX as f64 {
        u64::MAX
    } else {
        b as u64
    }
}

/// The scenario's estimated need against its limit: `Err` with the largest part when the sum does
/// not fit.
pub fn check(s: &Scenario) -> Result<(), (Demand, u64)> {
    let parts = demands(s);
    let total = parts.iter().fold(0u64, |t, d| t.saturating_add(d.bytes));
    match parts.into_iter().next() {
        Some(largest) if total > s.memory_limit => Err((largest, total)),
        _ => Ok(()),
    }
}

/// "4.0 GiB", "512 MiB": a byte count for a message.
pub fn human(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut v = bytes as f64;
    let mut unit = 0;
    while v >= 1024.0 && unit + 1 < UNITS.len() {
        v /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} B")
    } else {
        format!("{v:.1} {}", UNITS[unit])
    }
}

/// What a run holds at one moment, for the watch (`Simulation::run_until`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Held {
    /// Records of pending Interests: PIT entries over all nodes plus consumers' outstanding ones.
    pub pending: u64,
    /// What the tables of pending Interests hold in bytes: the PITs' and consumers' containers at
    /// their capacities, and the Interests (`PendingInterestTable::reserved_bytes`,
    /// `Consumer::reserved_bytes`), and near the limit their names (`name_bytes`). A container
    /// keeps what it grew to, up to twice its records: counted at 128 B a record, a runaway
    /// window reached about twice the limit in resident memory (docs/performance.md, "Memory").
    pub pending_bytes: u64,
    /// Packets in queues and links, and events scheduled.
    pub queued: u64,
    /// Trace rows recorded.
    pub rows: u64,
    /// Nodes (their tables, sized up front).
    pub nodes: u64,
    /// Data held in the nodes' Content Stores: bounded by each store's capacity, but a capacity
    /// of millions is how a user says "unbounded", so the watch counts them (issue 22).
    pub cached: u64,
}

impl Held {
    pub fn bytes(&self) -> u64 {
        self.pending_bytes
            .saturating_add(self.queued.saturating_mul(QUEUED_PACKET_BYTES))
            .saturating_add(self.rows.saturating_mul(TRACE_ROW_BYTES))
            .saturating_add(self.nodes.saturating_mul(NODE_BYTES))
            .saturating_add(self.cached.saturating_mul(CACHED_DATA_BYTES))
    }
}

/// How often (in events) a run checks what it holds, besides at the end of every trace bin: often
/// enough that a runaway scenario stops within a few megabytes of the limit, rarely enough to
/// cost nothing measurable.
pub const WATCH_EVERY: u64 = 1 << 16;

/// The message of a run stopped by the watch at `now`.
pub fn stopped_message(now: Time, held: Held, limit: u64) -> String {
    format!(
        "stopped at {now}: the run held about {} ({} pending Interest records, in tables and timers of {}; {} packets and events queued, {} trace rows, {} Data in Content Stores), above the memory limit of {}; raise [simulation] memory_limit, or lower what the consumers ask for or the stores' capacities",
        human(held.bytes()),
        held.pending,
        // The tables keep the room they grew to, and timers wait in them until due: a burst long
        // over leaves few records but large tables, which a count of records alone hid (2,100
        // records named for 4.0 GiB until 2026-11-28).
        human(held.pending_bytes),
        held.queued,
        held.rows,
        held.cached,
        human(limit)
    )
}

/// The message of a run stopped at `now` because the allocator refused `e` for `place`'s
/// container ("node r's").
pub fn refused_message(now: Time, e: &OutOfMemory, place: &str) -> String {
    format!(
        "stopped at {now}: out of memory: the allocator refused {} for {place} {}; the results cover the run until then; free memory, raise the process's memory limit, or lower what the consumers ask for",
        human(e.bytes as u64),
        e.container
    )
}

#[cfg(test)]
#[path = "memory_tests.rs"]
mod tests;
