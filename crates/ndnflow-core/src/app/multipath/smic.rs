//! SMIC's consumer ("SMIC: Subflow-level Multi-path Interest Control", §3.2, §3.3.2, §4.1 and
//! Algorithm 1) as a subflow manager: one congestion window per sub-flow, sub-flows found by path
//! identifiers that routers hash onto next hops (`fw::ext::smic`) and told apart by the trajectory
//! identifiers the Data bring back.
//!
//! * **Path ids** (§3.3.2, §4.1): a pool `0..path_ids` (the paper's "say, from 0 to 10"). At the
//!   start one Interest goes out on every path id ("rotating integers from 0 to 10"), and again on
//!   every path id not in use every `respread` ("spreading Interests could be done in the initial
//!   phase of data transmissions and periodically").
//! * **Sub-flows** are keyed by trajectory id. A path id joins the sub-flow of the trajectory its
//!   latest Data brought (§4.1: "If there are path identifiers with the same trajectory
//!   identifier, the consumer will merge the path identifiers and their subflow information");
//!   a path id whose Data brings another trajectory moves to that one (§3.3.2: "the consumer will
//!   detect route changes as the trajectory identifier will be changed"). A sub-flow sends on its
//!   first path id; one left without path ids is kept, idle, with its state, for the day a path id
//!   leads there again (a cached object's Data name the cache's trajectory while it is fetched).
//! * **Windows** (Algorithm 1): from one Interest, `w_r += 1 / (|S_r|^2 w_r)` per Data on sub-flow
//!   r, where S_r is the set of sub-flows found to share r's bottleneck (r included), and halved
//!   on a timeout. `increase = Coupled(name)` swaps in an MPTCP coupling over the same sub-flows
//!   (LIA, OLIA: the paper's baselines, §5), everything else equal.
//! * **Bottleneck sharing** (`smic_sharing`): on a timeout of r, every sub-flow i whose timeout
//!   history and bottleneck bandwidth are similar to r's joins S_r, and r joins S_i (lines
//!   12-19). Groups only grow, as in Algorithm 1.
//!
//! Our choices where the paper is silent (docs/protocols/smic.md#consumer gives the reasons):
//! a sub-flow runs Algorithm 1's timeout block (halve, record in t_r, compare) once per loss
//! episode (not again until the Data of an Interest sent after the halving has come back: PCON's
//! conservative window adaptation, which our ICP applies, so that SMIC and the single-path flow it
//! must be friendly to react alike, and one congestion event is one history entry); each sub-flow times its
//! Interests with its own RFC 6298 estimator and the consumer's `rto` options; a Data without a
//! trajectory id (no SMIC router on the way) counts as trajectory 0, so every path id merges into
//! one sub-flow; a Nack(NoRoute) takes a path id out of use until the next spread; any other Nack
//! is a loss (halve, no history entry). The paper's "LIA among the bottleneck-sharing subflows"
//! when their RTTs differ much is not in Algorithm 1 and has no threshold: `lia_rtt_ratio` turns
//! it on (off by default).

use rustc_hash::FxHashMap;
use smallvec::SmallVec;

use super::coupling::{reno_increase, CouplingName, PathView};
use super::lia::lia_increase;
use super::smic_sharing::{shares_bottleneck, PacketPair, SharingConfig, TimeoutHistory};
use super::{PathReport, PathSend, SubflowManager};
use crate::app::cc::DataSample;
use crate::app::rtt::{RttEstimator, RttOptions};
use crate::packet::{LpHeader, NackReason};
use crate::Time;

/// How a sub-flow's window grows per Data.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SmicIncrease {
    /// Algorithm 1: `1 / (|S_r|^2 w_r)`.
    Algorithm1,
    /// An MPTCP coupling over every sub-flow in use (the paper's LIA and OLIA baselines).
    Coupled(CouplingName),
}

/// SMIC's consumer parameters (docs/protocols/smic.md#consumer).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SmicConsumerConfig {
    pub increase: SmicIncrease,
    /// Path ids 0..path_ids (§3.3.2: "say, from 0 to 10": 11).
    pub path_ids: u32,
    /// How often the path ids not in use are tried again (ours: PTP's T, 10 s).
    pub respread: Time,
    /// A new sub-flow's window, Interests (Algorithm 1 has no slow start; TCP's one segment).
    pub initial_window: f64,
    pub sharing: SharingConfig,
    /// Use LIA among a sub-flow's bottleneck sharers when their largest smoothed RTT exceeds the
    /// smallest by this factor (§3.2.2: "if RTT variation is large"); `None`: never (Algorithm 1).
    pub lia_rtt_ratio: Option<f64>,
    /// Halve (and record in the history) at every timed-out Interest, as Algorithm 1 writes it and
    /// the authors' ndnSIM consumer does, instead of once per loss episode (ours, as ICP's window
    /// adaptation: docs/protocols/smic.md).
    pub every_timeout: bool,
    /// Test bottleneck sharing at every Data of a sub-flow as well, as the authors' ndnSIM
    /// consumer does, instead of at its timeouts only (Algorithm 1 lines 12-19).
    pub sharing_on_data: bool,
}

impl Default for SmicConsumerConfig {
    fn default() -> Self {
        SmicConsumerConfig {
            increase: SmicIncrease::Algorithm1,
            path_ids: 11,
            respread: Time::from_secs(10),
            initial_window: 1.0,
            sharing: SharingConfig::default(),
            lia_rtt_ratio: None,
            every_timeout: false,
            sharing_on_data: false,
        }
    }
}

/// One path id of the pool.
#[derive(Clone, Copy, Debug, Default)]
struct PathId {
    /// The sub-flow its latest Data named.
    flow: Option<usize>,
    /// An Interest should go out on it to learn (again) where it leads.
    spread_due: bool,
    /// Nacked NoRoute: not used until the next spread.
    dead: bool,
}

/// One sub-flow: the Interests and Data of one trajectory.
struct SubFlow {
    /// Path ids that lead here; Interests take the first.
    ids: SmallVec<[u64; 4]>,
    window: f64,
    in_flight: u32,
    rtt: RttEstimator,
    /// When the window last halved, and whether no Data of an Interest sent since has come back
    /// (PCON's conservative window adaptation, as ICP's: no second halving until then).
    last_decrease: Time,
    recovering: bool,
    timeouts: TimeoutHistory,
    bandwidth: PacketPair,
    /// Sub-flows found to share its bottleneck (itself not listed).
    sharers: SmallVec<[usize; 4]>,
    /// Data since its last loss, and between its last two losses (OLIA's l_2r and l_1r).
    since_loss: u64,
    between_losses: u64,
    data: u64,
    decreases: u64,
    timeout_count: u64,
}

impl SubFlow {
    fn in_use(&self) -> bool {
        !self.ids.is_empty()
    }

    fn has_room(&self) -> bool {
        f64::from(self.in_flight) < self.window.max(1.0)
    }

    /// Its smoothed RTT, or its RTO before the first sample, seconds (couplings need one).
    fn rtt_secs(&self) -> f64 {
        self.rtt.srtt().unwrap_or_else(|| self.rtt.rto()).as_secs_f64()
    }

    fn view(&self) -> PathView {
        PathView {
            cwnd: self.window,
            rtt: self.rtt_secs(),
            since_loss: self.since_loss,
            between_losses: self.between_losses,
        }
    }
}

/// What an Interest out was charged to.
#[derive(Clone, Copy, Debug)]
enum Charge {
    Flow(usize),
    /// A spreading Interest on a path id.
    Spread,
}

#[derive(Clone, Copy, Debug)]
struct Out {
    charge: Charge,
    path_id: u64,
    sent_at: Time,
}

/// SMIC's consumer (see the module comment).
pub struct Smic {
    config: SmicConsumerConfig,
    rto: RttOptions,
    ids: Vec<PathId>,
    flows: Vec<SubFlow>,
    by_trajectory: FxHashMap<u64, usize>,
    sent: FxHashMap<u64, Out>,
    next_spread: Option<Time>,
    /// Where the search for a sub-flow with room starts, so that none is always served last.
    cursor: usize,
}

impl Smic {
    pub fn new(config: SmicConsumerConfig, rto: RttOptions) -> Smic {
        let ids = vec![PathId { flow: None, spread_due: true, dead: false }; config.path_ids.max(1) as usize];
        Smic {
            config,
            rto,
            ids,
            flows: Vec::new(),
            by_trajectory: FxHashMap::default(),
            sent: FxHashMap::default(),
            next_spread: None,
            cursor: 0,
        }
    }

    /// Each sub-flow in use: (its path ids, window, the number of sub-flows in its sharing set
    /// that are in use, itself included).
    pub fn subflows(&self) -> impl Iterator<Item = (&[u64], f64, usize)> + '_ {
        self.flows.iter().enumerate().filter(|(_, f)| f.in_use()).map(|(i, f)| (&f.ids[..], f.window, self.set_size(i)))
    }

    /// |S_r|: r and the sharers of r still in use.
    fn set_size(&self, r: usize) -> usize {
        1 + self.flows[r].sharers.iter().filter(|&&i| self.flows[i].in_use()).count()
    }

    fn spread_id(&self) -> Option<usize> {
        self.ids.iter().position(|p| p.spread_due && !p.dead)
    }

    /// The next sub-flow in use with room, from the cursor on.
    fn flow_with_room(&self) -> Option<usize> {
        let n = self.flows.len();
        (0..n).map(|k| (self.cursor + k) % n).find(|&i| self.flows[i].in_use() && self.flows[i].has_room())
    }

    fn release(&mut self, out: &Out) {
        if let Charge::Flow(i) = out.charge {
            let f = &mut self.flows[i];
            f.in_flight = f.in_flight.saturating_sub(1);
        }
    }

    /// The sub-flow of `trajectory`, made on first sight.
    fn flow_of(&mut self, trajectory: u64) -> usize {
        if let Some(&i) = self.by_trajectory.get(&trajectory) {
            return i;
        }
        let i = self.flows.len();
        self.flows.push(SubFlow {
            ids: SmallVec::new(),
            window: self.config.initial_window,
            in_flight: 0,
            rtt: RttEstimator::new(self.rto),
            last_decrease: Time::ZERO,
            recovering: false,
            timeouts: TimeoutHistory::default(),
            bandwidth: PacketPair::default(),
            sharers: SmallVec::new(),
            since_loss: 0,
            between_losses: 0,
            data: 0,
            decreases: 0,
            timeout_count: 0,
        });
        self.by_trajectory.insert(trajectory, i);
        i
    }

    /// Path id `id` leads to sub-flow `to` (merging it there, §4.1).
    fn bind(&mut self, id: u64, to: usize) {
        let slot = &mut self.ids[id as usize];
        let from = slot.flow.replace(to);
        slot.spread_due = false;
        if from == Some(to) {
            return;
        }
        if let Some(f) = from {
            self.flows[f].ids.retain(|x| *x != id);
        }
        // An idle sub-flow in use again starts from its estimates, not from the backoff it had.
        if self.flows[to].ids.is_empty() {
            self.flows[to].rtt.clear_backoff();
        }
        let ids = &mut self.flows[to].ids;
        let at = ids.partition_point(|x| *x < id);
        ids.insert(at, id);
    }

    fn unbind(&mut self, id: u64) {
        if let Some(f) = self.ids[id as usize].flow.take() {
            self.flows[f].ids.retain(|x| *x != id);
        }
    }

    /// The window increase of sub-flow `r` per Data.
    fn increase(&self, r: usize) -> f64 {
        let w = self.flows[r].window;
        match self.config.increase {
            SmicIncrease::Coupled(name) => {
                let live: SmallVec<[usize; 8]> = (0..self.flows.len()).filter(|&i| self.flows[i].in_use()).collect();
                let views: SmallVec<[PathView; 8]> = live.iter().map(|&i| self.flows[i].view()).collect();
                live.iter().position(|&i| i == r).map_or(reno_increase(w), |k| name.coupling().increase(&views, k))
            }
            SmicIncrease::Algorithm1 => {
                let set: SmallVec<[usize; 8]> = std::iter::once(r)
                    .chain(self.flows[r].sharers.iter().copied().filter(|&i| self.flows[i].in_use()))
                    .collect();
                if self.rtts_differ_much(&set) {
                    let views: SmallVec<[PathView; 8]> = set.iter().map(|&i| self.flows[i].view()).collect();
                    return lia_increase(&views, 0);
                }
                let n = set.len() as f64;
                reno_increase(w) / (n * n)
            }
        }
    }

    fn rtts_differ_much(&self, set: &[usize]) -> bool {
        let Some(ratio) = self.config.lia_rtt_ratio else { return false };
        let rtts = set.iter().map(|&i| self.flows[i].rtt_secs());
        let (lo, hi) = rtts.fold((f64::INFINITY, 0.0_f64), |(lo, hi), x| (lo.min(x), hi.max(x)));
        set.len() > 1 && lo > 0.0 && hi / lo > ratio
    }

    /// Halves sub-flow `i`, and backs its timer off (RFC 6298 §5.5), unless it is still
    /// recovering from its last halving: once per loss episode, as ICP's conservative window
    /// adaptation and the consumer's own timer do (at every timed-out Interest under
    /// `every_timeout`). Whether this loss began a new episode. `sent_at`: when the lost Interest
    /// left.
    fn decrease(&mut self, i: usize, now: Time, sent_at: Time) -> bool {
        let f = &mut self.flows[i];
        f.between_losses = f.since_loss;
        f.since_loss = 0;
        if f.recovering && !self.config.every_timeout {
            return false;
        }
        f.window = (f.window / 2.0).max(1.0);
        // The timer backs off only for an Interest that left after the last halving, the last
        // backoff: one that left before was timed by the RTO before it, and its expiry says
        // nothing new. Without this, once a Data of a later Interest ended the recovery, each of
        // the window's older Interests, timing out one by one, began an episode and doubled the
        // timer again: up to RFC 6298's 60 s ceiling in a fifth of a second, and a segment sent
        // then waited a minute (smic-tree, seed 1, under the default ceiling).
        if sent_at >= f.last_decrease {
            f.rtt.backoff();
        }
        f.last_decrease = now;
        f.recovering = true;
        f.decreases += 1;
        true
    }

    /// Algorithm 1 lines 15-19: r and every sub-flow in use that shares its bottleneck join each
    /// other's sets.
    fn detect_sharing(&mut self, r: usize) {
        for i in 0..self.flows.len() {
            if i == r || !self.flows[i].in_use() || self.flows[r].sharers.contains(&i) {
                continue;
            }
            let (a, b) = (&self.flows[r], &self.flows[i]);
            if shares_bottleneck(&self.config.sharing, (&a.timeouts, &a.bandwidth), (&b.timeouts, &b.bandwidth)) {
                self.flows[r].sharers.push(i);
                self.flows[i].sharers.push(r);
            }
        }
    }

    fn send(&mut self, now: Time, segment: u64, charge: Charge, path_id: u64) -> PathSend {
        if let Some(old) = self.sent.insert(segment, Out { charge, path_id, sent_at: now }) {
            self.release(&old);
        }
        let rto = match charge {
            Charge::Flow(i) => {
                self.flows[i].in_flight += 1;
                self.flows[i].rtt.rto()
            }
            // A spread Interest may come back over any path in use: the largest of their timers.
            // Not an idle sub-flow's: its estimator is of the past, and a backoff it kept (up to
            // RFC 6298's 60 s) would hold the segment that long (smic-tree, seed 1, until
            // 2026-11-28).
            Charge::Spread => {
                let in_use = self.flows.iter().filter(|f| f.in_use()).map(|f| f.rtt.rto());
                in_use.max().unwrap_or(self.rto.initial_rto)
            }
        };
        let mut lp = LpHeader::default();
        lp.ext_mut().path_id = Some(path_id);
        PathSend { lp, rto: Some(rto) }
    }
}

impl SubflowManager for Smic {
    fn name(&self) -> &'static str {
        "smic"
    }

    fn can_send(&self, _now: Time) -> bool {
        self.spread_id().is_some() || self.flow_with_room().is_some()
    }

    fn path_for(&mut self, now: Time, segment: u64, _retransmission: bool) -> Option<PathSend> {
        self.next_spread.get_or_insert(now + self.config.respread);
        if let Some(id) = self.spread_id() {
            self.ids[id].spread_due = false;
            return Some(self.send(now, segment, Charge::Spread, id as u64));
        }
        let i = self.flow_with_room()?;
        self.cursor = (i + 1) % self.flows.len();
        let id = self.flows[i].ids[0];
        Some(self.send(now, segment, Charge::Flow(i), id))
    }

    fn on_data(&mut self, now: Time, sample: &DataSample) {
        let Some(out) = self.sent.remove(&sample.segment) else { return };
        self.release(&out);
        // An answer to an Interest the sub-flow sent, over whatever path it came back, ends its
        // timer's backoff: without it, a sub-flow whose path ids all moved (a cache's trajectory
        // while a cached object lasted) keeps a timer doubled up to the 60 s maximum, and the
        // Interests it still has out, lost, hold the object's last segments for that long.
        if let Charge::Flow(i) = out.charge {
            self.flows[i].rtt.clear_backoff();
        }
        let r = self.flow_of(sample.lp.trajectory_id().unwrap_or(0));
        self.bind(out.path_id, r);
        self.ids[out.path_id as usize].dead = false;
        if let Some(rtt) = sample.rtt {
            self.flows[r].rtt.add_sample(rtt);
        }
        // After the RTT sample, so that a coupling sees this Data's RTT.
        let increase = self.increase(r);
        let f = &mut self.flows[r];
        f.bandwidth.on_data(out.sent_at, now, sample.wire_size);
        if out.sent_at >= f.last_decrease {
            f.recovering = false;
        }
        f.window += increase;
        f.data += 1;
        f.since_loss += 1;
        if self.config.sharing_on_data && f.in_use() && !f.timeouts.is_empty() {
            self.detect_sharing(r);
        }
    }

    fn on_timeout(&mut self, now: Time, segment: u64) {
        let Some(out) = self.sent.remove(&segment) else { return };
        self.release(&out);
        if let Charge::Flow(r) = out.charge {
            self.flows[r].timeout_count += 1;
            // Algorithm 1's timeout block (halve, update t_r, compare) runs once per loss
            // episode, as the halving does: a burst that times out fifty Interests at one instant
            // is one congestion event, and recorded fifty times it would fill the history with a
            // single instant that matches any sub-flow which lost one Interest then (the object
            // starts of the competition, docs/experiments/smic.md).
            if !self.decrease(r, now, out.sent_at) {
                return;
            }
            let f = &mut self.flows[r];
            f.timeouts.push(now, self.config.sharing.history);
            // An idle sub-flow (its path ids moved on) is not compared: S only counts those in use.
            if f.in_use() {
                self.detect_sharing(r);
            }
        }
    }

    fn on_nack(&mut self, now: Time, segment: u64, reason: NackReason, _marked: bool) {
        let Some(out) = self.sent.remove(&segment) else { return };
        self.release(&out);
        if reason == NackReason::NoRoute {
            self.unbind(out.path_id);
            self.ids[out.path_id as usize].dead = true;
        } else if let Charge::Flow(r) = out.charge {
            self.decrease(r, now, out.sent_at);
        }
    }

    fn path_of(&self, segment: u64) -> Option<u64> {
        self.sent.get(&segment).map(|o| o.path_id)
    }

    fn take_lost(&mut self, _out: &mut Vec<u64>) {}

    fn poll_timeout(&self) -> Option<Time> {
        self.next_spread
    }

    /// Every `respread`: one Interest on each path id not leading a sub-flow, to learn where it
    /// goes now (and to try Nacked ones again).
    fn handle_timeout(&mut self, now: Time) {
        let Some(due) = self.next_spread else { return };
        if now < due {
            return;
        }
        self.next_spread = Some(now + self.config.respread);
        for id in 0..self.ids.len() {
            let leads = self.ids[id].flow.is_some_and(|f| self.flows[f].ids.first() == Some(&(id as u64)));
            let slot = &mut self.ids[id];
            slot.dead = false;
            slot.spread_due = !leads;
        }
    }

    fn window(&self) -> f64 {
        self.flows.iter().filter(|f| f.in_use()).map(|f| f.window).sum()
    }

    /// Every sub-flow met, in the order met: its path ids as the route (`tags`), "in-use" or
    /// "idle" (no path id leads there now), and |S_r| while in use.
    fn paths(&self) -> Vec<PathReport> {
        self.flows
            .iter()
            .enumerate()
            .map(|(i, f)| PathReport {
                tags: f.ids.to_vec(),
                tag_stack: false,
                state: if f.in_use() { "in-use" } else { "idle" },
                window: f.window,
                srtt: f.rtt.srtt(),
                data: f.data,
                losses: f.timeout_count,
                decreases: f.decreases,
                timeouts: f.timeout_count,
                sharing: f.in_use().then(|| self.set_size(i)),
                bandwidth: None,
            })
            .collect()
    }
}

#[cfg(test)]
#[path = "smic_tests.rs"]
mod tests;
