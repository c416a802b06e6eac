//! Consumer: fetches a named object segment by segment (/name/seg=N, NDN naming conventions), with a
//! pluggable congestion controller, retransmission on timeout, and start/stop times.
//!
//! Timeouts follow RFC 6298 with Karn's rule (ndncatchunks): a segment's timer is its send time plus
//! the RTO in force; on expiry the RTO doubles and the segment is retransmitted before any new one.
//! A Nack is counted and reported to the controller (with its congestion mark). A Nack(Congestion)
//! that took time to come back (a link loss reported by PCON §3.5's loss detection, or congestion
//! upstream) is retransmitted at once, as ndncatchunks does: that is the point of signalling a loss
//! instead of letting it time out. Other Nacks, and one answered at the instant of sending (a local
//! refusal), wait for the segment's timer, without counting a timeout: retransmitting at once could
//! loop at a single instant when a router keeps answering Nack (ndnSIM's Consumer likewise leaves
//! retransmission to its timer).
//!
//! With `TimerModel::NdnSim` (the PCON authors' ndnSIM consumer) there are no per-Interest timers:
//! a check every `check` interval times out each outstanding Interest whose send time plus the RTO
//! *of that moment* has passed, oldest first, and every such timeout doubles the RTO multiplier.
//!
//! Every Interest sent is counted once, under the first thing that settles it: its Data, its
//! timeout, its Nack, a multipath transport's order-based loss detection, FinalBlockId placing it
//! past the end, or the end of the run with it still outstanding. docs/protocols/consumer.md
//! ("Conservation") states the identity the counters satisfy.
//!
//! With a catalog (`app::catalog`) the consumer fetches objects one after another: when the last
//! segment of one arrives it draws the next and goes on at once, with the same congestion
//! controller and RTT estimator, as an application reusing one TCP connection would (a fresh
//! slow start per object would make completion times depend on object size in a way the SMIC
//! paper's workload, one long-lived consumer per user, does not have). Segment numbers run on
//! across objects inside the consumer, so controllers that compare them see one stream; names carry
//! the object's own segment number.
//!
//! `InFlightRule::ConsumerCc` counts Interests in flight as that consumer (`ConsumerCC`) does, see
//! the rule's comment; by default a new Interest leaves while fewer than floor(cwnd) segments are
//! outstanding.

use std::collections::VecDeque;
use std::sync::Arc;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rustc_hash::FxHashMap;

use super::batches::Batches;
use super::catalog::{Catalog, CatalogConfig, ZipfMandelbrot};
use super::cc::{CcConfig, Controller, DataSample};
use super::multipath::{PathReport, PathSend};
use super::rtt::{RttEstimator, RttOptions};
use super::rtt_histogram::RttHistogram;
use super::send_jitter::SendJitter;
use crate::grow::OutOfMemory;
use crate::packet::{Frame, Interest, NackReason, NetPacket};
use crate::timers::Timers;
use crate::{Name, Time};

/// How a window controller's consumer counts its Interests in flight.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum InFlightRule {
    /// The segments sent and neither answered nor timed out (ndncatchunks); a new Interest leaves
    /// while there are fewer than floor(cwnd).
    #[default]
    Outstanding,
    /// The PCON authors' ndnSIM consumer (`ConsumerCC`, gholamifrd/ndnSIM @ 075bd07,
    /// apps/ndn-consumer-pcon.cpp): a counter, +1 for every Interest sent, -1 for every timeout,
    /// every Data and every Nack that leads to a resend, never below 0; Interests leave until it
    /// exceeds cwnd (`ScheduleNextPacket` holds back only while `m_cwnd < m_inFlight`), so up to
    /// floor(cwnd) + 1 are in flight. An Interest that times out and whose Data then comes
    /// before its resend leaves is counted out twice, so each such spurious timeout lets one
    /// more Interest into flight for the rest of the run.
    ConsumerCc,
}

#[derive(Clone, Debug)]
pub struct ConsumerConfig {
    /// Object name; segment components are appended to it.
    pub name: Name,
    pub start: Time,
    pub stop: Option<Time>,
    /// Number of segments to fetch; `None` = until FinalBlockId says the object ends.
    pub segments: Option<u64>,
    pub cc: CcConfig,
    pub lifetime: Time,
    pub rtt: RttOptions,
    /// Retransmissions allowed per segment before giving it up; `None` = unlimited.
    pub max_retries: Option<u32>,
    /// How Interests in flight are counted against a window.
    pub in_flight: InFlightRule,
    /// Upper bound of a uniform random delay before each send opportunity (ns-2's TCP
    /// `overhead_`, `send_jitter`); zero, the default, sends at once.
    pub send_jitter: Time,
    /// Fetch objects `<name>/<rank>` of `segments` segments each, one after another, by
    /// Zipf-Mandelbrot popularity; `None`: fetch `name` once.
    pub catalog: Option<CatalogConfig>,
    /// Ask for the segments in batches at given times after the start (ndnSIM ConsumerBatches);
    /// `segments` is then their total. `None`: every segment may be asked for from the start.
    pub batches: Option<Batches>,
}

/// Cumulative counters; the driver samples them to build time series.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ConsumerStats {
    pub interests_sent: u64,
    pub retransmissions: u64,
    pub data_received: u64,
    /// Of `data_received`, those a Content Store or simulated cache answered (`DataOrigin`).
    pub data_from_cache: u64,
    pub payload_bytes: u64,
    pub timeouts: u64,
    pub nacks: u64,
    pub marks: u64,
    /// Segments given up after `max_retries`.
    pub abandoned: u64,
    /// Interests a multipath transport found lost by order (PTP §5, MPCCP's loss detection) and
    /// took back to resend or give up, not already counted by a Nack.
    pub losses: u64,
    /// Data accepted (in `data_received`) for an Interest already counted by its timeout, its
    /// Nack or a detected loss: it came after all.
    pub late_data: u64,
    /// Interests outstanding, not Nacked, whose segment FinalBlockId then showed past the end.
    pub forgotten: u64,
    pub rtt_samples: u64,
    pub rtt_sum: Time,
    pub rtt_min: Option<Time>,
    pub rtt_max: Option<Time>,
}

#[derive(Clone, Copy, Debug)]
struct Outstanding {
    sent_at: Time,
    /// When the segment's first Interest left (`sent_at` until it is resent): the full delay of
    /// the per-segment records starts there.
    first_sent: Time,
    deadline: Time,
    retries: u32,
    nacked: bool,
}

/// A segment waiting in the retransmission queue.
#[derive(Clone, Copy, Debug)]
struct Retry {
    seg: u64,
    /// The attempt it will be sent as (1 for its first resend).
    retries: u32,
    first_sent: Time,
    /// When its last Interest left, for a Data that comes before the resend does.
    last_sent: Time,
}

pub struct Consumer {
    config: ConsumerConfig,
    cc: Controller,
    rtt: RttEstimator,
    rng: ChaCha8Rng,
    started: bool,
    next_segment: u64,
    /// Last segment of the object, once known.
    final_segment: Option<u64>,
    /// Segments below this number may be asked for: the batches due so far (`u64::MAX` without
    /// batches).
    released: u64,
    /// When the next batch is due (absolute), while one is.
    next_batch: Option<Time>,
    outstanding: FxHashMap<u64, Outstanding>,
    /// `InFlightRule::ConsumerCc`'s counter (kept under either rule; read only under that one).
    counted_in_flight: u64,
    /// Retransmission timers as (segment, retries), cancelled lazily.
    timers: Timers<(u64, u32)>,
    /// Segments waiting for retransmission.
    retx_queue: VecDeque<Retry>,
    next_send_at: Time,
    jitter: SendJitter,
    highest_sent: u64,
    /// When the RTO was last backed off: timeouts of Interests sent before then belong to the
    /// same loss episode and do not back it off again.
    last_backoff: Option<Time>,
    /// Next periodic check (`TimerModel::NdnSim` only), and no later than the earliest send
    /// among outstanding Interests (`consumer_timers.rs`: the check skips its scan before then).
    next_check: Time,
    oldest_sent: Time,
    finished_at: Option<Time>,
    /// A catalog consumer's think time: nothing is sent before this instant (`CatalogConfig::gap`).
    resume_at: Option<Time>,
    catalog: Option<Box<Catalog>>,
    seed: u64,
    pub stats: ConsumerStats,
    /// The RTT samples of `stats`, for their percentiles.
    rtt_histogram: RttHistogram,
    /// The per-segment records' sink (`consumer_records`), `None` unless asked for.
    records: Option<Vec<SegmentRecord>>,
    /// The first growth the allocator refused (`crate::grow`); the consumer sends no more.
    out_of_memory: Option<OutOfMemory>,
}

/// Mixed into the consumer's seed for its controller's.
const CC_SEED: u64 = 0x5241_4151_4d00;

impl Consumer {
    pub fn new(config: ConsumerConfig, seed: u64) -> Consumer {
        Consumer::with_catalog_table(config, seed, None)
    }

    /// A consumer whose catalog (if it has one) draws from `table`, the Zipf table of its
    /// `config.catalog`'s objects, alpha and q, or from a table of its own (`None`): a driver
    /// builds one table for all the consumers of one catalog (8 bytes an object each otherwise:
    /// 8 MB for a million objects).
    pub fn with_catalog_table(config: ConsumerConfig, seed: u64, table: Option<ZipfMandelbrot>) -> Consumer {
        let cc = config.cc.build(seed ^ CC_SEED, config.rtt);
        let final_segment = config.segments.map(|n| n.saturating_sub(1));
        let finished_at = (config.segments == Some(0)).then_some(config.start);
        let catalog = config.catalog.map(|c| {
            let zipf = table.unwrap_or_else(|| ZipfMandelbrot::new(c.objects, c.alpha, c.q));
            Box::new(Catalog::new(zipf, config.name.clone(), seed))
        });
        Consumer {
            rtt: RttEstimator::new(config.rtt),
            cc,
            rng: ChaCha8Rng::seed_from_u64(seed),
            seed,
            started: false,
            next_segment: 0,
            final_segment,
            released: if config.batches.is_some() { 0 } else { u64::MAX },
            next_batch: config.batches.as_ref().and_then(|b| b.as_slice().first()).map(|b| config.start + b.at),
            outstanding: FxHashMap::default(),
            counted_in_flight: 0,
            timers: Timers::new(),
            retx_queue: VecDeque::new(),
            next_send_at: config.start,
            jitter: SendJitter::new(config.send_jitter),
            highest_sent: 0,
            last_backoff: None,
            next_check: Time::ZERO,
            oldest_sent: Time::ZERO,
            finished_at,
            catalog,
            resume_at: None,
            stats: ConsumerStats::default(),
            rtt_histogram: RttHistogram::default(),
            records: None,
            out_of_memory: None,
            config,
        }
    }

    /// The controller's seed (a catalog consumer that restarts per object builds it again).
    pub(super) fn cc_seed(&self) -> u64 {
        self.seed ^ CC_SEED
    }

    pub fn config(&self) -> &ConsumerConfig {
        &self.config
    }
    pub fn is_finished(&self) -> bool {
        self.finished_at.is_some()
    }
    /// When the consumer finished (object complete or stop time reached).
    pub fn finished_at(&self) -> Option<Time> {
        self.finished_at
    }
    pub fn window(&self) -> Option<f64> {
        self.cc.window()
    }
    /// Started and not yet finished: the window means something only then.
    pub fn is_active(&self) -> bool {
        self.started && self.finished_at.is_none()
    }
    pub fn in_flight(&self) -> usize {
        self.outstanding.len()
    }
    /// Bytes the consumer holds for its Interests in flight and waiting to be resent, for a
    /// driver's memory watch: its outstanding map, timers and resend queue at their capacities
    /// (each keeps what it grew to).
    pub fn reserved_bytes(&self) -> usize {
        use std::mem::size_of;
        self.outstanding.capacity() * (size_of::<(u64, Outstanding)>() + 1)
            + self.timers.reserved_bytes()
            + self.retx_queue.capacity() * size_of::<Retry>()
    }
    /// Of `in_flight`, the Interests already counted by a Nack (they wait for their timer).
    pub fn in_flight_nacked(&self) -> usize {
        self.outstanding.values().filter(|o| o.nacked).count()
    }
    pub fn rto(&self) -> Time {
        self.rtt.rto()
    }
    /// The RTT samples counted in `stats`, for their percentiles.
    pub fn rtt_histogram(&self) -> &RttHistogram {
        &self.rtt_histogram
    }
    pub fn controller_name(&self) -> &'static str {
        self.cc.name()
    }
    /// Replaces the controller `config.cc` built (one of another crate's). Before the start.
    pub fn set_controller(&mut self, cc: Controller) {
        self.cc = cc;
    }
    /// A multipath transport's paths (`None` for a single-path controller).
    pub fn paths(&self) -> Option<Vec<PathReport>> {
        match &self.cc {
            Controller::Multipath(m) => Some(m.paths()),
            Controller::Single(_) => None,
        }
    }

    /// Handles a Data or Nack from the forwarder and sends what the controller then allows.
    pub fn handle(&mut self, now: Time, frame: Frame, out: &mut Vec<Frame>) {
        if self.is_finished() {
            // Stopped: what still arrives is not counted (goodput's span ended at the stop).
            return;
        }
        match &frame.packet {
            NetPacket::Data(d) => {
                let Some(seg) = d.name.last().and_then(|c| c.as_segment()) else { return };
                let Some(seg) = self.own_segment(&d.name, seg) else { return };
                if let Some(last) = d.final_segment() {
                    self.learn_final_segment(last);
                }
                self.on_data(now, seg, d.content.len(), &frame);
            }
            NetPacket::Nack(n) => {
                let Some(seg) = n.interest.name.last().and_then(|c| c.as_segment()) else { return };
                let Some(seg) = self.own_segment(&n.interest.name, seg) else { return };
                self.on_nack(now, seg, n.reason, frame.lp.congestion_mark != 0);
            }
            NetPacket::Interest(_) => return,
        }
        self.check_finished(now);
        self.send_allowed(now, out);
    }

    fn learn_final_segment(&mut self, last: u64) {
        let last = match self.config.segments {
            Some(n) => last.min(n.saturating_sub(1)),
            None => last,
        };
        let last = last + self.catalog.as_ref().map_or(0, |c| c.base);
        self.final_segment = Some(self.final_segment.map_or(last, |f| f.min(last)));
        // Segments past the end will never come back: forget them (they leave the count of
        // `InFlightRule::ConsumerCc` too, where ndnSIM would time them out one by one).
        let before = self.outstanding.len();
        let mut forgotten = 0;
        self.outstanding.retain(|&s, o| {
            forgotten += u64::from(s > last && !o.nacked);
            s <= last
        });
        self.stats.forgotten += forgotten;
        self.counted_in_flight = self.counted_in_flight.saturating_sub((before - self.outstanding.len()) as u64);
        self.retx_queue.retain(|r| r.seg <= last);
    }

    fn on_data(&mut self, now: Time, seg: u64, payload: usize, frame: &Frame) {
        // `counted`: the Interest is counted already, by its Nack, or by the timeout, Nack or
        // loss that took it out of flight.
        // `resent`: Interests sent again for it (a queued segment's `retries` is the attempt it
        // was waiting to go as, not yet sent).
        let (o, counted, resent) = match self.outstanding.remove(&seg) {
            Some(o) => (o, o.nacked, o.retries),
            None => match self.retx_queue.iter().position(|r| r.seg == seg) {
                // Its timer fired but the resend has not gone out yet: late Data still counts
                // (with no RTT sample, as for any retransmitted segment).
                Some(pos) => {
                    let Some(r) = self.retx_queue.remove(pos) else { return };
                    let (sent_at, first_sent, retries) = (r.last_sent, r.first_sent, r.retries);
                    (
                        Outstanding { sent_at, first_sent, deadline: now, retries, nacked: false },
                        true,
                        retries.saturating_sub(1),
                    )
                }
                None => return,
            },
        };
        let origin = frame.origin();
        self.record(seg, &o, resent, Some((now, origin)));
        self.stats.late_data += u64::from(counted);
        self.counted_in_flight = self.counted_in_flight.saturating_sub(1);
        self.stats.data_received += 1;
        self.stats.data_from_cache += u64::from(origin.from_cache);
        self.stats.payload_bytes += payload as u64;
        if frame.lp.congestion_mark > 0 {
            self.stats.marks += 1;
        }
        let rtt = (o.retries == 0).then(|| now - o.sent_at);
        if let Some(rtt) = rtt {
            self.rtt.add_sample(rtt);
            self.rtt_histogram.add(rtt);
            let s = &mut self.stats;
            s.rtt_samples += 1;
            s.rtt_sum += rtt;
            s.rtt_min = Some(s.rtt_min.map_or(rtt, |m| m.min(rtt)));
            s.rtt_max = Some(s.rtt_max.map_or(rtt, |m| m.max(rtt)));
        }
        let sample = DataSample {
            segment: seg,
            rtt,
            congestion_mark: frame.lp.congestion_mark,
            highest_sent: self.highest_sent,
            in_flight: self.outstanding.len(),
            wire_size: frame.wire_size(),
            lp: &frame.lp,
        };
        self.cc.on_data(now, &sample);
        self.resend_path_losses(true);
    }

    fn on_nack(&mut self, now: Time, seg: u64, reason: NackReason, marked: bool) {
        let Some(o) = self.outstanding.get_mut(&seg) else { return };
        if o.nacked {
            return;
        }
        o.nacked = true;
        let o = *o;
        self.stats.nacks += 1;
        self.cc.on_nack(now, seg, reason, marked);
        if reason == NackReason::Congestion && now > o.sent_at {
            // Its timer dies with the outstanding record; the resend goes before new segments.
            self.outstanding.remove(&seg);
            self.counted_in_flight = self.counted_in_flight.saturating_sub(1);
            self.retry(seg, o, false);
        }
    }

    /// When the consumer next needs `handle_timeout`: its start, a retransmission timer, or (for a
    /// rate-based controller) the next sending slot.
    pub fn poll_timeout(&mut self) -> Option<Time> {
        if self.is_finished() {
            return None;
        }
        if !self.started {
            return Some(self.config.start);
        }
        if let Some(t) = self.resume_at {
            // Between two objects nothing is outstanding (the last one completed) and nothing may
            // leave: the only wake-ups are the next request and the stop. (After a send that met
            // `MAX_SENDS_PER_CALL`, `t` is now, which no timer can come before.)
            return Some(self.config.stop.map_or(t, |s| s.min(t)));
        }
        let outstanding = &self.outstanding;
        let mut next = self.config.stop;
        if let Some((deadline, _)) = self.timers.peek(|at, key| is_live(outstanding, at, key)) {
            next = Some(next.map_or(deadline, |n| n.min(deadline)));
        }
        if self.check_interval().is_some() && !self.outstanding.is_empty() {
            next = Some(next.map_or(self.next_check, |n| n.min(self.next_check)));
        }
        // While a send is held by the jitter, a sending slot or a probe that comes due cannot
        // act before it: waking for them would find the send still held, at the same instant,
        // again and again.
        let held = self.jitter.deadline().unwrap_or(Time::ZERO);
        if self.cc.interval().is_some() && self.has_segment_to_send() {
            let t = self.next_send_at.max(held);
            next = Some(next.map_or(t, |n| n.min(t)));
        }
        if let Some(t) = self.next_batch {
            next = Some(next.map_or(t, |n| n.min(t)));
        }
        if let Controller::Multipath(m) = &self.cc {
            // With only resends to send, the manager's probes are not a way out (`can_resend`).
            let wake = if self.has_new_segment() {
                m.poll_timeout()
            } else if !self.retx_queue.is_empty() {
                m.poll_resend()
            } else {
                None
            };
            if let Some(t) = wake {
                let t = t.max(held);
                next = Some(next.map_or(t, |n| n.min(t)));
            }
        }
        if let Some(t) = self.jitter.deadline() {
            next = Some(next.map_or(t, |n| n.min(t)));
        }
        next
    }

    /// Starts the consumer, fires expired retransmission timers, and sends what is allowed.
    pub fn handle_timeout(&mut self, now: Time, out: &mut Vec<Frame>) {
        if self.is_finished() || now < self.config.start {
            return;
        }
        if !self.started {
            self.started = true;
            self.next_send_at = now;
            let path_data = self.path_data().unwrap_or_default();
            if let Some(c) = &mut self.catalog {
                c.begin(now, self.stats.payload_bytes, path_data);
            }
        }
        loop {
            let outstanding = &self.outstanding;
            let Some((_, (seg, _))) = self.timers.pop_due(now, |at, key| is_live(outstanding, at, key)) else { break };
            let Some(o) = self.outstanding.get(&seg).copied() else { continue };
            if let Some(later) = self.restarted_deadline(now, seg, o) {
                self.outstanding.insert(seg, Outstanding { deadline: later, ..o });
                self.timers.push(later, (seg, o.retries));
                continue;
            }
            self.on_timer(now, seg, o);
        }
        self.release_batches(now);
        if let Some(every) = self.check_interval() {
            if now >= self.next_check {
                self.periodic_check(now);
                self.next_check = next_tick(now, every);
            }
        }
        if let Controller::Multipath(m) = &mut self.cc {
            m.handle_timeout(now);
        }
        self.check_finished(now);
        self.send_allowed(now, out);
    }

    /// Releases the batches due by `now` (`app::batches`).
    fn release_batches(&mut self, now: Time) {
        let Some(batches) = &self.config.batches else { return };
        if self.next_batch.is_none_or(|t| now < t) {
            return;
        }
        let since_start = now.saturating_sub(self.config.start);
        self.released = batches.released(since_start);
        self.next_batch = batches.next_after(since_start).map(|at| self.config.start + at);
    }

    fn check_finished(&mut self, now: Time) {
        if self.finished_at.is_some() {
            return;
        }
        let stopped = self.config.stop.is_some_and(|s| now >= s);
        let complete = self.started
            && self.final_segment.is_some_and(|f| self.next_segment > f)
            && self.outstanding.is_empty()
            && self.retx_queue.is_empty();
        if complete && !stopped && self.catalog.is_some() {
            self.next_object(now);
        } else if stopped || complete {
            self.finished_at = Some(now);
        }
    }
}

#[path = "consumer_catalog.rs"]
mod catalog_objects;
#[path = "consumer_sending.rs"]
mod sending;
#[path = "consumer_timers.rs"]
mod timeouts;
use timeouts::{is_live, next_tick};
#[path = "consumer_records.rs"]
mod records;
pub use records::SegmentRecord;

#[cfg(test)]
#[path = "consumer_tests.rs"]
mod tests;
