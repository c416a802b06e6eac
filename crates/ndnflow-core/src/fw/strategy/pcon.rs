//! pcon: PCON's mark-driven multipath forwarding (Schneider et al., "A Practical Congestion
//! Control Scheme for Named Data Networking", ICN 2016, §3.4, §3.5 and Algorithm 2).
//!
//! For each FIB prefix the strategy keeps a forwarding percentage per next hop, 100 % on the
//! shortest path (lowest routing cost) at first, and sends each new Interest to one next hop drawn
//! at random in proportion to them. It moves traffic by the congestion signals it receives:
//!
//! * a marked Data from face F: `reduction = fwPerc(F) * CHANGE_PERC / f(distance)`, taken from F
//!   and shared equally by the other next hops; f(distance) is the number of hops to the link that
//!   marked the Data (1 for a link of this router), from the Data's hop count;
//! * a marked Nack (a loss on an IP-overlay link, §3.5): the same reduction with f = 1, at most
//!   once per CoDel interval per prefix; an unmarked Nack (wireless loss) changes nothing;
//! * no signal for a whole marking interval (110 ms): a fixed share of traffic goes back from the
//!   longest path in use to the shortest;
//! * a next hop below the lower threshold is disabled: it keeps its percentage, gets no regular
//!   Interests, and is probed with copies of a small fraction of them;
//! * a next hop whose Data report a highly congested path (§3.6) is disabled the same way: for
//!   every prefix when the congested link is its own (HIGH_CONG_LOCAL), for the FIB prefix
//!   otherwise, until its Data come without the flag. With no enabled alternative the state is
//!   passed downstream (the strategy's `after_receive_data` lets the flag go on). While a face is closed this way, what marks
//!   take from the other faces is shared among the open ones only, and no shift back goes to it:
//!   our choice, the paper is silent. A closed link carries nothing, so share given to it would
//!   only pile up, and land all at once when it opens (pcon-4.5: after the flood, 90 % of the
//!   Interests went to the link just drained).
//!
//! Parameters, defaults and sources are in docs/protocols/pcon.md. Choices where the paper is
//! silent are commented where they are made.

use std::borrow::Cow;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use smallvec::SmallVec;

use super::why;
use super::{
    nack_when_all_upstreams_nacked, DataDecision, Faces, InterestDecision, NackDecision, RetxDecision, RetxSuppression,
    Strategy, StrategyCtx,
};
use crate::fw::face::FaceKind;
use crate::fw::log::Shares;
use crate::name::NameMap;
use crate::packet::lp::flags::{HIGH_CONG, HIGH_CONG_LOCAL};
use crate::packet::{Data, LpHeader, Nack, NackReason};
use crate::table::{FaceId, FibEntry, NextHop, PitEntry};
use crate::{Name, Time};

/// PCON forwarding parameters (§3.4-3.5).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PconConfig {
    /// CHANGE_PERC: the fraction of a face's percentage moved per mark. §3.4: "a value of 1%-3%
    /// works well"; ndnSIM's pcon-strategy uses 0.02.
    pub change_perc: f64,
    /// Divide the reduction by f(distance) = hops to the congested link (§3.4). Off: f = 1.
    pub distance: bool,
    /// How long without any congestion signal before traffic shifts back (§3.4: one marking
    /// interval, 110 ms).
    pub quiet_interval: Time,
    /// Share moved back per quiet interval, as a fraction of `change_perc` (§3.4: "e.g. 10% of
    /// CHANGE_PERC"). Percentage points, taken from the longest path in use.
    pub shift_back: f64,
    /// At most one reduction per this interval for marked Nacks (Algorithm 2: the CoDel interval).
    pub nack_interval: Time,
    /// Below this percentage a face is disabled but probed (§3.4 "lower threshold", e.g. 5 %).
    /// 0 disables nothing.
    pub lower_threshold: f64,
    /// Chance that an Interest is also sent to each disabled face as a probe (ndnSIM's
    /// PROBING_PERCENTAGE, 0.001).
    pub probe_fraction: f64,
    /// Start a new prefix with everything on the shortest path (§3.4), or split equally over the
    /// next hops (ndnSIM fork's INIT_SHORTEST_PATH = false; §4.6 "start out with the optimal split
    /// ratio of 0.5").
    pub start_equal: bool,
    /// Take CHANGE_PERC (percentage points) from a face each time a PIT entry forwarded there
    /// expires unanswered, as the ndnSIM fork of the paper's experiments does
    /// (`beforeExpirePendingInterest`). The paper says nothing of it; off by default.
    pub expiry_reduction: bool,
}

impl Default for PconConfig {
    fn default() -> Self {
        PconConfig {
            change_perc: 0.02,
            distance: true,
            quiet_interval: Time::from_millis(110),
            shift_back: 0.1,
            nack_interval: Time::from_millis(100),
            lower_threshold: 0.0,
            probe_fraction: 0.001,
            start_equal: false,
            expiry_reduction: false,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
struct Share {
    face: FaceId,
    cost: u64,
    perc: f64,
    /// Its Data last reported a highly congested path for this prefix (§3.6, not local).
    high_cong: bool,
}

/// Forwarding state of one FIB prefix.
#[derive(Clone, Debug)]
struct PrefixState {
    /// In FIB order (cost, then face id): the first is the shortest path.
    shares: SmallVec<[Share; 4]>,
    /// Last mark or marked Nack received for the prefix.
    last_signal: Time,
    /// Last shift back to the shortest path.
    last_shift: Time,
    /// Last reduction caused by a marked Nack.
    last_nack_update: Option<Time>,
}

impl PrefixState {
    fn new(now: Time, fib: &FibEntry, equal: bool) -> PrefixState {
        // 100 % on the shortest path, 0 % elsewhere (§3.4; ndnSIM INIT_SHORTEST_PATH = true).
        let n = fib.nexthops.len() as f64;
        let share = |i: usize| match (equal, i) {
            (true, _) => 1.0 / n,
            (false, 0) => 1.0,
            (false, _) => 0.0,
        };
        let shares = fib
            .nexthops
            .iter()
            .enumerate()
            .map(|(i, h)| Share { face: h.face, cost: h.cost, perc: share(i), high_cong: false })
            .collect();
        PrefixState { shares, last_signal: now, last_shift: now, last_nack_update: None }
    }

    fn matches(&self, fib: &FibEntry) -> bool {
        self.shares.len() == fib.nexthops.len()
            && self.shares.iter().zip(&fib.nexthops).all(|(s, h)| s.face == h.face && s.cost == h.cost)
    }

    /// Follows a changed FIB entry: kept faces keep their percentage, new ones start at 0, and
    /// the total is brought back to 1 (all on the shortest path if nothing is left).
    fn resync(&mut self, fib: &FibEntry) {
        let old = std::mem::take(&mut self.shares);
        self.shares = fib
            .nexthops
            .iter()
            .map(|h| {
                let kept = old.iter().find(|s| s.face == h.face);
                Share {
                    face: h.face,
                    cost: h.cost,
                    perc: kept.map_or(0.0, |s| s.perc),
                    high_cong: kept.is_some_and(|s| s.high_cong),
                }
            })
            .collect();
        let total: f64 = self.shares.iter().map(|s| s.perc).sum();
        if total > 0.0 {
            self.shares.iter_mut().for_each(|s| s.perc /= total);
        } else if let Some(first) = self.shares.first_mut() {
            first.perc = 1.0;
        }
    }

    /// §3.4: take `fraction` of `face`'s percentage and share it equally among the open others.
    fn reduce(&mut self, face: FaceId, fraction: f64, closed: &[FaceId]) {
        let Some(i) = self.shares.iter().position(|s| s.face == face) else { return };
        let reduction = self.shares[i].perc * fraction;
        self.move_away(i, reduction, closed);
    }

    /// Takes `reduction` (at most all) from share `i` and gives each other open share an equal
    /// part: not to faces closed by a highly congested link (`closed`) or path (§3.6).
    fn move_away(&mut self, i: usize, reduction: f64, closed: &[FaceId]) {
        let takes = |j: usize, s: &Share| j != i && !s.high_cong && !closed.contains(&s.face);
        let n = self.shares.iter().enumerate().filter(|(j, s)| takes(*j, s)).count();
        if n == 0 {
            return;
        }
        let reduction = reduction.min(self.shares[i].perc);
        let each = reduction / n as f64;
        for (j, s) in self.shares.iter_mut().enumerate() {
            if j == i {
                s.perc -= reduction;
            } else if takes(j, s) {
                s.perc += each;
            }
        }
    }

    /// §3.4 shift back: after `quiet_interval` without signals (and at most once per interval),
    /// move `amount` points from the longest path in use to the shortest.
    fn shift_back(&mut self, now: Time, quiet_interval: Time, amount: f64, closed: &[FaceId]) {
        let since = self.last_signal.max(self.last_shift);
        if self.shares.len() < 2 || now.saturating_sub(since) < quiet_interval {
            return;
        }
        if self.shares[0].high_cong || closed.contains(&self.shares[0].face) {
            return; // the shortest path is closed (§3.6): nothing goes back to it meanwhile
        }
        self.last_shift = now;
        // Longest = highest cost in use, the later in FIB order among equal costs. A path no
        // longer than the shortest gives nothing back: with equal costs there is no shorter path
        // to return to, and shifting would starve one of them.
        let shortest = self.shares[0].cost;
        let longest = (1..self.shares.len())
            .filter(|&j| self.shares[j].perc > 0.0 && self.shares[j].cost > shortest)
            .max_by_key(|&j| (self.shares[j].cost, j));
        if let Some(j) = longest {
            let moved = self.shares[j].perc.min(amount);
            self.shares[j].perc -= moved;
            self.shares[0].perc += moved;
        }
    }
}

pub struct PconStrategy {
    config: PconConfig,
    retx: RetxSuppression,
    prefixes: NameMap<Name, PrefixState>,
    rng: ChaCha8Rng,
    /// Faces whose own link is highly congested (HIGH_CONG_LOCAL): disabled for every prefix.
    congested_faces: SmallVec<[FaceId; 2]>,
    /// How many shares have `high_cong` set, so that Data need no FIB lookup when none has.
    congested_shares: usize,
    /// Why the last decision went as it did (`Strategy::decision_reason`).
    reason: &'static str,
}

impl PconStrategy {
    pub fn new(config: PconConfig, seed: u64) -> PconStrategy {
        PconStrategy {
            config,
            retx: RetxSuppression::default(),
            prefixes: NameMap::default(),
            rng: ChaCha8Rng::seed_from_u64(seed),
            congested_faces: SmallVec::new(),
            congested_shares: 0,
            reason: "",
        }
    }

    /// after-receive-Interest, with why it decided so (for the forwarding log).
    fn decide(
        &mut self,
        ctx: &StrategyCtx,
        in_face: FaceId,
        entry: &mut PitEntry,
        fib: Option<&FibEntry>,
    ) -> (InterestDecision, &'static str) {
        // A first Interest from another downstream while one is pending upstream is aggregated,
        // as the ndnSIM fork of the paper's experiments does (NFD's best-route would forward it
        // again after the suppression interval, as if it were a retransmission). Retransmissions
        // from a known downstream follow NFD's suppression.
        let new_downstream = entry.in_record(in_face).is_some_and(|r| r.created == ctx.now);
        if new_downstream && entry.in_records.len() > 1 && entry.has_pending_out_records(ctx.now) {
            return (InterestDecision::Suppress, "aggregated: another downstream's Interest is pending upstream");
        }
        let decision = self.retx.decide(ctx.now, entry);
        if decision == RetxDecision::Suppress {
            return (InterestDecision::Suppress, why::SUPPRESSED);
        }
        let Some(fib) = fib else {
            return match decision {
                RetxDecision::New => (InterestDecision::Reject(NackReason::NoRoute), why::NEW_NO_FIB),
                _ => (InterestDecision::Suppress, why::RETX_NO_FIB),
            };
        };
        let cfg = self.config;
        let st = prefix_state(&mut self.prefixes, ctx.now, fib, cfg.start_equal);
        st.shift_back(ctx.now, cfg.quiet_interval, cfg.shift_back * cfg.change_perc, &self.congested_faces);
        // A retransmission prefers next hops without a pending out-record, as best-route does.
        let want_unused = decision == RetxDecision::Forward;
        // (next hop, percentage, enabled)
        let eligible: SmallVec<[(NextHop, f64, bool); 4]> = fib
            .nexthops
            .iter()
            .zip(&st.shares)
            .filter(|(h, _)| ctx.is_eligible(in_face, h, entry, want_unused))
            .map(|(h, s)| (*h, s.perc, is_enabled(s, cfg.lower_threshold, &self.congested_faces)))
            .collect();
        if eligible.is_empty() {
            if decision == RetxDecision::New {
                return (InterestDecision::Reject(NackReason::NoRoute), why::NEW_NONE_ELIGIBLE);
            }
            return match ctx.least_recently_used(in_face, &fib.nexthops, entry) {
                Some(face) => (InterestDecision::Forward(Faces::from_slice(&[face])), why::RETX_LEAST_RECENT),
                None => (InterestDecision::Suppress, why::RETX_NONE_ELIGIBLE),
            };
        }
        let all = eligible.iter().map(|(h, p, _)| (h.face, *p));
        let enabled = eligible.iter().filter(|(_, _, on)| *on).map(|(h, p, _)| (h.face, *p));
        // Every eligible face disabled: "when no other option is available, a router still
        // forwards Interests on disabled paths" (§3.6); take the largest percentage.
        let (chosen, reason) = match draw(&mut self.rng, enabled) {
            Some(face) => (face, "draw by forwarding percentage among enabled next hops"),
            None => match largest(all) {
                Some(face) => (face, "every eligible next hop disabled: the largest percentage"),
                None => return (InterestDecision::Suppress, "no next hop with a percentage"),
            },
        };
        let mut faces = Faces::from_slice(&[chosen]);
        // Probes: a copy of this Interest to a disabled face now and then (§3.4), so that its
        // marks, or the end of its highly congested state (§3.6), are seen.
        for (h, p, on) in &eligible {
            if h.face != chosen && *p > 0.0 && !on && self.rng.random::<f64>() < cfg.probe_fraction {
                faces.push(h.face);
            }
        }
        (InterestDecision::Forward(faces), reason)
    }

    /// Whether `face` is disabled for every prefix by a highly congested link of its own.
    pub fn is_face_highly_congested(&self, face: FaceId) -> bool {
        self.congested_faces.contains(&face)
    }

    /// Whether `face` is disabled for `prefix` by a highly congested path further up.
    pub fn is_path_highly_congested(&self, prefix: &Name, face: FaceId) -> bool {
        self.prefixes.get(prefix).is_some_and(|st| st.shares.iter().any(|s| s.face == face && s.high_cong))
    }

    pub fn config(&self) -> &PconConfig {
        &self.config
    }

    /// The forwarding percentages of `prefix` (a FIB prefix), in FIB order; empty before the
    /// first Interest under it.
    pub fn percentages(&self, prefix: &Name) -> Vec<(FaceId, f64)> {
        self.prefixes.get(prefix).map_or_else(Vec::new, |st| st.shares.iter().map(|s| (s.face, s.perc)).collect())
    }

    /// Test hook: sets the percentages of `fib`'s next hops, in FIB order.
    pub fn preset(&mut self, now: Time, fib: &FibEntry, percs: &[f64]) {
        let st = self.state(now, fib);
        for (s, p) in st.shares.iter_mut().zip(percs) {
            s.perc = *p;
        }
    }

    fn state(&mut self, now: Time, fib: &FibEntry) -> &mut PrefixState {
        prefix_state(&mut self.prefixes, now, fib, self.config.start_equal)
    }

    fn is_enabled(&self, share: &Share) -> bool {
        is_enabled(share, self.config.lower_threshold, &self.congested_faces)
    }

    /// Whether `entry`'s FIB prefix has an enabled next hop other than `in_face` that is up.
    /// Without FIB entry or state, none: the state then goes on downstream.
    fn has_way_around(&self, ctx: &StrategyCtx, entry: &PitEntry, in_face: FaceId) -> bool {
        let Some((_, fib)) = ctx.fib.longest_prefix_match(entry.name()) else { return false };
        let Some(st) = self.prefixes.get(&fib.prefix) else { return false };
        st.shares
            .iter()
            .any(|s| s.face != in_face && self.is_enabled(s) && ctx.faces.get(s.face.index()).is_some_and(|f| f.up))
    }

    /// §3.6: Data from `face` tell whether its link (local) or its path for this prefix is highly
    /// congested; a Data without the flags ends the state.
    fn note_high_congestion(&mut self, ctx: &StrategyCtx, entry: &PitEntry, face: FaceId, lp: &LpHeader) {
        let high = lp.flags & HIGH_CONG != 0;
        let local = high && lp.flags & HIGH_CONG_LOCAL != 0;
        let known = self.congested_faces.iter().position(|f| *f == face);
        match (local, known) {
            (true, None) => self.congested_faces.push(face),
            (false, Some(i)) => {
                self.congested_faces.swap_remove(i);
            }
            _ => {}
        }
        if !high && self.congested_shares == 0 {
            return; // the common case: nothing to set, nothing to clear
        }
        let Some((_, fib)) = ctx.fib.longest_prefix_match(entry.name()) else { return };
        let Some(share) =
            self.prefixes.get_mut(&fib.prefix).and_then(|st| st.shares.iter_mut().find(|s| s.face == face))
        else {
            return;
        };
        let path = high && !local;
        if share.high_cong != path {
            share.high_cong = path;
            if path {
                self.congested_shares += 1;
            } else {
                self.congested_shares -= 1;
            }
        }
    }
}

/// The state of `fib`'s prefix, created on first use and kept in step with the FIB entry's next
/// hops. A free function so that callers can borrow the strategy's other fields beside it.
fn prefix_state<'a>(
    prefixes: &'a mut NameMap<Name, PrefixState>,
    now: Time,
    fib: &FibEntry,
    start_equal: bool,
) -> &'a mut PrefixState {
    if !prefixes.contains_key(&fib.prefix) {
        prefixes.insert(fib.prefix.clone(), PrefixState::new(now, fib, start_equal));
    }
    let st = prefixes.get_mut(&fib.prefix).expect("inserted above");
    if !st.matches(fib) {
        st.resync(fib);
    }
    st
}

/// Not below the lower threshold and not on a highly congested path or local link.
fn is_enabled(share: &Share, lower_threshold: f64, congested_faces: &[FaceId]) -> bool {
    share.perc >= lower_threshold && !share.high_cong && !congested_faces.contains(&share.face)
}

/// The candidate of the largest weight, the first among equals (FIB order: the shortest path).
/// Candidates come as an iterator over (face, weight), so that the Interest path collects none.
fn largest(candidates: impl Iterator<Item = (FaceId, f64)>) -> Option<FaceId> {
    let mut best: Option<(FaceId, f64)> = None;
    for (face, w) in candidates {
        if best.is_none_or(|(_, bw)| w > bw) {
            best = Some((face, w));
        }
    }
    best.map(|(face, _)| face)
}

/// Draws one of `candidates` (face, weight) in proportion to the weights, or, when no weight is
/// positive, the largest. `None` only for no candidates.
fn draw(rng: &mut ChaCha8Rng, candidates: impl Iterator<Item = (FaceId, f64)> + Clone) -> Option<FaceId> {
    let total: f64 = candidates.clone().map(|(_, w)| w.max(0.0)).sum();
    if total <= 0.0 {
        return largest(candidates);
    }
    let mut r = rng.random::<f64>() * total;
    let mut last_positive = None;
    for (face, w) in candidates {
        let w = w.max(0.0);
        if r < w {
            return Some(face);
        }
        r -= w;
        if w > 0.0 {
            last_positive = Some(face);
        }
    }
    // Rounding left r just above the sum: the last positive weight.
    last_positive
}

impl Strategy for PconStrategy {
    fn name(&self) -> &'static str {
        "pcon"
    }

    fn forwarding_shares(&mut self, _ctx: &StrategyCtx, prefix: &Name) -> Shares {
        self.prefixes.get(prefix).map_or_else(Shares::new, |st| st.shares.iter().map(|s| (s.face, s.perc)).collect())
    }

    fn after_receive_interest(
        &mut self,
        ctx: &StrategyCtx,
        in_face: FaceId,
        entry: &mut PitEntry,
        fib: Option<&FibEntry>,
    ) -> InterestDecision {
        let (decision, reason) = self.decide(ctx, in_face, entry, fib);
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
        lp: &LpHeader,
    ) {
        // Algorithm 2 line 2: only marked Data from another router moves traffic.
        if ctx.face_kind(in_face) != Some(FaceKind::Link) {
            return;
        }
        self.note_high_congestion(ctx, entry, in_face, lp);
        if lp.congestion_mark == 0 {
            return;
        }
        let Some((_, fib)) = ctx.fib.longest_prefix_match(entry.name()) else { return };
        let Some(st) = self.prefixes.get_mut(&fib.prefix) else { return };
        let closed = &self.congested_faces;
        // f(distance): the hop count counts the forwarders the Data crossed since it was marked.
        let distance = if self.config.distance { lp.hop_count.unwrap_or(0) + 1 } else { 1 };
        st.reduce(in_face, self.config.change_perc / distance as f64, closed);
        st.last_signal = ctx.now;
    }

    fn after_receive_nack(
        &mut self,
        ctx: &StrategyCtx,
        in_face: FaceId,
        _nack: &Nack,
        lp: &LpHeader,
        entry: &mut PitEntry,
        fib: Option<&FibEntry>,
    ) -> NackDecision {
        // Algorithm 2 ONNACK, for marked Nacks only: unmarked ones report wireless loss, which
        // says nothing about the path's capacity (§3.5).
        if lp.congestion_mark != 0 {
            if let Some(st) = fib.and_then(|f| self.prefixes.get_mut(&f.prefix)) {
                let due = st.last_nack_update.is_none_or(|t| ctx.now >= t + self.config.nack_interval);
                if due {
                    st.reduce(in_face, self.config.change_perc, &self.congested_faces);
                    st.last_nack_update = Some(ctx.now);
                }
                st.last_signal = ctx.now;
            }
        }
        nack_when_all_upstreams_nacked(entry)
    }

    /// The ndnSIM fork's rule, when enabled: an entry that expires takes CHANGE_PERC points from
    /// each face it was forwarded to.
    fn on_interest_expired(&mut self, ctx: &StrategyCtx, entry: &PitEntry) {
        if !self.config.expiry_reduction || entry.out_records.is_empty() {
            return;
        }
        let Some((_, fib)) = ctx.fib.longest_prefix_match(entry.name()) else { return };
        let Some(st) = self.prefixes.get_mut(&fib.prefix) else { return };
        for o in &entry.out_records {
            if let Some(i) = st.shares.iter().position(|s| s.face == o.face) {
                st.move_away(i, self.config.change_perc, &self.congested_faces);
            }
        }
    }

    /// §3.6: a highly congested path's state goes on downstream only when no other enabled next
    /// hop is left here; the mark travels as the pipeline carries it.
    fn after_receive_data(
        &mut self,
        ctx: &StrategyCtx,
        entry: &PitEntry,
        in_face: FaceId,
        lp: &LpHeader,
    ) -> DataDecision {
        let passes = lp.flags & HIGH_CONG != 0 && !self.has_way_around(ctx, entry, in_face);
        DataDecision { flags: if passes { HIGH_CONG } else { 0 } }
    }
}

#[cfg(test)]
#[path = "pcon_tests.rs"]
mod tests;
