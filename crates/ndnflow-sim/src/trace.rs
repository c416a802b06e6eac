//! Time series and the end-of-run summary.
//!
//! At the end of every bin the engine samples each link direction's and consumer's cumulative
//! counters; a row holds the difference from the previous sample, so rows add up to the totals.
//!
//! A bin is [start, end): its closing sample runs before the other events of that instant. The
//! run's last instant is the exception: what happens there (after the sample of a bin ending at
//! the duration, or when the last consumer finishes on a bin boundary) has no later bin to go
//! to, so the last bin is reopened and closed again including it, [start, end].
//!
//! While the run goes on, the link and consumer rows are held compactly (`crate::trace_log`);
//! `Results` has them as columns.

use std::sync::Arc;

use ndnflow_core::app::multipath::PathReport;
use ndnflow_core::app::ConsumerStats;
use ndnflow_core::grow::OutOfMemory;
use ndnflow_core::Time;

use crate::build::Network;
use crate::fwlog::ForwardingSeries;
use crate::link::LinkCounters;
use crate::trace_counters::{CounterRecorder, FaceName, FaceSeries, NodeSeries};
use crate::trace_interests::{InterestName, InterestSeries};
use crate::trace_log::{ConsumerRow, LinkRow, TraceLog};

// The summary's types moved to summary.rs; `trace::Summary` and the others still name them.
pub use crate::summary::*;

/// A series with room for `$n` rows in each of its columns (all of them listed).
macro_rules! with_capacity {
    ($series:ident, $n:expr, $($column:ident),+) => {
        $series { $($column: Vec::with_capacity($n)),+ }
    };
}

/// One row per (link direction, bin), columnar. A row names its direction by index into
/// `Results::link_names`, so a long trace holds no string per row.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LinkSeries {
    pub time_s: Vec<f64>,
    pub dir: Vec<u32>,
    pub bytes: Vec<u64>,
    pub packets: Vec<u64>,
    pub interests: Vec<u64>,
    pub data: Vec<u64>,
    pub nacks: Vec<u64>,
    pub drops: Vec<u64>,
    pub marks: Vec<u64>,
    pub losses: Vec<u64>,
    pub throughput_bps: Vec<f64>,
    pub queue_packets: Vec<u64>,
    pub queue_bytes: Vec<u64>,
    pub sojourn_ms: Vec<f64>,
}

impl LinkSeries {
    pub fn with_capacity(n: usize) -> LinkSeries {
        #[rustfmt::skip]
        let s = with_capacity!(LinkSeries, n, time_s, dir, bytes, packets, interests, data, nacks, drops, marks, losses,
                               throughput_bps, queue_packets, queue_bytes, sojourn_ms);
        s
    }
}

/// One row per (consumer, bin), columnar; `consumer` indexes `Results::consumer_names`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ConsumerSeries {
    pub time_s: Vec<f64>,
    pub consumer: Vec<u32>,
    pub goodput_bps: Vec<f64>,
    pub data: Vec<u64>,
    pub interests: Vec<u64>,
    pub retransmissions: Vec<u64>,
    pub timeouts: Vec<u64>,
    pub nacks: Vec<u64>,
    pub losses: Vec<u64>,
    pub marks: Vec<u64>,
    pub window: Vec<f64>,
    pub rtt_ms: Vec<f64>,
}

impl ConsumerSeries {
    pub fn with_capacity(n: usize) -> ConsumerSeries {
        #[rustfmt::skip]
        let s = with_capacity!(ConsumerSeries, n, time_s, consumer, goodput_bps, data, interests, retransmissions,
                               timeouts, nacks, losses, marks, window, rtt_ms);
        s
    }
}

/// One row per (path of a multipath consumer, bin), columnar; `path` indexes the run's path
/// table (`Recorder::path_keys`, `Results::path_names`). A path has rows from the bin it was found.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PathSeries {
    pub time_s: Vec<f64>,
    pub path: Vec<u32>,
    /// The path's index among its consumer's paths (`PathKey::index`), for a numeric column.
    pub index: Vec<u64>,
    pub in_use: Vec<u64>,
    pub failed: Vec<u64>,
    pub data: Vec<u64>,
    pub window: Vec<f64>,
    pub srtt_ms: Vec<f64>,
    /// SMIC: |S_r|, the sub-flows found to share its bottleneck (itself included) while in use;
    /// NaN otherwise.
    pub sharing: Vec<f64>,
}

/// One row per object a catalog consumer requested, in the order requested; `consumer` indexes
/// `Results::consumer_names`. Built at the end (a few rows per consumer), not per bin.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ObjectSeries {
    pub consumer: Vec<u32>,
    pub rank: Vec<u64>,
    pub start_s: Vec<f64>,
    /// NaN while unfinished.
    pub end_s: Vec<f64>,
    pub bytes: Vec<u64>,
    pub paths: Vec<u64>,
}

impl ObjectSeries {
    pub fn push(&mut self, consumer: u32, o: &ndnflow_core::app::ObjectRecord) {
        self.consumer.push(consumer);
        self.rank.push(o.rank);
        self.start_s.push(o.start.as_secs_f64());
        self.end_s.push(o.end.map_or(f64::NAN, Time::as_secs_f64));
        self.bytes.push(o.bytes);
        self.paths.push(u64::from(o.paths));
    }
}

/// A path's place in the run: its consumer (index in the scenario), its index among that
/// consumer's paths (the order found), and its route.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathKey {
    pub consumer: u32,
    pub index: u32,
    pub tags: Vec<u64>,
}

/// Drops the last `rows` rows of each column.
macro_rules! drop_rows {
    ($series:expr, $rows:expr, $($column:ident),+) => {{
        let keep = $series.time_s.len() - $rows;
        $($series.$column.truncate(keep);)+
    }};
}

pub struct Recorder {
    bin_start: Time,
    last_links: Vec<LinkCounters>,
    last_consumers: Vec<ConsumerStats>,
    /// The last closed bin's start, the counters at that start and its path rows: what reopening
    /// it needs (the log takes its link and consumer rows back itself).
    prev_start: Time,
    prev_links: Vec<LinkCounters>,
    prev_consumers: Vec<ConsumerStats>,
    prev_path_data: Vec<u64>,
    prev_rows: Option<usize>,
    /// The link and consumer rows, shared with the results read so far (`RunTraces::log`): a
    /// run that goes on after a read copies the log at its next bin, one that is over never does.
    pub log: Arc<TraceLog>,
    pub paths: PathSeries,
    /// Indexed by `PathSeries::path`: one key per consumer, path index and route, so that a path
    /// whose route changes (a SMIC sub-flow's path ids) is named by the route it has in each row.
    pub path_keys: Vec<PathKey>,
    /// Per consumer, a slot per path index, in the order found: the rows' Data counts go by it,
    /// whatever the route.
    path_slots: Vec<Vec<u32>>,
    /// Each slot's Data count at the last sample.
    last_path_data: Vec<u64>,
    /// Each slot's keys (`path_keys` indices), the one of its latest row first.
    slot_keys: Vec<Vec<u32>>,
    /// The face and node rows, when `[trace]` asks for them.
    pub counters: Option<CounterRecorder>,
}

/// What the recorder needs to know of a consumer at a sample.
pub struct ConsumerSample {
    /// Index of the consumer in the scenario.
    pub index: u32,
    pub stats: ConsumerStats,
    pub window: Option<f64>,
    /// A multipath consumer's paths, in the order found.
    pub paths: Option<Vec<PathReport>>,
}

impl Recorder {
    pub fn new(n_dirs: usize, n_consumers: usize) -> Recorder {
        Recorder {
            bin_start: Time::ZERO,
            last_links: vec![LinkCounters::default(); n_dirs],
            last_consumers: vec![ConsumerStats::default(); n_consumers],
            prev_start: Time::ZERO,
            prev_links: vec![LinkCounters::default(); n_dirs],
            prev_consumers: vec![ConsumerStats::default(); n_consumers],
            prev_path_data: Vec::new(),
            prev_rows: None,
            log: Arc::new(TraceLog::new(n_dirs)),
            paths: PathSeries::default(),
            path_keys: Vec::new(),
            path_slots: vec![Vec::new(); n_consumers],
            last_path_data: Vec::new(),
            slot_keys: Vec::new(),
            counters: None,
        }
    }

    /// The paths found so far as their rows name them, `consumers` indexed as the samples' `index`.
    pub fn path_names(&self, consumers: &[ConsumerName]) -> Vec<PathName> {
        let name = |k: &PathKey| {
            let c = &consumers[k.consumer as usize];
            let route = k.tags.iter().map(u64::to_string).collect::<Vec<_>>().join(" ");
            PathName { consumer: c.id.clone(), node: c.node.clone(), index: k.index, route }
        };
        self.path_keys.iter().map(name).collect()
    }

    pub fn bin_start(&self) -> Time {
        self.bin_start
    }

    /// Closes the bin [bin_start, now). At `now == bin_start` (the run ending on the instant its
    /// last bin closed) it closes the last bin again, now including that instant.
    /// Err, with nothing recorded, when the allocator refused the room for the bin's rows
    /// (`TraceLog::room_for_bin`).
    pub fn sample(
        &mut self,
        now: Time,
        net: &Network,
        consumers: impl Iterator<Item = ConsumerSample>,
    ) -> Result<(), OutOfMemory> {
        self.sample_of(now, Some(net), consumers)
    }

    /// `sample` for a recorder made with no link directions, whose consumers run outside a
    /// simulated network (`ndnflow get`, ndnflow-net): the consumer and path rows alone.
    pub fn sample_consumers(
        &mut self,
        now: Time,
        consumers: impl Iterator<Item = ConsumerSample>,
    ) -> Result<(), OutOfMemory> {
        self.sample_of(now, None, consumers)
    }

    fn sample_of(
        &mut self,
        now: Time,
        net: Option<&Network>,
        consumers: impl Iterator<Item = ConsumerSample>,
    ) -> Result<(), OutOfMemory> {
        Arc::make_mut(&mut self.log).room_for_bin(self.last_consumers.len())?;
        if now <= self.bin_start && !self.reopen_last_bin() {
            return Ok(());
        }
        self.prev_start = self.bin_start;
        self.prev_links.clone_from(&self.last_links);
        self.prev_consumers.clone_from(&self.last_consumers);
        self.prev_path_data.clone_from(&self.last_path_data);
        let path_rows = self.paths.time_s.len();
        self.push_rows(now, net.map_or(&[], |n| &n.dirs), consumers);
        if let (Some(c), Some(net)) = (&mut self.counters, net) {
            c.push_bin(self.bin_start, net);
        }
        self.prev_rows = Some(self.paths.time_s.len() - path_rows);
        self.bin_start = now;
        Ok(())
    }

    /// Takes the last closed bin's rows back out and restores the counters of its start; false
    /// when no bin was closed yet.
    fn reopen_last_bin(&mut self) -> bool {
        let Some(paths) = self.prev_rows.take() else { return false };
        Arc::make_mut(&mut self.log).drop_last_bin();
        if let Some(c) = &mut self.counters {
            c.reopen_last_bin();
        }
        drop_rows!(self.paths, paths, time_s, path, index, in_use, failed, data, window, srtt_ms, sharing);
        std::mem::swap(&mut self.last_links, &mut self.prev_links);
        std::mem::swap(&mut self.last_consumers, &mut self.prev_consumers);
        // Paths found in the reopened bin keep their place in the table, counted from zero again.
        std::mem::swap(&mut self.last_path_data, &mut self.prev_path_data);
        self.last_path_data.resize(self.slot_keys.len(), 0);
        self.bin_start = self.prev_start;
        true
    }

    fn push_rows(&mut self, now: Time, dirs: &[crate::link::LinkDir], consumers: impl Iterator<Item = ConsumerSample>) {
        use ndnflow_core::link::QueueDiscipline;
        let log = Arc::make_mut(&mut self.log);
        log.open_bin(self.bin_start, now);
        for (i, d) in dirs.iter().enumerate() {
            let c = d.counters;
            let p = std::mem::replace(&mut self.last_links[i], c);
            log.push_link(&LinkRow {
                bytes: c.bytes - p.bytes,
                packets: c.packets - p.packets,
                interests: c.interests - p.interests,
                data: c.data - p.data,
                nacks: c.nacks - p.nacks,
                drops: c.drops - p.drops,
                marks: c.marks - p.marks,
                losses: c.losses - p.losses,
                queue_packets: d.queue.len_packets() as u64,
                queue_bytes: d.queue.len_bytes() as u64,
                sojourn_count: c.sojourn_count - p.sojourn_count,
                sojourn_sum: c.sojourn_sum - p.sojourn_sum,
            });
        }
        let t = self.bin_start.as_secs_f64();
        for cs in consumers {
            let c = cs.stats;
            let p = std::mem::replace(&mut self.last_consumers[cs.index as usize], c);
            Arc::make_mut(&mut self.log).push_consumer(&ConsumerRow {
                consumer: cs.index,
                payload_bytes: c.payload_bytes - p.payload_bytes,
                data: c.data_received - p.data_received,
                interests: c.interests_sent - p.interests_sent,
                retransmissions: c.retransmissions - p.retransmissions,
                timeouts: c.timeouts - p.timeouts,
                nacks: c.nacks - p.nacks,
                losses: c.losses - p.losses,
                marks: c.marks - p.marks,
                window: cs.window,
                rtt_samples: c.rtt_samples - p.rtt_samples,
                rtt_sum: c.rtt_sum - p.rtt_sum,
            });
            if let Some(paths) = cs.paths {
                self.push_path_rows(t, cs.index, paths);
            }
        }
    }

    /// The key of slot `slot`'s row with route `tags`: its latest key's if the route is the
    /// same, another of its keys with that route, or a new one.
    fn key_of(&mut self, slot: usize, consumer: u32, index: u32, tags: Vec<u64>) -> u32 {
        let keys = &mut self.slot_keys[slot];
        let found = keys.iter().position(|&c| self.path_keys[c as usize].tags == tags);
        if found == Some(0) {
            return keys[0];
        }
        let code = match found {
            Some(i) => keys.remove(i),
            None => {
                self.path_keys.push(PathKey { consumer, index, tags });
                (self.path_keys.len() - 1) as u32
            }
        };
        keys.insert(0, code);
        code
    }

    /// One row per path of consumer `consumer`, the bin starting at `t`.
    fn push_path_rows(&mut self, t: f64, consumer: u32, paths: Vec<PathReport>) {
        for (k, p) in paths.into_iter().enumerate() {
            let slots = &mut self.path_slots[consumer as usize];
            if k == slots.len() {
                slots.push(self.slot_keys.len() as u32);
                self.slot_keys.push(Vec::new());
                self.last_path_data.push(0);
            }
            let slot = slots[k] as usize;
            let in_use = p.in_use();
            let code = self.key_of(slot, consumer, k as u32, p.tags);
            let before = std::mem::replace(&mut self.last_path_data[slot], p.data);
            let s = &mut self.paths;
            s.time_s.push(t);
            s.path.push(code);
            s.index.push(k as u64);
            s.in_use.push(u64::from(in_use));
            s.failed.push(u64::from(p.state == "failed"));
            s.data.push(p.data - before);
            s.window.push(p.window);
            s.srtt_ms.push(p.srtt.map_or(f64::NAN, |r| r.as_millis_f64()));
            s.sharing.push(p.sharing.map_or(f64::NAN, |n| n as f64));
        }
    }
}

/// A link direction's name ("a->b") and its two ends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DirName {
    pub name: String,
    pub src: String,
    pub dst: String,
}

/// A consumer's id and the node it runs on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConsumerName {
    pub id: String,
    pub node: String,
}

/// A path of a multipath consumer, as its rows name it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathName {
    /// The consumer's id and node.
    pub consumer: String,
    pub node: String,
    /// Its index among the consumer's paths, in the order found (as in `summary.json`).
    pub index: u32,
    /// Its tag stack, bottom first, as `summary.json` lists it ("3 1 0").
    pub route: String,
}

/// Everything a run produced.
#[derive(Clone, Debug, PartialEq)]
pub struct Results {
    pub summary: Summary,
    pub links: LinkSeries,
    pub consumers: ConsumerSeries,
    pub paths: PathSeries,
    pub objects: ObjectSeries,
    /// The forwarding log's rows (empty unless `[trace] forwarding` is on).
    pub forwarding: ForwardingSeries,
    /// Indexed by `LinkSeries::dir`.
    pub link_names: Vec<DirName>,
    /// Indexed by `ConsumerSeries::consumer`.
    pub consumer_names: Vec<ConsumerName>,
    /// Indexed by `PathSeries::path`.
    pub path_names: Vec<PathName>,
    /// The per-segment trace (empty unless `[trace] interests = true`).
    pub interests: InterestSeries,
    /// Indexed by `InterestSeries::consumer`.
    pub interest_names: Vec<InterestName>,
    /// Per face and bin (`[trace] faces`; empty otherwise).
    pub faces: FaceSeries,
    /// Per node and bin (`[trace] nodes`; empty otherwise).
    pub nodes: NodeSeries,
    /// Indexed by `FaceSeries::face`.
    pub face_names: Vec<FaceName>,
    /// Indexed by `NodeSeries::node`: the scenario's node names.
    pub node_names: Vec<String>,
}

/// A run's time series as `Simulation::traces` hands them out: the link and consumer rows still
/// compact, so a caller can decode one trace at a time (the Python layer copies each into numpy
/// when it is first read).
#[derive(Clone, Debug)]
pub struct RunTraces {
    pub log: Arc<TraceLog>,
    pub paths: PathSeries,
    pub objects: ObjectSeries,
    pub forwarding: ForwardingSeries,
    pub link_names: Vec<DirName>,
    pub consumer_names: Vec<ConsumerName>,
    pub path_names: Vec<PathName>,
    pub interests: InterestSeries,
    pub interest_names: Vec<InterestName>,
    pub faces: FaceSeries,
    pub nodes: NodeSeries,
    pub face_names: Vec<FaceName>,
    pub node_names: Vec<String>,
}

impl RunTraces {
    /// Every trace as columns, with the run's summary.
    pub fn into_results(self, summary: Summary) -> Results {
        Results {
            summary,
            links: self.log.links(),
            consumers: self.log.consumers(),
            paths: self.paths,
            objects: self.objects,
            forwarding: self.forwarding,
            link_names: self.link_names,
            consumer_names: self.consumer_names,
            path_names: self.path_names,
            interests: self.interests,
            interest_names: self.interest_names,
            faces: self.faces,
            nodes: self.nodes,
            face_names: self.face_names,
            node_names: self.node_names,
        }
    }
}

#[cfg(test)]
#[path = "trace_paths_tests.rs"]
mod paths_tests;
