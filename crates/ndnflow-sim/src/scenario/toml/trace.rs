//! The reader of `[trace]`: which optional traces a run keeps, one key per trace, each off by
//! default. One function per key, so that each trace adds its own key and reader.

use super::values::Tbl;
use super::{Reader, Res};
use crate::scenario::model::TraceSpec;

/// Every key `[trace]` takes; any other is an error naming it.
const KEYS: &[&str] = &["interests"];

impl Reader<'_, '_> {
    pub(super) fn trace(&self, root: &Tbl<'_, '_>) -> Res<TraceSpec> {
        let mut spec = TraceSpec::default();
        let Some(v) = root.get("trace") else { return Ok(spec) };
        let t = self.table(v, "trace", KEYS, "a table such as [trace] interests = true")?;
        self.trace_interests(&t, &mut spec)?;
        Ok(spec)
    }

    /// `interests = true`: the per-segment trace of every consumer (`interests.parquet`).
    fn trace_interests(&self, t: &Tbl<'_, '_>, spec: &mut TraceSpec) -> Res<()> {
        if let Some(v) = t.get("interests") {
            spec.interests = self.boolean(v, &t.field("interests"))?;
        }
        Ok(())
    }
}
