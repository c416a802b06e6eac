//! MIRCC's consumer (Mahdian, Arianfar, Gibson and Oran, "MIRCC: Multipath-aware ICN Rate-based
//! Congestion Control", ACM ICN 2016), the rate-based baseline of the DPCCP paper (§II, §VII), as
//! a subflow manager. MIRCC's own text was not available to us; what we take, and from where, is
//! in docs/protocols/mircc.md.
//!
//! * **Rates come from the network.** Every MIRCC link computes an RCP-style rate and lowers the
//!   rate a Data carries to it ("MIRCC routers calculate their link rate R(t). They compare R(t)
//!   in Data packets and their own R(t), and update Data packets' R(t) with smaller value", SMIC
//!   §6), so each Data brings back the smallest rate on its path; a sub-flow sends at that rate
//!   ("these rates are returned to consumers to adjust requesting speeds", DPCCP §II). The rate is
//!   in bits per second of link bytes: a sub-flow sends `R / (8 x the Data's size on the link)`
//!   Interests per second, paced.
//! * **One path, two holders.** Where a cache and the producer both answer a path's Interests,
//!   its Data bring two rates, the cache's path's and the producer's longer one, and MIRCC "cannot
//!   distinguish multiple sources (C and D) on the same path. As the result, Consumer A adjusts
//!   its requesting rate for bottlenecks D–C and C–B" (DPCCP §VII-B-1). A sub-flow therefore
//!   sends at the smallest rate its Data brought over the last smoothed RTT (`PathRate::Smallest`,
//!   our reading): every bottleneck its Interests may meet holds it, as RCP's flow is held by the
//!   smallest rate on its path. The DPCCP paper's account of what follows, "low bandwidth
//!   utilization" between the two ends of SP-1 and a queue "nearly empty", is what this reading
//!   gives; following each Data's rate as it comes (`PathRate::Latest`, the reading until
//!   2026-11-28) overruns D-C instead (docs/experiments/dpccp.md has both).
//! * **Paths** are PTP's (DPCCP §II: MIRCC "took advantage of path-switch"), found by probes every
//!   `1 / probe_rate` as DPCCP's consumer finds them (routers need `ptp = true`).
//! * **Two classes** ("They split flows into two classes, the primary and secondary, and perform
//!   different congestion control for the two classes", SMIC §2): the primary sub-flow follows
//!   the first-class rate (`mircc_rate`), the others the second-class rate (`mircc_rate2`), which
//!   links compute from what the first class leaves; the secondaries' Interests carry
//!   `MIRCC_SECONDARY`, echoed by the producer, so that links count their Data in the second class.
//!
//! Our choices where the sources are silent (docs/protocols/mircc.md gives the reasons):
//! * The primary is the open sub-flow whose first-class rate (`PathRate`) is highest (the path
//!   with the most to offer a single-path flow), the earliest found on a tie; it is chosen again
//!   on every Data, and changes only when another path's rate is strictly higher
//!   (`PrimaryRule::Best`). `PrimaryRule::First` keeps the first found while it is open.
//! * A path's first rates come with the probe that found it (the probe's Data crosses the same
//!   links); a Data without rates (no MIRCC link on the path) leaves the sub-flow at
//!   `initial_window` Interests per RTT of that probe.
//! * Losses are not a congestion signal (rate-based, as RCP): a timeout retransmits. Each sub-flow
//!   times its Interests with its own RFC 6298 estimator floored at 1 s, as DPCCP's and PTP's.

use std::collections::VecDeque;

use super::pacing::{interval, paced_flow, path_header, Answered, PacedFlows, Pacer, Turn};
use super::paths::Tags;
use super::{PathReport, PathSend, SubflowManager};
use crate::app::cc::DataSample;
use crate::app::rtt::{RttEstimator, RttOptions};
use crate::packet::lp::flags;
use crate::packet::{LpHeader, NackReason};
use crate::Time;

/// Which rate a sub-flow sends at, of those its Data brought (see the module comment).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PathRate {
    /// The smallest over the last smoothed RTT.
    #[default]
    Smallest,
    /// The latest Data's, as it comes.
    Latest,
}

impl PathRate {
    /// The scenario words.
    pub const NAMES: [(&'static str, PathRate); 2] = [("smallest", PathRate::Smallest), ("latest", PathRate::Latest)];
}

/// Which open sub-flow is primary (see the module comment).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PrimaryRule {
    /// The one whose first-class rate is highest, chosen again on every Data.
    #[default]
    Best,
    /// The first found, for as long as it stays open (then the next found).
    First,
}

impl PrimaryRule {
    /// The scenario words.
    pub const NAMES: [(&'static str, PrimaryRule); 2] = [("best", PrimaryRule::Best), ("first", PrimaryRule::First)];
}

/// MIRCC's consumer parameters (docs/protocols/mircc.md).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MirccConfig {
    /// Most sub-flows at once (PTP's N, 10, as DPCCP's consumer).
    pub max_paths: usize,
    /// Probing Interests per second (PTP §3-A's 10).
    pub probe_rate: f64,
    /// A sub-flow's rate, in Interests per RTT of its probe, until a Data brings a link rate.
    pub initial_window: f64,
    /// Floor of each sub-flow's RTO (RFC 6298 §2.4's 1 s).
    pub min_rto: Time,
    /// Which of its Data's rates a sub-flow follows.
    pub path_rate: PathRate,
    /// Which sub-flow is primary.
    pub primary: PrimaryRule,
}

impl Default for MirccConfig {
    fn default() -> Self {
        MirccConfig {
            max_paths: 10,
            probe_rate: 10.0,
            initial_window: 10.0,
            min_rto: super::ptp::TCP_MIN_RTO,
            path_rate: PathRate::Smallest,
            primary: PrimaryRule::Best,
        }
    }
}

/// The two rates the latest Data of a path carried, bits per second.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct LinkRates {
    first: Option<f64>,
    second: Option<f64>,
}

impl LinkRates {
    fn of(lp: &LpHeader) -> LinkRates {
        let ext = lp.ext.as_deref();
        LinkRates {
            first: ext.and_then(|e| e.mircc_rate).map(|r| r as f64),
            second: ext.and_then(|e| e.mircc_rate2).map(|r| r as f64),
        }
    }

    /// Keeps the rates a Data brought, and the older ones where it brought none.
    fn update(&mut self, newer: LinkRates) {
        self.first = newer.first.or(self.first);
        self.second = newer.second.or(self.second);
    }
}

/// The smallest value pushed within the last `window`, kept as a monotonic deque: a value stays
/// only while nothing smaller came after it, so the front is the minimum (O(1) amortised per
/// push). When every value is older than the window the newest stays: a path whose Data stop
/// carrying rates keeps its last one, as `LinkRates::update` does.
#[derive(Clone, Debug, Default)]
struct WindowMin {
    values: VecDeque<(Time, f64)>,
}

impl WindowMin {
    fn push(&mut self, now: Time, value: f64) {
        while self.values.back().is_some_and(|&(_, v)| v >= value) {
            self.values.pop_back();
        }
        self.values.push_back((now, value));
    }

    fn min(&mut self, now: Time, window: Time) -> Option<f64> {
        while self.values.len() > 1 && self.values.front().is_some_and(|&(t, _)| now.saturating_sub(t) > window) {
            self.values.pop_front();
        }
        self.values.front().map(|&(_, v)| v)
    }
}

/// Each class's rates a sub-flow's Data brought, for `PathRate::Smallest`.
#[derive(Clone, Debug, Default)]
struct RecentRates {
    first: WindowMin,
    second: WindowMin,
}

impl RecentRates {
    fn push(&mut self, now: Time, rates: LinkRates) {
        if let Some(r) = rates.first {
            self.first.push(now, r);
        }
        if let Some(r) = rates.second {
            self.second.push(now, r);
        }
    }

    /// The smallest of each class over the last `window`; none where no Data brought one.
    fn smallest(&mut self, now: Time, window: Time) -> LinkRates {
        LinkRates { first: self.first.min(now, window), second: self.second.min(now, window) }
    }
}

struct SubFlow {
    tags: Tags,
    open: bool,
    /// The rates it sends at (`PathRate`).
    rates: LinkRates,
    recent: RecentRates,
    /// Interests per second before any link rate is known.
    fallback: f64,
    /// The size on the link of its latest Data, bytes.
    data_size: f64,
    rtt: RttEstimator,
    pacer: Pacer,
    data: u64,
    timeouts: u64,
}

impl SubFlow {
    /// Interests per second in class `primary`.
    fn rate(&self, primary: bool) -> f64 {
        let link = if primary { self.rates.first } else { self.rates.second };
        match link {
            Some(bps) if self.data_size > 0.0 => bps / (8.0 * self.data_size),
            _ => self.fallback,
        }
    }

    fn srtt_secs(&self) -> f64 {
        self.rtt.srtt().map_or(0.0, |t| t.as_secs_f64())
    }
}

paced_flow!(SubFlow);

/// MIRCC's consumer: the sub-flows of one flow, one of them primary.
pub struct Mircc {
    config: MirccConfig,
    paths: PacedFlows<SubFlow>,
    /// Index of the primary sub-flow, once there is an open one.
    primary: Option<usize>,
    /// Times the primary moved to another path.
    pub primary_changes: u64,
}

impl Mircc {
    /// `rto`: the consumer's timer options, which each sub-flow runs with its own floor.
    pub fn new(config: MirccConfig, rto: RttOptions) -> Mircc {
        let rto = RttOptions { min_rto: config.min_rto.min(rto.max_rto), ..rto };
        let paths = PacedFlows::new(config.probe_rate, rto, config.max_paths);
        Mircc { config, paths, primary: None, primary_changes: 0 }
    }

    /// Each open sub-flow's (primary, requesting rate in Interests per second).
    pub fn rates(&self) -> impl Iterator<Item = (bool, f64)> + '_ {
        self.paths.open().map(|(i, f)| {
            let primary = self.primary == Some(i);
            (primary, f.rate(primary))
        })
    }

    fn interval(&self, i: usize) -> Time {
        interval(self.paths.flows[i].rate(self.primary == Some(i)))
    }

    /// A probe came back over a new path, `tags`, after `rtt`, with the link rates and size of
    /// its Data.
    fn learn_path(&mut self, now: Time, tags: Tags, rtt: Option<Time>, sample: &DataSample) {
        let rtt = rtt.unwrap_or(Time::from_secs(1)).max(Time::from_micros(1));
        let mut estimator = RttEstimator::new(self.paths.rto);
        estimator.add_sample(rtt);
        let mut recent = RecentRates::default();
        if self.config.path_rate == PathRate::Smallest {
            recent.push(now, LinkRates::of(sample.lp));
        }
        self.paths.flows.push(SubFlow {
            tags,
            open: true,
            rates: LinkRates::of(sample.lp),
            recent,
            fallback: self.config.initial_window / rtt.as_secs_f64(),
            data_size: f64::from(sample.wire_size),
            rtt: estimator,
            pacer: Pacer::new(now),
            data: 0,
            timeouts: 0,
        });
        self.choose_primary();
    }

    /// The open sub-flow with the highest first-class rate (see the module comment); the
    /// sub-flows whose class changed are re-paced.
    fn choose_primary(&mut self) {
        let rate = |f: &SubFlow| f.rates.first.unwrap_or(0.0);
        let flows = &self.paths.flows;
        let mut best = self.primary.filter(|&i| flows[i].open);
        for (i, f) in self.paths.open() {
            let better = match self.config.primary {
                PrimaryRule::Best => best.is_none_or(|b| rate(f) > rate(&flows[b])),
                PrimaryRule::First => best.is_none(),
            };
            if better {
                best = Some(i);
            }
        }
        if best == self.primary {
            return;
        }
        if self.primary.is_some() && best.is_some() {
            self.primary_changes += 1;
        }
        let before = std::mem::replace(&mut self.primary, best);
        for i in [before, best].into_iter().flatten() {
            let interval = self.interval(i);
            self.paths.flows[i].pacer.repace(interval);
        }
    }
}

impl SubflowManager for Mircc {
    fn name(&self) -> &'static str {
        "mircc"
    }

    fn can_send(&self, now: Time) -> bool {
        self.paths.can_send(now)
    }

    fn can_resend(&self, now: Time) -> bool {
        self.paths.can_resend(now)
    }

    fn path_for(&mut self, now: Time, segment: u64, retransmission: bool) -> Option<PathSend> {
        let i = match self.paths.turn(now, segment, retransmission)? {
            Turn::Probe(send) => return Some(send),
            Turn::Flow(i) => i,
        };
        let interval = self.interval(i);
        let f = &mut self.paths.flows[i];
        f.pacer.sent(now, interval);
        let mut lp = path_header(&f.tags);
        if self.primary != Some(i) {
            lp.flags |= flags::MIRCC_SECONDARY;
        }
        let rto = Some(f.rtt.rto());
        self.paths.sent_on(segment, i);
        Some(PathSend { lp, rto })
    }

    fn on_data(&mut self, now: Time, sample: &DataSample) {
        match self.paths.on_data(sample) {
            Answered::NewPath(tags) => self.learn_path(now, tags, sample.rtt, sample),
            Answered::Flow(i) => {
                let f = &mut self.paths.flows[i];
                f.data += 1;
                if let Some(r) = sample.rtt {
                    f.rtt.add_sample(r);
                }
                let brought = LinkRates::of(sample.lp);
                match self.config.path_rate {
                    PathRate::Latest => f.rates.update(brought),
                    PathRate::Smallest => {
                        f.recent.push(now, brought);
                        let window = f.rtt.srtt().unwrap_or_else(|| sample.rtt.unwrap_or_default());
                        f.rates = f.recent.smallest(now, window);
                    }
                }
                f.data_size = f64::from(sample.wire_size);
                self.choose_primary();
                let interval = self.interval(i);
                self.paths.flows[i].pacer.repace(interval);
            }
            // MIRCC's rates come from the routers: a probe's RTT tells it nothing.
            Answered::Probe(_) | Answered::Nothing => {}
        }
    }

    fn on_timeout(&mut self, _now: Time, segment: u64) {
        self.paths.on_timeout(segment);
    }

    fn on_nack(&mut self, _now: Time, segment: u64, reason: NackReason, _marked: bool) {
        // PTP §4-C-2: a path Nacked NoRoute is broken.
        if self.paths.on_nack(segment, reason) {
            self.choose_primary();
        }
    }

    fn path_of(&self, segment: u64) -> Option<u64> {
        self.paths.path_of(segment)
    }

    fn take_lost(&mut self, _out: &mut Vec<u64>) {}

    fn poll_timeout(&self) -> Option<Time> {
        self.paths.poll(|f| f.pacer.next_send)
    }

    fn poll_resend(&self) -> Option<Time> {
        self.paths.poll_resend(|f| f.pacer.next_send)
    }

    fn handle_timeout(&mut self, _now: Time) {}

    /// The Interests the rates keep in flight: each sub-flow's rate times its smoothed RTT.
    fn window(&self) -> f64 {
        self.rates().zip(self.paths.open()).map(|((_, r), (_, f))| r * f.srtt_secs()).sum()
    }

    fn paths(&self) -> Vec<PathReport> {
        self.paths
            .flows
            .iter()
            .enumerate()
            .map(|(i, f)| PathReport {
                tags: f.tags.to_vec(),
                tag_stack: true,
                state: match (f.open, self.primary == Some(i)) {
                    (false, _) => "failed",
                    (true, true) => "primary",
                    (true, false) => "secondary",
                },
                window: f.rate(self.primary == Some(i)) * f.srtt_secs(),
                srtt: f.rtt.srtt(),
                data: f.data,
                losses: 0,
                decreases: 0,
                timeouts: f.timeouts,
                sharing: None,
                bandwidth: None,
            })
            .collect()
    }
}

#[cfg(test)]
#[path = "mircc_tests.rs"]
mod tests;
