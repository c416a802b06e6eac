//! PTP's consumer (Ye et al., "PTP: Path-specified Transport Protocol"): path probing (§3-A),
//! in-use path selection and management (§4-C), and MPCCP's per-path congestion control coupled by
//! Linked Increase (§5), as a congestion controller with multipath hooks.
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
//!   gives its slot to a random unused one (§4-C-1, the bandwidth-greedy rule). A Nack(NoRoute) on
//!   a path disables it at once (§4-C-2: "the consumer disables this failed in-use path and
//!   replaces it with one unused path").
//! * **Sending.** A retransmission goes back to the path that lost it if that path has room (§5-C-1:
//!   "the lost packets are prioritized for re-transmission on the same in-use path"); otherwise,
//!   and for new segments, the in-use path with the most room relative to its window (ties: the
//!   path seen first). The Interest carries the path's tag stack.
//! * **Losses.** A producer Data that overtakes earlier Interests of its path declares them lost
//!   (MPCCP Condition I); the consumer resends them at once (`take_lost`). Our addition: the Data
//!   of a resent segment declares nothing, since it may answer the first copy (see `on_data`);
//!   without that, a late first copy read as the resend overtaking its path's whole queue.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rustc_hash::FxHashMap;
use smallvec::SmallVec;

use super::lia::lia_increase;
use super::mpccp::{MpccpConfig, PathCongestion};
use crate::app::cc::{CongestionController, DataSample, PathSend};
use crate::app::rtt::{RttEstimator, RttOptions};
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
}

impl Default for PtpConfig {
    fn default() -> Self {
        PtpConfig {
            max_paths: 10,
            reselect_every: Time::from_secs(10),
            probe_rate: 10.0,
            mpccp: MpccpConfig::default(),
        }
    }
}

type Tags = SmallVec<[u64; 4]>;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Use {
    /// In use: Interests go on it.
    Active,
    /// Known, not in use: a candidate for the next reselection.
    Idle,
    /// Nacked as broken (NoRoute): never used again.
    Failed,
}

/// A path the probes found.
struct Path {
    /// The tag stack Interests carry on it (last = top: the consumer's own node's face).
    tags: Tags,
    state: Use,
    congestion: PathCongestion,
    rtt: RttEstimator,
    /// Data delivered on it since the last reselection: the bandwidth the greedy rule sorts by.
    delivered: u64,
}

/// Where an outstanding segment went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Sent {
    Probe,
    Path(usize),
}

pub struct Ptp {
    config: PtpConfig,
    rto: RttOptions,
    paths: Vec<Path>,
    sent: FxHashMap<u64, Sent>,
    lost: Vec<u64>,
    next_probe: Option<Time>,
    next_reselect: Option<Time>,
    rng: ChaCha8Rng,
}

impl Ptp {
    pub fn new(config: PtpConfig, rto: RttOptions, seed: u64) -> Ptp {
        Ptp {
            config,
            rto,
            paths: Vec::new(),
            sent: FxHashMap::default(),
            lost: Vec::new(),
            next_probe: None,
            next_reselect: None,
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    /// The paths found so far, in the order they were found: (tag stack, in use, window).
    pub fn paths(&self) -> impl Iterator<Item = (&[u64], bool, f64)> {
        self.paths.iter().map(|p| (p.tags.as_slice(), p.state == Use::Active, p.congestion.cwnd()))
    }

    fn in_use(&self) -> impl Iterator<Item = (usize, &Path)> {
        self.paths.iter().enumerate().filter(|(_, p)| p.state == Use::Active)
    }

    fn probe_due(&self, now: Time) -> bool {
        self.next_probe.is_none_or(|t| now >= t)
    }

    fn probe_interval(&self) -> Time {
        Time::from_secs_f64(1.0 / self.config.probe_rate.max(1e-9))
    }

    /// The path for a segment, or `None` when no in-use path has room.
    fn choose(&self, segment: u64) -> Option<usize> {
        if let Some(&Sent::Path(i)) = self.sent.get(&segment) {
            let p = &self.paths[i];
            if p.state == Use::Active && p.congestion.has_room() {
                return Some(i);
            }
        }
        let load = |p: &Path| p.congestion.in_flight() as f64 / p.congestion.cwnd().max(1.0);
        self.in_use()
            .filter(|(_, p)| p.congestion.has_room())
            .min_by(|a, b| load(a.1).total_cmp(&load(b.1)).then(a.0.cmp(&b.0)))
            .map(|(i, _)| i)
    }

    /// A probe brought back a path: note it, and use it if a slot is free.
    fn learn_path(&mut self, tags: &[u64], rtt: Option<Time>) {
        if tags.is_empty() || self.paths.iter().any(|p| p.tags.as_slice() == tags) {
            return;
        }
        let mut rtt_estimator = RttEstimator::new(self.rto);
        if let Some(r) = rtt {
            rtt_estimator.add_sample(r);
        }
        self.paths.push(Path {
            tags: Tags::from_slice(tags),
            state: Use::Idle,
            congestion: PathCongestion::new(self.config.mpccp),
            rtt: rtt_estimator,
            delivered: 0,
        });
        if self.in_use().count() < self.config.max_paths {
            self.put_in_use(self.paths.len() - 1);
        }
    }

    /// Starts a path afresh: a path out of use for a while has nothing to carry over (slow start).
    fn put_in_use(&mut self, i: usize) {
        let p = &mut self.paths[i];
        p.state = Use::Active;
        p.congestion = PathCongestion::new(self.config.mpccp);
        p.delivered = 0;
    }

    /// A random known path not in use.
    fn random_idle(&mut self) -> Option<usize> {
        let idle: SmallVec<[usize; 16]> = (0..self.paths.len()).filter(|&i| self.paths[i].state == Use::Idle).collect();
        (!idle.is_empty()).then(|| idle[self.rng.random_range(0..idle.len())])
    }

    /// §4-C-1: when every slot is taken, the in-use path that delivered least gives its slot to a
    /// random unused path.
    fn reselect(&mut self) {
        if self.in_use().count() >= self.config.max_paths {
            let worst = self.in_use().min_by_key(|(i, p)| (p.delivered, *i)).map(|(i, _)| i);
            if let (Some(worst), Some(pick)) = (worst, self.random_idle()) {
                self.paths[worst].state = Use::Idle;
                self.put_in_use(pick);
            }
        }
        for p in &mut self.paths {
            p.delivered = 0;
        }
    }

    /// Fills a freed slot with a random known path not in use.
    fn replace_failed(&mut self) {
        if self.in_use().count() < self.config.max_paths {
            if let Some(pick) = self.random_idle() {
                self.put_in_use(pick);
            }
        }
    }

    fn coupled_increase(&self, i: usize) -> f64 {
        let mut windows: SmallVec<[(f64, f64); 10]> = SmallVec::new();
        let mut at = 0;
        for (k, p) in self.in_use() {
            if k == i {
                at = windows.len();
            }
            let srtt = p.rtt.srtt().map_or(0.0, |t| t.as_secs_f64());
            windows.push((p.congestion.cwnd(), srtt));
        }
        lia_increase(&windows, at)
    }
}

impl CongestionController for Ptp {
    fn name(&self) -> &'static str {
        "ptp"
    }

    fn on_data(&mut self, _now: Time, sample: &DataSample) {
        match self.sent.remove(&sample.segment) {
            Some(Sent::Probe) if sample.lp.flags & flags::PTP_PROBE != 0 => {
                let tags: Tags = sample.lp.ext.as_ref().map(|e| e.tags.clone()).unwrap_or_default();
                self.learn_path(&tags, sample.rtt);
            }
            Some(Sent::Path(i)) => {
                // Only the Data of a segment sent once can show the order of its path: for a
                // resent one, the Data may answer the first copy, sent earlier and maybe on
                // another path (Karn's rule, which the consumer applies to RTT samples, shows
                // as `rtt: None`). It counts as a Data from a cache does: received, no verdict.
                let from_producer = sample.lp.flags & flags::FROM_CACHE == 0 && sample.rtt.is_some();
                let increase = self.coupled_increase(i);
                let p = &mut self.paths[i];
                p.delivered += 1;
                if from_producer {
                    if let Some(rtt) = sample.rtt {
                        p.rtt.add_sample(rtt);
                    }
                }
                p.congestion.on_data(sample.segment, from_producer, increase, &mut self.lost);
            }
            Some(Sent::Probe) | None => {}
        }
    }

    // A segment that timed out, was Nacked or was found lost keeps its entry in `sent`, so that
    // its retransmission can go back to the same path (§5-C-1); the resend overwrites it.
    fn on_timeout(&mut self, _now: Time, segment: u64) {
        if let Some(&Sent::Path(i)) = self.sent.get(&segment) {
            let p = &mut self.paths[i];
            p.congestion.on_timeout(segment);
            p.rtt.backoff();
        }
    }

    fn on_nack(&mut self, _now: Time, segment: u64, reason: NackReason, _marked: bool) {
        if let Some(&Sent::Path(i)) = self.sent.get(&segment) {
            self.paths[i].congestion.forget(segment);
            if reason == NackReason::NoRoute && self.paths[i].state == Use::Active {
                self.paths[i].state = Use::Failed;
                self.replace_failed();
            }
        }
    }

    /// The sum of the in-use windows (for traces; each path applies its own).
    fn window(&self) -> Option<f64> {
        Some(self.in_use().map(|(_, p)| p.congestion.cwnd()).sum())
    }

    fn per_path(&self) -> bool {
        true
    }

    fn can_send(&self, now: Time) -> bool {
        self.probe_due(now) || self.in_use().any(|(_, p)| p.congestion.has_room())
    }

    fn path_for(&mut self, now: Time, segment: u64, _retransmission: bool) -> Option<PathSend> {
        if self.next_reselect.is_none() {
            self.next_reselect = Some(now + self.config.reselect_every);
        }
        let probe = self.probe_due(now);
        let path = if probe { None } else { self.choose(segment) };
        let mut lp = LpHeader::default();
        let rto = match path {
            Some(i) => {
                let p = &mut self.paths[i];
                p.congestion.on_sent(segment);
                lp.ext_mut().tags = p.tags.clone();
                self.sent.insert(segment, Sent::Path(i));
                Some(p.rtt.rto())
            }
            // Only when `can_send` said no: the Interest leaves untagged, on the consumer's timer.
            None if !probe => return None,
            None => {
                lp.flags = flags::PTP_PROBE;
                self.sent.insert(segment, Sent::Probe);
                let step = self.probe_interval();
                // Probes keep their grid while there is traffic; after a pause they restart now.
                self.next_probe = Some(self.next_probe.map_or(now, |t| t.max(now.saturating_sub(step))) + step);
                None
            }
        };
        Some(PathSend { lp, rto })
    }

    fn take_lost(&mut self, out: &mut Vec<u64>) {
        out.append(&mut self.lost);
    }

    fn poll_timeout(&self) -> Option<Time> {
        match (self.next_probe, self.next_reselect) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    fn handle_timeout(&mut self, now: Time) {
        if let Some(t) = self.next_reselect {
            if now >= t {
                self.reselect();
                self.next_reselect = Some(t + self.config.reselect_every);
            }
        }
    }
}

#[cfg(test)]
#[path = "ptp_tests.rs"]
mod tests;
