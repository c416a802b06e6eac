//! The consumer's retransmission timeouts (see `consumer.rs`'s module comment): RFC 6298's
//! per-Interest timers with Karn's rule and one backoff per loss episode, ndnSIM's periodic check
//! (`TimerModel::NdnSim`), a multipath transport's restarted path timers, and the queue of
//! resends that timeouts, Nacks and path losses feed.

use rustc_hash::FxHashMap;

use super::{Consumer, Outstanding, Retry};
use crate::app::cc::Controller;
use crate::app::rtt::TimerModel;
use crate::grow::{Grow, OutOfMemory};
use crate::Time;

impl Consumer {
    /// Room for one more Interest's outstanding record and timer (`crate::grow`).
    pub(super) fn room_for_send(&mut self) -> Result<(), OutOfMemory> {
        self.outstanding.room_for_one("outstanding Interests")?;
        self.timers.room_for_one("retransmission timers")
    }

    /// The first growth the allocator refused, if any: the consumer stopped sending there.
    pub fn out_of_memory(&self) -> Option<OutOfMemory> {
        self.out_of_memory
    }

    /// A multipath transport's later deadline for a timer that came due (its path's timer
    /// restarted since the Interest left); `None`: the Interest times out now.
    pub(super) fn restarted_deadline(&self, now: Time, seg: u64, o: Outstanding) -> Option<Time> {
        let Controller::Multipath(m) = &self.cc else { return None };
        m.restarted_deadline(seg, o.sent_at).filter(|&t| t > now)
    }

    /// Segments a multipath transport found lost on its paths (by order, or in a flight a timeout
    /// ended): queued as retransmissions, in the order found, before the ones already waiting
    /// (`first`) or after them; they do not count as timeouts.
    pub(super) fn resend_path_losses(&mut self, first: bool) {
        let Controller::Multipath(m) = &mut self.cc else { return };
        let mut lost = Vec::new();
        m.take_lost(&mut lost);
        if first {
            // Each goes to the front: the last one first, so that they leave in the order found.
            lost.reverse();
        }
        for seg in lost {
            let Some(o) = self.outstanding.remove(&seg) else { continue };
            self.counted_in_flight = self.counted_in_flight.saturating_sub(1);
            self.stats.losses += u64::from(!o.nacked);
            self.retry(seg, o, first);
        }
    }

    /// Queues `seg` (last sent as `o`) to go again as attempt `o.retries + 1` (`first`: before the
    /// others waiting), unless it has used up `max_retries`: then it is given up.
    pub(super) fn retry(&mut self, seg: u64, o: Outstanding, first: bool) {
        if self.config.max_retries.is_some_and(|max| o.retries >= max) {
            self.stats.abandoned += 1;
            self.record(seg, &o, o.retries, None);
            return;
        }
        let r = Retry { seg, retries: o.retries + 1, first_sent: o.first_sent, last_sent: o.sent_at };
        if first {
            self.retx_queue.push_front(r);
        } else {
            self.retx_queue.push_back(r);
        }
    }

    /// The check interval of `TimerModel::NdnSim`, `None` for per-Interest timers.
    pub(super) fn check_interval(&self) -> Option<Time> {
        match self.config.rtt.timer {
            TimerModel::NdnSim { check, .. } => Some(check.max(Time::from_nanos(1))),
            TimerModel::PerSegment => None,
        }
    }

    /// ndnSIM's `CheckRetxTimeout`: one RTO, taken before the loop, for every outstanding Interest;
    /// those sent at least that long ago time out, oldest first (ties: lower segment first).
    ///
    /// ndnSIM scans every outstanding Interest at every check. Here a check first compares the
    /// RTO with `oldest_sent`, a time no later than any outstanding Interest's send (lowered at
    /// each send, set exactly by each scan): before it plus the RTO nothing can be due, so the
    /// scan, which would find nothing, is skipped. The timeouts are the same; an overloaded
    /// consumer with hundreds outstanding and a check every 10 ms no longer reads them all.
    pub(super) fn periodic_check(&mut self, now: Time) {
        let rto = self.rtt.rto();
        if self.oldest_sent.saturating_add(rto) > now {
            return;
        }
        let mut due: Vec<(Time, u64)> = Vec::new();
        let mut oldest_left = Time::MAX;
        for (&seg, o) in &self.outstanding {
            if o.sent_at.saturating_add(rto) <= now {
                due.push((o.sent_at, seg));
            } else {
                oldest_left = oldest_left.min(o.sent_at);
            }
        }
        // The due ones leave `outstanding` below (`on_timer`); their resends lower it again.
        self.oldest_sent = oldest_left;
        due.sort_unstable();
        for (_, seg) in due {
            if let Some(o) = self.outstanding.get(&seg).copied() {
                self.on_timer(now, seg, o);
            }
        }
    }

    pub(super) fn on_timer(&mut self, now: Time, seg: u64, o: Outstanding) {
        self.outstanding.remove(&seg);
        self.counted_in_flight = self.counted_in_flight.saturating_sub(1);
        if !o.nacked && self.check_interval().is_some() {
            // ndnSIM's Consumer::OnTimeout: IncreaseMultiplier on every timeout.
            self.stats.timeouts += 1;
            self.rtt.increase_multiplier();
            self.cc.on_timeout(now, seg);
        } else if !o.nacked {
            self.stats.timeouts += 1;
            // Back off once per loss episode, as TCP does with its single timer: Interests sent
            // before the last backoff that time out with it are the same event, not one doubling
            // each (a burst of 60 drops would otherwise push the RTO to its maximum).
            if self.last_backoff.is_none_or(|t| o.sent_at >= t) {
                self.rtt.backoff();
                self.last_backoff = Some(now);
            }
            self.cc.on_timeout(now, seg);
        }
        self.retry(seg, o, false);
        // The rest of a multipath transport's flight that the timeout ended goes after it.
        self.resend_path_losses(false);
    }
}

/// The first multiple of `every` after `now`.
pub(super) fn next_tick(now: Time, every: Time) -> Time {
    let n = every.as_nanos().max(1);
    Time::from_nanos((now.as_nanos() / n + 1).saturating_mul(n))
}

/// A retransmission timer is live while its segment is outstanding with the same attempt and
/// deadline (a Data, a Nack followed by resend, or a give-up makes it dead).
pub(super) fn is_live(outstanding: &FxHashMap<u64, Outstanding>, at: Time, (seg, retries): (u64, u32)) -> bool {
    outstanding.get(&seg).is_some_and(|o| o.retries == retries && o.deadline == at)
}
