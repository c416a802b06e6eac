//! The per-segment trace (`[trace] interests = true`, `interests.parquet`): ndnSIM's
//! AppDelayTracer, one row per segment a consumer got Data for or gave up. The consumers make the
//! records (`ndnflow_core::app::SegmentRecord`); the engine drains them after each call into a
//! consumer, tagged with the consumer's index, and turns them into columns when asked.
//!
//! Held while the run goes on as the records themselves (`ROW_BYTES` each); they count toward
//! the memory watch's trace rows (`crate::memory`), so a long run with the trace on stops at
//! `[simulation] memory_limit` like one with narrow bins.

use ndnflow_core::app::SegmentRecord;
use ndnflow_core::Time;

/// Bytes the engine holds per row: a record and its consumer's index.
pub const ROW_BYTES: usize = std::mem::size_of::<(u32, SegmentRecord)>();

/// A consumer as the per-segment rows name it: its id, node and name (a catalog consumer's
/// prefix; its objects are `<prefix>/<rank>`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InterestName {
    pub id: String,
    pub node: String,
    pub prefix: String,
}

/// The records so far, in the order consumers settled them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct InterestLog {
    rows: Vec<(u32, SegmentRecord)>,
    /// Scratch the consumers drain into.
    scratch: Vec<SegmentRecord>,
}

impl InterestLog {
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// Takes the records consumer `index` made since its last drain.
    pub fn drain(&mut self, index: u32, consumer: &mut ndnflow_core::app::Consumer) {
        consumer.drain_records(&mut self.scratch);
        self.rows.extend(self.scratch.drain(..).map(|r| (index, r)));
    }

    pub fn series(&self) -> InterestSeries {
        let mut s = InterestSeries::default();
        for (consumer, r) in &self.rows {
            s.push(*consumer, r);
        }
        s
    }
}

/// The rows as columns; `consumer` indexes the run's `InterestName`s. Times in seconds; a
/// segment given up has NaN for its arrival and delays.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct InterestSeries {
    pub consumer: Vec<u32>,
    pub object: Vec<u64>,
    pub segment: Vec<u64>,
    pub first_sent_s: Vec<f64>,
    pub last_sent_s: Vec<f64>,
    pub arrival_s: Vec<f64>,
    pub last_delay_s: Vec<f64>,
    pub full_delay_s: Vec<f64>,
    pub retransmissions: Vec<u64>,
    /// NaN for single-path consumers and probes.
    pub path: Vec<f64>,
    /// Links the Data crossed from the node that answered; NaN if given up.
    pub hops: Vec<f64>,
    /// 1 when a store answered, 0 when a producer did; NaN if given up.
    pub from_cache: Vec<f64>,
}

impl InterestSeries {
    fn push(&mut self, consumer: u32, r: &SegmentRecord) {
        // Delays from the integer nanoseconds, not from the rounded seconds: a delay of 2 x 10 ms
        // + 2 transmissions is then exactly that many nanoseconds over 1e9.
        let delay = |from: Time| r.arrival.map_or(f64::NAN, |a| (a - from).as_secs_f64());
        self.consumer.push(consumer);
        self.object.push(r.object);
        self.segment.push(r.segment);
        self.first_sent_s.push(r.first_sent.as_secs_f64());
        self.last_sent_s.push(r.last_sent.as_secs_f64());
        self.arrival_s.push(r.arrival.map_or(f64::NAN, Time::as_secs_f64));
        self.last_delay_s.push(delay(r.last_sent));
        self.full_delay_s.push(delay(r.first_sent));
        self.retransmissions.push(u64::from(r.retransmissions));
        self.path.push(r.path.map_or(f64::NAN, |p| p as f64));
        self.hops.push(r.origin.map_or(f64::NAN, |o| f64::from(o.hops)));
        self.from_cache.push(r.origin.map_or(f64::NAN, |o| f64::from(u8::from(o.from_cache))));
    }
}

#[cfg(test)]
mod tests {
    /// docs/protocols/links.md and docs/performance.md quote this size.
    #[test]
    fn a_row_takes_80_bytes_in_the_engine() {
        // SegmentRecord: four u64 times and numbers (32), two Options of 8-byte values (32), a
        // u32 (4), an Option<DataOrigin> (2: a u8 and a bool, whose spare values mark None),
        // padded to 72; with the consumer's u32 index, padded to 80.
        assert_eq!(super::ROW_BYTES, 80);
    }
}
