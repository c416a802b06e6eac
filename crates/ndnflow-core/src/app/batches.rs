//! Batches: a consumer that asks for a given number of segments at given times after its start
//! (ndnSIM's ConsumerBatches, apps/ndn-consumer-batches.cpp, attribute `Batches`, e.g.
//! "1s 1 2s 5 10s 2": one segment at 1 s, five more at 2 s, two more at 10 s).
//!
//! Each batch raises how many segments the consumer may have asked for so far; segment numbers run
//! on from batch to batch, as ConsumerBatches' `m_seqMax += amount` does, and the object has as
//! many segments as the batches together. Times count from the consumer's start, as ndnSIM
//! schedules each batch from `StartApplication`.
//!
//! Within a batch the consumer's controller decides when each Interest leaves: with a window at
//! least as large as the batch (`fixed-window`), all of a batch's Interests leave at its instant.
//! That is what ndnSIM's documentation says of the application ("generates a specified number of
//! Interests at specified points of simulation"); its code, after the batch's first Interest,
//! waits one retransmission timeout of its RTT estimator before each following one
//! (`ScheduleNextPacket`'s delay when `m_initial` is false). We follow the documentation: a batch
//! spaced by a timer that starts at one second would make "5 Interests at 2 s" last five seconds.

use crate::Time;

/// One batch: `count` more segments `at` this long after the consumer's start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Batch {
    pub at: Time,
    pub count: u64,
}

/// The batches of a consumer, in time order (two at the same instant add up).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Batches {
    batches: Vec<Batch>,
}

impl Batches {
    /// The batches in any order; sorted by time here.
    pub fn new(mut batches: Vec<Batch>) -> Batches {
        batches.sort_by_key(|b| b.at);
        Batches { batches }
    }

    pub fn as_slice(&self) -> &[Batch] {
        &self.batches
    }

    /// The segments of all batches together: the object's length.
    pub fn total(&self) -> u64 {
        self.batches.iter().map(|b| b.count).sum()
    }

    /// The segments released `since_start` after the consumer's start (the batches due by then).
    pub fn released(&self, since_start: Time) -> u64 {
        self.batches.iter().take_while(|b| b.at <= since_start).map(|b| b.count).sum()
    }

    /// When the next batch is due after `since_start`, counted from the start; `None` after the
    /// last.
    pub fn next_after(&self, since_start: Time) -> Option<Time> {
        self.batches.iter().map(|b| b.at).find(|&at| at > since_start)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ndnsim_example() -> Batches {
        // ndnSIM's documented "1s 1 2s 5 10s 2", given out of order.
        let b = |s, count| Batch { at: Time::from_secs(s), count };
        Batches::new(vec![b(10, 2), b(1, 1), b(2, 5)])
    }

    #[test]
    fn segments_are_released_batch_by_batch() {
        let b = ndnsim_example();
        assert_eq!(b.total(), 8);
        // Nothing before 1 s, 1 from 1 s, 1 + 5 = 6 from 2 s, 6 + 2 = 8 from 10 s.
        let at = |ms| b.released(Time::from_millis(ms));
        assert_eq!([at(0), at(999), at(1000), at(1999), at(2000), at(9999), at(10_000)], [0, 0, 1, 1, 6, 6, 8]);
    }

    #[test]
    fn the_next_batch_is_the_first_strictly_later() {
        let b = ndnsim_example();
        assert_eq!(b.next_after(Time::ZERO), Some(Time::from_secs(1)));
        assert_eq!(b.next_after(Time::from_secs(1)), Some(Time::from_secs(2)));
        assert_eq!(b.next_after(Time::from_secs(5)), Some(Time::from_secs(10)));
        assert_eq!(b.next_after(Time::from_secs(10)), None);
    }
}
