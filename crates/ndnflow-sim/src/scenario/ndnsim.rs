//! Reader for ndnSIM's annotated topology files (`AnnotatedTopologyReader`), e.g.
//! `examples/topologies/topo-grid-3x3.txt` of ndnSIM.
//!
//! Format: blank lines and comments (`#` to the end of the line) anywhere; a line `router` opens the
//! node section, whose lines are `name [comment [yPos [xPos [systemId]]]]`; a line `link` opens the
//! link section, whose lines are `srcNode dstNode [bandwidth [metric [delay [queue [error]]]]]`:
//! bandwidth as "1Mbps", metric an integer routing cost (ndnSIM's "OSPF" metric), delay as "10ms",
//! queue a packet count (ns-3 `DropTailQueue` `MaxPackets`) or `ns3::DropTailQueue,MaxPackets=N`,
//! error `ns3::RateErrorModel,ErrorUnit=ERROR_UNIT_PACKET,ErrorRate=p`. Links are bidirectional
//! point-to-point links; the same pair of nodes may be linked only once.

use ndnflow_core::Time;

use super::toml::{check_node_name, name_list, ScenarioError};
use super::units::{format_bandwidth, format_duration, parse_bandwidth, parse_duration};

/// Nodes and links read from an ndnSIM annotated topology file.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Topology {
    pub nodes: Vec<TopoNode>,
    pub links: Vec<TopoLink>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct TopoNode {
    pub name: String,
    /// `xPos` column (0 when absent).
    pub x: f64,
    /// `yPos` column (0 when absent).
    pub y: f64,
    /// 1-based line in the topology file (0 when not read from a file).
    pub line: usize,
}

#[derive(Clone, Debug, PartialEq)]
pub struct TopoLink {
    /// `srcNode`.
    pub a: String,
    /// `dstNode`.
    pub b: String,
    pub bandwidth_bps: Option<u64>,
    pub metric: Option<u64>,
    pub delay: Option<Time>,
    /// DropTail queue limit in packets, both directions.
    pub queue_packets: Option<usize>,
    /// Per-packet loss probability of the `ns3::RateErrorModel` column (applied on receive, so in
    /// both directions).
    pub loss_rate: Option<f64>,
    /// 1-based line in the topology file (0 when not read from a file).
    pub line: usize,
}

#[derive(Clone, Copy, PartialEq)]
enum Section {
    Preamble,
    Routers,
    Links,
}

/// Whitespace-separated tokens with their 1-based character column, up to a `#` comment.
fn tokens(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start: Option<(usize, usize)> = None; // (byte, column)
    let mut col = 0;
    for (i, c) in line.char_indices() {
        col += 1;
        if c.is_whitespace() {
            if let Some((s, sc)) = start.take() {
                out.push((sc, &line[s..i]));
            }
        } else if start.is_none() {
            if c == '#' {
                return out;
            }
            start = Some((i, col));
        }
    }
    if let Some((s, sc)) = start {
        out.push((sc, &line[s..]));
    }
    out
}

/// Reads an ndnSIM annotated topology. `source` names the file in error messages.
pub fn parse_ndnsim_topology(text: &str, source: &str) -> Result<Topology, ScenarioError> {
    let err = |line: usize, col: usize, field: &str, message: String| ScenarioError {
        source_name: source.to_string(),
        line: Some(line),
        column: Some(col),
        field: (!field.is_empty()).then(|| field.to_string()),
        message,
    };
    let mut topo = Topology::default();
    let mut section = Section::Preamble;
    let mut node_lines: rustc_hash::FxHashMap<String, usize> = Default::default();
    let mut link_lines: rustc_hash::FxHashMap<(String, String), usize> = Default::default();

    for (idx, raw) in text.lines().enumerate() {
        let line_no = idx + 1;
        let toks = tokens(raw);
        let Some(&(col0, first)) = toks.first() else {
            continue;
        };
        if toks.len() == 1 && first == "router" {
            if section != Section::Preamble {
                return Err(err(
                    line_no,
                    col0,
                    "",
                    "second \"router\" section; a file has one router section followed by one link section".into(),
                ));
            }
            section = Section::Routers;
            continue;
        }
        if toks.len() == 1 && first == "link" {
            match section {
                Section::Preamble => {
                    return Err(err(
                        line_no,
                        col0,
                        "",
                        "\"link\" section before the \"router\" section; list the routers first".into(),
                    ))
                }
                Section::Links => return Err(err(line_no, col0, "", "second \"link\" section".into())),
                Section::Routers => section = Section::Links,
            }
            continue;
        }
        match section {
            Section::Preamble => {
                return Err(err(
                    line_no,
                    col0,
                    "",
                    format!("unexpected {first:?} before the \"router\" section header (a line reading just `router`)"),
                ))
            }
            Section::Routers => {
                if toks.len() > 5 {
                    let (c, t) = toks[5];
                    return Err(err(
                        line_no,
                        c,
                        "",
                        format!("unexpected 6th column {t:?}; router lines are `name comment yPos xPos [systemId]`"),
                    ));
                }
                check_node_name(first).map_err(|m| err(line_no, col0, "name", m))?;
                if let Some(prev) = node_lines.get(first) {
                    return Err(err(
                        line_no,
                        col0,
                        "name",
                        format!("router {first:?} is already defined at line {prev}"),
                    ));
                }
                let coord = |i: usize, what: &str| -> Result<f64, ScenarioError> {
                    match toks.get(i) {
                        None => Ok(0.0),
                        Some(&(c, t)) => match t.parse::<f64>() {
                            Ok(v) if v.is_finite() => Ok(v),
                            _ => Err(err(line_no, c, what, format!("{t:?} is not a number"))),
                        },
                    }
                };
                let y = coord(2, "yPos")?;
                let x = coord(3, "xPos")?;
                if let Some(&(c, t)) = toks.get(4) {
                    if t.parse::<u32>().is_err() {
                        return Err(err(
                            line_no,
                            c,
                            "systemId",
                            format!("{t:?} is not a non-negative integer (MPI rank)"),
                        ));
                    }
                }
                node_lines.insert(first.to_string(), line_no);
                topo.nodes.push(TopoNode { name: first.to_string(), x, y, line: line_no });
            }
            Section::Links => {
                if toks.len() > 7 {
                    let (c, t) = toks[7];
                    return Err(err(
                        line_no,
                        c,
                        "",
                        format!("unexpected 8th column {t:?}; link lines are `srcNode dstNode bandwidth metric delay queue [error]`"),
                    ));
                }
                let Some(&(col1, second)) = toks.get(1) else {
                    return Err(err(
                        line_no,
                        col0,
                        "",
                        format!("link line has only one node {first:?}; link lines are `srcNode dstNode bandwidth metric delay queue`"),
                    ));
                };
                for (c, n, what) in [(col0, first, "srcNode"), (col1, second, "dstNode")] {
                    if !node_lines.contains_key(n) {
                        let known = name_list(topo.nodes.iter().map(|n| n.name.as_str()));
                        return Err(err(line_no, c, what, format!("unknown node {n:?} (routers: {known})")));
                    }
                }
                if first == second {
                    return Err(err(line_no, col1, "dstNode", format!("link from {first:?} to itself")));
                }
                let key = if first < second {
                    (first.to_string(), second.to_string())
                } else {
                    (second.to_string(), first.to_string())
                };
                if let Some(prev) = link_lines.get(&key) {
                    return Err(err(
                        line_no,
                        col0,
                        "",
                        format!(
                            "duplicate link {first} - {second} (already given at line {prev}); links are bidirectional"
                        ),
                    ));
                }
                let mut link = TopoLink {
                    a: first.to_string(),
                    b: second.to_string(),
                    bandwidth_bps: None,
                    metric: None,
                    delay: None,
                    queue_packets: None,
                    loss_rate: None,
                    line: line_no,
                };
                if let Some(&(c, t)) = toks.get(2) {
                    link.bandwidth_bps = Some(parse_bandwidth(t).map_err(|m| err(line_no, c, "bandwidth", m))?);
                }
                if let Some(&(c, t)) = toks.get(3) {
                    match t.parse::<u64>() {
                        Ok(m) if m >= 1 => link.metric = Some(m),
                        _ => {
                            return Err(err(
                                line_no,
                                c,
                                "metric",
                                format!("{t:?} is not a positive integer (routing cost)"),
                            ))
                        }
                    }
                }
                if let Some(&(c, t)) = toks.get(4) {
                    link.delay = Some(parse_duration(t).map_err(|m| err(line_no, c, "delay", m))?);
                }
                if let Some(&(c, t)) = toks.get(5) {
                    link.queue_packets = Some(parse_queue(t).map_err(|m| err(line_no, c, "queue", m))?);
                }
                if let Some(&(c, t)) = toks.get(6) {
                    link.loss_rate = Some(parse_error_model(t).map_err(|m| err(line_no, c, "error", m))?);
                }
                link_lines.insert(key, line_no);
                topo.links.push(link);
            }
        }
    }
    if section == Section::Preamble {
        return Err(ScenarioError::new(
            source,
            "no \"router\" section: an ndnSIM topology lists its nodes after a line reading `router`, then its links after a line reading `link`",
        ));
    }
    Ok(topo)
}

/// `ns3::Class,Attr=Value,...` into the class and its attributes.
fn ns3_object(s: &str) -> (&str, Vec<(&str, &str)>) {
    let mut parts = s.split(',');
    let class = parts.next().unwrap_or("");
    let attrs = parts.map(|p| p.split_once('=').unwrap_or((p, ""))).collect();
    (class, attrs)
}

/// An attribute given twice is refused: ns-3 would keep the last, silently, and two values for
/// one attribute are more likely a slip than an intent.
fn once_each(class: &str, attrs: &[(&str, &str)]) -> Result<(), String> {
    for (i, (k, v)) in attrs.iter().enumerate() {
        if let Some((_, first)) = attrs[..i].iter().find(|(k0, _)| k0 == k) {
            return Err(format!("{class} gives {k} twice ({k}={first} and {k}={v}); give it once"));
        }
    }
    Ok(())
}

fn parse_queue(t: &str) -> Result<usize, String> {
    const HELP: &str = "expected a packet count such as 100 or ns3::DropTailQueue,MaxPackets=100 \
                        (other queues can be set per link in a TOML scenario)";
    if t.bytes().all(|b| b.is_ascii_digit()) {
        return match t.parse::<usize>() {
            Ok(n) if n >= 1 => Ok(n),
            Err(_) if !t.is_empty() => Err(format!("queue size {t:?} is too large (at most {} packets)", usize::MAX)),
            _ => Err(format!("queue size {t:?} must be at least 1 packet")),
        };
    }
    let (class, attrs) = ns3_object(t);
    if !class.starts_with("ns3::") {
        return Err(format!("invalid queue {t:?}: {HELP}"));
    }
    if class != "ns3::DropTailQueue" && class != "ns3::DropTailQueue<Packet>" {
        return Err(format!("unsupported queue class {class:?}: {HELP}"));
    }
    once_each(class, &attrs)?;
    let mut packets = 100; // ns-3 DropTailQueue default MaxSize "100p"
    for (k, v) in attrs {
        let n = match k {
            "MaxPackets" => v.parse::<usize>().ok(),
            "MaxSize" => v.strip_suffix('p').and_then(|n| n.parse::<usize>().ok()),
            _ => return Err(format!("unsupported DropTailQueue attribute {k:?}: {HELP}")),
        };
        match n {
            Some(n) if n >= 1 => packets = n,
            _ => {
                return Err(format!(
                    "invalid {k}={v:?}: expected a positive packet count{}",
                    if k == "MaxSize" { " such as \"100p\"" } else { "" }
                ))
            }
        }
    }
    Ok(packets)
}

fn parse_error_model(t: &str) -> Result<f64, String> {
    const HELP: &str = "expected ns3::RateErrorModel,ErrorUnit=ERROR_UNIT_PACKET,ErrorRate=p";
    let (class, attrs) = ns3_object(t);
    if class != "ns3::RateErrorModel" {
        return Err(format!("unsupported error model {class:?}: {HELP}"));
    }
    once_each(class, &attrs)?;
    let mut unit = "ERROR_UNIT_BYTE"; // ns-3 default
    let mut rate = 0.0; // ns-3 default
    for (k, v) in attrs {
        match k {
            "ErrorUnit" => unit = v,
            "ErrorRate" => match v.parse::<f64>() {
                Ok(p) if (0.0..=1.0).contains(&p) => rate = p,
                _ => return Err(format!("ErrorRate {v:?} must be a probability between 0 and 1")),
            },
            _ => return Err(format!("unsupported RateErrorModel attribute {k:?}: {HELP}")),
        }
    }
    if unit != "ERROR_UNIT_PACKET" {
        return Err(format!("ErrorUnit {unit} is not supported, only per-packet loss: {HELP}"));
    }
    Ok(rate)
}

/// Quotes a node name as a TOML key when it is not a bare key (names with '.').
fn toml_key(name: &str) -> String {
    if !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-') {
        name.to_string()
    } else {
        format!("{name:?}")
    }
}

/// Writes a topology as the `[nodes]` and `[[links]]` of a TOML scenario (`ndnflow import-ndnsim`).
/// Delay defaults to 0 s as in ns-3 when the file had none; a link without bandwidth gets a comment
/// in place of the (required) `bandwidth` key.
pub fn topology_to_toml(t: &Topology) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    out.push_str("# Converted from an ndnSIM annotated topology (ndnflow import-ndnsim).\n");
    out.push_str("# Add [simulation], [[producers]] and [[consumers]] to make it a scenario.\n\n");
    out.push_str("[nodes]\n");
    let width = t.nodes.iter().map(|n| toml_key(&n.name).len()).max().unwrap_or(0);
    for n in &t.nodes {
        let _ = writeln!(out, "{:width$} = {{}}  # xPos {}, yPos {}", toml_key(&n.name), n.x, n.y);
    }
    for l in &t.links {
        out.push_str("\n[[links]]\n");
        let _ = writeln!(out, "between   = [{:?}, {:?}]", l.a, l.b);
        match l.bandwidth_bps {
            Some(bps) => {
                let _ = writeln!(out, "bandwidth = \"{}\"", format_bandwidth(bps));
            }
            None => out.push_str("# bandwidth: not given in the ndnSIM file; required\n"),
        }
        let _ = writeln!(out, "delay     = \"{}\"", format_duration(l.delay.unwrap_or(Time::ZERO)));
        if let Some(m) = l.metric {
            let _ = writeln!(out, "metric    = {m}");
        }
        if let Some(p) = l.queue_packets {
            let _ = writeln!(out, "queue     = {{ discipline = \"droptail\", packets = {p} }}");
        }
        if let Some(p) = l.loss_rate {
            let _ = writeln!(out, "loss      = {{ model = \"bernoulli\", p = {p:?} }}");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: &str = "\
# a comment
router
# node comment yPos xPos
a   NA  1   2
b   NA  1.5 -3   0
c

link
# srcNode dstNode bandwidth metric delay queue
a   b   10Mbps  1   0.312ms 20
b   c   1Mbps   5   10ms    ns3::DropTailQueue,MaxSize=30p   ns3::RateErrorModel,ErrorUnit=ERROR_UNIT_PACKET,ErrorRate=0.1
a   c   # only the nodes
";

    #[test]
    fn reads_nodes_links_and_optional_columns() {
        let t = parse_ndnsim_topology(SMALL, "small.txt").unwrap();
        assert_eq!(t.nodes.len(), 3);
        assert_eq!((t.nodes[1].x, t.nodes[1].y, t.nodes[1].line), (-3.0, 1.5, 5));
        assert_eq!((t.nodes[2].x, t.nodes[2].y), (0.0, 0.0));
        assert_eq!(t.links.len(), 3);
        let l = &t.links[0];
        assert_eq!(l.bandwidth_bps, Some(10_000_000));
        assert_eq!(l.delay, Some(Time::from_micros(312)));
        assert_eq!((l.metric, l.queue_packets, l.loss_rate), (Some(1), Some(20), None));
        let l = &t.links[1];
        assert_eq!((l.metric, l.queue_packets, l.loss_rate, l.line), (Some(5), Some(30), Some(0.1), 11));
        let l = &t.links[2];
        assert_eq!((l.bandwidth_bps, l.delay, l.metric), (None, None, None));
    }

    fn error(text: &str) -> ScenarioError {
        parse_ndnsim_topology(text, "t.txt").unwrap_err()
    }

    #[test]
    fn errors_name_line_column_and_reason() {
        let e = error("router\na\nb\nlink\na q 1Mbps\n");
        assert_eq!((e.line, e.column), (Some(5), Some(3)));
        assert_eq!(e.to_string(), "t.txt:5:3: dstNode: unknown node \"q\" (routers: a, b)");
        let e = error("router\na\nb\nlink\na b 1Mbsp\n");
        assert!(e.to_string().starts_with("t.txt:5:5: bandwidth: invalid bandwidth \"1Mbsp\": unknown unit"), "{e}");
        let e = error("router\na\nb\nlink\na b 1Mbps 1 -5ms\n");
        assert!(e.to_string().contains("t.txt:5:13: delay: invalid duration \"-5ms\": must not be negative"), "{e}");
        let e = error("router\na\nb\nlink\na b\nb a\n");
        assert!(e.to_string().contains("t.txt:6:1: duplicate link b - a (already given at line 5)"), "{e}");
        let e = error("router\na\na\n");
        assert!(e.to_string().contains("t.txt:3:1: name: router \"a\" is already defined at line 2"), "{e}");
        let e = error("router\na\nb\nlink\na a\n");
        assert!(e.to_string().contains("link from \"a\" to itself"), "{e}");
        let e = error("a NA 1 2\n");
        assert!(e.to_string().contains("t.txt:1:1: unexpected \"a\" before the \"router\" section"), "{e}");
        let e = error("# nothing\n");
        assert_eq!(e.line, None);
        assert!(e.to_string().contains("no \"router\" section"), "{e}");
        let e = error("router\na\nb\nlink\na b 1Mbps 1 1ms ns3::RedQueue,MeanPktSize=100\n");
        assert!(e.to_string().contains("queue: unsupported queue class \"ns3::RedQueue\""), "{e}");
        // Above usize: "too large", where it said "must be at least 1 packet" until 2026-11-28.
        let e = error("router\na\nb\nlink\na b 1Mbps 1 1ms 100000000000000000000\n");
        assert!(e.to_string().contains("queue size \"100000000000000000000\" is too large"), "{e}");
        let e = error("router\na\nb\nlink\na b 1Mbps 1 1ms 0\n");
        assert!(e.to_string().contains("queue size \"0\" must be at least 1 packet"), "{e}");
        let e = error("router\na\nb\nlink\na b 1Mbps 0\n");
        assert!(e.to_string().contains("metric: \"0\" is not a positive integer"), "{e}");
        let e = error("router\na x y\n");
        assert!(e.to_string().contains("t.txt:2:5: yPos: \"y\" is not a number"), "{e}");
        let e = error("router\na/b\n");
        assert!(e.to_string().contains("contains '/'"), "{e}");
        let e = error("router\na\nb\nlink\na b 1Mbps 1 1ms 10 ns3::RateErrorModel,ErrorRate=0.5\n");
        assert!(e.to_string().contains("ErrorUnit ERROR_UNIT_BYTE is not supported"), "{e}");
        // The second value was kept, silently, until 2026-11-28.
        let loss = "ns3::RateErrorModel,ErrorUnit=ERROR_UNIT_PACKET,ErrorRate=0.1,ErrorRate=0.5";
        let e = error(&format!("router\na\nb\nlink\na b 1Mbps 1 1ms 10 {loss}\n"));
        assert!(
            e.to_string().contains("ns3::RateErrorModel gives ErrorRate twice (ErrorRate=0.1 and ErrorRate=0.5)"),
            "{e}"
        );
        let e = error("router\na\nb\nlink\na b 1Mbps 1 1ms ns3::DropTailQueue,MaxSize=10p,MaxSize=20p\n");
        assert!(e.to_string().contains("queue: ns3::DropTailQueue gives MaxSize twice"), "{e}");
    }

    #[test]
    fn toml_output_lists_nodes_and_links() {
        let t = parse_ndnsim_topology(SMALL, "small.txt").unwrap();
        let s = topology_to_toml(&t);
        assert!(s.contains("[nodes]\na = {}"), "{s}");
        assert!(
            s.contains("between   = [\"a\", \"b\"]\nbandwidth = \"10Mbps\"\ndelay     = \"312us\"\nmetric    = 1\n"),
            "{s}"
        );
        assert!(s.contains("queue     = { discipline = \"droptail\", packets = 30 }"), "{s}");
        assert!(s.contains("loss      = { model = \"bernoulli\", p = 0.1 }"), "{s}");
        assert!(s.contains("# bandwidth: not given"), "{s}");
        assert_eq!(toml_key("a.b"), "\"a.b\"");
    }
}
