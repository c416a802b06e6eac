//! The forwarder's side of the forwarding log (`fw/log.rs`): installing it, handing its records to
//! the driver, and what only the log asks of the strategies (their forwarding percentages, PCON
//! §3.4).

use super::Forwarder;
use crate::fw::log::NackDecisionKind;
use crate::fw::log::{note, DecisionKind, Detail, ForwardingLog, FwEvent, FwRecord};
use crate::fw::strategy::{InterestDecision, NackDecision, StrategyCtx};
use crate::packet::Interest;
use crate::table::{FaceId, PitId};
use crate::{Name, Time};

impl Forwarder {
    /// Turns the forwarding log on (`Some`) or off (`None`, the default).
    pub fn set_log(&mut self, log: Option<ForwardingLog>) {
        self.log = log.map(Box::new);
    }

    /// The log, to take its records (`ForwardingLog::drain`) after each call into the forwarder.
    pub fn log_mut(&mut self) -> Option<&mut ForwardingLog> {
        self.log.as_deref_mut()
    }

    /// Logs the forwarding percentages of the FIB prefix under which `name` falls when strategy
    /// `si` has changed them since they were last logged. Only with a log on.
    pub(super) fn note_shares(&mut self, now: Time, si: usize, name: &Name) {
        let Some(log) = self.log.as_deref_mut() else { return };
        let Some((_, fib)) = self.fib.longest_prefix_match(name) else { return };
        let ctx = StrategyCtx { now, faces: &self.faces, fib: &self.fib };
        let shares = self.strategies[si].forwarding_shares(&ctx, &fib.prefix);
        if !shares.is_empty() && log.shares_changed(&fib.prefix, &shares) {
            log.push_unfiltered(
                FwRecord::new(now, FwEvent::ForwardingShares, &fib.prefix).detail(Detail::Shares(shares)),
            );
        }
    }
}

impl Forwarder {
    /// Logs strategy `si`'s afterReceiveInterest decision on the Interest from `in_face`, and the
    /// percentages it may have moved (PCON shifts traffic back there).
    pub(super) fn note_decision(
        &mut self,
        now: Time,
        si: usize,
        in_face: FaceId,
        interest: &Interest,
        decision: &InterestDecision,
    ) {
        let strategy = &self.strategies[si];
        let detail = Detail::Decision {
            strategy: strategy.name(),
            decision: match decision {
                InterestDecision::Forward(faces) => DecisionKind::Forward(faces.len() as u32),
                InterestDecision::Reject(reason) => DecisionKind::Reject(*reason),
                InterestDecision::Suppress => DecisionKind::Suppress,
                InterestDecision::Probe { .. } => DecisionKind::Forward(2),
            },
            reason: strategy.decision_reason(),
        };
        self.note_strategy(now, si, (FwEvent::StrategyDecision, detail), in_face, interest);
    }

    /// Logs that Data satisfied entry `id` (NFD's onInterestFinalize, satisfied), and the
    /// percentages strategy `si` may have moved on it (PCON's reaction to a mark).
    pub(super) fn note_satisfied(&mut self, now: Time, si: usize, id: PitId) {
        let Some(entry) = self.pit.get(id) else { return };
        let name = entry.name().clone();
        note(&mut self.log, || {
            FwRecord::new(now, FwEvent::InterestFinalize, &name)
                .detail(Detail::Finalize { satisfied: true, cause: "data" })
        });
        self.note_shares(now, si, &name);
    }
}

impl Forwarder {
    /// Logs strategy `si`'s afterReceiveNack decision on the Nack from `in_face`, and the
    /// percentages it may have moved (PCON §3.5 reacts to marked Nacks).
    pub(super) fn note_nack_decision(
        &mut self,
        now: Time,
        si: usize,
        in_face: FaceId,
        interest: &Interest,
        decision: &NackDecision,
    ) {
        let detail = Detail::NackDecision {
            strategy: self.strategies[si].name(),
            decision: match decision {
                NackDecision::Wait => NackDecisionKind::Wait,
                NackDecision::Forward(faces) => NackDecisionKind::Retry(faces.len() as u32),
                NackDecision::NackDownstream(reason) => NackDecisionKind::NackDownstream(*reason),
            },
        };
        self.note_strategy(now, si, (FwEvent::NackDecision, detail), in_face, interest);
    }

    /// Logs strategy `si`'s decision on `interest` from `in_face`, then the percentages it may have
    /// moved.
    fn note_strategy(
        &mut self,
        now: Time,
        si: usize,
        (event, detail): (FwEvent, Detail),
        in_face: FaceId,
        interest: &Interest,
    ) {
        note(&mut self.log, || {
            FwRecord::new(now, event, &interest.name).face_in(in_face).nonce(interest.nonce).detail(detail)
        });
        self.note_shares(now, si, &interest.name);
    }
}
