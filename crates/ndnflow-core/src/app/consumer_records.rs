//! The consumer's per-segment records, ndnSIM's AppDelayTracer (ndnSIM utils/tracers/
//! ndn-app-delay-tracer.cpp) the sans-IO way: the consumer appends one record per segment it got
//! Data for, and one per segment it gave up, to a sink the driver drains; it writes nothing
//! itself. Off unless `record_segments` turns it on, so a consumer without it pays one branch per
//! settled segment.
//!
//! AppDelayTracer writes two rows per Data, "LastDelay" (from the last Interest sent for it) and
//! "FullDelay" (from the first); a record holds both send times, so both delays are one row.

use super::{Consumer, Outstanding};
use crate::app::cc::Controller;
use crate::packet::DataOrigin;
use crate::Time;

/// What became of one segment a consumer asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SegmentRecord {
    /// The segment number in its object's name.
    pub segment: u64,
    /// A catalog consumer's object rank (`app::catalog`); 0 for a consumer of one object.
    pub object: u64,
    /// When its first Interest left.
    pub first_sent: Time,
    /// When its last Interest left (the one the Data answers, as far as the consumer can tell).
    pub last_sent: Time,
    /// When its Data arrived; `None` for a segment given up after `max_retries`.
    pub arrival: Option<Time>,
    /// Interests sent again for it.
    pub retransmissions: u32,
    /// Where its Data came from (hops and whether a store answered); `None` when given up.
    pub origin: Option<DataOrigin>,
    /// The path its last Interest went on, as its multipath transport names it
    /// (`SubflowManager::path_of`); `None` for single-path consumers and probes.
    pub path: Option<u64>,
}

impl Consumer {
    /// Starts keeping a `SegmentRecord` per segment settled (Data or given up) from now on.
    pub fn record_segments(&mut self) {
        self.records.get_or_insert_with(Vec::new);
    }

    /// Moves the records made since the last call to the end of `out`.
    pub fn drain_records(&mut self, out: &mut Vec<SegmentRecord>) {
        if let Some(r) = &mut self.records {
            out.append(r);
        }
    }

    /// Records what became of `seg` (`o`: its last send), if records are on. `retransmissions` is
    /// passed apart from `o.retries`: a segment whose Data came while it waited to be resent has
    /// the attempt it would have gone as in `o.retries`, one more than it sent. `arrival`: when
    /// its Data came and from where; `None` when given up.
    pub(super) fn record(
        &mut self,
        seg: u64,
        o: &Outstanding,
        retransmissions: u32,
        arrival: Option<(Time, DataOrigin)>,
    ) {
        if self.records.is_none() {
            return;
        }
        let (segment, object) = match &self.catalog {
            None => (seg, 0),
            Some(c) => (seg.saturating_sub(c.base), c.current.rank),
        };
        let path = match &self.cc {
            Controller::Multipath(m) => m.path_of(seg),
            Controller::Single(_) => None,
        };
        let record = SegmentRecord {
            segment,
            object,
            first_sent: o.first_sent,
            last_sent: o.sent_at,
            arrival: arrival.map(|(t, _)| t),
            retransmissions,
            origin: arrival.map(|(_, o)| o),
            path,
        };
        if let Some(r) = &mut self.records {
            r.push(record);
        }
    }
}
