//! What the rate-based subflow managers (DPCCP's `dpccp`, MIRCC's `mircc`) share: Interests
//! paced one interval apart per sub-flow, and PTP's path probes on a fixed grid (PTP §3-A).

use super::paths::Tags;
use super::ptp::next_probe;
use crate::packet::lp::flags;
use crate::packet::LpHeader;
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
