//! The path set of a subflow manager, in the shape of quinn-proto's `connection/paths.rs`: each
//! path owns its congestion state (`PathCongestion`, MPCCP's machine, PTP §5-D), its RFC 6298
//! retransmission timer (PTP §5-C-2: "as in TCP") and its delivery counts; the set maps each
//! outstanding segment to the path it went on and asks the coupling for each path's increase.
//!
//! A path is named by the route its Interests carry, today PTP's tag stack (§4-A). Paths are kept
//! in the order they were found, which is also the tie-break wherever one path must be chosen.

use rustc_hash::FxHashMap;
use smallvec::SmallVec;

use super::coupling::{Coupling, PathView};
use super::mpccp::{MpccpConfig, PathCongestion};
use super::{PathReport, PathSend};
use crate::app::cc::DataSample;
use crate::app::rtt::{RttEstimator, RttOptions};
use crate::packet::lp::flags;
use crate::packet::LpHeader;
use crate::Time;

/// A path's route: the tag stack of PTP's path-specified forwarding (last = top).
pub type Tags = SmallVec<[u64; 4]>;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Use {
    /// In use: Interests go on it.
    Active,
    /// Known, not in use: a candidate for the next reselection.
    Idle,
    /// Nacked as broken (NoRoute): not used again.
    Failed,
}

/// One path and everything measured on it.
pub struct Path {
    pub tags: Tags,
    pub state: Use,
    pub congestion: PathCongestion,
    pub rtt: RttEstimator,
    /// Data delivered on it since the manager last reset the count (PTP's reselection period).
    pub delivered: u64,
    /// Their bytes on the wire, and since when both counts run (the later of the period's start
    /// and the path's going into use).
    delivered_bytes: u64,
    counting_since: Time,
    /// Its delivery rate over its last period in use, bits per second of Data on the wire
    /// (`None`: never measured); PTP's hybrid selection reads it.
    pub bandwidth: Option<f64>,
    /// Data delivered on it over the run.
    pub data: u64,
    /// Data received since its last loss event, and between its last two (OLIA's l_2r and l_1r).
    since_loss: u64,
    between_losses: u64,
    /// When it was last found broken (`Use::Failed`).
    failed_at: Time,
    /// Its last Data with an RTT sample: when it arrived, and when its Interest left (the path's
    /// timer restarts on it, RFC 6298 §5.3).
    last_data: Option<(Time, Time)>,
}

impl Path {
    /// Loss events so far: decreases and timeouts that cut the window.
    fn loss_events(&self) -> u64 {
        let c = self.congestion.counters();
        c.decreases + c.timeouts
    }

    fn view(&self) -> PathView {
        PathView {
            cwnd: self.congestion.cwnd(),
            rtt: self.rtt.srtt().map_or(0.0, |t| t.as_secs_f64()),
            since_loss: self.since_loss,
            between_losses: self.between_losses,
        }
    }

    /// Moves OLIA's inter-loss counts on after an event that may have been a loss.
    fn note_losses(&mut self, before: u64) {
        if self.loss_events() > before {
            self.between_losses = self.since_loss;
            self.since_loss = 0;
        }
    }
}

/// Where an outstanding segment went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sent {
    /// A probe (no path yet).
    Probe,
    Path(usize),
}

/// The paths of one consumer, the segment-to-path map and the coupling that links the windows.
pub struct PathSet {
    paths: Vec<Path>,
    sent: FxHashMap<u64, Sent>,
    lost: Vec<u64>,
    coupling: &'static dyn Coupling,
    congestion: MpccpConfig,
    rto: RttOptions,
}

impl PathSet {
    pub fn new(coupling: &'static dyn Coupling, congestion: MpccpConfig, rto: RttOptions) -> PathSet {
        PathSet { paths: Vec::new(), sent: FxHashMap::default(), lost: Vec::new(), coupling, congestion, rto }
    }

    pub fn len(&self) -> usize {
        self.paths.len()
    }
    pub fn is_empty(&self) -> bool {
        self.paths.is_empty()
    }
    pub fn get(&self, i: usize) -> &Path {
        &self.paths[i]
    }
    pub fn iter(&self) -> impl Iterator<Item = &Path> {
        self.paths.iter()
    }
    pub fn in_use(&self) -> impl Iterator<Item = (usize, &Path)> {
        self.paths.iter().enumerate().filter(|(_, p)| p.state == Use::Active)
    }
    pub fn in_use_count(&self) -> usize {
        self.in_use().count()
    }
    /// Adds a path not seen before (its first RTT sample, if any, seeds its timer); returns its
    /// index, or `None` when `tags` is empty or already known.
    pub fn learn(&mut self, tags: &[u64], rtt: Option<Time>) -> Option<usize> {
        if tags.is_empty() || self.paths.iter().any(|p| p.tags.as_slice() == tags) {
            return None;
        }
        let mut estimator = RttEstimator::new(self.rto);
        if let Some(r) = rtt {
            estimator.add_sample(r);
        }
        self.paths.push(Path {
            tags: Tags::from_slice(tags),
            state: Use::Idle,
            congestion: PathCongestion::new(self.congestion),
            rtt: estimator,
            delivered: 0,
            delivered_bytes: 0,
            counting_since: Time::ZERO,
            bandwidth: None,
            data: 0,
            since_loss: 0,
            between_losses: 0,
            failed_at: Time::ZERO,
            last_data: None,
        });
        Some(self.paths.len() - 1)
    }

    /// The index of the path with these tags, if known.
    pub fn find(&self, tags: &[u64]) -> Option<usize> {
        self.paths.iter().position(|p| p.tags.as_slice() == tags)
    }

    /// Path `i` was found broken at `now`.
    pub fn fail(&mut self, i: usize, now: Time) {
        self.paths[i].state = Use::Failed;
        self.paths[i].failed_at = now;
    }

    /// Failed paths found broken at or before `before` go back to the idle set; how many.
    pub fn restore_failed(&mut self, before: Time) -> usize {
        let mut n = 0;
        for p in self.paths.iter_mut().filter(|p| p.state == Use::Failed && p.failed_at <= before) {
            p.state = Use::Idle;
            n += 1;
        }
        n
    }

    /// Starts path `i` afresh at `now`: a path out of use for a while has nothing to carry over
    /// (slow start).
    pub fn put_in_use(&mut self, i: usize, now: Time) {
        let p = &mut self.paths[i];
        p.state = Use::Active;
        p.congestion = PathCongestion::new(self.congestion);
        p.delivered = 0;
        p.delivered_bytes = 0;
        p.counting_since = now;
        p.since_loss = 0;
        p.between_losses = 0;
    }

    pub fn set_state(&mut self, i: usize, state: Use) {
        self.paths[i].state = state;
    }

    /// A period ends at `now`: each in-use path whose counts have run for at least `min_span`
    /// takes its delivery rate over them as its bandwidth; the others keep what they had.
    pub fn measure_bandwidths(&mut self, now: Time, min_span: Time) {
        for p in self.paths.iter_mut().filter(|p| p.state == Use::Active) {
            let span = now.saturating_sub(p.counting_since);
            if span >= min_span && span > Time::ZERO {
                p.bandwidth = Some(p.delivered_bytes as f64 * 8.0 / span.as_secs_f64());
            }
        }
    }

    /// A new period begins at `now`: every path's delivery counts start again.
    pub fn reset_delivered(&mut self, now: Time) {
        for p in &mut self.paths {
            p.delivered = 0;
            p.delivered_bytes = 0;
            p.counting_since = now;
        }
    }

    /// The sum of the in-use windows.
    pub fn window(&self) -> f64 {
        self.in_use().map(|(_, p)| p.congestion.cwnd()).sum()
    }

    pub fn has_room(&self) -> bool {
        self.in_use().any(|(_, p)| p.congestion.has_room())
    }

    /// The path for a segment, or `None` when no in-use path has room. A retransmission goes back
    /// to the path that lost it if that path has room (PTP §5-C-1: "the lost packets are
    /// prioritized for re-transmission on the same in-use path"); otherwise, and for new segments,
    /// the in-use path with the most room relative to its window (ties: the path found first).
    pub fn choose(&self, segment: u64) -> Option<usize> {
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

    /// `segment` leaves on path `i`: its Interest carries the path's tags and the path's timer.
    pub fn send_on(&mut self, i: usize, segment: u64) -> PathSend {
        let p = &mut self.paths[i];
        p.congestion.on_sent(segment);
        let mut lp = LpHeader::default();
        lp.ext_mut().tags = p.tags.clone();
        self.sent.insert(segment, Sent::Path(i));
        PathSend { lp, rto: Some(p.rtt.rto()) }
    }

    /// `segment` leaves as a probe.
    pub fn send_probe(&mut self, segment: u64) {
        self.sent.insert(segment, Sent::Probe);
    }

    /// Where the Data of `segment` was sent, forgetting it.
    pub fn take_sent(&mut self, segment: u64) -> Option<Sent> {
        self.sent.remove(&segment)
    }

    /// Where `segment` went last (kept after a timeout, Nack or loss, so that its resend can go
    /// back to the same path; the resend overwrites it).
    pub fn sent_on(&self, segment: u64) -> Option<Sent> {
        self.sent.get(&segment).copied()
    }

    /// The index of the path `segment` last went on (`None` for a probe).
    pub fn path_of(&self, segment: u64) -> Option<u64> {
        match self.sent.get(&segment) {
            Some(&Sent::Path(i)) => Some(i as u64),
            _ => None,
        }
    }

    /// The Data of `sample.segment` came back on path `i`.
    pub fn on_data(&mut self, i: usize, now: Time, sample: &DataSample) {
        // Only the Data of a segment sent once can show the order of its path: for a resent one,
        // the Data may answer the first copy, sent earlier and maybe on another path (Karn's rule,
        // which the consumer applies to RTT samples, shows as `rtt: None`). It counts as a Data
        // from a cache does: received, no verdict.
        let from_producer = sample.lp.flags & flags::FROM_CACHE == 0 && sample.rtt.is_some();
        let increase = self.increase(i);
        let p = &mut self.paths[i];
        p.delivered += 1;
        p.delivered_bytes += u64::from(sample.wire_size);
        p.data += 1;
        if let Some(rtt) = sample.rtt {
            p.last_data = Some((now, now.saturating_sub(rtt)));
        }
        if from_producer {
            if let Some(rtt) = sample.rtt {
                p.rtt.add_sample(rtt);
            }
        }
        let before = p.loss_events();
        p.congestion.on_data(sample.segment, from_producer, increase, &mut self.lost);
        p.since_loss += 1;
        p.note_losses(before);
    }

    /// The Interest for `segment` timed out on the path it went on.
    pub fn on_timeout(&mut self, segment: u64) {
        if let Some(Sent::Path(i)) = self.sent_on(segment) {
            let p = &mut self.paths[i];
            let before = p.loss_events();
            p.congestion.on_timeout(segment, &mut self.lost);
            p.rtt.backoff();
            p.note_losses(before);
        }
    }

    /// RFC 6298 §5.3, "when an ACK is received that acknowledges new data, restart the
    /// retransmission timer": each path keeps one timer, as a TCP subflow does, for its oldest
    /// outstanding Interest. The Interest for `segment` (sent at `sent_at`) is the oldest while
    /// Data of Interests sent before it keep arriving: each one restarts its timer. Once the Data
    /// of a later Interest has come back, its timer runs from where it stands (a TCP receiver's
    /// cumulative ACK stops advancing at a hole). The deadline its timer has now, or `None`: not
    /// restarted since it left, overtaken, or sent as a probe.
    pub fn restarted_deadline(&self, segment: u64, sent_at: Time) -> Option<Time> {
        let Some(Sent::Path(i)) = self.sent_on(segment) else { return None };
        let p = &self.paths[i];
        let (arrived, left) = p.last_data?;
        (left <= sent_at && arrived > sent_at).then(|| arrived + p.rtt.rto())
    }

    /// A probe's timer: it may come back over any path, so the largest RTO of the known paths (a
    /// new path's initial RTO when none is known), never below the paths' floor. Their estimates
    /// without backoff: a path's doubled timer answers a timeout on that path (RFC 6298 §5.5), and
    /// a probe does not take it; with the backoff, one failed path held every lost probe up to the
    /// timer's ceiling.
    pub fn probe_rto(&self) -> Time {
        let largest = self.paths.iter().map(|p| p.rtt.estimated_rto()).max();
        largest.unwrap_or_else(|| RttEstimator::new(self.rto).rto()).max(self.rto.min_rto)
    }

    /// `segment` left its path without Data or timeout (a Nack); the path it was on.
    pub fn forget(&mut self, segment: u64) -> Option<usize> {
        match self.sent_on(segment) {
            Some(Sent::Path(i)) => {
                self.paths[i].congestion.forget(segment);
                Some(i)
            }
            _ => None,
        }
    }

    /// Every path as reported at the end of a run.
    pub fn reports(&self) -> Vec<PathReport> {
        self.paths
            .iter()
            .map(|p| {
                let c = p.congestion.counters();
                PathReport {
                    tags: p.tags.to_vec(),
                    tag_stack: true,
                    state: match p.state {
                        Use::Active => "in-use",
                        Use::Idle => "idle",
                        Use::Failed => "failed",
                    },
                    window: p.congestion.cwnd(),
                    srtt: p.rtt.srtt(),
                    data: p.data,
                    losses: c.losses_detected,
                    decreases: c.decreases,
                    timeouts: c.timeouts,
                    sharing: None,
                    bandwidth: p.bandwidth,
                }
            })
            .collect()
    }

    /// Segments found lost by the paths' order checks, or with a timed-out flight, since the last
    /// call.
    pub fn take_lost(&mut self, out: &mut Vec<u64>) {
        out.append(&mut self.lost);
    }

    /// What the coupling sees of the in-use paths, and where path `i` is among them (0 when it is
    /// not in use). A path without an RTT sample yet (learnt from the probe of a resent segment,
    /// which Karn's rule leaves unsampled) takes the largest smoothed RTT of the others: with RTT
    /// 0 the RTT-based couplings would fall back to uncoupled for every path, and the largest is
    /// the cautious guess (a longer RTT gives the path a smaller share of the increase).
    pub fn views(&self, i: usize) -> (SmallVec<[PathView; 10]>, usize) {
        let mut views: SmallVec<[PathView; 10]> = SmallVec::new();
        let mut at = 0;
        for (k, p) in self.in_use() {
            if k == i {
                at = views.len();
            }
            views.push(p.view());
        }
        let known = views.iter().map(|v| v.rtt).fold(0.0, f64::max);
        for v in views.iter_mut().filter(|v| v.rtt == 0.0) {
            v.rtt = known;
        }
        (views, at)
    }

    /// The coupled increase of in-use path `i`, over every in-use path.
    fn increase(&self, i: usize) -> f64 {
        let (views, at) = self.views(i);
        self.coupling.increase(&views, at)
    }
}
