//! Forwarding strategies in the shape of NFD's `fw::Strategy` triggers (NFD daemon/fw/strategy.hpp:
//! afterReceiveInterest, afterContentStoreHit, beforeSatisfyInterest, afterReceiveData,
//! afterReceiveNack, and the timers strategies arm through the scheduler).
//!
//! A strategy does not send packets itself: each trigger returns a decision that the forwarder's
//! pipelines carry out (outgoing Interest, Nack downstream, nothing), and a timer pushes
//! `StrategyAction`s. Strategies keep their own state per prefix and face in `table::Measurements`,
//! and per PIT entry in `PitEntry`. The trait speaks of packets, faces and timers only: what a
//! protocol adds to routers (PCON's highly congested state, PTP's MPFP) lives in the strategy's
//! own module or in a `fw::ext` extension.

pub mod asf;
pub mod best_route;
pub mod drf;
pub mod fpf;
pub mod multicast;
pub mod paf;
pub mod pcon;
pub mod pending;
pub mod pi;
pub mod random;
pub mod rfa;
pub mod self_learning;

use std::borrow::Cow;
use std::sync::Arc;

use smallvec::SmallVec;

pub use asf::{AsfConfig, AsfStrategy};
pub use best_route::BestRouteStrategy;
pub use drf::DrfStrategy;
pub use fpf::FpfStrategy;
pub use multicast::MulticastStrategy;
pub use paf::{PafConfig, PafStrategy};
pub use pcon::{PconConfig, PconStrategy};
pub use pi::PiStrategy;
pub use random::RandomStrategy;
pub use rfa::RfaStrategy;
pub use self_learning::SelfLearningStrategy;

use super::face::{FaceInfo, FaceKind};
use super::log::Shares;
use crate::packet::lp::flags;
use crate::packet::{Data, Interest, LpHeader, Nack, NackReason, PrefixAnnouncement};
use crate::table::{FaceId, Fib, FibEntry, NextHop, PitEntry};
use crate::{Name, Time};

/// What a strategy sees of the forwarder when a trigger fires.
pub struct StrategyCtx<'a> {
    pub now: Time,
    pub faces: &'a [FaceInfo],
    /// For triggers that get no FIB entry (before-satisfy, expiry) and need one.
    pub fib: &'a Fib,
}

impl StrategyCtx<'_> {
    /// NFD's `isNextHopEligible`: not back to the incoming point-to-point face, not a face that is
    /// down, and, when `want_unused`, not a face that still has an unexpired out-record.
    pub fn is_eligible(&self, in_face: FaceId, hop: &NextHop, entry: &PitEntry, want_unused: bool) -> bool {
        let Some(info) = self.faces.get(hop.face.index()) else { return false };
        if !info.up || hop.face == in_face {
            return false;
        }
        if want_unused {
            if let Some(out) = entry.out_record(hop.face) {
                if out.expiry > self.now {
                    return false;
                }
            }
        }
        true
    }

    /// For a retransmission that found no unused next hop: the eligible one used longest ago
    /// (NFD best-route's fallback), or none.
    pub fn least_recently_used(&self, in_face: FaceId, hops: &[NextHop], entry: &PitEntry) -> Option<FaceId> {
        hops.iter()
            .filter(|h| self.is_eligible(in_face, h, entry, false))
            .min_by_key(|h| entry.out_record(h.face).map(|o| o.last_sent))
            .map(|h| h.face)
    }

    pub fn face_kind(&self, face: FaceId) -> Option<FaceKind> {
        self.faces.get(face.index()).map(|f| f.kind)
    }
}

pub type Faces = SmallVec<[FaceId; 2]>;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InterestDecision {
    /// Send the Interest to these upstream faces.
    Forward(Faces),
    /// Nack the downstream that sent this Interest and drop its in-record.
    Reject(NackReason),
    /// Do nothing: the Interest is aggregated or suppressed.
    Suppress,
    /// Send the Interest to `face`, and a copy with a fresh nonce to `probe` (NFD's ASF probe,
    /// `refreshNonce`): with a nonce of its own, neither copy is taken for a loop where the two
    /// paths meet upstream.
    Probe { face: FaceId, probe: FaceId },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NackDecision {
    /// Try these other upstreams.
    Forward(Faces),
    /// Nack every downstream with this reason and drop the entry.
    NackDownstream(NackReason),
    /// Other upstreams are still pending.
    Wait,
}

/// What a strategy lets a Data take downstream (NFD's afterReceiveData decides what is sent where;
/// here the pipeline sends to every downstream and the strategy decides the Data's signals).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DataDecision {
    /// Link-header flags set on every copy sent downstream, beside the congestion mark the
    /// pipeline carries (`packet::lp::flags`).
    pub flags: u64,
}

/// What a strategy's timer asks of the forwarder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StrategyAction {
    /// Send the pending Interest to `face` through the outgoing Interest pipeline (NFD
    /// `Strategy::sendInterest` on a PIT entry): found by name and selectors, dropped when no
    /// unsatisfied entry is pending, as a strategy may only forward what the PIT holds.
    SendInterest { interest: Arc<Interest>, face: FaceId },
}

/// Actions pushed by `Strategy::on_timer`.
pub type StrategyActions = Vec<StrategyAction>;

/// `Send`: a simulation is a value that moves between threads (the Python front runs one per
/// thread, outside the GIL), so nothing a strategy holds may be tied to one thread.
pub trait Strategy: Send {
    /// NFD-style strategy name, e.g. "best-route".
    fn name(&self) -> &'static str;

    /// after-receive-Interest: a new or retransmitted Interest whose CS lookup missed.
    fn after_receive_interest(
        &mut self,
        ctx: &StrategyCtx,
        in_face: FaceId,
        entry: &mut PitEntry,
        fib: Option<&FibEntry>,
    ) -> InterestDecision;

    /// after-receive-Interest for a strategy that reads or writes link-header fields
    /// (self-learning's NonDiscovery): `lp_in` is the Interest's header as it arrived, `lp_out` the
    /// one every forwarded copy will carry, to which the strategy may add fields. What the
    /// forwarder calls; the default ignores both headers, so a strategy that needs neither
    /// implements `after_receive_interest` alone.
    fn after_receive_interest_lp(
        &mut self,
        ctx: &StrategyCtx,
        in_face: FaceId,
        (_lp_in, _lp_out): (&LpHeader, &mut LpHeader),
        entry: &mut PitEntry,
        fib: Option<&FibEntry>,
    ) -> InterestDecision {
        self.after_receive_interest(ctx, in_face, entry, fib)
    }

    /// before-satisfy-Interest: Data from `in_face` is about to satisfy `entry`.
    fn before_satisfy_interest(
        &mut self,
        _ctx: &StrategyCtx,
        _entry: &PitEntry,
        _in_face: FaceId,
        _data: &Data,
        _lp: &LpHeader,
    ) {
    }

    /// after-receive-Nack: the out-record of `in_face` has been marked Nacked already. `lp` is the
    /// Nack's link header (its congestion mark: PCON §3.5).
    fn after_receive_nack(
        &mut self,
        _ctx: &StrategyCtx,
        _in_face: FaceId,
        _nack: &Nack,
        _lp: &LpHeader,
        entry: &mut PitEntry,
        _fib: Option<&FibEntry>,
    ) -> NackDecision {
        nack_when_all_upstreams_nacked(entry)
    }

    /// after-receive-Data: Data from `in_face` satisfies `entry` (after `before_satisfy_interest`
    /// saw it) and goes to the entry's downstreams. `lp` is its link header as it arrived. The
    /// default passes on the path signals it came with (`flags::PATH_SIGNALS`): a strategy that
    /// does not steer around a path leaves its downstreams to react.
    fn after_receive_data(
        &mut self,
        _ctx: &StrategyCtx,
        _entry: &PitEntry,
        _in_face: FaceId,
        lp: &LpHeader,
    ) -> DataDecision {
        DataDecision { flags: lp.flags & flags::PATH_SIGNALS }
    }

    /// after-receive-Data for a strategy that puts a prefix announcement on the Data it sends
    /// downstream (self-learning): `announcement` starts `None`, and what it holds afterwards goes
    /// on every copy (the first strategy to set one wins when a Data satisfies several entries).
    /// What the forwarder calls; the default sets nothing.
    fn after_receive_data_lp(
        &mut self,
        ctx: &StrategyCtx,
        entry: &PitEntry,
        in_face: FaceId,
        lp: &LpHeader,
        _announcement: &mut Option<PrefixAnnouncement>,
    ) -> DataDecision {
        self.after_receive_data(ctx, entry, in_face, lp)
    }

    /// after-Content-Store-hit: `data` from the Content Store answers the Interest of `entry`
    /// from `in_face`; the pipeline sends it back there.
    fn after_content_store_hit(&mut self, _ctx: &StrategyCtx, _entry: &PitEntry, _in_face: FaceId, _data: &Data) {}

    /// The entry expired unsatisfied.
    fn on_interest_expired(&mut self, _ctx: &StrategyCtx, _entry: &PitEntry) {}

    /// When the strategy's earliest timer is due, if it has one: the forwarder's `poll_timeout`
    /// answers no later than that, and its `handle_timeout` then calls `on_timer`. Asked whenever
    /// the driver polls (the engine does after every frame a node handles), so a trigger arms a
    /// timer by changing what this returns.
    fn next_timer(&self) -> Option<Time> {
        None
    }

    /// Fires the timers due at `ctx.now` (an early call finds none due and does nothing); what
    /// they ask of the forwarder goes into `actions`.
    fn on_timer(&mut self, _ctx: &StrategyCtx, _actions: &mut StrategyActions) {}

    /// Why the last `after_receive_interest` decided as it did, for the forwarding log (as NFD's
    /// strategies say at DEBUG); "" when the strategy does not say. Read only with a log on; the
    /// built-in strategies keep a static string per decision (no allocation), a Python strategy
    /// the text its decision carried.
    fn decision_reason(&self) -> Cow<'static, str> {
        Cow::Borrowed("")
    }

    /// The forwarding percentages of the FIB prefix `prefix` (fractions of 1), for a strategy that
    /// splits traffic (PCON §3.4); empty for one that does not. Read by the forwarding log only,
    /// after a trigger that may have moved them. `&mut`: a strategy written in Python is called,
    /// and a failing call is recorded.
    fn forwarding_shares(&mut self, _ctx: &StrategyCtx, _prefix: &Name) -> Shares {
        Shares::new()
    }
}

/// Reasons the strategies share in the forwarding log (`Strategy::decision_reason`).
pub(crate) mod why {
    pub const SUPPRESSED: &str = "retransmission within the suppression interval";
    pub const NEW_NO_FIB: &str = "new Interest: no FIB entry";
    pub const RETX_NO_FIB: &str = "retransmission: no FIB entry";
    pub const NEW_NONE_ELIGIBLE: &str = "new Interest: no eligible next hop";
    pub const RETX_LEAST_RECENT: &str = "retransmission: next hop used longest ago";
    pub const RETX_NONE_ELIGIBLE: &str = "retransmission: no eligible next hop";
}

/// NFD's severity order for choosing the Nack reason to pass downstream: Congestion is the least
/// severe, then Duplicate, then NoRoute; an unknown reason (None) counts as the most severe.
fn severity(reason: NackReason) -> u8 {
    match reason {
        NackReason::Congestion => 0,
        NackReason::Duplicate => 1,
        NackReason::NoRoute => 2,
        NackReason::None => 3,
    }
}

/// NFD `ProcessNackTraits::processNack`: wait while any upstream is still pending, then pass the
/// least severe reason downstream.
pub fn nack_when_all_upstreams_nacked(entry: &PitEntry) -> NackDecision {
    let mut least: Option<NackReason> = None;
    for out in &entry.out_records {
        match out.nack {
            None => return NackDecision::Wait,
            Some(r) => {
                if least.is_none_or(|l| severity(r) < severity(l)) {
                    least = Some(r);
                }
            }
        }
    }
    NackDecision::NackDownstream(least.unwrap_or(NackReason::NoRoute))
}

/// NFD's RetxSuppressionExponential (initial 10 ms, x2, at most 250 ms), decided per PIT entry.
#[derive(Clone, Copy, Debug)]
pub struct RetxSuppression {
    pub initial: Time,
    pub multiplier: u64,
    pub max: Time,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RetxDecision {
    /// No upstream pending: a new Interest.
    New,
    /// A retransmission after the suppression interval: forward it again.
    Forward,
    /// Too soon after the last forwarding: aggregate it.
    Suppress,
}

impl Default for RetxSuppression {
    fn default() -> Self {
        RetxSuppression { initial: Time::from_millis(10), multiplier: 2, max: Time::from_millis(250) }
    }
}

impl RetxSuppression {
    pub fn decide(&self, now: Time, entry: &mut PitEntry) -> RetxDecision {
        if !entry.has_pending_out_records(now) {
            return RetxDecision::New;
        }
        let last_out = entry.out_records.iter().map(|o| o.last_sent).max().unwrap_or(Time::ZERO);
        if entry.suppression_interval == Time::ZERO {
            entry.suppression_interval = self.initial;
        }
        if now - last_out < entry.suppression_interval {
            return RetxDecision::Suppress;
        }
        entry.suppression_interval = (entry.suppression_interval * self.multiplier).min(self.max);
        RetxDecision::Forward
    }
}

#[cfg(test)]
mod reasons_tests;
