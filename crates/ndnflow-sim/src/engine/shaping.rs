//! The engine's side of Interest shaping (PCON §4.6, docs/protocols/shaper.md): Interests sent on
//! a shaped direction wait in its shaper, which releases them at their pacing instants (a
//! `ShaperWake` event); Data delivered over the reverse direction update the shaper's size
//! estimate; an Interest the shaper drops comes back to its sender at once as a marked
//! Nack(Congestion). None of this runs on unshaped links.

use ndnflow_core::fw::log::FwEvent;
use ndnflow_core::packet::{Frame, NetPacket};
use ndnflow_core::Time;

use super::Simulation;
use crate::events::Event;

impl Simulation {
    /// An Interest sent on shaped direction `d` waits in its shaper, which lets it go now if it is
    /// open; a full shaper queue drops it (Nacked at once).
    // Off the path of unshaped links: kept out of line so the hot callers stay as they were.
    #[cold]
    #[inline(never)]
    pub(super) fn shape(&mut self, d: usize, frame: Frame) {
        let now = self.now;
        let Some(s) = self.net.dirs[d].shaper.as_mut() else { return self.put_on(d, frame) };
        if let Err(frame) = s.shaper.enqueue(now, frame) {
            self.shaper_drop(d, frame);
        }
        self.release_shaped(d);
    }

    /// Releases what shaped direction `d`'s shaper lets go at this instant onto the direction,
    /// Nacks what its CoDel drops, and schedules its next release.
    // Off the path of unshaped links: kept out of line so the hot callers stay as they were.
    #[cold]
    #[inline(never)]
    pub(super) fn release_shaped(&mut self, d: usize) {
        let now = self.now;
        let mut dropped = std::mem::take(&mut self.shaper_dropped);
        while let Some(frame) = self.net.dirs[d].shaper.as_mut().and_then(|s| s.shaper.release(now, &mut dropped)) {
            self.put_on(d, frame);
        }
        for frame in dropped.drain(..) {
            self.shaper_drop(d, frame);
        }
        self.shaper_dropped = dropped;
        let Some(s) = self.net.dirs[d].shaper.as_mut() else { return };
        if let Some(t) = s.shaper.poll_release() {
            let t = t.max(now);
            if t < s.wake_at || s.wake_at <= now {
                s.wake_at = t;
                self.events.schedule(t, Event::ShaperWake(d as u32));
            }
        }
    }

    /// An Interest the shaper of direction `d` dropped: counted on `d`, and a marked
    /// Nack(Congestion) goes back to its sender at once (the shaper knows of the drop locally).
    fn shaper_drop(&mut self, d: usize, frame: Frame) {
        if self.net.dirs[d].log.is_some() {
            self.net.dirs[d].note_queue(self.now, FwEvent::QueueDrop, &frame, "shaper", Time::ZERO);
            self.take_link_log(d);
        }
        self.net.dirs[d].count_shaper_drop(&frame);
        if let NetPacket::Interest(interest) = frame.packet {
            self.nack_to_sender(d, interest, 1);
        }
    }

    /// A Data delivered over the reverse of shaped direction `s` updates its size estimate.
    // Off the path of unshaped links: kept out of line so the hot callers stay as they were.
    #[cold]
    #[inline(never)]
    pub(super) fn data_for_shaper(&mut self, s: usize, frame: &Frame) {
        if let (NetPacket::Data(_), Some(sh)) = (&frame.packet, self.net.dirs[s].shaper.as_mut()) {
            sh.shaper.on_data(frame.wire_size());
        }
    }
}
