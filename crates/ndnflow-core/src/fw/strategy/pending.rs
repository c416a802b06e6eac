//! Per-face pending-Interest counting shared by the pending-Interest strategies (pi, rfa, drf), and
//! the per-entry bookkeeping (which prefix, which faces) that fpf and paf reuse.
//!
//! The count of a face is the number of PIT entries the strategy forwarded to that face and that
//! have not been answered there yet. It is kept per FIB prefix and face in `Measurements`:
//! +1 when the strategy forwards an entry on a face (once per entry and face, however often the
//! entry is retransmitted there), -1 when Data satisfies the entry (for every face it was counted
//! on: the entry is gone, so a later copy of the Data from another face is unsolicited), when a
//! Nack comes back from that face, when the entry expires (every face it was counted on), and when
//! the entry is forwarded again after the out-record of that face has expired (the upstream timed
//! out; the retransmission is counted afresh where it goes).
//!
//! Along with the count, each record keeps an exponentially weighted moving average of it, updated
//! at every change (RFA's "avgPI"), with gain `EWMA_GAIN`.

use std::borrow::Cow;

use super::why;
use super::{Faces, InterestDecision, NackDecision, RetxDecision, RetxSuppression, Strategy, StrategyCtx};
use crate::name::NameMap;
use crate::packet::{Data, LpHeader, Nack, NackReason};
use crate::table::{FaceId, FibEntry, Measurements, NextHop, PitEntry};
use crate::{Name, Time};

/// Gain of the moving average of the pending count: avg <- (1 - g) avg + g * pending.
///
/// Carofiglio et al. (ICNP 2013) do not fix a value in the text we have (PCON §4.4 only says
/// "exponential moving average"); we take 1/8, the gain RFC 6298 uses for SRTT, which averages
/// over roughly the last eight changes.
pub const EWMA_GAIN: f64 = 1.0 / 8.0;

#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FacePending {
    /// Entries forwarded on this face and not yet answered.
    pub pending: u32,
    /// Moving average of `pending`, updated at every change.
    pub avg: f64,
}

impl FacePending {
    fn set(&mut self, pending: u32) {
        self.pending = pending;
        self.avg = (1.0 - EWMA_GAIN) * self.avg + EWMA_GAIN * pending as f64;
    }
}

/// Where an entry was counted: its FIB prefix and the faces.
#[derive(Debug)]
struct Counted {
    prefix: Name,
    faces: Faces,
}

#[derive(Debug, Default)]
pub struct PendingTracker {
    records: Measurements<FacePending>,
    /// Keyed by the PIT entry's name. Two entries with the same name (different selectors) share
    /// one set; a face is counted at most once for both, so counts never go negative nor leak.
    entries: NameMap<Name, Counted>,
}

impl PendingTracker {
    pub fn pending(&self, prefix: &Name, face: FaceId) -> u32 {
        self.records.get(prefix, face).map_or(0, |r| r.pending)
    }

    pub fn avg(&self, prefix: &Name, face: FaceId) -> f64 {
        self.records.get(prefix, face).map_or(0.0, |r| r.avg)
    }

    pub fn record(&self, prefix: &Name, face: FaceId) -> FacePending {
        self.records.get(prefix, face).copied().unwrap_or_default()
    }

    /// The FIB prefix `entry` was counted under, while it is counted on some face.
    pub fn prefix_of(&self, entry: &PitEntry) -> Option<&Name> {
        self.entries.get(entry.name()).map(|c| &c.prefix)
    }

    /// The faces `entry` is counted on, in the order it was forwarded to them (empty when none).
    pub fn faces_of(&self, entry: &PitEntry) -> &[FaceId] {
        self.entries.get(entry.name()).map_or(&[], |c| c.faces.as_slice())
    }

    /// Counts `entry` as pending on `face` (no-op if it already is).
    pub fn forwarded(&mut self, prefix: &Name, entry: &PitEntry, face: FaceId) {
        let c = self
            .entries
            .entry(entry.name().clone())
            .or_insert_with(|| Counted { prefix: prefix.clone(), faces: Faces::new() });
        if c.faces.contains(&face) {
            return;
        }
        c.faces.push(face);
        let r = self.records.get_or_insert(&c.prefix, face);
        r.set(r.pending + 1);
    }

    /// `entry` is no longer pending on `face`.
    pub fn released(&mut self, entry: &PitEntry, face: FaceId) {
        let Some(c) = self.entries.get_mut(entry.name()) else {
            return;
        };
        let Some(pos) = c.faces.iter().position(|f| *f == face) else {
            return;
        };
        c.faces.remove(pos);
        let r = self.records.get_or_insert(&c.prefix, face);
        r.set(r.pending.saturating_sub(1));
        if c.faces.is_empty() {
            self.entries.remove(entry.name());
        }
    }

    /// `entry` is gone: release every face it was counted on.
    pub fn released_all(&mut self, entry: &PitEntry) {
        let Some(c) = self.entries.remove(entry.name()) else {
            return;
        };
        for face in c.faces {
            let r = self.records.get_or_insert(&c.prefix, face);
            r.set(r.pending.saturating_sub(1));
        }
    }

    /// Releases the faces whose out-record has expired, was Nacked, or was never created.
    pub fn release_stale(&mut self, now: Time, entry: &PitEntry) {
        let Some(c) = self.entries.get(entry.name()) else {
            return;
        };
        let stale: Faces = c
            .faces
            .iter()
            .copied()
            .filter(|f| entry.out_record(*f).is_none_or(|o| o.expiry <= now || o.nack.is_some()))
            .collect();
        for face in stale {
            self.released(entry, face);
        }
    }

    /// Test hook: sets the count of `face` under `prefix` (and its average to the same value).
    pub fn preset(&mut self, prefix: &Name, face: FaceId, pending: u32) {
        *self.records.get_or_insert(prefix, face) = FacePending { pending, avg: pending as f64 };
    }

    /// Test hook: sets the moving average only.
    pub fn preset_avg(&mut self, prefix: &Name, face: FaceId, avg: f64) {
        self.records.get_or_insert(prefix, face).avg = avg;
    }
}

/// Where a retransmission that NFD's suppression lets through may go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RetxPlacement {
    /// best-route's rule: an unused eligible next hop, else the eligible one used longest ago.
    PreferUnused,
    /// As a new Interest: any eligible next hop, the one it went to before included.
    AnyEligible,
}

/// What a pending-Interest strategy says of its own choice in the forwarding log
/// (`Strategy::decision_reason`): the rest of the reasons (suppression, no route, the
/// least-recently-used fallback) are the shared code's.
#[derive(Clone, Copy, Debug)]
pub struct ChoiceReasons {
    /// A new Interest sent to the next hop the strategy chose.
    pub new: &'static str,
    /// A retransmission sent to the next hop the strategy chose (among the unused ones under
    /// `RetxPlacement::PreferUnused`).
    pub retx: &'static str,
}

/// after-receive-Interest shared by the strategies that count pending Interests (pi, rfa, drf,
/// fpf, paf).
///
/// Retransmission suppression as best-route; a new Interest goes to `choose(eligible hops)`, or is
/// Nacked (NoRoute) when no next hop is eligible; a retransmission is placed by `placement`.
/// `choose` gets the hops in FIB order (cost, then face id) and never an empty slice. Returns the
/// decision and why it went so (`reasons` for the strategy's own choice).
#[allow(clippy::too_many_arguments)]
pub fn after_receive_interest(
    tracker: &mut PendingTracker,
    retx: &RetxSuppression,
    placement: RetxPlacement,
    reasons: ChoiceReasons,
    ctx: &StrategyCtx,
    in_face: FaceId,
    entry: &mut PitEntry,
    fib: Option<&FibEntry>,
    mut choose: impl FnMut(&PendingTracker, &Name, &[NextHop]) -> FaceId,
) -> (InterestDecision, &'static str) {
    let decision = retx.decide(ctx.now, entry);
    if decision == RetxDecision::Suppress {
        return (InterestDecision::Suppress, why::SUPPRESSED);
    }
    tracker.release_stale(ctx.now, entry);
    let new = decision == RetxDecision::New;
    let Some(fib) = fib else {
        return match new {
            true => (InterestDecision::Reject(NackReason::NoRoute), why::NEW_NO_FIB),
            false => (InterestDecision::Suppress, why::RETX_NO_FIB),
        };
    };
    let want_unused = !new && placement == RetxPlacement::PreferUnused;
    let hops: smallvec::SmallVec<[NextHop; 4]> =
        fib.nexthops.iter().filter(|h| ctx.is_eligible(in_face, h, entry, want_unused)).copied().collect();
    let (face, reason) = if !hops.is_empty() {
        (choose(tracker, &fib.prefix, &hops), if new { reasons.new } else { reasons.retx })
    } else if new {
        return (InterestDecision::Reject(NackReason::NoRoute), why::NEW_NONE_ELIGIBLE);
    } else {
        match ctx.least_recently_used(in_face, &fib.nexthops, entry) {
            Some(face) => (face, why::RETX_LEAST_RECENT),
            None => return (InterestDecision::Suppress, why::RETX_NONE_ELIGIBLE),
        }
    };
    tracker.forwarded(&fib.prefix, entry, face);
    (InterestDecision::Forward(Faces::from_slice(&[face])), reason)
}

/// How a pending-Interest strategy picks one of the eligible next hops (FIB order, never empty).
pub trait NextHopChoice {
    /// The strategy's name, e.g. "pi".
    const NAME: &'static str;
    /// What the forwarding log says of its choice.
    const REASONS: ChoiceReasons;
    fn choose(&mut self, pending: &PendingTracker, prefix: &Name, hops: &[NextHop]) -> FaceId;
}

/// The strategies that steer by pending Interests per face (pi, rfa, drf): they share the
/// counting, the retransmission handling and the Nack rule, and differ only in `C`'s choice.
pub struct PendingStrategy<C> {
    retx: RetxSuppression,
    pending: PendingTracker,
    choice: C,
    /// Why the last decision went as it did (`Strategy::decision_reason`).
    reason: &'static str,
}

impl<C: NextHopChoice> PendingStrategy<C> {
    pub fn with_choice(choice: C) -> Self {
        PendingStrategy { retx: RetxSuppression::default(), pending: PendingTracker::default(), choice, reason: "" }
    }

    pub fn pending(&self) -> &PendingTracker {
        &self.pending
    }

    pub fn pending_mut(&mut self) -> &mut PendingTracker {
        &mut self.pending
    }

    pub fn choice(&self) -> &C {
        &self.choice
    }
}

impl<C: NextHopChoice + Send> Strategy for PendingStrategy<C> {
    fn name(&self) -> &'static str {
        C::NAME
    }

    fn after_receive_interest(
        &mut self,
        ctx: &StrategyCtx,
        in_face: FaceId,
        entry: &mut PitEntry,
        fib: Option<&FibEntry>,
    ) -> InterestDecision {
        let choice = &mut self.choice;
        let (tracker, placement) = (&mut self.pending, RetxPlacement::PreferUnused);
        let (decision, reason) =
            after_receive_interest(tracker, &self.retx, placement, C::REASONS, ctx, in_face, entry, fib, |t, p, h| {
                choice.choose(t, p, h)
            });
        self.reason = reason;
        decision
    }

    fn decision_reason(&self) -> Cow<'static, str> {
        Cow::Borrowed(self.reason)
    }

    fn before_satisfy_interest(
        &mut self,
        _ctx: &StrategyCtx,
        entry: &PitEntry,
        _in_face: FaceId,
        _data: &Data,
        _lp: &LpHeader,
    ) {
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
        self.pending.released(entry, in_face);
        super::nack_when_all_upstreams_nacked(entry)
    }

    fn on_interest_expired(&mut self, _ctx: &StrategyCtx, entry: &PitEntry) {
        self.pending.released_all(entry);
    }
}

#[cfg(test)]
pub(crate) mod test_util {
    //! A hand-built context: faces 0 (downstream) and 1..=n (upstreams), all Link and up.
    use std::sync::Arc;

    use crate::fw::face::{FaceInfo, FaceKind};
    use crate::fw::strategy::{InterestDecision, Strategy, StrategyCtx};
    use crate::packet::{Interest, NO_PIT_HINT};
    use crate::table::{FaceId, FibEntry, NextHop, PitEntry};
    use crate::{Name, Time};

    pub fn faces(n: usize) -> Vec<FaceInfo> {
        (0..=n).map(|_| FaceInfo::new(FaceKind::Link)).collect()
    }

    /// /p via the given (face, cost) pairs, sorted as the FIB sorts them.
    pub fn fib(hops: &[(u32, u64)]) -> FibEntry {
        let mut nexthops: smallvec::SmallVec<[NextHop; 4]> =
            hops.iter().map(|&(f, c)| NextHop { face: FaceId(f), cost: c }).collect();
        nexthops.sort_by_key(|h| (h.cost, h.face));
        FibEntry { prefix: Name::parse("/p").unwrap(), nexthops }
    }

    /// A PIT entry for /p/seg=`seg` with an in-record from face 0.
    pub fn entry(now: Time, seg: u64) -> PitEntry {
        let name = Name::parse("/p").unwrap().append_segment(seg);
        let interest = Arc::new(Interest::new(name, seg as u32 + 1, Time::from_secs(1)));
        let mut e = PitEntry::new(&interest);
        e.expiry = now;
        e.insert_or_update_in_record(now, FaceId(0), &interest, false, NO_PIT_HINT);
        e
    }

    pub fn prefix() -> Name {
        Name::parse("/p").unwrap()
    }

    /// Forwards a new entry for segment `seg` with `s` at `ctx.now` and adds the out-record the
    /// forwarder would (lifetime 1 s).
    pub fn forward(s: &mut dyn Strategy, ctx: &StrategyCtx, fib: &FibEntry, seg: u64) -> (PitEntry, FaceId) {
        let mut e = entry(ctx.now, seg);
        let InterestDecision::Forward(f) = s.after_receive_interest(ctx, FaceId(0), &mut e, Some(fib)) else {
            panic!("not forwarded")
        };
        e.insert_or_update_out_record(ctx.now, f[0], seg as u32 + 1, Time::from_secs(1));
        (e, f[0])
    }
}

#[cfg(test)]
mod tests {
    use super::test_util::*;
    use super::*;
    use crate::fw::strategy::{PiStrategy, Strategy};
    use crate::packet::{Data, LpHeader, Nack, NO_PIT_HINT};

    #[test]
    fn counts_go_up_on_forward_and_down_on_data_nack_and_expiry() {
        let faces = faces(2);
        let ctx = StrategyCtx { now: Time::ZERO, faces: &faces, fib: &crate::table::Fib::new() };
        let fib = fib(&[(1, 10), (2, 10)]);
        let p = prefix();
        let mut s = PiStrategy::new();
        // PI alternates 1, 2, 1, 2 on equal costs: counts 1/0, 1/1, 2/1, 2/2.
        let (e0, f0) = forward(&mut s, &ctx, &fib, 0);
        let (e1, f1) = forward(&mut s, &ctx, &fib, 1);
        let (mut e2, f2) = forward(&mut s, &ctx, &fib, 2);
        let (e3, f3) = forward(&mut s, &ctx, &fib, 3);
        assert_eq!([f0, f1, f2, f3], [FaceId(1), FaceId(2), FaceId(1), FaceId(2)]);
        assert_eq!((s.pending().pending(&p, FaceId(1)), s.pending().pending(&p, FaceId(2))), (2, 2));

        // Data for e0 from face 1: 1/2.
        let data = Data::new(e0.name().clone(), bytes::Bytes::new());
        s.before_satisfy_interest(&ctx, &e0, FaceId(1), &data, &LpHeader::default());
        assert_eq!(s.pending().pending(&p, FaceId(1)), 1);
        // Nack for e1 from face 2: 1/1.
        let nack = Nack { reason: NackReason::Congestion, interest: e1.interest().clone() };
        let mut e1 = e1;
        e1.out_record_mut(FaceId(2)).unwrap().nack = Some(NackReason::Congestion);
        s.after_receive_nack(&ctx, FaceId(2), &nack, &LpHeader::default(), &mut e1, Some(&fib));
        assert_eq!(s.pending().pending(&p, FaceId(2)), 1);
        // A second Data for e0 (already released) changes nothing.
        s.before_satisfy_interest(&ctx, &e0, FaceId(1), &data, &LpHeader::default());
        assert_eq!(s.pending().pending(&p, FaceId(1)), 1);
        // e3 expires: 1/0.
        s.on_interest_expired(&ctx, &e3);
        assert_eq!(s.pending().pending(&p, FaceId(2)), 0);
        // e2 retransmitted after its out-record on face 1 expired (a new Interest for retransmission
        // suppression): released there (0/0), then counted where PI sends it, face 1 (tie, FIB
        // order): 1/0.
        let later = StrategyCtx { now: Time::from_millis(1500), faces: &faces, fib: &crate::table::Fib::new() };
        let i2 = e2.interest().clone();
        e2.insert_or_update_in_record(later.now, FaceId(0), &i2, false, NO_PIT_HINT);
        let d = s.after_receive_interest(&later, FaceId(0), &mut e2, Some(&fib));
        assert_eq!(d, InterestDecision::Forward(Faces::from_slice(&[FaceId(1)])));
        assert_eq!((s.pending().pending(&p, FaceId(1)), s.pending().pending(&p, FaceId(2))), (1, 0));
    }
}
