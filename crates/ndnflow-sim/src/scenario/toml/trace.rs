//! The reader of `[trace]`: which optional traces a run records (docs/scenario-format.md,
//! "[trace] (optional)"). One small function per key, each setting its own field of `TraceSpec`;
//! the shared table reader rejects any other key, naming it and the keys there are.

use ndnflow_core::Name;

use super::error::name_list;
use super::values::Tbl;
use super::{Reader, Res, Val};
use crate::scenario::model::{
    CapturedDirection, ForwardingLogSpec, LinkSpec, LogLevel, TraceSpec, DEFAULT_MAX_LOG_RECORDS,
};

/// Every key `[trace]` takes.
const KEYS: &[&str] = &["interests", "faces", "nodes", "pcap", "forwarding"];

const FORWARDING_KEYS: &[&str] = &["nodes", "prefix", "level", "max_records"];

/// Nodes a capture can address: 10.x.y.z holds node numbers 1 to 2^24 - 2 (`crate::capture`).
const MAX_CAPTURED_NODES: usize = (1 << 24) - 2;

impl Reader<'_, '_> {
    /// `[trace]`, or every trace off when the table is absent.
    pub(super) fn trace(&self, root: &Tbl<'_, '_>, links: &[LinkSpec]) -> Res<TraceSpec> {
        let mut spec = TraceSpec::default();
        let Some(v) = root.get("trace") else { return Ok(spec) };
        let t = self.table(v, "trace", KEYS, "a table such as [trace] interests = true")?;
        self.trace_interests(&t, &mut spec)?;
        self.trace_faces(&t, &mut spec)?;
        self.trace_nodes(&t, &mut spec)?;
        spec.pcap = t.get("pcap").map(|p| self.pcap(p, links)).transpose()?.unwrap_or_default();
        spec.forwarding = t.get("forwarding").map(|v| self.forwarding_log(v)).transpose()?;
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

    /// `pcap = ["a->b", "c-d"]`: one direction, or both directions of a link.
    fn pcap(&self, v: &Val<'_>, links: &[LinkSpec]) -> Res<Vec<CapturedDirection>> {
        let items = self.array(v, "trace.pcap", "a list of link directions such as [\"r1->r2\", \"r2-r3\"]")?;
        if !items.is_empty() && self.nodes.len() > MAX_CAPTURED_NODES {
            let message = format!(
                "captures address at most {MAX_CAPTURED_NODES} nodes (10.x.y.z); this scenario has {}",
                self.nodes.len()
            );
            return Err(self.ctx.err(v.span(), "trace.pcap", message));
        }
        let mut out: Vec<CapturedDirection> = Vec::new();
        for (i, item) in items.iter().enumerate() {
            let field = format!("trace.pcap[{i}]");
            let text = self.string(item, &field, "a link direction \"a->b\" or a link \"a-b\"")?;
            let found = self.captured(text, links).map_err(|m| self.ctx.err(item.span(), &field, m))?;
            for d in found {
                if out.contains(&d) {
                    let (from, to) = (&self.nodes[d.from].name, &self.nodes[d.to].name);
                    let message = format!("the direction {from}->{to} is listed twice");
                    return Err(self.ctx.err(item.span(), &field, message));
                }
                out.push(d);
            }
        }
        Ok(out)
    }

    /// The directions `text` names: "a->b" one, "a-b" both (a node name may hold '-', so every
    /// split is tried and exactly one must name a link).
    fn captured(&self, text: &str, links: &[LinkSpec]) -> Result<Vec<CapturedDirection>, String> {
        if let Some((a, b)) = text.split_once("->") {
            let (a, b) = (self.node_named(a)?, self.node_named(b)?);
            let link = self.link_between(a, b, links)?;
            return Ok(vec![CapturedDirection { link, from: a, to: b }]);
        }
        let splits: Vec<(usize, usize, usize)> = text
            .match_indices('-')
            .filter_map(|(at, _)| {
                let (a, b) = (self.node_index.get(&text[..at])?, self.node_index.get(&text[at + 1..])?);
                Some((*a, *b, self.link_between(*a, *b, links).ok()?))
            })
            .collect();
        match splits.as_slice() {
            [(a, b, link)] => Ok(vec![
                CapturedDirection { link: *link, from: *a, to: *b },
                CapturedDirection { link: *link, from: *b, to: *a },
            ]),
            [] => Err(format!(
                "{text:?} names no link: write \"a->b\" for one direction or \"a-b\" for both, with the names of two linked nodes"
            )),
            _ => Err(format!("{text:?} names more than one link (node names hold '-'); write each direction as \"a->b\"")),
        }
    }

    fn node_named(&self, name: &str) -> Result<usize, String> {
        self.node_index.get(name).copied().ok_or_else(|| format!("no node named {name:?}"))
    }

    fn link_between(&self, a: usize, b: usize, links: &[LinkSpec]) -> Result<usize, String> {
        links.iter().position(|l| (l.a, l.b) == (a, b) || (l.a, l.b) == (b, a)).ok_or_else(|| {
            let neighbours = links.iter().filter_map(|l| match (l.a == a, l.b == a) {
                (true, _) => Some(self.nodes[l.b].name.as_str()),
                (_, true) => Some(self.nodes[l.a].name.as_str()),
                _ => None,
            });
            let (a, b) = (&self.nodes[a].name, &self.nodes[b].name);
            format!("no link between {a:?} and {b:?} (links of {a}: to {})", name_list(neighbours))
        })
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
