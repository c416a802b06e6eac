//! SMIC's router side ("SMIC: Subflow-level Multi-path Interest Control", §3.3.2 and §4.2 with
//! Figures 2-3): an Interest carrying a path
//! identifier goes to the next hop `Hash(path id) mod c` of its FIB entry's c next hops, so that a
//! consumer spreads its sub-flows by choosing path ids without knowing the topology; a Data's
//! trajectory identifier is seeded by the content holder and folded hop by hop on the way back.
//! A router extension (`ForwarderExtension`) held by a forwarder whose `ForwarderConfig::smic` is
//! set; docs/protocols/smic.md gives the rules and the choices below with their reasons.
//!
//! * **Path id** (§4.2: "If there are c possible outfaces, it runs a hash function for the path
//!   identifier and applies the modulo c operation, whose result is the index of the selected
//!   interface"). The c candidates are the next hops of the longest-prefix match, as a strategy
//!   sees them, in the FIB's order (cost, then face id), without the face the Interest came on and
//!   without faces that are down: neither is a "possible outface". The path id goes on upstream
//!   unchanged, so the next router hashes it again (§3.3.2: "This operation will continue until the
//!   Interest reaches the content holder").
//! * **Hash.** The paper's example hashes the path id alone, the same at every router
//!   (`PathHash::Paper`, the default): with equal c at consecutive routers a path id takes the same
//!   index at each. `PathHash::Salted` (opt-in, not in the paper) mixes in a per-router salt so
//!   that consecutive choices are independent.
//! * **Trajectory id** (§3.3.2: "The content holder initializes the trajectory identifier ...
//!   every router updates [it] by hashing it with ... its incoming interface"): `smic` installs the
//!   route-label extension (`RouteLabels`), which is that fold with face ids in place of MAC
//!   addresses; this extension folds nothing itself, so a node with both `smic` and
//!   `route_labels` folds once.
//!
//! Our choices where the paper is silent: no usable candidate gets Nack(NoRoute), NFD's answer to
//! an Interest without a route; a retransmission goes through NFD's retransmission suppression
//! (as a strategy's would) and then to the same hashed face; a Nack from upstream goes to the
//! prefix's strategy as any Nack does.

use std::any::Any;

use smallvec::SmallVec;

use super::{ForwarderExtension, Takeover};
use crate::fw::strategy::{Faces, InterestDecision, RetxDecision, RetxSuppression, StrategyCtx};
use crate::packet::{LpExtensions, LpHeader, NackReason};
use crate::table::{FaceId, PitEntry};

/// How a router hashes a path id before taking it modulo its number of next hops.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PathHash {
    /// §3.3.2 and §4.2's example: `mix64(path id)`, the same function at every router.
    #[default]
    Paper,
    /// `mix64(path id xor salt)`, the salt drawn from the router's own seed: consecutive routers
    /// choose independently (not in the paper).
    Salted,
}

/// SMIC's router options (`smic = true` takes the defaults).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SmicConfig {
    pub hash: PathHash,
}

/// What SMIC's router side did, for tests and drivers (`Forwarder::extension::<Smic>()`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SmicCounters {
    /// Interests sent to their hashed next hop.
    pub hashed: u64,
    /// Interests with a path id and no usable next hop, answered with Nack(NoRoute).
    pub no_route: u64,
}

/// The index of the next hop a path id takes among `c` candidates (`c` > 0): `Hash(path id) mod
/// c` (§4.2), with `salt` mixed in only by `PathHash::Salted`.
pub fn path_index(hash: PathHash, salt: u64, path_id: u64, c: usize) -> usize {
    let h = match hash {
        PathHash::Paper => crate::mix::mix64(path_id),
        PathHash::Salted => crate::mix::mix64(path_id ^ salt),
    };
    (h % c as u64) as usize
}

/// SMIC's per-forwarder state.
pub struct Smic {
    hash: PathHash,
    salt: u64,
    retx: RetxSuppression,
    pub counters: SmicCounters,
}

impl Smic {
    /// `seed`: this router's own, for the salt of `PathHash::Salted`.
    pub fn new(config: SmicConfig, seed: u64) -> Smic {
        Smic { hash: config.hash, salt: seed, retx: RetxSuppression::default(), counters: SmicCounters::default() }
    }

    /// The hashed next hop: the FIB entry's usable next hops in its order (cost, then face id),
    /// indexed by the path id's hash; `None` when there is none.
    fn hashed_face(&self, ctx: &StrategyCtx, in_face: FaceId, entry: &PitEntry, path_id: u64) -> Option<FaceId> {
        let (_, fib) = ctx.fib.longest_prefix_match(entry.name())?;
        let hops: SmallVec<[FaceId; 8]> =
            fib.nexthops.iter().filter(|h| ctx.is_eligible(in_face, h, entry, false)).map(|h| h.face).collect();
        if hops.is_empty() {
            return None;
        }
        Some(hops[path_index(self.hash, self.salt, path_id, hops.len())])
    }
}

impl ForwarderExtension for Smic {
    fn name(&self) -> &'static str {
        "smic"
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    /// Figure 2: after the Content Store and the PIT, "Does 'path identifier' exist?"; if so the
    /// hash decides the next hop, otherwise the Interest is the strategy's.
    fn forward_interest(
        &mut self,
        ctx: &StrategyCtx,
        in_face: FaceId,
        lp: &mut LpHeader,
        entry: &mut PitEntry,
    ) -> Option<Takeover> {
        let path_id = lp.ext.as_deref()?.path_id?;
        // Every branch below takes the Interest over: the arrived header's box carries the path
        // id on, cleared of the rest, rather than a box allocated at every hop.
        let mut ext = lp.ext.take()?;
        *ext = LpExtensions { path_id: Some(path_id), ..LpExtensions::default() };
        let out = LpHeader { ext: Some(ext), ..LpHeader::default() };
        let Some(face) = self.hashed_face(ctx, in_face, entry, path_id) else {
            self.counters.no_route += 1;
            return Some(Takeover { decision: InterestDecision::Reject(NackReason::NoRoute), lp: out });
        };
        if self.retx.decide(ctx.now, entry) == RetxDecision::Suppress {
            return Some(Takeover { decision: InterestDecision::Suppress, lp: out });
        }
        self.counters.hashed += 1;
        Some(Takeover { decision: InterestDecision::Forward(Faces::from_slice(&[face])), lp: out })
    }
}

#[cfg(test)]
#[path = "smic_tests.rs"]
mod tests;
