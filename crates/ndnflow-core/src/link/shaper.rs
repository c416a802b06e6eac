//! Hop-by-hop Interest shaping after Wang et al. ("An improved hop-by-hop Interest shaper for
//! congestion control in Named Data Networking", SIGCOMM CCR 2013), in the simplified form PCON
//! §4.6 compares against: the shaper knows a fixed link capacity, estimates the size of the Data
//! that come back with a moving average, and lets Interests leave at the rate whose Data fill that
//! capacity:
//!
//! ```text
//! rate = capacity_bps x headroom / (8 x avg Data wire size)   Interests per second
//! gap  = 1 / rate = 8 x avg Data size / (capacity_bps x headroom)
//! ```
//!
//! One shaper serves one link direction, the one Interests leave on; the Data come back on the
//! reverse direction and the caller reports each of them ([`InterestShaper::on_data`]). Data and
//! Nacks are never shaped: the caller hands this module Interests only.
//!
//! **Pacing.** Each released Interest closes the shaper for one `gap` (Wang's `ShaperDequeue`:
//! `m_shaperState = BLOCKED`, then `ShaperOpen` after the gap). An Interest that finds the shaper
//! open and nothing waiting leaves at once, so the shaper is a token bucket one Interest deep: it
//! never sends a burst after a quiet period. The gap uses the size estimate current at the release.
//!
//! **Queue.** Interests that find the shaper closed wait in an internal FIFO of at most `limit`
//! Interests (Wang's `MaxInterest` = 100) managed by CoDel (RFC 8289, [`CodelQueue`] in drop mode,
//! 5 ms target and 100 ms interval by default). CoDel decides at each release, as the RFC does at
//! each dequeue. What CoDel drops, and what the full queue refuses (tail drop), goes back to the
//! caller, who turns it into a Nack (PCON §4.6: "the excessive Interests are put into an internal
//! queue ... which uses the CoDel logic to signal back congestion via NACKs").
//!
//! **Data size estimate.** Wang's moving average: the first Data's size replaces the initial
//! estimate (1100 bytes), later ones move it by 1/8 of the difference (`m_inContentSize +=
//! (size - m_inContentSize) >> 3`, here in floating point).
//!
//! **Per-flow fair share** (`flow_components`, CHoPCoP's "fair-share Interest shaping", Zhang et
//! al., ICCCN 2014; the PTP paper §6 Sol.3: "a hop-by-hop flow-aware shaping for intermediate
//! routers", and §6-D: "explicitly allocating bandwidth to each flow"). A flow is the first
//! `flow_components` components of the Interest's name (the content's prefix). Each flow waits in
//! its own queue of `limit` Interests, and each release serves the next flow in round-robin
//! order that has an Interest waiting. Every backlogged flow thus gets an equal share of the
//! release rate, and so (with Data of equal size) of the Data capacity; a flow that asks for less
//! than its share leaves the rest to the others (max-min fairness, as in fair queueing). The
//! CHoPCoP paper's related work (quoted in docs/protocols/chopcop.md) describes its FISP as
//! "per-flow Interest queues at an interface" served by a "modified DRR to approximate max-min
//! fairness", and an Interest as "delayed temporarily" when its flow takes more than its share:
//! round robin over per-flow queues is DRR with equal quanta for one Interest per release, and
//! the flows' queues only delay ([`ShaperDrop::Tail`], the per-flow default), where Wang et al.'s
//! one FIFO drops by CoDel. Without `flow_components` there is one FIFO for every Interest, Wang
//! et al.'s shaper.
//!
//! The shaper is sans-IO: every call gets `now`; [`InterestShaper::poll_release`] says when the
//! caller should next call [`InterestShaper::release`]. Parameters, defaults and sources are in
//! docs/protocols/shaper.md.

use super::{CodelConfig, CodelQueue, DropTailQueue, Limit, Queue, QueueDiscipline, Queued};
use crate::packet::PacketKind;
use crate::{Frame, Name, Time};

/// Wang et al.'s `Headroom` attribute (ndnSIM 1.0 `ShaperNetDeviceFace`): the share of the
/// capacity the shaper plans to fill, to absorb burstiness.
pub const DEFAULT_HEADROOM: f64 = 0.98;
/// Wang et al.'s `MaxInterest` attribute: the Interest queue's size, in Interests.
pub const DEFAULT_LIMIT: usize = 100;
/// Wang et al.'s initial Data size estimate (`m_inContentSize (1100)`), in bytes; replaced by the
/// first Data's size.
pub const INITIAL_DATA_SIZE: u32 = 1100;
/// Weight of a new Data size sample in the moving average (Wang et al.: `>> 3`).
pub const DATA_SIZE_GAIN: f64 = 0.125;

/// How the shaper's queue gets rid of Interests beyond its rate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShaperDrop {
    /// CoDel in drop mode (RFC 8289) on top of the tail drop at `limit`: PCON §4.6's shaper
    /// "uses the CoDel logic to signal back congestion via NACKs".
    Codel,
    /// Only the full queue refuses: an Interest beyond the rate waits, however long. CHoPCoP's
    /// FISP, whose Interests are "delayed temporarily".
    Tail,
}

/// Parameters of one Interest shaper.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShaperConfig {
    /// The capacity the shaper assumes for the Data direction, bit/s.
    pub capacity_bps: u64,
    /// Share of `capacity_bps` the returning Data are planned to fill, in (0, 1].
    pub headroom: f64,
    /// Interests the internal queue holds at most (tail drop beyond).
    pub limit: usize,
    /// What the internal queue drops by besides its limit.
    pub drop: ShaperDrop,
    /// CoDel parameters of the internal queue under [`ShaperDrop::Codel`] (drop mode; `mark` is
    /// ignored).
    pub codel: CodelConfig,
    /// Data size assumed before the first Data comes back, bytes.
    pub initial_data_size: u32,
    /// Weight of each new Data size sample in the moving average, in (0, 1].
    pub gain: f64,
    /// Per-flow fair share: `Some(k)` queues Interests per flow, a flow being the first `k`
    /// components of the name, and releases the flows in round robin (CHoPCoP's fair-share
    /// shaping). `None` (default): one FIFO, Wang et al.
    pub flow_components: Option<usize>,
}

impl ShaperConfig {
    /// Wang et al.'s defaults for a link of `capacity_bps`, with RFC 8289's CoDel.
    pub fn new(capacity_bps: u64) -> ShaperConfig {
        ShaperConfig {
            capacity_bps,
            headroom: DEFAULT_HEADROOM,
            limit: DEFAULT_LIMIT,
            drop: ShaperDrop::Codel,
            codel: CodelConfig::default(),
            initial_data_size: INITIAL_DATA_SIZE,
            gain: DATA_SIZE_GAIN,
            flow_components: None,
        }
    }
}

/// Counters of one shaper.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ShaperCounters {
    /// Interests released onto the link.
    pub released: u64,
    /// Interests CoDel dropped at a release (none under [`ShaperDrop::Tail`]).
    pub codel_drops: u64,
    /// Interests refused because the queue held `limit` already.
    pub tail_drops: u64,
    /// Data sizes fed to the estimate.
    pub data_samples: u64,
}

/// The Interests of one flow waiting in the shaper.
#[derive(Clone, Debug)]
struct Flow {
    /// The flow's name prefix (the root name when the shaper keeps one FIFO).
    prefix: Name,
    queue: Queue,
}

/// The Interest shaper of one link direction.
#[derive(Clone, Debug)]
pub struct InterestShaper {
    cfg: ShaperConfig,
    /// One queue per flow in order of first arrival; exactly one (the root flow) without
    /// `flow_components`. A flow whose queue empties keeps its slot, so a returning flow costs no
    /// allocation.
    flows: Vec<Flow>,
    /// The flow the next release looks at first (round robin).
    turn: usize,
    /// Interests waiting in all flows.
    waiting: usize,
    /// Moving average of the returning Data's wire size, bytes.
    data_size: f64,
    /// Time between two releases at the current estimate.
    gap: Time,
    /// The shaper is closed until then (the last release plus the gap at that instant).
    next_release: Time,
    scratch: Vec<Queued>,
    pub counters: ShaperCounters,
}

impl InterestShaper {
    pub fn new(cfg: ShaperConfig) -> InterestShaper {
        let mut s = InterestShaper {
            cfg,
            flows: Vec::new(),
            turn: 0,
            waiting: 0,
            data_size: cfg.initial_data_size as f64,
            gap: Time::ZERO,
            next_release: Time::ZERO,
            scratch: Vec::new(),
            counters: ShaperCounters::default(),
        };
        s.gap = s.compute_gap();
        if cfg.flow_components.is_none() {
            s.add_flow(Name::root());
        }
        s
    }

    fn add_flow(&mut self, prefix: Name) -> usize {
        let limit = Limit::Packets(self.cfg.limit);
        let queue = match self.cfg.drop {
            ShaperDrop::Codel => CodelQueue::new(limit, CodelConfig { mark: false, ..self.cfg.codel }).into(),
            ShaperDrop::Tail => DropTailQueue::new(limit).into(),
        };
        self.flows.push(Flow { prefix, queue });
        self.flows.len() - 1
    }

    /// The index of the flow `name` belongs to, adding the flow on its first Interest.
    fn flow_of(&mut self, name: &Name) -> usize {
        let Some(k) = self.cfg.flow_components else { return 0 };
        let hash = name.prefix_hash(k);
        let wire = name.prefix_wire(k);
        let found = self.flows.iter().position(|f| f.prefix.hash64() == hash && f.prefix.component_wire() == wire);
        found.unwrap_or_else(|| self.add_flow(name.prefix(k)))
    }

    pub fn config(&self) -> &ShaperConfig {
        &self.cfg
    }

    /// The current Data size estimate, bytes.
    pub fn data_size(&self) -> f64 {
        self.data_size
    }

    /// The current shaping rate, Interests per second.
    pub fn rate(&self) -> f64 {
        self.cfg.capacity_bps as f64 * self.cfg.headroom / (8.0 * self.data_size)
    }

    /// The current time between two releases: `8 x data_size / (capacity x headroom)`, rounded up
    /// to the nanosecond (the shaper never runs faster than its rate).
    pub fn gap(&self) -> Time {
        self.gap
    }

    /// Interests waiting, all flows together.
    pub fn len(&self) -> usize {
        self.waiting
    }

    pub fn is_empty(&self) -> bool {
        self.waiting == 0
    }

    /// The first flow's CoDel queue (the only one without `flow_components`), for its state:
    /// dropping, count, ... `None` before a per-flow shaper has seen an Interest, and under
    /// [`ShaperDrop::Tail`].
    pub fn queue(&self) -> Option<&CodelQueue> {
        match &self.flows.first()?.queue {
            Queue::Codel(q) => Some(q),
            _ => None,
        }
    }

    /// Interests waiting in the flow of `prefix` (per-flow mode; the whole queue otherwise).
    pub fn flow_len(&self, prefix: &Name) -> usize {
        let k = self.cfg.flow_components.unwrap_or(0);
        let wire = prefix.prefix_wire(k);
        self.flows.iter().find(|f| f.prefix.component_wire() == wire).map_or(0, |f| f.queue.len_packets())
    }

    fn compute_gap(&self) -> Time {
        let ns = self.data_size * 8.0 * 1e9 / (self.cfg.capacity_bps as f64 * self.cfg.headroom);
        Time(ns.ceil() as u64)
    }

    /// Offers an Interest to the shaper's queue. `Err(frame)` gives it back when the queue already
    /// holds `limit` Interests (tail drop). Call [`release`](Self::release) after it: an open
    /// shaper lets the Interest go at once.
    // The refused frame goes back by value, as `QueueDiscipline::enqueue` does.
    #[allow(clippy::result_large_err)]
    pub fn enqueue(&mut self, now: Time, frame: Frame) -> Result<(), Frame> {
        debug_assert_eq!(frame.packet.kind(), PacketKind::Interest, "only Interests are shaped");
        let size = frame.wire_size();
        let flow = self.flow_of(frame.packet.name());
        match self.flows[flow].queue.enqueue(now, Queued { frame, size, enqueued_at: now }) {
            Ok(()) => {
                self.waiting += 1;
                Ok(())
            }
            Err(item) => {
                self.counters.tail_drops += 1;
                Err(item.frame)
            }
        }
    }

    /// When [`release`](Self::release) has something to do: the instant the shaper opens, if an
    /// Interest is waiting (it may be `<= now`: release now). `None` when the queue is empty.
    pub fn poll_release(&self) -> Option<Time> {
        (!self.is_empty()).then_some(self.next_release)
    }

    /// The next flow in round-robin order with an Interest waiting (the shaper is not empty).
    fn next_flow(&self) -> usize {
        let n = self.flows.len();
        (0..n).map(|i| (self.turn + i) % n).find(|&i| !self.flows[i].queue.is_empty()).unwrap_or(0)
    }

    /// Releases the Interest at the head of the queue if the shaper is open at `now`, and closes it
    /// for one gap. CoDel runs at this dequeue: the Interests it drops are appended to `dropped`
    /// (the one returned is the first it kept: CoDel never drops the last Interest, whose
    /// departure leaves less than one packet queued). Returns `None` while the shaper is closed or
    /// when nothing waits.
    pub fn release(&mut self, now: Time, dropped: &mut Vec<Frame>) -> Option<Frame> {
        if now < self.next_release || self.is_empty() {
            return None;
        }
        let flow = self.next_flow();
        self.turn = (flow + 1) % self.flows.len();
        let mut scratch = std::mem::take(&mut self.scratch);
        let out = self.flows[flow].queue.dequeue(now, &mut scratch);
        self.waiting -= scratch.len() + out.is_some() as usize;
        self.counters.codel_drops += scratch.len() as u64;
        dropped.extend(scratch.drain(..).map(|q| q.frame));
        self.scratch = scratch;
        let d = out?;
        self.counters.released += 1;
        self.next_release = now + self.gap;
        Some(d.item.frame)
    }

    /// A Data of `wire_size` bytes came back over the reverse direction: update the estimate
    /// (the first sample replaces the initial value, later ones move it by `gain`).
    pub fn on_data(&mut self, wire_size: u32) {
        let x = wire_size as f64;
        self.data_size =
            if self.counters.data_samples == 0 { x } else { self.data_size + (x - self.data_size) * self.cfg.gain };
        self.counters.data_samples += 1;
        self.gap = self.compute_gap();
    }
}

#[cfg(test)]
#[path = "shaper_tests.rs"]
mod tests;
