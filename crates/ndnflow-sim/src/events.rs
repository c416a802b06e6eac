//! The event queue: a binary min-heap ordered by (time, insertion sequence), so simultaneous events
//! run in the order they were scheduled, never in hash or memory order. One exception: a trace
//! sample at time t runs before every other event at t, so a bin [t0, t) never sees what happens at t.
//!
//! Events are small (a kind and an index); packets in flight wait in their link's FIFO, not here,
//! which keeps heap entries at 24 bytes.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use ndnflow_core::Time;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// The packet at the head of link direction `0`'s in-flight FIFO reaches the far end.
    Arrive(u32),
    /// Link direction `0` finished serialising a packet and may start the next.
    TxDone(u32),
    /// A forwarder's timer (PIT expiry) may be due.
    NodeWake(u32),
    /// An application's timer may be due.
    AppWake(u32),
    /// End of a trace bin.
    Sample,
    /// Scheduled link change `0` (index into the scenario's events).
    LinkChange(u32),
    /// A link loss report is due (index into the engine's pending reports).
    LinkLoss(u32),
    /// Link direction `0`'s Interest shaper may release its next Interest.
    ShaperWake(u32),
}

/// Heap entry: the order key packs (time, class, sequence) into one integer so that each heap
/// comparison is a single 128-bit compare.
#[derive(Clone, Copy, Debug)]
struct Entry {
    /// time << 64 | class << 63 | seq, where class is 0 for samples and 1 for everything else.
    key: u128,
    event: Event,
}

impl Entry {
    fn time(&self) -> Time {
        Time((self.key >> 64) as u64)
    }
}

impl PartialEq for Entry {
    fn eq(&self, other: &Self) -> bool {
        self.key == other.key
    }
}
impl Eq for Entry {}
impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Entry {
    /// Reversed, so that `BinaryHeap` (a max-heap) pops the earliest first.
    fn cmp(&self, other: &Self) -> Ordering {
        other.key.cmp(&self.key)
    }
}

#[derive(Default)]
pub struct EventQueue {
    heap: BinaryHeap<Entry>,
    seq: u64,
}

impl EventQueue {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn schedule(&mut self, time: Time, event: Event) {
        let class: u128 = if event == Event::Sample { 0 } else { 1 };
        let key = (time.as_nanos() as u128) << 64 | class << 63 | self.seq as u128;
        self.heap.push(Entry { key, event });
        self.seq += 1;
    }

    pub fn peek_time(&self) -> Option<Time> {
        self.heap.peek().map(|e| e.time())
    }

    pub fn pop(&mut self) -> Option<(Time, Event)> {
        self.heap.pop().map(|e| (e.time(), e.event))
    }

    pub fn len(&self) -> usize {
        self.heap.len()
    }
    pub fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }
    /// Events scheduled so far.
    pub fn scheduled(&self) -> u64 {
        self.seq
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn earliest_first_and_ties_in_insertion_order() {
        let mut q = EventQueue::new();
        q.schedule(Time(5), Event::TxDone(2));
        q.schedule(Time(3), Event::Arrive(1));
        q.schedule(Time(3), Event::Arrive(0));
        q.schedule(Time(5), Event::Arrive(9));
        q.schedule(Time(5), Event::Sample);
        let order: Vec<_> = std::iter::from_fn(|| q.pop()).collect();
        assert_eq!(
            order,
            vec![
                (Time(3), Event::Arrive(1)),
                (Time(3), Event::Arrive(0)),
                (Time(5), Event::Sample),
                (Time(5), Event::TxDone(2)),
                (Time(5), Event::Arrive(9)),
            ]
        );
    }
}
