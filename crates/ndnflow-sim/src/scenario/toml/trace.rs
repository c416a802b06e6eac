//! `[trace]`: the optional instruments of a run (issue 24), each off unless its key turns it on.
//! One small reader per key, so that adding an instrument is a function and a line in `KEYS`.

use ndnflow_core::Name;

use super::values::Tbl;
use super::{Reader, Res};
use crate::scenario::model::{ForwardingLogSpec, LogLevel, TraceSpec, DEFAULT_MAX_LOG_RECORDS};

/// The keys `[trace]` accepts.
const KEYS: &[&str] = &["forwarding"];

const FORWARDING_KEYS: &[&str] = &["nodes", "prefix", "level", "max_records"];

impl Reader<'_, '_> {
    pub(super) fn trace(&self, root: &Tbl<'_, '_>) -> Res<TraceSpec> {
        let Some(tv) = root.get("trace") else { return Ok(TraceSpec::default()) };
        let t = self.table(tv, "trace", KEYS, "a table such as [trace] forwarding = { nodes = [\"r\"] }")?;
        Ok(TraceSpec { forwarding: t.get("forwarding").map(|v| self.forwarding_log(v)).transpose()? })
    }

    /// `forwarding = { nodes = [...], prefix = "/a", level = "debug" | "trace", max_records = N }`.
    fn forwarding_log(&self, v: &super::Val<'_>) -> Res<ForwardingLogSpec> {
        let path = "trace.forwarding";
        let t =
            self.table(v, path, FORWARDING_KEYS, "a table such as forwarding = { nodes = [\"r\"], prefix = \"/a\" }")?;
        let nodes = match t.get("nodes") {
            Some(list) => {
                let field = format!("{path}.nodes");
                let items = self.array(list, &field, "a list of node names")?;
                let mut nodes = Vec::with_capacity(items.len());
                for (i, item) in items.iter().enumerate() {
                    nodes.push(self.node_ref(item, &format!("{field}[{i}]"))?);
                }
                nodes.sort_unstable();
                nodes.dedup();
                nodes
            }
            None => (0..self.nodes.len()).collect(),
        };
        let prefix = match t.get("prefix") {
            Some(p) => self.name(p, &format!("{path}.prefix"))?,
            None => Name::root(),
        };
        let level = match t.get("level") {
            Some(l) => match self.choice(l, &format!("{path}.level"), &["debug", "trace"])? {
                "trace" => LogLevel::Trace,
                _ => LogLevel::Debug,
            },
            None => LogLevel::Debug,
        };
        let max_records = match t.get("max_records") {
            Some(m) => self.positive_uint(m, &format!("{path}.max_records"))?,
            None => DEFAULT_MAX_LOG_RECORDS,
        };
        Ok(ForwardingLogSpec { nodes, prefix, level, max_records })
    }
}
