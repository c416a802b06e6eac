//! The engine's stall guard: a run whose simulated time stops advancing ends, with what it
//! computed and the reason, as the memory watch ends a run (`watch.rs`).
//!
//! A discrete-event run stalls when work at one instant makes more work at the same instant
//! without end. A consumer answered on its own node (a producer of its name, or a simulated cache
//! that always hits, on the consumer's node) gets each Data back at the instant it asked, and asks
//! again at once; a window without bound (a controller's parameter of 1e300) sends its
//! `MAX_SENDS_PER_CALL` Interests per call again and again at one instant; a rate that rounds to
//! no time on the nanosecond clock (a probe every picosecond) wakes its owner at the instant it
//! woke. Nothing else could stop such a run (the memory watch runs between events, and Ctrl-C
//! between steps of simulated time), so it would hang and its results would be lost.

use super::Simulation;

/// Events and locally delivered frames at one instant past which the run is taken to have
/// stalled: ten million, some 500 times the largest start we run (the benchmark suite's 1,000
/// consumers on 10,000 nodes, each sending a window of 8 to 32 Interests at 0 s: about 20,000
/// frames), and a few seconds of work.
pub const STALL_LIMIT: u64 = 10_000_000;

impl Simulation {
    /// Whether the run has stalled at this instant (`STALL_LIMIT`); if so it ends here, its
    /// results those computed so far and `stopped` the reason.
    #[inline]
    pub(super) fn stalled(&mut self) -> bool {
        if self.at_instant <= STALL_LIMIT {
            return false;
        }
        self.stall_stop();
        true
    }

    #[cold]
    fn stall_stop(&mut self) {
        self.stopped = Some(format!(
            "stopped at {}: simulated time stopped advancing ({} events and packets at this instant, more than {STALL_LIMIT}); look for a consumer answered on its own node (a producer of its name, or a cache that always hits, there), a window without bound, or a rate too high for the nanosecond clock",
            self.now, self.at_instant
        ));
        self.finish();
    }
}
