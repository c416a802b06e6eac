//! MIRCC's forwarder side (Mahdian et al., "MIRCC: Multipath-aware ICN Rate-based Congestion
//! Control", ACM ICN 2016), a router extension that a forwarder whose `ForwarderConfig::mircc` is
//! set holds. The rates themselves are the links' (`link::mircc`): each MIRCC link lowers the
//! Data's rates to its own as the Data leaves. But a forwarder rebuilds every Data's link header
//! per hop (`outgoing_data_lp`), so without this extension the rates the links below the router
//! stamped, and the class bit the links count by, would end at the first router. SMIC's summary
//! of MIRCC: routers "compare R(t) in Data packets and their own R(t), and update Data packets'
//! R(t) with smaller value", so the smallest rate must travel the whole way down.
//!
//! * An Interest keeps `MIRCC_SECONDARY` upstream, so that the producer can echo it.
//! * A Data keeps `mircc_rate`, `mircc_rate2` and `MIRCC_SECONDARY` on its way down.
//!
//! Our choices where the sources are silent:
//! * **A Data answered from this node's Content Store takes the class of the Interest it
//!   answers.** The hook gets no Interest, but the forwarder runs `incoming_interest` and then,
//!   for the same Interest and before any other packet, `content_store_hit` (one pass of its
//!   incoming Interest pipeline), so the class seen last is that Interest's. The Data starts
//!   without rates: the links between here and the consumer stamp it.
//! * **Every copy of a Data takes the class it arrived with**, a copy that answers an aggregated
//!   Interest too: the PIT keeps no link-header flags of each downstream's Interest, and the
//!   consumer reads its own sub-flow's rate field, whatever the bit says; the bit only decides
//!   in which class the links below count the Data's bytes.

use std::any::Any;

use super::{DataCopy, ForwarderExtension};
use crate::fw::strategy::StrategyCtx;
use crate::packet::lp::flags;
use crate::packet::LpHeader;
use crate::table::FaceId;

/// The forwarder side of MIRCC: passes the class bit and the rates on.
#[derive(Debug, Default)]
pub struct Mircc {
    /// The class bit of the Interest `incoming_interest` saw last (see the module comment).
    last_interest_class: u64,
}

impl Mircc {
    pub fn new() -> Mircc {
        Mircc::default()
    }
}

impl ForwarderExtension for Mircc {
    fn name(&self) -> &'static str {
        "mircc"
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn incoming_interest(&mut self, _ctx: &StrategyCtx, _in_face: FaceId, lp: &LpHeader) -> u64 {
        self.last_interest_class = lp.flags & flags::MIRCC_SECONDARY;
        self.last_interest_class
    }

    fn content_store_hit(&mut self, _ctx: &StrategyCtx, _out_face: FaceId, lp_out: &mut LpHeader) {
        lp_out.flags |= self.last_interest_class;
    }

    fn outgoing_data(&mut self, _ctx: &StrategyCtx, _copy: DataCopy, lp_in: &LpHeader, lp_out: &mut LpHeader) {
        lp_out.flags |= lp_in.flags & flags::MIRCC_SECONDARY;
        let Some(ext) = lp_in.ext.as_deref() else { return };
        if ext.mircc_rate.is_some() || ext.mircc_rate2.is_some() {
            let out = lp_out.ext_mut();
            out.mircc_rate = ext.mircc_rate;
            out.mircc_rate2 = ext.mircc_rate2;
        }
    }
}

#[cfg(test)]
#[path = "mircc_tests.rs"]
mod tests;
