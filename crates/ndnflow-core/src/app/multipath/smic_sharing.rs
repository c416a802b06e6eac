//! SMIC's bottleneck-sharing detection ("SMIC: Subflow-level Multi-path Interest Control",
//! §3.2.2 item 1, Algorithm 1 lines 12-19, thresholds in §5): two sub-flows share a bottleneck
//! when their recent timeouts happened at about the same times (RMSE below 0.05 s) and their
//! packet-pair estimates of the bottleneck bandwidth are alike (within 80 %).
//!
//! Where the paper is silent or ambiguous, our choices (docs/protocols/smic.md#consumer):
//!
//! * **History length** n ("the history of recent n timeouts"): 8 by default.
//! * **RMSE of histories of different lengths.** The paper picks RMSE "since the number of
//!   elements in timeout histories can be different among subflows", without saying how elements
//!   are paired. We pair each timeout of the sub-flow that just timed out (r) with the nearest
//!   timeout of the other (i): `sqrt(mean_k (t_r[k] - nearest_i(t_r[k]))^2)`. Pairing by recency
//!   would misalign as soon as one loss burst cost r three Interests and i one; the nearest
//!   neighbour pairs each of r's losses with i's loss in the same congestion event.
//! * **"80 % for the difference in estimated bottleneck capacities"**: we read it literally, the
//!   difference relative to the larger estimate at most 0.8 (`|b_r - b_i| / max(b_r, b_i) <= 0.8`);
//!   the stricter reading "agree to within 20 %" is `bandwidth_difference = 0.2`.
//! * **Packet pair** (the paper's ref. 12, Keshav): two Interests of one sub-flow sent at the
//!   same instant leave the producer back to back, and the bottleneck spaces their Data by its
//!   transmission time, so `8 x size / gap` estimates its bandwidth. A sub-flow's estimate is the
//!   median of its last 8 pair samples (the median discards pairs stretched by cross traffic or
//!   squeezed behind a later queue).

use std::collections::VecDeque;

use crate::Time;

/// Timeouts and packet-pair samples kept per sub-flow (see the module comment).
pub const DEFAULT_HISTORY: usize = 8;
const PAIR_SAMPLES: usize = 8;

/// The detection thresholds (§5: "the RMSE threshold is set to 0.05s for timeout histories, and
/// 80% for the difference in estimated bottleneck capacities").
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SharingConfig {
    /// Timeouts remembered per sub-flow (n).
    pub history: usize,
    /// Largest RMSE of two timeout histories that still counts as similar, seconds.
    pub rmse: f64,
    /// Largest difference of two bandwidth estimates, relative to the larger, that counts as
    /// similar.
    pub bandwidth_difference: f64,
}

impl Default for SharingConfig {
    fn default() -> Self {
        SharingConfig { history: DEFAULT_HISTORY, rmse: 0.05, bandwidth_difference: 0.8 }
    }
}

/// The times of a sub-flow's recent timeouts, oldest first.
#[derive(Clone, Debug, Default)]
pub struct TimeoutHistory {
    times: VecDeque<Time>,
}

impl TimeoutHistory {
    pub fn push(&mut self, at: Time, keep: usize) {
        if self.times.len() >= keep.max(1) {
            self.times.pop_front();
        }
        self.times.push_back(at);
    }

    pub fn len(&self) -> usize {
        self.times.len()
    }

    pub fn is_empty(&self) -> bool {
        self.times.is_empty()
    }

    /// Seconds from `t` to the nearest timeout in this history (`None` when empty).
    fn nearest(&self, t: Time) -> Option<f64> {
        self.times.iter().map(|&u| (t.as_secs_f64() - u.as_secs_f64()).abs()).reduce(f64::min)
    }

    /// RMSE of this history against `other`, each of ours paired with the nearest of theirs;
    /// `None` when either is empty.
    pub fn rmse_to(&self, other: &TimeoutHistory) -> Option<f64> {
        if self.times.is_empty() || other.times.is_empty() {
            return None;
        }
        let sum: f64 = self.times.iter().filter_map(|&t| other.nearest(t)).map(|d| d * d).sum();
        Some((sum / self.times.len() as f64).sqrt())
    }
}

/// A sub-flow's packet-pair estimate of its bottleneck bandwidth.
#[derive(Clone, Debug, Default)]
pub struct PacketPair {
    /// The latest Data: when its Interest left and when it arrived.
    last: Option<(Time, Time)>,
    /// Recent samples, bits per second.
    samples: VecDeque<f64>,
}

impl PacketPair {
    /// A Data of `bytes` on the link arrived at `now` for an Interest sent at `sent_at`: a sample
    /// when the previous Data of the sub-flow answered an Interest sent at the same instant.
    pub fn on_data(&mut self, sent_at: Time, now: Time, bytes: u32) {
        if let Some((prev_sent, prev_arrived)) = self.last {
            let gap = now.saturating_sub(prev_arrived).as_secs_f64();
            if prev_sent == sent_at && gap > 0.0 {
                if self.samples.len() >= PAIR_SAMPLES {
                    self.samples.pop_front();
                }
                self.samples.push_back(8.0 * f64::from(bytes) / gap);
            }
        }
        self.last = Some((sent_at, now));
    }

    /// The median of the recent samples, bits per second (the lower middle of an even count).
    pub fn estimate(&self) -> Option<f64> {
        if self.samples.is_empty() {
            return None;
        }
        let mut sorted: Vec<f64> = self.samples.iter().copied().collect();
        sorted.sort_by(f64::total_cmp);
        Some(sorted[(sorted.len() - 1) / 2])
    }
}

/// Whether two bandwidth estimates are alike: their difference relative to the larger is at most
/// `max_difference`. Unknown estimates are not alike (the paper's second filter cannot pass).
pub fn bandwidth_similar(a: Option<f64>, b: Option<f64>, max_difference: f64) -> bool {
    match (a, b) {
        (Some(a), Some(b)) if a > 0.0 && b > 0.0 => (a - b).abs() / a.max(b) <= max_difference,
        _ => false,
    }
}

/// Algorithm 1 line 16: whether sub-flow r, which just timed out, shares its bottleneck with
/// sub-flow i (timeout histories first, then bandwidths, as §3.2.2 applies the two filters).
pub fn shares_bottleneck(
    config: &SharingConfig,
    r: (&TimeoutHistory, &PacketPair),
    i: (&TimeoutHistory, &PacketPair),
) -> bool {
    let close = r.0.rmse_to(i.0).is_some_and(|e| e < config.rmse);
    close && bandwidth_similar(r.1.estimate(), i.1.estimate(), config.bandwidth_difference)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(x: u64) -> Time {
        Time::from_millis(x)
    }

    fn history(times_ms: &[u64]) -> TimeoutHistory {
        let mut h = TimeoutHistory::default();
        for &t in times_ms {
            h.push(ms(t), DEFAULT_HISTORY);
        }
        h
    }

    #[test]
    fn rmse_pairs_each_timeout_with_the_nearest_of_the_other() {
        // r lost three Interests in the burst at ~1 s and one at ~3 s; i lost one in each.
        // Distances: 1.000 -> 1.010: 0.010; 1.002: 0.008; 1.004: 0.006; 3.000 -> 3.020: 0.020.
        // Mean of squares (1e-4 + 6.4e-5 + 3.6e-5 + 4e-4) / 4 = 1.5e-4, RMSE = 0.012247 s.
        let r = history(&[1000, 1002, 1004, 3000]);
        let i = history(&[1010, 3020]);
        let e = r.rmse_to(&i).unwrap();
        assert!((e - 0.000_15_f64.sqrt()).abs() < 1e-9, "{e}");
        // The other way round: 1.010 -> 1.004: 0.006; 3.020 -> 3.000: 0.020; sqrt((3.6e-5 +
        // 4e-4) / 2) = 0.014765 s.
        let back = i.rmse_to(&r).unwrap();
        assert!((back - 0.000_218_f64.sqrt()).abs() < 1e-9, "{back}");
        assert_eq!(r.rmse_to(&TimeoutHistory::default()), None);
    }

    #[test]
    fn a_loss_the_other_did_not_share_makes_the_histories_dissimilar() {
        // r also lost at 2 s, 1 s away from anything of i's: sqrt((0.010^2 + 1^2) / 2) = 0.707.
        let r = history(&[1000, 2000]);
        let i = history(&[1010]);
        assert!(r.rmse_to(&i).unwrap() > 0.7);
    }

    #[test]
    fn the_history_keeps_the_latest_n() {
        let mut h = TimeoutHistory::default();
        for t in 0..5 {
            h.push(ms(t * 1000), 3);
        }
        assert_eq!(h.len(), 3);
        // Only 2, 3 and 4 s remain: 1 s is 1 s from its nearest, 2 s.
        assert!((history(&[1000]).rmse_to(&h).unwrap() - 1.0).abs() < 1e-12);
    }

    #[test]
    fn packet_pair_divides_the_data_size_by_the_arrival_gap() {
        // Two Interests sent at 100 ms, their 1,000-byte Data 0.8 ms apart: 8,000 bits / 0.0008 s
        // = 10 Mbit/s. A Data of an Interest sent at another instant is not a pair.
        let mut p = PacketPair::default();
        p.on_data(ms(100), Time::from_micros(150_000), 1000);
        assert_eq!(p.estimate(), None);
        p.on_data(ms(100), Time::from_micros(150_800), 1000);
        assert!((p.estimate().unwrap() - 10e6).abs() < 1e-3);
        p.on_data(ms(101), Time::from_micros(151_600), 1000);
        assert_eq!(p.samples.len(), 1);
    }

    #[test]
    fn the_estimate_is_the_median_of_the_recent_samples() {
        // Pairs 0.8, 1.6 and 0.4 ms apart: 10, 5 and 20 Mbit/s; the median is 10.
        let mut p = PacketPair::default();
        let mut now = 0;
        for (sent, gap) in [(1, 0), (1, 800), (2, 10_000), (2, 1600), (3, 10_000), (3, 400)] {
            now += gap;
            p.on_data(ms(sent), Time::from_micros(now), 1000);
        }
        assert!((p.estimate().unwrap() - 10e6).abs() < 1e-3);
    }

    #[test]
    fn bandwidths_within_the_difference_are_alike() {
        // |10 - 2| / 10 = 0.8: alike at the paper's 0.8, not at 0.2; |10 - 1.9| / 10 = 0.81.
        assert!(bandwidth_similar(Some(10.0), Some(2.0), 0.8));
        assert!(!bandwidth_similar(Some(10.0), Some(1.9), 0.8));
        assert!(!bandwidth_similar(Some(10.0), Some(2.0), 0.2));
        assert!(bandwidth_similar(Some(10.0), Some(8.0), 0.2));
        assert!(!bandwidth_similar(None, Some(8.0), 0.8));
    }

    #[test]
    fn sharing_needs_both_filters() {
        let c = SharingConfig::default();
        let mut pair = PacketPair::default();
        pair.on_data(ms(0), ms(10), 1000);
        pair.on_data(ms(0), ms(11), 1000); // 8 Mbit/s
        let mut slow = PacketPair::default();
        slow.on_data(ms(0), ms(10), 1000);
        slow.on_data(ms(0), ms(30), 1000); // 0.4 Mbit/s: |8 - 0.4| / 8 = 0.95
        let (a, b, far) = (history(&[1000]), history(&[1040]), history(&[1100]));
        assert!(shares_bottleneck(&c, (&a, &pair), (&b, &pair)), "40 ms apart, same bandwidth");
        assert!(!shares_bottleneck(&c, (&a, &pair), (&far, &pair)), "100 ms apart");
        assert!(!shares_bottleneck(&c, (&a, &pair), (&b, &slow)), "bandwidths too different");
    }
}
