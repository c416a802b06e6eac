//! Simulated and real time as integer nanoseconds.
//!
//! One type serves for instants and spans (as ns-3's `Time` does): the protocol core never reads a
//! clock, every state machine is handed `now`, so both the event-driven simulator and a real-time
//! driver can feed it. Integer nanoseconds keep event order exact and results byte-identical.

use std::fmt;
use std::ops::{Add, AddAssign, Mul, Sub, SubAssign};

/// Nanoseconds since the start of a run (an instant) or a span of time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Time(pub u64);

impl Time {
    pub const ZERO: Time = Time(0);
    /// Far future: "never" for timers and expiry.
    pub const MAX: Time = Time(u64::MAX);

    pub const fn from_nanos(ns: u64) -> Time {
        Time(ns)
    }
    pub const fn from_micros(us: u64) -> Time {
        Time(us * 1_000)
    }
    pub const fn from_millis(ms: u64) -> Time {
        Time(ms * 1_000_000)
    }
    pub const fn from_secs(s: u64) -> Time {
        Time(s * 1_000_000_000)
    }
    /// Rounds to the nearest nanosecond; negative or non-finite input gives zero.
    pub fn from_secs_f64(s: f64) -> Time {
        if s.is_finite() && s > 0.0 {
            Time((s * 1e9).round() as u64)
        } else {
            Time(0)
        }
    }
    pub const fn as_nanos(self) -> u64 {
        self.0
    }
    pub const fn as_millis(self) -> u64 {
        self.0 / 1_000_000
    }
    pub fn as_secs_f64(self) -> f64 {
        self.0 as f64 / 1e9
    }
    pub fn as_millis_f64(self) -> f64 {
        self.0 as f64 / 1e6
    }
    pub fn saturating_sub(self, other: Time) -> Time {
        Time(self.0.saturating_sub(other.0))
    }
    pub fn saturating_add(self, other: Time) -> Time {
        Time(self.0.saturating_add(other.0))
    }
    /// Time to serialise `bytes` at `bits_per_sec`, rounded up so a link never runs faster than set.
    pub fn transmission(bytes: u32, bits_per_sec: u64) -> Time {
        if bits_per_sec == 0 {
            return Time::MAX;
        }
        // bytes x 8e9 fits in u64 below 2.3 GB, i.e. always for real packets, and u64 division is
        // several times cheaper than u128 on the per-packet path; u128 covers the rest.
        match (bytes as u64).checked_mul(8_000_000_000) {
            Some(bit_ns) => Time(bit_ns.div_ceil(bits_per_sec)),
            None => {
                let ns = (bytes as u128 * 8_000_000_000).div_ceil(bits_per_sec as u128);
                Time(ns.min(u64::MAX as u128) as u64)
            }
        }
    }
}

impl Add for Time {
    type Output = Time;
    fn add(self, rhs: Time) -> Time {
        Time(self.0.saturating_add(rhs.0))
    }
}
impl AddAssign for Time {
    fn add_assign(&mut self, rhs: Time) {
        *self = *self + rhs;
    }
}
impl Sub for Time {
    type Output = Time;
    fn sub(self, rhs: Time) -> Time {
        Time(self.0.saturating_sub(rhs.0))
    }
}
impl SubAssign for Time {
    fn sub_assign(&mut self, rhs: Time) {
        *self = *self - rhs;
    }
}
impl Mul<u64> for Time {
    type Output = Time;
    fn mul(self, rhs: u64) -> Time {
        Time(self.0.saturating_mul(rhs))
    }
}

impl fmt::Display for Time {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if *self == Time::MAX {
            write!(f, "never")
        } else {
            write!(f, "{:.6}s", self.as_secs_f64())
        }
    }
}

/// A value that changes at given instants, read at instants that never go back (a producer's
/// payload schedule, a simulated cache's hit probability): each change holds from its instant on.
#[derive(Clone, Debug)]
pub struct Stepwise<T> {
    changes: Vec<(Time, T)>,
    /// How many changes have taken effect.
    applied: usize,
    current: T,
}

impl<T: Copy> Stepwise<T> {
    /// `initial` until the first change; `changes` in increasing time.
    pub fn new(initial: T, changes: Vec<(Time, T)>) -> Stepwise<T> {
        Stepwise { changes, applied: 0, current: initial }
    }

    /// The value in force at `now`.
    pub fn at(&mut self, now: Time) -> T {
        while let Some(&(at, value)) = self.changes.get(self.applied) {
            if at > now {
                break;
            }
            self.current = value;
            self.applied += 1;
        }
        self.current
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transmission_time_of_a_kilobyte_at_ten_megabits() {
        // 1000 bytes = 8000 bits at 10^7 bit/s = 800 us exactly.
        assert_eq!(Time::transmission(1000, 10_000_000), Time::from_micros(800));
        // 1 byte at 3 bit/s = 8/3 s, rounded up to the next nanosecond.
        assert_eq!(Time::transmission(1, 3), Time(2_666_666_667));
        // 4 GB at 1 Gbit/s = 32 s: past u64 in the intermediate product, still exact.
        assert_eq!(Time::transmission(4_000_000_000, 1_000_000_000), Time::from_secs(32));
    }

    #[test]
    fn arithmetic_saturates_instead_of_wrapping() {
        assert_eq!(Time::MAX + Time(1), Time::MAX);
        assert_eq!(Time(1) - Time(2), Time::ZERO);
    }
}
