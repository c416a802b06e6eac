//! A sub-millisecond timer for daemons whose faces hold frames for a propagation `delay`.
//!
//! tokio's timer counts in whole milliseconds and rounds a deadline up to the next one, and the
//! runtime sleeps in `epoll_wait`, whose timeout is in milliseconds too: a frame held for 20 ms
//! leaves up to about a millisecond late, on every hop. Over the quick-start dumbbell's four
//! delayed hops per round trip that was measured as 4 to 5 ms on a 51 ms RTT, 10 % less goodput
//! for a window-limited consumer than its simulation (docs/real-network.md "Emulation"). A Linux
//! timerfd (timerfd_create(2)) has nanosecond resolution and becomes readable in the same epoll
//! set as the sockets, so the daemon wakes when the frame is due.
//!
//! Used only by daemons with a delayed face (`Daemon::bind`), so every other daemon's timing is
//! tokio's as before. Elsewhere than Linux, `PreciseTimer::new` fails and the daemon keeps
//! tokio's timer.

use std::time::Instant;

#[cfg(target_os = "linux")]
mod imp {
    use std::io;
    use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
    use std::time::Instant;

    use tokio::io::unix::AsyncFd;
    use tokio::io::Interest;

    pub struct PreciseTimer {
        fd: AsyncFd<OwnedFd>,
    }

    impl PreciseTimer {
        pub fn new() -> io::Result<PreciseTimer> {
            // SAFETY: timerfd_create takes no pointers; a non-negative result is a new descriptor
            // that nothing else owns.
            let raw = unsafe { libc::timerfd_create(libc::CLOCK_MONOTONIC, libc::TFD_NONBLOCK | libc::TFD_CLOEXEC) };
            if raw < 0 {
                return Err(io::Error::last_os_error());
            }
            // SAFETY: `raw` is a valid descriptor we own (checked above).
            let fd = unsafe { OwnedFd::from_raw_fd(raw) };
            // SAFETY: the AsyncFd owns `fd` (an OwnedFd, always the same descriptor) for its
            // whole life.
            let fd = unsafe { AsyncFd::register_with_interest(fd, Interest::READABLE) }.map_err(io::Error::from)?;
            Ok(PreciseTimer { fd })
        }

        /// Arms the timer for `at` (relative to now: std's `Instant` exposes no clock value) and
        /// waits until it fires.
        pub async fn sleep_until(&mut self, at: Instant) {
            let left = at.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return;
            }
            if arm(self.fd.get_ref().as_raw_fd(), left).is_err() {
                // Cannot happen with a valid descriptor and time; never spin if it does.
                return tokio::time::sleep(left).await;
            }
            loop {
                let Ok(mut guard) = self.fd.readable().await else { return };
                let mut expirations = [0u8; 8];
                // SAFETY: reads at most 8 bytes into an 8-byte buffer.
                let n = unsafe { libc::read(guard.get_inner().as_raw_fd(), expirations.as_mut_ptr().cast(), 8) };
                if n == 8 {
                    return;
                }
                guard.clear_ready(); // EAGAIN: woken before it fired
            }
        }
    }

    fn arm(fd: RawFd, left: std::time::Duration) -> io::Result<()> {
        let spec = libc::itimerspec {
            it_interval: libc::timespec { tv_sec: 0, tv_nsec: 0 },
            it_value: libc::timespec {
                tv_sec: left.as_secs() as libc::time_t,
                tv_nsec: left.subsec_nanos() as libc::c_long,
            },
        };
        // SAFETY: `spec` is a valid itimerspec; the old value is not asked for (null).
        let r = unsafe { libc::timerfd_settime(fd, 0, &spec, std::ptr::null_mut()) };
        if r < 0 {
            Err(io::Error::last_os_error())
        } else {
            Ok(())
        }
    }
}

#[cfg(not(target_os = "linux"))]
mod imp {
    use std::io;
    use std::time::Instant;

    pub struct PreciseTimer;

    impl PreciseTimer {
        pub fn new() -> io::Result<PreciseTimer> {
            Err(io::Error::new(io::ErrorKind::Unsupported, "timerfd is Linux's"))
        }

        pub async fn sleep_until(&mut self, _at: Instant) {}
    }
}

pub use imp::PreciseTimer;

/// Sleeps until `deadline` (never, for `None`) on `precise` if there is one, else on tokio's timer.
pub async fn sleep_until(precise: Option<&mut PreciseTimer>, deadline: Option<Instant>) {
    match (deadline, precise) {
        (None, _) => std::future::pending().await,
        (Some(at), Some(timer)) => timer.sleep_until(at).await,
        (Some(at), None) => tokio::time::sleep_until(tokio::time::Instant::from_std(at)).await,
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn it_wakes_within_a_fraction_of_a_millisecond() {
        // 2.3 ms, ten times: tokio's timer would round each up to 3 ms (a whole tick) or later.
        // A timerfd wakes within tens of microseconds on an idle machine; 0.6 ms of slack keeps
        // the test steady on a loaded one while still telling the two apart on average.
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        rt.block_on(async {
            let mut timer = PreciseTimer::new().unwrap();
            let mut late = Duration::ZERO;
            for _ in 0..10 {
                let at = Instant::now() + Duration::from_micros(2_300);
                sleep_until(Some(&mut timer), Some(at)).await;
                let now = Instant::now();
                assert!(now >= at, "never early");
                late += now - at;
            }
            assert!(late / 10 < Duration::from_micros(600), "mean lateness {:?}", late / 10);
        });
    }
}
