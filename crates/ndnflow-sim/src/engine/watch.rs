//! The engine's memory watch (`crate::memory`): what a run holds, added up every
//! `memory::WATCH_EVERY` events and at the end of every bin, and the run ended there, with what it
//! computed and the reason, once that passes the scenario's `memory_limit`; and the run ended the
//! same way when the allocator refused to grow a container (`ndnflow_core::grow`).

use ndnflow_core::grow::OutOfMemory;
use ndnflow_core::link::QueueDiscipline;

use super::Simulation;
use crate::build::App;

impl Simulation {
    /// What the run holds now (`crate::memory::Held`), but for the pending Interests' names
    /// (`over_memory_limit` adds them near the limit).
    pub fn held(&self) -> crate::memory::Held {
        let pit: usize = self.net.nodes.iter().map(|n| n.fw.pit.len()).sum();
        let pit_bytes: usize = self.net.nodes.iter().map(|n| n.fw.pit.reserved_bytes()).sum();
        let (outstanding, outstanding_bytes) = self
            .net
            .apps
            .iter()
            .filter_map(|a| match &a.app {
                App::Consumer(c) => Some((c.in_flight(), c.reserved_bytes())),
                _ => None,
            })
            .fold((0, 0), |(n, b), (cn, cb)| (n + cn, b + cb));
        let queued: usize = self.net.dirs.iter().map(|d| d.queue.len_packets() + d.in_flight.len()).sum::<usize>()
            + self.events.len()
            + self.local.len();
        let r = &self.recorder;
        let counted = r.counters.as_ref().map_or(0, |c| c.rows());
        let rows = r.log.link_rows() + r.log.consumer_rows() + r.paths.time_s.len() + self.interest_rows() + counted;
        crate::memory::Held {
            pending: (pit + outstanding) as u64,
            pending_bytes: (pit_bytes + outstanding_bytes) as u64,
            queued: queued as u64,
            rows: rows as u64,
            nodes: self.net.nodes.len() as u64,
            cached: self.cached_data(),
        }
    }

    /// Data held in the nodes' Content Stores now: part of `held`, and what the benchmark suite
    /// divides a run's memory by (docs/performance.md, "The benchmark suite").
    pub fn cached_data(&self) -> u64 {
        self.net.nodes.iter().map(|n| n.fw.cs.len() as u64).sum()
    }

    /// The memory watch: past the limit, the run ends here, with what it computed and the reason.
    /// The pending Interests' names are added only once the rest passes half the limit: counting
    /// them reads every PIT slot (some 200,000 instructions a look on the grid benchmark, 0.5 % of
    /// its run, where every other sum reads one figure per node).
    #[cold]
    pub(super) fn over_memory_limit(&mut self) -> bool {
        let mut held = self.held();
        let limit = self.scenario.memory_limit;
        if held.bytes() > limit / 2 {
            let names: usize = self.net.nodes.iter().map(|n| n.fw.pit.name_bytes()).sum();
            held.pending_bytes = held.pending_bytes.saturating_add(names as u64);
        }
        if held.bytes() <= limit {
            return false;
        }
        self.stopped = Some(crate::memory::stopped_message(self.now, held, self.scenario.memory_limit));
        self.finish();
        true
    }

    /// Keeps the first refused growth, and whose container it was ("node r's").
    #[cold]
    pub(super) fn note_refused(&mut self, e: OutOfMemory, place: String) {
        self.out_of_memory.get_or_insert((e, place));
    }

    /// Whether a container could not grow during the last event (the event queue's is read
    /// here; forwarders', consumers' and the trace's were noted as they met it): the run then
    /// ends there, with what it computed and the reason, as the memory watch ends it.
    #[inline]
    pub(super) fn allocation_refused(&mut self) -> bool {
        if let Some(e) = self.events.out_of_memory() {
            self.note_refused(e, "the engine's".to_string());
        }
        if ndnflow_core::reserve::releases() != self.reserve_releases {
            self.reserve_spent();
        }
        let Some((e, place)) = &self.out_of_memory else { return false };
        self.stopped = Some(crate::memory::refused_message(self.now, e, place));
        self.finish();
        true
    }

    /// The system refused an allocation that no container guards, and the memory reserve
    /// covered it (`ndnflow_core::reserve`): noted as a refusal, so the run ends after this event
    /// with what it computed, and the reserve's room is there to write the results.
    #[cold]
    fn reserve_spent(&mut self) {
        self.reserve_releases = ndnflow_core::reserve::releases();
        let bytes = ndnflow_core::reserve::last_refused();
        let container =
            "allocation outside the guarded tables (the memory reserve was given back so that the run ends cleanly)";
        self.note_refused(OutOfMemory { container, bytes }, "an".to_string());
    }

    /// Why the run stopped before its end (the memory watch, or a refused allocation), if it did.
    pub fn stopped(&self) -> Option<&str> {
        self.stopped.as_deref()
    }
}
