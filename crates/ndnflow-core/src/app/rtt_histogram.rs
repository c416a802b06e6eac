//! RTT percentiles of a consumer over a whole run, in bounded memory: a log-linear histogram (the
//! layout of HdrHistogram, Gil Tene, and of Prometheus' native histograms) of the RTT samples the
//! consumer takes (Data of Interests never retransmitted, Karn's rule).
//!
//! Why a histogram and not the sorted samples: a consumer of a long run takes millions of samples
//! (8 bytes each); the histogram's buckets cover only the octaves its samples fall in, `SUB`
//! buckets per octave, so an RTT spread over 100x (under 7 octaves) holds under 900 counters
//! however long the run. Error: a value of `[2^e, 2^(e+1))` falls in a bucket of width
//! `2^e / SUB`, and a percentile is reported as its bucket's midpoint, so it is within
//! `1 / (2 SUB)` = 0.39 % of the true sample at that rank (values below `SUB` ns are exact). The
//! first and last ranks give the exact minimum and maximum, and every result is clamped to them.
//!
//! Ranks follow the nearest-rank definition (NIST's "empirical distribution function" percentile,
//! as numpy's `method="inverted_cdf"`): the p-th percentile of n samples is the sample of rank
//! ceil(p n / 100) in sorted order.

use crate::Time;

/// Buckets per octave (a power of two): the relative error is at most 1 / (2 SUB).
pub const SUB: u64 = 128;
const SUB_BITS: u32 = SUB.trailing_zeros();

/// Counts of RTT samples in log-linear buckets, from the lowest bucket used to the highest.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RttHistogram {
    /// Index of `counts[0]`.
    first: u32,
    counts: Vec<u64>,
    total: u64,
    min: Option<Time>,
    max: Option<Time>,
}

/// The bucket of `v` ns: values below `SUB` are their own bucket; above, octave `e` (value in
/// `[2^e, 2^(e+1))`, e >= SUB_BITS) holds `SUB` buckets of width `2^(e - SUB_BITS)`.
fn bucket(v: u64) -> u32 {
    if v < SUB {
        return v as u32;
    }
    let e = 63 - v.leading_zeros();
    let shift = e - SUB_BITS;
    let sub = (v >> shift) - SUB;
    ((shift + 1) << SUB_BITS) + sub as u32
}

/// The lowest value of bucket `b` and its width.
fn bucket_range(b: u32) -> (u64, u64) {
    if u64::from(b) < SUB {
        return (u64::from(b), 1);
    }
    let shift = (b >> SUB_BITS) - 1;
    let sub = u64::from(b) & (SUB - 1);
    ((SUB + sub) << shift, 1 << shift)
}

impl RttHistogram {
    pub fn add(&mut self, rtt: Time) {
        let b = bucket(rtt.as_nanos());
        if self.counts.is_empty() {
            self.first = b;
        } else if b < self.first {
            let grow = (self.first - b) as usize;
            self.counts.splice(0..0, std::iter::repeat_n(0, grow));
            self.first = b;
        }
        let i = (b - self.first) as usize;
        if i >= self.counts.len() {
            self.counts.resize(i + 1, 0);
        }
        self.counts[i] += 1;
        self.total += 1;
        self.min = Some(self.min.map_or(rtt, |m| m.min(rtt)));
        self.max = Some(self.max.map_or(rtt, |m| m.max(rtt)));
    }

    pub fn len(&self) -> u64 {
        self.total
    }

    pub fn is_empty(&self) -> bool {
        self.total == 0
    }

    /// The `p`-th percentile (0 < p <= 100) by nearest rank, within 0.39 %; `None` without samples.
    pub fn percentile(&self, p: f64) -> Option<Time> {
        let (min, max) = (self.min?, self.max?);
        let rank = ((p / 100.0 * self.total as f64).ceil() as u64).clamp(1, self.total);
        // The first and last ranks are the exact extremes, not their buckets' midpoints.
        if rank == 1 {
            return Some(min);
        }
        if rank == self.total {
            return Some(max);
        }
        let mut seen = 0;
        for (i, &c) in self.counts.iter().enumerate() {
            seen += c;
            if seen >= rank {
                let (lo, width) = bucket_range(self.first + i as u32);
                let mid = Time::from_nanos(lo + width / 2);
                return Some(mid.clamp(min, max));
            }
        }
        Some(max)
    }

    /// Bytes the counters take (for the memory estimate of a long run).
    pub fn heap_bytes(&self) -> usize {
        self.counts.capacity() * std::mem::size_of::<u64>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_tile_the_values_without_gap_or_overlap() {
        // Every value from 0 to 2^20 falls in the bucket whose range holds it, and buckets are
        // numbered without gaps: the next value after a bucket's range opens bucket + 1.
        let mut prev = 0;
        for v in 0..(1u64 << 20) {
            let b = bucket(v);
            let (lo, w) = bucket_range(b);
            assert!(lo <= v && v < lo + w, "{v} in bucket {b} = [{lo}, {})", lo + w);
            assert!(b == prev || b == prev + 1, "{v}: bucket {b} after {prev}");
            prev = b;
        }
        // Width at 100 ms (2^26 <= 1e8 < 2^27): 2^26 / 128 = 2^19 ns = 0.52 ms, 0.52 % of 100 ms.
        assert_eq!(bucket_range(bucket(100_000_000)).1, 1 << 19);
    }

    #[test]
    fn percentiles_of_1_to_100_ms_are_50_95_99_within_the_bound() {
        // Samples 1, 2, ..., 100 ms: nearest rank ceil(p/100 x 100) = p, so p50 = 50 ms, p95 = 95
        // ms, p99 = 99 ms, each within 1 / 256 of itself; p100 is the maximum, exact.
        let mut h = RttHistogram::default();
        for ms in (1..=100).rev() {
            h.add(Time::from_millis(ms));
        }
        for (p, want) in [(50.0, 50.0), (95.0, 95.0), (99.0, 99.0)] {
            let got = h.percentile(p).unwrap().as_millis_f64();
            assert!((got - want).abs() <= want / 256.0, "p{p}: {got} ms, want {want} ms");
        }
        assert_eq!(h.percentile(100.0), Some(Time::from_millis(100)));
        assert_eq!(h.percentile(0.1), Some(Time::from_millis(1)), "rank 1 is the exact minimum");
        assert_eq!(h.len(), 100);
    }

    #[test]
    fn one_repeated_value_is_exact_and_no_sample_gives_none() {
        let mut h = RttHistogram::default();
        assert_eq!(h.percentile(50.0), None);
        for _ in 0..1000 {
            h.add(Time::from_micros(20_123));
        }
        // Clamped to [min, max], both 20.123 ms.
        assert_eq!(h.percentile(99.0), Some(Time::from_micros(20_123)));
    }

    #[test]
    fn memory_follows_the_spread_not_the_count() {
        // 10^5 samples spread over 10 to 20 ms (one octave and a bit: 2^23 <= 1e7 < 2^24 < 2e7 <
        // 2^25) hold at most 2 x 128 + 1 counters.
        let mut h = RttHistogram::default();
        for k in 0..100_000u64 {
            h.add(Time::from_nanos(10_000_000 + k * 100));
        }
        assert!(h.counts.len() <= 2 * SUB as usize + 1, "{} counters", h.counts.len());
    }
}
