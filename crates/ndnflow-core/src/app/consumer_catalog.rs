//! The consumer's side of the catalog workload (`app::catalog`): which object a Data belongs to,
//! moving on to the next object, and the per-object records.

use super::Consumer;
use crate::app::catalog::{ObjectRecord, ZipfMandelbrot};
use crate::app::multipath::PathReport;
use crate::app::rtt::RttEstimator;
use crate::mix::mix64;
use crate::{Name, Time};

/// The controller seed of a restarting catalog consumer's object `k` (0 for the first): the
/// consumer's own seed for the first, so a catalog run's first object is drawn as a single object
/// is, and an independent stream for each later one.
pub(super) fn object_seed(base: u64, k: u64) -> u64 {
    if k == 0 {
        base
    } else {
        base ^ mix64(k)
    }
}

impl Consumer {
    /// A catalog consumer's objects in the order requested, the one being fetched last (with no
    /// end); empty for a consumer of one object or before the start.
    pub fn objects(&self) -> Vec<ObjectRecord> {
        let Some(c) = &self.catalog else { return Vec::new() };
        let mut all = c.done.clone();
        if self.started {
            all.push(c.snapshot(self.stats.payload_bytes, self.path_data().as_deref()));
        }
        all
    }

    /// The Zipf table a catalog consumer draws its objects from.
    pub fn catalog_table(&self) -> Option<&ZipfMandelbrot> {
        self.catalog.as_ref().map(|c| c.zipf())
    }

    /// Each path's Data count, for a multipath controller.
    pub(super) fn path_data(&self) -> Option<Vec<u64>> {
        self.paths().map(|paths| paths.iter().map(|p| p.data).collect())
    }

    /// `paths()` as the per-bin path trace reads them. A catalog consumer that starts a new flow
    /// per object numbers each flow's paths from zero again, and their Data counts too; here the
    /// counts go on from the earlier flows' at the same index, so the trace's per-bin Data (the
    /// differences of these counts) stay right across an object's start, and its row k follows
    /// the k-th path of whichever object is under way.
    pub fn traced_paths(&self) -> Option<Vec<PathReport>> {
        let mut paths = self.paths()?;
        if let Some(c) = &self.catalog {
            for (p, earlier) in paths.iter_mut().zip(&c.earlier_flows_path_data) {
                p.data += earlier;
            }
        }
        Some(paths)
    }

    /// The segment number inside the consumer of segment `seg` of the named object; `None` for a
    /// catalog consumer's Data or Nack of another object than the current one.
    pub(super) fn own_segment(&self, name: &Name, seg: u64) -> Option<u64> {
        match &self.catalog {
            None => Some(seg),
            Some(c) => c.owns(name).then_some(c.base + seg),
        }
    }

    /// The catalog's current object is complete: the next one's segments follow on.
    pub(super) fn next_object(&mut self, now: Time) {
        let path_data = self.path_data();
        let base_seed = self.cc_seed();
        let Some(c) = &mut self.catalog else { return };
        let gap = self.config.catalog.map_or(Time::ZERO, |k| k.gap);
        let start = now + gap;
        if self.config.catalog.is_some_and(|k| k.restart) {
            c.retire_flow(path_data.as_deref().unwrap_or_default());
        }
        c.next(now, start, self.next_segment, self.stats.payload_bytes, path_data);
        // A think time: nothing leaves before the next object is requested (`send_allowed`).
        self.resume_at = (gap > Time::ZERO).then_some(start);
        if self.config.catalog.is_some_and(|k| k.restart) {
            // A new flow: a new controller and estimator (nothing of the last object is out: it
            // completed), whose paths count their Data from zero, and whose random draws (RAAQM's)
            // are its own, not the first object's over again.
            c.begin(start, self.stats.payload_bytes, Vec::new());
            let seed = object_seed(base_seed, c.done.len() as u64);
            self.cc = self.config.cc.build(seed, self.config.rtt);
            self.rtt = RttEstimator::new(self.config.rtt);
            self.last_backoff = None;
        }
        let segments = self.config.segments.unwrap_or(1).max(1);
        self.final_segment = Some(self.next_segment + segments - 1);
    }
}
