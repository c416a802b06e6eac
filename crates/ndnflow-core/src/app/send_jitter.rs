//! A random delay before a consumer sends: ns-2's TCP `overhead_` (ns-2 tcp/tcp.cc,
//! `TcpAgent::send`), the source-side randomisation that Floyd and Jacobson propose against
//! traffic phase effects ("On Traffic Phase Effects in Packet-Switched Gateways", Internetworking:
//! Research and Experience 3(3), 1992; first in CCR 21(2), 1991).
//!
//! Why a simulator needs it: with equal packet sizes, deterministic links and senders that answer
//! each Data at the instant it arrives, every flow's packets reach a bottleneck in a fixed phase
//! with the queue's departures, so which packet a full drop-tail queue refuses is decided by that
//! phase, not by chance (docs/protocols/multipath.md measures it: the packet a window adds is
//! refused about one time in ten, an ACK-clocked replacement one in 700). A real host's send time
//! varies; this puts that variation back.
//!
//! ns-2's rule, which this follows: when the window allows a send and no delayed send is pending,
//! none leaves now; a timer is set to a time drawn uniformly from [0, `overhead_`), and when it
//! fires, everything the window then allows leaves at once (its `send(force = 1)`), so a
//! back-to-back pair stays a pair, shifted together. Sends the window allows while the timer runs
//! wait for it. With a maximum of zero (the default) nothing is delayed and nothing is drawn.

use rand::Rng;

use crate::Time;

/// The delayed-send timer of one consumer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SendJitter {
    /// Upper bound of the uniform delay; zero turns the delay off.
    max: Time,
    /// When the pending delayed send fires.
    due: Option<Time>,
}

impl SendJitter {
    pub fn new(max: Time) -> SendJitter {
        SendJitter { max, due: None }
    }

    /// When the pending delayed send fires, if one is pending.
    pub fn deadline(&self) -> Option<Time> {
        self.due
    }

    /// Called once at each send opportunity: whether the sends the window allows may leave now.
    /// True when the delay is off, or when the pending delay has run out, which ends it even if
    /// nothing can leave (a wake-up left pending would come back at the same instant forever).
    pub fn release(&mut self, now: Time) -> bool {
        if self.max == Time::ZERO {
            return true;
        }
        let released = self.due.is_some_and(|due| due <= now);
        if released {
            self.due = None;
        }
        released
    }

    /// A send was held back at `now`: the delay starts, unless one is already running.
    pub fn hold<R: Rng + ?Sized>(&mut self, now: Time, rng: &mut R) {
        if self.due.is_none() {
            self.due = Some(now + uniform_below(self.max, rng));
        }
    }
}

/// A time drawn uniformly from [0, max): the high 64 bits of a 64 x 64-bit product, integer-only
/// so that every platform draws the same nanoseconds.
fn uniform_below<R: Rng + ?Sized>(max: Time, rng: &mut R) -> Time {
    let x = u128::from(rng.next_u64()) * u128::from(max.as_nanos());
    Time::from_nanos((x >> 64) as u64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn off_releases_every_send_and_draws_nothing() {
        let mut j = SendJitter::new(Time::ZERO);
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let mut untouched = rng.clone();
        assert!(j.release(Time::ZERO));
        assert_eq!(j.deadline(), None);
        assert_eq!(rng.next_u64(), untouched.next_u64());
    }

    #[test]
    fn a_held_send_waits_for_its_draw_and_a_second_hold_keeps_it() {
        let max = Time::from_millis(1);
        let mut j = SendJitter::new(max);
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let now = Time::from_millis(10);
        assert!(!j.release(now), "nothing pending: the first opportunity is held");
        j.hold(now, &mut rng);
        let due = j.deadline().unwrap();
        assert!(due > now && due < now + max, "due {due:?}");
        // An opportunity before `due` (a Data arriving) is held too, without a new draw.
        let early = due - Time::from_nanos(1);
        assert!(!j.release(early));
        j.hold(early, &mut rng);
        assert_eq!(j.deadline(), Some(due));
        assert!(j.release(due));
        assert_eq!(j.deadline(), None, "released: the next opportunity draws again");
        assert!(!j.release(due));
    }

    #[test]
    fn delays_are_uniform_on_zero_to_max() {
        // Uniform on [0, 1 ms): mean 0.5 ms, standard deviation 1 / sqrt(12) ms = 288.7 us, so
        // the mean of n = 10,000 draws has sd 2.887 us; 4 sd is 11.5 us. Each tenth of the range
        // holds 1,000 draws, sd sqrt(10,000 x 0.1 x 0.9) = 30: within 4 sd, 880..1120.
        let max = Time::from_millis(1);
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let n = 10_000u64;
        let mut bins = [0u32; 10];
        let mut sum = 0u64;
        for _ in 0..n {
            let d = uniform_below(max, &mut rng).as_nanos();
            assert!(d < 1_000_000);
            sum += d;
            bins[(d / 100_000) as usize] += 1;
        }
        let mean_us = sum as f64 / n as f64 / 1e3;
        assert!((mean_us - 500.0).abs() < 11.5, "mean {mean_us} us");
        assert!(bins.iter().all(|&b| (880..=1120).contains(&b)), "{bins:?}");
    }
}
