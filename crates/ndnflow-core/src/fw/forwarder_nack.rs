//! The forwarder's Nack pipelines (NFD daemon/fw/forwarder.cpp: incoming and outgoing Nack), and
//! the Nack a link's loss detection stands in for (PCON §3.5).

use std::sync::Arc;

use smallvec::SmallVec;

use super::{Forwarder, Outbox};
use crate::fw::log::{note, Detail, FwEvent, FwRecord, LpSummary};
use crate::fw::strategy::{NackDecision, StrategyCtx};
use crate::packet::{Data, Frame, Interest, LpHeader, Nack, NackReason};
use crate::table::{FaceId, PitId};
use crate::Time;

impl Forwarder {
    /// The link behind `face` reports that Data sent to us was lost on the way (PCON §3.5 local
    /// link loss detection): each PIT entry it would have satisfied gets a Nack(Congestion) from
    /// that upstream, with the congestion mark `mark`, as if the upstream had sent it.
    pub fn handle_lost_data(&mut self, now: Time, face: FaceId, data: &Data, mark: u64, out: &mut Outbox) {
        let mut matches: SmallVec<[PitId; 2]> = SmallVec::new();
        self.pit.find_for_data(&data.name, &mut matches);
        for id in matches {
            let Some(entry) = self.pit.get(id) else { continue };
            let Some(o) = entry.out_record(face) else { continue };
            // The Nack names the Interest this node sent that way (its nonce), as a real one would.
            let mut interest = Interest::clone(entry.interest());
            interest.nonce = Some(o.nonce);
            let nack = Arc::new(Nack { reason: NackReason::Congestion, interest: Arc::new(interest) });
            let lp = LpHeader { congestion_mark: mark, ..Default::default() };
            // Counted on the face as a Nack received there, which it stands for.
            if let Some(c) = self.face_counters.get_mut(face.index()) {
                c.count_in(&Frame::nack(nack.clone()));
            }
            self.on_incoming_nack(now, face, nack, &lp, out);
        }
    }

    /// Incoming Nack pipeline: the strategy decides (wait, retry elsewhere, or Nack downstream).
    pub(super) fn on_incoming_nack(
        &mut self,
        now: Time,
        in_face: FaceId,
        nack: Arc<Nack>,
        lp: &LpHeader,
        out: &mut Outbox,
    ) {
        self.counters.in_nacks += 1;
        note(&mut self.log, || {
            FwRecord::new(now, FwEvent::IncomingNack, &nack.interest.name)
                .face_in(in_face)
                .nonce(nack.interest.nonce)
                .detail(Detail::Nack { reason: nack.reason, lp: LpSummary::of(lp) })
        });
        let Some(id) = self.pit.find(&nack.interest) else { return };
        let nonce = nack.interest.nonce.unwrap_or(0);
        let Some(entry) = self.pit.get_mut(id) else { return };
        if entry.is_satisfied() {
            return; // answered already: nothing to retry, nobody to tell
        }
        match entry.out_record_mut(in_face) {
            // A Nack only counts for the Interest we actually sent upstream.
            Some(o) if o.nonce == nonce => o.nack = Some(nack.reason),
            _ => return,
        }
        let si = self.strategy_index(&nack.interest.name);
        let fib = self.fib.longest_prefix_match(&nack.interest.name).map(|(_, e)| e);
        let ctx = StrategyCtx { now, faces: &self.faces, fib: &self.fib };
        let Some(entry) = self.pit.get_mut(id) else { return };
        let decision = self.strategies[si].after_receive_nack(&ctx, in_face, &nack, lp, entry, fib);
        if self.log.is_some() {
            self.note_nack_decision(now, si, in_face, &nack.interest, &decision);
        }
        match decision {
            NackDecision::Wait => {}
            NackDecision::Forward(faces) => {
                // The retried Interest is new traffic: the Nack's congestion mark stays behind.
                for face in faces {
                    self.on_outgoing_interest(now, id, face, LpHeader::default(), out);
                }
            }
            // The mark does travel down with the Nack: PCON (§3.5) reacts to marked Nacks.
            NackDecision::NackDownstream(reason) => {
                let Some(entry) = self.pit.remove(id) else { return };
                for r in &entry.in_records {
                    self.on_outgoing_nack(now, r.face, r.interest.clone(), reason, lp.congestion_mark, out);
                }
                self.on_interest_finalize(now, &entry, "nacked");
            }
        }
    }

    /// Outgoing Nack pipeline.
    pub(super) fn on_outgoing_nack(
        &mut self,
        now: Time,
        face: FaceId,
        interest: Arc<Interest>,
        reason: NackReason,
        mark: u64,
        out: &mut Outbox,
    ) {
        self.counters.out_nacks += 1;
        note(&mut self.log, || {
            let lp = LpSummary { mark, ..Default::default() };
            FwRecord::new(now, FwEvent::OutgoingNack, &interest.name)
                .face_out(face)
                .nonce(interest.nonce)
                .detail(Detail::Nack { reason, lp })
        });
        let mut frame = Frame::nack(Arc::new(Nack { reason, interest }));
        frame.lp.congestion_mark = mark;
        self.send(face, frame, out);
    }
}
