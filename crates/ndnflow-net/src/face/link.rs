//! A shaped face: the frames a UDP face sends leave at a configured bit rate through one of the
//! simulator's queue disciplines (DropTail, CoDel in drop or mark mode, PCON's, REM, MIRCC), so
//! that a real link, loopback included, has the bottleneck and the queue a scenario's link
//! direction has, and PCON's marks come from a real queue's real sojourn times.
//!
//! The model is the simulator's transmitter (and Linux's tbf): a frame starts when the previous
//! one has finished (or on arrival, if the link is idle), and takes `bytes x 8 / rate` to go. It
//! is handed to the socket when it starts;
//! the socket and the kernel add their own (small) delays after that. CoDel measures the sojourn
//! from the frame's arrival in the queue to its start, on the daemon's clock.
//!
//! With a `delay` (the link's propagation delay, for a machine without netem), a frame is held
//! instead until its last bit would reach the peer on the simulator's link, start + transmission
//! + delay, and handed to the socket then: the peer receives it when a simulated node would.

use std::collections::VecDeque;

use ndnflow_core::link::{Queue, QueueDiscipline, Queued};
use ndnflow_core::{Frame, Time};

/// What a shaped face counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct LinkCounters {
    /// Frames refused on arrival (a full queue: tail drop).
    pub queue_drops: u64,
    /// Frames CoDel dropped from the head (drop mode).
    pub codel_drops: u64,
    /// Frames CoDel marked (mark mode: PCON's congestion mark).
    pub marked: u64,
}

#[derive(Debug)]
pub struct LinkOutput {
    queue: Queue,
    rate_bps: u64,
    /// When the frame on the wire has finished: the next may start then.
    free_at: Time,
    /// The propagation delay; `None`: frames go to the socket when they start.
    delay: Option<Time>,
    /// Frames that have started, with when they reach the peer. Their times only grow (each
    /// starts no earlier than the previous one's end, and the delay is fixed), so the front is
    /// always the next due.
    propagating: VecDeque<(Time, Frame)>,
    dropped: Vec<Queued>,
    pub counters: LinkCounters,
}

impl LinkOutput {
    pub fn new(queue: Queue, rate_bps: u64, delay: Option<Time>) -> LinkOutput {
        LinkOutput {
            queue,
            rate_bps,
            free_at: Time::ZERO,
            delay,
            propagating: VecDeque::new(),
            dropped: Vec::new(),
            counters: LinkCounters::default(),
        }
    }

    /// Queues `frame` (to be sent by `pump`); false when the queue refused it.
    pub fn offer(&mut self, now: Time, frame: Frame) -> bool {
        if self.queue.is_empty() && self.free_at < now {
            self.free_at = now; // the link was idle: this frame's turn is now
        }
        let size = frame.wire_size();
        let accepted = self.queue.enqueue(now, Queued { frame, size, enqueued_at: now }).is_ok();
        if !accepted {
            self.counters.queue_drops += 1;
        }
        accepted
    }

    /// Starts every frame whose turn has come by `now`, and hands to `send` each that has started
    /// (no delay) or reached the peer (a delay) by then.
    pub fn pump(&mut self, now: Time, mut send: impl FnMut(Frame)) {
        while self.free_at <= now {
            let Some(out) = self.queue.dequeue(now, &mut self.dropped) else { break };
            self.counters.codel_drops += self.dropped.len() as u64;
            self.dropped.clear();
            self.counters.marked += u64::from(out.marked);
            // Back to back from the previous frame's end, even when the daemon wakes late: the
            // frames whose turn has passed go at once, and the long-run rate stays the link's.
            self.free_at = self.free_at.saturating_add(Time::transmission(out.item.size, self.rate_bps));
            match self.delay {
                None => send(out.item.frame),
                // free_at is now this frame's end: its last bit reaches the peer a delay later.
                Some(delay) => self.propagating.push_back((self.free_at.saturating_add(delay), out.item.frame)),
            }
        }
        self.counters.codel_drops += self.dropped.len() as u64;
        self.dropped.clear();
        while self.propagating.front().is_some_and(|(due, _)| *due <= now) {
            let (_, frame) = self.propagating.pop_front().expect("checked above");
            send(frame);
        }
    }

    /// When `pump` next has something to do: the current frame's end, if frames are waiting, or
    /// the next propagating frame's arrival.
    pub fn next_departure(&self) -> Option<Time> {
        let start = (!self.queue.is_empty()).then_some(self.free_at);
        let arrival = self.propagating.front().map(|(due, _)| *due);
        start.into_iter().chain(arrival).min()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndnflow_core::link::{CodelConfig, Limit};
    use ndnflow_core::packet::Data;
    use ndnflow_core::Name;
    use std::sync::Arc;

    /// A Data frame of exactly 1,000 bytes on the wire.
    fn frame(i: u64) -> Frame {
        let name = Name::parse("/p").unwrap().append_segment(i);
        (900..1_000)
            .map(|payload| Frame::data(Arc::new(Data::simulated(name.clone(), payload))))
            .find(|f| f.wire_size() == 1_000)
            .expect("some payload makes 1,000 bytes")
    }

    #[test]
    fn frames_leave_one_transmission_time_apart_and_a_full_queue_refuses() {
        // 1,000 bytes at 1 Mbit/s: 8 ms each. Queue of 3.
        let mut link = LinkOutput::new(Queue::drop_tail(Limit::Packets(3)), 1_000_000, None);
        let t0 = Time::from_secs(1);
        for i in 0..4 {
            assert!(link.offer(t0, frame(i)));
            if i == 0 {
                let mut sent = 0;
                link.pump(t0, |_| sent += 1);
                assert_eq!(sent, 1, "an idle link starts the first frame at once");
            }
        }
        assert!(!link.offer(t0, frame(4)), "three wait: the fourth waiting one is refused");
        assert_eq!(link.counters.queue_drops, 1);
        assert_eq!(link.next_departure(), Some(t0.saturating_add(Time::from_millis(8))));
        let mut sent = Vec::new();
        link.pump(t0.saturating_add(Time::from_millis(7)), |f| sent.push(f));
        assert!(sent.is_empty(), "the first frame is still on the wire");
        link.pump(t0.saturating_add(Time::from_millis(16)), |f| sent.push(f));
        assert_eq!(sent.len(), 2, "at 16 ms the second (8 ms) and third (16 ms) have started");
        assert_eq!(link.next_departure(), Some(t0.saturating_add(Time::from_millis(24))));
    }

    #[test]
    fn a_standing_queue_gets_codel_marks_after_one_interval() {
        // PCON's CoDel: target 5 ms, interval 100 ms, marking. Forty 1,000-byte frames at once on a
        // 1 Mbit/s link: the k-th starts at 8k ms with a sojourn of 8k ms. The sojourn stays above
        // 5 ms from k = 1 (8 ms); CoDel marks once it has been above for an interval, at the first
        // start at or after 8 + 100 ms, so k = 14 (112 ms) is the first marked.
        let cfg = CodelConfig::pcon(Time::from_millis(5), Time::from_millis(100));
        let mut link = LinkOutput::new(Queue::codel(Limit::Packets(100), cfg), 1_000_000, None);
        for i in 0..40 {
            link.offer(Time::ZERO, frame(i));
        }
        let mut marks = Vec::new();
        for ms in 0..=320 {
            link.pump(Time::from_millis(ms), |f| marks.push(f.lp.congestion_mark > 0));
        }
        assert_eq!(marks.len(), 40);
        assert_eq!(marks.iter().position(|&m| m), Some(14));
        assert_eq!(link.counters.marked, marks.iter().filter(|&&m| m).count() as u64);
        assert_eq!(link.counters.codel_drops, 0, "mark mode drops nothing");
    }

    #[test]
    fn a_delay_holds_each_frame_until_its_last_bit_reaches_the_peer() {
        // 1,000 bytes at 1 Mbit/s: 8 ms on the wire; delay 20 ms. Two frames offered at t0: the
        // first starts at t0, ends at 8 ms, arrives at 28 ms; the second starts at 8 ms, ends at
        // 16 ms, arrives at 36 ms. Nothing reaches the socket before 28 ms.
        let mut link = LinkOutput::new(Queue::drop_tail(Limit::Packets(100)), 1_000_000, Some(Time::from_millis(20)));
        let t0 = Time::from_secs(1);
        let at = |ms| t0.saturating_add(Time::from_millis(ms));
        link.offer(t0, frame(0));
        link.offer(t0, frame(1));
        let mut sent = Vec::new();
        link.pump(t0, |f| sent.push(f));
        assert!(sent.is_empty(), "the first frame has started but is still on its way");
        assert_eq!(link.next_departure(), Some(at(8)), "the second frame's start comes first");
        link.pump(at(8), |f| sent.push(f));
        assert_eq!(link.next_departure(), Some(at(28)), "both started: the first arrival is next");
        link.pump(at(27), |f| sent.push(f));
        assert!(sent.is_empty());
        link.pump(at(28), |f| sent.push(f));
        assert_eq!(sent.len(), 1);
        assert_eq!(link.next_departure(), Some(at(36)));
        link.pump(at(40), |f| sent.push(f));
        assert_eq!(sent.len(), 2);
        assert_eq!(link.next_departure(), None);
    }
}
