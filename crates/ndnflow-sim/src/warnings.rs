//! What a scenario permits but its author probably did not mean. The run goes ahead; the driver
//! reports these (the Python layer as `ScenarioWarning`s, the command line as "warning:" lines).

use crate::build::{App, FaceTarget, Network};
use crate::scenario::model::Scenario;
use ndnflow_core::app::cc::CcConfig;

/// One line per consumer whose Interests no chain of FIB entries can bring to a producer of its
/// name: they will come back as Nacks or time out, and the consumer fetch nothing. Static routes
/// that lead nowhere (`routing = "none"`) and nodes cut off from every producer are the usual
/// causes.
pub fn unreachable_consumers(s: &Scenario, net: &Network) -> Vec<String> {
    s.consumers
        .iter()
        .enumerate()
        .filter(|(_, c)| !reaches_producer(net, c.node, &c.name))
        .map(|(i, c)| {
            format!(
                "consumer {} (consumers[{i}]) on {}: no route leads from {} to a producer of {}; \
                 its Interests will go unanswered",
                net.consumer_ids[i], s.nodes[c.node].name, s.nodes[c.node].name, c.name
            )
        })
        .collect()
}

/// One line per PTP or MPTCP consumer on a node that is not a PTP router (`ptp = true`). Their
/// paths are PTP's tag stacks, which the routers write into the probes' Data: without them a
/// probe comes back with no path, and the consumer fetches only what its probes bring, 10 Data a
/// second by default. (DPCCP and MIRCC run untagged on one path, as DPCCP's single-path
/// experiments mean them to, so they are not named here.)
pub fn untagged_multipath_consumers(s: &Scenario, net: &Network) -> Vec<String> {
    s.consumers
        .iter()
        .enumerate()
        .filter(|(_, c)| matches!(c.cc, CcConfig::Ptp(_) | CcConfig::Mptcp(_)) && !s.nodes[c.node].forwarder.ptp)
        .map(|(i, c)| {
            let node = &s.nodes[c.node].name;
            format!(
                "consumer {} (consumers[{i}]) on {node} runs {}, whose paths PTP's routers write, but {node} has no \
                 `ptp = true`: it will find no path and fetch only what its probes bring back",
                net.consumer_ids[i],
                if matches!(c.cc, CcConfig::Ptp(_)) { "ptp" } else { "mptcp" },
            )
        })
        .collect()
}

/// One line per node that no link touches, in a scenario of more than one node: nothing reaches
/// it and it reaches nothing. Usually a mistyped name: a `[nodes]` entry or a `--set nodes.X...`
/// of a node a `[topology]` file does not have declares a new node rather than failing. The first
/// `LONE_NODES_NAMED` are named, with the linked name each is nearest to (when there are few
/// enough linked names to compare: an edit distance with each), the others counted in one line.
pub fn lone_nodes(s: &Scenario) -> Vec<String> {
    if s.nodes.len() < 2 {
        return Vec::new();
    }
    let mut linked = vec![false; s.nodes.len()];
    for l in &s.links {
        linked[l.a] = true;
        linked[l.b] = true;
    }
    let names: Vec<&str> = s.nodes.iter().map(|n| n.name.as_str()).collect();
    let linked_names: Vec<&str> = names.iter().zip(&linked).filter(|(_, &l)| l).map(|(n, _)| *n).collect();
    let lone: Vec<&str> = names.iter().zip(&linked).filter(|(_, &l)| !l).map(|(n, _)| *n).collect();
    let hint = |name: &str| {
        let near = (linked_names.len() <= HINT_CANDIDATES)
            .then(|| crate::scenario::toml::did_you_mean(name, &linked_names))
            .flatten();
        near.map_or(String::new(), |n| format!(" (a mistyped {n}?)"))
    };
    let mut out: Vec<String> = lone
        .iter()
        .take(LONE_NODES_NAMED)
        .map(|name| format!("node {name} has no link: nothing reaches it and it reaches nothing{}", hint(name)))
        .collect();
    if lone.len() > LONE_NODES_NAMED {
        out.push(format!("{} more nodes have no link", lone.len() - LONE_NODES_NAMED));
    }
    out
}

/// How many nodes without a link `lone_nodes` names one by one.
const LONE_NODES_NAMED: usize = 10;
/// Up to how many linked names `lone_nodes` compares a lone name with, for its hint.
const HINT_CANDIDATES: usize = 10_000;

/// Whether following the longest-prefix-match FIB entries for `name` from `start` (every next hop,
/// as a multicast would) reaches a producer whose prefix covers it.
///
/// A depth-first search that tries each node's cheapest next hop first (the entry keeps them by
/// cost, so they are pushed in reverse): with routes installed by the routing, it walks the
/// shortest path and stops at the producer after about a path's length of nodes, where trying the
/// dearest first wandered over most of the network (on a 10,000-node grid with 1,000 consumers,
/// 10^7 FIB lookups and most of the set-up time). The answer does not depend on the order.
fn reaches_producer(net: &Network, start: usize, name: &ndnflow_core::Name) -> bool {
    let mut seen = vec![false; net.nodes.len()];
    let mut stack = vec![start];
    seen[start] = true;
    while let Some(n) = stack.pop() {
        let node = &net.nodes[n];
        let Some((_, entry)) = node.fw.fib.longest_prefix_match(name) else { continue };
        for hop in entry.nexthops.iter().rev() {
            match node.faces.get(hop.face.index()) {
                Some(&FaceTarget::App(a)) => {
                    if let App::Producer(p) = &net.apps[a as usize].app {
                        if p.prefix().is_prefix_of(name) {
                            return true;
                        }
                    }
                }
                Some(&FaceTarget::Link(d)) => {
                    let next = net.dirs[d as usize].to;
                    if !seen[next] {
                        seen[next] = true;
                        stack.push(next);
                    }
                }
                None => {}
            }
        }
    }
    false
}
