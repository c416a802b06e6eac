//! The end-of-run summary (`summary.json`): the simulation's totals, each consumer's, link's and
//! node's counters, and the multipath consumers' paths.

use std::collections::BTreeMap;

use ndnflow_core::app::multipath::PathReport;
use ndnflow_core::app::ConsumerStats;
use ndnflow_core::Time;
use serde::Serialize;

use crate::link::LinkCounters;

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct SimulationSummary {
    pub duration_s: f64,
    pub seed: u64,
    pub end_s: f64,
    pub events: u64,
    pub packet_hops: u64,
    /// Why the run ended before its duration, when the memory watch, a refused allocation or a
    /// failing outside protocol (`Simulation::stop_on`) stopped it (absent otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped: Option<String>,
    /// The forwarding log's size, when `[trace] forwarding` is on (absent otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub forwarding_log: Option<ForwardingLogSummary>,
}

/// How much the forwarding log kept: `records` rows (at most `max_records`), and `dropped` more
/// that came after the cap and were not kept.
#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq)]
pub struct ForwardingLogSummary {
    pub records: u64,
    pub dropped: u64,
    pub max_records: u64,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct ConsumerSummary {
    pub node: String,
    pub name: String,
    pub goodput_bps: f64,
    pub interests_sent: u64,
    pub data_received: u64,
    /// Of `data_received`, those a Content Store or simulated cache answered, not a producer.
    pub data_from_cache: u64,
    pub timeouts: u64,
    pub nacks: u64,
    pub retransmissions: u64,
    pub marks: u64,
    pub abandoned: u64,
    /// Interests found lost by a multipath transport's order-based detection (not by a Nack).
    pub losses: u64,
    /// Data that came for an Interest already counted by its timeout, Nack or detected loss.
    pub late_data: u64,
    /// Interests outstanding when FinalBlockId showed their segment past the end.
    pub forgotten: u64,
    /// Interests still waiting for an answer when the run ended.
    pub pending: u64,
    /// Of `pending`, those already counted by a Nack.
    pub pending_nacked: u64,
    pub payload_bytes: u64,
    pub rtt_min_ms: Option<f64>,
    pub rtt_avg_ms: Option<f64>,
    pub rtt_max_ms: Option<f64>,
    /// Percentiles of the same RTT samples (nearest rank, from a log-linear histogram within
    /// 0.39 %: `ndnflow_core::app::rtt_histogram`).
    pub rtt_p50_ms: Option<f64>,
    pub rtt_p95_ms: Option<f64>,
    pub rtt_p99_ms: Option<f64>,
    pub start_s: f64,
    pub end_s: f64,
    pub finished: bool,
    /// A multipath transport's paths, in the order found (absent for single-path consumers).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub paths: Option<Vec<PathSummary>>,
    /// A catalog consumer's objects (absent for a consumer of one object).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub catalog: Option<CatalogSummary>,
}

impl ConsumerSummary {
    /// A consumer's row from its counters and RTT samples, active from `start` to `end` (goodput
    /// is its content bytes x 8 over that span), with nothing pending, no paths and no catalog:
    /// the caller sets those it has. The simulated run's summary and `ndnflow get` (ndnflow-net)
    /// both make their rows here.
    #[allow(clippy::too_many_arguments)]
    pub fn of(
        node: String,
        name: String,
        s: &ConsumerStats,
        rtt: &ndnflow_core::app::RttHistogram,
        start: Time,
        end: Time,
        finished: bool,
    ) -> ConsumerSummary {
        let active = (end - start).as_secs_f64();
        let ms = |t: Option<Time>| t.map(|t| t.as_millis_f64());
        ConsumerSummary {
            node,
            name,
            goodput_bps: if active > 0.0 { s.payload_bytes as f64 * 8.0 / active } else { 0.0 },
            interests_sent: s.interests_sent,
            data_received: s.data_received,
            data_from_cache: s.data_from_cache,
            timeouts: s.timeouts,
            nacks: s.nacks,
            retransmissions: s.retransmissions,
            marks: s.marks,
            abandoned: s.abandoned,
            losses: s.losses,
            late_data: s.late_data,
            forgotten: s.forgotten,
            pending: 0,
            pending_nacked: 0,
            payload_bytes: s.payload_bytes,
            rtt_min_ms: ms(s.rtt_min),
            rtt_avg_ms: (s.rtt_samples > 0).then(|| s.rtt_sum.as_millis_f64() / s.rtt_samples as f64),
            rtt_max_ms: ms(s.rtt_max),
            rtt_p50_ms: ms(rtt.percentile(50.0)),
            rtt_p95_ms: ms(rtt.percentile(95.0)),
            rtt_p99_ms: ms(rtt.percentile(99.0)),
            start_s: start.as_secs_f64(),
            end_s: end.as_secs_f64(),
            finished,
            paths: None,
            catalog: None,
        }
    }
}

/// What a catalog consumer fetched: objects completed and their mean completion time (end - start).
#[derive(Clone, Copy, Debug, Serialize, PartialEq)]
pub struct CatalogSummary {
    pub objects_completed: u64,
    /// `None` when no object completed.
    pub mean_completion_s: Option<f64>,
}

impl CatalogSummary {
    pub fn of(objects: &[ndnflow_core::app::ObjectRecord]) -> CatalogSummary {
        let times: Vec<f64> = objects.iter().filter_map(|o| o.end.map(|e| (e - o.start).as_secs_f64())).collect();
        let n = times.len();
        let mean_completion_s = (n > 0).then(|| times.iter().sum::<f64>() / n as f64);
        CatalogSummary { objects_completed: n as u64, mean_completion_s }
    }
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct NodeSummary {
    pub in_interests: u64,
    pub out_interests: u64,
    pub in_data: u64,
    pub out_data: u64,
    pub in_nacks: u64,
    pub out_nacks: u64,
    pub cs_hits: u64,
    pub cs_misses: u64,
    pub pit_aggregated: u64,
    pub pit_expired: u64,
    pub duplicates: u64,
    pub unsolicited_data: u64,
    pub no_route: u64,
    pub hop_limit_exceeded: u64,
    pub pit_entries_at_end: u64,
    /// PTP's router counters, on a node with `ptp = true` (absent elsewhere).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ptp: Option<PtpNodeSummary>,
    /// DPCCP's router counters, on a node with `dpccp` (absent elsewhere).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dpccp: Option<DpccpNodeSummary>,
    /// The simulated cache's draws, on a node with `simulated_cache` (absent elsewhere). Its hits
    /// are in `cs_hits` too.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub simulated_cache: Option<SimulatedCacheSummary>,
}

/// One path of a multipath consumer at the end of the run.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct PathSummary {
    /// The tag stack its Interests carry (last = top: the consumer's own node's face); SMIC's
    /// path ids.
    pub tags: Vec<u64>,
    /// A tag stack read back into the path's nodes, producer first (the way its Data travel);
    /// absent for SMIC's path ids, an untagged path, and outside the simulator.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nodes: Option<Vec<String>>,
    /// "in-use", "idle" or "failed"; MIRCC's sub-flows in use are "primary" or "secondary".
    pub state: &'static str,
    /// Congestion window at the end, in Interests.
    pub window: f64,
    pub srtt_ms: Option<f64>,
    /// Data received on it over the run.
    pub data: u64,
    /// Interests found lost by order, window decreases, timeouts.
    pub losses: u64,
    pub decreases: u64,
    pub timeouts: u64,
    /// SMIC: how many sub-flows share its bottleneck, itself included (absent for others).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sharing: Option<usize>,
    /// PTP: its delivery rate over its last period in use, bits per second (absent before one,
    /// and for the other transports).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bandwidth_bps: Option<f64>,
}

impl PathSummary {
    /// A path's row from what its consumer reports of it.
    pub fn of(p: PathReport) -> PathSummary {
        PathSummary {
            tags: p.tags,
            nodes: None,
            state: p.state,
            window: p.window,
            srtt_ms: p.srtt.map(|t| t.as_millis_f64()),
            data: p.data,
            losses: p.losses,
            decreases: p.decreases,
            timeouts: p.timeouts,
            sharing: p.sharing,
            bandwidth_bps: p.bandwidth,
        }
    }
}

/// What a PTP router did (MPFP, PTP §4): Interests it steered, and its FAB's lookups.
#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq)]
pub struct PtpNodeSummary {
    pub probes: u64,
    pub tag_switched: u64,
    pub tag_fallbacks: u64,
    pub tag_nacks: u64,
    pub fab_hits: u64,
    pub fab_misses: u64,
    pub fab_evictions: u64,
}

/// What a DPCCP router did (§VI-C hop count, §VI-E-7 RTT-probing labels).
#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq)]
pub struct DpccpNodeSummary {
    /// Data sent with a hop count.
    pub hop_counted: u64,
    /// Times a link face became labelled "RTT-Probing".
    pub faces_labelled: u64,
    /// Data this node flagged for draining as they left a labelled face.
    pub drain_flagged: u64,
}

/// A simulated cache's draws (DPCCP §VII-A).
#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq)]
pub struct SimulatedCacheSummary {
    /// Interests under its prefix that drew.
    pub lookups: u64,
    pub hits: u64,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Summary {
    pub simulation: SimulationSummary,
    pub consumers: BTreeMap<String, ConsumerSummary>,
    pub links: BTreeMap<String, LinkCounters>,
    pub nodes: BTreeMap<String, NodeSummary>,
}
