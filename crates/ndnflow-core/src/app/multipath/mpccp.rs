//! One in-use path's congestion state in PTP's MPCCP (§5 "Multipath Path-specified Congestion
//! Control Protocol": §5-C design, §5-D state machine, Figure 11; defaults §6-A).
//!
//! Loss detection (§5-C-1, §5-D-1). The path keeps the Interests sent on it in sending order, each
//! with a received flag. Data returned by the producer travel the whole path, so when one arrives
//! every Interest sent on this path before it should have been answered; those that were not are
//! lost (Condition I; §5-E: one reordered producer Data suffices). Data from a cache or an
//! aggregation point (flagged by the router) may overtake earlier Interests and are "ignored for
//! checking the arriving order". Lost, answered, timed-out and forgotten Interests all leave the
//! in-flight count (§5-D-4), which the window bounds.
//!
//! Window (Figure 11, TCP-like states):
//!
//! * Slow start (initial): +1 per producer Data, +1/cwnd per cache Data (§5-D-3: a cache burst
//!   must not blow the window up before the producer's slower Data arrive); to congestion
//!   avoidance once `cwnd >= ssthresh` (Condition III).
//! * Congestion avoidance and fast recovery: + the coupled increase per Data (eq. (2)-(3), LIA; the
//!   subflow manager computes it over all paths with its `Coupling`, this path cannot see the
//!   others). OLIA's increase may be negative; the window never goes below `min_window`. Under
//!   `Recovery::NewReno` (MPTCP's TCP subflows) the window holds through fast recovery instead.
//! * Loss from slow start or congestion avoidance (Condition I/IV): `cwnd = max(beta * cwnd,
//!   min_window)` (eq. (4)), `ssthresh = cwnd`, fast recovery with `cwnd_bk = cwnd`.
//! * Loss in fast recovery: if fewer than `cwnd_bk` Data have come back since entering it, the loss
//!   belongs to the same congestion event and the window is only set back to `cwnd_bk`; otherwise
//!   it is a new event: decrease again and re-enter fast recovery (§5-D-2).
//! * Fast recovery ends (Condition II) after `cwnd_bk` Data in a row without a loss.
//! * Timeout, from any state (§5-C-2, §5-D-3): `ssthresh = max(cwnd / 2, min_ssthresh)`,
//!   `cwnd = min_window`, slow start.
//!
//! Where the paper leaves room, we chose:
//!
//! * `cwnd_bk` is the window *after* the decrease: Condition I decreases "Finally" before entering
//!   fast recovery, where "the consumer memorizes the current congestion window size"; resetting
//!   to the pre-decrease window on a repeated loss would undo the decrease while "the congestion
//!   in the network has not finished yet".
//! * Fast recovery keeps two counts of Data (producer and cache alike, as every Data is "received"):
//!   since entering it (gates "a loss after cwnd_bk Data" = new event) and since the last loss
//!   (Condition II, "received continuously without losses"). With a single counter the
//!   "decrease again" branch could never be taken, since Condition II would always fire first.
//! * A Data either grows the window or carries a loss reaction, never both (a TCP duplicate ACK
//!   does not grow the window either), and the Data revealing a loss does not count as received
//!   "without losses".
//! * "The threshold is cut in half": half the window, as TCP's `max(FlightSize / 2, 2)` (RFC 5681
//!   eq. (4)); halving ssthresh itself would leave the initial infinite threshold infinite.
//! * A timeout ends the whole flight, as TCP's retransmission timer does (§5-C-2, "as in TCP"):
//!   after RFC 6298 §5.4-5.7's timeout a TCP sender goes back to its first unacknowledged segment
//!   and resends from there in slow start (RFC 5681 §3.1's loss window; its cumulative ACK cannot
//!   tell which later segments arrived). So on a timeout every other Interest still in flight on
//!   the path is declared lost and reported for retransmission, one reaction for the burst. Kept
//!   in flight instead, each waited for a timer of its own that the path's restarted timer
//!   (`PathSet::restarted_deadline`) pushed back by a doubled RTO at every timeout: with no Data
//!   coming back on the full path, a flight of 24 came back one Interest per 1, 2, 4, 8, 16 s,
//!   and the consumer stalled with 21 segments missing (tests `a_timeout_ends_the_flight` here and
//!   `a_timed_out_flight_is_resent_at_once` in ndnflow-sim's tests/ptp.rs).
//! * An Interest sent again on this path while still in flight here replaces its older copy.
//!
//! Work per event is O(1) amortised: a deque in sending order plus a map from segment to sending
//! index for the Interests still in flight; answered or removed Interests behind an unanswered one
//! stay as tombstones until they reach the front.

use rustc_hash::FxHashMap;
use std::collections::VecDeque;

/// Which losses belong to the congestion event that put a path in fast recovery.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Recovery {
    /// PTP §5-D-2: a loss before `cwnd_bk` Data have come back since entering fast recovery is the
    /// same event (the window goes back to `cwnd_bk`); a later one decreases again. Fast
    /// recovery ends after `cwnd_bk` Data in a row without a loss (Condition II).
    #[default]
    Counted,
    /// TCP NewReno (RFC 6582 §3.2, "recover"): a loss of an Interest sent before the decrease is
    /// the same event, whenever it is found; fast recovery ends when the Data of an Interest sent
    /// after the decrease arrives, with the window where the decrease left it (ssthresh: TCP does
    /// not grow it in recovery, RFC 6582 §3.2). At most one decrease per window of data, as
    /// MPTCP's subflows (TCP) have.
    NewReno,
}

/// MPCCP's per-path parameters. Windows count Interests (one Data packet each, §5-B).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MpccpConfig {
    /// Multiplicative decrease factor beta of eq. (4) on a detected loss, in (0, 1]. Default 0.75
    /// (§6-A: "the decreasing factor β is set to 0.75").
    pub beta: f64,
    /// Window of a new path, in Interests. Default 1.0: a path starts in slow start (§5-D-3) and the
    /// paper names no initial window; we start it at its minimum, as after a timeout (§5-C-2).
    pub initial_window: f64,
    /// Floor of every decrease and the window after a timeout ("the congestion window is set to
    /// the minimum value", §5-C-2), in Interests. Default 1.0.
    pub min_window: f64,
    /// Slow-start threshold of a new path, in Interests. Default infinite: TCP's initial ssthresh
    /// is "arbitrarily high" (RFC 5681 §3.1) and the paper gives none, so slow start runs until
    /// the first loss or timeout.
    pub initial_ssthresh: f64,
    /// Floor of the threshold after a timeout, in Interests. Default 2.0, TCP's `2 * SMSS`
    /// (RFC 5681 eq. (4)); the paper only says "cut in half" (§5-D-3).
    pub min_ssthresh: f64,
    /// Which losses belong to one congestion event: PTP's counted rule by default.
    pub recovery: Recovery,
}

impl MpccpConfig {
    /// The paper's values (§6-A) and the TCP defaults it relies on.
    pub const PTP: MpccpConfig = MpccpConfig {
        beta: 0.75,
        initial_window: 1.0,
        min_window: 1.0,
        initial_ssthresh: f64::INFINITY,
        min_ssthresh: 2.0,
        recovery: Recovery::Counted,
    };

    /// Out-of-range values replaced so that every window stays finite and at least the minimum:
    /// beta outside (0, 1] and non-positive or non-finite windows take the defaults, a window
    /// below the minimum is raised to it, a NaN threshold is infinite.
    fn sanitized(self) -> MpccpConfig {
        let d = MpccpConfig::PTP;
        let positive = |x: f64, or: f64| if x.is_finite() && x > 0.0 { x } else { or };
        let beta = if self.beta > 0.0 && self.beta <= 1.0 { self.beta } else { d.beta };
        let min_window = positive(self.min_window, d.min_window);
        let initial_window = positive(self.initial_window, d.initial_window).max(min_window);
        let initial_ssthresh = if self.initial_ssthresh.is_nan() { f64::INFINITY } else { self.initial_ssthresh };
        let min_ssthresh = positive(self.min_ssthresh, d.min_ssthresh);
        MpccpConfig { beta, initial_window, min_window, initial_ssthresh, min_ssthresh, recovery: self.recovery }
    }
}

impl Default for MpccpConfig {
    fn default() -> Self {
        MpccpConfig::PTP
    }
}

/// The states of Figure 11.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PathPhase {
    SlowStart,
    CongestionAvoidance,
    FastRecovery,
}

/// What happened on the path so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PathCounters {
    /// Interests declared lost by Condition I or by a timeout that ended their flight (each
    /// reported once, for retransmission).
    pub losses_detected: u64,
    /// Multiplicative decreases (Condition I reactions that were not the same congestion event).
    pub decreases: u64,
    /// Timeouts of Interests in flight on this path (each cuts the window, and ends the flight).
    pub timeouts: u64,
}

/// An Interest sent on the path; `pending` until answered, lost, timed out or forgotten.
#[derive(Clone, Copy, Debug)]
struct Sent {
    seg: u64,
    pending: bool,
}

/// One in-use path's congestion state (see the module comment).
#[derive(Clone, Debug)]
pub struct PathCongestion {
    config: MpccpConfig,
    phase: PathPhase,
    cwnd: f64,
    ssthresh: f64,
    /// Window memorised on entering fast recovery.
    cwnd_bk: f64,
    /// Data received since entering fast recovery.
    since_recovery: u64,
    /// Data received since the last loss (Condition II).
    since_loss: u64,
    /// Interests in sending order; the front has sending index `base`.
    queue: VecDeque<Sent>,
    base: u64,
    /// Sending index of each Interest still in flight; its length is the in-flight count.
    pending: FxHashMap<u64, u64>,
    /// Sending index of the first Interest sent after the last decrease (`Recovery::NewReno`'s
    /// "recover" point).
    recovery_gate: u64,
    counters: PathCounters,
}

impl Default for PathCongestion {
    fn default() -> Self {
        PathCongestion::new(MpccpConfig::PTP)
    }
}

impl PathCongestion {
    pub fn new(config: MpccpConfig) -> PathCongestion {
        let config = config.sanitized();
        PathCongestion {
            phase: PathPhase::SlowStart,
            cwnd: config.initial_window,
            ssthresh: config.initial_ssthresh,
            cwnd_bk: config.initial_window,
            since_recovery: 0,
            since_loss: 0,
            queue: VecDeque::new(),
            base: 0,
            pending: FxHashMap::default(),
            recovery_gate: 0,
            counters: PathCounters::default(),
            config,
        }
    }

    /// Test helper: the same path with its window set to `w` (still in slow start).
    #[cfg(test)]
    pub(super) fn with_cwnd(mut self, w: f64) -> PathCongestion {
        self.cwnd = w;
        self
    }

    pub fn config(&self) -> &MpccpConfig {
        &self.config
    }
    pub fn cwnd(&self) -> f64 {
        self.cwnd
    }
    pub fn ssthresh(&self) -> f64 {
        self.ssthresh
    }
    /// The window memorised on the last entry into fast recovery.
    pub fn cwnd_bk(&self) -> f64 {
        self.cwnd_bk
    }
    pub fn phase(&self) -> PathPhase {
        self.phase
    }
    pub fn counters(&self) -> PathCounters {
        self.counters
    }
    pub fn losses_detected(&self) -> u64 {
        self.counters.losses_detected
    }
    pub fn timeouts(&self) -> u64 {
        self.counters.timeouts
    }
    /// Interests sent on this path and neither answered nor declared lost, timed out or forgotten.
    pub fn in_flight(&self) -> usize {
        self.pending.len()
    }
    /// Interests the window admits: `floor(max(cwnd, 1))`.
    pub fn window_slots(&self) -> usize {
        self.cwnd.max(1.0) as usize
    }
    /// Whether the Interest for `seg` is in flight on this path.
    pub fn is_in_flight(&self, seg: u64) -> bool {
        self.pending.contains_key(&seg)
    }
    /// Whether the window admits another Interest on this path.
    pub fn has_room(&self) -> bool {
        self.in_flight() < self.window_slots()
    }

    /// An Interest for `seg` went out on this path (new or retransmitted), in sending order.
    pub fn on_sent(&mut self, seg: u64) {
        // A copy still in flight here is superseded: only the newest is waited for.
        self.forget(seg);
        let index = self.base.saturating_add(self.queue.len() as u64);
        self.queue.push_back(Sent { seg, pending: true });
        self.pending.insert(seg, index);
    }

    /// The Data of `seg` arrived on this path, from the producer or from a cache/aggregation point.
    /// `coupled_increase` is this path's increase by the manager's coupling (`Coupling::increase`)
    /// for congestion avoidance and fast recovery. Interests found lost are appended to `lost` in sending order.
    /// A Data for an Interest not in flight here (late, duplicate, or never sent here) is ignored.
    pub fn on_data(&mut self, seg: u64, from_producer: bool, coupled_increase: f64, lost: &mut Vec<u64>) {
        let Some(index) = self.take(seg) else {
            return;
        };
        // Cache Data are "ignored for checking the arriving order" (§5-C-1).
        let newest_lost = if from_producer { self.declare_lost_before(index, lost) } else { None };
        self.drop_answered_front();
        match newest_lost {
            Some(newest) if !self.same_recovery(newest) => self.on_loss_event(),
            // NewReno: one more loss of the event being recovered; neither a reaction nor growth.
            Some(_) => {}
            _ => self.on_received(index, from_producer, coupled_increase),
        }
    }

    /// The Interest for `seg` on this path timed out: the threshold halves, the path restarts slow
    /// start from the minimum window, and every other Interest in flight on it is lost (appended
    /// to `lost` in sending order, as Condition I's are; see the module comment).
    pub fn on_timeout(&mut self, seg: u64, lost: &mut Vec<u64>) {
        if self.take(seg).is_none() {
            return;
        }
        self.counters.timeouts += 1;
        self.ssthresh = (self.cwnd / 2.0).max(self.config.min_ssthresh);
        self.cwnd = self.config.min_window;
        self.phase = PathPhase::SlowStart;
        self.declare_lost_before(self.next_index(), lost);
    }

    /// The Interest for `seg` left this path without Data or timeout (a Nack, or the path is
    /// retired): it is no longer in flight, and says nothing about congestion.
    pub fn forget(&mut self, seg: u64) {
        if self.take(seg).is_some() {
            self.drop_answered_front();
        }
    }

    fn next_index(&self) -> u64 {
        self.base.saturating_add(self.queue.len() as u64)
    }

    /// Marks `seg`'s Interest as no longer in flight; its sending index if it was.
    fn take(&mut self, seg: u64) -> Option<u64> {
        let index = self.pending.remove(&seg)?;
        let slot = index.checked_sub(self.base).and_then(|i| self.queue.get_mut(i as usize));
        if let Some(sent) = slot {
            sent.pending = false;
        }
        Some(index)
    }

    /// Condition I: every Interest sent before sending index `index` and still in flight is lost.
    /// Pops them (and the answered ones among them) and returns the newest lost one's index.
    fn declare_lost_before(&mut self, index: u64, lost: &mut Vec<u64>) -> Option<u64> {
        let mut newest = None;
        while self.base < index {
            let Some(sent) = self.queue.pop_front() else {
                break;
            };
            if sent.pending {
                self.pending.remove(&sent.seg);
                lost.push(sent.seg);
                self.counters.losses_detected += 1;
                newest = Some(self.base);
            }
            self.base += 1;
        }
        newest
    }

    /// Pops the answered or removed Interests at the front, which can no longer be found lost.
    fn drop_answered_front(&mut self) {
        while self.queue.front().is_some_and(|s| !s.pending) {
            self.queue.pop_front();
            self.base += 1;
        }
    }

    /// A Data that revealed no (new) loss: grow the window and advance the state.
    /// NewReno: a loss of an Interest sent before the last decrease, while in fast recovery.
    fn same_recovery(&self, newest_lost: u64) -> bool {
        self.config.recovery == Recovery::NewReno
            && self.phase == PathPhase::FastRecovery
            && newest_lost < self.recovery_gate
    }

    fn on_received(&mut self, index: u64, from_producer: bool, coupled_increase: f64) {
        match self.phase {
            PathPhase::SlowStart => {
                // §5-D-3: multiplicative (+1 per Data) from the producer, additive from a cache.
                self.cwnd += if from_producer { 1.0 } else { 1.0 / self.cwnd };
                if self.cwnd >= self.ssthresh {
                    self.phase = PathPhase::CongestionAvoidance; // Condition III
                }
            }
            PathPhase::CongestionAvoidance => self.grow(coupled_increase),
            PathPhase::FastRecovery => {
                // PTP's fast recovery grows the window (Figure 11); TCP's does not: NewReno leaves
                // it with cwnd = ssthresh, the halved window (RFC 6582 §3.2 step 3; RFC 5681 §3.2
                // step 6 deflates to ssthresh), and grows again in congestion avoidance.
                if self.config.recovery == Recovery::Counted {
                    self.grow(coupled_increase);
                }
                self.since_recovery += 1;
                self.since_loss += 1;
                let done = match self.config.recovery {
                    Recovery::Counted => self.since_loss as f64 >= self.cwnd_bk, // Condition II
                    Recovery::NewReno => index >= self.recovery_gate,
                };
                if done {
                    self.phase = PathPhase::CongestionAvoidance;
                }
            }
        }
    }

    /// Adds the increase of eq. (2) as the consumer's coupling computed it, at most slow start's 1
    /// per Data (LIA never gives more than `1 / cwnd`). A negative increase (OLIA takes window
    /// from the largest paths) may shrink the window, never below its minimum; a NaN (a caller
    /// bug) falls back to the uncoupled `1 / cwnd`, so the window stays finite whatever is passed.
    fn grow(&mut self, coupled_increase: f64) {
        let inc = if coupled_increase.is_nan() { 1.0 / self.cwnd } else { coupled_increase.min(1.0) };
        self.cwnd = (self.cwnd + inc).max(self.config.min_window);
    }

    /// Condition I fired (and not for Interests of an already handled timeout).
    fn on_loss_event(&mut self) {
        let counted = self.config.recovery == Recovery::Counted;
        if counted && self.phase == PathPhase::FastRecovery && (self.since_recovery as f64) < self.cwnd_bk {
            // The same congestion event: back to the memorised window, no further decrease.
            self.cwnd = self.cwnd_bk;
            self.since_loss = 0;
            return;
        }
        self.counters.decreases += 1;
        self.cwnd = (self.cwnd * self.config.beta).max(self.config.min_window);
        self.ssthresh = self.cwnd;
        self.cwnd_bk = self.cwnd;
        self.recovery_gate = self.next_index();
        self.since_recovery = 0;
        self.since_loss = 0;
        self.phase = PathPhase::FastRecovery;
    }
}

#[cfg(test)]
#[path = "mpccp_tests.rs"]
mod tests;
