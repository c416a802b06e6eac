//! The forwarder's Data pipelines (NFD daemon/fw/forwarder.cpp: incoming Data, outgoing Data,
//! and the satisfied side of Interest finalize), with PCON's marks on the Data sent down
//! (Algorithm 2; the module comment of `forwarder.rs` says how they travel).

use std::sync::Arc;

use smallvec::SmallVec;

use super::{Downstreams, Forwarder, Outbox};
use crate::fw::ext::DataCopy;
use crate::fw::log::{note, FwEvent, FwRecord};
use crate::fw::strategy::StrategyCtx;
use crate::packet::{Data, DataOrigin, Frame, LpHeader, PrefixAnnouncement};
use crate::table::{FaceId, PitId};
use crate::Time;

impl Forwarder {
    /// `net_size`, `pit_hint` and `origin` are the frame's.
    pub(super) fn on_incoming_data(
        &mut self,
        now: Time,
        in_face: FaceId,
        data: Arc<Data>,
        lp: &LpHeader,
        (net_size, pit_hint, origin): (u32, u32, DataOrigin),
        out: &mut Outbox,
    ) {
        self.counters.in_data += 1;
        note(&mut self.log, || FwRecord::new(now, FwEvent::IncomingData, &data.name).face_in(in_face).lp(lp));
        let mut matches: SmallVec<[PitId; 2]> = SmallVec::new();
        self.pit.find_for_data_hinted(&data.name, pit_hint, &mut matches);
        if matches.is_empty() {
            // NFD's default unsolicited-Data policy: drop, and do not cache.
            self.counters.unsolicited_data += 1;
            note(&mut self.log, || FwRecord::new(now, FwEvent::UnsolicitedData, &data.name).face_in(in_face));
            return;
        }
        if self.cs.is_enabled() {
            self.cache(now, &data);
        }
        let mut downstreams = Downstreams::new();
        // The link-header flags the strategies let the Data take downstream, and the prefix
        // announcement one of them puts on it (self-learning).
        let mut data_flags = 0;
        let mut announcement = None;
        for id in matches {
            let Some(entry) = self.pit.get(id) else { continue };
            let si = self.strategy_index(entry.name());
            let ctx = StrategyCtx { now, faces: &self.faces, fib: &self.fib };
            self.strategies[si].before_satisfy_interest(&ctx, entry, in_face, &data, lp);
            if entry.is_satisfied() {
                // A late copy: the strategy has seen it (and the CS has it); nobody waits for it.
                if let Some(e) = self.pit.get_mut(id) {
                    e.out_records.retain(|o| o.face != in_face);
                }
                continue;
            }
            data_flags |= self.strategies[si].after_receive_data_lp(&ctx, entry, in_face, lp, &mut announcement).flags;
            let pit_marked = entry.out_records.iter().any(|o| o.congested);
            for r in &entry.in_records {
                if let Some(c) = self.face_counters.get_mut(r.face.index()) {
                    c.satisfied += 1;
                }
                if r.face == in_face || r.expiry <= now {
                    continue;
                }
                let congested = r.congested || pit_marked;
                match downstreams.iter_mut().find(|(f, _, _)| *f == r.face) {
                    Some((_, marked, _)) => *marked |= congested,
                    None => downstreams.push((r.face, congested, r.pit_hint)),
                }
            }
            if self.log.is_some() {
                self.note_satisfied(now, si, id);
            }
            self.on_satisfied(now, id, in_face);
        }
        let carried = (lp, data_flags, announcement.as_ref(), net_size, origin);
        self.on_outgoing_data(now, in_face, data, carried, downstreams, out);
    }

    /// Outgoing Data pipeline: one copy of `data`, which arrived on `in_face` with `lp`, to each
    /// downstream, carrying the congestion mark (PCON Algorithm 2), the strategies' `flags` and
    /// `announcement` (self-learning), and what the extensions write; `origin` goes on unchanged
    /// (the simulator counts the hops).
    /// Stores a Data the PIT asked for. Out of line: a node without a store (most multipath
    /// routers) keeps the incoming-Data pipeline as small as it was.
    #[inline(never)]
    fn cache(&mut self, now: Time, data: &Arc<Data>) {
        match self.cs.room_for_one() {
            Ok(()) => self.cs.insert(now, data.clone()),
            // Not cached; the Data still goes downstream, and the driver ends the run after this
            // packet with what it computed (`out_of_memory`).
            Err(e) => {
                self.out_of_memory.get_or_insert(e);
            }
        }
    }

    fn on_outgoing_data(
        &mut self,
        now: Time,
        in_face: FaceId,
        data: Arc<Data>,
        (lp, flags, announcement, net_size, origin): (&LpHeader, u64, Option<&PrefixAnnouncement>, u32, DataOrigin),
        downstreams: Downstreams,
        out: &mut Outbox,
    ) {
        // The last downstream takes the Data itself: no reference-count traffic in the usual case
        // of one downstream.
        let last = downstreams.len().saturating_sub(1);
        let mut data = Some(data);
        for (k, (face, congested, pit_hint)) in downstreams.into_iter().enumerate() {
            let Some(packet) = (if k == last { data.take() } else { data.clone() }) else { break };
            self.counters.out_data += 1;
            // Same Data, same size: no need to re-measure it.
            let mut lp_out = outgoing_data_lp(lp, congested, flags);
            if let Some(a) = announcement {
                lp_out.ext_mut().prefix_announcement = Some(a.clone());
            }
            let ctx = StrategyCtx { now, faces: &self.faces, fib: &self.fib };
            let copy = DataCopy { in_face, out_face: face, aggregated: k > 0 };
            for ext in &mut self.extensions {
                ext.outgoing_data(&ctx, copy, lp, &mut lp_out);
            }
            note(&mut self.log, || FwRecord::new(now, FwEvent::OutgoingData, &packet.name).face_out(face).lp(&lp_out));
            self.send(face, Frame::data_sized(lp_out, packet, net_size, pit_hint, origin), out);
        }
    }

    /// Hands `frame` to `face`, counting it there.
    pub(super) fn send(&mut self, face: FaceId, frame: Frame, out: &mut Outbox) {
        if let Some(c) = self.face_counters.get_mut(face.index()) {
            c.count_out(&frame);
        }
        out.push((face, frame));
    }

    /// Data from `in_face` satisfied entry `id`: it goes, or stays for the straggler time without
    /// downstreams and without the upstream that answered.
    fn on_satisfied(&mut self, now: Time, id: PitId, in_face: FaceId) {
        if self.straggler == Time::ZERO {
            return self.pit.discard(id);
        }
        let Some(e) = self.pit.get_mut(id) else { return };
        e.in_records.clear();
        e.out_records.retain(|o| o.face != in_face);
        self.pit.set_expiry(id, now + self.straggler);
    }
}

/// The link header of a Data sent downstream (PCON Algorithm 2 lines 5-9): marked if it arrived
/// marked or the downstream's Interest arrived marked. A mark made here starts the distance count
/// afresh (no hop count: the next router is one hop from the congested link); a passed-on mark
/// counts one more forwarder. `flags`: what the strategies let the Data take downstream.
fn outgoing_data_lp(lp: &LpHeader, congested_downstream: bool, flags: u64) -> LpHeader {
    if congested_downstream {
        LpHeader { congestion_mark: 1, flags, ..Default::default() }
    } else if lp.congestion_mark != 0 {
        LpHeader {
            congestion_mark: lp.congestion_mark,
            hop_count: Some(lp.hop_count.unwrap_or(0) + 1),
            flags,
            ..Default::default()
        }
    } else {
        LpHeader { flags, ..Default::default() }
    }
}
