//! Route labels (Carofiglio et al., "Optimal multipath congestion control and request forwarding
//! in information-centric networks", INFOCOM NOMEN 2013, as RAAQM uses them): every forwarder
//! folds the face a Data arrived on into the Data's trajectory id on its way down, so that a
//! consumer can tell the routes its Data took apart. A router extension (`ForwarderExtension`),
//! held by a forwarder whose `ForwarderConfig::route_labels` is set; docs/protocols/forwarder.md
//! gives the rule and its cost on the wire.

use std::any::Any;

use super::{DataCopy, ForwarderExtension};
use crate::fw::strategy::StrategyCtx;
use crate::packet::LpHeader;
use crate::table::FaceId;

/// What a Content Store hit folds into a route label in place of an upstream face.
pub const CONTENT_STORE_HOP: u64 = u64::MAX;

/// The route label after one more hop: the label from upstream (0 at the route's end) with the
/// face the Data came in on folded in. Given the consumer, the faces chosen hop by hop name the
/// route, so the fold of their sequence does too (up to 64-bit hash collisions); SplitMix64 is a
/// bijection, so one hop never maps two labels to one.
pub fn route_label(upstream: u64, hop: u64) -> u64 {
    crate::mix::mix64(upstream.rotate_left(17) ^ hop)
}

/// The extension itself holds nothing: the label travels in the Data.
#[derive(Clone, Copy, Debug, Default)]
pub struct RouteLabels;

impl ForwarderExtension for RouteLabels {
    fn name(&self) -> &'static str {
        "route-labels"
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    /// The route ends in this Content Store.
    fn content_store_hit(&mut self, _ctx: &StrategyCtx, _out_face: FaceId, lp_out: &mut LpHeader) {
        lp_out.ext_mut().trajectory_id = Some(route_label(0, CONTENT_STORE_HOP));
    }

    fn outgoing_data(&mut self, _ctx: &StrategyCtx, copy: DataCopy, lp_in: &LpHeader, lp_out: &mut LpHeader) {
        let label = route_label(lp_in.trajectory_id().unwrap_or(0), u64::from(copy.in_face.0));
        lp_out.ext_mut().trajectory_id = Some(label);
    }
}

#[cfg(test)]
#[path = "route_labels_tests.rs"]
mod tests;
