//! The consumer's sending loop (see `consumer.rs`'s module comment): what may leave after each
//! event (the window or rate, a multipath manager's paths and probes, the send jitter), which
//! segment goes next (a resend first, unless the manager keeps resends off its probes), and the
//! Interest that leaves with its timer.

use super::*;

/// Most Interests one call of `send_allowed` sends. A window or a probe rate without a sane bound
/// (a window of 1e300, a probe every picosecond) would otherwise send without end inside one call,
/// out of reach of the simulator's memory watch and stall guard; no experiment of the catalog and
/// no example sends as many at one instant.
pub const MAX_SENDS_PER_CALL: usize = 1 << 16;

impl Consumer {
    pub(super) fn has_segment_to_send(&self) -> bool {
        !self.retx_queue.is_empty() || self.has_new_segment()
    }

    /// Whether a segment never sent may leave (released by the batches, within the object).
    pub(super) fn has_new_segment(&self) -> bool {
        self.next_segment < self.released && self.final_segment.is_none_or(|f| self.next_segment <= f)
    }

    pub(super) fn send_allowed(&mut self, now: Time, out: &mut Vec<Frame>) {
        if !self.started || self.is_finished() {
            return;
        }
        match self.resume_at {
            Some(t) if now < t => return,
            Some(_) => self.resume_at = None,
            None => {}
        }
        // A delayed send that has come due is used up here, whether or not the window still has
        // room (ns-2's delayed send likewise sends what the window allows, maybe nothing); the
        // sends of this opportunity then all leave together.
        let released = self.jitter.release(now);
        for _ in 0..MAX_SENDS_PER_CALL {
            let room = match &self.cc {
                Controller::Multipath(m) => m.can_send(now),
                Controller::Single(c) => c.window().is_none_or(|w| self.window_has_room(w)),
            };
            if !room {
                return;
            }
            let interval = self.cc.interval();
            if interval.is_some() && now < self.next_send_at {
                return;
            }
            // A multipath manager may keep resends off its probes: then a probe's turn goes to a
            // new segment, or waits.
            let resend_ok = match &self.cc {
                Controller::Multipath(m) => self.retx_queue.is_empty() || m.can_resend(now),
                Controller::Single(_) => true,
            };
            let sendable = if resend_ok { self.has_segment_to_send() } else { self.has_new_segment() };
            if !released && sendable {
                return self.jitter.hold(now, &mut self.rng);
            }
            if let Err(e) = self.room_for_send() {
                self.out_of_memory.get_or_insert(e);
                return;
            }
            let Some(next) = self.pick_segment(now, resend_ok) else { return };
            self.send(now, next, out);
            if let Some(iv) = interval {
                // Sends happen exactly at `next_send_at` (it is a timer), so this keeps the rate
                // exact, and after an idle gap restarts from now instead of bursting.
                self.next_send_at = now + iv;
            }
        }
        // Still room after that many: the rest leave at this same instant, after what else is
        // due now, from a wake the consumer asks for (`poll_timeout`).
        self.resume_at = Some(now);
    }

    /// Whether one more Interest may leave under window `w` (below 1 counts as 1).
    pub(super) fn window_has_room(&self, w: f64) -> bool {
        let w = w.max(1.0);
        match self.config.in_flight {
            InFlightRule::Outstanding => (self.outstanding.len() as f64) < w.floor(),
            InFlightRule::ConsumerCc => self.counted_in_flight as f64 <= w,
        }
    }

    /// The segment to send next: a resend first (when `resend_ok`), else the next new one
    /// (first sent `now`).
    pub(super) fn pick_segment(&mut self, now: Time, resend_ok: bool) -> Option<Retry> {
        if resend_ok {
            if let Some(next) = self.retx_queue.pop_front() {
                return Some(next);
            }
        }
        if !self.has_new_segment() {
            return None;
        }
        let seg = self.next_segment;
        self.next_segment += 1;
        Some(Retry { seg, retries: 0, first_sent: now, last_sent: now })
    }

    pub(super) fn send(&mut self, now: Time, next: Retry, out: &mut Vec<Frame>) {
        let Retry { seg, retries, first_sent, .. } = next;
        // A controller's own timer (ICP) is bounded like the estimator's, by the [min, max] RTO.
        let (lo, hi) = (self.config.rtt.min_rto, self.config.rtt.max_rto);
        let (path, own_rto) = match &mut self.cc {
            Controller::Multipath(m) => (m.path_for(now, seg, retries > 0).unwrap_or_default(), None),
            Controller::Single(c) => (PathSend::default(), c.rto().map(|r| r.clamp(lo, hi))),
        };
        let rto = path.rto.or(own_rto).unwrap_or_else(|| self.rtt.rto());
        let deadline = now + rto;
        self.outstanding.insert(seg, Outstanding { sent_at: now, first_sent, deadline, retries, nacked: false });
        self.oldest_sent = self.oldest_sent.min(now);
        self.counted_in_flight += 1;
        match self.check_interval() {
            // The periodic check owns the timeouts; it runs on its grid (multiples of `every` from
            // time 0, as ndnSIM's self-rescheduling event does), the first one after this send.
            Some(every) if self.next_check <= now => self.next_check = next_tick(now, every),
            Some(_) => {}
            None => self.timers.push(deadline, (seg, retries)),
        }
        self.stats.interests_sent += 1;
        if retries > 0 {
            self.stats.retransmissions += 1;
        }
        self.highest_sent = self.highest_sent.max(seg);
        if let Controller::Single(c) = &mut self.cc {
            c.on_interest_sent(now, seg, retries > 0);
        }
        let name = match &self.catalog {
            None => self.config.name.append_segment(seg),
            Some(c) => c.name.append_segment(seg - c.base),
        };
        let interest = Interest::new(name, self.rng.next_u32(), self.config.lifetime);
        let mut frame = Frame::interest(Arc::new(interest));
        frame.lp = path.lp;
        out.push(frame);
    }
}
