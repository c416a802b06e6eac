//! A link direction's part of the forwarding log (docs/protocols/forwarder.md, "Forwarding log"):
//! the drops and congestion marks of its output queue, and at trace level every packet it takes in
//! and sends, as NFD's face system would report them at the sending node. The direction keeps the
//! records in a `ForwardingLog` of its own, which the engine takes right after each call that can
//! add one, so that they interleave in order with the forwarders' records.
//!
//! Not logged: fragments of a direction with an MTU (a fragment is not a packet of the log's
//! names) and IDLE packets of link reliability. Kept out of line: a direction without a log pays
//! one branch on `None` per queue step.

use ndnflow_core::fw::log::{Detail, FwEvent, FwRecord};
use ndnflow_core::link::{Queue, QueueDiscipline};
use ndnflow_core::packet::{Frame, PacketKind};
use ndnflow_core::Time;

use crate::link::{is_idle, LinkDir};

/// Why a queue refused a packet on arrival: REM drops early on purpose; every other discipline
/// here refuses only when full.
pub(crate) fn refusal(queue: &Queue) -> &'static str {
    match queue {
        Queue::Rem(_) => "REM drop",
        _ => "queue full",
    }
}

impl LinkDir {
    /// Logs `event` for `frame` at `now`, when the direction has a log, the packet is a network
    /// packet, and the event is a drop or mark or the log asks for every queue step.
    #[cold]
    #[inline(never)]
    pub(crate) fn note_queue(&mut self, now: Time, event: FwEvent, frame: &Frame, cause: &'static str, sojourn: Time) {
        let queued = self.queue.len_packets() as u32;
        let Some(log) = self.log.as_deref_mut() else { return };
        let step = matches!(event, FwEvent::QueueEnqueue | FwEvent::QueueDeparture);
        if is_idle(frame) || (step && !log.queue_steps) {
            return;
        }
        let packet = match frame.packet.kind() {
            PacketKind::Interest => "Interest",
            PacketKind::Data => "Data",
            PacketKind::Nack => "Nack",
        };
        let nonce = match &frame.packet {
            ndnflow_core::packet::NetPacket::Interest(i) => i.nonce,
            _ => None,
        };
        log.push(
            FwRecord::new(now, event, frame.packet.name())
                .face_out(self.from_face)
                .nonce(nonce)
                .detail(Detail::Queue { packet, cause, sojourn, queued }),
        );
    }
}

impl LinkDir {
    /// The queue took `frame` in, marking it on arrival (NFD's send-queue marker) or not.
    #[cold]
    #[inline(never)]
    pub(crate) fn note_enqueued(&mut self, now: Time, frame: &Frame, marked: bool) {
        if marked {
            self.note_queue(now, FwEvent::QueueMark, frame, "NFD marker", Time::ZERO);
        }
        self.note_queue(now, FwEvent::QueueEnqueue, frame, "", Time::ZERO);
    }

    /// `frame` leaves the queue after `sojourn`, marked at departure (CoDel) or not.
    #[cold]
    #[inline(never)]
    pub(crate) fn note_departure(&mut self, now: Time, frame: &Frame, sojourn: Time, marked: bool) {
        if marked {
            self.note_queue(now, FwEvent::QueueMark, frame, "AQM mark", sojourn);
        }
        self.note_queue(now, FwEvent::QueueDeparture, frame, "", sojourn);
    }
}
