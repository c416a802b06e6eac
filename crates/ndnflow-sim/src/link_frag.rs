//! The link side of NDNLPv2 fragmentation (`ndnflow_core::link::frag`, docs/protocols/links.md
//! "Fragmentation"): a direction with an MTU queues each fragment on its own, counts a network
//! packet once (sent when all its fragments left, dropped when any was dropped) and hands the far
//! end only complete packets.
//!
//! Counters of such a direction: `packets` and `bytes` are frames and their bytes on the wire;
//! `interests`, `data`, `nacks`, `drops` and its kinds are network packets; `marks`, `losses` and
//! the sojourn times are per frame (what the queue and the wire did).
//!
//! NFD's congestion marker (`LinkDir::marker`) checks each fragment on its own as it enters the
//! queue, as NFD's `checkCongestionLevel` runs per fragment; a marked fragment grows by the
//! CongestionMark field and its tag records the mark, so a marking queue adds no bytes again.

use ndnflow_core::link::frag::{FragTag, Settled};
use ndnflow_core::link::{NfdMarker, QueueDiscipline, Queued};
use ndnflow_core::packet::Frame;
use ndnflow_core::Time;

use crate::link::LinkDir;

impl LinkDir {
    /// Splits `frame` into fragments and offers each to the queue; a full queue drops the
    /// fragments it cannot take.
    pub(crate) fn enqueue_fragments(&mut self, now: Time, frame: Frame) {
        let Some(frag) = self.frag.as_mut() else { return };
        let mut pieces = std::mem::take(&mut self.pieces);
        if let Err(frame) = frag.split(frame, &mut pieces) {
            // NFD cannot fragment it (MTU too small, over 400 fragments): dropped before the queue.
            self.count_drop(frame.packet.kind());
            self.pieces = pieces;
            return;
        }
        for (mut piece, mut size, mut tag) in pieces.drain(..) {
            let mut marked = false;
            if let Some(m) = self.marker.as_deref_mut() {
                if m.on_send(now, self.queue.len_bytes()) {
                    // A packet sent whole is the bare packet or its own LpPacket; a fragment is
                    // already an LpPacket and gains just the field.
                    size = if tag.count == 1 {
                        NfdMarker::mark_whole(&mut piece, size)
                    } else {
                        NfdMarker::mark_fragment(&mut piece, size)
                    };
                    tag.was_marked = true;
                    marked = true;
                }
            }
            match self.queue.enqueue(now, Queued { frame: piece, size, enqueued_at: now }) {
                Ok(()) => {
                    self.counters.marks += marked as u64;
                    self.frag.as_mut().expect("fragmenting direction").queued(tag)
                }
                Err(_) => self.settle_fragment(tag, true),
            }
        }
        self.pieces = pieces;
    }

    /// Records a fragment's fate and counts its packet once the fate of all its fragments is
    /// known.
    pub(crate) fn settle_fragment(&mut self, tag: FragTag, dropped: bool) {
        let Some(frag) = self.frag.as_mut() else { return };
        match frag.settle(tag, dropped) {
            Some(Settled::Sent(kind)) => self.count_sent(kind),
            Some(Settled::Dropped(kind)) => self.count_drop(kind),
            None => {}
        }
    }

    /// Takes the frame at the head of the in-flight FIFO, which has reached the far end: the
    /// network packet to deliver, or `None` while it is an incomplete fragment train.
    pub fn pop_arrival(&mut self) -> Option<Frame> {
        let (_, frame) = self.in_flight.pop_front()?;
        match self.frag.as_mut() {
            None => Some(frame),
            Some(f) => f.reassemble(frame),
        }
    }
}
