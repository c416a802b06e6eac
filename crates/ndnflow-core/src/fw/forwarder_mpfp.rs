//! PTP's router side, MPFP (Ye et al., "PTP: Path-specified Transport Protocol", §3, §4-A, §4-B):
//! path probing, tag switching and the Forwarding Acceleration Base, on a forwarder whose
//! `ForwarderConfig::ptp` is set.
//!
//! * A probing Interest (link-header flag `PTP_PROBE`, no tag) skips the Content Store ("the
//!   probing Interest packet is always forwarded to a producer, while the cache is ignored") and
//!   goes to the next hops of its FIB entry in turn, the paper's equal-weight strategy.
//! * The producer answers it with a probing Data (`PTP_PROBE` again). Each forwarder pushes onto
//!   the Data's tag stack the face the Data arrived on (§4-A, Figure 5 (a)), so the consumer gets
//!   the path as a stack whose top is its own node's face.
//! * A tagged Interest pops the top of its stack and goes out of that face with the rest of the
//!   stack (Figure 5 (b)), if the face is a usable next hop of the Interest's FIB entry, found
//!   through the FAB (§4-B). Otherwise the tag is invalid ("the next-hop device is disconnected or
//!   the connected producer no longer provides content") and the Interest falls back to
//!   name-based forwarding by the strategy, untagged (§2-D: "the routers' adaptive forwarding is
//!   also enabled when the specified transmission path of an Interest packet is invalid").
//! * A Data answered from this node's Content Store carries the one-bit `FROM_CACHE` flag (§5-D-1:
//!   "the router labels the Data packet using a 1-bit flag"), kept on the way down.
//!
//! Our choice where the paper is silent: a tagged Interest that finds its name already pending
//! from another downstream is aggregated as any other (PIT aggregation is NDN's, and the paper
//! counts it among the "intermediate" sources, §5-A); a retransmission from the same downstream
//! goes out again after NFD's retransmission suppression, on its tag.

use rustc_hash::FxHashMap;

use super::{Forwarder, Outbox};
use crate::fw::strategy::{RetxDecision, RetxSuppression};
use crate::packet::lp::flags;
use crate::packet::{Interest, LpHeader};
use crate::table::{Fab, FaceId, Fib, PitId};
use crate::{Name, Time};

/// What MPFP did, for the node summary.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MpfpCounters {
    /// Probing Interests sent on by the equal-weight rule.
    pub probes: u64,
    /// Tagged Interests sent out of the face their tag named.
    pub tag_switched: u64,
    /// Tagged Interests whose tag named no usable next hop: forwarded by name instead.
    pub tag_fallbacks: u64,
}

/// MPFP's per-forwarder state.
pub struct Mpfp {
    fab: Fab,
    /// Equal-weight probing: the next next-hop index per FIB entry.
    probe_turn: FxHashMap<usize, usize>,
    retx: RetxSuppression,
    pub counters: MpfpCounters,
}

/// The PTP fields of an arriving Interest.
pub(super) struct PtpInterest {
    pub probe: bool,
    /// The stack as it arrived (last = top).
    pub tags: smallvec::SmallVec<[u64; 4]>,
}

impl PtpInterest {
    pub fn from_lp(lp: &LpHeader) -> PtpInterest {
        PtpInterest {
            probe: lp.flags & flags::PTP_PROBE != 0,
            tags: lp.ext.as_ref().map(|e| e.tags.clone()).unwrap_or_default(),
        }
    }

    pub fn is_plain(&self) -> bool {
        !self.probe && self.tags.is_empty()
    }
}

impl Mpfp {
    pub fn new(fab_capacity: usize) -> Mpfp {
        Mpfp {
            fab: Fab::new(fab_capacity),
            probe_turn: FxHashMap::default(),
            retx: RetxSuppression::default(),
            counters: MpfpCounters::default(),
        }
    }

    pub fn fab(&self) -> &Fab {
        &self.fab
    }

    /// The next hop of a probing Interest: the FIB entry's usable next hops taken in turn.
    fn probe_face(&mut self, name: &Name, fib: &Fib, usable: impl Fn(FaceId) -> bool) -> Option<FaceId> {
        let index = self.fab.lookup(name, fib)?;
        let hops = &fib.entry(index).nexthops;
        let turn = self.probe_turn.entry(index).or_insert(0);
        for k in 0..hops.len() {
            let hop = hops[(*turn + k) % hops.len()];
            if usable(hop.face) {
                *turn = (*turn + k + 1) % hops.len();
                return Some(hop.face);
            }
        }
        None
    }

    /// The face a tag names, if it is a usable next hop of the name's FIB entry (§4-B).
    fn tagged_face(&mut self, name: &Name, tag: u64, fib: &Fib, usable: impl Fn(FaceId) -> bool) -> Option<FaceId> {
        let face = FaceId(u32::try_from(tag).ok()?);
        let index = self.fab.lookup(name, fib)?;
        fib.entry(index).nexthops.iter().any(|h| h.face == face).then_some(face).filter(|&f| usable(f))
    }
}

impl Forwarder {
    /// Forwards a probing or tagged Interest whose CS lookup missed (its in-record is in place).
    /// Returns false when it is for the strategy after all (a tag that names no usable next hop).
    pub(super) fn mpfp_forward(
        &mut self,
        now: Time,
        in_face: FaceId,
        id: PitId,
        interest: &Interest,
        ptp: &PtpInterest,
        out: &mut Outbox,
    ) -> bool {
        let Some(mpfp) = self.mpfp.as_mut() else { return false };
        let faces = &self.faces;
        let usable = |f: FaceId| f != in_face && faces.get(f.index()).is_some_and(|i| i.up);
        let mut lp = LpHeader::default();
        let face = if ptp.probe {
            lp.flags = flags::PTP_PROBE;
            mpfp.probe_face(&interest.name, &self.fib, usable)
        } else {
            let mut rest = ptp.tags.clone();
            let top = rest.pop().unwrap_or(u64::MAX);
            let face = mpfp.tagged_face(&interest.name, top, &self.fib, usable);
            if face.is_none() {
                mpfp.counters.tag_fallbacks += 1;
                return false;
            }
            if !rest.is_empty() {
                lp.ext_mut().tags = rest;
            }
            face
        };
        let Some(face) = face else {
            // A probe with nowhere to go: NFD's answer to an Interest without a route.
            self.counters.no_route += 1;
            self.reject_downstream(now, id, in_face, crate::packet::NackReason::NoRoute, out);
            return true;
        };
        let Some(entry) = self.pit.get_mut(id) else { return true };
        if mpfp.retx.decide(now, entry) == RetxDecision::Suppress {
            self.counters.aggregated += 1;
            return true;
        }
        if ptp.probe {
            mpfp.counters.probes += 1;
        } else {
            mpfp.counters.tag_switched += 1;
        }
        self.send_interest_lp(now, id, face, lp, out);
        true
    }
}

/// The PTP fields a Data takes downstream from this forwarder: the from-cache flag as it came,
/// and for a probing Data its tag stack with `in_face` pushed on top.
pub(super) fn carry_ptp_fields(lp_in: &LpHeader, in_face: FaceId, lp_out: &mut LpHeader) {
    lp_out.flags |= lp_in.flags & flags::FROM_CACHE;
    if lp_in.flags & flags::PTP_PROBE != 0 {
        lp_out.flags |= flags::PTP_PROBE;
        let mut tags = lp_in.ext.as_ref().map(|e| e.tags.clone()).unwrap_or_default();
        // Every face counts, the producer's application face too: the tagged Interest pops it at
        // the producer's node and is handed to the producer through it.
        tags.push(u64::from(in_face.0));
        lp_out.ext_mut().tags = tags;
    }
}
