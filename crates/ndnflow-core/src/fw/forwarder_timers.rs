//! The forwarder's timers, as the driver sees them: PIT entries that expire (NFD's Interest
//! finalize on expiry) and the strategies' own timers (what NFD strategies arm on the scheduler:
//! probes, rate updates, measurements cleanup). One deadline for both, in the quinn-proto shape
//! the consumers use: `poll_timeout` says when, `handle_timeout` acts then.

use super::{Forwarder, Outbox};
use crate::fw::strategy::{StrategyAction, StrategyCtx};
use crate::packet::LpHeader;
use crate::Time;

impl Forwarder {
    /// When to call `handle_timeout` next: never later than the next PIT expiry or strategy timer,
    /// possibly earlier (an early call finds nothing due and costs nothing).
    pub fn poll_timeout(&mut self) -> Option<Time> {
        let mut next = self.pit.next_expiry();
        for strategy in &self.strategies {
            if let Some(t) = strategy.next_timer() {
                next = Some(next.map_or(t, |n| n.min(t)));
            }
        }
        next
    }

    /// Finalises every PIT entry that has expired by `now` (NFD: Interest finalize, unsatisfied),
    /// then fires the strategies' timers due by `now`, in the order the strategies were installed,
    /// and carries out what they ask. Expiries first: a timer then sees the PIT without the
    /// entries that are over.
    pub fn handle_timeout(&mut self, now: Time, out: &mut Outbox) {
        self.expire_pit_entries(now);
        for si in 0..self.strategies.len() {
            if self.strategies[si].next_timer().is_some_and(|t| t <= now) {
                self.fire_strategy_timers(now, si, out);
            }
        }
    }

    fn fire_strategy_timers(&mut self, now: Time, si: usize, out: &mut Outbox) {
        let mut actions = std::mem::take(&mut self.actions);
        let ctx = StrategyCtx { now, faces: &self.faces, fib: &self.fib };
        self.strategies[si].on_timer(&ctx, &mut actions);
        for action in actions.drain(..) {
            match action {
                StrategyAction::SendInterest { interest, face } => {
                    let pending =
                        self.pit.find(&interest).filter(|&id| self.pit.get(id).is_some_and(|e| !e.is_satisfied()));
                    if let Some(id) = pending {
                        self.on_outgoing_interest(now, id, face, LpHeader::default(), out);
                    }
                }
            }
        }
        self.actions = actions;
    }

    fn expire_pit_entries(&mut self, now: Time) {
        while let Some(id) = self.pit.pop_expired(now) {
            if let Some(entry) = self.pit.remove(id) {
                if entry.is_satisfied() {
                    continue; // its straggler time is over
                }
                self.counters.expired += 1;
                for r in &entry.in_records {
                    if let Some(c) = self.face_counters.get_mut(r.face.index()) {
                        c.timed_out += 1;
                    }
                }
                let si = self.strategy_index(entry.name());
                let ctx = StrategyCtx { now, faces: &self.faces, fib: &self.fib };
                self.strategies[si].on_interest_expired(&ctx, &entry);
                self.on_interest_finalize(now, &entry, "expired");
            }
        }
    }
}
