//! Link-layer output queues (DropTail, CoDel in drop or mark mode, CHoPCoP's random early marking
//! `rem`, MIRCC's rate-stamping `mircc`), NFD's send-queue congestion
//! marker (`nfd_mark`), random loss models, the hop-by-hop Interest shaper (`shaper`,
//! docs/protocols/shaper.md), NDNLPv2 fragmentation on a link with an MTU (`frag`; `reassembly` for sockets that reorder,
//! docs/protocols/links.md), and NDNLPv2 link reliability (`reliability`, docs/protocols/links.md).
//!
//! A link direction owns one [`Queue`] and one [`LossModel`]. The queue is handed `now` on every
//! call and never reads a clock. Sizes are the caller's `Queued::size` (normally
//! `Frame::wire_size()`); byte limits and CoDel's `maxpacket` rule use it. Parameters, defaults and
//! sources are in docs/protocols/queues.md.

pub mod codel;
pub mod droptail;
pub mod frag;
pub mod loss;
pub mod mircc;
pub mod nfd_mark;
pub mod reassembly;
pub mod reliability;
pub mod rem;
pub mod shaper;

pub use codel::{CodelConfig, CodelQueue};
pub use droptail::DropTailQueue;
pub use loss::{Bernoulli, GilbertElliott, LossModel};
pub use mircc::{MirccConfig, MirccCounters, MirccQueue};
pub use nfd_mark::{NfdMarkConfig, NfdMarker};
pub use reliability::{LpReliability, ReliabilityConfig};
pub use rem::{RemConfig, RemQueue};
pub use shaper::{InterestShaper, ShaperConfig, ShaperCounters, ShaperDrop};

use crate::{Frame, Time};

/// A packet waiting in an output queue.
#[derive(Clone, Debug, PartialEq)]
pub struct Queued {
    pub frame: Frame,
    /// Bytes the packet occupies (for byte limits and CoDel's maxpacket rule).
    pub size: u32,
    /// When it entered the queue; CoDel's sojourn time is measured from here. The caller sets it
    /// (normally to the `now` it passes to `enqueue`); the queues do not overwrite it.
    pub enqueued_at: Time,
}

/// What dequeue returns besides the packet.
#[derive(Clone, Debug, PartialEq)]
pub struct Dequeued {
    pub item: Queued,
    /// CoDel mark mode set `item.frame.lp.congestion_mark` on this packet (and grew `item.size` by
    /// the bytes the mark adds to the encoding).
    pub marked: bool,
    /// Time spent in the queue: `now - item.enqueued_at`.
    pub sojourn: Time,
}

/// Queue capacity.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Limit {
    /// At most this many packets.
    Packets(usize),
    /// At most this many bytes, counting the arriving packet.
    Bytes(usize),
}

impl Limit {
    /// Whether a packet of `size` bytes fits next to `packets` packets holding `bytes` bytes.
    #[inline]
    pub fn admits(self, packets: usize, bytes: usize, size: u32) -> bool {
        match self {
            Limit::Packets(n) => packets < n,
            Limit::Bytes(b) => bytes + size as usize <= b,
        }
    }

    /// Slots to reserve up front so a busy queue does not reallocate as it first fills.
    fn initial_capacity(self) -> usize {
        match self {
            Limit::Packets(n) => n.min(1024),
            Limit::Bytes(b) => (b / 1000).min(1024),
        }
    }
}

pub trait QueueDiscipline {
    /// Offers a packet. Err(item) gives the packet back when it is dropped on arrival (tail drop).
    // The engine's API hands the refused packet back by value; boxing it would allocate per drop.
    #[allow(clippy::result_large_err)]
    fn enqueue(&mut self, now: Time, item: Queued) -> Result<(), Queued>;
    /// The next packet to send. Packets the discipline drops while dequeuing (CoDel drop mode)
    /// are pushed to `dropped` so the caller can count and trace them.
    fn dequeue(&mut self, now: Time, dropped: &mut Vec<Queued>) -> Option<Dequeued>;
    fn len_packets(&self) -> usize;
    fn len_bytes(&self) -> usize;
    fn is_empty(&self) -> bool {
        self.len_packets() == 0
    }
}

/// Static dispatch over the disciplines (the engine stores one per link direction).
#[derive(Clone, Debug)]
pub enum Queue {
    DropTail(DropTailQueue),
    Codel(CodelQueue),
    /// Boxed: its random stream would otherwise grow every direction's queue.
    Rem(Box<RemQueue>),
    /// Boxed: its rates and counters would otherwise grow every direction's queue.
    Mircc(Box<MirccQueue>),
}

impl Queue {
    pub fn drop_tail(limit: Limit) -> Queue {
        Queue::DropTail(DropTailQueue::new(limit))
    }
    pub fn codel(limit: Limit, cfg: CodelConfig) -> Queue {
        Queue::Codel(CodelQueue::new(limit, cfg))
    }
    pub fn rem(limit: Limit, cfg: RemConfig, seed: u64) -> Queue {
        Queue::Rem(Box::new(RemQueue::new(limit, cfg, seed)))
    }
    /// `capacity_bps`: the bandwidth of the direction the queue feeds (MIRCC's C).
    pub fn mircc(limit: Limit, cfg: MirccConfig, capacity_bps: u64) -> Queue {
        Queue::Mircc(Box::new(MirccQueue::new(limit, cfg, capacity_bps)))
    }
}

impl Queue {
    /// The bandwidth of the direction the queue feeds changed at `now`; only MIRCC's queue,
    /// whose rates are shares of it, cares.
    pub fn set_capacity(&mut self, now: Time, capacity_bps: u64) {
        if let Queue::Mircc(q) = self {
            q.set_capacity(now, capacity_bps);
        }
    }
}

impl From<DropTailQueue> for Queue {
    fn from(q: DropTailQueue) -> Queue {
        Queue::DropTail(q)
    }
}

impl From<CodelQueue> for Queue {
    fn from(q: CodelQueue) -> Queue {
        Queue::Codel(q)
    }
}

impl QueueDiscipline for Queue {
    #[inline]
    fn enqueue(&mut self, now: Time, item: Queued) -> Result<(), Queued> {
        match self {
            Queue::DropTail(q) => q.enqueue(now, item),
            Queue::Codel(q) => q.enqueue(now, item),
            Queue::Rem(q) => q.enqueue(now, item),
            Queue::Mircc(q) => q.enqueue(now, item),
        }
    }
    #[inline]
    fn dequeue(&mut self, now: Time, dropped: &mut Vec<Queued>) -> Option<Dequeued> {
        match self {
            Queue::DropTail(q) => q.dequeue(now, dropped),
            Queue::Codel(q) => q.dequeue(now, dropped),
            Queue::Rem(q) => q.dequeue(now, dropped),
            Queue::Mircc(q) => q.dequeue(now, dropped),
        }
    }
    #[inline]
    fn len_packets(&self) -> usize {
        match self {
            Queue::DropTail(q) => q.len_packets(),
            Queue::Codel(q) => q.len_packets(),
            Queue::Rem(q) => q.len_packets(),
            Queue::Mircc(q) => q.len_packets(),
        }
    }
    #[inline]
    fn len_bytes(&self) -> usize {
        match self {
            Queue::DropTail(q) => q.len_bytes(),
            Queue::Codel(q) => q.len_bytes(),
            Queue::Rem(q) => q.len_bytes(),
            Queue::Mircc(q) => q.len_bytes(),
        }
    }
}

#[cfg(test)]
pub(crate) mod test_util {
    use std::sync::Arc;

    use super::Queued;
    use crate::{Frame, Interest, Name, NetPacket, Time};

    /// A queued Interest whose nonce is `id`, with a chosen queue `size`.
    pub fn item(id: u32, size: u32, at: Time) -> Queued {
        let interest = Interest::new(Name::root().append_segment(id as u64), id, Time::from_secs(4));
        Queued { frame: Frame::interest(Arc::new(interest)), size, enqueued_at: at }
    }

    pub fn id_of(q: &Queued) -> u32 {
        match &q.frame.packet {
            NetPacket::Interest(i) => i.nonce.expect("test Interests have a nonce"),
            _ => unreachable!("test items are Interests"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::test_util::{id_of, item};
    use super::*;

    #[test]
    fn enum_dispatch_reaches_each_discipline() {
        let mut queues = [
            Queue::drop_tail(Limit::Packets(2)),
            Queue::codel(Limit::Packets(2), CodelConfig::default()),
            Queue::rem(Limit::Packets(2), RemConfig::default(), 1),
            Queue::mircc(Limit::Packets(2), MirccConfig::default(), 10_000_000),
        ];
        for q in &mut queues {
            let t = Time::from_millis(1);
            assert!(q.is_empty());
            assert!(q.enqueue(t, item(1, 10, t)).is_ok());
            assert!(q.enqueue(t, item(2, 20, t)).is_ok());
            assert!(q.enqueue(t, item(3, 30, t)).is_err());
            assert_eq!((q.len_packets(), q.len_bytes()), (2, 30));
            let mut dropped = Vec::new();
            let d = q.dequeue(Time::from_millis(2), &mut dropped).unwrap();
            assert_eq!(id_of(&d.item), 1);
            assert_eq!(d.sojourn, Time::from_millis(1));
            assert!(!d.marked);
            assert_eq!(q.len_bytes(), 20);
        }
    }

    #[test]
    fn limit_admission() {
        assert!(Limit::Packets(1).admits(0, 0, 9999));
        assert!(!Limit::Packets(1).admits(1, 0, 1));
        assert!(Limit::Bytes(100).admits(5, 60, 40));
        assert!(!Limit::Bytes(100).admits(5, 60, 41));
        assert!(!Limit::Packets(0).admits(0, 0, 1));
    }
}
