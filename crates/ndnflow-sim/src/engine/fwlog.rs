//! The engine's side of the forwarding log (`crate::fwlog`): it installs a log on each node the
//! scenario names and on the output queues those nodes send on, and takes their records right
//! after each call that can add some (the forwarders' handlers, a queue's enqueue and dequeue), so
//! that the run's records are in the order the steps ran. Off, each of those places costs one
//! branch on `None`.

use ndnflow_core::fw::log::ForwardingLog;
use ndnflow_core::table::FaceId;

use super::Simulation;
use crate::build::{App, FaceTarget};
use crate::fwlog::{series, ForwardingSeries, FwLogRecorder};
use crate::scenario::model::LogLevel;
use crate::trace::ForwardingLogSummary;

impl Simulation {
    /// Installs the logs `[trace] forwarding` asks for.
    pub(super) fn install_forwarding_log(&mut self) {
        let Some(spec) = self.scenario.trace.forwarding.clone() else { return };
        for &n in &spec.nodes {
            self.net.nodes[n].fw.set_log(Some(ForwardingLog::new(spec.prefix.clone())));
        }
        // The NDN-level directions only: an underlay hop's queue is no node's.
        for &(ab, ba) in &self.net.link_dirs {
            for d in [ab, ba] {
                let dir = &mut self.net.dirs[d];
                if spec.nodes.binary_search(&dir.from).is_ok() {
                    let mut log = ForwardingLog::new(spec.prefix.clone());
                    log.queue_steps = spec.level == LogLevel::Trace;
                    dir.log = Some(Box::new(log));
                }
            }
        }
        self.fwlog = Some(Box::new(FwLogRecorder::new(spec.max_records)));
    }

    /// Takes what node `n`'s forwarder logged.
    #[inline]
    pub(super) fn take_node_log(&mut self, n: usize) {
        if let Some(rec) = self.fwlog.as_deref_mut() {
            if let Some(log) = self.net.nodes[n].fw.log_mut() {
                rec.take(n, log);
            }
        }
    }

    /// Takes what direction `d`'s queue logged.
    #[inline]
    pub(super) fn take_link_log(&mut self, d: usize) {
        if let Some(rec) = self.fwlog.as_deref_mut() {
            let dir = &mut self.net.dirs[d];
            if let Some(log) = dir.log.as_deref_mut() {
                rec.take(dir.from, log);
            }
        }
    }

    /// The log's rows so far (empty without a log).
    pub fn forwarding_series(&self) -> ForwardingSeries {
        let Some(rec) = self.fwlog.as_deref() else { return ForwardingSeries::default() };
        series(rec, |n| self.scenario.nodes[n].name.clone(), |n, f| self.face_label(n, f))
    }

    /// Records kept and dropped, for summary.json (absent without a log).
    pub(super) fn forwarding_summary(&self) -> Option<ForwardingLogSummary> {
        self.fwlog.as_deref().map(|rec| ForwardingLogSummary {
            records: rec.records.len() as u64,
            dropped: rec.dropped,
            max_records: rec.max_records,
        })
    }

    /// A face as the log names it: the node at the other end of its link, or "app:" and the
    /// consumer's id, or "app:producer".
    fn face_label(&self, n: usize, face: FaceId) -> String {
        match self.net.nodes[n].faces.get(face.index()) {
            Some(FaceTarget::Link(d)) => self.net.dir_names[*d as usize].dst.clone(),
            Some(FaceTarget::App(a)) => {
                let slot = &self.net.apps[*a as usize];
                match (&slot.app, slot.consumer) {
                    (App::Consumer(_), Some(i)) => format!("app:{}", self.net.consumer_ids[i]),
                    _ => "app:producer".to_string(),
                }
            }
            None => format!("face{}", face.0),
        }
    }
}
