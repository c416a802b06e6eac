//! The TOML scenario reader: text -> validated [`Scenario`], with errors that name the file, line,
//! column and field path (`links[2].between`, `nodes.r.cs.capacity`) and say what is wrong.
//!
//! The document is parsed into `toml`'s spanned document tree (`DeTable`) and walked by hand rather
//! than through `serde` derive: that keeps a source span for every key and value, so every error,
//! including unknown fields (rejected everywhere), missing fields and wrong types, points at a line,
//! and the messages can say what is accepted. The format is documented in `docs/scenario-format.md`.
//!
//! The reader is split by concern: `error` (the error type, line:column and message helpers),
//! `values` (typed value readers), `nodes_links` and `apps_events` (the readers of each section),
//! `cc` (a consumer's congestion control, one file per algorithm), `strategy` (a forwarding
//! strategy, a registry line or a file per strategy), `queue` (a link's transmit queue, one file
//! per discipline), `marking` (a link's congestion-marking option), `trace` (`[trace]`, one
//! function per key);
//! this module holds the entry points and the assembly of the whole document.

mod apps_events;
mod cc;
mod content_store;
mod error;
mod marking;
mod nodes_links;
mod queue;
mod strategy;
mod trace;
mod values;

use std::path::{Path, PathBuf};

use ndnflow_core::Time;
use rustc_hash::FxHashMap;
use toml::de::{DeTable, DeValue};
use toml::Spanned;

use super::model::*;
use super::ndnsim::{parse_ndnsim_topology, Topology};
use error::{found, Ctx};
use values::Tbl;

pub use error::ScenarioError;
pub(crate) use error::{did_you_mean, name_list};

/// Checks a node name: non-empty, letters, digits, '_', '.' and '-' only.
pub(crate) fn check_node_name(name: &str) -> Result<(), String> {
    if name.is_empty() {
        return Err("node names must not be empty".to_string());
    }
    if let Some(c) = name.chars().find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'))) {
        return Err(format!(
            "node name {name:?} contains {c:?}; node names may only use letters, digits, '_', '.' and '-'"
        ));
    }
    Ok(())
}

/// Largest ndnSIM topology file read, in bytes (our bound). A 100,000-link topology is a few MB; the bound
/// keeps a mistaken path (a device, a huge log) from being read whole before failing.
pub const MAX_TOPOLOGY_BYTES: u64 = 256 << 20;

/// `[simulation] bin` when none is given: the traces' time bin width, 100 ms.
pub const DEFAULT_BIN: Time = Time::from_millis(100);

/// A text file's contents: a regular file of at most `MAX_TOPOLOGY_BYTES`, as UTF-8. A device, a
/// pipe or a folder is refused before it is opened: opening a named pipe waits for a writer.
fn read_text_file(path: &Path) -> std::io::Result<String> {
    use std::io::{Error, ErrorKind, Read};
    let regular = || Error::new(ErrorKind::InvalidInput, "not a regular file");
    if !std::fs::metadata(path)?.is_file() {
        return Err(regular());
    }
    let file = std::fs::File::open(path)?;
    if !file.metadata()?.is_file() {
        return Err(regular()); // replaced between the two looks
    }
    let mut bytes = Vec::new();
    file.take(MAX_TOPOLOGY_BYTES + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_TOPOLOGY_BYTES {
        return Err(Error::new(ErrorKind::InvalidData, format!("larger than {} MiB", MAX_TOPOLOGY_BYTES >> 20)));
    }
    String::from_utf8(bytes).map_err(|e| Error::new(ErrorKind::InvalidData, format!("not UTF-8 text: {e}")))
}

/// Reads and validates a scenario file. Errors name the file as `path.display()`; a topology file
/// named in `[topology]` is looked up relative to the scenario's directory.
pub fn load_scenario(path: &Path) -> Result<Scenario, ScenarioError> {
    let source = path.display().to_string();
    let text = read_text_file(path)
        .map_err(|e| ScenarioError::new(source.clone(), format!("cannot read scenario file: {e}")))?;
    parse_scenario(&text, &source, path.parent())
}

/// Parses and validates a scenario. `source` names the text in error messages; `base_dir` is the
/// directory relative paths (`[topology] ndnsim = "..."`) are resolved against (the current
/// directory when `None`).
pub fn parse_scenario(text: &str, source: &str, base_dir: Option<&Path>) -> Result<Scenario, ScenarioError> {
    let ctx = Ctx { text, source };
    let root = DeTable::parse(text).map_err(|e| ctx.syntax_error(&e))?;
    let root = Spanned::new(0..0, DeValue::Table(root.into_inner()));
    Reader { ctx, base_dir, nodes: Vec::new(), node_index: FxHashMap::default() }.scenario(&root)
}

/// Reads the table at top-level `key` of a TOML document as a scenario node's attributes (`cs`,
/// `strategy`, `strategies`, `interest_marks`, ...), into the `ForwarderConfig` a scenario node
/// would get; no such key: the default. The document's other top-level keys are the caller's and
/// are not looked at. For the real-time daemon (ndnflow-net), whose `[forwarder]` table speaks the
/// scenario's node vocabulary through this one reader; errors name `source`, line and field.
pub fn parse_forwarder_table(text: &str, source: &str, key: &str) -> Result<ForwarderConfig, ScenarioError> {
    let ctx = Ctx { text, source };
    let root = DeTable::parse(text).map_err(|e| ctx.syntax_error(&e))?;
    let mut config = ForwarderConfig::default();
    if let Some((_, v)) = root.get_ref().iter().find(|(k, _)| k.get_ref() == key) {
        let reader = Reader { ctx, base_dir: None, nodes: Vec::new(), node_index: FxHashMap::default() };
        reader.node_attributes(v, key, &mut config)?;
    }
    Ok(config)
}

/// Reads a whole TOML document as one consumer table, the keys of a `[[consumers]]` entry but
/// `node` (`name`, `cc`, `segments`, `lifetime`, `rto`, ...; docs/scenario-format.md), into the
/// `ConsumerConfig` a scenario consumer with them would get. For `ndnflow get` (ndnflow-net), which
/// writes its options as such a document, so that the consumer it runs on a real network reads
/// every key as a simulated one does; errors name `source`, line and field.
pub fn parse_consumer_table(text: &str, source: &str) -> Result<ndnflow_core::app::ConsumerConfig, ScenarioError> {
    let ctx = Ctx { text, source };
    let root = DeTable::parse(text).map_err(|e| ctx.syntax_error(&e))?;
    let root = Spanned::new(0..0, DeValue::Table(root.into_inner()));
    let reader = Reader { ctx, base_dir: None, nodes: Vec::new(), node_index: FxHashMap::default() };
    let spec = reader.app_consumer(&root, "")?;
    Ok(crate::build::consumer_config(&spec))
}

/// What a daemon face's link sends at: its `bandwidth`, `queue` and `delay`, as a scenario's link
/// direction has them.
#[derive(Clone, Debug, PartialEq)]
pub struct LinkOutputSpec {
    pub bandwidth_bps: u64,
    pub queue: QueueSpec,
    /// The link's one-way propagation delay; `None`: the face has none of its own (the network's).
    pub delay: Option<ndnflow_core::Time>,
}

/// Reads `bandwidth`, `queue` and `delay` of every table in the top-level array `key` (the
/// real-time daemon's `[[faces]]`) with the scenario's readers, so that a daemon's face is shaped
/// in the words of a scenario's link direction. One entry per table: `None` without `bandwidth`;
/// a `queue` or a `delay` without `bandwidth` is an error. The tables' other keys are the caller's.
pub fn parse_link_outputs(text: &str, source: &str, key: &str) -> Result<Vec<Option<LinkOutputSpec>>, ScenarioError> {
    let ctx = Ctx { text, source };
    let root = DeTable::parse(text).map_err(|e| ctx.syntax_error(&e))?;
    let Some((_, array)) = root.get_ref().iter().find(|(k, _)| k.get_ref() == key) else { return Ok(Vec::new()) };
    let DeValue::Array(items) = array.get_ref() else { return Ok(Vec::new()) };
    let reader = Reader { ctx, base_dir: None, nodes: Vec::new(), node_index: FxHashMap::default() };
    let mut out = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let DeValue::Table(t) = item.get_ref() else {
            out.push(None);
            continue;
        };
        let get = |name: &str| t.iter().find(|(k, _)| k.get_ref() == name).map(|(_, v)| v);
        let field = |name: &str| format!("{key}[{i}].{name}");
        let queue = get("queue").map(|v| reader.queue(v, &field("queue"))).transpose()?;
        let delay = get("delay").map(|v| reader.duration(v, &field("delay"))).transpose()?;
        let spec = match (get("bandwidth"), queue, delay) {
            (Some(b), queue, delay) => Some(LinkOutputSpec {
                bandwidth_bps: reader.bandwidth(b, &field("bandwidth"))?,
                queue: queue.unwrap_or_default(),
                delay,
            }),
            (None, Some(_), _) => {
                let v = get("queue").expect("read above");
                let msg =
                    "a queue needs the face's bandwidth (bandwidth = \"10Mbps\"): it is what drains it".to_string();
                return Err(reader.ctx.err(v.span(), &field("queue"), msg));
            }
            (None, None, Some(_)) => {
                let v = get("delay").expect("read above");
                // The delay is the link's, after its transmitter: a face without a link has none.
                let msg = "a delay needs the face's bandwidth (bandwidth = \"10Mbps\"): it is the shaped link's propagation delay".to_string();
                return Err(reader.ctx.err(v.span(), &field("delay"), msg));
            }
            (None, None, None) => None,
        };
        out.push(spec);
    }
    Ok(out)
}

type Val<'i> = Spanned<DeValue<'i>>;
type Res<T> = Result<T, ScenarioError>;

const TOP_KEYS: &[&str] =
    &["simulation", "nodes", "topology", "links", "producers", "consumers", "routes", "events", "trace"];

struct Reader<'s, 'b> {
    ctx: Ctx<'s>,
    base_dir: Option<&'b Path>,
    nodes: Vec<NodeSpec>,
    node_index: FxHashMap<String, NodeId>,
}

/// A link parsed so far, for duplicate and neighbour checks.
enum LinkOrigin {
    /// `[[links]]` entry `index`, whose `between` starts at byte `offset`. Its line is worked out
    /// only for a message: doing it for every link scanned the text once per link (quadratic).
    Table { index: usize, offset: usize },
    /// A link of a `[topology] ndnsim` file: `"topo.txt line 45"`.
    Topology(String),
}

impl Reader<'_, '_> {
    /// Where a link was defined, for a message: `"links[0] at line 12"` or `"topo.txt line 45"`.
    fn describe(&self, origin: &LinkOrigin) -> String {
        match origin {
            LinkOrigin::Table { index, offset } => format!("links[{index}] at line {}", self.ctx.line_col(*offset).0),
            LinkOrigin::Topology(described) => described.clone(),
        }
    }

    fn add_node(&mut self, name: &str) -> NodeId {
        let id = self.nodes.len();
        self.nodes.push(NodeSpec { name: name.to_string(), forwarder: ForwarderConfig::default() });
        self.node_index.insert(name.to_string(), id);
        id
    }

    // ---------------------------------------------------------------- the document

    fn read_topology(&self, root: &Tbl<'_, '_>) -> Res<Option<(Topology, String)>> {
        let Some(tv) = root.get("topology") else {
            return Ok(None);
        };
        let t = self.table(tv, "topology", &["ndnsim"], "a table such as [topology] ndnsim = \"topo.txt\"")?;
        let fv = self.required(&t, "ndnsim", "path of an ndnSIM annotated topology file")?;
        let file = self.string(fv, "topology.ndnsim", "a file path string")?;
        let path: PathBuf = match self.base_dir {
            Some(dir) => dir.join(file),
            None => PathBuf::from(file),
        };
        let text = read_text_file(&path).map_err(|e| {
            self.ctx.err(
                fv.span(),
                "topology.ndnsim",
                format!("cannot read ndnSIM topology {file:?} (looked at {}): {e}", path.display()),
            )
        })?;
        let source = path.display().to_string();
        let topo = parse_ndnsim_topology(&text, &source)?;
        Ok(Some((topo, source)))
    }

    fn scenario(mut self, root_v: &Val<'_>) -> Res<Scenario> {
        let root = self.table(root_v, "", TOP_KEYS, "a TOML document")?;

        // [simulation]
        let sv = root.get("simulation").ok_or_else(|| {
            self.ctx.err(
                0..0,
                "simulation",
                "missing required table [simulation] (it needs at least duration = \"30s\")",
            )
        })?;
        let sim = self.table(
            sv,
            "simulation",
            &["duration", "seed", "bin", "routing", "next_hops", "memory_limit"],
            "a table ([simulation])",
        )?;
        let duration = self.positive_duration(
            self.required(&sim, "duration", "how long to simulate, e.g. duration = \"30s\"")?,
            "simulation.duration",
        )?;
        let seed = sim.get("seed").map(|s| self.uint(s, "simulation.seed")).transpose()?.unwrap_or(1);
        let bin = match sim.get("bin") {
            Some(b) => self.positive_duration(b, "simulation.bin")?,
            None => DEFAULT_BIN,
        };
        let routing = match sim.get("routing") {
            Some(r) => match self.choice(r, "simulation.routing", &["hop-count", "delay", "none"])? {
                "delay" => RoutingMetric::Delay,
                "none" => RoutingMetric::None,
                _ => RoutingMetric::HopCount,
            },
            None => RoutingMetric::HopCount,
        };
        let next_hops = match sim.get("next_hops") {
            Some(r) => match self.choice(r, "simulation.next_hops", &["all-possible", "shortest-path"])? {
                "shortest-path" => NextHops::ShortestPath,
                _ => NextHops::AllPossible,
            },
            None => NextHops::AllPossible,
        };
        let memory_limit = match sim.get("memory_limit") {
            Some(m) => self.size(m, "simulation.memory_limit")? as u64,
            None => crate::memory::DEFAULT_LIMIT,
        };

        // [topology] routers, then [nodes]
        let topology = self.read_topology(&root)?;
        if let Some((topo, _)) = &topology {
            for n in &topo.nodes {
                self.add_node(&n.name);
            }
        }
        if let Some(nv) = root.get("nodes") {
            let DeValue::Table(map) = nv.get_ref() else {
                return Err(self.ctx.err(
                    root.key_span("nodes"),
                    "nodes",
                    format!("expected a table of node = {{ ... }} ([nodes]), found {}", found(nv.get_ref())),
                ));
            };
            let mut entries: Vec<_> = map.iter().collect();
            entries.sort_by_key(|(k, _)| k.span().start);
            for (k, v) in entries {
                let name = k.get_ref().as_ref();
                let path = format!("nodes.{name}");
                check_node_name(name).map_err(|m| self.ctx.err(k.span(), &path, m))?;
                let id = match self.node_index.get(name) {
                    Some(&id) => id,
                    None => self.add_node(name),
                };
                let mut forwarder = self.nodes[id].forwarder.clone();
                self.node_attributes(v, &path, &mut forwarder)?;
                self.nodes[id].forwarder = forwarder;
            }
        }

        // links: the topology's, then [[links]]
        let mut links = Vec::new();
        let mut origins: FxHashMap<(NodeId, NodeId), LinkOrigin> = FxHashMap::default();
        if let Some((topo, source)) = &topology {
            self.topology_links(topo, source, &mut links, &mut origins)?;
        }
        for (i, v) in self.sections(&root, "links")?.into_iter().enumerate() {
            let path = format!("links[{i}]");
            let (a, b, spec, between_span) = self.link(v, &path)?;
            let key = (a.min(b), a.max(b));
            if let Some(prev) = origins.get(&key) {
                return Err(self.ctx.err(
                    between_span,
                    &format!("{path}.between"),
                    format!(
                        "duplicate link {} - {} (already defined by {}); give per-direction differences with forward/reverse",
                        self.nodes[a].name, self.nodes[b].name, self.describe(prev)
                    ),
                ));
            }
            origins.insert(key, LinkOrigin::Table { index: i, offset: between_span.start });
            links.push(spec);
        }

        let mut producers = Vec::new();
        for (i, v) in self.sections(&root, "producers")?.into_iter().enumerate() {
            producers.push(self.producer(v, &format!("producers[{i}]"))?);
        }
        let mut consumers = Vec::new();
        let mut consumer_tables = Vec::new();
        for (i, v) in self.sections(&root, "consumers")?.into_iter().enumerate() {
            consumers.push(self.consumer(v, &format!("consumers[{i}]"), &producers)?);
            consumer_tables.push(v);
        }
        let mut routes = Vec::new();
        for (i, v) in self.sections(&root, "routes")?.into_iter().enumerate() {
            routes.push(self.route(v, &format!("routes[{i}]"), &origins)?);
        }
        let mut events = Vec::new();
        for (i, v) in self.sections(&root, "events")?.into_iter().enumerate() {
            events.push(self.event(v, &format!("events[{i}]"), &links)?);
        }
        let trace = self.trace(&root, &links)?;

        let scenario = Scenario {
            duration,
            seed,
            bin,
            routing,
            next_hops,
            nodes: self.nodes,
            links,
            producers,
            consumers,
            routes,
            events,
            memory_limit,
            trace,
        };
        crate::memory::check(&scenario).map_err(|(part, total)| {
            let span = part
                .consumer
                .and_then(|i| consumer_tables.get(i).map(|v| demand_span(v, &part.field)))
                .or_else(|| sim.get("bin").map(|b| b.span()));
            self.ctx.err(
                span.unwrap_or_else(|| sv.span()),
                &part.field,
                format!(
                    "the run would need about {}, most of it for {}, above the memory limit of {}; {}, or raise [simulation] memory_limit",
                    crate::memory::human(total),
                    part.how,
                    crate::memory::human(memory_limit),
                    part.remedy
                ),
            )
        })?;
        Ok(scenario)
    }
}

/// Where a consumer's memory demand points: the value its field names in the consumer's `cc`
/// table (`consumers[0].cc.probe_rate`), else its `cc`, else the consumer's table (a value left
/// at its default, a catalog).
fn demand_span(consumer: &Val<'_>, field: &str) -> std::ops::Range<usize> {
    let key = field.rsplit('.').next().unwrap_or_default();
    let entry = |v: &Val<'_>, k: &str| match v.get_ref() {
        DeValue::Table(t) => t.iter().find(|(name, _)| name.get_ref().as_ref() == k).map(|(_, x)| x.span()),
        _ => None,
    };
    let cc = match consumer.get_ref() {
        DeValue::Table(t) => t.iter().find(|(name, _)| name.get_ref().as_ref() == "cc").map(|(_, x)| x),
        _ => None,
    };
    match cc {
        Some(cc) if field.contains(".cc.") => entry(cc, key).unwrap_or_else(|| cc.span()),
        _ => consumer.span(),
    }
}
