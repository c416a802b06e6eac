//! The section readers for applications, routes and events: `[[producers]]`, `[[consumers]]`
//! (with their congestion control and retransmission timer), static `[[routes]]` and the link
//! changes of `[[events]]`.

use ndnflow_core::app::cc::{AimdConfig, BicConfig, CubicConfig, IcpConfig, IcpRto, RaaqmConfig, SignalConfig};
use ndnflow_core::app::{InFlightRule, TimerModel};
use ndnflow_core::Time;
use rustc_hash::FxHashMap;

use super::error::name_list;
use super::multipath::{MPTCP_KEYS, PTP_KEYS};
use super::values::Tbl;
use super::{LinkOrigin, Reader, Res, Val};
use crate::scenario::model::*;

/// Largest Data payload: 64 KiB, far above NDN's 8800-byte packet limit and the papers' largest
/// (5 KB, PCON §4.3), and what simulated payloads can borrow without allocating.
const MAX_PAYLOAD: usize = 65_536;

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
    fn payload(&self, v: &Val<'_>, field: &str) -> Res<usize> {
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
        let t = self.table(
            v,
            path,
            &["node", "name", "start", "stop", "segments", "lifetime", "max_retries", "rto", "cc", "in_flight"],
            "a table ([[consumers]])",
        )?;
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
        let segments = t.get("segments").map(|s| self.positive_uint(s, &t.field("segments"))).transpose()?;
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
                let span = rt.get("min").or(rt.get("max")).map_or(rt.span.clone(), |v| v.span());
                return Err(self.ctx.err(
                    span,
                    &rt.field("min"),
                    format!(
                        "min ({}) must not exceed max ({})",
                        crate::scenario::units::format_duration(rto.min_rto),
                        crate::scenario::units::format_duration(rto.max_rto)
                    ),
                ));
            }
        }
        let cv = self.required(&t, "cc", "e.g. cc = { algorithm = \"fixed-window\", window = 10 }")?;
        let cc = self.cc(cv, &t.field("cc"))?;
        let in_flight = match t.get("in_flight") {
            Some(x) => match self.choice(x, &t.field("in_flight"), &["outstanding", "consumer-cc"])? {
                "consumer-cc" => InFlightRule::ConsumerCc,
                _ => InFlightRule::Outstanding,
            },
            None => InFlightRule::Outstanding,
        };
        Ok(ConsumerSpec { node, name, start, stop, segments, cc, lifetime, rto, max_retries, in_flight })
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

    fn cc(&self, v: &Val<'_>, path: &str) -> Res<CcConfig> {
        const ALGORITHMS: &[&str] =
            &["fixed-window", "constant-rate", "aimd", "bic", "cubic", "pcon", "icp", "raaqm", "ptp", "mptcp"];
        // Keys every window controller (aimd, bic, cubic) takes; "pcon" fixes cwa and
        // react_to_marks.
        const SIGNALS: &[&str] =
            &["cwa", "rtt_suppress", "react_to_marks", "cwa_on_marks", "decrease_on_unmarked_nacks", "per_window"];
        const WINDOW: &[&str] = &["initial_window", "initial_ssthresh", "beta"];
        const RAAQM: &[&str] =
            &["initial_window", "min_window", "max_window", "beta", "gamma", "p_min", "p_max", "samples"];
        let all: Vec<&str> = ["algorithm", "window", "rate"]
            .iter()
            .chain(WINDOW)
            .chain(SIGNALS)
            .chain(&[
                "low_window",
                "max_increment",
                "fast_convergence",
                "c",
                "reno_friendly",
                "rto",
                "rto_window",
                "min_window",
                "max_window",
                "gamma",
                "p_min",
                "p_max",
                "samples",
            ])
            .chain(PTP_KEYS)
            .chain(MPTCP_KEYS)
            .copied()
            .collect();
        let t = self.table(v, path, &all, "a table such as { algorithm = \"fixed-window\", window = 10 }")?;
        let av = self.required(
            &t,
            "algorithm",
            "\"fixed-window\", \"constant-rate\", \"aimd\", \"bic\", \"cubic\", \"pcon\", \"icp\", \"raaqm\", \"ptp\" or \"mptcp\"",
        )?;
        let algorithm = self.choice(av, &t.field("algorithm"), ALGORITHMS)?;
        let mut takes: Vec<&str> = match algorithm {
            "fixed-window" => vec!["window"],
            "constant-rate" => vec!["rate"],
            "aimd" => [WINDOW, SIGNALS].concat(),
            "bic" => [WINDOW, SIGNALS, &["low_window", "max_increment", "fast_convergence"]].concat(),
            "cubic" => [WINDOW, SIGNALS, &["c", "fast_convergence", "reno_friendly"]].concat(),
            "icp" => [WINDOW, SIGNALS, &["rto", "rto_window"]].concat(),
            "raaqm" => RAAQM.to_vec(),
            "ptp" => PTP_KEYS.to_vec(),
            "mptcp" => MPTCP_KEYS.to_vec(),
            _ => [WINDOW, &["rtt_suppress", "per_window", "low_window", "max_increment", "fast_convergence"]].concat(),
        };
        takes.insert(0, "algorithm");
        if let Some((key, _)) = t.entries.iter().find(|(k, _)| !takes.contains(&k.get_ref().as_ref())) {
            let key = key.get_ref().as_ref();
            let mut msg =
                format!("{key:?} does not apply to algorithm = {algorithm:?}; it takes {}", takes[1..].join(", "));
            if algorithm == "pcon"
                && ["cwa", "react_to_marks", "cwa_on_marks", "decrease_on_unmarked_nacks"].contains(&key)
            {
                msg.push_str(" (PCON-CS always decreases on every mark, uses CWA for losses and only retransmits on an unmarked Nack; use algorithm = \"bic\" to change that)");
            }
            return Err(self.ctx.err(t.key_span(key), &t.field(key), msg));
        }
        match algorithm {
            "fixed-window" => {
                let w = self.required(&t, "window", "Interests in flight, e.g. window = 10")?;
                let n = self.uint(w, &t.field("window"))?;
                if n == 0 {
                    return Err(self.ctx.err(w.span(), &t.field("window"), "window must be at least 1"));
                }
                let window = u32::try_from(n)
                    .map_err(|_| self.ctx.err(w.span(), &t.field("window"), format!("{n} is too large")))?;
                Ok(CcConfig::FixedWindow { window })
            }
            "constant-rate" => {
                let r = self.required(&t, "rate", "Interests per second, e.g. rate = 100.0")?;
                let rate = self.number(r, &t.field("rate"))?;
                if rate <= 0.0 {
                    return Err(self.ctx.err(
                        r.span(),
                        &t.field("rate"),
                        format!("rate must be positive (Interests per second), found {rate}"),
                    ));
                }
                Ok(CcConfig::ConstantRate { rate })
            }
            "aimd" => {
                let mut c = AimdConfig::default();
                self.cc_window(&t, &mut c.initial_window, &mut c.initial_ssthresh, &mut c.beta)?;
                self.cc_signals(&t, &mut c.signals)?;
                Ok(CcConfig::Aimd(c))
            }
            "cubic" => {
                let mut c = CubicConfig::default();
                self.cc_window(&t, &mut c.initial_window, &mut c.initial_ssthresh, &mut c.beta)?;
                self.cc_signals(&t, &mut c.signals)?;
                if let Some(x) = t.get("c") {
                    c.c = self.cc_number(x, &t.field("c"), 0.0, false, "must be positive (Interests/s^3)")?;
                }
                self.cc_flag(&t, "fast_convergence", &mut c.fast_convergence)?;
                self.cc_flag(&t, "reno_friendly", &mut c.reno_friendly)?;
                Ok(CcConfig::Cubic(c))
            }
            "icp" => {
                let mut c = IcpConfig::default();
                self.cc_window(&t, &mut c.initial_window, &mut c.initial_ssthresh, &mut c.beta)?;
                self.cc_signals(&t, &mut c.signals)?;
                if let Some(x) = t.get("rto") {
                    c.rto = match self.choice(x, &t.field("rto"), &["min-max", "rfc6298"])? {
                        "rfc6298" => IcpRto::Rfc6298,
                        _ => IcpRto::MinMax,
                    };
                }
                if let Some(x) = t.get("rto_window") {
                    c.rto_window = self.u32_value(x, &t.field("rto_window"), 0)?;
                }
                Ok(CcConfig::Icp(c))
            }
            "raaqm" => Ok(CcConfig::Raaqm(self.cc_raaqm(&t)?)),
            "ptp" => Ok(CcConfig::Ptp(self.cc_ptp(&t)?)),
            "mptcp" => Ok(CcConfig::Mptcp(self.cc_mptcp(&t)?)),
            // "bic" and its PCON-CS preset "pcon" (which rejected cwa and react_to_marks above).
            _ => {
                let mut c = BicConfig::pcon();
                self.cc_window(&t, &mut c.initial_window, &mut c.initial_ssthresh, &mut c.beta)?;
                self.cc_signals(&t, &mut c.signals)?;
                if let Some(x) = t.get("low_window") {
                    c.low_window =
                        self.cc_number(x, &t.field("low_window"), 1.0, true, "must be at least 1 (Interests)")?;
                }
                if let Some(x) = t.get("max_increment") {
                    c.max_increment = self.cc_number(
                        x,
                        &t.field("max_increment"),
                        0.0,
                        false,
                        "must be positive (Interests per RTT)",
                    )?;
                }
                self.cc_flag(&t, "fast_convergence", &mut c.fast_convergence)?;
                Ok(CcConfig::Bic(c))
            }
        }
    }

    fn cc_raaqm(&self, t: &Tbl<'_, '_>) -> Res<RaaqmConfig> {
        let mut c = RaaqmConfig::default();
        let mut ssthresh = f64::INFINITY;
        // initial_window and beta as for the other window controllers.
        self.cc_window(t, &mut c.initial_window, &mut ssthresh, &mut c.beta)?;
        for (key, slot) in [("min_window", &mut c.min_window), ("max_window", &mut c.max_window)] {
            if let Some(x) = t.get(key) {
                *slot = self.cc_number(x, &t.field(key), 1.0, true, "must be at least 1 (Interests)")?;
            }
        }
        if c.min_window > c.max_window {
            let span = t.get("min_window").or(t.get("max_window")).map_or(t.span.clone(), |v| v.span());
            let msg = format!("min_window ({}) must not exceed max_window ({})", c.min_window, c.max_window);
            return Err(self.ctx.err(span, &t.field("min_window"), msg));
        }
        if let Some(x) = t.get("gamma") {
            c.gamma = self.cc_number(x, &t.field("gamma"), 0.0, false, "must be positive (Interests per RTT)")?;
        }
        for key in ["p_min", "p_max"] {
            if let Some(x) = t.get(key) {
                let p = self.number(x, &t.field(key))?;
                if !(0.0..=1.0).contains(&p) {
                    let msg = format!("{key} is a probability: between 0 and 1, found {p}");
                    return Err(self.ctx.err(x.span(), &t.field(key), msg));
                }
                if key == "p_min" {
                    c.p_min = p;
                } else {
                    c.p_max = p;
                }
            }
        }
        if c.p_min > c.p_max {
            let span = t.get("p_min").or(t.get("p_max")).map_or(t.span.clone(), |v| v.span());
            let msg = format!("p_min ({}) must not exceed p_max ({})", c.p_min, c.p_max);
            return Err(self.ctx.err(span, &t.field("p_min"), msg));
        }
        if let Some(x) = t.get("samples") {
            c.samples = self.u32_value(x, &t.field("samples"), 1)?;
        }
        Ok(c)
    }

    /// A number above `min` (or equal to it when `inclusive`).
    pub(super) fn cc_number(&self, v: &Val<'_>, field: &str, min: f64, inclusive: bool, what: &str) -> Res<f64> {
        let x = self.number(v, field)?;
        if x < min || (!inclusive && x == min) {
            return Err(self.ctx.err(v.span(), field, format!("{what}, found {x}")));
        }
        Ok(x)
    }

    fn cc_flag(&self, t: &Tbl<'_, '_>, key: &str, slot: &mut bool) -> Res<()> {
        if let Some(x) = t.get(key) {
            *slot = self.boolean(x, &t.field(key))?;
        }
        Ok(())
    }

    pub(super) fn cc_window(&self, t: &Tbl<'_, '_>, initial: &mut f64, ssthresh: &mut f64, beta: &mut f64) -> Res<()> {
        if let Some(x) = t.get("initial_window") {
            *initial = self.cc_number(x, &t.field("initial_window"), 1.0, true, "must be at least 1 (Interests)")?;
        }
        if let Some(x) = t.get("initial_ssthresh") {
            *ssthresh = self.cc_number(x, &t.field("initial_ssthresh"), 1.0, true, "must be at least 1 (Interests)")?;
        }
        if let Some(x) = t.get("beta") {
            let b = self.number(x, &t.field("beta"))?;
            if !(b > 0.0 && b < 1.0) {
                return Err(self.ctx.err(
                    x.span(),
                    &t.field("beta"),
                    format!("beta is the factor the window is multiplied by on a decrease: between 0 and 1 exclusive, found {b}"),
                ));
            }
            *beta = b;
        }
        Ok(())
    }

    fn cc_signals(&self, t: &Tbl<'_, '_>, s: &mut SignalConfig) -> Res<()> {
        self.cc_flag(t, "cwa", &mut s.cwa)?;
        self.cc_flag(t, "react_to_marks", &mut s.react_to_marks)?;
        self.cc_flag(t, "cwa_on_marks", &mut s.cwa_on_marks)?;
        self.cc_flag(t, "decrease_on_unmarked_nacks", &mut s.decrease_on_unmarked_nacks)?;
        self.cc_flag(t, "per_window", &mut s.per_window)?;
        if let Some(x) = t.get("rtt_suppress") {
            s.rtt_suppress = self.cc_number(x, &t.field("rtt_suppress"), 0.0, true, "must not be negative")?;
        }
        Ok(())
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
