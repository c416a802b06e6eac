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

use std::collections::VecDeque;
use std::sync::Arc;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rustc_hash::FxHashMap;

use super::cc::{CcConfig, CongestionController, DataSample};
use super::rtt::{RttEstimator, RttOptions};
use crate::packet::{Frame, Interest, NackReason, NetPacket};
use crate::timers::Timers;
use crate::{Name, Time};

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
}

/// Cumulative counters; the driver samples them to build time series.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ConsumerStats {
    pub interests_sent: u64,
    pub retransmissions: u64,
    pub data_received: u64,
    pub payload_bytes: u64,
    pub timeouts: u64,
    pub nacks: u64,
    pub marks: u64,
    /// Segments given up after `max_retries`.
    pub abandoned: u64,
    pub rtt_samples: u64,
    pub rtt_sum: Time,
    pub rtt_min: Option<Time>,
    pub rtt_max: Option<Time>,
}

#[derive(Clone, Copy, Debug)]
struct Outstanding {
    sent_at: Time,
    deadline: Time,
    retries: u32,
    nacked: bool,
}

pub struct Consumer {
    config: ConsumerConfig,
    cc: Box<dyn CongestionController>,
    rtt: RttEstimator,
    rng: ChaCha8Rng,
    started: bool,
    next_segment: u64,
    /// Last segment of the object, once known.
    final_segment: Option<u64>,
    outstanding: FxHashMap<u64, Outstanding>,
    /// Retransmission timers as (segment, retries), cancelled lazily.
    timers: Timers<(u64, u32)>,
    /// Segments waiting for retransmission, with the attempt number they will be sent as.
    retx_queue: VecDeque<(u64, u32)>,
    next_send_at: Time,
    highest_sent: u64,
    /// When the RTO was last backed off: timeouts of Interests sent before then belong to the
    /// same loss episode and do not back it off again.
    last_backoff: Option<Time>,
    finished_at: Option<Time>,
    pub stats: ConsumerStats,
}

impl Consumer {
    pub fn new(config: ConsumerConfig, seed: u64) -> Consumer {
        let cc = config.cc.build(seed ^ 0x5241_4151_4d00);
        let final_segment = config.segments.map(|n| n.saturating_sub(1));
        let finished_at = (config.segments == Some(0)).then_some(config.start);
        Consumer {
            rtt: RttEstimator::new(config.rtt),
            cc,
            rng: ChaCha8Rng::seed_from_u64(seed),
            started: false,
            next_segment: 0,
            final_segment,
            outstanding: FxHashMap::default(),
            timers: Timers::new(),
            retx_queue: VecDeque::new(),
            next_send_at: config.start,
            highest_sent: 0,
            last_backoff: None,
            finished_at,
            stats: ConsumerStats::default(),
            config,
        }
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
    pub fn rto(&self) -> Time {
        self.rtt.rto()
    }
    pub fn controller_name(&self) -> &'static str {
        self.cc.name()
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
                if let Some(last) = d.final_segment() {
                    self.learn_final_segment(last);
                }
                self.on_data(now, seg, d.content.len(), &frame);
            }
            NetPacket::Nack(n) => {
                let Some(seg) = n.interest.name.last().and_then(|c| c.as_segment()) else { return };
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
        self.final_segment = Some(self.final_segment.map_or(last, |f| f.min(last)));
        // Segments past the end will never come back: forget them.
        self.outstanding.retain(|&s, _| s <= last);
        self.retx_queue.retain(|&(s, _)| s <= last);
    }

    fn on_data(&mut self, now: Time, seg: u64, payload: usize, frame: &Frame) {
        let o = match self.outstanding.remove(&seg) {
            Some(o) => o,
            None => match self.retx_queue.iter().position(|&(s, _)| s == seg) {
                // Its timer fired but the resend has not gone out yet: late Data still counts
                // (with no RTT sample, as for any retransmitted segment).
                Some(pos) => {
                    let (_, retries) = self.retx_queue.remove(pos).unwrap_or((seg, 1));
                    Outstanding { sent_at: now, deadline: now, retries, nacked: false }
                }
                None => return,
            },
        };
        self.stats.data_received += 1;
        self.stats.payload_bytes += payload as u64;
        if frame.lp.congestion_mark > 0 {
            self.stats.marks += 1;
        }
        let rtt = (o.retries == 0).then(|| now - o.sent_at);
        if let Some(rtt) = rtt {
            self.rtt.add_sample(rtt);
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
            lp: &frame.lp,
        };
        self.cc.on_data(now, &sample);
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
            if self.config.max_retries.is_some_and(|max| o.retries >= max) {
                self.stats.abandoned += 1;
            } else {
                self.retx_queue.push_back((seg, o.retries + 1));
            }
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
        let outstanding = &self.outstanding;
        let mut next = self.config.stop;
        if let Some((deadline, _)) = self.timers.peek(|at, key| is_live(outstanding, at, key)) {
            next = Some(next.map_or(deadline, |n| n.min(deadline)));
        }
        if self.cc.interval().is_some() && self.has_segment_to_send() {
            next = Some(next.map_or(self.next_send_at, |n| n.min(self.next_send_at)));
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
        }
        loop {
            let outstanding = &self.outstanding;
            let Some((_, (seg, _))) = self.timers.pop_due(now, |at, key| is_live(outstanding, at, key)) else { break };
            let Some(o) = self.outstanding.get(&seg).copied() else { continue };
            self.on_timer(now, seg, o);
        }
        self.check_finished(now);
        self.send_allowed(now, out);
    }

    fn on_timer(&mut self, now: Time, seg: u64, o: Outstanding) {
        self.outstanding.remove(&seg);
        if !o.nacked {
            self.stats.timeouts += 1;
            // Back off once per loss episode, as TCP does with its single timer: Interests sent
            // before the last backoff that time out with it are the same event, not one doubling
            // each (a burst of 60 drops would otherwise push the RTO to its maximum).
            if self.last_backoff.is_none_or(|t| o.sent_at >= t) {
                self.rtt.backoff();
                self.last_backoff = Some(now);
            }
            self.cc.on_timeout(now, seg);
        }
        if self.config.max_retries.is_some_and(|max| o.retries >= max) {
            self.stats.abandoned += 1;
            return;
        }
        self.retx_queue.push_back((seg, o.retries + 1));
    }

    fn has_segment_to_send(&self) -> bool {
        !self.retx_queue.is_empty() || self.final_segment.is_none_or(|f| self.next_segment <= f)
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
        if stopped || complete {
            self.finished_at = Some(now);
        }
    }

    fn send_allowed(&mut self, now: Time, out: &mut Vec<Frame>) {
        if !self.started || self.is_finished() {
            return;
        }
        loop {
            if let Some(w) = self.cc.window() {
                if self.outstanding.len() as f64 >= w.max(1.0).floor() {
                    return;
                }
            }
            let interval = self.cc.interval();
            if interval.is_some() && now < self.next_send_at {
                return;
            }
            let Some((seg, retries)) = self.pick_segment() else { return };
            self.send(now, seg, retries, out);
            if let Some(iv) = interval {
                // Sends happen exactly at `next_send_at` (it is a timer), so this keeps the rate
                // exact, and after an idle gap restarts from now instead of bursting.
                self.next_send_at = now + iv;
            }
        }
    }

    fn pick_segment(&mut self) -> Option<(u64, u32)> {
        if let Some(next) = self.retx_queue.pop_front() {
            return Some(next);
        }
        if self.final_segment.is_some_and(|f| self.next_segment > f) {
            return None;
        }
        let seg = self.next_segment;
        self.next_segment += 1;
        Some((seg, 0))
    }

    fn send(&mut self, now: Time, seg: u64, retries: u32, out: &mut Vec<Frame>) {
        // A controller's own timer (ICP) is bounded like the estimator's, by the [min, max] RTO.
        let (lo, hi) = (self.config.rtt.min_rto, self.config.rtt.max_rto);
        let deadline = now + self.cc.rto().map_or_else(|| self.rtt.rto(), |r| r.clamp(lo, hi));
        self.outstanding.insert(seg, Outstanding { sent_at: now, deadline, retries, nacked: false });
        self.timers.push(deadline, (seg, retries));
        self.stats.interests_sent += 1;
        if retries > 0 {
            self.stats.retransmissions += 1;
        }
        self.highest_sent = self.highest_sent.max(seg);
        self.cc.on_interest_sent(now, seg, retries > 0);
        let name = self.config.name.append_segment(seg);
        let interest = Interest::new(name, self.rng.next_u32(), self.config.lifetime);
        out.push(Frame::interest(Arc::new(interest)));
    }
}

/// A retransmission timer is live while its segment is outstanding with the same attempt and
/// deadline (a Data, a Nack followed by resend, or a give-up makes it dead).
fn is_live(outstanding: &FxHashMap<u64, Outstanding>, at: Time, (seg, retries): (u64, u32)) -> bool {
    outstanding.get(&seg).is_some_and(|o| o.retries == retries && o.deadline == at)
}
