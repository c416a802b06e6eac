//! The section readers for applications, routes and events: `[[producers]]`, `[[consumers]]`
//! (with their retransmission timer; their congestion control is read by `cc`), static `[[routes]]`
//! and the link changes of `[[events]]`.

use ndnflow_core::app::{Batch, Batches, CatalogConfig, InFlightRule, TimerModel};
use ndnflow_core::Time;
use rustc_hash::FxHashMap;

use super::error::name_list;
use super::values::Tbl;
use super::{LinkOrigin, Reader, Res, Val};
use crate::scenario::model::*;
use crate::scenario::units::parse_duration;

/// Largest Data payload: 64 KiB, far above NDN's 8800-byte packet limit and the papers' largest
/// (5 KB, PCON §4.3), and what simulated payloads can borrow without allocating.
const MAX_PAYLOAD: usize = 65_536;

/// Most objects in a catalog: its cumulative table is 8 bytes an object (80 MB at this bound), a
/// thousand times the SMIC paper's 10,000.
const MAX_CATALOG: u64 = 10_000_000;

/// The keys of a `[[consumers]]` entry besides `node`.
const CONSUMER_KEYS: &[&str] = &[
    "name",
    "start",
    "stop",
    "segments",
    "lifetime",
    "max_retries",
    "rto",
    "cc",
    "in_flight",
    "send_jitter",
    "catalog",
    "batches",
];

impl Reader<'_, '_> {
    // ---------------------------------------------------------------- apps, routes, events

    pub(super) fn producer(&self, v: &Val<'_>, path: &str) -> Res<ProducerSpec> {
        let t = self.table(
            v,
            path,
            &["node", "prefix", "payload", "payload_changes", "segments", "freshness"],
            "a table ([[producers]])",
        )?;
        let node = self.node_ref(self.required(&t, "node", "the node the producer runs on")?, &t.field("node"))?;
        let pv = self.required(&t, "prefix", "the name prefix it serves, e.g. prefix = \"/video\"")?;
        let prefix = self.name(pv, &t.field("prefix"))?;
        let payload = match t.get("payload") {
            Some(p) => self.payload(p, &t.field("payload"))?,
            None => 1024,
        };
        let payload_changes = match t.get("payload_changes") {
            Some(c) => self.payload_changes(c, &t.field("payload_changes"))?,
            None => Vec::new(),
        };
        let segments = t.get("segments").map(|s| self.positive_uint(s, &t.field("segments"))).transpose()?;
        let freshness = t.get("freshness").map(|f| self.duration(f, &t.field("freshness"))).transpose()?;
        Ok(ProducerSpec { node, prefix, payload, payload_changes, segments, freshness })
    }

    /// A payload size, at most `MAX_PAYLOAD`.
    pub(super) fn payload(&self, v: &Val<'_>, field: &str) -> Res<usize> {
        let bytes = self.size(v, field)?;
        if bytes > MAX_PAYLOAD {
            let msg = format!("{bytes} bytes is more than the {MAX_PAYLOAD}-byte maximum payload");
            return Err(self.ctx.err(v.span(), field, msg));
        }
        Ok(bytes)
    }

    /// `payload_changes = [{ at = "5s", payload = 5000 }, ...]`, strictly increasing in `at`.
    fn payload_changes(&self, v: &Val<'_>, field: &str) -> Res<Vec<(Time, usize)>> {
        let what = "an array of { at, payload } tables";
        let mut changes: Vec<(Time, usize)> = Vec::new();
        for (i, item) in self.array(v, field, what)?.iter().enumerate() {
            let path = format!("{field}[{i}]");
            let t = self.table(item, &path, &["at", "payload"], "a table { at = ..., payload = ... }")?;
            let at_v = self.required(&t, "at", "when the payload changes, e.g. at = \"5s\"")?;
            let at = self.duration(at_v, &t.field("at"))?;
            let payload =
                self.payload(self.required(&t, "payload", "the new payload in bytes")?, &t.field("payload"))?;
            if let Some(&(last, _)) = changes.last() {
                if at <= last {
                    let msg = "changes must be in increasing time order";
                    return Err(self.ctx.err(at_v.span(), &t.field("at"), msg));
                }
            }
            changes.push((at, payload));
        }
        Ok(changes)
    }

    pub(super) fn consumer(&self, v: &Val<'_>, path: &str, producers: &[ProducerSpec]) -> Res<ConsumerSpec> {
        let mut keys = vec!["node"];
        keys.extend_from_slice(CONSUMER_KEYS);
        let t = self.table(v, path, &keys, "a table ([[consumers]])")?;
        let node = self.node_ref(self.required(&t, "node", "the node the consumer runs on")?, &t.field("node"))?;
        let nv = self.required(&t, "name", "the object to fetch, e.g. name = \"/video/a\"")?;
        let name = self.name(nv, &t.field("name"))?;
        if !producers.iter().any(|p| p.prefix.is_prefix_of(&name)) {
            let msg = if producers.is_empty() {
                format!("no producer serves {name}: there are no [[producers]]")
            } else {
                let prefixes: Vec<String> = producers.iter().map(|p| p.prefix.to_string()).collect();
                format!(
                    "no producer serves {name} (producer prefixes: {})",
                    name_list(prefixes.iter().map(String::as_str))
                )
            };
            return Err(self.ctx.err(nv.span(), &t.field("name"), msg));
        }
        self.consumer_settings(&t, node, name)
    }

    /// A consumer table without `node`, whose `name` no producer of the document need serve: what
    /// `ndnflow get` (ndnflow-net) builds from its options. `node` in the result is 0.
    pub(super) fn app_consumer(&self, v: &Val<'_>, path: &str) -> Res<ConsumerSpec> {
        let t = self.table(v, path, CONSUMER_KEYS, "a consumer table")?;
        let nv = self.required(&t, "name", "the object to fetch, e.g. name = \"/video/a\"")?;
        let name = self.name(nv, &t.field("name"))?;
        self.consumer_settings(&t, 0, name)
    }

    /// The keys of a consumer table after `node` and `name`.
    fn consumer_settings(&self, t: &Tbl<'_, '_>, node: NodeId, name: ndnflow_core::Name) -> Res<ConsumerSpec> {
        let start = t.get("start").map(|s| self.duration(s, &t.field("start"))).transpose()?.unwrap_or(Time::ZERO);
        let stop = match t.get("stop") {
            Some(s) => {
                let stop = self.duration(s, &t.field("stop"))?;
                if stop <= start {
                    return Err(self.ctx.err(
                        s.span(),
                        &t.field("stop"),
                        format!(
                            "stop ({}) must be after start ({})",
                            crate::scenario::units::format_duration(stop),
                            crate::scenario::units::format_duration(start)
                        ),
                    ));
                }
                Some(stop)
            }
            None => None,
        };
        let mut segments = t.get("segments").map(|s| self.positive_uint(s, &t.field("segments"))).transpose()?;
        let lifetime = match t.get("lifetime") {
            Some(l) => self.positive_duration(l, &t.field("lifetime"))?,
            None => Time::from_secs(2),
        };
        let max_retries = t.get("max_retries").map(|m| self.u32_value(m, &t.field("max_retries"), 0)).transpose()?;
        let mut rto = RttOptions::default();
        if let Some(r) = t.get("rto") {
            let rt = self.table(
                r,
                &t.field("rto"),
                &["initial", "min", "max", "timer", "check", "max_multiplier"],
                "a table such as { initial = \"1s\", min = \"200ms\", max = \"60s\" }",
            )?;
            for (key, slot) in [("initial", &mut rto.initial_rto), ("min", &mut rto.min_rto), ("max", &mut rto.max_rto)]
            {
                if let Some(x) = rt.get(key) {
                    *slot = self.positive_duration(x, &rt.field(key))?;
                }
            }
            rto.timer = self.rto_timer(&rt)?;
            if rto.min_rto > rto.max_rto {
                let (key, span) = rt.crossing(["min", "max"]);
                return Err(self.ctx.err(
                    span,
                    &rt.field(key),
                    format!(
                        "min ({}) must not exceed max ({})",
                        crate::scenario::units::format_duration(rto.min_rto),
                        crate::scenario::units::format_duration(rto.max_rto)
                    ),
                ));
            }
        }
        let cv = self.required(t, "cc", "e.g. cc = { algorithm = \"fixed-window\", window = 10 }")?;
        let cc = self.cc(cv, &t.field("cc"))?;
        let in_flight = match t.get("in_flight") {
            Some(x) => match self.choice(x, &t.field("in_flight"), &["outstanding", "consumer-cc"])? {
                "consumer-cc" => InFlightRule::ConsumerCc,
                _ => InFlightRule::Outstanding,
            },
            None => InFlightRule::Outstanding,
        };
        let send_jitter = t.get("send_jitter").map(|j| self.duration(j, &t.field("send_jitter"))).transpose()?;
        let send_jitter = send_jitter.unwrap_or(Time::ZERO);
        let catalog = t.get("catalog").map(|c| self.catalog(c, &t.field("catalog"))).transpose()?;
        if let (Some(_), None) = (&catalog, segments) {
            let msg = "a catalog needs segments, the number of segments of every object (e.g. segments = 10083)";
            return Err(self.ctx.err(t.key_span("catalog"), &t.field("segments"), msg));
        }
        let batches = t.get("batches").map(|b| self.batches(b, &t.field("batches"))).transpose()?;
        if let Some(b) = &batches {
            // The batches give the object's length; a second count could only disagree.
            let clash = [("segments", segments.is_some()), ("catalog", catalog.is_some())].into_iter().find(|c| c.1);
            if let Some((key, _)) = clash {
                let msg = format!("batches and {key} do not go together: the batches ask for {} segments", b.total());
                return Err(self.ctx.err(t.key_span(key), &t.field(key), msg));
            }
            segments = Some(b.total());
        }
        #[rustfmt::skip]
        let spec = ConsumerSpec {
            node, name, start, stop, segments, cc, lifetime, rto, max_retries, in_flight, send_jitter, catalog,
            batches,
        };
        Ok(spec)
    }

    /// `batches = "1s 1 2s 5 10s 2"`: ndnSIM ConsumerBatches' `Batches`, pairs of a time after the
    /// consumer's start and a number of segments (`app::batches`).
    fn batches(&self, v: &Val<'_>, field: &str) -> Res<Batches> {
        let text = self.string(v, field, "batches as ndnSIM writes them, e.g. \"1s 1 2s 5 10s 2\"")?;
        let words: Vec<&str> = text.split_whitespace().collect();
        let err = |msg: String| self.ctx.err(v.span(), field, msg);
        if words.is_empty() || !words.len().is_multiple_of(2) {
            let msg = format!("{text:?}: expected pairs of a time and a number of segments, e.g. \"1s 1 2s 5\"");
            return Err(err(msg));
        }
        let mut batches = Vec::with_capacity(words.len() / 2);
        for pair in words.chunks(2) {
            let at = parse_duration(pair[0]).map_err(|m| err(format!("batch time {:?}: {m}", pair[0])))?;
            let count = match pair[1].parse::<u64>() {
                Ok(n) if n > 0 => n,
                _ => {
                    return Err(err(format!(
                        "batch at {}: {:?} is not a number of segments (1 or more)",
                        pair[0], pair[1]
                    )))
                }
            };
            batches.push(Batch { at, count });
        }
        let total = batches.iter().try_fold(0u64, |sum, b| sum.checked_add(b.count));
        if total.is_none() {
            return Err(err(format!("{text:?}: more segments than a consumer can count")));
        }
        Ok(Batches::new(batches))
    }

    /// `catalog = { objects = 10000, alpha = 1.0, q = 0.0 }`: ndnSIM ConsumerZipfMandelbrot's
    /// NumberOfContents, s and q. Defaults are ndnSIM's, except q, whose default is 0 (plain Zipf,
    /// as the SMIC paper states its workload) where ndnSIM's is 0.7.
    fn catalog(&self, v: &Val<'_>, field: &str) -> Res<CatalogConfig> {
        let keys = &["objects", "alpha", "q", "restart", "gap"];
        let t = self.table(v, field, keys, "a table such as { objects = 10000, alpha = 1.0 }")?;
        let objects = match t.get("objects") {
            Some(n) => self.positive_uint(n, &t.field("objects"))?,
            None => 100,
        };
        if objects > MAX_CATALOG {
            let span = t.get("objects").map_or(t.span.clone(), |n| n.span());
            let msg = format!("{objects} objects is more than the {MAX_CATALOG} a consumer's table may hold");
            return Err(self.ctx.err(span, &t.field("objects"), msg));
        }
        let alpha = match t.get("alpha") {
            Some(a) => self.number(a, &t.field("alpha"))?,
            None => 0.7,
        };
        if alpha <= 0.0 {
            let span = t.get("alpha").map_or(t.span.clone(), |a| a.span());
            let msg = format!("alpha (Zipf's s) must be above 0, found {alpha}");
            return Err(self.ctx.err(span, &t.field("alpha"), msg));
        }
        let q = t.get("q").map(|q| self.number(q, &t.field("q"))).transpose()?.unwrap_or(0.0);
        if q < 0.0 {
            let span = t.get("q").map_or(t.span.clone(), |q| q.span());
            return Err(self.ctx.err(span, &t.field("q"), format!("q must not be negative, found {q}")));
        }
        let restart = t.get("restart").map(|x| self.boolean(x, &t.field("restart"))).transpose()?.unwrap_or(false);
        let gap = t.get("gap").map(|x| self.duration(x, &t.field("gap"))).transpose()?.unwrap_or(Time::ZERO);
        Ok(CatalogConfig { objects, alpha, q, restart, gap })
    }

    /// `timer = "per-segment" | "ndnsim"`; `check` and `max_multiplier` only with "ndnsim".
    fn rto_timer(&self, rt: &Tbl<'_, '_>) -> Res<TimerModel> {
        let ndnsim = match rt.get("timer") {
            Some(x) => self.choice(x, &rt.field("timer"), &["per-segment", "ndnsim"])? == "ndnsim",
            None => false,
        };
        let TimerModel::NdnSim { mut check, mut max_multiplier } = TimerModel::NDNSIM_PCON else {
            unreachable!("NDNSIM_PCON is an NdnSim timer")
        };
        for key in ["check", "max_multiplier"] {
            if let Some(x) = rt.get(key) {
                if !ndnsim {
                    return Err(self.ctx.err(x.span(), &rt.field(key), "only with timer = \"ndnsim\""));
                }
            }
        }
        if !ndnsim {
            return Ok(TimerModel::PerSegment);
        }
        if let Some(x) = rt.get("check") {
            check = self.positive_duration(x, &rt.field("check"))?;
        }
        if let Some(x) = rt.get("max_multiplier") {
            max_multiplier = self.u32_value(x, &rt.field("max_multiplier"), 1)?;
        }
        Ok(TimerModel::NdnSim { check, max_multiplier })
    }

    pub(super) fn route(
        &self,
        v: &Val<'_>,
        path: &str,
        adjacent: &FxHashMap<(NodeId, NodeId), LinkOrigin>,
    ) -> Res<RouteSpec> {
        let t = self.table(v, path, &["node", "prefix", "nexthop", "cost"], "a table ([[routes]])")?;
        let node = self.node_ref(self.required(&t, "node", "the node whose FIB gets the route")?, &t.field("node"))?;
        let prefix = self.name(self.required(&t, "prefix", "e.g. prefix = \"/video\"")?, &t.field("prefix"))?;
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
        let cost = t.get("cost").map(|c| self.uint(c, &t.field("cost"))).transpose()?.unwrap_or(1);
        Ok(RouteSpec { node, prefix, nexthop, cost })
    }

    pub(super) fn event(&self, v: &Val<'_>, path: &str, links: &[LinkSpec]) -> Res<LinkEvent> {
        let t = self.table(v, path, &["at", "link", "direction", "bandwidth", "down", "up"], "a table ([[events]])")?;
        let at = self.duration(self.required(&t, "at", "when, e.g. at = \"10s\"")?, &t.field("at"))?;
        let lv = self.required(&t, "link", "the two nodes of the link, e.g. link = [\"r\", \"p\"]")?;
        let (a, b) = self.node_pair(lv, &t.field("link"))?;
        let Some(link) = links.iter().position(|l| (l.a, l.b) == (a, b) || (l.a, l.b) == (b, a)) else {
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
            Some(d) => match self.choice(d, &t.field("direction"), &["both", "forward", "reverse"])? {
                "forward" => LinkDirection::AtoB,
                "reverse" => LinkDirection::BtoA,
                _ => LinkDirection::Both,
            },
            None => LinkDirection::Both,
        };
        let given: Vec<&str> = ["bandwidth", "down", "up"].into_iter().filter(|k| t.get(k).is_some()).collect();
        let change = match given.as_slice() {
            [] => {
                return Err(self.ctx.err(
                    t.span.clone(),
                    path,
                    "missing the change: give one of bandwidth = \"5Mbps\", down = true or up = true",
                ))
            }
            [key] => match *key {
                "bandwidth" => {
                    LinkChange::Bandwidth(self.bandwidth(t.get("bandwidth").unwrap_or(lv), &t.field("bandwidth"))?)
                }
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
                    format!("an event makes one change; give only one of {}", given.join(", ")),
                ))
            }
        };
        Ok(LinkEvent { at, link, direction, change })
    }
}
