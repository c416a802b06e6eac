//! A timer set with lazy cancellation, for the many timers of a sans-IO state machine (PIT entry
//! expiry, per-segment retransmission timers).
//!
//! Most timers are armed as "now + a constant" and so arrive in time order: those go to a FIFO
//! (O(1), sequential in memory). The few armed earlier than the last one go to a binary heap.
//! Cancelling costs nothing: the owner says, when a timer surfaces, whether it is still live.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

use crate::grow::{Grow, OutOfMemory};
use crate::Time;

#[derive(Debug)]
pub struct Timers<T: Copy + Ord> {
    in_order: VecDeque<(Time, T)>,
    out_of_order: BinaryHeap<Reverse<(Time, T)>>,
}

impl<T: Copy + Ord> Default for Timers<T> {
    fn default() -> Self {
        Timers { in_order: VecDeque::new(), out_of_order: BinaryHeap::new() }
    }
}

impl<T: Copy + Ord> Timers<T> {
    pub fn new() -> Self {
        Self::default()
    }

    /// Room for one more timer in whichever queue `push` will use (`crate::grow`).
    pub fn room_for_one(&mut self, container: &'static str) -> Result<(), OutOfMemory> {
        self.in_order.room_for_one(container)?;
        self.out_of_order.room_for_one(container)
    }

    pub fn push(&mut self, at: Time, item: T) {
        match self.in_order.back() {
            Some(&(last, _)) if at < last => self.out_of_order.push(Reverse((at, item))),
            _ => self.in_order.push_back((at, item)),
        }
    }

    /// The earliest live timer; dead ones met on the way are discarded.
    pub fn peek(&mut self, mut live: impl FnMut(Time, T) -> bool) -> Option<(Time, T)> {
        while let Some(&(at, item)) = self.in_order.front() {
            if live(at, item) {
                break;
            }
            self.in_order.pop_front();
        }
        while let Some(&Reverse((at, item))) = self.out_of_order.peek() {
            if live(at, item) {
                break;
            }
            self.out_of_order.pop();
        }
        match (self.in_order.front(), self.out_of_order.peek()) {
            (Some(&a), Some(&Reverse(b))) => Some(a.min(b)),
            (Some(&a), None) => Some(a),
            (None, Some(&Reverse(b))) => Some(b),
            (None, None) => None,
        }
    }

    /// Removes and returns the earliest live timer if it is due at `now`.
    pub fn pop_due(&mut self, now: Time, live: impl FnMut(Time, T) -> bool) -> Option<(Time, T)> {
        let next = self.peek(live)?;
        if next.0 > now {
            return None;
        }
        if self.in_order.front() == Some(&next) {
            self.in_order.pop_front();
        } else {
            self.out_of_order.pop();
        }
        Some(next)
    }

    /// Bytes the two queues have reserved (their capacities, which they keep after their timers
    /// fire), for a driver's memory watch.
    pub fn reserved_bytes(&self) -> usize {
        (self.in_order.capacity() + self.out_of_order.capacity()) * std::mem::size_of::<(Time, T)>()
    }

    /// Timers held, live or not.
    pub fn len(&self) -> usize {
        self.in_order.len() + self.out_of_order.len()
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn earliest_first_across_both_orders_and_dead_timers_skipped() {
        let mut t: Timers<u32> = Timers::new();
        t.push(Time(10), 1);
        t.push(Time(30), 2);
        t.push(Time(20), 3); // earlier than the last: out of order
        t.push(Time(40), 4);
        let dead = [2u32];
        let live = |_: Time, i: u32| !dead.contains(&i);
        assert_eq!(t.pop_due(Time(100), live), Some((Time(10), 1)));
        assert_eq!(t.pop_due(Time(15), live), None);
        assert_eq!(t.pop_due(Time(100), live), Some((Time(20), 3)));
        assert_eq!(t.pop_due(Time(100), live), Some((Time(40), 4)));
        assert_eq!(t.peek(live), None);
        assert!(t.is_empty());
    }
}
