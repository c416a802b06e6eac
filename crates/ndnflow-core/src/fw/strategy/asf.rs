//! asf: Adaptive SRTT-based Forwarding, after NFD daemon/fw/asf-strategy.cpp,
//! asf-measurements.cpp and asf-probing-module.cpp (strategy version 4), and the technical report
//! V. Lehman et al., "An Experimental Investigation of Hyperbolic Routing with a Smart Forwarding
//! Plane in NDN" (NDN-0042), which defines the three groups of faces.
//!
//! Per FIB prefix (NFD's namespace) and face the strategy keeps an RFC 6298 estimator (SRTT, RTO;
//! `app::rtt::RttEstimator` with ndn-cxx's defaults, which NFD's ASF uses), the last RTT or the
//! mark that the face timed out, and a count of timeouts since the last Data. It ranks a
//! prefix's eligible next hops in three groups: faces with a measured RTT, by SRTT; faces not yet
//! measured; faces marked timed out. Inside a group cost breaks ties, then the face id.
//!
//! * A new Interest goes to the best face; none eligible: Nack(NoRoute). When the prefix's probe
//!   is due, a copy also goes to one other face: an unmeasured one if any (the best of them),
//!   else one drawn with p = (n + 1 - rank) / (1 + ... + n) over the n other faces ranked with
//!   measured faces first by SRTT, timed-out ones last. The probe has a nonce of its own
//!   (`InterestDecision::Probe`), as NFD's. The first probe of a prefix is due a
//!   uniform 0-5000 ms after its first Interest, later ones `probing_interval` after the last.
//! * Each face watches one Interest at a time: when an Interest goes to a face that watches
//!   none, a timer is armed at now + RTO. A Data of that name from the face disarms it. When it
//!   fires the face counts a timeout; at the `max_timeouts`-th in a row the face is marked timed
//!   out (ranked last) and the count starts again. A Data from the face gives an RTT sample
//!   (this node's last send to the Data), clears the mark and the count.
//! * A Nack marks the face timed out at once; the Nack then goes downstream as NFD's
//!   ProcessNackTraits says (when every upstream has Nacked, the least severe reason): ASF does
//!   not try another face on a Nack.
//! * A retransmission (some out-record still pending) goes to the best face without a pending
//!   out-record, unless that face was sent the Interest less than the suppression interval ago;
//!   if every eligible face has a pending out-record, to the one sent it longest ago, on the same
//!   condition. A retransmission is never a probe and never answered with a Nack.
//! * Measurements live 5 minutes after their last use (NFD's MEASUREMENTS_LIFETIME), the prefix
//!   entry and each face's record apart.
//!
//! Where we differ from NFD, and why (docs/protocols/forwarder.md, section asf):
//! * The suppression interval is the PIT entry's (10 ms, x2 per forwarded retransmission, at most
//!   250 ms, NFD's defaults), not one per out-record: a PIT entry here has no per-upstream room.
//! * NFD keeps a satisfied entry 50 ms more so that a slower probe's Data still gives its face an
//!   RTT sample; a strategy here cannot set a PIT entry's expiry, the node's `straggler` time does
//!   that for every strategy (set it to "50ms" for NFD's behaviour).

use std::borrow::Cow;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::{Faces, InterestDecision, NackDecision, Strategy, StrategyCtx};
use crate::app::rtt::{RttEstimator, RttOptions};
use crate::name::NameMap;
use crate::packet::{Data, LpHeader, Nack, NackReason};
use crate::table::{FaceId, FibEntry, Measurements, NextHop, PitEntry};
use crate::{Name, Time};

#[path = "asf_rank.rs"]
mod rank;
pub use rank::{forwarding_rank, pick_probe, probing_rank, Group};

/// How long a prefix's or a face's measurements outlive their last use (NFD
/// AsfMeasurements::MEASUREMENTS_LIFETIME, 5 min).
pub const MEASUREMENTS_LIFETIME: Time = Time::from_secs(300);
/// NFD ProbingModule::MIN_PROBING_INTERVAL: a shorter interval is refused.
pub const MIN_PROBING_INTERVAL: Time = Time::from_secs(1);
/// The first probe of a prefix is due a uniform whole number of milliseconds in [0, this] after
/// its first Interest (NFD ProbingModule::isProbingNeeded).
pub const FIRST_PROBE_MAX_MS: u64 = 5000;
/// NFD AsfStrategy's retransmission suppression: RetxSuppressionExponential's defaults.
const RETX_INITIAL: Time = Time::from_millis(10);
const RETX_MAX: Time = Time::from_millis(250);

/// ASF's parameters (NFD's strategy parameters of the same names).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AsfConfig {
    /// Time between two probes of a prefix (NFD `probing-interval`, default 60 s, at least 1 s).
    pub probing_interval: Time,
    /// Timeouts in a row after which a face is marked timed out (NFD `max-timeouts`, default 3;
    /// 0 and 1 both mark it at the first).
    pub max_timeouts: u32,
}

impl Default for AsfConfig {
    fn default() -> Self {
        AsfConfig { probing_interval: Time::from_secs(60), max_timeouts: 3 }
    }
}

/// What the last RTT of a face says (NFD FaceInfo's lastRtt with its two special values).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LastRtt {
    #[default]
    NoMeasurement,
    TimedOut,
    Measured(Time),
}

/// What ASF keeps per prefix and face.
#[derive(Clone, Debug)]
pub struct AsfFace {
    pub rtt: RttEstimator,
    pub last_rtt: LastRtt,
    /// Timeouts since the last Data or the last mark.
    pub timeouts: u32,
    /// The armed RTO timer: its number and the name of the Interest it watches.
    timer: Option<(u64, Name)>,
    /// The record is gone at this instant unless used again (`Time::ZERO`: not in use yet).
    expires: Time,
}

impl Default for AsfFace {
    fn default() -> Self {
        AsfFace {
            rtt: RttEstimator::new(RttOptions::default()),
            last_rtt: LastRtt::NoMeasurement,
            timeouts: 0,
            timer: None,
            expires: Time::ZERO,
        }
    }
}

impl AsfFace {
    pub fn srtt(&self) -> Option<Time> {
        self.rtt.srtt()
    }
}

/// An RTO timer in the queue; a disarmed one stays until due and is then skipped.
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord)]
struct RtoTimer {
    at: Time,
    id: u64,
    prefix: Name,
    face: FaceId,
}

/// The ASF strategy.
pub struct AsfStrategy {
    config: AsfConfig,
    faces: Measurements<AsfFace>,
    /// When each prefix's next probe is due, from its first Interest on.
    probe_due: NameMap<Name, Time>,
    timers: BinaryHeap<Reverse<RtoTimer>>,
    next_timer_id: u64,
    /// When to free expired measurements next, if any exist.
    cleanup_at: Option<Time>,
    rng: ChaCha8Rng,
    reason: &'static str,
}

impl AsfStrategy {
    pub fn new(config: AsfConfig, seed: u64) -> Self {
        AsfStrategy {
            config,
            faces: Measurements::with_lifetime(MEASUREMENTS_LIFETIME),
            probe_due: NameMap::default(),
            timers: BinaryHeap::new(),
            next_timer_id: 0,
            cleanup_at: None,
            rng: ChaCha8Rng::seed_from_u64(seed),
            reason: "",
        }
    }

    pub fn config(&self) -> &AsfConfig {
        &self.config
    }

    /// The live record of `face` under `prefix` at `now`.
    pub fn face(&self, now: Time, prefix: &Name, face: FaceId) -> Option<&AsfFace> {
        self.faces.find(now, prefix, face).filter(|r| r.expires > now)
    }

    /// When `prefix`'s next probe is due, once its first Interest has come.
    pub fn probe_due(&self, prefix: &Name) -> Option<Time> {
        self.probe_due.get(prefix).copied()
    }

    /// Test hook: an RTT sample for `face` under `prefix`, as a Data would give.
    pub fn add_sample(&mut self, now: Time, prefix: &Name, face: FaceId, rtt: Time) {
        self.touch(now, prefix);
        let r = self.face_mut(now, prefix, face);
        r.rtt.add_sample(rtt);
        r.last_rtt = LastRtt::Measured(rtt);
        r.timeouts = 0;
    }

    /// Keeps `prefix`'s entry 5 minutes more (NFD extends it at every lookup), and forgets its
    /// probe schedule if the entry had expired (NFD's schedule lives in the entry).
    fn touch(&mut self, now: Time, prefix: &Name) {
        if !self.faces.is_live(now, prefix) {
            self.probe_due.remove(prefix);
        }
        self.faces.extend_lifetime(now, prefix, MEASUREMENTS_LIFETIME);
        self.cleanup_at.get_or_insert(now + MEASUREMENTS_LIFETIME);
    }

    /// The record of `face`, made afresh if absent or expired, kept 5 minutes more.
    fn face_mut(&mut self, now: Time, prefix: &Name, face: FaceId) -> &mut AsfFace {
        let r = self.faces.entry(now, prefix, face);
        if r.expires <= now {
            *r = AsfFace::default();
        }
        r.expires = now + MEASUREMENTS_LIFETIME;
        r
    }

    /// NFD's forwardInterest: the record of the face the Interest goes to, and its RTO timer if
    /// it has none armed.
    fn sent_to(&mut self, now: Time, prefix: &Name, face: FaceId, name: &Name) {
        let id = self.next_timer_id;
        let r = self.face_mut(now, prefix, face);
        if r.timer.is_some() {
            return;
        }
        let at = now + r.rtt.rto();
        r.timer = Some((id, name.clone()));
        self.next_timer_id += 1;
        self.timers.push(Reverse(RtoTimer { at, id, prefix: prefix.clone(), face }));
    }

    /// NFD's onTimeoutOrNack: a timeout counts, a Nack marks at once; the watched Interest's
    /// timer is disarmed when `name` is under its name.
    fn timed_out(&mut self, now: Time, prefix: &Name, face: FaceId, name: &Name, nack: bool) {
        let max = self.config.max_timeouts;
        if self.face(now, prefix, face).is_none() {
            return; // NFD: the record has expired since the timer was armed
        }
        let r = self.faces.entry(now, prefix, face);
        r.timeouts += 1;
        if r.timer.as_ref().is_some_and(|(_, watched)| watched.is_prefix_of(name)) {
            r.timer = None;
        }
        if r.timeouts < max && !nack {
            r.expires = now + MEASUREMENTS_LIFETIME;
        } else {
            r.last_rtt = LastRtt::TimedOut;
            r.timeouts = 0;
        }
    }

    /// The ranked candidates among `hops`: eligible, and without a pending out-record when
    /// `want_unused`; the best by NFD's forwarding order.
    fn best_face(
        &self,
        ctx: &StrategyCtx,
        in_face: FaceId,
        entry: &PitEntry,
        fib: &FibEntry,
        want_unused: bool,
    ) -> Option<(FaceId, Group)> {
        fib.nexthops
            .iter()
            .filter(|h| ctx.is_eligible(in_face, h, entry, want_unused))
            .map(|h| (forwarding_rank(self.face(ctx.now, &fib.prefix, h.face), h), h.face))
            .min()
            .map(|(rank, face)| (face, rank.0))
    }

    /// The face to probe besides `used`, if the prefix's probe is due (NFD's sendProbe).
    fn probe(
        &mut self,
        ctx: &StrategyCtx,
        in_face: FaceId,
        entry: &PitEntry,
        fib: &FibEntry,
        used: FaceId,
    ) -> Option<FaceId> {
        let now = ctx.now;
        let due = match self.probe_due.get(&fib.prefix) {
            Some(&due) => due,
            None => {
                let first = now + Time::from_millis(self.rng.random_range(0..=FIRST_PROBE_MAX_MS));
                self.probe_due.insert(fib.prefix.clone(), first);
                first
            }
        };
        if due > now {
            return None;
        }
        let others = fib.nexthops.iter().filter(|h| h.face != used && ctx.is_eligible(in_face, h, entry, false));
        let mut ranked: Vec<(_, FaceId)> =
            others.map(|h: &NextHop| (probing_rank(self.face(now, &fib.prefix, h.face), h), h.face)).collect();
        ranked.sort_unstable();
        let face = pick_probe(&ranked, self.rng.random::<f64>())?;
        self.probe_due.insert(fib.prefix.clone(), now + self.config.probing_interval);
        Some(face)
    }

    fn new_interest(
        &mut self,
        ctx: &StrategyCtx,
        in_face: FaceId,
        entry: &PitEntry,
        fib: &FibEntry,
    ) -> InterestDecision {
        let Some((face, group)) = self.best_face(ctx, in_face, entry, fib, false) else {
            self.reason = "new Interest: no eligible next hop";
            return InterestDecision::Reject(NackReason::NoRoute);
        };
        self.touch(ctx.now, &fib.prefix);
        self.sent_to(ctx.now, &fib.prefix, face, entry.name());
        let probe = self.probe(ctx, in_face, entry, fib, face);
        self.reason = rank::reason(group, probe.is_some());
        match probe {
            Some(probe) => {
                self.sent_to(ctx.now, &fib.prefix, probe, entry.name());
                InterestDecision::Probe { face, probe }
            }
            None => InterestDecision::Forward(Faces::from_slice(&[face])),
        }
    }

    /// NFD's per-upstream suppression on the entry's interval: too soon after the last send to
    /// `face` means no.
    fn retx_allowed(now: Time, entry: &mut PitEntry, face: FaceId) -> bool {
        let Some(out) = entry.out_record(face) else { return true };
        let last = out.last_sent;
        if entry.suppression_interval == Time::ZERO {
            entry.suppression_interval = RETX_INITIAL;
        }
        if now.saturating_sub(last) < entry.suppression_interval {
            return false;
        }
        entry.suppression_interval = (entry.suppression_interval * 2).min(RETX_MAX);
        true
    }

    fn retransmission(
        &mut self,
        ctx: &StrategyCtx,
        in_face: FaceId,
        entry: &mut PitEntry,
        fib: &FibEntry,
    ) -> InterestDecision {
        let now = ctx.now;
        if let Some((face, _)) = self.best_face(ctx, in_face, entry, fib, true) {
            if !Self::retx_allowed(now, entry, face) {
                self.reason = "retransmission: best unused next hop, within the suppression interval";
                return InterestDecision::Suppress;
            }
            self.touch(now, &fib.prefix);
            self.sent_to(now, &fib.prefix, face, entry.name());
            self.reason = "retransmission: best unused next hop";
            return InterestDecision::Forward(Faces::from_slice(&[face]));
        }
        let Some(face) = ctx.least_recently_used(in_face, &fib.nexthops, entry) else {
            self.reason = "retransmission: no eligible next hop";
            return InterestDecision::Suppress;
        };
        if !Self::retx_allowed(now, entry, face) {
            self.reason = "retransmission: next hop used longest ago, within the suppression interval";
            return InterestDecision::Suppress;
        }
        self.reason = "retransmission: next hop used longest ago";
        InterestDecision::Forward(Faces::from_slice(&[face]))
    }

    /// The FIB prefix an entry's measurements are under (NFD looks the namespace up by the
    /// entry's name).
    fn prefix_of<'f>(ctx: &'f StrategyCtx, entry: &PitEntry) -> Option<&'f Name> {
        ctx.fib.longest_prefix_match(entry.name()).map(|(_, f)| &f.prefix)
    }

    /// Frees the measurements expired at `now` and the probe schedules of their prefixes.
    fn cleanup(&mut self, now: Time) {
        self.faces.remove_expired(now);
        let faces = &self.faces;
        self.probe_due.retain(|p, _| faces.is_live(now, p));
        self.cleanup_at = self.faces.next_expiry();
    }
}

impl Strategy for AsfStrategy {
    fn name(&self) -> &'static str {
        "asf"
    }

    fn after_receive_interest(
        &mut self,
        ctx: &StrategyCtx,
        in_face: FaceId,
        entry: &mut PitEntry,
        fib: Option<&FibEntry>,
    ) -> InterestDecision {
        let retransmission = entry.has_pending_out_records(ctx.now);
        let Some(fib) = fib else {
            self.reason = "no FIB entry";
            return if retransmission {
                InterestDecision::Suppress
            } else {
                InterestDecision::Reject(NackReason::NoRoute)
            };
        };
        if retransmission {
            self.retransmission(ctx, in_face, entry, fib)
        } else {
            self.new_interest(ctx, in_face, entry, fib)
        }
    }

    fn before_satisfy_interest(
        &mut self,
        ctx: &StrategyCtx,
        entry: &PitEntry,
        in_face: FaceId,
        data: &Data,
        _lp: &LpHeader,
    ) {
        let now = ctx.now;
        let Some(prefix) = Self::prefix_of(ctx, entry) else { return };
        if self.face(now, prefix, in_face).is_none() {
            return;
        }
        let prefix = prefix.clone();
        self.touch(now, &prefix);
        let r = self.face_mut(now, &prefix, in_face);
        if let Some(out) = entry.out_record(in_face) {
            let rtt = now.saturating_sub(out.last_sent);
            r.rtt.add_sample(rtt);
            r.last_rtt = LastRtt::Measured(rtt);
        }
        if r.timer.as_ref().is_some_and(|(_, watched)| watched.is_prefix_of(&data.name)) {
            r.timer = None;
        }
        r.timeouts = 0;
    }

    fn after_receive_nack(
        &mut self,
        ctx: &StrategyCtx,
        in_face: FaceId,
        _nack: &Nack,
        _lp: &LpHeader,
        entry: &mut PitEntry,
        _fib: Option<&FibEntry>,
    ) -> NackDecision {
        if let Some(prefix) = Self::prefix_of(ctx, entry).cloned() {
            self.touch(ctx.now, &prefix);
            self.timed_out(ctx.now, &prefix, in_face, entry.name(), true);
        }
        super::nack_when_all_upstreams_nacked(entry)
    }

    fn next_timer(&self) -> Option<Time> {
        let rto = self.timers.peek().map(|t| t.0.at);
        match (rto, self.cleanup_at) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    fn on_timer(&mut self, ctx: &StrategyCtx, _actions: &mut super::StrategyActions) {
        let now = ctx.now;
        while self.timers.peek().is_some_and(|t| t.0.at <= now) {
            let Some(Reverse(t)) = self.timers.pop() else { break };
            // Live only while the face still watches with this timer (not disarmed, not expired).
            let watched = self
                .face(now, &t.prefix, t.face)
                .and_then(|r| r.timer.as_ref())
                .filter(|(id, _)| *id == t.id)
                .map(|(_, name)| name.clone());
            if let Some(name) = watched {
                self.touch(now, &t.prefix);
                self.timed_out(now, &t.prefix, t.face, &name, false);
            }
        }
        if self.cleanup_at.is_some_and(|at| at <= now) {
            self.cleanup(now);
        }
    }

    fn decision_reason(&self) -> Cow<'static, str> {
        Cow::Borrowed(self.reason)
    }
}

#[cfg(test)]
#[path = "asf_tests.rs"]
mod tests;
