//! Random Early Marking (REM): CHoPCoP's router-side congestion signal (Zhang et al., "A transport
//! protocol for content-centric networking with explicit congestion control", ICCCN 2014; used as
//! Sol.3 in the PTP paper §6, "an ECN-based (queue-based) congestion control scheme ... which
//! enables the bottleneck to queue sufficient packets").
//!
//! The CHoPCoP paper's text was not available to us (only its abstract: "a random early marking
//! (REM) scheme that explicitly signals network congestion"), so the marking law is RED's (Floyd
//! and Jacobson, "Random Early Detection Gateways for Congestion Avoidance", IEEE/ACM ToN 1993,
//! §4) with marking in place of dropping, as RFC 3168 §7 lets an ECN-capable RED queue do:
//!
//! ```text
//! avg <- (1 - w) * avg + w * q                   q: packets queued, the departing one included
//! p   =  0                                        avg <  min_th
//!        max_p * (avg - min_th) / (max_th - min_th)  min_th <= avg < max_th
//!        1                                        avg >= max_th
//! ```
//!
//! Choices, each with its reason (docs/protocols/chopcop.md lists the parameters):
//!
//! * **Only Data are marked.** CHoPCoP signals congestion to the receiver, and in NDN only the
//!   Data reach it; an Interest that took a mark would lose it at the next forwarder (NDN's
//!   CongestionMark is hop-by-hop on Interests). Interests and Nacks still count in `q`: they
//!   occupy the queue.
//! * **Decided at departure**, not at arrival as RED does: the mark then reaches the consumer one
//!   queueing delay sooner (the reason Linux's CoDel and this project's `codel` mark mode mark the
//!   departing packet), and the link counts marks where every discipline reports them
//!   ([`Dequeued::marked`]). `q` is the queue the departing packet leaves from, itself included,
//!   so a queue of one packet is `q = 1`.
//! * **No count-based spreading** (RED's `p_a = p_b / (1 - count * p_b)`): the marking
//!   probability is RED's `p_b` alone, linear in the queue. The spreading makes marks more regular
//!   but changes their mean rate little at small `max_p`, and without it the rate of marks at a
//!   given queue is the formula above, which a test can check.
//! * **The average's weight defaults to 1** (the instantaneous queue): the PTP paper calls
//!   CHoPCoP "queue-based" and gives no averaging, and a receiver that halves once per window
//!   already filters bursts of marks. RED's `w_q = 0.002` is one setting away.
//! * A packet already marked upstream is left as it is (one mark is all the receiver reads).
//!
//! Randomness comes from the queue's own ChaCha8 stream, seeded by the caller; one draw per Data
//! departing with `0 < p < 1`, none otherwise, so a run is reproducible.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::{Dequeued, DropTailQueue, Limit, QueueDiscipline, Queued};
use crate::packet::PacketKind;
use crate::Time;

/// REM parameters (RED's names; Floyd and Jacobson 1993 §4 and §11).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RemConfig {
    /// Average queue, in packets, below which nothing is marked. Default 20 packets: the PTP
    /// paper configures CHoPCoP "to queue sufficient packets in the bottleneck" (§6-B), so the
    /// band starts well above RED's 5.
    pub min_th: f64,
    /// Average queue, in packets, from which every Data is marked. Default 60 packets (RED's rule
    /// of thumb `max_th = 3 x min_th`).
    pub max_th: f64,
    /// Marking probability reached just below `max_th`. Default 0.1: Floyd's recommended
    /// setting for RED and ns-2's default (`linterm_ = 10`, max_p = 1 / linterm_).
    pub max_p: f64,
    /// Weight of the current queue length in the average, in (0, 1] (RED: 0.002; default 1, the
    /// instantaneous queue, see the module comment).
    pub weight: f64,
}

impl Default for RemConfig {
    fn default() -> Self {
        RemConfig { min_th: 20.0, max_th: 60.0, max_p: 0.1, weight: 1.0 }
    }
}

impl RemConfig {
    /// The marking probability at an average queue of `avg` packets.
    pub fn probability(&self, avg: f64) -> f64 {
        if avg < self.min_th {
            0.0
        } else if avg >= self.max_th {
            1.0
        } else {
            self.max_p * (avg - self.min_th) / (self.max_th - self.min_th)
        }
    }
}

/// A FIFO with tail drop at `limit` (a DropTail queue) whose departing Data are marked with RED's
/// probability.
#[derive(Clone, Debug)]
pub struct RemQueue {
    fifo: DropTailQueue,
    cfg: RemConfig,
    /// The moving average of the queue length, packets.
    avg: f64,
    rng: ChaCha8Rng,
}

impl RemQueue {
    pub fn new(limit: Limit, cfg: RemConfig, seed: u64) -> RemQueue {
        RemQueue { fifo: DropTailQueue::new(limit), cfg, avg: 0.0, rng: ChaCha8Rng::seed_from_u64(seed) }
    }

    pub fn limit(&self) -> Limit {
        self.fifo.limit()
    }
    pub fn config(&self) -> RemConfig {
        self.cfg
    }
    /// The average queue length after the last departure, packets.
    pub fn average(&self) -> f64 {
        self.avg
    }

    /// Whether the departing packet is marked, given the queue it leaves from (`q`, itself
    /// included). Draws only when the outcome is uncertain.
    fn decide(&mut self, q: usize, is_data: bool) -> bool {
        self.avg += (q as f64 - self.avg) * self.cfg.weight;
        if !is_data {
            return false;
        }
        let p = self.cfg.probability(self.avg);
        if p <= 0.0 {
            false
        } else if p >= 1.0 {
            true
        } else {
            uniform(&mut self.rng) < p
        }
    }

    /// Sets the mark, keeping `size` in step with the frame's encoded size. A frame marked
    /// upstream is left alone.
    fn mark(item: &mut Queued) -> bool {
        if item.frame.lp.congestion_mark != 0 {
            return false;
        }
        let before = item.frame.wire_size() as i64;
        item.frame.lp.congestion_mark = 1;
        let after = item.frame.wire_size() as i64;
        item.size = (item.size as i64 + after - before).max(0) as u32;
        true
    }
}

/// Uniform f64 in [0, 1) from the top 53 bits of one `u64` (as the loss models draw).
#[inline]
fn uniform<R: Rng + ?Sized>(rng: &mut R) -> f64 {
    (rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}

impl QueueDiscipline for RemQueue {
    #[inline]
    fn enqueue(&mut self, now: Time, item: Queued) -> Result<(), Queued> {
        self.fifo.enqueue(now, item)
    }

    fn dequeue(&mut self, now: Time, dropped: &mut Vec<Queued>) -> Option<Dequeued> {
        let q = self.fifo.len_packets();
        let mut d = self.fifo.dequeue(now, dropped)?;
        let is_data = d.item.frame.packet.kind() == PacketKind::Data;
        d.marked = self.decide(q, is_data) && Self::mark(&mut d.item);
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
#[path = "rem_tests.rs"]
mod tests;
