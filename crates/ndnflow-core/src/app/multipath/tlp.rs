//! Tail Loss Probe, one per subflow (RFC 8985 §7, the TLP half of RACK-TLP), as Linux TCP runs it
//! under every MPTCP subflow (the implementation LIA and OLIA were measured on).
//!
//! A subflow finds a loss from the order of its arrivals: the Data of a later Interest overtakes
//! an earlier one (RACK with a reordering window of zero, RFC 8985 §6; each Data answers exactly
//! one Interest, as a SACK block would, so no duplicate-acknowledgement threshold is involved and
//! RFC 5827's Early Retransmit, which lowers that threshold for small windows, has nothing left to
//! lower). What order cannot reveal is a loss at the tail: when the last Interests in flight are
//! lost, no later Data comes, and the path waits out its RTO (RFC 6298: at least 1 s, some sixty
//! RTTs on the test networks) and restarts from one Interest. TLP sends one more Interest after
//! two smoothed RTTs of silence; its Data reveals the tail loss by order, and the path recovers by
//! a halving (fast recovery) instead of a timeout.
//!
//! The rules (RFC 8985 §7.2-§7.3), per path:
//!
//! * Arm (or re-arm) the probe timer after sending new data that is not itself a probe, and on
//!   every Data received while Interests are still in flight; not while the path is in fast
//!   recovery (§7.2: no probe during loss recovery), and not while a probe is outstanding (at
//!   most one).
//! * `PTO = 2 * SRTT`, `1 s` before the path has an RTT sample, never later than its RTO (§7.2).
//! * When it fires, the path may send one Interest beyond its window (§7.3 lets the flight exceed
//!   the window by the probe until it is answered): whatever the consumer sends next, new data in
//!   a fetch that goes on. After the probe only the RTO is armed until its Data.
//!
//! Where the RFC does not fit NDN, we chose:
//!
//! * `WCDelAckT` (§7.2: 200 ms added to the PTO when one segment is in flight) is 0: it waits for a
//!   TCP receiver's delayed acknowledgement, and a producer answers each Interest at once.
//! * The PTO is bounded by the path's RTO value rather than by the remaining time of the RTO timer
//!   of its oldest Interest: the consumer owns those timers. With RFC 6298's 1 s floor and
//!   millisecond RTTs the bound is never reached on the networks we run.
//! * §7.3's fallback when no new data exists (retransmit the last segment) and §7.4's detection of
//!   a loss repaired by that retransmission are not implemented: the consumer decides what is sent,
//!   and it always has new data in a fetch of unbounded length; at the end of an object the tail
//!   waits for its RTO as before.

use crate::Time;

/// RFC 8985 §7.2: the PTO before an RTT sample exists.
pub const PTO_WITHOUT_RTT: Time = Time::from_secs(1);

/// One path's loss-probe timer and its outstanding probe.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LossProbe {
    /// When the probe timer fires, if armed.
    deadline: Option<Time>,
    /// The segment sent as a probe and not yet answered (RFC 8985's `TLP.end_seq`).
    outstanding: Option<u64>,
}

/// RFC 8985 §7.2's probe timeout with `WCDelAckT = 0`: two smoothed RTTs, one second without an
/// RTT sample, at most the RTO.
pub fn probe_timeout(srtt: Option<Time>, rto: Time) -> Time {
    srtt.map_or(PTO_WITHOUT_RTT, |s| s * 2).min(rto)
}

impl LossProbe {
    /// Starts the timer anew at `now` (no effect while a probe is outstanding).
    pub fn arm(&mut self, now: Time, pto: Time) {
        if self.outstanding.is_none() {
            self.deadline = Some(now.saturating_add(pto));
        }
    }

    /// Stops the timer (the path is recovering, or has nothing in flight).
    pub fn disarm(&mut self) {
        self.deadline = None;
    }

    pub fn deadline(&self) -> Option<Time> {
        self.deadline
    }

    /// Whether the timer has fired by `now`.
    pub fn is_due(&self, now: Time) -> bool {
        self.deadline.is_some_and(|d| d <= now)
    }

    /// `segment` left as the probe: only the RTO runs until it is answered.
    pub fn sent(&mut self, segment: u64) {
        self.outstanding = Some(segment);
        self.deadline = None;
    }

    /// `segment` left the path (answered, lost, timed out, Nacked): if it was the probe, another
    /// may be armed.
    pub fn settled(&mut self, segment: u64) {
        if self.outstanding == Some(segment) {
            self.outstanding = None;
        }
    }

    /// The segment sent as a probe and not yet answered.
    pub fn outstanding(&self) -> Option<u64> {
        self.outstanding
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(v: u64) -> Time {
        Time::from_millis(v)
    }

    #[test]
    fn the_probe_timeout_is_two_smoothed_rtts_bounded_by_the_rto() {
        // SRTT 16 ms (four 2 ms links, there and back): 2 x 16 = 32 ms.
        assert_eq!(probe_timeout(Some(ms(16)), ms(1000)), ms(32));
        // SRTT 700 ms: 1,400 ms would pass the 1 s RTO; the RTO bounds it.
        assert_eq!(probe_timeout(Some(ms(700)), ms(1000)), ms(1000));
        // No sample yet: §7.2's one second, bounded by a 3 s initial RTO (RFC 6298 §2.1) not at all.
        assert_eq!(probe_timeout(None, ms(3000)), ms(1000));
    }

    #[test]
    fn one_probe_at_a_time() {
        let mut p = LossProbe::default();
        p.arm(ms(100), ms(32));
        assert!(!p.is_due(ms(131)) && p.is_due(ms(132)), "due 32 ms after arming");
        p.sent(7);
        assert_eq!(p.deadline(), None, "after the probe only the RTO runs");
        p.arm(ms(140), ms(32));
        assert_eq!(p.deadline(), None, "no second probe while the first is outstanding");
        p.settled(6);
        p.arm(ms(150), ms(32));
        assert_eq!(p.deadline(), None, "another segment's Data does not settle the probe");
        p.settled(7);
        p.arm(ms(160), ms(32));
        assert_eq!(p.deadline(), Some(ms(192)));
        p.disarm();
        assert!(!p.is_due(Time::MAX));
    }
}
