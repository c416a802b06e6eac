//! Router extensions: what a protocol adds to every forwarder's pipelines beside the strategy
//! (PTP's path-specified forwarding, route labels, DPCCP's hop count and RTT-probing labels,
//! MIRCC's rates and class carried from hop to hop, SMIC's path ids hashed onto next hops),
//! behind hooks where NFD's pipelines hand a packet on (daemon/fw/forwarder.cpp: incoming
//! Interest before the Content Store, a Content Store hit, the outgoing Interest and Data
//! pipelines).
//!
//! Why a list of extensions beside the strategies, and not more strategy triggers: a strategy
//! is chosen per name prefix (NFD's strategy choice), while these behaviours hold for every
//! Interest and Data a router handles whatever its strategy (a PTP router pops tags under
//! best-route and pcon alike), and they write link-header fields, which NFD leaves to the face
//! system and its link service rather than to strategies. Hooks run in the order the extensions
//! were added; every hook has a default that does nothing, so an extension writes only the hooks
//! it needs, and a forwarder without extensions pays for none.

pub mod dpccp;
pub mod mircc;
pub mod mpfp;
pub mod route_labels;
pub mod smic;

use std::any::Any;

use super::strategy::{InterestDecision, StrategyCtx};
use crate::packet::LpHeader;
use crate::table::{FaceId, PitEntry};

pub use dpccp::{Dpccp, DpccpConfig, DpccpCounters};
pub use mircc::Mircc;
pub use mpfp::{InvalidTag, Mpfp, MpfpCounters};
pub use route_labels::RouteLabels;
pub use smic::{PathHash, Smic, SmicConfig, SmicCounters};

/// An extension's answer for an Interest it forwards itself, in place of the strategy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Takeover {
    /// Carried out as a strategy's decision is.
    pub decision: InterestDecision,
    /// The link header of the Interests sent (before the other extensions' `outgoing_interest`).
    pub lp: LpHeader,
}

/// One copy of a Data leaving the outgoing Data pipeline, for `outgoing_data`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DataCopy {
    /// The face the Data arrived on (an application face: a local producer's).
    pub in_face: FaceId,
    /// The downstream face this copy leaves on.
    pub out_face: FaceId,
    /// This downstream is not the first of the PIT entry's (its Interest joined an entry another
    /// downstream's had made), so the copy answers it by aggregation.
    pub aggregated: bool,
}

/// `Send` as strategies are (a simulation moves between threads); `Any` so that a driver can
/// read an extension's own state back (`Forwarder::extension`).
pub trait ForwarderExtension: Send + Any {
    /// Short name, for messages.
    fn name(&self) -> &'static str;

    /// Itself, for `Forwarder::extension`'s downcast.
    fn as_any(&self) -> &dyn Any;

    /// Incoming Interest with link header `lp`: whether it must skip the Content Store lookup.
    fn skips_content_store(&self, _lp: &LpHeader) -> bool {
        false
    }

    /// Incoming Interest with link header `lp`, before the Content Store: the link-header flags
    /// it takes upstream if it is forwarded (by the strategy or by a `Takeover`). A stock
    /// forwarder sends Interests with no flags; an extension that reads a flag hop by hop passes
    /// it on here.
    fn incoming_interest(&mut self, _ctx: &StrategyCtx, _in_face: FaceId, _lp: &LpHeader) -> u64 {
        0
    }

    /// Incoming Interest after a Content Store miss, its in-record in place, before the strategy:
    /// `Some` forwards it the extension's way and the strategy never sees it. `lp` is the header
    /// the Interest arrived with. An extension that takes the Interest over may take from it what
    /// it forwards (its boxed `ext`, reused rather than allocated again at every hop): nothing
    /// reads `lp` after a takeover. One that returns `None` leaves `lp` as it was, for the next
    /// extension and the strategy.
    fn forward_interest(
        &mut self,
        _ctx: &StrategyCtx,
        _in_face: FaceId,
        _lp: &mut LpHeader,
        _entry: &mut PitEntry,
    ) -> Option<Takeover> {
        None
    }

    /// Writes the link header of an Interest about to leave on `face`.
    fn outgoing_interest(&mut self, _face: FaceId, _lp_out: &mut LpHeader) {}

    /// Writes the link header of a Data answered from this node's Content Store (or its simulated
    /// cache), about to leave on `out_face`.
    fn content_store_hit(&mut self, _ctx: &StrategyCtx, _out_face: FaceId, _lp_out: &mut LpHeader) {}

    /// Writes the link header of one copy of a Data going downstream, which arrived with `lp_in`.
    fn outgoing_data(&mut self, _ctx: &StrategyCtx, _copy: DataCopy, _lp_in: &LpHeader, _lp_out: &mut LpHeader) {}
}
