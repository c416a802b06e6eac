//! fpf: Fast Pipeline Filling (Detti, Pisa, Blefari Melazzi, INFOCOM WKSHPS 2015), as Thibaud et al.
//! ("An Analysis of NDN Congestion Control Challenges", §II-B) describe it:
//! "The purpose of this strategy is to use and fill all available paths as fast as possible. The
//! node measures the mean RTT for each of its interfaces and computes a capacity defined as follow:
//! C = rtt * rate + queue_length (1). This capacity represents the number of data the node can
//! handle from this interface. When an Interest needs to be forwarded, the node uses the interface
//! with the smallest delay among the interfaces not completely filled."
//!
//! Per FIB prefix and face:
//!
//! * **rtt**: the mean RTT the strategy measures itself, from the out-record's send time to the
//!   Data that satisfies the entry on that face; an exponentially weighted mean with RFC 6298's
//!   SRTT gain 1/8 (`RTT_GAIN`), the first sample taken as it is.
//! * **rate**: the face's link rate in Data packets per second: `FaceInfo::bandwidth_bps` (the
//!   direction that brings Data to this node) over 8 x the mean Data size seen on the face (same
//!   gain; NDN packet bytes, the 10-odd bytes of NDNLPv2 header left out).
//! * **queue_length**: the capacity of this node's own output queue on the face
//!   (`FaceInfo::queue_limit`) in whole Data packets: a packet limit as it is, a byte limit divided
//!   by the mean Data size and rounded down. The survey's §IV: all queues hold 120 x 1500 B, "21
//!   full data packets of 8400B"; "R1 computes a capacity of 74 Interests" with a PI of 50, and
//!   "without it [the queue part], the capacity is approximately 50"; "only the bottleneck queue
//!   along the path should be considered ... not queues of any other router. Otherwise, if the
//!   local queue is larger than the bottleneck one, the capacity will be oversized": the queue in
//!   (1) is the local one, 21 Data (74 ~ 53 + 21).
//! * **full**: the face's pending-Interest count (`pending`, as pi/rfa/drf count it) is at least C.
//!
//! Choice among the eligible next hops: the smallest rtt among those not full, ties in FIB order.
//! Our choices where the description is silent:
//!
//! * A face without an RTT sample yet (or without a Data size) has no capacity: it is never full,
//!   and it ranks after every measured face, unmeasured faces in FIB order. A new prefix therefore
//!   starts on the best route, and a second path is tried when the first fills.
//! * A face without link parameters (an application face, or a driver that set none) is never full.
//! * When every eligible face is full: the smallest rtt anyway (FIB order among unmeasured), so an
//!   overloaded FPF node behaves as best-route on its fastest face.
//!
//! * Retransmissions: NFD's suppression (as best-route); one that gets through is placed by the
//!   same rule as a new Interest, on any eligible face, the one it went to before included. The
//!   survey's rule covers every Interest "that needs to be forwarded"; best-route's preference for
//!   an unused next hop would send every retransmission to the second path, measure it, and make
//!   the node switch to it whenever its (empty-queue) delay is the smaller, where the survey
//!   reports that its FPF never used the second path in Sce1.
//!
//! Nacks and the pending counts are the pending-Interest strategies' (see `pending`).

use std::borrow::Cow;

use super::pending::{self, ChoiceReasons, PendingTracker, RetxPlacement};
use super::{InterestDecision, NackDecision, RetxSuppression, Strategy, StrategyCtx};
use crate::fw::face::FaceInfo;
use crate::link::Limit;
use crate::packet::{Data, LpHeader, Nack};
use crate::table::{FaceId, FibEntry, Measurements, NextHop, PitEntry};
use crate::Name;

/// Gain of the moving means (RTT, Data size): RFC 6298's SRTT gain.
pub const RTT_GAIN: f64 = 1.0 / 8.0;

/// What FPF measures per prefix and face.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FaceEstimate {
    /// Mean RTT in seconds, `None` before the first sample.
    pub rtt_s: Option<f64>,
    /// Mean Data size in bytes, `None` before the first Data.
    pub data_bytes: Option<f64>,
}

fn ewma(old: Option<f64>, sample: f64) -> f64 {
    match old {
        None => sample,
        Some(v) => v + RTT_GAIN * (sample - v),
    }
}

/// A queue limit in whole Data packets of `data_bytes`.
pub fn queue_in_data_packets(limit: Limit, data_bytes: f64) -> f64 {
    match limit {
        Limit::Packets(n) => n as f64,
        Limit::Bytes(b) => (b as f64 / data_bytes).floor(),
    }
}

/// Formula (1): `C = rtt x rate + queue_length`, in Data packets (= Interests), with `rate` the
/// link's `bandwidth_bps` in Data packets of `data_bytes` per second.
pub fn capacity(rtt_s: f64, bandwidth_bps: u64, queue: Limit, data_bytes: f64) -> f64 {
    let rate = bandwidth_bps as f64 / (8.0 * data_bytes);
    rtt_s * rate + queue_in_data_packets(queue, data_bytes)
}

/// The capacity of a face from what FPF measured and what the driver told; `None`: unknown (the
/// face never counts as full).
pub fn face_capacity(est: &FaceEstimate, info: Option<&FaceInfo>) -> Option<f64> {
    let info = info?;
    let (rtt, size) = (est.rtt_s?, est.data_bytes?);
    Some(capacity(rtt, info.bandwidth_bps?, info.queue_limit?, size))
}

/// FPF's choice among `hops` (eligible, FIB order, non-empty).
fn choose(
    estimates: &Measurements<FaceEstimate>,
    faces: &[FaceInfo],
    t: &PendingTracker,
    prefix: &Name,
    hops: &[NextHop],
) -> FaceId {
    // Rank: (full, rtt or +inf); min_by keeps the first of equals, i.e. FIB order.
    let key = |h: &NextHop| {
        let est = estimates.get(prefix, h.face).copied().unwrap_or_default();
        let full =
            face_capacity(&est, faces.get(h.face.index())).is_some_and(|c| t.pending(prefix, h.face) as f64 >= c);
        (full, est.rtt_s.unwrap_or(f64::INFINITY))
    };
    let keyed: smallvec::SmallVec<[(FaceId, (bool, f64)); 4]> = hops.iter().map(|h| (h.face, key(h))).collect();
    let best = |only_open: bool| {
        keyed
            .iter()
            .filter(|(_, (full, _))| !(only_open && *full))
            .min_by(|a, b| a.1 .1.total_cmp(&b.1 .1))
            .map(|(f, _)| *f)
    };
    best(true).or_else(|| best(false)).unwrap_or(hops[0].face)
}

/// The FPF strategy: pending counts, per-face RTT and Data size, and formula (1).
#[derive(Default)]
pub struct FpfStrategy {
    retx: RetxSuppression,
    pending: PendingTracker,
    estimates: Measurements<FaceEstimate>,
    /// Why the last decision went as it did (`Strategy::decision_reason`).
    reason: &'static str,
}

/// What the forwarding log says of FPF's choice.
const REASONS: ChoiceReasons = ChoiceReasons {
    new: "new Interest: smallest RTT among next hops not full, formula (1)",
    retx: "retransmission: smallest RTT among next hops not full, formula (1)",
};

impl FpfStrategy {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn pending(&self) -> &PendingTracker {
        &self.pending
    }

    pub fn pending_mut(&mut self) -> &mut PendingTracker {
        &mut self.pending
    }

    /// What FPF has measured on `face` for `prefix`.
    pub fn estimate(&self, prefix: &Name, face: FaceId) -> FaceEstimate {
        self.estimates.get(prefix, face).copied().unwrap_or_default()
    }

    /// Test hook: sets the measured RTT (seconds) and Data size (bytes) of `face` under `prefix`.
    pub fn preset(&mut self, prefix: &Name, face: FaceId, rtt_s: f64, data_bytes: f64) {
        *self.estimates.get_or_insert(prefix, face) = FaceEstimate { rtt_s: Some(rtt_s), data_bytes: Some(data_bytes) };
    }

    /// The capacity FPF computes for `face` under `prefix` now, if it can.
    pub fn capacity(&self, ctx: &StrategyCtx, prefix: &Name, face: FaceId) -> Option<f64> {
        face_capacity(&self.estimate(prefix, face), ctx.faces.get(face.index()))
    }
}

impl Strategy for FpfStrategy {
    fn name(&self) -> &'static str {
        "fpf"
    }

    fn after_receive_interest(
        &mut self,
        ctx: &StrategyCtx,
        in_face: FaceId,
        entry: &mut PitEntry,
        fib: Option<&FibEntry>,
    ) -> InterestDecision {
        // As the pending-Interest strategies, except that a retransmission is placed by formula (1)
        // like any other Interest ("when an Interest needs to be forwarded"), not sent preferably
        // to an unused next hop as best-route does.
        let (estimates, faces) = (&self.estimates, ctx.faces);
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
            |t, p, h| choose(estimates, faces, t, p, h),
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
        data: &Data,
        _lp: &LpHeader,
    ) {
        // The RTT of the face the Data came from, measured from when this node last sent the
        // Interest there (a retransmission restarts it), under the FIB prefix it was counted on.
        if let (Some(out), Some(prefix)) = (entry.out_record(in_face), self.pending.prefix_of(entry)) {
            let est = self.estimates.get_or_insert(prefix, in_face);
            let rtt = (ctx.now.saturating_sub(out.last_sent)).as_secs_f64();
            est.rtt_s = Some(ewma(est.rtt_s, rtt));
            est.data_bytes = Some(ewma(est.data_bytes, data.wire_size() as f64));
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
        self.pending.released(entry, in_face);
        super::nack_when_all_upstreams_nacked(entry)
    }

    fn on_interest_expired(&mut self, _ctx: &StrategyCtx, entry: &PitEntry) {
        self.pending.released_all(entry);
    }
}

#[cfg(test)]
#[path = "fpf_tests.rs"]
mod tests;
