//! DropTail: a plain FIFO that rejects arrivals once it is full (ns-3's `DropTailQueue`, the queue
//! every ndnSIM link has by default).

use std::collections::VecDeque;

use super::{Dequeued, Limit, QueueDiscipline, Queued};
use crate::Time;

/// FIFO with a packet or byte limit; a packet that does not fit is refused on arrival.
#[derive(Clone, Debug)]
pub struct DropTailQueue {
    q: VecDeque<Queued>,
    bytes: usize,
    limit: Limit,
}

impl DropTailQueue {
    pub fn new(limit: Limit) -> DropTailQueue {
        DropTailQueue { q: VecDeque::with_capacity(limit.initial_capacity()), bytes: 0, limit }
    }

    pub fn limit(&self) -> Limit {
        self.limit
    }
}

impl QueueDiscipline for DropTailQueue {
    #[inline]
    fn enqueue(&mut self, _now: Time, item: Queued) -> Result<(), Queued> {
        if !self.limit.admits(self.q.len(), self.bytes, item.size) {
            return Err(item);
        }
        self.bytes += item.size as usize;
        self.q.push_back(item);
        Ok(())
    }

    #[inline]
    fn dequeue(&mut self, now: Time, _dropped: &mut Vec<Queued>) -> Option<Dequeued> {
        let item = self.q.pop_front()?;
        self.bytes -= item.size as usize;
        let sojourn = now.saturating_sub(item.enqueued_at);
        Some(Dequeued { item, marked: false, sojourn })
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
mod tests {
    use super::*;
    use crate::link::test_util::{id_of, item};

    #[test]
    fn packet_limit_accepts_exactly_the_limit_and_keeps_fifo_order() {
        let mut q = DropTailQueue::new(Limit::Packets(3));
        let t = Time::from_millis(1);
        for i in 0..3 {
            assert!(q.enqueue(t, item(i, 100, t)).is_ok());
        }
        // The 4th and 5th are refused and handed back unchanged.
        for i in 3..5 {
            let back = q.enqueue(t, item(i, 100, t)).unwrap_err();
            assert_eq!(id_of(&back), i);
        }
        assert_eq!(q.len_packets(), 3);
        assert_eq!(q.len_bytes(), 300);

        let mut dropped = Vec::new();
        let later = Time::from_millis(4);
        let d = q.dequeue(later, &mut dropped).unwrap();
        assert_eq!(id_of(&d.item), 0);
        assert!(!d.marked);
        assert_eq!(d.sojourn, Time::from_millis(3));
        assert_eq!((q.len_packets(), q.len_bytes()), (2, 200));

        // One slot freed: one more fits, the next does not.
        assert!(q.enqueue(later, item(5, 100, later)).is_ok());
        assert!(q.enqueue(later, item(6, 100, later)).is_err());

        let order: Vec<u32> = std::iter::from_fn(|| q.dequeue(later, &mut dropped)).map(|d| id_of(&d.item)).collect();
        assert_eq!(order, vec![1, 2, 5]);
        assert!(dropped.is_empty());
        assert_eq!((q.len_packets(), q.len_bytes()), (0, 0));
        assert!(q.dequeue(later, &mut dropped).is_none());
    }

    #[test]
    fn byte_limit_counts_the_arriving_packet() {
        let mut q = DropTailQueue::new(Limit::Bytes(1000));
        let t = Time::ZERO;
        assert!(q.enqueue(t, item(0, 400, t)).is_ok()); // 400
        assert!(q.enqueue(t, item(1, 400, t)).is_ok()); // 800
        assert!(q.enqueue(t, item(2, 300, t)).is_err()); // 1100 > 1000
        assert!(q.enqueue(t, item(3, 200, t)).is_ok()); // 1000 == limit: fits
        assert!(q.enqueue(t, item(4, 1, t)).is_err()); // 1001
        assert_eq!((q.len_packets(), q.len_bytes()), (3, 1000));

        let mut dropped = Vec::new();
        assert_eq!(id_of(&q.dequeue(t, &mut dropped).unwrap().item), 0);
        assert_eq!(q.len_bytes(), 600);
        assert!(q.enqueue(t, item(5, 400, t)).is_ok()); // 1000 again
        assert!(q.enqueue(t, item(6, 1, t)).is_err());
        let order: Vec<u32> = std::iter::from_fn(|| q.dequeue(t, &mut dropped)).map(|d| id_of(&d.item)).collect();
        assert_eq!(order, vec![1, 3, 5]);
        assert_eq!(q.len_bytes(), 0);
    }

    #[test]
    fn a_packet_larger_than_the_byte_limit_never_fits() {
        let mut q = DropTailQueue::new(Limit::Bytes(1000));
        assert!(q.enqueue(Time::ZERO, item(0, 1001, Time::ZERO)).is_err());
        assert_eq!((q.len_packets(), q.len_bytes()), (0, 0));
    }
}
