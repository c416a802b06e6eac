//! The TOML scenario reader: text -> validated [`Scenario`], with errors that name the file, line,
//! column and field path (`links[2].between`, `nodes.r.cs.capacity`) and say what is wrong.
//!
//! The document is parsed into `toml`'s spanned document tree (`DeTable`) and walked by hand rather
//! than through `serde` derive: that keeps a source span for every key and value, so every error,
//! including unknown fields (rejected everywhere), missing fields and wrong types, points at a line,
//! and the messages can say what is accepted. The format is documented in `docs/scenario-format.md`.

use std::borrow::Cow;
use std::fmt;
use std::ops::Range;
use std::path::{Path, PathBuf};

use ndnflow_core::{Name, Time};
use rustc_hash::FxHashMap;
use toml::de::{DeTable, DeValue};
use toml::Spanned;

use super::model::*;
use super::ndnsim::{parse_ndnsim_topology, Topology};
use super::units::{parse_bandwidth, parse_duration, parse_size};

/// An error in a scenario or topology file: where (file, line, column, field path) and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct ScenarioError {
    /// The file (or other source) the error is in, as given to the reader.
    pub source_name: String,
    /// 1-based line, when known.
    pub line: Option<usize>,
    /// 1-based column in characters, when known.
    pub column: Option<usize>,
    /// Path of the offending field, e.g. `links[2].between` or `nodes.r.cs.capacity`.
    pub field: Option<String>,
    /// What is wrong, short and without the location.
    pub message: String,
}

impl ScenarioError {
    /// An error with no location beyond the source name.
    pub fn new(source_name: impl Into<String>, message: impl Into<String>) -> ScenarioError {
        ScenarioError {
            source_name: source_name.into(),
            line: None,
            column: None,
            field: None,
            message: message.into(),
        }
    }
}

impl fmt::Display for ScenarioError {
    /// `file:line:column: field: message`, leaving out what is unknown.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.source_name)?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
            if let Some(column) = self.column {
                write!(f, ":{column}")?;
            }
        }
        if let Some(field) = &self.field {
            write!(f, ": {field}")?;
        }
        write!(f, ": {}", self.message)
    }
}

/// Checks a node name: non-empty, letters, digits, '_', '.' and '-' only.
pub(crate) fn check_node_name(name: &str) -> Result<(), String> {
    if name.is_empty() {
        return Err("node names must not be empty".to_string());
    }
    if let Some(c) = name
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-')))
    {
        return Err(format!(
            "node name {name:?} contains {c:?}; node names may only use letters, digits, '_', '.' and '-'"
        ));
    }
    Ok(())
}

/// "a, b, c" for error messages, cut after a dozen names.
pub(crate) fn name_list<'a>(names: impl IntoIterator<Item = &'a str>) -> String {
    const SHOWN: usize = 12;
    let names: Vec<&str> = names.into_iter().collect();
    if names.is_empty() {
        return "none".to_string();
    }
    let mut out = names
        .iter()
        .take(SHOWN)
        .copied()
        .collect::<Vec<_>>()
        .join(", ");
    if names.len() > SHOWN {
        out.push_str(&format!(", ... ({} more)", names.len() - SHOWN));
    }
    out
}

/// Reads and validates a scenario file. Errors name the file as `path.display()`; a topology file
/// named in `[topology]` is looked up relative to the scenario's directory.
pub fn load_scenario(path: &Path) -> Result<Scenario, ScenarioError> {
    let source = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| {
        ScenarioError::new(source.clone(), format!("cannot read scenario file: {e}"))
    })?;
    parse_scenario(&text, &source, path.parent())
}

/// Parses and validates a scenario. `source` names the text in error messages; `base_dir` is the
/// directory relative paths (`[topology] ndnsim = "..."`) are resolved against (the current
/// directory when `None`).
pub fn parse_scenario(
    text: &str,
    source: &str,
    base_dir: Option<&Path>,
) -> Result<Scenario, ScenarioError> {
    let ctx = Ctx { text, source };
    let root = DeTable::parse(text).map_err(|e| ctx.syntax_error(&e))?;
    let root = Spanned::new(0..0, DeValue::Table(root.into_inner()));
    Reader {
        ctx,
        base_dir,
        nodes: Vec::new(),
        node_index: FxHashMap::default(),
    }
    .scenario(&root)
}

type Val<'i> = Spanned<DeValue<'i>>;
type Res<T> = Result<T, ScenarioError>;

/// The text being read, to turn byte spans into line:column.
struct Ctx<'s> {
    text: &'s str,
    source: &'s str,
}

impl Ctx<'_> {
    /// 1-based line and character column of a byte offset.
    fn line_col(&self, offset: usize) -> (usize, usize) {
        let mut off = offset.min(self.text.len());
        while !self.text.is_char_boundary(off) {
            off -= 1;
        }
        let before = &self.text[..off];
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        (line, before[line_start..].chars().count() + 1)
    }

    /// An error located at `span` (no location for the empty span of the document root).
    fn err(&self, span: Range<usize>, field: &str, message: impl Into<String>) -> ScenarioError {
        let (line, column) = if span == (0..0) {
            (None, None)
        } else {
            let (l, c) = self.line_col(span.start);
            (Some(l), Some(c))
        };
        ScenarioError {
            source_name: self.source.to_string(),
            line,
            column,
            field: (!field.is_empty()).then(|| field.to_string()),
            message: message.into(),
        }
    }

    fn syntax_error(&self, e: &toml::de::Error) -> ScenarioError {
        let mut message = format!("TOML syntax error: {}", e.message().trim_end());
        let Some(span) = e.span() else {
            return ScenarioError::new(self.source, message);
        };
        // Name what is duplicated ("duplicate key" alone is hard to act on).
        if message.contains("duplicate") {
            if let Some(what) = self
                .text
                .get(span.clone())
                .filter(|w| !w.is_empty() && w.len() <= 60 && !w.contains('\n'))
            {
                message.push_str(&format!(": {}", what.trim()));
            }
        }
        let (l, c) = self.line_col(span.start);
        ScenarioError {
            line: Some(l),
            column: Some(c),
            ..ScenarioError::new(self.source, message)
        }
    }
}

fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

/// What a value is, for "expected X, found Y".
fn found(v: &DeValue<'_>) -> String {
    match v {
        DeValue::String(s) => format!("string {:?}", s.as_ref()),
        DeValue::Integer(i) => format!("integer {i}"),
        DeValue::Float(f) => format!("float {f}"),
        DeValue::Boolean(b) => format!("boolean {b}"),
        DeValue::Datetime(d) => format!("date-time {d}"),
        DeValue::Array(_) => "an array".to_string(),
        DeValue::Table(_) => "a table".to_string(),
    }
}

/// Edit distance, for "did you mean" hints.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, &cb) in b.iter().enumerate() {
            cur[j + 1] = (prev[j] + usize::from(ca != cb))
                .min(prev[j + 1] + 1)
                .min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

fn did_you_mean<'a>(word: &str, options: &[&'a str]) -> Option<&'a str> {
    let lower = word.to_ascii_lowercase();
    options
        .iter()
        .map(|o| {
            let ol = o.to_ascii_lowercase();
            let related = ol.starts_with(&lower) || lower.starts_with(&ol);
            (distance(&lower, &ol), !related, *o)
        })
        .filter(|(d, unrelated, o)| *d <= 2.max(o.len() / 4) && (*d < o.len() || !unrelated))
        .min_by_key(|(d, unrelated, _)| (*d, *unrelated))
        .map(|(_, _, o)| o)
}

fn quoted_list(options: &[&str]) -> String {
    options
        .iter()
        .map(|o| format!("{o:?}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A table of the document with its field path; entries in source order.
struct Tbl<'a, 'i> {
    path: String,
    span: Range<usize>,
    entries: Vec<(&'a Spanned<Cow<'i, str>>, &'a Val<'i>)>,
}

impl<'a, 'i> Tbl<'a, 'i> {
    fn get(&self, key: &str) -> Option<&'a Val<'i>> {
        self.entries
            .iter()
            .find(|(k, _)| k.get_ref().as_ref() == key)
            .map(|(_, v)| *v)
    }
    fn key_span(&self, key: &str) -> Range<usize> {
        self.entries
            .iter()
            .find(|(k, _)| k.get_ref().as_ref() == key)
            .map_or(self.span.clone(), |(k, _)| k.span())
    }
    fn field(&self, key: &str) -> String {
        join(&self.path, key)
    }
}

const TOP_KEYS: &[&str] = &[
    "simulation",
    "nodes",
    "topology",
    "links",
    "producers",
    "consumers",
    "routes",
    "events",
];

struct Reader<'s, 'b> {
    ctx: Ctx<'s>,
    base_dir: Option<&'b Path>,
    nodes: Vec<NodeSpec>,
    node_index: FxHashMap<String, NodeId>,
}

/// A link parsed so far, for duplicate and neighbour checks.
struct LinkOrigin {
    /// "links[0] (line 12)" or "topo.txt line 45".
    described: String,
}

/// The per-direction parameters of a `[[links]]` entry or its `forward` / `reverse` table.
#[derive(Default)]
struct DirParams {
    bandwidth: Option<u64>,
    delay: Option<Time>,
    queue: Option<QueueSpec>,
    loss: Option<LossSpec>,
}

impl<'s> Reader<'s, '_> {
    // ---------------------------------------------------------------- generic value readers

    fn table<'a, 'i>(
        &self,
        v: &'a Val<'i>,
        path: &str,
        allowed: &[&str],
        what: &str,
    ) -> Res<Tbl<'a, 'i>> {
        let DeValue::Table(t) = v.get_ref() else {
            return Err(self.ctx.err(
                v.span(),
                path,
                format!("expected {what}, found {}", found(v.get_ref())),
            ));
        };
        let mut entries: Vec<_> = t.iter().collect();
        entries.sort_by_key(|(k, _)| k.span().start);
        for (k, _) in &entries {
            let key = k.get_ref().as_ref();
            if !allowed.contains(&key) {
                let mut msg = if path.is_empty() {
                    format!(
                        "unknown top-level key {key:?}; expected one of: {}",
                        allowed.join(", ")
                    )
                } else {
                    format!(
                        "unknown field {key:?}; expected one of: {}",
                        allowed.join(", ")
                    )
                };
                if let Some(s) = did_you_mean(key, allowed) {
                    msg.push_str(&format!(" (did you mean {s:?}?)"));
                }
                return Err(self.ctx.err(k.span(), &join(path, key), msg));
            }
        }
        Ok(Tbl {
            path: path.to_string(),
            span: v.span(),
            entries,
        })
    }

    fn required<'a, 'i>(&self, t: &Tbl<'a, 'i>, key: &str, hint: &str) -> Res<&'a Val<'i>> {
        t.get(key).ok_or_else(|| {
            let mut msg = format!("missing required field {key:?}");
            if !hint.is_empty() {
                msg.push_str(&format!(" ({hint})"));
            }
            self.ctx.err(t.span.clone(), &t.field(key), msg)
        })
    }

    fn string<'a>(&self, v: &'a Val<'_>, field: &str, what: &str) -> Res<&'a str> {
        match v.get_ref() {
            DeValue::String(s) => Ok(s.as_ref()),
            other => Err(self.ctx.err(
                v.span(),
                field,
                format!("expected {what}, found {}", found(other)),
            )),
        }
    }

    fn choice<'o>(&self, v: &Val<'_>, field: &str, options: &[&'o str]) -> Res<&'o str> {
        let s = self.string(v, field, &format!("one of {}", quoted_list(options)))?;
        if let Some(o) = options.iter().find(|o| **o == s) {
            return Ok(o);
        }
        let mut msg = format!(
            "unknown value {s:?}; expected one of {}",
            quoted_list(options)
        );
        if let Some(m) = did_you_mean(s, options) {
            msg.push_str(&format!(" (did you mean {m:?}?)"));
        }
        Err(self.ctx.err(v.span(), field, msg))
    }

    fn duration(&self, v: &Val<'_>, field: &str) -> Res<Time> {
        let s = self.string(v, field, "a duration string such as \"5ms\"")?;
        parse_duration(s).map_err(|m| self.ctx.err(v.span(), field, m))
    }

    fn positive_duration(&self, v: &Val<'_>, field: &str) -> Res<Time> {
        let t = self.duration(v, field)?;
        if t == Time::ZERO {
            return Err(self.ctx.err(v.span(), field, "must be longer than 0"));
        }
        Ok(t)
    }

    fn bandwidth(&self, v: &Val<'_>, field: &str) -> Res<u64> {
        let s = self.string(v, field, "a bandwidth string such as \"10Mbps\"")?;
        parse_bandwidth(s).map_err(|m| self.ctx.err(v.span(), field, m))
    }

    /// A size in bytes: a non-negative integer or a string with a unit ("150KB").
    fn size(&self, v: &Val<'_>, field: &str) -> Res<usize> {
        match v.get_ref() {
            DeValue::String(s) => parse_size(s).map_err(|m| self.ctx.err(v.span(), field, m)),
            DeValue::Integer(_) => {
                let n = self.uint(v, field)?;
                usize::try_from(n).map_err(|_| self.ctx.err(v.span(), field, "too large"))
            }
            other => Err(self.ctx.err(
                v.span(),
                field,
                format!("expected a number of bytes (1500) or a size string such as \"150KB\", found {}", found(other)),
            )),
        }
    }

    fn uint(&self, v: &Val<'_>, field: &str) -> Res<u64> {
        let DeValue::Integer(i) = v.get_ref() else {
            return Err(self.ctx.err(
                v.span(),
                field,
                format!(
                    "expected a non-negative integer, found {}",
                    found(v.get_ref())
                ),
            ));
        };
        match i128::from_str_radix(i.as_str(), i.radix()) {
            Ok(n) if n < 0 => {
                Err(self
                    .ctx
                    .err(v.span(), field, format!("must not be negative, found {n}")))
            }
            Ok(n) => u64::try_from(n)
                .map_err(|_| self.ctx.err(v.span(), field, format!("{n} is too large"))),
            Err(_) => Err(self.ctx.err(v.span(), field, format!("{i} is too large"))),
        }
    }

    fn positive_uint(&self, v: &Val<'_>, field: &str) -> Res<u64> {
        let n = self.uint(v, field)?;
        if n == 0 {
            return Err(self.ctx.err(v.span(), field, "must be at least 1"));
        }
        Ok(n)
    }

    fn u32_value(&self, v: &Val<'_>, field: &str, min: u32) -> Res<u32> {
        let n = self.uint(v, field)?;
        if n < u64::from(min) {
            return Err(self.ctx.err(
                v.span(),
                field,
                format!("must be at least {min}, found {n}"),
            ));
        }
        u32::try_from(n).map_err(|_| {
            self.ctx.err(
                v.span(),
                field,
                format!("{n} is too large (at most {})", u32::MAX),
            )
        })
    }

    fn number(&self, v: &Val<'_>, field: &str) -> Res<f64> {
        let x = match v.get_ref() {
            DeValue::Float(f) => f.as_str().parse::<f64>().ok(),
            DeValue::Integer(i) => i128::from_str_radix(i.as_str(), i.radix())
                .ok()
                .map(|n| n as f64),
            other => {
                return Err(self.ctx.err(
                    v.span(),
                    field,
                    format!("expected a number, found {}", found(other)),
                ))
            }
        };
        match x {
            Some(x) if x.is_finite() => Ok(x),
            _ => Err(self.ctx.err(v.span(), field, "expected a finite number")),
        }
    }

    fn probability(&self, v: &Val<'_>, field: &str) -> Res<f64> {
        let p = self.number(v, field)?;
        if !(0.0..=1.0).contains(&p) {
            return Err(self.ctx.err(
                v.span(),
                field,
                format!("probability must be between 0 and 1, found {p}"),
            ));
        }
        Ok(p)
    }

    fn boolean(&self, v: &Val<'_>, field: &str) -> Res<bool> {
        match v.get_ref() {
            DeValue::Boolean(b) => Ok(*b),
            other => Err(self.ctx.err(
                v.span(),
                field,
                format!("expected true or false, found {}", found(other)),
            )),
        }
    }

    fn name(&self, v: &Val<'_>, field: &str) -> Res<Name> {
        let s = self.string(v, field, "an NDN name string such as \"/video\"")?;
        Name::parse(s).map_err(|e| self.ctx.err(v.span(), field, e.to_string()))
    }

    fn array<'a, 'i>(&self, v: &'a Val<'i>, field: &str, what: &str) -> Res<&'a [Val<'i>]> {
        match v.get_ref() {
            DeValue::Array(a) => Ok(a),
            other => Err(self.ctx.err(
                v.span(),
                field,
                format!("expected {what}, found {}", found(other)),
            )),
        }
    }

    /// The elements of a top-level `[[section]]` array, each as a table.
    fn sections<'a, 'i>(&self, root: &Tbl<'a, 'i>, key: &str) -> Res<Vec<&'a Val<'i>>> {
        let Some(v) = root.get(key) else {
            return Ok(Vec::new());
        };
        match v.get_ref() {
            DeValue::Array(a) => Ok(a.iter().collect()),
            other => Err(self.ctx.err(
                root.key_span(key),
                key,
                format!("expected an array of tables, found {}: write [[{key}]] (double brackets) before each entry", found(other)),
            )),
        }
    }

    // ---------------------------------------------------------------- nodes

    fn unknown_node(&self, span: Range<usize>, field: &str, name: &str) -> ScenarioError {
        let msg = if self.nodes.is_empty() {
            format!("unknown node {name:?} (no nodes are defined: declare them under [nodes])")
        } else {
            let mut msg = format!(
                "unknown node {name:?} (known nodes: {})",
                name_list(self.nodes.iter().map(|n| n.name.as_str()))
            );
            let names: Vec<&str> = self.nodes.iter().map(|n| n.name.as_str()).collect();
            if let Some(m) = did_you_mean(name, &names) {
                msg.push_str(&format!("; did you mean {m:?}?"));
            }
            msg
        };
        self.ctx.err(span, field, msg)
    }

    fn node_ref(&self, v: &Val<'_>, field: &str) -> Res<NodeId> {
        let s = self.string(v, field, "a node name string")?;
        self.node_index
            .get(s)
            .copied()
            .ok_or_else(|| self.unknown_node(v.span(), field, s))
    }

    fn add_node(&mut self, name: &str) -> NodeId {
        let id = self.nodes.len();
        self.nodes.push(NodeSpec {
            name: name.to_string(),
            cs: CsSpec::default(),
            strategy: StrategyKind::default(),
            strategy_choices: Vec::new(),
        });
        self.node_index.insert(name.to_string(), id);
        id
    }

    fn node_attributes(&self, v: &Val<'_>, path: &str, node: &mut NodeSpec) -> Res<()> {
        let t = self.table(
            v,
            path,
            &["cs", "strategy", "strategies"],
            "a table such as {} or { cs = { policy = \"lru\", capacity = 1000 } }",
        )?;
        if let Some(cs) = t.get("cs") {
            let path = t.field("cs");
            let cs = self.table(
                cs,
                &path,
                &["policy", "capacity"],
                "a table such as { policy = \"lru\", capacity = 1000 }",
            )?;
            let policy = match cs.get("policy") {
                Some(p) => self.choice(p, &cs.field("policy"), &["lru", "fifo", "off"])?,
                None => "lru",
            };
            node.cs = match policy {
                "off" => {
                    if let Some(c) = cs.get("capacity") {
                        return Err(self.ctx.err(
                            c.span(),
                            &cs.field("capacity"),
                            "a capacity has no effect with policy = \"off\"; remove one of them",
                        ));
                    }
                    CsSpec {
                        policy: CsPolicy::Lru,
                        capacity: 0,
                    }
                }
                p => {
                    let c = self.required(
                        &cs,
                        "capacity",
                        "number of Data packets the Content Store holds",
                    )?;
                    let capacity = self.uint(c, &cs.field("capacity"))?;
                    let capacity = usize::try_from(capacity)
                        .map_err(|_| self.ctx.err(c.span(), &cs.field("capacity"), "too large"))?;
                    CsSpec {
                        policy: if p == "fifo" {
                            CsPolicy::Fifo
                        } else {
                            CsPolicy::Lru
                        },
                        capacity,
                    }
                }
            };
        }
        if let Some(s) = t.get("strategy") {
            node.strategy = self.strategy(s, &t.field("strategy"))?;
        }
        if let Some(s) = t.get("strategies") {
            let path = t.field("strategies");
            let DeValue::Table(map) = s.get_ref() else {
                return Err(self.ctx.err(s.span(), &path, format!("expected a table of prefix = strategy, such as {{ \"/video\" = \"multicast\" }}, found {}", found(s.get_ref()))));
            };
            let mut entries: Vec<_> = map.iter().collect();
            entries.sort_by_key(|(k, _)| k.span().start);
            for (k, v) in entries {
                let field = format!("{path}.\"{}\"", k.get_ref());
                let prefix = Name::parse(k.get_ref())
                    .map_err(|e| self.ctx.err(k.span(), &field, e.to_string()))?;
                if prefix.is_empty() {
                    return Err(self.ctx.err(
                        k.span(),
                        &field,
                        "set the strategy of \"/\" with the node's `strategy` field",
                    ));
                }
                if node.strategy_choices.iter().any(|(p, _)| *p == prefix) {
                    return Err(self.ctx.err(
                        k.span(),
                        &field,
                        format!("prefix {prefix} is given twice"),
                    ));
                }
                let kind = self.strategy(v, &field)?;
                node.strategy_choices.push((prefix, kind));
            }
        }
        Ok(())
    }

    fn strategy(&self, v: &Val<'_>, field: &str) -> Res<StrategyKind> {
        Ok(match self.choice(v, field, &["best-route", "multicast"])? {
            "multicast" => StrategyKind::Multicast,
            _ => StrategyKind::BestRoute,
        })
    }

    // ---------------------------------------------------------------- links

    fn queue(&self, v: &Val<'_>, path: &str) -> Res<QueueSpec> {
        let t = self.table(
            v,
            path,
            &[
                "discipline",
                "packets",
                "bytes",
                "target",
                "interval",
                "mode",
            ],
            "a table such as { discipline = \"droptail\", packets = 100 }",
        )?;
        let discipline = match t.get("discipline") {
            Some(d) => self.choice(d, &t.field("discipline"), &["droptail", "codel"])?,
            None => "droptail",
        };
        let limit = match (t.get("packets"), t.get("bytes")) {
            (Some(_), Some(_)) => {
                return Err(self.ctx.err(
                    t.key_span("bytes"),
                    &t.field("bytes"),
                    "give either packets or bytes as the queue limit, not both",
                ))
            }
            (Some(p), None) => {
                let n = self.positive_uint(p, &t.field("packets"))?;
                QueueLimit::Packets(
                    usize::try_from(n)
                        .map_err(|_| self.ctx.err(p.span(), &t.field("packets"), "too large"))?,
                )
            }
            (None, Some(b)) => {
                let n = self.size(b, &t.field("bytes"))?;
                if n == 0 {
                    return Err(self.ctx.err(
                        b.span(),
                        &t.field("bytes"),
                        "queue limit must be at least 1 byte",
                    ));
                }
                QueueLimit::Bytes(n)
            }
            // ns-3 defaults: DropTailQueue 100 packets, CoDelQueueDisc MaxSize 1500 packets.
            (None, None) if discipline == "codel" => QueueLimit::Packets(1500),
            (None, None) => QueueLimit::Packets(100),
        };
        if discipline == "droptail" {
            for key in ["target", "interval", "mode"] {
                if t.get(key).is_some() {
                    return Err(self.ctx.err(
                        t.key_span(key),
                        &t.field(key),
                        format!("{key:?} only applies to discipline = \"codel\""),
                    ));
                }
            }
            return Ok(QueueSpec::DropTail { limit });
        }
        let target = match t.get("target") {
            Some(x) => self.positive_duration(x, &t.field("target"))?,
            None => Time::from_millis(5),
        };
        let interval = match t.get("interval") {
            Some(x) => self.positive_duration(x, &t.field("interval"))?,
            None => Time::from_millis(100),
        };
        let mode = match t.get("mode") {
            Some(m) => match self.choice(m, &t.field("mode"), &["drop", "mark"])? {
                "mark" => CodelMode::Mark,
                _ => CodelMode::Drop,
            },
            None => CodelMode::Drop,
        };
        Ok(QueueSpec::Codel {
            limit,
            target,
            interval,
            mode,
        })
    }

    fn loss(&self, v: &Val<'_>, path: &str) -> Res<LossSpec> {
        let t = self.table(
            v,
            path,
            &["model", "p", "r", "loss_good", "loss_bad"],
            "a table such as { model = \"bernoulli\", p = 0.01 }",
        )?;
        let m = self.required(
            &t,
            "model",
            "\"bernoulli\", \"gilbert-elliott\" or \"none\"",
        )?;
        let model = self.choice(
            m,
            &t.field("model"),
            &["bernoulli", "gilbert-elliott", "none"],
        )?;
        let allowed: &[&str] = match model {
            "bernoulli" => &["model", "p"],
            "gilbert-elliott" => &["model", "p", "r", "loss_good", "loss_bad"],
            _ => &["model"],
        };
        for (k, _) in &t.entries {
            if !allowed.contains(&k.get_ref().as_ref()) {
                return Err(self.ctx.err(
                    k.span(),
                    &t.field(k.get_ref()),
                    format!(
                        "{:?} does not apply to model = {model:?} (its fields: {})",
                        k.get_ref().as_ref(),
                        allowed.join(", ")
                    ),
                ));
            }
        }
        let prob = |key: &str, default: Option<f64>| -> Res<f64> {
            match (t.get(key), default) {
                (Some(x), _) => self.probability(x, &t.field(key)),
                (None, Some(d)) => Ok(d),
                (None, None) => Err(self.ctx.err(
                    t.span.clone(),
                    &t.field(key),
                    format!("missing required field {key:?} (a probability)"),
                )),
            }
        };
        Ok(match model {
            "bernoulli" => LossSpec::Bernoulli {
                p: prob("p", None)?,
            },
            "gilbert-elliott" => LossSpec::GilbertElliott {
                p: prob("p", None)?,
                r: prob("r", None)?,
                loss_good: prob("loss_good", Some(0.0))?,
                loss_bad: prob("loss_bad", Some(1.0))?,
            },
            _ => LossSpec::None,
        })
    }

    fn dir_params(&self, t: &Tbl<'_, '_>) -> Res<DirParams> {
        Ok(DirParams {
            bandwidth: t
                .get("bandwidth")
                .map(|v| self.bandwidth(v, &t.field("bandwidth")))
                .transpose()?,
            delay: t
                .get("delay")
                .map(|v| self.duration(v, &t.field("delay")))
                .transpose()?,
            queue: t
                .get("queue")
                .map(|v| self.queue(v, &t.field("queue")))
                .transpose()?,
            loss: t
                .get("loss")
                .map(|v| self.loss(v, &t.field("loss")))
                .transpose()?,
        })
    }

    /// A `[[links]]` entry: (a, b, spec, span of `between`).
    fn link(&self, v: &Val<'_>, path: &str) -> Res<(NodeId, NodeId, LinkSpec, Range<usize>)> {
        let t = self.table(
            v,
            path,
            &[
                "between",
                "bandwidth",
                "delay",
                "queue",
                "loss",
                "metric",
                "forward",
                "reverse",
            ],
            "a table ([[links]])",
        )?;
        let bv = self.required(
            &t,
            "between",
            "the two node names, e.g. between = [\"a\", \"b\"]",
        )?;
        let field = t.field("between");
        let (a, b) = self.node_pair(bv, &field)?;
        if a == b {
            return Err(self.ctx.err(
                bv.span(),
                &field,
                format!("link from {:?} to itself", self.nodes[a].name),
            ));
        }
        let base = self.dir_params(&t)?;
        let mut dirs = [DirParams::default(), DirParams::default()];
        for (i, key) in ["forward", "reverse"].into_iter().enumerate() {
            if let Some(dv) = t.get(key) {
                let dt = self.table(
                    dv,
                    &t.field(key),
                    &["bandwidth", "delay", "queue", "loss"],
                    "a table such as { bandwidth = \"1Mbps\" }",
                )?;
                dirs[i] = self.dir_params(&dt)?;
            }
        }
        let [fwd, rev] = dirs;
        let resolve = |d: DirParams| -> Res<LinkDirSpec> {
            let missing = |key: &str, example: &str| {
                self.ctx.err(
                    t.span.clone(),
                    &t.field(key),
                    format!("missing required field {key:?} (e.g. {key} = \"{example}\"; set it on the link, or in both forward and reverse)"),
                )
            };
            Ok(LinkDirSpec {
                bandwidth_bps: d
                    .bandwidth
                    .or(base.bandwidth)
                    .ok_or_else(|| missing("bandwidth", "10Mbps"))?,
                delay: d
                    .delay
                    .or(base.delay)
                    .ok_or_else(|| missing("delay", "5ms"))?,
                queue: d.queue.or(base.queue).unwrap_or_default(),
                loss: d.loss.or(base.loss).unwrap_or_default(),
            })
        };
        let ab = resolve(fwd)?;
        let ba = resolve(rev)?;
        let metric = match t.get("metric") {
            Some(m) => self.positive_uint(m, &t.field("metric"))?,
            None => 1,
        };
        Ok((
            a,
            b,
            LinkSpec {
                a,
                b,
                ab,
                ba,
                metric,
            },
            bv.span(),
        ))
    }

    /// `["a", "b"]` as two node ids.
    fn node_pair(&self, v: &Val<'_>, field: &str) -> Res<(NodeId, NodeId)> {
        const WHAT: &str = "two node names, e.g. [\"a\", \"b\"]";
        let items = self.array(v, field, WHAT)?;
        if items.len() != 2 {
            return Err(self.ctx.err(
                v.span(),
                field,
                format!("expected {WHAT}, found {} element(s)", items.len()),
            ));
        }
        Ok((
            self.node_ref(&items[0], field)?,
            self.node_ref(&items[1], field)?,
        ))
    }

    fn topology_links(
        &self,
        topo: &Topology,
        topo_source: &str,
        links: &mut Vec<LinkSpec>,
        origins: &mut FxHashMap<(NodeId, NodeId), LinkOrigin>,
    ) -> Res<()> {
        for l in &topo.links {
            let a = self.node_index[&l.a];
            let b = self.node_index[&l.b];
            let at = |message: String| ScenarioError {
                source_name: topo_source.to_string(),
                line: (l.line > 0).then_some(l.line),
                column: None,
                field: None,
                message,
            };
            let Some(bandwidth_bps) = l.bandwidth_bps else {
                return Err(at(format!(
                    "link {} - {} has no bandwidth column; every link needs one (e.g. `{} {} 10Mbps 1 5ms 100`)",
                    l.a, l.b, l.a, l.b
                )));
            };
            let dir = LinkDirSpec {
                bandwidth_bps,
                // ns-3 PointToPointChannel's default Delay is 0 s.
                delay: l.delay.unwrap_or(Time::ZERO),
                queue: l
                    .queue_packets
                    .map_or_else(QueueSpec::default, |n| QueueSpec::DropTail {
                        limit: QueueLimit::Packets(n),
                    }),
                loss: l
                    .loss_rate
                    .map_or(LossSpec::None, |p| LossSpec::Bernoulli { p }),
            };
            origins.insert(
                (a.min(b), a.max(b)),
                LinkOrigin {
                    described: format!("{topo_source} line {}", l.line),
                },
            );
            links.push(LinkSpec {
                a,
                b,
                ab: dir.clone(),
                ba: dir,
                metric: l.metric.unwrap_or(1),
            });
        }
        Ok(())
    }

    // ---------------------------------------------------------------- apps, routes, events

    fn producer(&self, v: &Val<'_>, path: &str) -> Res<ProducerSpec> {
        let t = self.table(
            v,
            path,
            &["node", "prefix", "payload", "segments", "freshness"],
            "a table ([[producers]])",
        )?;
        let node = self.node_ref(
            self.required(&t, "node", "the node the producer runs on")?,
            &t.field("node"),
        )?;
        let pv = self.required(
            &t,
            "prefix",
            "the name prefix it serves, e.g. prefix = \"/video\"",
        )?;
        let prefix = self.name(pv, &t.field("prefix"))?;
        let payload = match t.get("payload") {
            Some(p) => self.size(p, &t.field("payload"))?,
            None => 1024,
        };
        let segments = t
            .get("segments")
            .map(|s| self.positive_uint(s, &t.field("segments")))
            .transpose()?;
        let freshness = t
            .get("freshness")
            .map(|f| self.duration(f, &t.field("freshness")))
            .transpose()?;
        Ok(ProducerSpec {
            node,
            prefix,
            payload,
            segments,
            freshness,
        })
    }

    fn consumer(&self, v: &Val<'_>, path: &str, producers: &[ProducerSpec]) -> Res<ConsumerSpec> {
        let t = self.table(
            v,
            path,
            &[
                "node",
                "name",
                "start",
                "stop",
                "segments",
                "lifetime",
                "max_retries",
                "rto",
                "cc",
            ],
            "a table ([[consumers]])",
        )?;
        let node = self.node_ref(
            self.required(&t, "node", "the node the consumer runs on")?,
            &t.field("node"),
        )?;
        let nv = self.required(&t, "name", "the object to fetch, e.g. name = \"/video/a\"")?;
        let name = self.name(nv, &t.field("name"))?;
        if !producers.iter().any(|p| p.prefix.is_prefix_of(&name)) {
            let msg = if producers.is_empty() {
                format!("no producer serves {name}: there are no [[producers]]")
            } else {
                let prefixes: Vec<String> =
                    producers.iter().map(|p| p.prefix.to_string()).collect();
                format!(
                    "no producer serves {name} (producer prefixes: {})",
                    name_list(prefixes.iter().map(String::as_str))
                )
            };
            return Err(self.ctx.err(nv.span(), &t.field("name"), msg));
        }
        let start = t
            .get("start")
            .map(|s| self.duration(s, &t.field("start")))
            .transpose()?
            .unwrap_or(Time::ZERO);
        let stop = match t.get("stop") {
            Some(s) => {
                let stop = self.duration(s, &t.field("stop"))?;
                if stop <= start {
                    return Err(self.ctx.err(
                        s.span(),
                        &t.field("stop"),
                        format!(
                            "stop ({}) must be after start ({})",
                            super::units::format_duration(stop),
                            super::units::format_duration(start)
                        ),
                    ));
                }
                Some(stop)
            }
            None => None,
        };
        let segments = t
            .get("segments")
            .map(|s| self.positive_uint(s, &t.field("segments")))
            .transpose()?;
        let lifetime = match t.get("lifetime") {
            Some(l) => self.positive_duration(l, &t.field("lifetime"))?,
            None => Time::from_secs(2),
        };
        let max_retries = t
            .get("max_retries")
            .map(|m| self.u32_value(m, &t.field("max_retries"), 0))
            .transpose()?;
        let mut rto = RtoSpec::default();
        if let Some(r) = t.get("rto") {
            let rt = self.table(
                r,
                &t.field("rto"),
                &["initial", "min", "max"],
                "a table such as { initial = \"1s\", min = \"200ms\", max = \"60s\" }",
            )?;
            for (key, slot) in [
                ("initial", &mut rto.initial),
                ("min", &mut rto.min),
                ("max", &mut rto.max),
            ] {
                if let Some(x) = rt.get(key) {
                    *slot = self.positive_duration(x, &rt.field(key))?;
                }
            }
            if rto.min > rto.max {
                let span = rt
                    .get("min")
                    .or(rt.get("max"))
                    .map_or(rt.span.clone(), |v| v.span());
                return Err(self.ctx.err(
                    span,
                    &rt.field("min"),
                    format!(
                        "min ({}) must not exceed max ({})",
                        super::units::format_duration(rto.min),
                        super::units::format_duration(rto.max)
                    ),
                ));
            }
        }
        let cv = self.required(
            &t,
            "cc",
            "e.g. cc = { algorithm = \"fixed-window\", window = 10 }",
        )?;
        let cc = self.cc(cv, &t.field("cc"))?;
        Ok(ConsumerSpec {
            node,
            name,
            start,
            stop,
            segments,
            cc,
            lifetime,
            rto,
            max_retries,
        })
    }

    fn cc(&self, v: &Val<'_>, path: &str) -> Res<CcSpec> {
        let t = self.table(
            v,
            path,
            &["algorithm", "window", "rate"],
            "a table such as { algorithm = \"fixed-window\", window = 10 }",
        )?;
        let av = self.required(&t, "algorithm", "\"fixed-window\" or \"constant-rate\"")?;
        let algorithm = self.choice(
            av,
            &t.field("algorithm"),
            &["fixed-window", "constant-rate"],
        )?;
        let (needed, other) = if algorithm == "fixed-window" {
            ("window", "rate")
        } else {
            ("rate", "window")
        };
        if t.get(other).is_some() {
            return Err(self.ctx.err(
                t.key_span(other),
                &t.field(other),
                format!(
                    "{other:?} does not apply to algorithm = {algorithm:?}; it takes {needed:?}"
                ),
            ));
        }
        if algorithm == "fixed-window" {
            let w = self.required(&t, "window", "Interests in flight, e.g. window = 10")?;
            let n = self.uint(w, &t.field("window"))?;
            if n == 0 {
                return Err(self.ctx.err(
                    w.span(),
                    &t.field("window"),
                    "window must be at least 1",
                ));
            }
            let window = u32::try_from(n).map_err(|_| {
                self.ctx
                    .err(w.span(), &t.field("window"), format!("{n} is too large"))
            })?;
            Ok(CcSpec::FixedWindow { window })
        } else {
            let r = self.required(&t, "rate", "Interests per second, e.g. rate = 100.0")?;
            let rate = self.number(r, &t.field("rate"))?;
            if rate <= 0.0 {
                return Err(self.ctx.err(
                    r.span(),
                    &t.field("rate"),
                    format!("rate must be positive (Interests per second), found {rate}"),
                ));
            }
            Ok(CcSpec::ConstantRate { rate })
        }
    }

    fn route(
        &self,
        v: &Val<'_>,
        path: &str,
        adjacent: &FxHashMap<(NodeId, NodeId), LinkOrigin>,
    ) -> Res<RouteSpec> {
        let t = self.table(
            v,
            path,
            &["node", "prefix", "nexthop", "cost"],
            "a table ([[routes]])",
        )?;
        let node = self.node_ref(
            self.required(&t, "node", "the node whose FIB gets the route")?,
            &t.field("node"),
        )?;
        let prefix = self.name(
            self.required(&t, "prefix", "e.g. prefix = \"/video\"")?,
            &t.field("prefix"),
        )?;
        let hv = self.required(&t, "nexthop", "a neighbour of the node")?;
        let nexthop = self.node_ref(hv, &t.field("nexthop"))?;
        if !adjacent.contains_key(&(node.min(nexthop), node.max(nexthop))) {
            let neighbours: Vec<&str> = self
                .nodes
                .iter()
                .enumerate()
                .filter(|(i, _)| adjacent.contains_key(&(node.min(*i), node.max(*i))))
                .map(|(_, n)| n.name.as_str())
                .collect();
            let who = &self.nodes[node].name;
            let msg = if nexthop == node {
                format!(
                    "nexthop must be a neighbour of {who:?}, not the node itself (neighbours: {})",
                    name_list(neighbours)
                )
            } else {
                format!(
                    "{:?} is not a neighbour of {who:?}: no link joins them (neighbours of {who}: {})",
                    self.nodes[nexthop].name,
                    name_list(neighbours)
                )
            };
            return Err(self.ctx.err(hv.span(), &t.field("nexthop"), msg));
        }
        let cost = t
            .get("cost")
            .map(|c| self.uint(c, &t.field("cost")))
            .transpose()?
            .unwrap_or(1);
        Ok(RouteSpec {
            node,
            prefix,
            nexthop,
            cost,
        })
    }

    fn event(&self, v: &Val<'_>, path: &str, links: &[LinkSpec]) -> Res<LinkEvent> {
        let t = self.table(
            v,
            path,
            &["at", "link", "direction", "bandwidth", "down", "up"],
            "a table ([[events]])",
        )?;
        let at = self.duration(
            self.required(&t, "at", "when, e.g. at = \"10s\"")?,
            &t.field("at"),
        )?;
        let lv = self.required(
            &t,
            "link",
            "the two nodes of the link, e.g. link = [\"r\", \"p\"]",
        )?;
        let (a, b) = self.node_pair(lv, &t.field("link"))?;
        let Some(link) = links
            .iter()
            .position(|l| (l.a, l.b) == (a, b) || (l.a, l.b) == (b, a))
        else {
            let of_a: Vec<&str> = links
                .iter()
                .filter_map(|l| {
                    if l.a == a {
                        Some(l.b)
                    } else if l.b == a {
                        Some(l.a)
                    } else {
                        None
                    }
                })
                .map(|n| self.nodes[n].name.as_str())
                .collect();
            return Err(self.ctx.err(
                lv.span(),
                &t.field("link"),
                format!(
                    "no link between {:?} and {:?} (links of {}: to {})",
                    self.nodes[a].name,
                    self.nodes[b].name,
                    self.nodes[a].name,
                    name_list(of_a)
                ),
            ));
        };
        let direction = match t.get("direction") {
            Some(d) => {
                match self.choice(d, &t.field("direction"), &["both", "forward", "reverse"])? {
                    "forward" => LinkDirection::AtoB,
                    "reverse" => LinkDirection::BtoA,
                    _ => LinkDirection::Both,
                }
            }
            None => LinkDirection::Both,
        };
        let given: Vec<&str> = ["bandwidth", "down", "up"]
            .into_iter()
            .filter(|k| t.get(k).is_some())
            .collect();
        let change = match given.as_slice() {
            [] => return Err(self.ctx.err(
                t.span.clone(),
                path,
                "missing the change: give one of bandwidth = \"5Mbps\", down = true or up = true",
            )),
            [key] => match *key {
                "bandwidth" => LinkChange::Bandwidth(
                    self.bandwidth(t.get("bandwidth").unwrap_or(lv), &t.field("bandwidth"))?,
                ),
                key => {
                    let flag = t.get(key).unwrap_or(lv);
                    if !self.boolean(flag, &t.field(key))? {
                        let other = if key == "down" { "up" } else { "down" };
                        return Err(self.ctx.err(
                            flag.span(),
                            &t.field(key),
                            format!("{key} = false does nothing; write {other} = true instead"),
                        ));
                    }
                    if key == "down" {
                        LinkChange::Down
                    } else {
                        LinkChange::Up
                    }
                }
            },
            [_, second, ..] => {
                return Err(self.ctx.err(
                    t.key_span(second),
                    &t.field(second),
                    format!(
                        "an event makes one change; give only one of {}",
                        given.join(", ")
                    ),
                ))
            }
        };
        Ok(LinkEvent {
            at,
            link,
            direction,
            change,
        })
    }

    // ---------------------------------------------------------------- the document

    fn read_topology(&self, root: &Tbl<'_, '_>) -> Res<Option<(Topology, String)>> {
        let Some(tv) = root.get("topology") else {
            return Ok(None);
        };
        let t = self.table(
            tv,
            "topology",
            &["ndnsim"],
            "a table such as [topology] ndnsim = \"topo.txt\"",
        )?;
        let fv = self.required(&t, "ndnsim", "path of an ndnSIM annotated topology file")?;
        let file = self.string(fv, "topology.ndnsim", "a file path string")?;
        let path: PathBuf = match self.base_dir {
            Some(dir) => dir.join(file),
            None => PathBuf::from(file),
        };
        let text = std::fs::read_to_string(&path).map_err(|e| {
            self.ctx.err(
                fv.span(),
                "topology.ndnsim",
                format!(
                    "cannot read ndnSIM topology {file:?} (looked at {}): {e}",
                    path.display()
                ),
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
            &["duration", "seed", "bin", "routing"],
            "a table ([simulation])",
        )?;
        let duration = self.positive_duration(
            self.required(
                &sim,
                "duration",
                "how long to simulate, e.g. duration = \"30s\"",
            )?,
            "simulation.duration",
        )?;
        let seed = sim
            .get("seed")
            .map(|s| self.uint(s, "simulation.seed"))
            .transpose()?
            .unwrap_or(1);
        let bin = match sim.get("bin") {
            Some(b) => self.positive_duration(b, "simulation.bin")?,
            None => Time::from_millis(100),
        };
        let routing = match sim.get("routing") {
            Some(r) => {
                match self.choice(r, "simulation.routing", &["hop-count", "delay", "none"])? {
                    "delay" => RoutingMetric::Delay,
                    "none" => RoutingMetric::None,
                    _ => RoutingMetric::HopCount,
                }
            }
            None => RoutingMetric::HopCount,
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
                    format!(
                        "expected a table of node = {{ ... }} ([nodes]), found {}",
                        found(nv.get_ref())
                    ),
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
                let mut node = self.nodes[id].clone();
                self.node_attributes(v, &path, &mut node)?;
                self.nodes[id] = node;
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
                        self.nodes[a].name, self.nodes[b].name, prev.described
                    ),
                ));
            }
            let line = self.ctx.line_col(between_span.start).0;
            origins.insert(
                key,
                LinkOrigin {
                    described: format!("{path} at line {line}"),
                },
            );
            links.push(spec);
        }

        let mut producers = Vec::new();
        for (i, v) in self.sections(&root, "producers")?.into_iter().enumerate() {
            producers.push(self.producer(v, &format!("producers[{i}]"))?);
        }
        let mut consumers = Vec::new();
        for (i, v) in self.sections(&root, "consumers")?.into_iter().enumerate() {
            consumers.push(self.consumer(v, &format!("consumers[{i}]"), &producers)?);
        }
        let mut routes = Vec::new();
        for (i, v) in self.sections(&root, "routes")?.into_iter().enumerate() {
            routes.push(self.route(v, &format!("routes[{i}]"), &origins)?);
        }
        let mut events = Vec::new();
        for (i, v) in self.sections(&root, "events")?.into_iter().enumerate() {
            events.push(self.event(v, &format!("events[{i}]"), &links)?);
        }

        Ok(Scenario {
            duration,
            seed,
            bin,
            routing,
            nodes: self.nodes,
            links,
            producers,
            consumers,
            routes,
            events,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_and_column_count_characters() {
        let ctx = Ctx {
            text: "ab\nµx = 1\n",
            source: "s",
        };
        assert_eq!(ctx.line_col(0), (1, 1));
        assert_eq!(ctx.line_col(3), (2, 1));
        assert_eq!(ctx.line_col(5), (2, 2)); // after the 2-byte 'µ'
        assert_eq!(ctx.line_col(4), (2, 1)); // inside 'µ': floored to its start
        assert_eq!(ctx.line_col(999), (3, 1));
    }

    #[test]
    fn display_leaves_out_unknown_parts() {
        let mut e = ScenarioError::new("a.toml", "boom");
        assert_eq!(e.to_string(), "a.toml: boom");
        e.line = Some(3);
        assert_eq!(e.to_string(), "a.toml:3: boom");
        e.column = Some(7);
        e.field = Some("links[0].delay".into());
        assert_eq!(e.to_string(), "a.toml:3:7: links[0].delay: boom");
    }

    #[test]
    fn suggestions() {
        assert_eq!(
            did_you_mean("bandwdith", &["between", "bandwidth", "delay"]),
            Some("bandwidth")
        );
        assert_eq!(did_you_mean("simulaton", TOP_KEYS), Some("simulation"));
        assert_eq!(did_you_mean("zzz", &["between", "bandwidth"]), None);
        assert_eq!(did_you_mean("LRU", &["lru", "fifo", "off"]), Some("lru"));
    }
}
