//! DPCCP's rate control for one sub-flow (Chen et al., "DPCCP", §VI-E): a requesting rate
//! `u_r` (Interests per second) adjusted once per control cycle so that the sub-flow's backlog
//! `beta_r` converges to its setpoint `beta^_r`, in four states (§VI-E-3, Figure 6):
//!
//! * **Bottleneck-Filling** (BF, §VI-E-4, Eqs. 17-18), Zigzag Multiplicative Increase: rounds of
//!   three cycles at `(1 + delta) u*`, `u*`, `(1 - delta) u*`; a round without backlog
//!   (`beta_r < psi` throughout) raises the tolerable rate `u*` to `(1 + delta) u*`; backlog
//!   seen records the receiving rate `x_r`, lets stage III cancel what stage I queued, and moves
//!   to FC at the recorded rate.
//! * **Fairness-Converging** (FC, §VI-E-5, Eqs. 19-20), Adaptive AIAD: `u_r = x_r + rho / T`
//!   below the setpoint, `x_r - rho / T` above (T the cycle, so the backlog moves by about `rho`
//!   packets a cycle, Vegas' one packet per RTT when `rho` = 1); every K cycles `rho` follows the
//!   measured speed `n = |delta beta_r| / K` towards one packet per cycle, and is reset to 1 when
//!   `beta_r` crosses the setpoint. Backlog below `psi` for K cycles in a row returns to BF.
//! * **Queue-Draining** (QD, §VI-E-6, Eq. 21): entered from FC when `beta_r > eta` for K cycles in
//!   a row, or on a drain flag (another sub-flow's RTT probing); stage I keeps `u* = x_r` and
//!   requests 2 Interests per second until the RTT stops falling; stage II requests `zeta u*`
//!   (zeta 0.8) and moves to BF at once, with `zeta u*` as Z-MI's tolerable rate: the round
//!   starts at its stage II.
//! * **RTT-Probing** (RP, §VI-E-7): a new sub-flow flags its Interests so that the routers make
//!   the other sub-flows on its faces drain, until its own RTT stops falling; then BF.
//!
//! The paper leaves `delta`, `psi`, `eta` and Eq. 20's exact form unreadable or unstated; our
//! values and their reasons are on `RateConfig` and in docs/protocols/dpccp.md.

use std::collections::VecDeque;

use super::hopflow::CycleEstimate;
use crate::Time;

/// The control law's parameters (docs/protocols/dpccp.md gives each one's source).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RateConfig {
    /// Z-MI's step (Eq. 17). Our choice 0.25: the paper borrows BBR's probing (§VI-B), and
    /// BBR's ProbeBW cycle probes at 1.25 and drains at 0.75 of its rate, which is Z-MI's
    /// stage I and III with delta = 0.25 (stage III removes what stage I queued).
    pub delta: f64,
    /// psi, packets: below it the bottleneck is taken as underused ("a very small value"). Our
    /// choice 1 packet: the least backlog that is a queue at all.
    pub psi: f64,
    /// eta, packets: above it the path is heavily congested and the sub-flow drains ("the
    /// largest threshold"). Our choice: three flow setpoints (60 packets), far enough above the
    /// setpoint that A-AIAD's overshoot (a few packets a cycle) never reaches it.
    pub eta: f64,
    /// K: A-AIAD's averaging span, in cycles (§VI-E-5: K = 3).
    pub k: usize,
    /// QD stage I's requesting rate, Interests per second (§VI-E-6: 2).
    pub drain_rate: f64,
    /// zeta: the share of the backup rate QD stage II restarts at (§VI-E-6: 0.8).
    pub zeta: f64,
    /// Largest rho, packets per cycle (ours: half the flow setpoint, so one cycle's step cannot
    /// jump across the setpoint band).
    pub rho_max: f64,
}

impl RateConfig {
    /// The paper's values where it gives them, ours (above) where it does not; `setpoint` is the
    /// flow's (20 packets, §VII-A).
    pub fn for_setpoint(setpoint: f64) -> RateConfig {
        RateConfig {
            delta: 0.25,
            psi: 1.0,
            eta: 3.0 * setpoint,
            k: 3,
            drain_rate: 2.0,
            zeta: 0.8,
            rho_max: setpoint / 2.0,
        }
    }
}

/// Z-MI's stage within a round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ZmiStage {
    Probe,
    Hold,
    Back,
}

/// The sub-flow's state (§VI-E-3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RateState {
    RttProbing,
    Filling(ZmiStage),
    Converging,
    /// QD stage I (stage II is the instant it ends: the rate, zeta u*, set on the way back to BF).
    Draining,
}

/// What the rate controller measured in a cycle, with the setpoint the manager gave it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CycleInput {
    pub estimate: CycleEstimate,
    /// beta^_r (Eq. 16), packets.
    pub setpoint: f64,
    /// The cycle's length, seconds.
    pub length: f64,
}

/// One sub-flow's rate controller.
#[derive(Clone, Debug)]
pub struct RateControl {
    config: RateConfig,
    state: RateState,
    /// u_r, Interests per second.
    rate: f64,
    /// u*: Z-MI's tolerable rate, and QD's backup rate.
    tolerable: f64,
    /// A-AIAD's rho, and the backlogs of the last K + 1 cycles in FC.
    rho: f64,
    history: VecDeque<f64>,
    cycles_in_fc: usize,
    above: Option<bool>,
    /// FC's cycles in a row below psi.
    idle_cycles: usize,
    /// FC's cycles in a row above eta.
    congested_cycles: usize,
    /// Whether FC has passed its first cycle (which measured the state before).
    settled: bool,
    /// Z-MI: the receiving rate recorded when backlog was seen, while stage III cancels it.
    recorded: Option<f64>,
    /// Whether this Z-MI round ran its stage I (the round QD's stage II starts at stage II did not).
    probed: bool,
    /// The last cycle's smallest RTT, while RP or QD wait for it to stop falling.
    last_min_rtt: Option<Time>,
    /// Cycles spent in RP so far.
    probing_cycles: u32,
    /// Whether a drain flag would start a drain: not while probing, and after a drain or the end
    /// of its own probing only once a Data has come back without the flag.
    drain_armed: bool,
    /// State changes, for the path report: drains so far.
    pub drains: u64,
}

impl RateControl {
    /// A new sub-flow starts in RP at `initial` Interests per second.
    pub fn new(config: RateConfig, initial: f64) -> RateControl {
        RateControl {
            config,
            state: RateState::RttProbing,
            rate: initial,
            tolerable: initial,
            rho: 1.0,
            history: VecDeque::new(),
            cycles_in_fc: 0,
            above: None,
            idle_cycles: 0,
            congested_cycles: 0,
            settled: true,
            recorded: None,
            probed: false,
            last_min_rtt: None,
            probing_cycles: 0,
            drain_armed: false,
            drains: 0,
        }
    }

    pub fn rate(&self) -> f64 {
        self.rate
    }
    pub fn state(&self) -> RateState {
        self.state
    }
    /// Whether this sub-flow's Interests carry the RTT-probing flag.
    pub fn probing(&self) -> bool {
        self.state == RateState::RttProbing
    }

    /// A Data of this sub-flow arrived with (`true`) or without the drain flag.
    pub fn on_drain_flag(&mut self, flagged: bool, x: f64) {
        if !flagged {
            self.drain_armed = !matches!(self.state, RateState::Draining | RateState::RttProbing);
            return;
        }
        if self.drain_armed && matches!(self.state, RateState::Filling(_) | RateState::Converging) {
            self.start_drain(x);
        }
    }

    /// The end of a control cycle.
    pub fn end_cycle(&mut self, c: &CycleInput) {
        let e = &c.estimate;
        match self.state {
            RateState::RttProbing => self.probe_rtt(e),
            RateState::Draining => self.drain(e),
            _ if e.received == 0 => {} // nothing came back: nothing to act on
            RateState::Filling(stage) => self.fill(stage, c),
            RateState::Converging => {
                if self.heavily_congested(e.backlog) {
                    self.start_drain(e.rate)
                } else {
                    self.converge(c)
                }
            }
        }
    }

    /// Whether FC's backlog has stayed above `eta` for K cycles in a row, this one included.
    /// §VI-E-6: "When the network is stable, sub-flows will never move into the QD state"; its
    /// example is a cache that stops answering, whose backlog stays. One cycle above `eta` is
    /// not that: where a cache answers each Interest at random (SP-1), the producer's share of a
    /// cycle's Interests, and with it the bottleneck's queue, swings from cycle to cycle (five to
    /// seven drains in 200 s at κ = 80 % with a one-cycle test, seeds 1-4). Our reading, with
    /// A-AIAD's span K (§VI-E-5: 3) as the span; A-AIAD keeps lowering the rate meanwhile.
    fn heavily_congested(&mut self, backlog: f64) -> bool {
        self.congested_cycles = if backlog > self.config.eta { self.congested_cycles + 1 } else { 0 };
        self.congested_cycles >= self.config.k
    }

    /// RP: until the smallest RTT of a cycle is no lower than the last one's (at least two cycles,
    /// one for the flag to reach the routers and one for the others' drain to show).
    fn probe_rtt(&mut self, e: &CycleEstimate) {
        self.probing_cycles += 1;
        if self.rtt_stopped_falling(e) && self.probing_cycles >= 2 {
            self.enter_filling(self.rate);
            // Its own flag still labels its faces for a while: the Data that come back flagged
            // then are its own probing's echo, not another sub-flow's.
            self.drain_armed = false;
        }
    }

    /// QD stage I (Eq. 21) until the RTT stops falling, then stage II: "sets the requesting rate
    /// to a fraction ζ of the backup rate u* [...] to reserve bandwidth to new sub-flows. At the
    /// same time, the sub-flow is transferred to the BF state" (§VI-E-6). In BF a requesting rate
    /// equal to the tolerable one is Z-MI's stage II, so the round starts there, at `zeta u*`.
    /// Starting at stage I would request `(1 + delta) zeta u*`, which with the defaults is u*
    /// itself: every sub-flow a probing one drained came back at its old rate, the reserve gone.
    fn drain(&mut self, e: &CycleEstimate) {
        if self.rtt_stopped_falling(e) {
            self.enter_filling_at(ZmiStage::Hold, self.config.zeta * self.tolerable);
        }
    }

    /// Whether this cycle's smallest RTT is no lower than the previous cycle's (cycles without
    /// a sample are skipped).
    fn rtt_stopped_falling(&mut self, e: &CycleEstimate) -> bool {
        let Some(now) = e.min_rtt else { return false };
        let stopped = self.last_min_rtt.is_some_and(|last| now >= last);
        self.last_min_rtt = Some(now);
        stopped
    }

    fn start_drain(&mut self, x: f64) {
        self.tolerable = x.max(self.config.drain_rate);
        self.rate = self.config.drain_rate;
        self.state = RateState::Draining;
        self.last_min_rtt = None;
        self.drain_armed = false;
        self.drains += 1;
    }

    /// BF with tolerable rate `tolerable`, from a Z-MI round's first stage.
    fn enter_filling(&mut self, tolerable: f64) {
        self.enter_filling_at(ZmiStage::Probe, tolerable);
    }

    fn enter_filling_at(&mut self, stage: ZmiStage, tolerable: f64) {
        self.tolerable = tolerable.max(self.config.drain_rate);
        self.state = RateState::Filling(stage);
        self.rate = self.zmi_rate(stage);
        self.probed = stage == ZmiStage::Probe;
        self.last_min_rtt = None;
        self.recorded = None;
    }

    /// Eq. 17: a Z-MI stage's requesting rate.
    fn zmi_rate(&self, stage: ZmiStage) -> f64 {
        let d = self.config.delta;
        match stage {
            ZmiStage::Probe => (1.0 + d) * self.tolerable,
            ZmiStage::Hold => self.tolerable,
            ZmiStage::Back => (1.0 - d) * self.tolerable,
        }
    }

    fn enter_converging(&mut self, rate: f64) {
        self.rate = rate.max(self.config.drain_rate);
        self.state = RateState::Converging;
        self.rho = 1.0;
        self.history.clear();
        self.cycles_in_fc = 0;
        self.idle_cycles = 0;
        self.congested_cycles = 0;
        self.above = None;
        self.recorded = None;
        self.settled = false;
    }

    /// Z-MI (Eqs. 17-18). Backlog seen: "the receiving rate is the saturated rate that can
    /// critically fill the bottleneck" (§VI-E-4), so it is recorded for FC; but first stage III
    /// runs, if it has not yet in this round, to cancel what stage I queued ("the algorithm
    /// introduces zero backlogged packets each round"). Without it FC would start `delta u* T`
    /// packets above an empty queue, past `eta` on any path whose rate-delay product exceeds
    /// `eta / delta` (240 packets with the defaults: SP-3's 20 Mbit/s over 120 ms is 280), and
    /// drain every round. BF's own backlog is never `eta`'s "heavily congested": it is the
    /// probe's, and stage III removes it.
    fn fill(&mut self, stage: ZmiStage, c: &CycleInput) {
        if let Some(recorded) = self.recorded {
            return self.enter_converging(recorded);
        }
        if c.estimate.backlog >= self.config.psi {
            if stage == ZmiStage::Back {
                return self.enter_converging(c.estimate.rate);
            }
            self.recorded = Some(c.estimate.rate);
            self.state = RateState::Filling(ZmiStage::Back);
            self.rate = self.zmi_rate(ZmiStage::Back);
            return;
        }
        let next = match stage {
            ZmiStage::Probe => ZmiStage::Hold,
            ZmiStage::Hold => ZmiStage::Back,
            // Eq. 18: "the tolerable requesting rate of the next Z-MI round is increased to the
            // current Stage I requesting rate", the rate the round showed the bottleneck takes
            // ("the sub-flow can safely increase" it). A round without stage I (QD's stage II
            // starts one at stage II) tried no higher rate: u* stays.
            ZmiStage::Back => {
                if self.probed {
                    self.tolerable *= 1.0 + self.config.delta;
                }
                self.probed = true;
                ZmiStage::Probe
            }
        };
        self.state = RateState::Filling(next);
        self.rate = self.zmi_rate(next);
    }

    /// A-AIAD (Eqs. 19-20). The first cycle in FC measured what was requested before (Z-MI's
    /// stage III, whose receiving rate is the backed-off one): it holds the rate FC started at.
    fn converge(&mut self, c: &CycleInput) {
        if !self.settled {
            self.settled = true;
            return;
        }
        let (beta, target) = (c.estimate.backlog, c.setpoint);
        // Underused only if it stays so over K cycles: right after Z-MI's stage III the queue is
        // empty at a rate that fills the bottleneck, and A-AIAD's first steps rebuild the backlog.
        self.idle_cycles = if beta < self.config.psi { self.idle_cycles + 1 } else { 0 };
        if self.idle_cycles >= self.config.k {
            return self.enter_filling(self.rate);
        }
        let above = beta > target;
        if self.above.is_some_and(|a| a != above) {
            self.rho = 1.0; // crossed the setpoint: damp the oscillation
        }
        self.above = Some(above);
        self.history.push_back(beta);
        if self.history.len() > self.config.k + 1 {
            self.history.pop_front();
        }
        self.cycles_in_fc += 1;
        if self.cycles_in_fc.is_multiple_of(self.config.k) && self.history.len() == self.config.k + 1 {
            self.adapt_rho();
        }
        let step = self.rho / c.length.max(1e-9);
        let x = c.estimate.rate;
        self.rate = if above { x - step } else { x + step }.max(self.config.drain_rate);
    }

    /// Eq. 20 (our reading): the measured speed `n` (packets of backlog per cycle over the last
    /// K) against the expected one packet per cycle; slower raises rho by `1 - n` of itself
    /// (at most doubling it), faster divides it by `n`; kept within [1, rho_max].
    fn adapt_rho(&mut self) {
        let (first, last) = (self.history[0], self.history[self.config.k]);
        let n = (last - first).abs() / self.config.k as f64;
        self.rho = if n < 1.0 { self.rho * (2.0 - n) } else { self.rho / n };
        self.rho = self.rho.clamp(1.0, self.config.rho_max.max(1.0));
    }
}

#[cfg(test)]
#[path = "dpccp_rate_tests.rs"]
mod tests;
