//! DPCCP's router side (Delay-based Path-specified Congestion Control, §VI-C and §VI-E-7), a
//! router extension (`ForwarderExtension`) that a forwarder whose `ForwarderConfig::dpccp` is set
//! holds; it runs beside PTP's MPFP, whose tagged paths DPCCP's sub-flows take.
//!
//! * Hop count (§VI-C): "A 6-bit hop-count tag (to support at most 63 hops) is added to the Data
//!   packet to enable counting the number of hops that the Data packet has travelled", so that a
//!   consumer can tell its hop-flows (the nodes that answer it on one path) apart. The content
//!   holder sends the Data with 0: this node's forwarder when the Data comes from a local
//!   producer's application face or from its Content Store (a simulated cache hit included);
//!   every forwarder that passes on a Data carrying h sends it with h + 1. The consumer therefore
//!   reads the number of links the Data crossed: on path A-B-C-D a Data from C arrives at A's
//!   consumer with 2 (C-B and B-A), one from the producer on D with 3. A Data that arrives with
//!   no count (from a node without DPCCP) gets none: a count that skipped hops would name the
//!   wrong hop-flow. The count lives in the Flags field (`flags::DATA_HOPS`, `data_hops`).
//! * RTT probing (§VI-E-7): "Once this Interest packet [with the 1-bit RTT-probing flag] is
//!   received by a router through an interface, the interface is labelled 'RTT-Probing'. For all
//!   Data packet that travels through this interface, they will be tagged with a 1-bit flag", so
//!   that every sub-flow whose Data leave through a queue the new sub-flow's Data will also use
//!   drains it. The Interest keeps its flag upstream (each router on the path labels its own
//!   in-face), tagged or not; a Data keeps the drain flag on its way down, since the sub-flows
//!   that must hear it are at the consumers below.
//!
//! Our choices where the paper is silent:
//! * A label lasts `DpccpConfig::label_lifetime` (200 ms by default) after the last flagged
//!   Interest arrived through the face: a new sub-flow flags its Interests while it probes, so
//!   the label holds as long as they keep coming, and lapses one lifetime after. 200 ms is one
//!   control cycle (the largest RTT, §VI-E) of SP-1's path (170 ms of propagation plus queueing),
//!   so that every sub-flow through the face gets a flagged Data within a cycle, and not much
//!   longer, so that sub-flows that have drained are not sent back to Queue-Draining by a stale
//!   label.
//! * Only link faces are labelled: an application face has no queue to drain, and labelling it
//!   would send the consumer's sub-flows on disjoint paths to Queue-Draining for nothing.

use std::any::Any;

use super::{DataCopy, ForwarderExtension};
use crate::fw::face::FaceKind;
use crate::fw::strategy::StrategyCtx;
use crate::packet::lp::flags;
use crate::packet::LpHeader;
use crate::table::FaceId;
use crate::Time;

/// The router side's one parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DpccpConfig {
    /// How long an RTT-probing label lasts after the last flagged Interest arrived (our choice,
    /// see the module comment).
    pub label_lifetime: Time,
}

impl Default for DpccpConfig {
    fn default() -> Self {
        DpccpConfig { label_lifetime: Time::from_millis(200) }
    }
}

/// What the extension did, for the node summary.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DpccpCounters {
    /// Data sent with a hop count (set to 0 here or passed on plus one).
    pub hop_counted: u64,
    /// Times a link face went from unlabelled to labelled "RTT-Probing".
    pub faces_labelled: u64,
    /// Data this node flagged for draining as they left a labelled face.
    pub drain_flagged: u64,
}

pub struct Dpccp {
    config: DpccpConfig,
    /// Per face index: the instant its RTT-probing label lapses (`Time::ZERO`: never labelled).
    labels: Vec<Time>,
    pub counters: DpccpCounters,
}

impl Dpccp {
    pub fn new(config: DpccpConfig) -> Dpccp {
        Dpccp { config, labels: Vec::new(), counters: DpccpCounters::default() }
    }

    /// Whether `face` carries an RTT-probing label at `now`.
    pub fn is_labelled(&self, now: Time, face: FaceId) -> bool {
        self.labels.get(face.index()).is_some_and(|&until| now < until)
    }

    fn label(&mut self, now: Time, face: FaceId) {
        if !self.is_labelled(now, face) {
            self.counters.faces_labelled += 1;
        }
        if self.labels.len() <= face.index() {
            self.labels.resize(face.index() + 1, Time::ZERO);
        }
        self.labels[face.index()] = now + self.config.label_lifetime;
    }

    /// The drain flag on a Data leaving a labelled face.
    fn drain(&mut self, now: Time, out_face: FaceId, lp_out: &mut LpHeader) {
        if self.is_labelled(now, out_face) {
            lp_out.flags |= flags::RTT_PROBING;
            self.counters.drain_flagged += 1;
        }
    }

    fn count_hops(&mut self, lp_out: &mut LpHeader, hops: u8) {
        lp_out.flags = flags::with_data_hops(lp_out.flags, hops);
        self.counters.hop_counted += 1;
    }
}

impl ForwarderExtension for Dpccp {
    fn name(&self) -> &'static str {
        "dpccp"
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    /// A flagged Interest labels the link it came over and keeps its flag upstream.
    fn incoming_interest(&mut self, ctx: &StrategyCtx, in_face: FaceId, lp: &LpHeader) -> u64 {
        if lp.flags & flags::RTT_PROBING == 0 {
            return 0;
        }
        if ctx.faces.get(in_face.index()).is_some_and(|f| f.kind == FaceKind::Link) {
            self.label(ctx.now, in_face);
        }
        flags::RTT_PROBING
    }

    /// This node holds the content: the count starts at 0.
    fn content_store_hit(&mut self, ctx: &StrategyCtx, out_face: FaceId, lp_out: &mut LpHeader) {
        self.count_hops(lp_out, 0);
        self.drain(ctx.now, out_face, lp_out);
    }

    fn outgoing_data(&mut self, ctx: &StrategyCtx, copy: DataCopy, lp_in: &LpHeader, lp_out: &mut LpHeader) {
        let from_app = ctx.faces.get(copy.in_face.index()).is_some_and(|f| f.kind == FaceKind::App);
        if from_app {
            // A local producer's Data: this node is its holder.
            self.count_hops(lp_out, 0);
        } else if let Some(h) = flags::data_hops(lp_in.flags) {
            self.count_hops(lp_out, h.saturating_add(1));
        }
        lp_out.flags |= lp_in.flags & flags::RTT_PROBING;
        self.drain(ctx.now, copy.out_face, lp_out);
    }
}

#[cfg(test)]
#[path = "dpccp_tests.rs"]
mod tests;
