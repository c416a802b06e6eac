//! DPCCP's consumer (Chen et al., "DPCCP: Delay-based Path-specified Congestion Control", §VI):
//! one rate-controlled sub-flow per path, on PTP's path switching (§VI-A), as a subflow manager.
//!
//! * **Paths** (§VI-A: "the proposed protocol requires using path switching"): found as PTP's
//!   consumer finds them, by probing Interests every `1 / probe_rate` whose Data bring the path
//!   back as a tag stack (PTP §3-A; routers need `ptp = true`). Every path found becomes a
//!   sub-flow, up to `max_paths`; a Nack(NoRoute) on a path closes its sub-flow. Without PTP's
//!   routers a probe comes back with no tags: that one untagged path is the sub-flow (the
//!   single-path scenarios, §VII-B: "the multipath forwarding strategy is not engaged").
//! * **Congestion estimation** (§VI-C, `hopflow`): each sub-flow splits its Data into hop-flows
//!   by the hop count routers write into Data (`dpccp = true` on the routers), and estimates its
//!   backlog `beta_r` once per control cycle.
//! * **Fairness control** (§VI-D, Eq. 16): each sub-flow's setpoint is the flow's, in proportion
//!   to its share of the flow's receiving rate: `beta^_r = beta^_s x_r / y_s`.
//! * **Rate control** (§VI-E, `dpccp_rate`): each sub-flow's requesting rate, paced Interest by
//!   Interest; the control cycle is the largest RTT of the Data received in the previous one
//!   (§VI-E-2). A new sub-flow starts in RTT-probing, its Interests flagged (`RTT_PROBING`); a
//!   Data that comes back with the flag set tells a sub-flow to drain (§VI-E-7).
//!
//! Losses are not a congestion signal here (§VII-B-1: "none of these protocols are loss-based"):
//! a timeout retransmits, and the rate controller does not react. Each sub-flow times its
//! Interests with its own RFC 6298 estimator floored at 1 s, as PTP's paths (§5-C-2, "as in
//! TCP"), whose path switching DPCCP runs on. With ndn-cxx's 200 ms floor, Z-MI's probe alone
//! (a queue of `delta` times the rate for a cycle) outgrows the RTO of a 171 ms path: in SP-1
//! without cache a fifth of the Interests timed out spuriously and were sent twice.
//!
//! Our choices where the paper is silent: each sub-flow starts at `initial_window` Interests per
//! RTT of the probe that found it (10, RFC 6928's initial window), and the window reported for
//! traces is the rate times the cycle (the Interests the rate keeps in flight).

use super::dpccp_rate::{CycleInput, RateConfig, RateControl, RateState};
use super::hopflow::HopFlows;
use super::pacing::{interval, paced_flow, path_header, Answered, PacedFlows, Pacer, Turn};
use super::paths::Tags;
use super::{PathReport, PathSend, SubflowManager};
use crate::app::cc::DataSample;
use crate::app::rtt::{RttEstimator, RttOptions};
use crate::packet::lp::flags;
use crate::packet::NackReason;
use crate::Time;

/// DPCCP's consumer parameters (docs/protocols/dpccp.md gives each one's source).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DpccpConfig {
    /// Most sub-flows at once (PTP's N, 10, which DPCCP's path switching inherits).
    pub max_paths: usize,
    /// Probing Interests per second (PTP §3-A's 10).
    pub probe_rate: f64,
    /// beta^_s: the flow's target backlog, packets (§VII-A: 20).
    pub setpoint: f64,
    /// A new sub-flow's first rate, in Interests per RTT of the probe that found it.
    pub initial_window: f64,
    /// The rate controller's laws.
    pub rate: RateConfig,
    /// Floor of each sub-flow's RTO (RFC 6298 §2.4's 1 s, as PTP's paths).
    pub min_rto: Time,
}

impl Default for DpccpConfig {
    fn default() -> Self {
        DpccpConfig {
            max_paths: 10,
            probe_rate: 10.0,
            setpoint: 20.0,
            initial_window: 10.0,
            rate: RateConfig::for_setpoint(20.0),
            min_rto: super::ptp::TCP_MIN_RTO,
        }
    }
}

/// One sub-flow: a path, its rate controller and its hop-flows.
struct SubFlow {
    tags: Tags,
    open: bool,
    control: RateControl,
    hops: HopFlows,
    rtt: RttEstimator,
    pacer: Pacer,
    /// The current control cycle's length and end.
    cycle: Time,
    cycle_end: Time,
    /// x_r of the last complete cycle.
    received_rate: f64,
    data: u64,
    timeouts: u64,
}

impl SubFlow {
    fn interval(&self) -> Time {
        interval(self.control.rate())
    }

    /// After a rate change (a sub-flow leaving a 2 /s drain must not wait out its 0.5 s slot).
    fn repace(&mut self) {
        self.pacer.repace(self.interval());
    }
}

paced_flow!(SubFlow);

/// DPCCP's consumer: the sub-flows of one flow.
pub struct Dpccp {
    config: DpccpConfig,
    /// The sub-flows (their timer options: the consumer's, floored at `min_rto`).
    paths: PacedFlows<SubFlow>,
}

impl Dpccp {
    /// `rto`: the consumer's timer options, which each sub-flow runs with its own floor.
    pub fn new(config: DpccpConfig, rto: RttOptions) -> Dpccp {
        let rto = RttOptions { min_rto: config.min_rto.min(rto.max_rto), ..rto };
        Dpccp { config, paths: PacedFlows::new(config.probe_rate, rto, config.max_paths) }
    }

    /// Each open sub-flow's (state, requesting rate in Interests per second).
    pub fn rates(&self) -> impl Iterator<Item = (RateState, f64)> + '_ {
        self.paths.open().map(|(_, f)| (f.control.state(), f.control.rate()))
    }

    /// A probe came back over a new path, `tags`, after `rtt`: it becomes a sub-flow.
    fn learn_path(&mut self, now: Time, tags: Tags, rtt: Option<Time>) {
        let rtt = rtt.unwrap_or(Time::from_secs(1)).max(Time::from_micros(1));
        let initial = self.config.initial_window / rtt.as_secs_f64();
        let mut estimator = RttEstimator::new(self.paths.rto);
        estimator.add_sample(rtt);
        self.paths.flows.push(SubFlow {
            tags,
            open: true,
            control: RateControl::new(self.config.rate, initial),
            hops: HopFlows::new(),
            rtt: estimator,
            pacer: Pacer::new(now),
            cycle: rtt,
            cycle_end: now + rtt,
            received_rate: 0.0,
            data: 0,
            timeouts: 0,
        });
    }

    /// Closes the control cycle of sub-flow `i` (§VI-E-2) and starts the next.
    fn end_cycle(&mut self, i: usize, now: Time) {
        let flows = &mut self.paths.flows;
        let length = flows[i].cycle;
        let estimate = flows[i].hops.end_cycle(length);
        flows[i].received_rate = estimate.rate;
        // Eq. 16 over the latest rates of the open sub-flows.
        let flow_rate: f64 = self.paths.open().map(|(_, f)| f.received_rate).sum();
        let setpoint = subflow_setpoint(self.config.setpoint, estimate.rate, flow_rate, self.paths.open_count());
        let f = &mut self.paths.flows[i];
        let input = CycleInput { estimate, setpoint, length: f.cycle.as_secs_f64() };
        f.control.end_cycle(&input);
        f.cycle = estimate.max_rtt.unwrap_or(f.cycle).max(Time::from_micros(1));
        f.cycle_end = now + f.cycle;
        f.repace();
    }
}

impl SubflowManager for Dpccp {
    fn name(&self) -> &'static str {
        "dpccp"
    }

    fn can_send(&self, now: Time) -> bool {
        self.paths.can_send(now)
    }

    fn can_resend(&self, now: Time) -> bool {
        self.paths.can_resend(now)
    }

    fn path_for(&mut self, now: Time, segment: u64, retransmission: bool) -> Option<PathSend> {
        let i = match self.paths.turn(now, segment, retransmission)? {
            Turn::Probe(send) => return Some(send),
            Turn::Flow(i) => i,
        };
        let f = &mut self.paths.flows[i];
        let interval = f.interval();
        f.pacer.sent(now, interval);
        let mut lp = path_header(&f.tags);
        if f.control.probing() {
            lp.flags |= flags::RTT_PROBING;
        }
        let rto = Some(f.rtt.rto());
        self.paths.sent_on(segment, i);
        Some(PathSend { lp, rto })
    }

    fn on_data(&mut self, now: Time, sample: &DataSample) {
        match self.paths.on_data(sample) {
            Answered::NewPath(tags) => self.learn_path(now, tags, sample.rtt),
            Answered::Flow(i) => {
                let f = &mut self.paths.flows[i];
                f.data += 1;
                if let Some(r) = sample.rtt {
                    f.rtt.add_sample(r);
                }
                f.hops.on_data(flags::data_hops(sample.lp.flags), sample.rtt);
                f.control.on_drain_flag(sample.lp.flags & flags::RTT_PROBING != 0, f.received_rate);
                f.repace();
            }
            // §VI-E-6's drain and §VI-E-7's probing watch the path's RTT; a probe over the path
            // measures it even when the sub-flow's own Data, all resent, cannot (`on_path_rtt`).
            Answered::Probe(i) => {
                if let Some(r) = sample.rtt {
                    self.paths.flows[i].hops.on_path_rtt(r);
                }
            }
            Answered::Nothing => {}
        }
    }

    fn on_timeout(&mut self, _now: Time, segment: u64) {
        self.paths.on_timeout(segment);
    }

    fn on_nack(&mut self, _now: Time, segment: u64, reason: NackReason, _marked: bool) {
        // PTP §4-C-2: a path Nacked NoRoute is broken.
        self.paths.on_nack(segment, reason);
    }

    fn path_of(&self, segment: u64) -> Option<u64> {
        self.paths.path_of(segment)
    }

    fn take_lost(&mut self, _out: &mut Vec<u64>) {}

    fn poll_timeout(&self) -> Option<Time> {
        self.paths.poll(|f| f.pacer.next_send.min(f.cycle_end))
    }

    fn poll_resend(&self) -> Option<Time> {
        self.paths.poll_resend(|f| f.pacer.next_send.min(f.cycle_end))
    }

    fn handle_timeout(&mut self, now: Time) {
        for i in 0..self.paths.flows.len() {
            if self.paths.flows[i].open && self.paths.flows[i].cycle_end <= now {
                self.end_cycle(i, now);
            }
        }
    }

    fn window(&self) -> f64 {
        self.paths.open().map(|(_, f)| f.control.rate() * f.cycle.as_secs_f64()).sum()
    }

    fn paths(&self) -> Vec<PathReport> {
        self.paths
            .flows
            .iter()
            .map(|f| PathReport {
                tags: f.tags.to_vec(),
                tag_stack: true,
                state: if f.open { "in-use" } else { "failed" },
                window: f.control.rate() * f.cycle.as_secs_f64(),
                srtt: f.hops.bases().filter_map(|(_, b)| b).max(),
                data: f.data,
                losses: 0,
                decreases: f.control.drains,
                timeouts: f.timeouts,
                sharing: None,
                bandwidth: None,
            })
            .collect()
    }
}

/// Eq. 16: a sub-flow's setpoint is the flow's `setpoint` in proportion to its receiving rate
/// `x` within the flow's `y`; before anything is received, an equal share of the `n` sub-flows.
pub fn subflow_setpoint(setpoint: f64, x: f64, y: f64, n: usize) -> f64 {
    if y > 0.0 {
        setpoint * x / y
    } else {
        setpoint / n.max(1) as f64
    }
}

#[cfg(test)]
#[path = "dpccp_tests.rs"]
mod tests;
