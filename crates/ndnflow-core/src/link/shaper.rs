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
//! The shaper is sans-IO: every call gets `now`; [`InterestShaper::poll_release`] says when the
//! caller should next call [`InterestShaper::release`]. Parameters, defaults and sources are in
//! docs/protocols/shaper.md.

use super::{CodelConfig, CodelQueue, Limit, QueueDiscipline, Queued};
use crate::packet::PacketKind;
use crate::{Frame, Time};

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

/// Parameters of one Interest shaper.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShaperConfig {
    /// The capacity the shaper assumes for the Data direction, bit/s.
    pub capacity_bps: u64,
    /// Share of `capacity_bps` the returning Data are planned to fill, in (0, 1].
    pub headroom: f64,
    /// Interests the internal queue holds at most (tail drop beyond).
    pub limit: usize,
    /// CoDel parameters of the internal queue (drop mode; `mark` is ignored).
    pub codel: CodelConfig,
    /// Data size assumed before the first Data comes back, bytes.
    pub initial_data_size: u32,
    /// Weight of each new Data size sample in the moving average, in (0, 1].
    pub gain: f64,
}

impl ShaperConfig {
    /// Wang et al.'s defaults for a link of `capacity_bps`, with RFC 8289's CoDel.
    pub fn new(capacity_bps: u64) -> ShaperConfig {
        ShaperConfig {
            capacity_bps,
            headroom: DEFAULT_HEADROOM,
            limit: DEFAULT_LIMIT,
            codel: CodelConfig::default(),
            initial_data_size: INITIAL_DATA_SIZE,
            gain: DATA_SIZE_GAIN,
        }
    }
}

/// Counters of one shaper.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ShaperCounters {
    /// Interests released onto the link.
    pub released: u64,
    /// Interests CoDel dropped at a release.
    pub codel_drops: u64,
    /// Interests refused because the queue held `limit` already.
    pub tail_drops: u64,
    /// Data sizes fed to the estimate.
    pub data_samples: u64,
}

/// The Interest shaper of one link direction.
#[derive(Clone, Debug)]
pub struct InterestShaper {
    cfg: ShaperConfig,
    queue: CodelQueue,
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
        let codel = CodelConfig { mark: false, ..cfg.codel };
        let mut s = InterestShaper {
            cfg,
            queue: CodelQueue::new(Limit::Packets(cfg.limit), codel),
            data_size: cfg.initial_data_size as f64,
            gap: Time::ZERO,
            next_release: Time::ZERO,
            scratch: Vec::new(),
            counters: ShaperCounters::default(),
        };
        s.gap = s.compute_gap();
        s
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

    /// Interests waiting.
    pub fn len(&self) -> usize {
        self.queue.len_packets()
    }

    pub fn is_empty(&self) -> bool {
        self.queue.is_empty()
    }

    /// The internal CoDel queue (for its state: dropping, count, ...).
    pub fn queue(&self) -> &CodelQueue {
        &self.queue
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
        match self.queue.enqueue(now, Queued { frame, size, enqueued_at: now }) {
            Ok(()) => Ok(()),
            Err(item) => {
                self.counters.tail_drops += 1;
                Err(item.frame)
            }
        }
    }

    /// When [`release`](Self::release) has something to do: the instant the shaper opens, if an
    /// Interest is waiting (it may be `<= now`: release now). `None` when the queue is empty.
    pub fn poll_release(&self) -> Option<Time> {
        (!self.queue.is_empty()).then_some(self.next_release)
    }

    /// Releases the Interest at the head of the queue if the shaper is open at `now`, and closes it
    /// for one gap. CoDel runs at this dequeue: the Interests it drops are appended to `dropped`
    /// (the one returned is the first it kept: CoDel never drops the last Interest, whose
    /// departure leaves less than one packet queued). Returns `None` while the shaper is closed or
    /// when nothing waits.
    pub fn release(&mut self, now: Time, dropped: &mut Vec<Frame>) -> Option<Frame> {
        if now < self.next_release || self.queue.is_empty() {
            return None;
        }
        let mut scratch = std::mem::take(&mut self.scratch);
        let out = self.queue.dequeue(now, &mut scratch);
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
mod tests {
    use super::*;
    use crate::link::test_util::{id_of, item};

    fn interest(id: u32) -> Frame {
        item(id, 0, Time::ZERO).frame
    }

    fn nonce(f: &Frame) -> u32 {
        id_of(&Queued { frame: f.clone(), size: 0, enqueued_at: Time::ZERO })
    }

    /// 8 Mbit/s, headroom 1, Data of 1000 bytes: 8000 bits per Interest, 1000 Interests/s, 1 ms
    /// apart.
    fn one_per_ms() -> InterestShaper {
        let mut s = InterestShaper::new(ShaperConfig { headroom: 1.0, ..ShaperConfig::new(8_000_000) });
        s.on_data(1000);
        assert_eq!(s.gap(), Time::from_millis(1));
        s
    }

    #[test]
    fn rate_follows_capacity_headroom_and_the_data_size_average() {
        let mut s = InterestShaper::new(ShaperConfig::new(10_000_000));
        // Before any Data: 1100 B. 10 Mbit/s x 0.98 / (8 x 1100) = 9.8e6 / 8800 = 1113.636 /s;
        // gap = 8800 / 9.8e6 s = 897 959.18 ns, rounded up.
        assert_eq!(s.data_size(), 1100.0);
        assert!((s.rate() - 1_113.636_363_6).abs() < 1e-6, "{}", s.rate());
        assert_eq!(s.gap(), Time::from_nanos(897_960));
        // The first Data replaces the estimate: 1080 B -> 9.8e6 / 8640 = 1134.259 /s,
        // gap = 8640 / 9.8e6 s = 881 632.65 ns.
        s.on_data(1080);
        assert_eq!(s.data_size(), 1080.0);
        assert!((s.rate() - 1_134.259_259_3).abs() < 1e-6, "{}", s.rate());
        assert_eq!(s.gap(), Time::from_nanos(881_633));
        // Later ones move it by 1/8 of the difference: 1080 + (1160 - 1080) / 8 = 1090 B,
        // gap = 8720 / 9.8e6 s = 889 795.92 ns; then 1090 + (1010 - 1090) / 8 = 1080 B again.
        s.on_data(1160);
        assert_eq!(s.data_size(), 1090.0);
        assert_eq!(s.gap(), Time::from_nanos(889_796));
        s.on_data(1010);
        assert_eq!(s.data_size(), 1080.0);
        assert_eq!(s.counters.data_samples, 3);
        // Shaper_Overlay's 20 Mbit/s halves the gap; a 5 Mbit/s guess doubles it.
        let mut fast = InterestShaper::new(ShaperConfig::new(20_000_000));
        fast.on_data(1080);
        assert_eq!(fast.gap(), Time::from_nanos(440_817)); // 440 816.33 ns
        let mut slow = InterestShaper::new(ShaperConfig::new(5_000_000));
        slow.on_data(1080);
        assert_eq!(slow.gap(), Time::from_nanos(1_763_266)); // 1 763 265.31 ns
    }

    #[test]
    fn interests_leave_one_gap_apart_and_an_idle_shaper_lets_the_next_go_at_once() {
        let mut s = one_per_ms();
        let mut dropped = Vec::new();
        let t0 = Time::from_millis(2);
        for id in 0..4 {
            s.enqueue(t0, interest(id)).unwrap();
        }
        // Open: the first goes at once, then one per ms.
        let mut sent = Vec::new();
        let mut now = t0;
        while let Some(at) = s.poll_release() {
            // An instant already past means "now".
            let at = at.max(now);
            now = at;
            // Not a nanosecond early.
            if at > t0 {
                assert!(s.release(at - Time(1), &mut dropped).is_none());
            }
            let f = s.release(now, &mut dropped).expect("open at its poll instant");
            sent.push((now, nonce(&f)));
        }
        let ms = Time::from_millis;
        assert_eq!(sent, vec![(ms(2), 0), (ms(3), 1), (ms(4), 2), (ms(5), 3)]);
        assert!(dropped.is_empty());
        // Empty: nothing to poll. The shaper reopened at 6 ms; an Interest at 9.5 ms goes at once
        // (no credit was saved up: the next still waits a full gap).
        assert_eq!(s.poll_release(), None);
        let t = Time::from_micros(9_500);
        s.enqueue(t, interest(10)).unwrap();
        s.enqueue(t, interest(11)).unwrap();
        assert_eq!(s.poll_release(), Some(ms(6)));
        assert_eq!(nonce(&s.release(t, &mut dropped).unwrap()), 10);
        assert_eq!(s.poll_release(), Some(Time::from_micros(10_500)));
        assert!(s.release(Time::from_micros(10_499), &mut dropped).is_none());
        assert_eq!(nonce(&s.release(Time::from_micros(10_500), &mut dropped).unwrap()), 11);
        assert_eq!(s.counters.released, 6);
        // A new size estimate applies from the next release on: 2000 B -> 1 + (2000 - 1000) / 8
        // = 1125 B, gap 1.125 ms.
        s.enqueue(Time::from_micros(10_500), interest(12)).unwrap();
        s.on_data(2000);
        assert_eq!(s.gap(), Time::from_micros(1_125));
        assert_eq!(s.poll_release(), Some(Time::from_micros(11_500)));
        s.release(Time::from_micros(11_500), &mut dropped).unwrap();
        s.enqueue(Time::from_micros(11_500), interest(13)).unwrap();
        assert_eq!(s.poll_release(), Some(Time::from_micros(12_625)));
    }

    #[test]
    fn a_standing_queue_is_dropped_by_codel_and_a_full_one_by_tail_drop() {
        let mut s = one_per_ms();
        let mut dropped = Vec::new();
        // 50 Interests at 0 ms, then one arrival and one release per ms. The first leaves at once;
        // after that 50 wait before each release: the one leaving at k ms (k <= 49) arrived at 0
        // (sojourn k ms), later ones arrived at k - 49 ms (sojourn 49 ms). Sojourn first reaches
        // the 5 ms target at k = 5 (equal counts as above), so first_above_time = 105 ms: CoDel
        // drops the head at 105 ms (the Interest that arrived at 56 ms) and releases the next;
        // then at 105 + 100 = 205 ms and 205 + 100 / sqrt(2) = 275.71 -> the 276 ms release.
        let mut next_id = 0;
        for _ in 0..50 {
            s.enqueue(Time::ZERO, interest(next_id)).unwrap();
            next_id += 1;
        }
        let mut drops = Vec::new();
        for k in 0..=300u64 {
            let now = Time::from_millis(k);
            if k > 0 {
                s.enqueue(now, interest(next_id)).unwrap();
                next_id += 1;
            }
            assert_eq!(s.poll_release(), Some(now));
            assert!(s.release(now, &mut dropped).is_some(), "a release every ms at {k} ms");
            for f in dropped.drain(..) {
                drops.push((k, nonce(&f)));
            }
        }
        // Interest ids: 0..=49 at 0 ms, then id 49 + j at j ms.
        assert_eq!(drops[0], (105, 49 + 56));
        assert_eq!(drops.iter().map(|d| d.0).collect::<Vec<_>>(), vec![105, 205, 276]);
        assert_eq!((s.counters.codel_drops, s.counters.tail_drops), (3, 0));
        assert!(s.queue().is_dropping());
        // 50 waited before the 300 ms release; three drops, one release: 46 left.
        assert_eq!(s.len(), 46);

        // Tail drop at the limit (100 Interests): the 101st is handed back.
        let mut s = InterestShaper::new(ShaperConfig { limit: 100, ..ShaperConfig::new(10_000_000) });
        let t = Time::from_secs(1);
        s.enqueue(t, interest(0)).unwrap();
        s.release(t, &mut dropped).unwrap();
        for id in 1..=100 {
            s.enqueue(t, interest(id)).unwrap();
        }
        let back = s.enqueue(t, interest(101)).unwrap_err();
        assert_eq!(nonce(&back), 101);
        assert_eq!((s.len(), s.counters.tail_drops), (100, 1));
    }
}
