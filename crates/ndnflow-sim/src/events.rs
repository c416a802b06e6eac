//! The event queue: a binary min-heap ordered by (time, insertion sequence), so simultaneous events
//! run in the order they were scheduled, never in hash or memory order. One exception: a trace
//! sample at time t runs before every other event at t, so a bin [t0, t) never sees what happens at t.
//!
//! Events are small (a kind and an index); packets in flight wait in their link's FIFO, not here,
//! which keeps heap entries at 16 bytes.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use ndnflow_core::grow::{Grow, OutOfMemory};
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
    /// The NDNLPv2 reliability of the face sending on link direction `0` may have a timer due.
    LinkWake(u32),
    /// Link direction `0`'s Interest shaper may release its next Interest.
    ShaperWake(u32),
}

/// Bits of an entry's tie word: the class (0 for samples, 1 for everything else), then the
/// insertion sequence, then the event itself (kind and index), which never decides the order since
/// sequences are unique.
const CLASS_SHIFT: u32 = 63;
const SEQ_SHIFT: u32 = 31;
const KIND_SHIFT: u32 = 28;
/// Largest index an event can carry (nodes, apps, link directions, link changes):
/// 268 million, beyond what fits in memory (each of those is hundreds of bytes or more).
pub const MAX_INDEX: u32 = (1 << KIND_SHIFT) - 1;

/// Heap entry, 16 bytes: `time << 64 | tie`, so a comparison is one 128-bit compare and a sift
/// moves half as much memory as a separate key plus the event would.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Entry(u128);

impl Entry {
    fn new(time: u64, tie: u64) -> Entry {
        Entry(u128::from(time) << 64 | u128::from(tie))
    }
    fn time(self) -> u64 {
        (self.0 >> 64) as u64
    }
    fn tie(self) -> u64 {
        self.0 as u64
    }
}

impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Entry {
    /// Reversed, so that `BinaryHeap` (a max-heap) pops the earliest first.
    fn cmp(&self, other: &Self) -> Ordering {
        other.0.cmp(&self.0)
    }
}

fn encode(event: Event) -> u64 {
    let (kind, index) = match event {
        Event::Arrive(i) => (0, i),
        Event::TxDone(i) => (1, i),
        Event::NodeWake(i) => (2, i),
        Event::AppWake(i) => (3, i),
        Event::Sample => (4, 0),
        Event::LinkChange(i) => (5, i),
        Event::LinkWake(i) => (6, i),
        Event::ShaperWake(i) => (7, i),
    };
    debug_assert!(index <= MAX_INDEX, "event index {index} exceeds {MAX_INDEX}");
    (kind << KIND_SHIFT | (index & MAX_INDEX)) as u64
}

fn decode(tie: u64) -> Event {
    let code = (tie & ((1 << SEQ_SHIFT) - 1)) as u32;
    let index = code & MAX_INDEX;
    match code >> KIND_SHIFT {
        0 => Event::Arrive(index),
        1 => Event::TxDone(index),
        2 => Event::NodeWake(index),
        3 => Event::AppWake(index),
        4 => Event::Sample,
        5 => Event::LinkChange(index),
        6 => Event::LinkWake(index),
        _ => Event::ShaperWake(index),
    }
}

#[derive(Default)]
pub struct EventQueue {
    heap: BinaryHeap<Entry>,
    /// Sequence number of the next entry (32 bits in the tie word; renumbered before it wraps).
    seq: u32,
    scheduled: u64,
    /// The first growth of the heap the allocator refused (`ndnflow_core::grow`); the event that
    /// needed it was not scheduled, and the run must end.
    out_of_memory: Option<OutOfMemory>,
}

impl EventQueue {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn schedule(&mut self, time: Time, event: Event) {
        if self.seq == u32::MAX {
            self.renumber();
        }
        if let Err(e) = self.heap.room_for_one("event queue") {
            self.out_of_memory.get_or_insert(e);
            return;
        }
        let class = u64::from(event != Event::Sample);
        let tie = class << CLASS_SHIFT | u64::from(self.seq) << SEQ_SHIFT | encode(event);
        self.heap.push(Entry::new(time.as_nanos(), tie));
        self.seq += 1;
        self.scheduled += 1;
    }

    /// Gives the pending entries sequence numbers 0, 1, ... in their current order, so that a
    /// run of more than 2^32 events keeps its tie order without wider entries.
    fn renumber(&mut self) {
        let mut entries = std::mem::take(&mut self.heap).into_sorted_vec();
        entries.reverse(); // `Ord` is reversed: this puts the earliest first.
        for (seq, e) in entries.iter_mut().enumerate() {
            let keep = e.tie() & (1 << CLASS_SHIFT | ((1 << SEQ_SHIFT) - 1));
            *e = Entry::new(e.time(), keep | (seq as u64) << SEQ_SHIFT);
        }
        self.seq = entries.len() as u32;
        self.heap = BinaryHeap::from(entries);
    }

    /// The earliest event, left in the queue.
    pub fn peek(&self) -> Option<(Time, Event)> {
        self.heap.peek().map(|e| (Time(e.time()), decode(e.tie())))
    }

    /// Replaces the earliest event by `event` at `time`: the same order as `pop` then `schedule`
    /// (the new entry takes the next sequence number), with one sift of the heap instead of two.
    /// For a link direction whose next in-flight packet arrives after the one being delivered.
    pub fn replace_earliest(&mut self, time: Time, event: Event) {
        if self.seq == u32::MAX {
            self.renumber();
        }
        let class = u64::from(event != Event::Sample);
        let tie = class << CLASS_SHIFT | u64::from(self.seq) << SEQ_SHIFT | encode(event);
        let entry = Entry::new(time.as_nanos(), tie);
        if self.heap.is_empty() {
            self.heap.push(entry);
        } else if let Some(mut top) = self.heap.peek_mut() {
            *top = entry; // sifted into place when `top` drops
        }
        self.seq += 1;
        self.scheduled += 1;
    }

    pub fn pop(&mut self) -> Option<(Time, Event)> {
        self.heap.pop().map(|e| (Time(e.time()), decode(e.tie())))
    }

    pub fn len(&self) -> usize {
        self.heap.len()
    }
    pub fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }
    /// The first growth the allocator refused, if any.
    pub fn out_of_memory(&self) -> Option<OutOfMemory> {
        self.out_of_memory
    }
    /// Events scheduled so far.
    pub fn scheduled(&self) -> u64 {
        self.scheduled
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replacing_the_earliest_is_pop_then_schedule() {
        let mut a = EventQueue::new();
        let mut b = EventQueue::new();
        for q in [&mut a, &mut b] {
            q.schedule(Time(4), Event::Arrive(1));
            q.schedule(Time(6), Event::TxDone(0));
            q.schedule(Time(6), Event::NodeWake(2));
        }
        assert_eq!(a.peek(), Some((Time(4), Event::Arrive(1))));
        a.replace_earliest(Time(6), Event::Arrive(1));
        b.pop();
        b.schedule(Time(6), Event::Arrive(1));
        let drain = |q: &mut EventQueue| std::iter::from_fn(|| q.pop()).collect::<Vec<_>>();
        let order = drain(&mut a);
        assert_eq!(order, drain(&mut b));
        assert_eq!(order[2], (Time(6), Event::Arrive(1)), "ties after the entries scheduled before it");
    }

    #[test]
    fn every_event_survives_its_encoding() {
        let events = [
            Event::Arrive(MAX_INDEX),
            Event::TxDone(0),
            Event::NodeWake(7),
            Event::AppWake(MAX_INDEX),
            Event::Sample,
            Event::LinkChange(3),
            Event::LinkWake(MAX_INDEX),
            Event::ShaperWake(1),
        ];
        for e in events {
            assert_eq!(decode(encode(e)), e);
        }
    }

    #[test]
    fn ties_keep_insertion_order_across_a_sequence_wrap() {
        let mut q = EventQueue { seq: u32::MAX - 2, ..EventQueue::new() };
        for i in 0..6 {
            q.schedule(Time(10 - i % 2), Event::AppWake(i as u32));
        }
        q.schedule(Time(10), Event::Sample);
        let order: Vec<_> = std::iter::from_fn(|| q.pop()).collect();
        let wakes = |t: u64, ids: [u32; 3]| ids.map(|i| (Time(t), Event::AppWake(i)));
        let mut expected = wakes(9, [1, 3, 5]).to_vec();
        expected.push((Time(10), Event::Sample));
        expected.extend(wakes(10, [0, 2, 4]));
        assert_eq!(order, expected);
        assert_eq!(q.scheduled(), 7);
    }

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
