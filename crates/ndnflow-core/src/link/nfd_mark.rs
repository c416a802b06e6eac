//! NFD's congestion marker: the send-queue check of NFD's GenericLinkService
//! (`daemon/face/generic-link-service.cpp`, `checkCongestionLevel`), which ndnSIM switches on for
//! every face (`StackHelper::DefaultNetDeviceCallback` sets `allowCongestionMarking`).
//! Semantics read from NFD; the code is ours. Parameters and choices: docs/protocols/queues.md
//! ("NFD congestion marking").
//!
//! NFD runs the check on each LpPacket (each fragment, when fragmenting) just before handing it to
//! the transport, i.e. as it enters the device queue, with `q` = bytes already in the send queue:
//!
//! * `q > threshold` (congested): if `now >= next_mark` or `now >= last_mark + interval`, the
//!   packet gets CongestionMark = 1; the first mark of an episode first sets `next_mark = now`;
//!   then `n += 1`, `next_mark += interval / sqrt(n)`, `last_mark = now`.
//! * `q <= threshold`: an episode in progress ends (`next_mark = never`, `n = 0`); `last_mark`
//!   stays, so a new episode may not mark before `last_mark + interval`.
//!
//! The threshold is `min(defaultCongestionThreshold = 65 536 B, send queue capacity / 2)`; the
//! caller passes the capacity (`NfdMarkConfig::threshold_for`). Unlike CoDel this looks at the
//! queue's byte occupancy, not at sojourn times, and decides on arrival, not on departure.
//!
//! NFD computes the step in integer nanoseconds, truncating `interval / sqrt(n)`; so do we (our
//! `Time` is in nanoseconds too), so mark instants match NFD's to the nanosecond.

use crate::packet::lp::tlv_type;
use crate::packet::tlv::nonneg_tlv_size;
use crate::packet::Frame;
use crate::Time;

/// NFD's `defaultCongestionThreshold` (bytes; "works well for a queue capacity of 200KiB").
pub const DEFAULT_THRESHOLD: usize = 65_536;
/// NFD's `baseCongestionMarkingInterval` (100 ms, CoDel's interval from RFC 8289).
pub const DEFAULT_INTERVAL: Time = Time::from_millis(100);
/// NFD's `DEFAULT_CONGESTION_THRESHOLD_DIVISOR`: the threshold is at most half the capacity.
pub const CAPACITY_DIVISOR: usize = 2;

/// The marker's parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NfdMarkConfig {
    /// Bytes the send queue may hold before the face counts as congested (NFD's
    /// `defaultCongestionThreshold`, 65 536 B), before the capacity cap of `threshold_for`.
    pub threshold: usize,
    /// Base marking interval (NFD's `baseCongestionMarkingInterval`, 100 ms).
    pub interval: Time,
}

impl Default for NfdMarkConfig {
    fn default() -> Self {
        NfdMarkConfig { threshold: DEFAULT_THRESHOLD, interval: DEFAULT_INTERVAL }
    }
}

impl NfdMarkConfig {
    /// The threshold NFD uses in front of a send queue of `capacity` bytes:
    /// `min(threshold, capacity / 2)` (integer division, as in NFD).
    pub fn threshold_for(&self, capacity: usize) -> usize {
        self.threshold.min(capacity / CAPACITY_DIVISOR)
    }
}

/// The marking state of one face (link direction).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NfdMarker {
    /// The effective threshold (already capped by the queue's capacity).
    threshold: usize,
    interval: Time,
    /// `None`: never (no episode in progress).
    next_mark: Option<Time>,
    /// `None`: minus infinity (nothing marked yet).
    last_mark: Option<Time>,
    /// Marks in the current episode.
    marked: u32,
}

impl NfdMarker {
    /// A marker in front of a send queue of `capacity` bytes.
    pub fn new(cfg: NfdMarkConfig, capacity: usize) -> NfdMarker {
        NfdMarker {
            threshold: cfg.threshold_for(capacity),
            interval: cfg.interval,
            next_mark: None,
            last_mark: None,
            marked: 0,
        }
    }

    /// The threshold in use, bytes.
    pub fn threshold(&self) -> usize {
        self.threshold
    }

    /// Marks in the current episode (0: none in progress, or none yet).
    pub fn marked_in_episode(&self) -> u32 {
        self.marked
    }

    /// A packet is about to enter a send queue holding `queued` bytes (not counting it) at `now`:
    /// whether NFD would set its CongestionMark. Updates the state either way.
    #[inline]
    pub fn on_send(&mut self, now: Time, queued: usize) -> bool {
        if queued <= self.threshold {
            // Only an episode in progress has state to reset; `last_mark` is kept on purpose.
            if self.next_mark.is_some() {
                self.next_mark = None;
                self.marked = 0;
            }
            return false;
        }
        let due = self.next_mark.is_some_and(|t| now >= t);
        let spaced = self.last_mark.is_none_or(|t| now >= t + self.interval);
        if !(due || spaced) {
            return false;
        }
        let base = match self.next_mark {
            Some(t) if self.marked > 0 => t,
            // First mark of the episode: the schedule starts now.
            _ => now,
        };
        self.marked = self.marked.saturating_add(1);
        // One sqrt per mark; packets that are not marked cost no floating point.
        let step = (self.interval.0 as f64 / (self.marked as f64).sqrt()) as u64;
        self.next_mark = Some(base + Time(step));
        self.last_mark = Some(now);
        true
    }

    /// Sets CongestionMark = 1 on a frame sent whole (NFD overwrites any mark it carries) and
    /// clears its hop count (ndnflow's PCON distance: this link is now the nearest marking one,
    /// as for CoDel's marks); returns its new wire size given its current `size`. A bare packet
    /// becomes an LpPacket, so it grows by more than the field.
    pub fn mark_whole(frame: &mut Frame, size: u32) -> u32 {
        let before = frame.wire_size() as i64;
        frame.lp.congestion_mark = 1;
        frame.lp.hop_count = None;
        let after = frame.wire_size() as i64;
        (size as i64 + after - before).max(0) as u32
    }

    /// Sets CongestionMark = 1 on a fragment (already an LpPacket of `size` bytes); returns its
    /// new size: the field's bytes more, or the difference if it carried another mark value.
    pub fn mark_fragment(frame: &mut Frame, size: u32) -> u32 {
        let field = |v: u64| if v == 0 { 0 } else { nonneg_tlv_size(tlv_type::CONGESTION_MARK, v) as i64 };
        let grow = field(1) - field(frame.lp.congestion_mark);
        frame.lp.congestion_mark = 1;
        (size as i64 + grow).max(0) as u32
    }
}

#[cfg(test)]
#[path = "nfd_mark_tests.rs"]
mod tests;
