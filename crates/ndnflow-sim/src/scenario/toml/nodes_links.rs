//! The section readers for nodes and links: a node's `[nodes]` attributes (Content Store,
//! strategies), `[[links]]` entries with their queue, loss and per-direction parameters, and the
//! links of an imported ndnSIM topology.

use std::ops::Range;

use ndnflow_core::fw::ext::{DpccpConfig, InvalidTag, PathHash, SmicConfig};
use ndnflow_core::link::ShaperDrop;
use ndnflow_core::table::SimulatedCacheConfig;
use ndnflow_core::{Name, Time};
use rustc_hash::FxHashMap;
use toml::de::DeValue;

use super::error::{found, ScenarioError};
use super::values::Tbl;
use super::{LinkOrigin, Reader, Res, Val};
use crate::scenario::model::*;
use crate::scenario::ndnsim::Topology;

/// The per-direction parameters of a `[[links]]` entry or its `forward` / `reverse` table.
#[derive(Default)]
struct DirParams {
    bandwidth: Option<u64>,
    delay: Option<Time>,
    queue: Option<QueueSpec>,
    loss: Option<LossSpec>,
    underlay: Option<Vec<UnderlayHop>>,
    loss_detection: Option<LossDetection>,
    /// `Some(None)`: `shaper = false`, no shaper even if the link sets one.
    shaper: Option<Option<ShaperSpec>>,
    mtu: Option<u32>,
    /// `Some(None)`: `marking = "none"`, no marker even if the link sets one.
    marking: Option<Option<NfdMarkSpec>>,
}

/// The fields a link and its `forward` / `reverse` tables may set per direction.
const DIR_FIELDS: [&str; 9] =
    ["bandwidth", "delay", "queue", "loss", "underlay", "loss_detection", "shaper", "mtu", "marking"];

impl Reader<'_, '_> {
    pub(super) fn node_attributes(&self, v: &Val<'_>, path: &str, node: &mut ForwarderConfig) -> Res<()> {
        let t = self.table(
            v,
            path,
            &[
                "cs",
                "strategy",
                "strategies",
                "interest_marks",
                "route_labels",
                "straggler",
                "ptp",
                "fab",
                "invalid_tag",
                "dpccp",
                "mircc",
                "smic",
                "simulated_cache",
            ],
            "a table such as {} or { cs = { policy = \"lru\", capacity = 1000 } }",
        )?;
        if let Some(cs) = t.get("cs") {
            self.content_store(cs, &t.field("cs"), node)?;
        }
        if let Some(s) = t.get("strategy") {
            node.default_strategy = self.strategy(s, &t.field("strategy"))?;
        }
        if let Some(m) = t.get("interest_marks") {
            node.interest_marks = match self.choice(m, &t.field("interest_marks"), &["pit", "ignore"])? {
                "ignore" => InterestMarks::Ignore,
                _ => InterestMarks::Pit,
            };
        }
        if let Some(r) = t.get("route_labels") {
            node.route_labels = self.boolean(r, &t.field("route_labels"))?;
        }
        if let Some(s) = t.get("straggler") {
            node.straggler = self.duration(s, &t.field("straggler"))?;
        }
        if let Some(p) = t.get("ptp") {
            node.ptp = self.boolean(p, &t.field("ptp"))?;
        }
        if let Some(f) = t.get("fab") {
            node.fab_capacity = self.uint(f, &t.field("fab"))?.try_into().unwrap_or(usize::MAX);
        }
        if let Some(v) = t.get("invalid_tag") {
            node.invalid_tag = match self.choice(v, &t.field("invalid_tag"), &["nack", "forward"])? {
                "forward" => InvalidTag::Forward,
                _ => InvalidTag::Nack,
            };
        }
        if let Some(d) = t.get("dpccp") {
            node.dpccp = self.dpccp(d, &t.field("dpccp"))?;
        }
        if let Some(m) = t.get("mircc") {
            node.mircc = self.boolean(m, &t.field("mircc"))?;
        }
        if let Some(v) = t.get("smic") {
            node.smic = self.smic(v, &t.field("smic"))?;
        }
        if let Some(c) = t.get("simulated_cache") {
            node.simulated_cache = Some(self.simulated_cache(c, &t.field("simulated_cache"))?);
        }
        if let Some(s) = t.get("strategies") {
            let path = t.field("strategies");
            let DeValue::Table(map) = s.get_ref() else {
                return Err(self.ctx.err(
                    s.span(),
                    &path,
                    format!(
                        "expected a table of prefix = strategy, such as {{ \"/video\" = \"multicast\" }}, found {}",
                        found(s.get_ref())
                    ),
                ));
            };
            let mut entries: Vec<_> = map.iter().collect();
            entries.sort_by_key(|(k, _)| k.span().start);
            for (k, v) in entries {
                let field = format!("{path}.\"{}\"", k.get_ref());
                let prefix = Name::parse(k.get_ref()).map_err(|e| self.ctx.err(k.span(), &field, e.to_string()))?;
                if prefix.is_empty() {
                    return Err(self.ctx.err(
                        k.span(),
                        &field,
                        "set the strategy of \"/\" with the node's `strategy` field",
                    ));
                }
                if node.strategy_choices.iter().any(|(p, _)| *p == prefix) {
                    return Err(self.ctx.err(k.span(), &field, format!("prefix {prefix} is given twice")));
                }
                let kind = self.strategy(v, &field)?;
                node.strategy_choices.push((prefix, kind));
            }
        }
        Ok(())
    }

    /// `dpccp = true`, or `dpccp = { label_lifetime = "200ms" }` (DPCCP's router side).
    fn dpccp(&self, v: &Val<'_>, path: &str) -> Res<Option<DpccpConfig>> {
        if let DeValue::Boolean(on) = v.get_ref() {
            return Ok(on.then(DpccpConfig::default));
        }
        let what = "true, false or a table such as { label_lifetime = \"200ms\" }";
        let t = self.table(v, path, &["label_lifetime"], what)?;
        let mut config = DpccpConfig::default();
        if let Some(l) = t.get("label_lifetime") {
            config.label_lifetime = self.positive_duration(l, &t.field("label_lifetime"))?;
        }
        Ok(Some(config))
    }

    /// `smic = true`, or `smic = { hash = "salted" }` (SMIC's router side).
    fn smic(&self, v: &Val<'_>, path: &str) -> Res<Option<SmicConfig>> {
        if let DeValue::Boolean(on) = v.get_ref() {
            return Ok(on.then(SmicConfig::default));
        }
        let t = self.table(v, path, &["hash"], "true, false or a table such as { hash = \"salted\" }")?;
        let mut config = SmicConfig::default();
        if let Some(h) = t.get("hash") {
            config.hash = match self.choice(h, &t.field("hash"), &["paper", "salted"])? {
                "salted" => PathHash::Salted,
                _ => PathHash::Paper,
            };
        }
        Ok(Some(config))
    }

    /// `simulated_cache = { prefix = "/data", payload = 1024, hit = 0.4 }`, or with
    /// `schedule = [{ at = "0s", hit = 0.0 }, { at = "50s", hit = 0.95 }, ...]` in place of `hit`
    /// (DPCCP §VII-A).
    fn simulated_cache(&self, v: &Val<'_>, path: &str) -> Res<SimulatedCacheConfig> {
        let what = "a table such as { prefix = \"/data\", hit = 0.4 }";
        let t = self.table(v, path, &["prefix", "payload", "hit", "schedule"], what)?;
        let prefix = self.name(self.required(&t, "prefix", "the names it answers")?, &t.field("prefix"))?;
        let payload = match t.get("payload") {
            Some(p) => self.payload(p, &t.field("payload"))?,
            None => 1024,
        };
        let schedule = match (t.get("hit"), t.get("schedule")) {
            (Some(h), None) => vec![(Time::ZERO, self.probability(h, &t.field("hit"))?)],
            (None, Some(s)) => self.hit_schedule(s, &t.field("schedule"))?,
            (Some(_), Some(s)) => {
                let msg = "give either hit (a fixed probability) or schedule, not both";
                return Err(self.ctx.err(s.span(), &t.field("schedule"), msg));
            }
            (None, None) => {
                let msg = "missing the hit probability: hit = 0.4, or schedule = [{ at = \"0s\", hit = 0.4 }, ...]";
                return Err(self.ctx.err(t.span.clone(), &t.field("hit"), msg));
            }
        };
        Ok(SimulatedCacheConfig { prefix, payload, schedule })
    }

    /// `[{ at = "0s", hit = 0.0 }, { at = "50s", hit = 0.95 }, ...]`: not empty, strictly
    /// increasing in `at`, each `hit` in [0, 1].
    fn hit_schedule(&self, v: &Val<'_>, field: &str) -> Res<Vec<(Time, f64)>> {
        let items = self.array(v, field, "an array of { at, hit } tables")?;
        if items.is_empty() {
            return Err(self.ctx.err(v.span(), field, "must name at least one { at, hit }"));
        }
        let mut schedule: Vec<(Time, f64)> = Vec::new();
        for (i, item) in items.iter().enumerate() {
            let path = format!("{field}[{i}]");
            let t = self.table(item, &path, &["at", "hit"], "a table { at = \"50s\", hit = 0.95 }")?;
            let at_v = self.required(&t, "at", "from when it holds, e.g. at = \"50s\"")?;
            let at = self.duration(at_v, &t.field("at"))?;
            let hit = self.probability(self.required(&t, "hit", "the hit probability")?, &t.field("hit"))?;
            if schedule.last().is_some_and(|&(last, _)| at <= last) {
                return Err(self.ctx.err(at_v.span(), &t.field("at"), "times must be in increasing order"));
            }
            schedule.push((at, hit));
        }
        Ok(schedule)
    }

    // ---------------------------------------------------------------- links

    fn loss(&self, v: &Val<'_>, path: &str) -> Res<LossSpec> {
        let t = self.table(
            v,
            path,
            &["model", "p", "r", "loss_good", "loss_bad"],
            "a table such as { model = \"bernoulli\", p = 0.01 }",
        )?;
        let m = self.required(&t, "model", "\"bernoulli\", \"gilbert-elliott\" or \"none\"")?;
        let model = self.choice(m, &t.field("model"), &["bernoulli", "gilbert-elliott", "none"])?;
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
            "bernoulli" => LossSpec::Bernoulli { p: prob("p", None)? },
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
            bandwidth: t.get("bandwidth").map(|v| self.bandwidth(v, &t.field("bandwidth"))).transpose()?,
            delay: t.get("delay").map(|v| self.duration(v, &t.field("delay"))).transpose()?,
            queue: t.get("queue").map(|v| self.queue(v, &t.field("queue"))).transpose()?,
            loss: t.get("loss").map(|v| self.loss(v, &t.field("loss"))).transpose()?,
            underlay: t.get("underlay").map(|v| self.underlay(v, &t.field("underlay"))).transpose()?,
            loss_detection: t
                .get("loss_detection")
                .map(|v| {
                    Ok(match self.choice(v, &t.field("loss_detection"), &["none", "overlay", "wireless"])? {
                        "overlay" => LossDetection::Overlay,
                        "wireless" => LossDetection::Wireless,
                        _ => LossDetection::None,
                    })
                })
                .transpose()?,
            shaper: t.get("shaper").map(|v| self.shaper(v, &t.field("shaper"))).transpose()?,
            mtu: t.get("mtu").map(|v| self.mtu(v, &t.field("mtu"))).transpose()?,
            marking: t.get("marking").map(|v| self.marking(v, &t.field("marking"))).transpose()?,
        })
    }

    /// `mtu = 1500`: bytes, at least NFD's smallest face MTU (64).
    fn mtu(&self, v: &Val<'_>, field: &str) -> Res<u32> {
        let n = self.positive_uint(v, field)?;
        let min = ndnflow_core::link::frag::MIN_MTU;
        match u32::try_from(n) {
            Ok(m) if m >= min => Ok(m),
            _ => Err(self.ctx.err(
                v.span(),
                field,
                format!("the MTU must be between {min} (NFD's smallest face MTU) and {} bytes, found {n}", u32::MAX),
            )),
        }
    }

    /// `shaper = { capacity = "10Mbps", headroom = 0.98, limit = 100, target = "5ms",
    /// interval = "100ms" }` (every field optional), `shaper = true` (all defaults) or
    /// `shaper = false` (none: exempts a direction from the link's shaper).
    fn shaper(&self, v: &Val<'_>, path: &str) -> Res<Option<ShaperSpec>> {
        const WHAT: &str =
            "a table such as { capacity = \"10Mbps\" }, or true (a shaper with the defaults) or false (none)";
        if let DeValue::Boolean(on) = v.get_ref() {
            return Ok(on.then(ShaperSpec::default));
        }
        let t = self.table(v, path, &["capacity", "headroom", "limit", "target", "interval", "flows", "drop"], WHAT)?;
        let mut s = ShaperSpec::default();
        if let Some(x) = t.get("capacity") {
            s.capacity_bps = Some(self.bandwidth(x, &t.field("capacity"))?);
        }
        if let Some(x) = t.get("headroom") {
            let h = self.number(x, &t.field("headroom"))?;
            if !(h > 0.0 && h <= 1.0) {
                return Err(self.ctx.err(
                    x.span(),
                    &t.field("headroom"),
                    format!(
                        "must be greater than 0 and at most 1 (the share of the capacity the shaper fills), found {h}"
                    ),
                ));
            }
            s.headroom = h;
        }
        if let Some(x) = t.get("limit") {
            let n = self.positive_uint(x, &t.field("limit"))?;
            s.limit = usize::try_from(n).map_err(|_| self.ctx.err(x.span(), &t.field("limit"), "too large"))?;
        }
        if let Some(x) = t.get("target") {
            s.target = self.positive_duration(x, &t.field("target"))?;
        }
        if let Some(x) = t.get("interval") {
            s.interval = self.positive_duration(x, &t.field("interval"))?;
        }
        // CHoPCoP's per-flow fair share: a flow is this many leading name components.
        if let Some(x) = t.get("flows") {
            let n = self.positive_uint(x, &t.field("flows"))?;
            s.flow_components =
                Some(usize::try_from(n).map_err(|_| self.ctx.err(x.span(), &t.field("flows"), "too large"))?);
        }
        // What the queue drops by: CoDel (Wang et al., PCON §4.6) or its limit alone (FISP).
        if let Some(x) = t.get("drop") {
            s.drop = Some(match self.choice(x, &t.field("drop"), &["codel", "tail"])? {
                "codel" => ShaperDrop::Codel,
                _ => ShaperDrop::Tail,
            });
        }
        Ok(Some(s))
    }

    /// `underlay = [{ bandwidth = "10Mbps", delay = "5ms", queue = { ... } }, ...]`: the IP hops
    /// the link tunnels through, from the sending end on.
    fn underlay(&self, v: &Val<'_>, field: &str) -> Res<Vec<UnderlayHop>> {
        const WHAT: &str = "an array of hops such as [{ bandwidth = \"10Mbps\", delay = \"5ms\" }]";
        let items = self.array(v, field, WHAT)?;
        items
            .iter()
            .enumerate()
            .map(|(i, item)| {
                let path = format!("{field}[{i}]");
                let t = self.table(item, &path, &["bandwidth", "delay", "queue"], WHAT)?;
                let b = self.required(&t, "bandwidth", "the hop's bandwidth, e.g. \"10Mbps\"")?;
                let d = self.required(&t, "delay", "the hop's one-way delay, e.g. \"5ms\"")?;
                Ok(UnderlayHop {
                    bandwidth_bps: self.bandwidth(b, &t.field("bandwidth"))?,
                    delay: self.duration(d, &t.field("delay"))?,
                    queue: t.get("queue").map(|q| self.queue(q, &t.field("queue"))).transpose()?.unwrap_or_default(),
                })
            })
            .collect()
    }

    /// A `[[links]]` entry: (a, b, spec, span of `between`).
    pub(super) fn link(&self, v: &Val<'_>, path: &str) -> Res<(NodeId, NodeId, LinkSpec, Range<usize>)> {
        let t = self.table(
            v,
            path,
            &[
                "between",
                "bandwidth",
                "delay",
                "queue",
                "loss",
                "underlay",
                "loss_detection",
                "shaper",
                "mtu",
                "marking",
                "metric",
                "forward",
                "reverse",
            ],
            "a table ([[links]])",
        )?;
        let bv = self.required(&t, "between", "the two node names, e.g. between = [\"a\", \"b\"]")?;
        let field = t.field("between");
        let (a, b) = self.node_pair(bv, &field)?;
        if a == b {
            return Err(self.ctx.err(bv.span(), &field, format!("link from {:?} to itself", self.nodes[a].name)));
        }
        let base = self.dir_params(&t)?;
        let mut dirs = [DirParams::default(), DirParams::default()];
        for (i, key) in ["forward", "reverse"].into_iter().enumerate() {
            if let Some(dv) = t.get(key) {
                let dt = self.table(dv, &t.field(key), &DIR_FIELDS, "a table such as { bandwidth = \"1Mbps\" }")?;
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
            let dir = LinkDirSpec {
                bandwidth_bps: d.bandwidth.or(base.bandwidth).ok_or_else(|| missing("bandwidth", "10Mbps"))?,
                delay: d.delay.or(base.delay).ok_or_else(|| missing("delay", "5ms"))?,
                queue: d.queue.or(base.queue).unwrap_or_default(),
                loss: d.loss.or(base.loss).unwrap_or_default(),
                underlay: d.underlay.or_else(|| base.underlay.clone()).unwrap_or_default(),
                loss_detection: d.loss_detection.or(base.loss_detection).unwrap_or_default(),
                shaper: d.shaper.or(base.shaper).flatten(),
                mtu: d.mtu.or(base.mtu),
                marking: d.marking.or(base.marking).flatten(),
            };
            // Fragments are tracked on one direction's queue and wire; an underlay would carry
            // them through further queues, and loss detection reports whole frames.
            if dir.mtu.is_some() && (!dir.underlay.is_empty() || dir.loss_detection != LossDetection::None) {
                return Err(self.ctx.err(
                    t.span.clone(),
                    &t.field("mtu"),
                    "mtu (NDNLPv2 fragmentation) cannot be combined with underlay or loss_detection on the same direction",
                ));
            }
            // A MIRCC queue stamps whole Data as they leave; on a direction with an MTU it would
            // hold fragments, whose sizes were fixed before the stamp.
            if dir.mtu.is_some() && matches!(dir.queue, QueueSpec::Mircc { .. }) {
                return Err(self.ctx.err(
                    t.span.clone(),
                    &t.field("mtu"),
                    "mtu (NDNLPv2 fragmentation) cannot be combined with queue discipline \"mircc\" on the same direction",
                ));
            }
            Ok(dir)
        };
        let ab = resolve(fwd)?;
        let ba = resolve(rev)?;
        let metric = match t.get("metric") {
            Some(m) => self.positive_uint(m, &t.field("metric"))?,
            None => 1,
        };
        Ok((a, b, LinkSpec { a, b, ab, ba, metric }, bv.span()))
    }

    /// `["a", "b"]` as two node ids.
    pub(super) fn node_pair(&self, v: &Val<'_>, field: &str) -> Res<(NodeId, NodeId)> {
        const WHAT: &str = "two node names, e.g. [\"a\", \"b\"]";
        let items = self.array(v, field, WHAT)?;
        if items.len() != 2 {
            return Err(self.ctx.err(v.span(), field, format!("expected {WHAT}, found {} element(s)", items.len())));
        }
        Ok((self.node_ref(&items[0], field)?, self.node_ref(&items[1], field)?))
    }

    pub(super) fn topology_links(
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
                    .map_or_else(QueueSpec::default, |n| QueueSpec::DropTail { limit: QueueLimit::Packets(n) }),
                loss: l.loss_rate.map_or(LossSpec::None, |p| LossSpec::Bernoulli { p }),
                underlay: Vec::new(),
                loss_detection: LossDetection::None,
                shaper: None,
                mtu: None,
                marking: None,
            };
            origins.insert((a.min(b), a.max(b)), LinkOrigin::Topology(format!("{topo_source} line {}", l.line)));
            links.push(LinkSpec { a, b, ab: dir.clone(), ba: dir, metric: l.metric.unwrap_or(1) });
        }
        Ok(())
    }
}
