//! paf: Probability-based Adaptive Forwarding (H. Qian, R. Ravindran, G.-Q. Wang, D. Medhi, IFIP/IEEE
//! IM 2013), the forwarding half of Sol.4 ("PAF + RAAQM") in the PTP paper (Ye et al. §6): "PAF is
//! inspired by the ant colony optimization algorithm (ACO) to balance the load on different paths
//! based on RTT"; its related work (§7-B) adds that it "selects the forwarding interfaces based on
//! an RTT distribution". The same authors' patent (US 8,762,570, "Method and apparatus for adaptive
//! forwarding strategies in content-centric networking", claim 1) keeps "a probing probability for
//! each of a plurality of prefixes, a selection probability per face per prefix", the selection
//! probabilities updated "from feedback from the probe of the performance of the faces".
//!
//! The paper's own text was not at hand; the update rule is the one of AntNet (Di Caro and Dorigo,
//! "AntNet: Distributed Stigmergetic Control for Communications Networks", JAIR 9, 1998), the
//! classic ACO routing algorithm (our choice in the paper's absence). Per FIB prefix and face the strategy keeps a selection
//! probability `p` (the probabilities of a prefix's faces sum to 1) and a smoothed RTT:
//!
//! * **Forwarding**: an Interest goes to one eligible next hop, drawn with the probabilities
//!   renormalised over the eligible hops; with probability `explore` (the probing probability) it
//!   goes instead to a next hop drawn uniformly, so that every face keeps being measured.
//! * **Reinforcement** (the backward ant): the Data answering an Interest forwarded on face f gives
//!   an RTT sample (this node's send time to the Data, as fpf measures it), smoothed with RFC 6298's
//!   gain 1/8 into srtt(f). The reinforcement is r = alpha x srtt_best / srtt(f), srtt_best the
//!   smallest srtt among the prefix's faces (AntNet's "W_best / t" term), so 0 < r <= alpha; then
//!   p(f) += r (1 - p(f)) and p(g) -= r p(g) for every other face g (AntNet's update: the sum stays 1).
//! * **Penalty** (the ant that does not come back): a face whose out-record expired unanswered, or
//!   that answered with a Nack, loses the share `penalty` of its probability, handed to the other
//!   faces in proportion to theirs.
//!
//! Why this balances load: leaving exploration aside, a face's expected change per Interest is
//! p(f) (r(f) - mean r), the replicator equation, so probability flows to faces whose RTT is below
//! the average until the RTTs of the faces in use are equal; a face that gets more load than it
//! carries builds a queue, its RTT rises, and it loses share. Our choices where the sources are silent:
//!
//! * The ants are the Interests themselves and their Data: no probe packet of its own, so PAF adds
//!   no traffic. Exploration sends a regular Interest to a uniformly drawn next hop.
//! * A prefix starts with equal probabilities over its next hops (ACO's uniform initial
//!   pheromone); a next hop that appears later gets 1/(k+1) of k known faces, the others scaled by
//!   k/(k+1).
//! * The smoothed RTT (not the raw sample) enters r, so one delayed packet does not swing the split.
//! * Records never expire (as the pending-Interest strategies' counts): what a quiet prefix learned
//!   stays until traffic resumes.
//! * Retransmissions: NFD's suppression; one that gets through is drawn like any Interest, among
//!   all eligible next hops, the one it went to before included. Best-route's preference for an
//!   unused hop would send every retransmission to the face the split starves, a dead one
//!   included: on the PTP tree with path a down, a fifth of r's Interests went to a that way.
//! * Nacks: the penalty, then NFD's processNack.

use std::borrow::Cow;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::pending::{self, ChoiceReasons, PendingTracker, RetxPlacement};
use super::{InterestDecision, NackDecision, RetxSuppression, Strategy, StrategyCtx};
use crate::packet::{Data, LpHeader, Nack};
use crate::table::{FaceId, FibEntry, Measurements, NextHop, OutRecord, PitEntry};
use crate::Name;

/// Gain of the smoothed RTT: RFC 6298's SRTT gain.
pub const RTT_GAIN: f64 = 1.0 / 8.0;

/// PAF's parameters (units: none, all are probabilities or shares; docs/protocols/paf.md).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PafConfig {
    /// Reinforcement an answer gives a face with the best smoothed RTT; one with k times that RTT
    /// gets alpha / k.
    pub alpha: f64,
    /// Share of its probability a face loses per Interest it left unanswered (timeout or Nack).
    pub penalty: f64,
    /// Probing probability: the chance that an Interest goes to a uniformly drawn next hop.
    pub explore: f64,
}

impl Default for PafConfig {
    /// Our choices (the paper's values were not at hand): alpha 0.01 moves a 50/50 split by at most
    /// 0.5 percentage points per Data, so at a thousand Data per second the split follows a change
    /// of the paths within a fraction of a second without jumping at each sample; a timeout costs
    /// as much as the best answer gains (penalty = alpha); one Interest in twenty explores.
    fn default() -> Self {
        PafConfig { alpha: 0.01, penalty: 0.01, explore: 0.05 }
    }
}

/// What PAF keeps per prefix and face.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PafFace {
    /// Selection probability; a prefix's add up to 1.
    pub prob: f64,
    /// Smoothed RTT in seconds, `None` before the first answer.
    pub srtt_s: Option<f64>,
}

/// Adds `face` to `prefix`'s faces, if new, with 1/(k+1) of the k known faces' probability.
pub fn add_face(t: &mut Measurements<PafFace>, prefix: &Name, face: FaceId) {
    if t.get(prefix, face).is_some() {
        return;
    }
    let k = t.faces(prefix).len() as f64;
    for (_, r) in t.faces_mut(prefix) {
        r.prob *= k / (k + 1.0);
    }
    t.get_or_insert(prefix, face).prob = 1.0 / (k + 1.0);
}

/// Folds an RTT sample of `face` into its smoothed RTT (the first sample taken as it is).
pub fn record_rtt(t: &mut Measurements<PafFace>, prefix: &Name, face: FaceId, rtt_s: f64) {
    let r = t.get_or_insert(prefix, face);
    r.srtt_s = Some(match r.srtt_s {
        None => rtt_s,
        Some(s) => s + RTT_GAIN * (rtt_s - s),
    });
}

/// r = alpha x srtt_best / srtt(face), 0 when `face` has no smoothed RTT.
pub fn reinforcement(alpha: f64, t: &Measurements<PafFace>, prefix: &Name, face: FaceId) -> f64 {
    let Some(own) = t.get(prefix, face).and_then(|r| r.srtt_s) else { return 0.0 };
    let best = t.faces(prefix).iter().filter_map(|(_, r)| r.srtt_s).fold(own, f64::min);
    if own > 0.0 {
        alpha * best / own
    } else {
        alpha
    }
}

/// AntNet's update: p(face) += r (1 - p(face)), every other p(g) -= r p(g).
pub fn reinforce(t: &mut Measurements<PafFace>, prefix: &Name, face: FaceId, r: f64) {
    for (f, rec) in t.faces_mut(prefix) {
        if *f == face {
            rec.prob += r * (1.0 - rec.prob);
        } else {
            rec.prob -= r * rec.prob;
        }
    }
}

/// `face` loses `share` of its probability to the other faces, in proportion to theirs (equally
/// when they all have none). A prefix's only face keeps everything: there is nowhere to go.
pub fn penalize(t: &mut Measurements<PafFace>, prefix: &Name, face: FaceId, share: f64) {
    let faces = t.faces_mut(prefix);
    let Some(i) = faces.iter().position(|(f, _)| *f == face) else { return };
    let others = faces.len() - 1;
    let freed = share * faces[i].1.prob;
    if others == 0 || freed <= 0.0 {
        return;
    }
    let rest: f64 = faces.iter().enumerate().filter(|(j, _)| *j != i).map(|(_, (_, r))| r.prob).sum();
    faces[i].1.prob -= freed;
    for (j, (_, r)) in faces.iter_mut().enumerate() {
        if j != i {
            r.prob += if rest > 0.0 { freed * r.prob / rest } else { freed / others as f64 };
        }
    }
}

/// One of `hops` (non-empty): uniformly with probability `explore`, else by the probabilities
/// renormalised over `hops` (uniformly if they all have none).
pub fn draw(rng: &mut ChaCha8Rng, t: &Measurements<PafFace>, prefix: &Name, hops: &[NextHop], explore: f64) -> FaceId {
    let prob = |h: &NextHop| t.get(prefix, h.face).map_or(0.0, |r| r.prob.max(0.0));
    let total: f64 = hops.iter().map(prob).sum();
    if rng.random::<f64>() < explore || total <= 0.0 {
        return hops[rng.random_range(0..hops.len())].face;
    }
    let mut x = rng.random::<f64>() * total;
    for h in hops {
        let w = prob(h);
        if x < w {
            return h.face;
        }
        x -= w;
    }
    hops[hops.len() - 1].face
}

/// The PAF strategy.
pub struct PafStrategy {
    config: PafConfig,
    retx: RetxSuppression,
    /// Which prefix and faces each PIT entry was forwarded under (the pending counts go unused).
    pending: PendingTracker,
    faces: Measurements<PafFace>,
    rng: ChaCha8Rng,
    /// Why the last decision went as it did (`Strategy::decision_reason`).
    reason: &'static str,
}

/// What the forwarding log says of PAF's choice.
const REASONS: ChoiceReasons = ChoiceReasons {
    new: "new Interest: draw by forwarding probability (or uniform, to explore)",
    retx: "retransmission: draw by forwarding probability (or uniform, to explore)",
};

impl PafStrategy {
    pub fn new(config: PafConfig, seed: u64) -> Self {
        PafStrategy {
            config,
            retx: RetxSuppression::default(),
            pending: PendingTracker::default(),
            faces: Measurements::default(),
            rng: ChaCha8Rng::seed_from_u64(seed),
            reason: "",
        }
    }

    pub fn config(&self) -> &PafConfig {
        &self.config
    }

    /// What PAF holds for `face` under `prefix`.
    pub fn face(&self, prefix: &Name, face: FaceId) -> PafFace {
        self.faces.get(prefix, face).copied().unwrap_or_default()
    }

    /// Test hook: sets the probability and smoothed RTT of `face` under `prefix`.
    pub fn preset(&mut self, prefix: &Name, face: FaceId, prob: f64, srtt_s: Option<f64>) {
        *self.faces.get_or_insert(prefix, face) = PafFace { prob, srtt_s };
    }

    /// Penalises the faces `entry` still waits on whose out-record `unanswered` says timed out (a
    /// Nacked one was penalised when its Nack came).
    fn penalize_unanswered(&mut self, entry: &PitEntry, unanswered: impl Fn(&OutRecord) -> bool) {
        let Some(prefix) = self.pending.prefix_of(entry) else { return };
        for &face in self.pending.faces_of(entry) {
            if entry.out_record(face).is_some_and(|o| o.nack.is_none() && unanswered(o)) {
                penalize(&mut self.faces, prefix, face, self.config.penalty);
            }
        }
    }
}

impl Strategy for PafStrategy {
    fn name(&self) -> &'static str {
        "paf"
    }

    fn after_receive_interest(
        &mut self,
        ctx: &StrategyCtx,
        in_face: FaceId,
        entry: &mut PitEntry,
        fib: Option<&FibEntry>,
    ) -> InterestDecision {
        let now = ctx.now;
        self.penalize_unanswered(entry, |o| o.expiry <= now);
        if let Some(fib) = fib {
            for h in &fib.nexthops {
                add_face(&mut self.faces, &fib.prefix, h.face);
            }
        }
        let (faces, rng, explore) = (&self.faces, &mut self.rng, self.config.explore);
        let placement = RetxPlacement::AnyEligible;
        let (decision, reason) = pending::after_receive_interest(
            &mut self.pending,
            &self.retx,
            placement,
            REASONS,
            ctx,
            in_face,
            entry,
            fib,
            |_, p, h| draw(rng, faces, p, h, explore),
        );
        self.reason = reason;
        decision
    }

    fn decision_reason(&self) -> Cow<'static, str> {
        Cow::Borrowed(self.reason)
    }

    fn before_satisfy_interest(
        &mut self,
        ctx: &StrategyCtx,
        entry: &PitEntry,
        in_face: FaceId,
        _data: &Data,
        _lp: &LpHeader,
    ) {
        // The backward ant: the RTT from this node's last send on `in_face` (a retransmission
        // restarts it, as fpf's), under the prefix the entry was forwarded by.
        if let (Some(out), Some(prefix)) = (entry.out_record(in_face), self.pending.prefix_of(entry)) {
            let rtt = ctx.now.saturating_sub(out.last_sent).as_secs_f64();
            record_rtt(&mut self.faces, prefix, in_face, rtt);
            let r = reinforcement(self.config.alpha, &self.faces, prefix, in_face);
            reinforce(&mut self.faces, prefix, in_face, r);
        }
        self.pending.released_all(entry);
    }

    fn after_receive_nack(
        &mut self,
        _ctx: &StrategyCtx,
        in_face: FaceId,
        _nack: &Nack,
        _lp: &LpHeader,
        entry: &mut PitEntry,
        _fib: Option<&FibEntry>,
    ) -> NackDecision {
        if let Some(prefix) = self.pending.prefix_of(entry) {
            if self.pending.faces_of(entry).contains(&in_face) {
                penalize(&mut self.faces, prefix, in_face, self.config.penalty);
            }
        }
        self.pending.released(entry, in_face);
        super::nack_when_all_upstreams_nacked(entry)
    }

    fn on_interest_expired(&mut self, _ctx: &StrategyCtx, entry: &PitEntry) {
        // The entry is gone: every face it still waited on timed out, whatever its out-record's
        // own expiry.
        self.penalize_unanswered(entry, |_| true);
        self.pending.released_all(entry);
    }
}

#[cfg(test)]
#[path = "paf_tests.rs"]
mod tests;
