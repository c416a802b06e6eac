//! The reader of `[trace]`: which optional traces a run records (docs/scenario-format.md,
//! "[trace]"). One small function per key, each setting its own field of `TraceSpec`; the shared
//! table reader rejects any other key, naming it and the keys there are.

use super::values::Tbl;
use super::{Reader, Res};
use crate::scenario::model::TraceSpec;

/// Every key `[trace]` takes.
const KEYS: &[&str] = &["interests", "faces", "nodes"];

impl Reader<'_, '_> {
    /// `[trace]`, or every trace off when the table is absent.
    pub(super) fn trace(&self, root: &Tbl<'_, '_>) -> Res<TraceSpec> {
        let mut spec = TraceSpec::default();
        let Some(v) = root.get("trace") else { return Ok(spec) };
        let t = self.table(v, "trace", KEYS, "a table such as [trace] interests = true")?;
        self.trace_interests(&t, &mut spec)?;
        self.trace_faces(&t, &mut spec)?;
        self.trace_nodes(&t, &mut spec)?;
        Ok(spec)
    }

    /// `interests = true`: the per-segment trace of every consumer (`interests.parquet`).
    fn trace_interests(&self, t: &Tbl<'_, '_>, spec: &mut TraceSpec) -> Res<()> {
        if let Some(v) = t.get("interests") {
            spec.interests = self.boolean(v, &t.field("interests"))?;
        }
        Ok(())
    }

    /// `faces = true`: per-face counters over time (`faces.parquet`).
    fn trace_faces(&self, t: &Tbl<'_, '_>, spec: &mut TraceSpec) -> Res<()> {
        if let Some(v) = t.get("faces") {
            spec.faces = self.boolean(v, &t.field("faces"))?;
        }
        Ok(())
    }

    /// `nodes = true`: per-node Content Store and PIT counters over time (`nodes.parquet`).
    fn trace_nodes(&self, t: &Tbl<'_, '_>, spec: &mut TraceSpec) -> Res<()> {
        if let Some(v) = t.get("nodes") {
            spec.nodes = self.boolean(v, &t.field("nodes"))?;
        }
        Ok(())
    }
}
