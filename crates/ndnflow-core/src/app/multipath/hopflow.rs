//! DPCCP's congestion estimation (Chen et al., "DPCCP: Delay-based Path-specified Congestion
//! Control", §VI-C, Eqs. 13-14): one sub-flow's Data split into hop-flows by the hop count the
//! Data carries (a Data that traversed `h` links came from the `h`-th node up the path), and the
//! sub-flow's backlog estimated as the sum of its hop-flows' backlogs,
//!
//!   beta_r = sum over h of beta_h,   beta_h = x_h (d_h - base d_h)   (Eqs. 13, 14),
//!
//! with `x_h` the hop-flow's receiving rate and `d_h` its mean RTT over the last control cycle,
//! and `base d_h` its base RTT.
//!
//! Our choices where the paper is silent:
//! * **Base RTT** = the smallest RTT the hop-flow ever had. §VI-C re-measures base RTTs after a
//!   drain so that a changed lower-layer path is noticed; a drain can then only lower the minimum
//!   here. Raising a base after a drain would need the drain to have emptied every queue on the
//!   path, which a consumer cannot know, and no experiment of the paper changes a path's delay.
//! * **No hop count** (routers without DPCCP's extension): all Data of the sub-flow are one
//!   hop-flow, which is what a single-source path is.
//! * Data without an RTT sample (retransmitted, Karn's rule) count towards `x_h`, not `d_h`.

use smallvec::SmallVec;

use crate::Time;

/// One hop-flow: the Data of a sub-flow that came from one distance.
#[derive(Clone, Debug, PartialEq)]
struct HopFlow {
    /// Links traversed (`None`: no hop count on the Data).
    hops: Option<u8>,
    base: Option<Time>,
    /// This cycle: Data received, RTT samples and their sum (seconds).
    received: u32,
    samples: u32,
    rtt_sum: f64,
}

/// What one control cycle measured on a sub-flow.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct CycleEstimate {
    /// x_r: Data received per second over the cycle.
    pub rate: f64,
    /// beta_r: estimated packets of the sub-flow queued along its path (Eq. 13).
    pub backlog: f64,
    /// Data received in the cycle.
    pub received: u32,
    /// The largest RTT sample of the cycle (the next cycle's length, §VI-E-2).
    pub max_rtt: Option<Time>,
    /// The smallest RTT sample of the cycle (QD and RP watch it stop falling).
    pub min_rtt: Option<Time>,
}

/// A sub-flow's hop-flows.
#[derive(Clone, Debug, Default)]
pub struct HopFlows {
    flows: SmallVec<[HopFlow; 4]>,
    max_rtt: Option<Time>,
    min_rtt: Option<Time>,
}

impl HopFlows {
    pub fn new() -> HopFlows {
        HopFlows::default()
    }

    /// A Data of this sub-flow arrived, `hops` links from its source, with RTT `rtt` if sampled.
    pub fn on_data(&mut self, hops: Option<u8>, rtt: Option<Time>) {
        let i = match self.flows.iter().position(|f| f.hops == hops) {
            Some(i) => i,
            None => {
                self.flows.push(HopFlow { hops, base: None, received: 0, samples: 0, rtt_sum: 0.0 });
                self.flows.len() - 1
            }
        };
        let f = &mut self.flows[i];
        f.received += 1;
        if let Some(r) = rtt {
            f.samples += 1;
            f.rtt_sum += r.as_secs_f64();
            f.base = Some(f.base.map_or(r, |b| b.min(r)));
            self.max_rtt = Some(self.max_rtt.map_or(r, |m| m.max(r)));
            self.min_rtt = Some(self.min_rtt.map_or(r, |m| m.min(r)));
        }
    }

    /// A probe came back over this sub-flow's path after `rtt`. It is not one of the sub-flow's
    /// Data (neither `x_h` nor `d_h`), but it measures the path: it counts towards the cycle's
    /// smallest RTT, the one QD and RP watch. While a sub-flow resends (QD after a burst of
    /// losses sends only its lost segments at 2 /s), Karn's rule leaves its own Data without
    /// samples, and without the probes' its drain would never see the RTT stop falling.
    pub fn on_path_rtt(&mut self, rtt: Time) {
        self.min_rtt = Some(self.min_rtt.map_or(rtt, |m| m.min(rtt)));
    }

    /// Closes a control cycle of length `length`: Eqs. 13-14 over what arrived in it, and the
    /// counts start again.
    pub fn end_cycle(&mut self, length: Time) -> CycleEstimate {
        let secs = length.as_secs_f64().max(1e-9);
        let mut e = CycleEstimate { max_rtt: self.max_rtt.take(), min_rtt: self.min_rtt.take(), ..Default::default() };
        for f in &mut self.flows {
            let x = f64::from(f.received) / secs;
            e.rate += x;
            e.received += f.received;
            if let (Some(base), true) = (f.base, f.samples > 0) {
                let mean = f.rtt_sum / f64::from(f.samples);
                e.backlog += x * (mean - base.as_secs_f64()).max(0.0);
            }
            f.received = 0;
            f.samples = 0;
            f.rtt_sum = 0.0;
        }
        e
    }

    /// The hop-flows seen so far: (hops, base RTT).
    pub fn bases(&self) -> impl Iterator<Item = (Option<u8>, Option<Time>)> + '_ {
        self.flows.iter().map(|f| (f.hops, f.base))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(x: u64) -> Time {
        Time::from_millis(x)
    }

    #[test]
    fn one_hop_flow_backlog_is_rate_times_queueing_delay() {
        let mut h = HopFlows::new();
        // Base RTT 100 ms from an early sample; then, over a 1 s cycle, 100 Data at 116 ms.
        h.on_data(Some(3), Some(ms(100)));
        h.end_cycle(ms(1000));
        for _ in 0..100 {
            h.on_data(Some(3), Some(ms(116)));
        }
        let e = h.end_cycle(ms(1000));
        // x = 100 /s, q = 16 ms: beta = 100 * 0.016 = 1.6 packets (Eq. 14).
        assert!((e.rate - 100.0).abs() < 1e-9);
        assert!((e.backlog - 1.6).abs() < 1e-9, "{}", e.backlog);
        assert_eq!((e.max_rtt, e.min_rtt, e.received), (Some(ms(116)), Some(ms(116)), 100));
    }

    #[test]
    fn hop_flows_are_kept_apart_and_summed() {
        // The paper's case: a cache two links away answers without queueing, the producer three
        // links away behind a 16 ms queue. Mixed into one mean RTT they would give neither.
        let mut h = HopFlows::new();
        h.on_data(Some(2), Some(ms(120)));
        h.on_data(Some(3), Some(ms(170)));
        h.end_cycle(ms(500));
        for _ in 0..40 {
            h.on_data(Some(2), Some(ms(120)));
        }
        for _ in 0..10 {
            h.on_data(Some(3), Some(ms(186)));
        }
        let e = h.end_cycle(ms(500));
        // x_2 = 80 /s with q = 0; x_3 = 20 /s with q = 16 ms: beta = 20 * 0.016 = 0.32.
        assert!((e.rate - 100.0).abs() < 1e-9);
        assert!((e.backlog - 0.32).abs() < 1e-9, "{}", e.backlog);
        let bases: Vec<_> = h.bases().collect();
        assert_eq!(bases, vec![(Some(2), Some(ms(120))), (Some(3), Some(ms(170)))]);
    }

    #[test]
    fn retransmitted_data_count_in_the_rate_only() {
        let mut h = HopFlows::new();
        h.on_data(None, Some(ms(50)));
        h.on_data(None, None);
        let e = h.end_cycle(ms(100));
        // Two Data in 0.1 s: 20 /s; the one sample is the base: no backlog.
        assert!((e.rate - 20.0).abs() < 1e-9);
        assert_eq!(e.backlog, 0.0);
        // An empty cycle measures nothing.
        assert_eq!(h.end_cycle(ms(100)), CycleEstimate::default());
    }

    #[test]
    fn a_probes_rtt_counts_towards_the_smallest_only() {
        let mut h = HopFlows::new();
        h.on_data(Some(3), Some(ms(170)));
        h.end_cycle(ms(200));
        // Over the next cycle, two of the sub-flow's Data at 186 ms (16 ms queued) and one probe
        // over the path at 171 ms.
        h.on_data(Some(3), Some(ms(186)));
        h.on_data(Some(3), Some(ms(186)));
        h.on_path_rtt(ms(171));
        let e = h.end_cycle(ms(200));
        // x = 2 / 0.2 s = 10 /s and beta = 10 * 0.016 = 0.16, as without the probe; the smallest
        // RTT is the probe's, the largest the Data's.
        assert!((e.rate - 10.0).abs() < 1e-9);
        assert!((e.backlog - 0.16).abs() < 1e-9, "{}", e.backlog);
        assert_eq!((e.received, e.min_rtt, e.max_rtt), (2, Some(ms(171)), Some(ms(186))));
        // A cycle with a probe alone: its RTT, and nothing received.
        h.on_path_rtt(ms(172));
        let e = h.end_cycle(ms(200));
        assert_eq!((e.received, e.min_rtt, e.max_rtt, e.rate), (0, Some(ms(172)), None, 0.0));
    }
}
