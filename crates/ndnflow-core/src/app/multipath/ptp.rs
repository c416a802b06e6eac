//! PTP's consumer (Ye et al., "PTP: Path-specified Transport Protocol"): path probing (§3-A),
//! in-use path selection and management (§4-C), and MPCCP's per-path congestion control coupled by
//! Linked Increase (§5), as a subflow manager (`PathSpecified`). MPTCP's consumer (`mptcp`) is the
//! same manager over the same probed paths with its own per-path parameters and coupling.
//!
//! * **Probing.** Every `1 / probe_rate` one Interest leaves as a probe (link-header flag
//!   `PTP_PROBE`, no tag), whatever the windows; the routers spread probes over their next hops
//!   and the Data comes back with the path as a tag stack (§3-A: "10 probing packets every second").
//!   A probe asks for a real segment, so it costs nothing the consumer did not want (§3-A: probes
//!   "always bring back both tags and Data packets").
//! * **In-use paths.** A newly seen path is put in use while fewer than `max_paths` (N) are; each
//!   in-use path has its own MPCCP state (`PathCongestion`) and its own RFC 6298 timer, fed only by
//!   Data that came from the producer (§5-C-1). Every `reselect_every` (T), when all N slots are
//!   taken and other paths are known, the in-use path that delivered the fewest Data in the period
//!   gives its slot to a random unused one (§4-C-1, the bandwidth-greedy rule; Appendix I's other
//!   rules, and their hybrid, are in `selection.rs`, chosen by `PtpConfig::selection`). A Nack(NoRoute) on
//!   a path disables it at once (§4-C-2: "the consumer disables this failed in-use path and
//!   replaces it with one unused path").
//! * **Sending.** `PathSet::choose` (paths.rs): the path that lost a segment resends it, others go
//!   to the path with the most room. The Interest carries the path's tag stack.
//! * **Losses.** A producer Data that overtakes earlier Interests of its path declares them lost
//!   (MPCCP Condition I); the consumer resends them at once (`take_lost`). Our addition: the Data
//!   of a resent segment declares nothing, since it may answer the first copy (`PathSet::on_data`);
//!   without that, a late first copy read as the resend overtaking its path's whole queue.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use smallvec::SmallVec;

use super::coupling::CouplingName;
use super::mpccp::MpccpConfig;
use super::paths::{PathSet, Sent, Tags, Use};
use super::selection::{weighted_index, Candidate, PathProbes, PathSelection};
use super::{PathReport, PathSend, SubflowManager};
use crate::app::cc::DataSample;
use crate::app::rtt::RttOptions;
use crate::packet::lp::flags;
use crate::packet::{LpHeader, NackReason};
use crate::Time;

/// PTP's consumer parameters, with the paper's values by default.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PtpConfig {
    /// N: most paths in use at once (§3-B; §6-A: 10).
    pub max_paths: usize,
    /// T: the period of the in-use path reselection (§4-C; §6-A: 10 s).
    pub reselect_every: Time,
    /// Probing Interests per second (§3-A: "e.g. 10 probing packets every second").
    pub probe_rate: f64,
    /// Each path's MPCCP parameters (beta 0.75, §6-A).
    pub mpccp: MpccpConfig,
    /// How the paths' increases are linked: Linked Increase (§5-D-5).
    pub coupling: CouplingName,
    /// Floor of each path's RTO. Default 1 s: §5-C-2 uses "RTO timers (as in TCP)", and RFC 6298
    /// §2.4 rounds an RTO below 1 s up to 1 s (the consumer's own timer keeps ndn-cxx's 200 ms).
    pub min_rto: Time,
    /// How the in-use paths are chosen: §4-C-1's bandwidth-greedy rule (what §6 runs), or one of
    /// Appendix I's.
    pub selection: PathSelection,
}

/// RFC 6298 §2.4's floor of a TCP retransmission timer.
pub const TCP_MIN_RTO: Time = Time::from_secs(1);

impl Default for PtpConfig {
    fn default() -> Self {
        PtpConfig {
            max_paths: 10,
            reselect_every: Time::from_secs(10),
            probe_rate: 10.0,
            mpccp: MpccpConfig::default(),
            coupling: CouplingName::LIA,
            min_rto: TCP_MIN_RTO,
            selection: PathSelection::Bandwidth,
        }
    }
}

/// What a path-specified subflow manager does, whichever transport configures it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PathSpecifiedConfig {
    /// Most paths in use at once.
    pub max_paths: usize,
    /// The bandwidth-greedy reselection period; `None`: paths stay in use until they fail.
    pub reselect_every: Option<Time>,
    /// Probing Interests per second.
    pub probe_rate: f64,
    /// Each path's congestion state machine.
    pub congestion: MpccpConfig,
    pub coupling: CouplingName,
    /// Floor of each path's RTO (at most the consumer's `max_rto`).
    pub min_rto: Time,
    /// The rule `reselect_every` applies.
    pub selection: PathSelection,
}

impl From<PtpConfig> for PathSpecifiedConfig {
    fn from(c: PtpConfig) -> Self {
        PathSpecifiedConfig {
            max_paths: c.max_paths,
            reselect_every: Some(c.reselect_every),
            probe_rate: c.probe_rate,
            congestion: c.mpccp,
            coupling: c.coupling,
            min_rto: c.min_rto,
            selection: c.selection,
        }
    }
}

/// The subflow manager over PTP's probed, tag-specified paths.
pub struct PathSpecified {
    name: &'static str,
    config: PathSpecifiedConfig,
    paths: PathSet,
    /// What the probes told of each path, by path index: the latency rules read their RTTs,
    /// `BandwidthProbed` how many found it.
    probes: Vec<PathProbes>,
    next_probe: Option<Time>,
    next_reselect: Option<Time>,
    rng: ChaCha8Rng,
}

/// PTP's consumer.
pub type Ptp = PathSpecified;

/// When the probe after one sent at `now` is due, probes every `step`: on the grid of the one that
/// was due (`due`) while there is traffic, and after a pause one step from now (no catching up).
pub(super) fn next_probe(due: Option<Time>, now: Time, step: Time) -> Time {
    due.map_or(now, |t| t.max(now.saturating_sub(step))) + step
}

impl PathSpecified {
    /// PTP's consumer: `rto` is the consumer's timer options, which each path runs on its own.
    pub fn new(config: PtpConfig, rto: RttOptions, seed: u64) -> PathSpecified {
        PathSpecified::with_config("ptp", config.into(), rto, seed)
    }

    /// The manager of transport `name` (for traces) with `config`.
    pub fn with_config(name: &'static str, config: PathSpecifiedConfig, rto: RttOptions, seed: u64) -> PathSpecified {
        let path_rto = RttOptions { min_rto: config.min_rto.min(rto.max_rto), ..rto };
        PathSpecified {
            name,
            paths: PathSet::new(config.coupling.coupling(), config.congestion, path_rto),
            config,
            probes: Vec::new(),
            next_probe: None,
            next_reselect: None,
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    /// The paths found so far, in the order they were found: (tag stack, in use, window).
    pub fn found_paths(&self) -> impl Iterator<Item = (&[u64], bool, f64)> {
        self.paths.iter().map(|p| (p.tags.as_slice(), p.state == Use::Active, p.congestion.cwnd()))
    }

    /// Whether a probing Interest is due (it goes before any path's Interest).
    pub(super) fn probe_due(&self, now: Time) -> bool {
        self.next_probe.is_none_or(|t| now >= t)
    }

    fn probe_interval(&self) -> Time {
        Time::from_secs_f64(1.0 / self.config.probe_rate.max(1e-9))
    }

    /// The path set, for a transport that adds per-path machinery of its own (MPTCP's loss
    /// probes, `tlp`).
    pub(super) fn path_set(&self) -> &PathSet {
        &self.paths
    }
    pub(super) fn path_set_mut(&mut self) -> &mut PathSet {
        &mut self.paths
    }

    /// Paths found broken (Nack NoRoute) and not yet back.
    pub fn failed_paths(&self) -> usize {
        self.paths.iter().filter(|p| p.state == Use::Failed).count()
    }

    /// What the coupling sees of the in-use paths (for tests).
    #[cfg(test)]
    pub(crate) fn coupled_views(&self) -> Vec<super::PathView> {
        self.paths.views(usize::MAX).0.to_vec()
    }

    /// A probe brought back a path: note it, and use it if a slot is free. A failed path that a
    /// probe finds again works again (§4-C-2 replaces paths that fail; nothing says for good): it
    /// returns to the idle set.
    fn learn_path(&mut self, now: Time, tags: &[u64], rtt: Option<Time>) {
        if let Some(i) = self.paths.find(tags) {
            self.note_probe(i, rtt);
            if self.paths.get(i).state == Use::Failed {
                self.paths.set_state(i, Use::Idle);
                self.replace_failed(now);
            }
            return;
        }
        if let Some(i) = self.paths.learn(tags, rtt) {
            self.note_probe(i, rtt);
            if self.paths.in_use_count() < self.config.max_paths {
                self.paths.put_in_use(i, now);
            }
        }
    }

    /// A probe found path `i` (its RTT, `None` under Karn's rule for a resent segment).
    fn note_probe(&mut self, i: usize, rtt: Option<Time>) {
        if self.probes.len() <= i {
            self.probes.resize_with(i + 1, PathProbes::default);
        }
        self.probes[i].found(rtt);
    }

    /// A known path not in use: the best-ranked under a ranked rule, under `BandwidthProbed` one
    /// drawn in proportion to its probes' finds, otherwise a random one.
    fn pick_idle(&mut self) -> Option<usize> {
        let idle: SmallVec<[usize; 16]> =
            (0..self.paths.len()).filter(|&i| self.paths.get(i).state == Use::Idle).collect();
        if self.config.selection.is_ranked() {
            return self.config.selection.best(&self.candidates(&idle), 1).first().copied();
        }
        if self.config.selection == PathSelection::BandwidthProbed {
            // Every known path was found by a probe at least once; the floor of 1 keeps a path
            // learnt any other way drawable.
            let weights: SmallVec<[u64; 16]> =
                idle.iter().map(|&i| self.probes.get(i).map_or(0, PathProbes::finds).max(1)).collect();
            let total: u64 = weights.iter().sum();
            if total == 0 {
                return None;
            }
            let x = self.rng.random_range(0..total);
            return weighted_index(&weights, x).map(|k| idle[k]);
        }
        (!idle.is_empty()).then(|| idle[self.rng.random_range(0..idle.len())])
    }

    /// What a ranked rule knows of paths `of`.
    fn candidates(&self, of: &[usize]) -> Vec<(usize, Candidate<'_>)> {
        static NONE: PathProbes = PathProbes::EMPTY;
        of.iter()
            .map(|&i| {
                let p = self.paths.get(i);
                let probes = self.probes.get(i).unwrap_or(&NONE);
                (i, Candidate { hops: p.tags.len(), probes, in_use: p.state == Use::Active, bandwidth: p.bandwidth })
            })
            .collect()
    }

    /// Every T (§4-C-2 limits path changes to one per T): first, paths failed for at least a
    /// period return to the idle set (a failed link may have been repaired since) and fill free
    /// slots; then, when every slot is taken, the rule changes the in-use set.
    fn reselect(&mut self, now: Time, every: Time) {
        // A path put in use less than half a period ago keeps the bandwidth it had (our choice:
        // so short a span is mostly slow start, and would rank a path by its start-up).
        self.paths.measure_bandwidths(now, Time::from_nanos(every.as_nanos() / 2));
        if self.paths.restore_failed(now.saturating_sub(every)) > 0 {
            self.replace_failed(now);
        }
        if self.paths.in_use_count() >= self.config.max_paths {
            if self.config.selection.is_ranked() {
                self.use_best_ranked(now);
            } else {
                self.swap_one(now);
            }
        }
        self.paths.reset_delivered(now);
    }

    /// §4-C-1: the in-use path that delivered least (under `Random`, any in-use path) gives its
    /// slot to a random unused path.
    fn swap_one(&mut self, now: Time) {
        let in_use: SmallVec<[usize; 16]> = self.paths.in_use().map(|(i, _)| i).collect();
        let worst = match self.config.selection {
            PathSelection::Random if !in_use.is_empty() => Some(in_use[self.rng.random_range(0..in_use.len())]),
            _ => self.paths.in_use().min_by_key(|(i, p)| (p.delivered, *i)).map(|(i, _)| i),
        };
        if let (Some(worst), Some(pick)) = (worst, self.pick_idle()) {
            self.paths.set_state(worst, Use::Idle);
            self.paths.put_in_use(pick, now);
        }
    }

    /// Appendix I's ranked rules: the N best-ranked known paths become the in-use set.
    fn use_best_ranked(&mut self, now: Time) {
        let usable: Vec<usize> = (0..self.paths.len()).filter(|&i| self.paths.get(i).state != Use::Failed).collect();
        let best = self.config.selection.best(&self.candidates(&usable), self.config.max_paths);
        for i in usable {
            let want = best.contains(&i);
            match (self.paths.get(i).state == Use::Active, want) {
                (true, false) => self.paths.set_state(i, Use::Idle),
                (false, true) => self.paths.put_in_use(i, now),
                _ => {}
            }
        }
    }

    /// Fills a freed slot with a known path not in use.
    fn replace_failed(&mut self, now: Time) {
        if self.paths.in_use_count() < self.config.max_paths {
            if let Some(pick) = self.pick_idle() {
                self.paths.put_in_use(pick, now);
            }
        }
    }

    /// `segment` leaves as a probe; probes keep their grid while there is traffic, and after a
    /// pause restart now.
    fn send_probe(&mut self, now: Time, segment: u64) -> PathSend {
        self.paths.send_probe(segment);
        self.next_probe = Some(next_probe(self.next_probe, now, self.probe_interval()));
        PathSend { lp: LpHeader { flags: flags::PTP_PROBE, ..Default::default() }, rto: Some(self.paths.probe_rto()) }
    }
}

impl SubflowManager for PathSpecified {
    fn name(&self) -> &'static str {
        self.name
    }

    fn on_data(&mut self, now: Time, sample: &DataSample) {
        match self.paths.take_sent(sample.segment) {
            Some(Sent::Probe) if sample.lp.flags & flags::PTP_PROBE != 0 => {
                let tags: Tags = sample.lp.ext.as_ref().map(|e| e.tags.clone()).unwrap_or_default();
                self.learn_path(now, &tags, sample.rtt);
            }
            Some(Sent::Path(i)) => self.paths.on_data(i, now, sample),
            Some(Sent::Probe) | None => {}
        }
    }

    fn on_timeout(&mut self, _now: Time, segment: u64) {
        self.paths.on_timeout(segment);
    }

    fn on_nack(&mut self, now: Time, segment: u64, reason: NackReason, _marked: bool) {
        let Some(i) = self.paths.forget(segment) else { return };
        // §4-C-2: "the consumer disables this failed in-use path and replaces it with one unused
        // path".
        if reason == NackReason::NoRoute && self.paths.get(i).state == Use::Active {
            self.paths.fail(i, now);
            self.replace_failed(now);
        }
    }

    fn window(&self) -> f64 {
        self.paths.window()
    }

    fn paths(&self) -> Vec<PathReport> {
        self.paths.reports()
    }

    fn can_send(&self, now: Time) -> bool {
        self.probe_due(now) || self.paths.has_room()
    }

    /// A resend goes on an in-use path with room, not as a probe, while a path is in use:
    /// §5-C-1 resends lost packets on an in-use path, and a probe takes one at random (it may
    /// loop back, Nack Duplicate, or cross a congested link). With no path in use a probe is the
    /// only way out.
    fn can_resend(&self, now: Time) -> bool {
        if self.paths.in_use_count() == 0 {
            self.probe_due(now)
        } else {
            self.paths.has_room()
        }
    }

    fn path_for(&mut self, now: Time, segment: u64, retransmission: bool) -> Option<PathSend> {
        if self.next_reselect.is_none() {
            self.next_reselect = self.config.reselect_every.map(|t| now + t);
        }
        if self.probe_due(now) && !(retransmission && self.paths.in_use_count() > 0) {
            return Some(self.send_probe(now, segment));
        }
        // `None` only when `can_send` said no: the Interest then leaves untagged, on the
        // consumer's timer.
        let i = self.paths.choose(segment)?;
        Some(self.paths.send_on(i, segment))
    }

    fn path_of(&self, segment: u64) -> Option<u64> {
        self.paths.path_of(segment)
    }

    fn take_lost(&mut self, out: &mut Vec<u64>) {
        self.paths.take_lost(out);
    }

    fn restarted_deadline(&self, segment: u64, sent_at: Time) -> Option<Time> {
        self.paths.restarted_deadline(segment, sent_at)
    }

    fn poll_timeout(&self) -> Option<Time> {
        match (self.next_probe, self.next_reselect) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// With only resends to send and a path in use, a due probe is no way out: room on a path
    /// comes with its Data, not at a time; the reselection still has its time.
    fn poll_resend(&self) -> Option<Time> {
        if self.paths.in_use_count() == 0 {
            self.poll_timeout()
        } else {
            self.next_reselect
        }
    }

    fn handle_timeout(&mut self, now: Time) {
        let (Some(t), Some(every)) = (self.next_reselect, self.config.reselect_every) else { return };
        if now >= t {
            self.reselect(now, every);
            self.next_reselect = Some(t + every);
        }
    }
}

#[cfg(test)]
#[path = "ptp_tests.rs"]
mod tests;
