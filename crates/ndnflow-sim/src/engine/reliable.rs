//! The engine's side of NDNLPv2 link reliability on links that detect losses (PCON §3.5; the state
//! machine is `ndnflow_core::link::reliability`, docs/protocols/links.md): each face numbers what
//! it sends, reads the Acks and TxSequences of what it receives, sends IDLE packets and
//! retransmissions when its timers say so (a `LinkWake` event), and turns what it gives up on into
//! PCON's loss signal:
//!
//! * a given-up **Interest** comes back to the node that sent it as a Nack(Congestion) on that face
//!   (as NFD's `onDroppedInterest` tells the forwarder), delivered at once: the node detected it;
//! * a given-up **Data** is known to its sender, the upstream, while the PIT entries wait at the
//!   downstream: the upstream sends a loss report over the link (`data_loss_report`, itself a
//!   reliable frame, subject to the link's delay and losses), and the downstream hands it to
//!   `Forwarder::handle_lost_data`;
//! * a given-up **Nack** (or loss report) is not reported again: its downstream times out.
//!
//! The Nack is marked on an `"overlay"` link (all its losses are congestion in the underlay) and
//! unmarked on a `"wireless"` one (PCON §4.6: its Nacks "only trigger a retransmission"). None of
//! this runs on links without loss detection.

use std::sync::Arc;

use ndnflow_core::link::reliability::{data_loss_report, data_loss_reported, Output, Received};
use ndnflow_core::packet::{Frame, Interest, NetPacket};
use ndnflow_core::{Name, Time};

use super::Simulation;
use crate::events::Event;
use crate::link::is_idle;
use crate::scenario::model::LossDetection;

/// What an IDLE packet's carrier frame holds in place of a network packet (see `link.rs`).
pub(super) fn idle_carrier() -> NetPacket {
    NetPacket::Interest(Arc::new(Interest::new(Name::root(), 0, Time::ZERO)))
}

impl Simulation {
    /// Numbers a frame about to go on NDN-level direction `d` (its face's reliability).
    // Off the path of links without loss detection: kept out of line.
    #[cold]
    #[inline(never)]
    pub(super) fn number(&mut self, d: usize, frame: &mut Frame) {
        let Some(r) = self.net.dirs[d].reliability.as_mut() else { return };
        r.lp.on_send(self.now, frame);
        self.reschedule_link(d);
    }

    /// A frame arrived at the end of NDN-level direction `origin`: the receiving face (the one
    /// sending on the reverse direction) reads its reliability fields, then the frame goes to the
    /// forwarder unless it was an IDLE packet, a duplicate, or a loss report.
    #[cold]
    #[inline(never)]
    pub(super) fn receive_reliably(&mut self, origin: usize, mut frame: Frame) {
        let (to, to_face) = (self.net.dirs[origin].to, self.net.dirs[origin].to_face);
        let Some(back) = self.net.dirs[origin].reliability.as_ref().map(|r| r.reverse as usize) else { return };
        let Some(r) = self.net.dirs[back].reliability.as_mut() else { return };
        let mut out = std::mem::take(&mut self.lp_out);
        let deliver = if is_idle(&frame) {
            r.lp.on_receive_idle(self.now, &frame.lp, &mut out);
            false
        } else {
            r.lp.on_receive(self.now, &mut frame, &mut out) == Received::Deliver
        };
        self.apply(back, &mut out);
        self.lp_out = out;
        self.reschedule_link(back);
        if !deliver {
            return;
        }
        if let Some(data) = data_loss_reported(&frame) {
            let mut out = std::mem::take(&mut self.outbox);
            self.net.nodes[to].fw.handle_lost_data(self.now, to_face, &data, frame.lp.congestion_mark, &mut out);
            self.take_node_log(to);
            for (face, frame) in out.drain(..) {
                self.send_from(to, face, frame);
            }
            self.outbox = out;
            self.reschedule_node(to);
            return;
        }
        if let Some(s) = self.net.dirs[origin].feeds_shaper {
            self.data_for_shaper(s as usize, &frame);
        }
        self.local.push_back((to, to_face, frame));
    }

    /// The timers of the face sending on direction `d` may be due.
    pub(super) fn wake_link(&mut self, d: usize) {
        let mut out = std::mem::take(&mut self.lp_out);
        if let Some(r) = self.net.dirs[d].reliability.as_mut() {
            r.lp.handle_timeout(self.now, &mut out);
        }
        self.apply(d, &mut out);
        self.lp_out = out;
        self.reschedule_link(d);
        self.drain_local();
    }

    /// Does what the reliability of the face sending on `d` asked for.
    fn apply(&mut self, d: usize, out: &mut Vec<Output>) {
        for o in out.drain(..) {
            match o {
                Output::Resend(frame) => {
                    self.net.dirs[d].counters.lp_retx += 1;
                    self.transmit(d, frame);
                }
                Output::Idle(lp) => {
                    self.net.dirs[d].counters.lp_idle += 1;
                    let mut carrier = Frame::new(lp, self.idle_carrier.clone());
                    carrier.net_size = 0;
                    self.transmit(d, carrier);
                }
                Output::GaveUp(frame) => {
                    self.net.dirs[d].counters.lp_gave_up += 1;
                    self.report_loss(d, frame);
                }
            }
        }
    }

    /// PCON §3.5: a frame the face sending on `d` gave up on becomes a Nack(Congestion) for the
    /// node waiting for an answer (see the module comment).
    fn report_loss(&mut self, d: usize, frame: Frame) {
        let mark = match self.net.dirs[d].chain.loss_detection {
            LossDetection::None => return,
            LossDetection::Overlay => 1,
            LossDetection::Wireless => 0,
        };
        match frame.packet {
            NetPacket::Interest(interest) => self.nack_to_sender(d, interest, mark),
            NetPacket::Data(data) => self.put_on(d, data_loss_report(&data, mark)),
            NetPacket::Nack(_) => {}
        }
    }

    fn reschedule_link(&mut self, d: usize) {
        let now = self.now;
        let Some(r) = self.net.dirs[d].reliability.as_mut() else { return };
        if let Some(t) = r.lp.poll_timeout() {
            let t = t.max(now);
            if t < r.wake_at || r.wake_at <= now {
                r.wake_at = t;
                self.events.schedule(t, Event::LinkWake(d as u32));
            }
        }
    }
}
