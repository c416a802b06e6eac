//! MIRCC's link rate (Mahdian, Arianfar, Gibson, Oran, "MIRCC: Multipath-aware ICN Rate-based
//! Congestion Control", ACM ICN 2016): a drop-tail FIFO that computes, per link direction, the
//! rate each flow crossing it may ask for, in two classes, and stamps the smaller of its own and
//! the one already carried into every departing Data (docs/protocols/mircc.md).
//!
//! MIRCC's own text was not available to us beyond its abstract. What we follow: the SMIC paper
//! ("a rate calculation algorithm that revises mathematical equations in RCP"; routers "compare
//! R(t) in Data packets and their own R(t), and update Data packets' R(t) with smaller value";
//! "two classes, the primary and secondary"), the DPCCP paper (§II: routers "periodically
//! estimate the desire Interest forwarding rate"; §VII: η = 0.95, "dual-class sub-flow scheme")
//! and RCP's law (Dukkipati, Kobayashi, Zhang-Shen, McKeown, "Processor Sharing Flows in the
//! Internet", IWQoS 2005), revised for two classes:
//!
//! ```text
//! every T:  R1 <- R1 [1 + (T/d)(α (S1 - y1) - β q/d) / (η C)]     S1 = η C
//!           R2 <- R2 [1 + (T/d)(α (S2 - y2) - β q/d) / (η C)]     S2 = max(0, η C - y1)
//!           each clamped to [R_min, η C], starting at η C
//! ```
//!
//! y1 is the first class's arrival rate over the last T (Data without `MIRCC_SECONDARY`, and
//! every Interest and Nack: they use the capacity too), y2 the second class's (Data with the
//! flag), q the bits queued, C the direction's bandwidth. The first class aims at the whole
//! target η C; the second at what the first leaves. Both are normalised by η C, RCP's C, which
//! keeps R2's law finite when S2 is 0.
//!
//! Our choices, each with its reason:
//! * **d is a configured constant** (100 ms by default): a link cannot see its flows' RTTs (RCP
//!   carries each flow's RTT in its packet headers; NDN's Data carry none).
//! * **R_min = 0.001 η C** ([`MIN_RATE_FRACTION`]): a second class squeezed to nothing can still
//!   learn, from its Data's stamps, when room appears; 0 would be a rate it could never leave.
//! * **Updates are lazy**, on the first enqueue or dequeue of each interval, for every whole
//!   interval elapsed since the last: no timer event, and the same packets give the same rates.
//!   Nothing arrives or leaves between two operations, so the first elapsed interval takes the
//!   arrivals counted and the queue as it stands (it stood so at the boundary), and every later
//!   one takes no arrivals and the same queue: a constant factor, applied in closed form.
//! * **y counts every packet offered**, tail-dropped ones included: the demand the rate must
//!   match (RCP's "input traffic rate"), not only what fitted.
//! * **Stamped at departure**, as `rem.rs` marks: the rate the Data carries is the latest.
//!   Rates go on the wire as whole bits per second, rounded to nearest.

use super::{Dequeued, DropTailQueue, Limit, QueueDiscipline, Queued};
use crate::packet::lp::flags;
use crate::packet::{Frame, PacketKind};
use crate::Time;

/// R_min as a share of η C (our choice; see the module comment).
pub const MIN_RATE_FRACTION: f64 = 0.001;

/// The law's parameters (RCP's names; docs/protocols/mircc.md).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MirccConfig {
    /// η, the target share of the link's bandwidth, in (0, 1]. Default 0.95: DPCCP §VII-C-2,
    /// "the parameter setting (η in the original paper [13]) of link utilization in MIRCC is set
    /// to η = 0.95".
    pub eta: f64,
    /// α, the gain on spare capacity. Default 0.1, RCP's stable setting (Dukkipati et al. 2005).
    pub alpha: f64,
    /// β, the gain on the queue. Default 1, RCP's stable setting.
    pub beta: f64,
    /// T, the update interval. Default 10 ms (our choice: a tenth of d, as RCP updates several
    /// times per RTT).
    pub interval: Time,
    /// d, the flows' mean RTT the law assumes. Default 100 ms (our choice; see the module
    /// comment).
    pub rtt: Time,
}

impl Default for MirccConfig {
    fn default() -> Self {
        MirccConfig { eta: 0.95, alpha: 0.1, beta: 1.0, interval: Time::from_millis(10), rtt: Time::from_millis(100) }
    }
}

/// What the queue did, for tests and the link summary.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MirccCounters {
    /// Intervals the law was applied over (caught-up ones included).
    pub updates: u64,
    /// Data that left with their rates lowered or set here.
    pub stamped: u64,
}

/// The two rates and what they are computed from.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Law {
    cfg: MirccConfig,
    /// η C, bits/s: the target, the ceiling and the normaliser.
    target: f64,
    /// R_min, bits/s.
    floor: f64,
    r1: f64,
    r2: f64,
}

impl Law {
    fn new(cfg: MirccConfig, capacity_bps: u64) -> Law {
        let target = cfg.eta * capacity_bps as f64;
        Law { cfg, target, floor: MIN_RATE_FRACTION * target, r1: target, r2: target }
    }

    /// RCP's factor for one interval: 1 + (T/d)(α (S - y) - β q/d) / (η C), rates in bits/s,
    /// `q` in bits.
    fn factor(&self, spare_target: f64, y: f64, q: f64) -> f64 {
        let (t, d) = (self.cfg.interval.as_secs_f64(), self.cfg.rtt.as_secs_f64());
        1.0 + (t / d) * (self.cfg.alpha * (spare_target - y) - self.cfg.beta * q / d) / self.target
    }

    /// `r` after `n` intervals at a constant `factor`, clamped at every step: a factor of at most
    /// 0 takes it to the floor at once, and otherwise the steps move it one way, so clamping the
    /// end is clamping each step.
    fn step(&self, r: f64, factor: f64, n: u64) -> f64 {
        if factor <= 0.0 {
            return self.floor;
        }
        let moved = if n == 1 { r * factor } else { r * factor.powf(n as f64) };
        moved.clamp(self.floor, self.target)
    }

    /// A new bandwidth: a new target and floor, the rates clamped into them.
    fn set_capacity(&mut self, capacity_bps: u64) {
        let (r1, r2) = (self.r1, self.r2);
        *self = Law { r1, r2, ..Law::new(self.cfg, capacity_bps) };
        self.r1 = r1.clamp(self.floor, self.target);
        self.r2 = r2.clamp(self.floor, self.target);
    }

    /// Applies `n` intervals with arrival rates `y1`, `y2` (bits/s) and `q` bits queued.
    fn apply(&mut self, n: u64, (y1, y2): (f64, f64), q: f64) {
        let f1 = self.factor(self.target, y1, q);
        let f2 = self.factor((self.target - y1).max(0.0), y2, q);
        self.r1 = self.step(self.r1, f1, n);
        self.r2 = self.step(self.r2, f2, n);
    }
}

/// A FIFO with tail drop at `limit` that stamps MIRCC's rates into departing Data.
#[derive(Clone, Debug)]
pub struct MirccQueue {
    fifo: DropTailQueue,
    law: Law,
    /// The end of the interval whose arrivals `bits` counts.
    interval_end: Time,
    /// Bits offered in the current interval: first class, second class.
    bits: (u64, u64),
    pub counters: MirccCounters,
}

impl MirccQueue {
    /// A queue on a direction of `capacity_bps` bits/s; its first interval starts at 0.
    pub fn new(limit: Limit, cfg: MirccConfig, capacity_bps: u64) -> MirccQueue {
        MirccQueue {
            fifo: DropTailQueue::new(limit),
            law: Law::new(cfg, capacity_bps),
            interval_end: cfg.interval,
            bits: (0, 0),
            counters: MirccCounters::default(),
        }
    }

    pub fn limit(&self) -> Limit {
        self.fifo.limit()
    }
    pub fn config(&self) -> MirccConfig {
        self.law.cfg
    }
    /// The first-class rate R1 after the last update, bits/s.
    pub fn rate(&self) -> f64 {
        self.law.r1
    }
    /// The second-class rate R2 after the last update, bits/s.
    pub fn rate2(&self) -> f64 {
        self.law.r2
    }

    /// (R1, R2) as a Data leaving now would carry them: whole bits/s, rounded to nearest.
    pub fn stamp_rates(&self) -> (u64, u64) {
        (self.law.r1.round() as u64, self.law.r2.round() as u64)
    }

    /// The direction's bandwidth changed at `now` (a scenario event): the intervals elapsed are
    /// closed with the old one; from now on the target is η times the new one, and rates above
    /// it come down to it at once (RCP's R never exceeds C).
    pub fn set_capacity(&mut self, now: Time, capacity_bps: u64) {
        self.catch_up(now);
        self.law.set_capacity(capacity_bps);
    }

    /// Applies the law for every whole interval elapsed by `now` (see the module comment).
    fn catch_up(&mut self, now: Time) {
        if now < self.interval_end {
            return;
        }
        let t = self.law.cfg.interval;
        let later = (now - self.interval_end).0 / t.0;
        let secs = t.as_secs_f64();
        let y = (self.bits.0 as f64 / secs, self.bits.1 as f64 / secs);
        let q = self.fifo.len_bytes() as f64 * 8.0;
        self.law.apply(1, y, q);
        if later > 0 {
            self.law.apply(later, (0.0, 0.0), q);
        }
        self.counters.updates += 1 + later;
        self.interval_end += t * (1 + later);
        self.bits = (0, 0);
    }

    /// Counts an arrival's bits in its class.
    fn count(&mut self, item: &Queued) {
        let bits = u64::from(item.size) * 8;
        if is_second_class(&item.frame) {
            self.bits.1 += bits;
        } else {
            self.bits.0 += bits;
        }
    }

    /// Lowers (or sets) the Data's rates to this link's, keeping `size` in step with the frame's
    /// wire size: the fields are fixed-size, so only the first stamp changes it.
    fn stamp(&mut self, item: &mut Queued) {
        if item.frame.packet.kind() != PacketKind::Data || item.frame.net_size == 0 {
            return;
        }
        let (r1, r2) = self.stamp_rates();
        let had_both = item.frame.lp.ext.as_ref().is_some_and(|e| e.mircc_rate.is_some() && e.mircc_rate2.is_some());
        let before = if had_both { 0 } else { item.frame.wire_size() as i64 };
        let ext = item.frame.lp.ext_mut();
        ext.mircc_rate = Some(ext.mircc_rate.map_or(r1, |r| r.min(r1)));
        ext.mircc_rate2 = Some(ext.mircc_rate2.map_or(r2, |r| r.min(r2)));
        if !had_both {
            let after = item.frame.wire_size() as i64;
            item.size = (item.size as i64 + after - before).max(0) as u32;
        }
        self.counters.stamped += 1;
    }
}

/// A second-class Data: its sub-flow's Interest carried `MIRCC_SECONDARY`, which the producer
/// echoed. Interests, Nacks and link-layer IDLE frames use the capacity as the first class does.
fn is_second_class(frame: &Frame) -> bool {
    frame.packet.kind() == PacketKind::Data && frame.net_size != 0 && frame.lp.flags & flags::MIRCC_SECONDARY != 0
}

impl QueueDiscipline for MirccQueue {
    fn enqueue(&mut self, now: Time, item: Queued) -> Result<(), Queued> {
        self.catch_up(now);
        self.count(&item);
        self.fifo.enqueue(now, item)
    }

    fn dequeue(&mut self, now: Time, dropped: &mut Vec<Queued>) -> Option<Dequeued> {
        self.catch_up(now);
        let mut d = self.fifo.dequeue(now, dropped)?;
        self.stamp(&mut d.item);
        Some(d)
    }

    #[inline]
    fn len_packets(&self) -> usize {
        self.fifo.len_packets()
    }

    #[inline]
    fn len_bytes(&self) -> usize {
        self.fifo.len_bytes()
    }
}

#[cfg(test)]
#[path = "mircc_tests.rs"]
mod tests;
