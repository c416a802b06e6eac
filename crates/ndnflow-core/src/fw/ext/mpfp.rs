//! PTP's router side, MPFP (Ye et al., "PTP: Path-specified Transport Protocol", §3, §4-A, §4-B):
//! path probing, tag switching and the Forwarding Acceleration Base, a router extension
//! (`ForwarderExtension`) that a forwarder whose `ForwarderConfig::ptp` is set holds.
//!
//! * A probing Interest (link-header flag `PTP_PROBE`, no tag) skips the Content Store ("the
//!   probing Interest packet is always forwarded to a producer, while the cache is ignored") and
//!   goes to one of the next hops of its FIB entry, each with the same probability (the paper's
//!   equal-weight strategy), or to the local producer if the node has one.
//! * The producer answers it with a probing Data (`PTP_PROBE` again). Each forwarder pushes onto
//!   the Data's tag stack the face the Data arrived on (§4-A, Figure 5 (a)), so the consumer gets
//!   the path as a stack whose top is its own node's face.
//! * A tagged Interest pops the top of its stack and goes out of that face with the rest of the
//!   stack (Figure 5 (b)), if the face is a usable next hop of the Interest's FIB entry, found
//!   through the FAB (§4-B). Otherwise the tag is invalid ("the next-hop device is disconnected or
//!   the connected producer no longer provides content"), and the paper says two things: §4-C-2,
//!   "the router will proactively return NACK packets to notify the failure of the path", so that
//!   the consumer replaces it; §2-D, "the routers' adaptive forwarding is also enabled when the
//!   specified transmission path of an Interest packet is invalid". `InvalidTag` offers both;
//!   the default is §4-C-2's Nack(NoRoute), the section on exactly this case, since an Interest
//!   forwarded by name leaves the consumer counting it against a path it did not take.
//! * A Data answered from this node's Content Store carries the one-bit `FROM_CACHE` flag (§5-D-1:
//!   "the router labels the Data packet using a 1-bit flag"), kept on the way down; so does every
//!   copy of a Data that answers an aggregated Interest (a downstream that joined a pending entry
//!   another downstream had made): §5-A counts aggregation among the intermediate sources whose
//!   Data arrive out of the producer's order.
//!
//! Our choice where the paper is silent: a tagged Interest that finds its name already pending
//! from another downstream is aggregated as any other (PIT aggregation is NDN's, and the paper
//! counts it among the "intermediate" sources, §5-A); a retransmission from the same downstream
//! goes out again after NFD's retransmission suppression, on its tag.

use std::any::Any;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use smallvec::SmallVec;

use super::{DataCopy, ForwarderExtension, Takeover};
use crate::fw::face::FaceKind;
use crate::fw::strategy::{Faces, InterestDecision, RetxDecision, RetxSuppression, StrategyCtx};
use crate::packet::lp::flags;
use crate::packet::{LpExtensions, LpHeader, NackReason};
use crate::table::{Fab, FaceId, Fib, PitEntry};
use crate::Name;

/// What MPFP did, for the node summary.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MpfpCounters {
    /// Probing Interests sent on by the equal-weight rule.
    pub probes: u64,
    /// Tagged Interests sent out of the face their tag named.
    pub tag_switched: u64,
    /// Tagged Interests whose tag named no usable next hop, forwarded by name instead
    /// (`InvalidTag::Forward`).
    pub tag_fallbacks: u64,
    /// Tagged Interests whose tag named no usable next hop, answered with Nack(NoRoute)
    /// (`InvalidTag::Nack`).
    pub tag_nacks: u64,
}

/// What a router does with a tagged Interest whose tag names no usable next hop.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum InvalidTag {
    /// §4-C-2: Nack(NoRoute), so that the consumer disables the path.
    #[default]
    Nack,
    /// §2-D: forwarded by name by the node's strategy, untagged.
    Forward,
}

/// MPFP's per-forwarder state.
pub struct Mpfp {
    fab: Fab,
    /// Equal-weight probing: each probe's next hop drawn from this router's own stream.
    rng: ChaCha8Rng,
    retx: RetxSuppression,
    invalid_tag: InvalidTag,
    pub counters: MpfpCounters,
}

impl Mpfp {
    /// `seed`: this router's stream for the probes' draws.
    pub fn new(fab_capacity: usize, invalid_tag: InvalidTag, seed: u64) -> Mpfp {
        Mpfp {
            fab: Fab::new(fab_capacity),
            rng: ChaCha8Rng::seed_from_u64(seed),
            retx: RetxSuppression::default(),
            invalid_tag,
            counters: MpfpCounters::default(),
        }
    }

    pub fn fab(&self) -> &Fab {
        &self.fab
    }

    /// The next hop of a probing Interest: one of the FIB entry's usable next hops, each with the
    /// same probability, drawn independently for every probe (the paper's equal-weight strategy,
    /// §3-A). A turn shared by all consumers would hand consumers probing in step one path each.
    fn probe_face(
        &mut self,
        name: &Name,
        fib: &Fib,
        usable: impl Fn(FaceId) -> bool,
        local: impl Fn(FaceId) -> bool,
    ) -> Option<FaceId> {
        let index = self.fab.lookup(name, fib)?;
        let hops: SmallVec<[FaceId; 8]> =
            fib.entry(index).nexthops.iter().map(|h| h.face).filter(|&f| usable(f)).collect();
        // "Always forwarded to a producer" (§4-A): a probe that reaches a node serving the name
        // itself has found its producer; another next hop would only lengthen the path.
        if let Some(&app) = hops.iter().find(|&&f| local(f)) {
            return Some(app);
        }
        match hops.len() {
            0 => None,
            1 => Some(hops[0]),
            n => Some(hops[self.rng.random_range(0..n)]),
        }
    }

    /// The face a tag names, if it is a usable next hop of the name's FIB entry (§4-B).
    fn tagged_face(&mut self, name: &Name, tag: u64, fib: &Fib, usable: impl Fn(FaceId) -> bool) -> Option<FaceId> {
        let face = FaceId(u32::try_from(tag).ok()?);
        let index = self.fab.lookup(name, fib)?;
        fib.entry(index).nexthops.iter().any(|h| h.face == face).then_some(face).filter(|&f| usable(f))
    }

    /// A tag that names no usable next hop: Nack(NoRoute) (§4-C-2), or the strategy's (§2-D,
    /// `None`: the Interest goes on by name, untagged).
    fn invalid_tag(&mut self) -> Option<Takeover> {
        match self.invalid_tag {
            InvalidTag::Nack => {
                self.counters.tag_nacks += 1;
                Some(Takeover { decision: InterestDecision::Reject(NackReason::NoRoute), lp: LpHeader::default() })
            }
            InvalidTag::Forward => {
                self.counters.tag_fallbacks += 1;
                None
            }
        }
    }
}

impl ForwarderExtension for Mpfp {
    fn name(&self) -> &'static str {
        "mpfp"
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    /// "The probing Interest packet is always forwarded to a producer, while the cache is ignored."
    fn skips_content_store(&self, lp: &LpHeader) -> bool {
        lp.flags & flags::PTP_PROBE != 0
    }

    /// A probing or tagged Interest goes MPFP's way; a plain one, or one whose tag names no usable
    /// next hop, is for the strategy.
    fn forward_interest(
        &mut self,
        ctx: &StrategyCtx,
        in_face: FaceId,
        lp: &mut LpHeader,
        entry: &mut PitEntry,
    ) -> Option<Takeover> {
        let probe = lp.flags & flags::PTP_PROBE != 0;
        let top = lp.ext.as_ref().and_then(|e| e.tags.last().copied());
        if !probe && top.is_none() {
            return None;
        }
        let usable = |f: FaceId| f != in_face && ctx.faces.get(f.index()).is_some_and(|i| i.up);
        let mut out = LpHeader::default();
        let face = if probe {
            out.flags = flags::PTP_PROBE;
            let local = |f: FaceId| ctx.faces.get(f.index()).is_some_and(|i| i.kind == FaceKind::App);
            self.probe_face(entry.name(), ctx.fib, usable, local)
        } else {
            let top = top.unwrap_or(u64::MAX);
            // An invalid tag may leave the Interest to the strategy: `lp` untouched until here.
            let Some(face) = self.tagged_face(entry.name(), top, ctx.fib, usable) else {
                return self.invalid_tag();
            };
            out.ext = popped(lp);
            Some(face)
        };
        // A probe with nowhere to go: NFD's answer to an Interest without a route.
        let Some(face) = face else {
            return Some(Takeover { decision: InterestDecision::Reject(NackReason::NoRoute), lp: out });
        };
        if self.retx.decide(ctx.now, entry) == RetxDecision::Suppress {
            return Some(Takeover { decision: InterestDecision::Suppress, lp: out });
        }
        if probe {
            self.counters.probes += 1;
        } else {
            self.counters.tag_switched += 1;
        }
        Some(Takeover { decision: InterestDecision::Forward(Faces::from_slice(&[face])), lp: out })
    }

    /// §5-D-1: "the router labels the Data packet using a 1-bit flag".
    fn content_store_hit(&mut self, _ctx: &StrategyCtx, _out_face: FaceId, lp_out: &mut LpHeader) {
        lp_out.flags |= flags::FROM_CACHE;
    }

    /// The from-cache flag as it came, set on a copy that answers an aggregated Interest, and for
    /// a probing Data its tag stack with `in_face` pushed on top.
    fn outgoing_data(&mut self, _ctx: &StrategyCtx, copy: DataCopy, lp_in: &LpHeader, lp_out: &mut LpHeader) {
        lp_out.flags |= lp_in.flags & flags::FROM_CACHE;
        if copy.aggregated {
            // §5-D-1 and §5-A: Data from "cache/aggregation" overtake the producer's order, so
            // the consumer must not read them as a loss on its path.
            lp_out.flags |= flags::FROM_CACHE;
        }
        if lp_in.flags & flags::PTP_PROBE != 0 {
            lp_out.flags |= flags::PTP_PROBE;
            let mut tags = lp_in.ext.as_ref().map(|e| e.tags.clone()).unwrap_or_default();
            // Every face counts, the producer's application face too: the tagged Interest pops it
            // at the producer's node and is handed to the producer through it.
            tags.push(u64::from(copy.in_face.0));
            lp_out.ext_mut().tags = tags;
        }
    }
}

/// The arrived header's extension box with the top tag popped and every other field cleared, to
/// be the forwarded Interest's: the box moves hop to hop instead of being allocated at each (the
/// arrived header is not read after a takeover). None when no tag is left below the top.
fn popped(lp: &mut LpHeader) -> Option<Box<LpExtensions>> {
    let mut ext = lp.ext.take()?;
    let mut tags = std::mem::take(&mut ext.tags);
    tags.pop();
    if tags.is_empty() {
        return None;
    }
    *ext = LpExtensions { tags, ..LpExtensions::default() };
    Some(ext)
}

#[cfg(test)]
#[path = "mpfp_tests.rs"]
mod tests;
