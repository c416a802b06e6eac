//! What the rate-based subflow managers (DPCCP's `dpccp`, MIRCC's `mircc`) share: Interests
//! paced one interval apart per sub-flow, PTP's path probes on a fixed grid (PTP §3-A), and
//! `PacedFlows`, the bookkeeping around them (which Interest went where, which turn is next, a
//! probe's answer as a new path, a NoRoute closing a path), so that each manager holds only its
//! own control law.

use rustc_hash::FxHashMap;

use super::paths::{Sent, Tags};
use super::ptp::next_probe;
use super::PathSend;
use crate::app::cc::DataSample;
use crate::app::rtt::{RttEstimator, RttOptions};
use crate::packet::lp::flags;
use crate::packet::{LpHeader, NackReason};
use crate::Time;

/// One sub-flow's Interest pacing at a rate that may change between Interests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pacer {
    /// When the next Interest may leave.
    pub next_send: Time,
    last_send: Option<Time>,
}

impl Pacer {
    /// A pacer whose first Interest may leave at `now`.
    pub fn new(now: Time) -> Pacer {
        Pacer { next_send: now, last_send: None }
    }

    /// An Interest leaves at `now` and the next is due `interval` later: exactly on the grid
    /// while the sub-flow keeps up, and from now after a gap (no burst to catch up).
    pub fn sent(&mut self, now: Time, interval: Time) {
        self.next_send = if self.next_send + interval > now { self.next_send + interval } else { now + interval };
        self.last_send = Some(now);
    }

    /// After a rate change, the next Interest leaves one new `interval` after the last one if
    /// that is sooner (a sub-flow leaving a slow rate must not wait out its long slot).
    pub fn repace(&mut self, interval: Time) {
        if let Some(last) = self.last_send {
            self.next_send = self.next_send.min(last + interval);
        }
    }
}

/// The time between Interests at `rate` Interests per second (a rate of 0 is one per 10^6 s).
pub fn interval(rate: f64) -> Time {
    Time::from_secs_f64(1.0 / rate.max(1e-6))
}

/// PTP's path probing (§3-A): a probing Interest every `1 / rate` seconds, the first at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Prober {
    next: Option<Time>,
    step: Time,
}

impl Prober {
    /// Probes at `rate` per second.
    pub fn new(rate: f64) -> Prober {
        Prober { next: None, step: Time::from_secs_f64(1.0 / rate.max(1e-9)) }
    }

    pub fn due(&self, now: Time) -> bool {
        self.next.is_none_or(|t| now >= t)
    }

    /// A probe leaves at `now`: the link header it carries, and the next one is scheduled.
    pub fn send(&mut self, now: Time) -> LpHeader {
        self.next = Some(next_probe(self.next, now, self.step));
        LpHeader { flags: flags::PTP_PROBE, ..Default::default() }
    }

    /// When the next probe is due (`None` before the first).
    pub fn deadline(&self) -> Option<Time> {
        self.next
    }
}

/// Among the open sub-flows' `(index, next_send)`, the one due first if it is due at `now` (on
/// a tie, the lowest index: the path found first).
pub fn first_due(now: Time, open: impl Iterator<Item = (usize, Time)>) -> Option<usize> {
    let (i, next) = open.min_by_key(|&(i, next)| (next, i))?;
    (next <= now).then_some(i)
}

/// The link header of an Interest sent on the path `tags` (PTP's tag stack; no tags: the one
/// untagged path of a network without PTP's routers).
pub fn path_header(tags: &Tags) -> LpHeader {
    let mut lp = LpHeader::default();
    if !tags.is_empty() {
        lp.ext_mut().tags = tags.clone();
    }
    lp
}

/// The path a probe's Data brought back.
pub fn probed_path(lp: &LpHeader) -> Tags {
    lp.ext.as_ref().map(|e| e.tags.clone()).unwrap_or_default()
}

/// What `PacedFlows` needs of a manager's sub-flow.
pub trait PacedFlow {
    fn tags(&self) -> &Tags;
    fn is_open(&self) -> bool;
    /// Its path broke (Nack NoRoute, PTP §4-C-2).
    fn close(&mut self);
    fn pacer(&self) -> &Pacer;
    fn rtt(&self) -> &RttEstimator;
    fn count_timeout(&mut self);
}

/// Implements `PacedFlow` for a sub-flow struct with the fields `tags`, `open`, `pacer`, `rtt`
/// and `timeouts` (DPCCP's and MIRCC's).
macro_rules! paced_flow {
    ($t:ty) => {
        impl $crate::app::multipath::pacing::PacedFlow for $t {
            fn tags(&self) -> &Tags {
                &self.tags
            }
            fn is_open(&self) -> bool {
                self.open
            }
            fn close(&mut self) {
                self.open = false;
            }
            fn pacer(&self) -> &Pacer {
                &self.pacer
            }
            fn rtt(&self) -> &RttEstimator {
                &self.rtt
            }
            fn count_timeout(&mut self) {
                self.timeouts += 1;
            }
        }
    };
}
pub(super) use paced_flow;

/// Whose turn it is to send.
pub enum Turn {
    /// A probe leaves, with this header and timer.
    Probe(PathSend),
    /// Sub-flow i's Interest is due.
    Flow(usize),
}

/// What a Data answered.
pub enum Answered {
    /// A probe, which found a path not yet known, with room for it.
    NewPath(Tags),
    /// An Interest of sub-flow i, which is open.
    Flow(usize),
    /// A probe that came back over open sub-flow i's path: a fresh measure of that path.
    Probe(usize),
    /// Nothing to act on: a probe of a closed or unkept path, a closed sub-flow, a late copy.
    Nothing,
}

/// The sub-flows of a rate-based manager, the map from segments to them, and the prober.
pub struct PacedFlows<F> {
    pub flows: Vec<F>,
    /// The sub-flows' timer options.
    pub rto: RttOptions,
    max_paths: usize,
    sent: FxHashMap<u64, Sent>,
    prober: Prober,
}

impl<F: PacedFlow> PacedFlows<F> {
    pub fn new(probe_rate: f64, rto: RttOptions, max_paths: usize) -> PacedFlows<F> {
        PacedFlows { flows: Vec::new(), rto, max_paths, sent: FxHashMap::default(), prober: Prober::new(probe_rate) }
    }

    pub fn open(&self) -> impl Iterator<Item = (usize, &F)> {
        self.flows.iter().enumerate().filter(|(_, f)| f.is_open())
    }

    pub fn open_count(&self) -> usize {
        self.open().count()
    }

    /// The open sub-flow whose Interest is due first, if one is due at `now`.
    fn due(&self, now: Time) -> Option<usize> {
        first_due(now, self.open().map(|(i, f)| (i, f.pacer().next_send)))
    }

    pub fn can_send(&self, now: Time) -> bool {
        self.prober.due(now) || self.due(now).is_some()
    }

    /// Whether a resent segment may leave now: on a due sub-flow, not as a probe, while any
    /// sub-flow is open. A probe takes a path at random, which may loop back (Nack Duplicate) or
    /// lose the segment again, and then the resend would ride the next probe, and the next; PTP
    /// §5-C-1 resends lost packets on an in-use path. Measured in dpccp-mp4 before this rule:
    /// each consumer's last segments went out as probe after probe, for 2.6 to 14.6 s. With no
    /// sub-flow open, a probe is the only way out.
    pub fn can_resend(&self, now: Time) -> bool {
        if self.open_count() == 0 {
            self.prober.due(now)
        } else {
            self.due(now).is_some()
        }
    }

    /// A due probe goes first (recorded here); else the due sub-flow, which the manager sends
    /// and records with `sent_on`.
    ///
    /// A resend goes on a sub-flow while one is open, never as a probe (`can_resend`).
    pub fn turn(&mut self, now: Time, segment: u64, resend: bool) -> Option<Turn> {
        if !self.prober.due(now) || (resend && self.open_count() > 0) {
            return self.due(now).map(Turn::Flow);
        }
        self.sent.insert(segment, Sent::Probe);
        let lp = self.prober.send(now);
        // A probe may take any path: the largest of the sub-flows' timers (the initial one
        // before any), without their backoff, as PTP's (`PathSet::probe_rto`).
        let rto = self
            .flows
            .iter()
            .map(|f| f.rtt().estimated_rto())
            .max()
            .unwrap_or_else(|| RttEstimator::new(self.rto).rto());
        Some(Turn::Probe(PathSend { lp, rto: Some(rto) }))
    }

    pub fn sent_on(&mut self, segment: u64, i: usize) {
        self.sent.insert(segment, Sent::Path(i));
    }

    /// The index of the sub-flow `segment` last went on (`None` for a probe).
    pub fn path_of(&self, segment: u64) -> Option<u64> {
        match self.sent.get(&segment) {
            Some(&Sent::Path(i)) => Some(i as u64),
            _ => None,
        }
    }

    pub fn on_data(&mut self, sample: &DataSample) -> Answered {
        match self.sent.remove(&sample.segment) {
            Some(Sent::Probe) if sample.lp.flags & flags::PTP_PROBE != 0 => {
                let tags = probed_path(sample.lp);
                match self.flows.iter().position(|f| f.tags().as_slice() == tags.as_slice()) {
                    Some(i) if self.flows[i].is_open() => Answered::Probe(i),
                    Some(_) => Answered::Nothing,
                    None if self.open_count() >= self.max_paths => Answered::Nothing,
                    None => Answered::NewPath(tags),
                }
            }
            Some(Sent::Path(i)) if self.flows[i].is_open() => Answered::Flow(i),
            _ => Answered::Nothing,
        }
    }

    pub fn on_timeout(&mut self, segment: u64) {
        if let Some(Sent::Path(i)) = self.sent.remove(&segment) {
            self.flows[i].count_timeout();
        }
    }

    /// A Nack for `segment`: whether it closed an open sub-flow.
    pub fn on_nack(&mut self, segment: u64, reason: NackReason) -> bool {
        match self.sent.remove(&segment) {
            Some(Sent::Path(i)) if reason == NackReason::NoRoute && self.flows[i].is_open() => {
                self.flows[i].close();
                true
            }
            _ => false,
        }
    }

    /// The earliest of the open sub-flows' `deadline`s and the next probe.
    pub fn poll(&self, deadline: impl Fn(&F) -> Time) -> Option<Time> {
        self.open().map(|(_, f)| deadline(f)).chain(self.prober.deadline()).min()
    }

    /// `poll` for a consumer that has only resends to send: the probe is not their way out
    /// while a sub-flow is open (`can_resend`), so waking for it would find nothing to do.
    pub fn poll_resend(&self, deadline: impl Fn(&F) -> Time) -> Option<Time> {
        if self.open_count() == 0 {
            return self.poll(deadline);
        }
        self.open().map(|(_, f)| deadline(f)).min()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(x: u64) -> Time {
        Time::from_millis(x)
    }

    #[test]
    fn a_pacer_keeps_its_grid_and_restarts_after_a_gap() {
        let mut p = Pacer::new(ms(0));
        p.sent(ms(0), ms(10));
        assert_eq!(p.next_send, ms(10));
        // On time (sent at 10): the grid goes on to 20.
        p.sent(ms(10), ms(10));
        assert_eq!(p.next_send, ms(20));
        // Sent 30 ms late (at 50): the next is 10 ms from now, not at 30.
        p.sent(ms(50), ms(10));
        assert_eq!(p.next_send, ms(60));
        // The rate rises to one per 4 ms: the next leaves 4 ms after the last, at 54.
        p.repace(ms(4));
        assert_eq!(p.next_send, ms(54));
        // A slower rate never postpones an Interest already due sooner.
        p.repace(ms(100));
        assert_eq!(p.next_send, ms(54));
    }

    /// A sub-flow for the manager's tests: its pacer, whether it is open, its timer.
    struct Flow(Pacer, bool, RttEstimator);
    impl PacedFlow for Flow {
        fn tags(&self) -> &Tags {
            unreachable!("no probe answers here")
        }
        fn is_open(&self) -> bool {
            self.1
        }
        fn close(&mut self) {}
        fn pacer(&self) -> &Pacer {
            &self.0
        }
        fn rtt(&self) -> &RttEstimator {
            &self.2
        }
        fn count_timeout(&mut self) {}
    }

    #[test]
    fn a_probe_takes_the_largest_subflow_timer_without_its_backoff() {
        // Sub-flows of 80 ms (RTO on the 1 s floor) and 600 ms (srtt 0.6 s, rttvar 0.3 s: RTO 1.8 s,
        // RFC 6298 §2.2). The slower one's timer backs off to 3.6 s after a timeout of its own; a
        // probe, which may come back over either, keeps 1.8 s.
        let floor = RttOptions { min_rto: Time::from_secs(1), ..RttOptions::default() };
        let timer = |rtt: u64| {
            let mut e = RttEstimator::new(floor);
            e.add_sample(ms(rtt));
            e
        };
        let mut flows: PacedFlows<Flow> = PacedFlows::new(10.0, floor, 10);
        flows.flows.push(Flow(Pacer::new(ms(500)), true, timer(80)));
        flows.flows.push(Flow(Pacer::new(ms(500)), true, timer(600)));
        flows.flows[1].2.backoff();
        assert_eq!(flows.flows[1].2.rto(), ms(3600));
        let Some(Turn::Probe(probe)) = flows.turn(ms(0), 1, false) else { panic!("the probe is due first") };
        assert_eq!(probe.rto, Some(ms(1800)));
    }

    #[test]
    fn a_resend_waits_for_a_subflow_rather_than_ride_a_probe() {
        let flow = |next: u64, open: bool| Flow(Pacer::new(ms(next)), open, RttEstimator::new(RttOptions::default()));
        let next_send = |f: &Flow| f.0.next_send;
        let mut flows: PacedFlows<Flow> = PacedFlows::new(10.0, RttOptions::default(), 10);
        // No sub-flow yet: a resend goes as the probe (there is nothing else).
        assert!(flows.can_resend(ms(0)));
        assert!(matches!(flows.turn(ms(0), 7, true), Some(Turn::Probe(_))));
        // Only a closed sub-flow: the same, at the next probe (100 ms).
        flows.flows.push(flow(0, false));
        assert!(!flows.can_resend(ms(99)));
        assert_eq!(flows.poll_resend(next_send), Some(ms(100)));
        assert!(flows.can_resend(ms(100)));
        assert!(matches!(flows.turn(ms(100), 7, true), Some(Turn::Probe(_))));
        // Two open sub-flows that send next at 340 and 320 ms. At 300 ms the probe is due: a new
        // segment may leave (as the probe), a resend may not; it waits for the sub-flow due at
        // 320 ms, which is when a consumer with only resends to send wakes.
        flows.flows.push(flow(340, true));
        flows.flows.push(flow(320, true));
        assert!(flows.can_send(ms(300)));
        assert!(!flows.can_resend(ms(300)));
        assert_eq!(flows.poll_resend(next_send), Some(ms(320)));
        assert_eq!(flows.poll(next_send), Some(ms(200)));
        assert!(flows.can_resend(ms(320)));
        assert!(matches!(flows.turn(ms(320), 8, true), Some(Turn::Flow(2))));
        // The probe is still due: a new segment takes it.
        assert!(matches!(flows.turn(ms(320), 9, false), Some(Turn::Probe(_))));
    }

    #[test]
    fn probes_go_every_step_from_the_first() {
        let mut p = Prober::new(10.0);
        assert!(p.due(ms(0)));
        assert_eq!(p.send(ms(0)).flags, flags::PTP_PROBE);
        assert_eq!(p.deadline(), Some(ms(100)));
        assert!(!p.due(ms(99)));
        assert!(p.due(ms(100)));
    }
}
