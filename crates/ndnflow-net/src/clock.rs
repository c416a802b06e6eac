//! The daemon's clock: the core's `Time` is nanoseconds since the daemon started, read from the
//! monotonic clock (`std::time::Instant`), so PIT lifetimes and strategy timers mean what they
//! mean in the simulator, and a change of the wall clock moves nothing.

use std::time::{Duration, Instant};

use ndnflow_core::Time;

#[derive(Clone, Copy, Debug)]
pub struct Clock {
    start: Instant,
}

impl Clock {
    /// A clock whose zero is now.
    pub fn start() -> Clock {
        Clock { start: Instant::now() }
    }

    /// A clock whose zero is `start` (tests pin it).
    pub fn from_instant(start: Instant) -> Clock {
        Clock { start }
    }

    /// Time since the start. Saturates after 584 years, the most `Time` holds.
    pub fn now(&self) -> Time {
        self.time_at(Instant::now())
    }

    /// The core's time of an instant; instants before the start are time zero.
    pub fn time_at(&self, at: Instant) -> Time {
        let nanos = at.saturating_duration_since(self.start).as_nanos();
        Time::from_nanos(u64::try_from(nanos).unwrap_or(u64::MAX))
    }

    /// The instant of a core time, or `None` past what `Instant` holds (`Time::MAX` and its like:
    /// a deadline never reached, so the caller does not wake for it).
    pub fn instant(&self, t: Time) -> Option<Instant> {
        self.start.checked_add(Duration::from_nanos(t.as_nanos()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_and_instants_map_both_ways_to_the_nanosecond() {
        let start = Instant::now();
        let clock = Clock::from_instant(start);
        // 1.5 s after the start is Time 1_500_000_000 ns, and back.
        let at = start + Duration::from_millis(1500);
        assert_eq!(clock.time_at(at), Time::from_nanos(1_500_000_000));
        assert_eq!(clock.instant(Time::from_millis(1500)), Some(at));
        assert_eq!(clock.time_at(start), Time::ZERO);
    }

    #[test]
    fn an_instant_before_the_start_is_zero_and_the_largest_time_does_not_panic() {
        let start = Instant::now() + Duration::from_secs(10);
        let clock = Clock::from_instant(start);
        assert_eq!(clock.time_at(Instant::now()), Time::ZERO);
        // Time::MAX is 584 years of nanoseconds past the start. Whether Instant holds that depends
        // on the platform (on Linux it does), so check only that the call returns rather than
        // overflowing, as `start + Duration` would.
        let _ = clock.instant(Time::MAX);
    }
}
