//! A bounded PIT shared fairly among downstream faces: the defence of `ndnflow fwd` against an
//! Interest flood from one face (issue 25 item 7).
//!
//! NFD's PIT has no bound; a daemon on a real network needs one (`pit_capacity`), and a bound alone
//! hands the table to whoever fills it first: a face sending Interests that are never answered
//! holds every entry until they expire, and an honest consumer on another face finds no room.
//! Afanasyev et al., "Interest flooding attack and countermeasures in Named Data Networking"
//! (IFIP Networking 2013, §IV), answer with per-face fairness of the PIT. We take that idea in its
//! simplest form, the "longest queue drop" of fair buffer sharing, with no rate or threshold to
//! tune: when the table is full, an Interest that needs a new entry takes the oldest entry of the
//! face that opened the most, provided that face would still hold at least as many as the
//! newcomer's face afterwards; otherwise it is refused. A face alone can use the whole table; k
//! busy faces end with about a k-th each; a face never sheds its own entries.
//!
//! A shed entry ends as an expired one does (the strategy hears `on_interest_expired`, the Dead
//! Nonce List keeps its nonces), and each downstream waiting on it gets a Nack(Congestion); a
//! refused Interest gets one too. A consumer then retransmits, or slows down, at once instead of
//! waiting out its timer (ndncatchunks and our consumer retransmit on a Nack(Congestion) and
//! decrease their window), which is most of what an honest consumer keeps of its goodput: refused
//! in silence, its Interests time out one RTO each. NFD has no such Nack, since its PIT has no
//! bound; Congestion is the reason NDNLPv2 gives for a forwarder short of resources. The Nack
//! costs one packet out per refused Interest, no more than came in.

use std::sync::Arc;

use super::{Forwarder, Outbox};
use crate::packet::{Frame, Interest, NackReason, NetPacket};
use crate::table::{FaceId, PitId};
use crate::Time;

/// Whether an Interest may go on to the pipelines under the PIT's bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PitRoom {
    /// The table has room, the PIT has no bound, or the Interest joins an entry that exists.
    Free,
    /// The table was full: the oldest entry opened by this face was shed to make room.
    Shed(FaceId),
    /// The table is full and the newcomer's face holds its share: the Interest is refused with a
    /// Nack(Congestion), put in the outbox; the caller drops it.
    Full,
}

impl Forwarder {
    /// Bounds the PIT at `capacity` entries, shared among faces as the module comment says. Call
    /// before the first Interest: entries already pending count for no face.
    pub fn set_pit_capacity(&mut self, capacity: usize) {
        self.pit_capacity = Some(capacity);
        self.pit.track_openers();
    }

    /// `handle` under the PIT's bound: an Interest that needs a new entry first needs room
    /// (`room_for_interest`), and the entry it opens is noted as its face's. The simulator calls
    /// `handle` itself, so its pipelines carry none of this.
    pub fn handle_bounded(&mut self, now: Time, face: FaceId, frame: Frame, out: &mut Outbox) -> PitRoom {
        let NetPacket::Interest(interest) = &frame.packet else {
            self.handle(now, face, frame, out);
            return PitRoom::Free;
        };
        let interest = interest.clone();
        // A satisfied entry only lingers: the pipeline replaces it with a new one.
        let opens = self.pit.find(&interest).is_none_or(|id| self.pit.get(id).is_some_and(|e| e.is_satisfied()));
        let room = self.room_for_interest(now, face, &interest, out);
        if room == PitRoom::Full {
            return room;
        }
        self.handle(now, face, frame, out);
        if opens {
            // None when the Content Store answered (the entry came and went) or the Interest was
            // dropped (a loop, an exhausted HopLimit).
            if let Some(id) = self.pit.find(&interest).filter(|&id| self.pit.get(id).is_some_and(|e| !e.is_satisfied()))
            {
                self.pit.note_opener(id, face);
            }
        }
        room
    }

    /// Makes room, if the bound allows, for `interest` arriving from `face`; to call before
    /// `handle` (`handle_bounded` does). Nacks for a shed entry's downstreams, or for a refused
    /// `interest`, go to `out`.
    pub fn room_for_interest(
        &mut self,
        now: Time,
        face: FaceId,
        interest: &Arc<Interest>,
        out: &mut Outbox,
    ) -> PitRoom {
        let Some(capacity) = self.pit_capacity else { return PitRoom::Free };
        if self.pit.len() < capacity || self.pit.find(interest).is_some() {
            return PitRoom::Free;
        }
        let mine = self.pit.opened_by(face);
        let victim = match self.pit.largest_opener() {
            // After the exchange the largest still holds at least as many as the newcomer's face.
            Some((largest, n)) if largest != face && n >= mine + 2 => {
                self.pit.oldest_opened_by(largest).map(|id| (largest, id))
            }
            _ => None,
        };
        match victim {
            Some((largest, id)) => {
                self.shed(now, id, out);
                PitRoom::Shed(largest)
            }
            None => {
                self.on_outgoing_nack(now, face, interest.clone(), NackReason::Congestion, 0, out);
                PitRoom::Full
            }
        }
    }

    /// Ends entry `id` unsatisfied to free its slot, Nacking its downstreams.
    fn shed(&mut self, now: Time, id: PitId, out: &mut Outbox) {
        let Some(entry) = self.pit.remove(id) else { return };
        if entry.is_satisfied() {
            return; // it only lingered for stragglers: nobody waits on it
        }
        let si = self.strategy_index(entry.name());
        let ctx = super::StrategyCtx { now, faces: &self.faces, fib: &self.fib };
        self.strategies[si].on_interest_expired(&ctx, &entry);
        self.on_interest_finalize(now, &entry, "shed");
        for record in &entry.in_records {
            self.on_outgoing_nack(now, record.face, record.interest.clone(), NackReason::Congestion, 0, out);
        }
    }
}

#[cfg(test)]
#[path = "forwarder_pit_share_tests.rs"]
mod tests;
