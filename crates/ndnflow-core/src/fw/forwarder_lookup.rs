//! Where the forwarder's pipelines ask something besides the PIT: the Content Store lookup (NFD's
//! ContentStore hit and miss, daemon/fw/forwarder.cpp), which a simulated cache (DPCCP §VII-A)
//! completes, and the router extensions' Interest hooks (`fw/ext`).

use std::sync::Arc;

use super::Forwarder;
use crate::fw::ext::Takeover;
use crate::fw::strategy::StrategyCtx;
use crate::packet::{Data, Interest, LpHeader};
use crate::table::{FaceId, PitId};
use crate::Time;

impl Forwarder {
    /// The Content Store's Data for `interest`, else a simulated cache hit. A node with neither
    /// looks nothing up and counts nothing; one with either counts a miss when both miss.
    pub(super) fn content_store_lookup(&mut self, now: Time, interest: &Interest) -> Option<Arc<Data>> {
        if !self.cs.is_enabled() && self.sim_cache.is_none() {
            return None;
        }
        let stored = if self.cs.is_enabled() { self.cs.find(now, interest) } else { None };
        let found = stored.or_else(|| self.sim_cache.as_mut()?.lookup(now, interest));
        if found.is_none() {
            self.counters.cs_misses += 1;
        }
        found
    }

    /// The link-header flags the extensions let the Interest from `in_face` take upstream (none
    /// without extensions: a stock forwarder sends its Interests without flags).
    pub(super) fn interest_flags(&mut self, now: Time, in_face: FaceId, lp: &LpHeader) -> u64 {
        if self.extensions.is_empty() {
            return 0;
        }
        let ctx = StrategyCtx { now, faces: &self.faces, fib: &self.fib };
        self.extensions.iter_mut().fold(0, |flags, e| flags | e.incoming_interest(&ctx, in_face, lp))
    }

    /// The first extension that forwards the Interest of entry `id` its own way, if any.
    pub(super) fn extension_forwards(
        &mut self,
        now: Time,
        in_face: FaceId,
        id: PitId,
        lp: &mut LpHeader,
    ) -> Option<Takeover> {
        if self.extensions.is_empty() {
            return None;
        }
        let ctx = StrategyCtx { now, faces: &self.faces, fib: &self.fib };
        let entry = self.pit.get_mut(id)?;
        self.extensions.iter_mut().find_map(|e| e.forward_interest(&ctx, in_face, lp, entry))
    }
}
