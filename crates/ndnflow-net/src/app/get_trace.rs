//! The traces `ndnflow get --out DIR` writes beside `summary.json`: the files a simulated run
//! writes for its consumers, made by the simulator's own recorders, so that a fetch on a real
//! network and a simulated run of the same scenario are read, compared and drawn alike
//! (`ndnflow plot DIR`, `ndnflow.Results.load`).
//!
//! - `consumers.parquet`: one row per bin (`--bin`, a scenario's `[simulation] bin`, 100 ms by
//!   default) with the consumer's goodput, Interests, Data, retransmissions, timeouts, Nacks,
//!   losses, marks, window and RTT over the bin (`ndnflow_sim::trace::Recorder`).
//! - `interests.parquet`: one row per segment, with its send and arrival times and delays, as
//!   `[trace] interests = true` gives (ndnSIM's AppDelayTracer, `ndnflow_sim::trace_interests`).
//! - `paths.parquet`: one row per path and bin for a multipath consumer (PTP, MPTCP, SMIC,
//!   DPCCP, MIRCC), as a simulated run's.
//! - `links.parquet` has its columns and no row: a fetch crosses no simulated link.
//!
//! Bins are counted on the fetch's own clock from its start (time 0, the first Interest), and
//! closed at their boundary instants: a sample taken late (the loop was busy) still closes the bin
//! at its boundary, with what had happened by then, so every bin but the last is `--bin` wide. The
//! last bin ends when the fetch does, and includes that instant, as a simulated run's does.

use ndnflow_core::app::Consumer;
use ndnflow_core::Time;
use ndnflow_sim::trace::{ConsumerName, ConsumerSample, Recorder, RunTraces};
use ndnflow_sim::trace_interests::{InterestLog, InterestName};

/// The consumer's id in every trace and in `summary.json` (`consumers.get`).
pub const CONSUMER_ID: &str = "get";
/// The node it runs on, as the traces name it: the host of the command.
pub const CONSUMER_NODE: &str = "local";
/// `--bin` when none is given: a scenario's `[simulation] bin` default.
pub use ndnflow_sim::scenario::toml::DEFAULT_BIN;

/// A fetch's bins and segment records, while it runs.
pub struct FetchTrace {
    bin: Time,
    /// The end of the bin open now.
    next_bin: Time,
    recorder: Recorder,
    interests: InterestLog,
    /// Samples the allocator refused room for (`TraceLog::room_for_bin`): their bins are missing.
    refused: u64,
}

impl FetchTrace {
    /// Starts the trace of `consumer`, which keeps its segment records from now on.
    pub fn new(bin: Time, consumer: &mut Consumer) -> FetchTrace {
        consumer.record_segments();
        FetchTrace { bin, next_bin: bin, recorder: Recorder::new(0, 1), interests: InterestLog::default(), refused: 0 }
    }

    /// When the bin open now closes: the fetch's loop wakes then to call `close_bins`.
    pub fn next_bin(&self) -> Time {
        self.next_bin
    }

    /// Closes every bin that ended by `now`, each at its boundary.
    pub fn close_bins(&mut self, now: Time, consumer: &Consumer) {
        while self.next_bin <= now {
            let at = self.next_bin;
            self.sample(at, consumer);
            self.next_bin = at + self.bin;
        }
    }

    /// Moves the consumer's new segment records into the trace: after each call into it.
    pub fn drain(&mut self, consumer: &mut Consumer) {
        self.interests.drain(0, consumer);
    }

    /// The traces of a fetch that ended at `end`: the bins up to it closed, and the last one,
    /// [its start, end], including `end`. Called once, at the end.
    pub fn finish(&mut self, end: Time, consumer: &mut Consumer) -> (RunTraces, u64) {
        self.drain(consumer);
        self.close_bins(end, consumer);
        self.sample(end, consumer);
        let consumers = [ConsumerName { id: CONSUMER_ID.into(), node: CONSUMER_NODE.into() }];
        let prefix = consumer.config().name.to_string();
        let traces = RunTraces {
            log: std::sync::Arc::clone(&self.recorder.log),
            paths: std::mem::take(&mut self.recorder.paths),
            path_names: self.recorder.path_names(&consumers),
            consumer_names: consumers.to_vec(),
            interests: self.interests.series(),
            interest_names: vec![InterestName { id: CONSUMER_ID.into(), node: CONSUMER_NODE.into(), prefix }],
            objects: Default::default(),
            forwarding: Default::default(),
            link_names: Vec::new(),
            faces: Default::default(),
            nodes: Default::default(),
            face_names: Vec::new(),
            node_names: Vec::new(),
        };
        (traces, self.refused)
    }

    fn sample(&mut self, at: Time, c: &Consumer) {
        // As the engine samples: the window only while the consumer is active.
        let window = c.window().filter(|_| c.is_active());
        let sample = ConsumerSample { index: 0, stats: c.stats, window, paths: c.traced_paths() };
        if self.recorder.sample_consumers(at, std::iter::once(sample)).is_err() {
            self.refused += 1;
        }
    }
}

#[cfg(test)]
#[path = "get_trace_tests.rs"]
mod tests;
