//! CoDel (RFC 8289), dropping the head packet or, in mark mode, setting the NDNLPv2 CongestionMark
//! on it instead (PCON §3.1).
//!
//! The state machine follows the RFC's pseudocode (§5): `dodequeue` takes the head packet out,
//! measures its sojourn time and keeps `first_above_time`; `dequeue` runs the `dropping` /
//! `drop_next` / `count` / `lastcount` logic on top; the control law is
//! `drop_next = t + interval / sqrt(count)`.
//!
//! # How mark mode maps onto the RFC's drop points
//!
//! The RFC drops in two places, and mark mode handles them like Linux's `codel_dequeue` does when
//! ECN is on:
//!
//! 1. **Entering the dropping state** (not dropping, `ok_to_drop` true). Drop mode drops the head
//!    packet and takes the next one out with a second `dodequeue`. Mark mode marks the head packet
//!    and returns it; there is no second `dodequeue`. Both then set `dropping`, apply the
//!    `count - lastcount` re-entry rule and schedule `drop_next = now + interval / sqrt(count)`.
//! 2. **A scheduled drop while dropping** (`now >= drop_next`). Drop mode drops the head, takes
//!    the next packet out, leaves the dropping state if that one is fine and otherwise bumps
//!    `count` and advances `drop_next` by the control law, looping while `now >= drop_next`. The
//!    drop that ends the state is therefore not counted: RFC 8289 §5.5 puts `++count` in the
//!    branch that schedules the next drop (Linux counts it before looking at the next packet),
//!    and the re-entry rule reads `count - lastcount`. Mark mode bumps `count`, marks the packet
//!    it is about to return, advances `drop_next` by the control law and returns; it does not
//!    loop, and every mark counts, as in Linux's ECN CoDel: no next packet is looked at. If the control law already put `drop_next` at or before `now`,
//!    the next dequeue marks again, so a backlog still gets one mark per control-law decision but at
//!    most one mark per departing packet. The "leave the dropping state" test that drop mode runs on
//!    the packet after a drop is, in mark mode, simply run by the next call's own `dodequeue`.
//!
//! Why this way: a mark does not remove the packet, so there is no "next packet" to look at within
//! the same departure, and marking several packets per departure is impossible (only one leaves).
//! On the same input, the two modes therefore take their decisions at the same instants as long as
//! the sojourn time stays above target in both (the dropped packets shorten drop mode's queue, so
//! the inputs diverge once the drops themselves pull the queue under target). Mark mode never drops:
//! the only losses are tail drops when the queue is full.
//!
//! # Other choices
//!
//! * `maxpacket` is the largest `size` of any packet accepted so far (updated on enqueue). The RFC's
//!   test is "bytes still queued after taking the head out <= maxpacket": with less than one
//!   full-sized packet waiting, the link cannot be kept busy if we drop, so the sojourn counts as
//!   "below target".
//! * `first_above_time` is an `Option` (the RFC uses 0 as "unset").
//! * The re-entry test `now - drop_next < 16 * interval` saturates at zero when `drop_next` is still
//!   ahead of `now`, which matches Linux's signed comparison (that case counts as "soon").
//! * The control law may use its own interval (`law_interval`). RFC 8289 uses `interval` for both
//!   the detection window and the spacing of drops; PCON §3.2 keeps CoDel's 100 ms detection but
//!   starts the marking interval at 1.1 x the CoDel interval, 110 ms, shrinking as 1/sqrt(marks)
//!   ([`CodelConfig::pcon`]).
//! * A mark also clears the frame's hop count: PCON's f(distance) counts hops from the link that
//!   marked the Data last (docs/protocols/pcon.md), and this link is now the nearest one.
//! * Highly congested state (PCON §3.6, mark mode, when `high_cong_after` is set): entered when the
//!   marking state has lasted `high_cong_after` without the queue draining ("the queue keeps
//!   persisting after many intervals of congestion signaling"), or when a packet is tail-dropped
//!   while marking (the marks are not enough to keep the queue from overflowing); left when the
//!   marking state ends. While in it, every departing Data carries the HIGH_CONG and
//!   HIGH_CONG_LOCAL flags.
//! * Where the signal goes (`signal_on_arrival`, mark mode): by default the mark lands on the
//!   packet whose departure took the decision, as Linux's ECN CoDel does. The authors' ndnSIM fork
//!   decides at dequeue too (`CoDelQueue2`), but only raises a flag there; the forwarder takes the
//!   flag when it next sends a packet to that face (`StrHelper::isCongested` in
//!   `beforeSatisfyInterest` / `afterReceiveInterest`), i.e. the mark rides on the next packet to
//!   *enter* the queue and reaches the receiver one sojourn time later, and is lost if the marking
//!   state has ended by then. `signal_on_arrival` reproduces that placement, and puts PCON §3.6's
//!   flags on arriving Data as well. The link's mark counter counts decisions in both placements.
//! * The control law computes one `sqrt` per decision (each decision has a new `count`, so nothing
//!   is recomputed); packets that pass without a decision cost no floating point at all.

use std::collections::VecDeque;

use super::{Dequeued, Limit, QueueDiscipline, Queued};
use crate::Time;

/// CoDel parameters (RFC 8289 §4.2-4.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CodelConfig {
    /// Acceptable standing sojourn time (RFC 8289 §4.3); default 5 ms.
    pub target: Time,
    /// Window over which the sojourn must stay above target before acting (§4.2); default 100 ms.
    pub interval: Time,
    /// Mark instead of drop (PCON §3.1); default false.
    pub mark: bool,
    /// Interval of the control law `t + law_interval / sqrt(count)`: the spacing of drops or
    /// marks. RFC 8289: the same as `interval` (100 ms); PCON §3.2: 1.1 x interval (110 ms).
    pub law_interval: Time,
    /// PCON §3.6: how long the marking state may last before the queue counts as highly
    /// congested (`None`: never; mark mode only).
    pub high_cong_after: Option<Time>,
    /// Put a mark (and PCON §3.6's flags) on the next packet to *arrive* after the decision
    /// instead of the one leaving (mark mode only); see "Where the signal goes" above.
    pub signal_on_arrival: bool,
}

impl Default for CodelConfig {
    fn default() -> Self {
        CodelConfig {
            target: Time::from_millis(5),
            interval: Time::from_millis(100),
            mark: false,
            law_interval: Time::from_millis(100),
            high_cong_after: None,
            signal_on_arrival: false,
        }
    }
}

impl CodelConfig {
    /// PCON's marking queue (§3.1-3.2): CoDel detection with `target` and `interval`, marks instead
    /// of drops, a marking interval starting at 1.1 x `interval`.
    pub fn pcon(target: Time, interval: Time) -> CodelConfig {
        CodelConfig {
            target,
            interval,
            mark: true,
            law_interval: Time((interval.0 as f64 * 1.1).round() as u64),
            high_cong_after: Some(interval * PCON_HIGH_CONG_INTERVALS),
            signal_on_arrival: false,
        }
    }
}

/// PCON §3.6 gives no number for "many intervals of congestion signaling"; we take ten CoDel
/// intervals (1 s at the defaults): a responsive consumer answers a mark within an RTT, so ten
/// intervals of unbroken marking mean the traffic is not responding.
pub const PCON_HIGH_CONG_INTERVALS: u64 = 10;

impl CodelConfig {
    /// Whether this queue tracks PCON's highly congested state.
    fn tracks_high_cong(&self) -> bool {
        self.mark && self.high_cong_after.is_some()
    }
}

/// A FIFO managed by CoDel, with tail drop at `limit`.
#[derive(Clone, Debug)]
pub struct CodelQueue {
    q: VecDeque<Queued>,
    bytes: usize,
    limit: Limit,
    cfg: CodelConfig,
    /// Largest packet accepted so far, in bytes.
    maxpacket: u32,
    /// When the sojourn time, if it stays above target, makes dropping OK (`None`: below target).
    first_above_time: Option<Time>,
    /// Next scheduled drop (or mark) while `dropping`.
    drop_next: Time,
    /// Drops (marks) since entering the dropping state, including the re-entry carry-over.
    count: u32,
    /// `count` just after the last entry into the dropping state.
    lastcount: u32,
    dropping: bool,
    /// When the current dropping (marking) state began.
    dropping_since: Time,
    /// PCON §3.6 highly congested state.
    high_cong: bool,
    /// A mark decided at a departure, waiting for the next arrival (`signal_on_arrival`).
    pending_mark: bool,
}

impl CodelQueue {
    pub fn new(limit: Limit, cfg: CodelConfig) -> CodelQueue {
        CodelQueue {
            q: VecDeque::with_capacity(limit.initial_capacity()),
            bytes: 0,
            limit,
            cfg,
            maxpacket: 0,
            first_above_time: None,
            drop_next: Time::ZERO,
            count: 0,
            lastcount: 0,
            dropping: false,
            dropping_since: Time::ZERO,
            high_cong: false,
            pending_mark: false,
        }
    }

    /// Whether the queue is in PCON's highly congested state (§3.6).
    pub fn is_highly_congested(&self) -> bool {
        self.high_cong
    }

    pub fn limit(&self) -> Limit {
        self.limit
    }
    pub fn config(&self) -> CodelConfig {
        self.cfg
    }
    /// Whether CoDel is in its dropping (marking) state.
    pub fn is_dropping(&self) -> bool {
        self.dropping
    }
    /// The RFC's `count`.
    pub fn count(&self) -> u32 {
        self.count
    }
    /// The RFC's `lastcount`.
    pub fn lastcount(&self) -> u32 {
        self.lastcount
    }
    /// The RFC's `drop_next` (meaningful while dropping).
    pub fn drop_next(&self) -> Time {
        self.drop_next
    }
    /// Largest packet accepted so far (the RFC's `maxpacket`).
    pub fn maxpacket(&self) -> u32 {
        self.maxpacket
    }

    /// `t + law_interval / sqrt(count)`, rounded to the nearest nanosecond.
    #[inline]
    fn control_law(&self, t: Time, count: u32) -> Time {
        let step = if count <= 1 {
            self.cfg.law_interval
        } else {
            Time((self.cfg.law_interval.0 as f64 / (count as f64).sqrt()).round() as u64)
        };
        t + step
    }

    /// The RFC's `dodequeue`: takes the head packet out and says whether it is OK to drop it.
    #[inline]
    fn do_dequeue(&mut self, now: Time) -> (Option<Queued>, bool) {
        let Some(item) = self.q.pop_front() else {
            // An empty queue cannot be above target.
            self.first_above_time = None;
            return (None, false);
        };
        self.bytes -= item.size as usize;
        let sojourn = now.saturating_sub(item.enqueued_at);
        if sojourn < self.cfg.target || self.bytes <= self.maxpacket as usize {
            // Below target (or too little left to keep the link busy): must stay above for a
            // whole interval again before dropping is allowed.
            self.first_above_time = None;
            return (Some(item), false);
        }
        match self.first_above_time {
            None => {
                self.first_above_time = Some(now + self.cfg.interval);
                (Some(item), false)
            }
            Some(t) => (Some(item), now >= t),
        }
    }

    /// PCON §3.6: a Data leaving a highly congested queue says so, and that the congested link is
    /// the receiver's own.
    fn flag_high_cong(item: &mut Queued) {
        use crate::packet::lp::flags::{HIGH_CONG, HIGH_CONG_LOCAL};
        let both = HIGH_CONG | HIGH_CONG_LOCAL;
        if item.frame.packet.kind() != crate::packet::PacketKind::Data || item.frame.lp.flags & both == both {
            return;
        }
        let before = item.frame.wire_size() as i64;
        item.frame.lp.flags |= both;
        let after = item.frame.wire_size() as i64;
        item.size = (item.size as i64 + after - before).max(0) as u32;
    }

    /// A mark decision: on the departing packet, or (`signal_on_arrival`) saved for the next
    /// arrival. Returns whether the decision counts as a mark (the link's mark counter counts
    /// decisions, so both placements report the same number).
    fn mark_or_defer(&mut self, item: Option<&mut Queued>) -> bool {
        if self.cfg.signal_on_arrival {
            self.pending_mark = true;
            return true;
        }
        match item {
            Some(it) => {
                Self::mark(it);
                true
            }
            None => false,
        }
    }

    /// `signal_on_arrival`: an arriving packet takes a deferred mark while the marking state
    /// lasts, and PCON §3.6's flags while the queue is highly congested.
    fn signal_arrival(&mut self, item: &mut Queued) {
        if self.pending_mark && self.dropping {
            Self::mark(item);
        }
        self.pending_mark = false;
        if self.high_cong {
            Self::flag_high_cong(item);
        }
    }

    /// Sets the congestion mark on the packet about to leave and clears its hop count (this link
    /// is now the nearest congested one), keeping `size` in step with the frame's encoded size.
    fn mark(item: &mut Queued) {
        let lp = &item.frame.lp;
        if lp.congestion_mark != 0 && lp.hop_count.is_none() {
            return;
        }
        let before = item.frame.wire_size() as i64;
        item.frame.lp.congestion_mark = 1;
        item.frame.lp.hop_count = None;
        let after = item.frame.wire_size() as i64;
        item.size = (item.size as i64 + after - before).max(0) as u32;
    }
}

impl QueueDiscipline for CodelQueue {
    #[inline]
    fn enqueue(&mut self, _now: Time, item: Queued) -> Result<(), Queued> {
        if !self.limit.admits(self.q.len(), self.bytes, item.size) {
            // Overflowing although marking: the marks are not enough (PCON §3.6).
            if self.dropping && self.cfg.tracks_high_cong() {
                self.high_cong = true;
            }
            return Err(item);
        }
        let mut item = item;
        if self.cfg.signal_on_arrival && self.cfg.mark {
            self.signal_arrival(&mut item);
        }
        self.maxpacket = self.maxpacket.max(item.size);
        self.bytes += item.size as usize;
        self.q.push_back(item);
        Ok(())
    }

    fn dequeue(&mut self, now: Time, dropped: &mut Vec<Queued>) -> Option<Dequeued> {
        let (mut item, ok_to_drop) = self.do_dequeue(now);
        let mut marked = false;

        if self.dropping {
            if !ok_to_drop {
                // Sojourn went below target: leave the dropping state.
                self.dropping = false;
                self.high_cong = false;
            }
            if self.cfg.mark {
                // Drop point 2, mark mode: one mark per departure, no loop.
                if self.dropping && now >= self.drop_next {
                    marked = self.mark_or_defer(item.as_mut());
                    self.count = self.count.saturating_add(1);
                    self.drop_next = self.control_law(self.drop_next, self.count);
                }
            } else {
                // Drop point 2, drop mode: the RFC's loop (a large backlog may need several drops
                // at once). `count` grows only when the state goes on, as in RFC 8289 §5.5: a
                // drop that uncovers a packet below target ends the episode uncounted.
                while self.dropping && now >= self.drop_next {
                    if let Some(it) = item.take() {
                        dropped.push(it);
                    }
                    let (next, ok) = self.do_dequeue(now);
                    item = next;
                    if ok {
                        self.count = self.count.saturating_add(1);
                        self.drop_next = self.control_law(self.drop_next, self.count);
                    } else {
                        self.dropping = false;
                    }
                }
            }
        } else if ok_to_drop {
            // Drop point 1: the sojourn has been above target for a whole interval.
            if self.cfg.mark {
                marked = self.mark_or_defer(item.as_mut());
            } else {
                if let Some(it) = item.take() {
                    dropped.push(it);
                }
                item = self.do_dequeue(now).0;
            }
            self.dropping = true;
            self.dropping_since = now;
            // If we are back soon after the last episode, resume near the drop rate that
            // controlled the queue then.
            let delta = self.count.saturating_sub(self.lastcount);
            self.count =
                if delta > 1 && now.saturating_sub(self.drop_next) < self.cfg.interval * 16 { delta } else { 1 };
            self.lastcount = self.count;
            self.drop_next = self.control_law(now, self.count);
        }

        if let (true, Some(after)) = (self.dropping, self.cfg.high_cong_after.filter(|_| self.cfg.mark)) {
            if now.saturating_sub(self.dropping_since) >= after {
                self.high_cong = true;
            }
        }
        if !self.dropping {
            // The marking state is over: a deferred mark has nothing left to report.
            self.pending_mark = false;
        }
        item.map(|mut item| {
            if self.high_cong && !self.cfg.signal_on_arrival {
                Self::flag_high_cong(&mut item);
            }
            let sojourn = now.saturating_sub(item.enqueued_at);
            Dequeued { item, marked, sojourn }
        })
    }

    #[inline]
    fn len_packets(&self) -> usize {
        self.q.len()
    }

    #[inline]
    fn len_bytes(&self) -> usize {
        self.bytes
    }
}

#[cfg(test)]
#[path = "codel_tests.rs"]
mod tests;
