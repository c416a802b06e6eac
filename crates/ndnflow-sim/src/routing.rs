//! Automatic routes: for every producer prefix, each node gets every neighbour that can reach the
//! producer as a next hop, ranked by the cost of reaching it that way, as ndnSIM's
//! `GlobalRoutingHelper::CalculateAllPossibleRoutes` installs them.
//!
//! As in ndnSIM, the cost through neighbour n of node u is the link cost plus n's shortest distance
//! to the producer *in the graph without u*: a neighbour whose only way to the producer comes back
//! through u gets no route (in a line A - B - P, B does not route to P through A). That takes one
//! Dijkstra per (producer, node), which is fast for the topologies of the papers (hundreds of nodes).

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::scenario::model::{RoutingMetric, Scenario};

/// A directed edge for routing: from `from` to `to` at `cost`, over link `link`.
#[derive(Clone, Copy, Debug)]
pub struct Edge {
    pub from: usize,
    pub to: usize,
    pub cost: u64,
    pub link: usize,
}

/// The routing graph of a scenario: both directions of every link, with the chosen metric.
pub fn edges(scenario: &Scenario) -> Vec<Edge> {
    let mut out = Vec::with_capacity(scenario.links.len() * 2);
    for (i, l) in scenario.links.iter().enumerate() {
        let cost = |delay: ndnflow_core::Time| match scenario.routing {
            // Microseconds keep costs integral without overflow for any realistic path.
            RoutingMetric::Delay => (delay.as_nanos() / 1_000).max(1),
            _ => l.metric,
        };
        out.push(Edge { from: l.a, to: l.b, cost: cost(l.ab.total_delay()), link: i });
        out.push(Edge { from: l.b, to: l.a, cost: cost(l.ba.total_delay()), link: i });
    }
    out
}

/// Shortest distance from every node to `target` along directed edges (`u64::MAX` = unreachable).
pub fn distances_to(n_nodes: usize, edges: &[Edge], target: usize) -> Vec<u64> {
    distances_avoiding(&incoming_edges(n_nodes, edges), target, usize::MAX)
}

/// For each node, the (source, cost) of the edges that arrive there.
fn incoming_edges(n_nodes: usize, edges: &[Edge]) -> Vec<Vec<(usize, u64)>> {
    let mut incoming: Vec<Vec<(usize, u64)>> = vec![Vec::new(); n_nodes];
    for e in edges {
        incoming[e.to].push((e.from, e.cost));
    }
    incoming
}

/// A next hop to install: at `node`, towards `producer`'s prefix, over `edge`, at `cost`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RouteHop {
    pub node: usize,
    pub edge: usize,
    pub cost: u64,
}

/// Shortest distance from every node to `target`, never passing through `avoid` (`usize::MAX`:
/// no node avoided).
fn distances_avoiding(incoming: &[Vec<(usize, u64)>], target: usize, avoid: usize) -> Vec<u64> {
    let mut dist = vec![u64::MAX; incoming.len()];
    let mut heap = BinaryHeap::new();
    dist[target] = 0;
    heap.push(Reverse((0u64, target)));
    while let Some(Reverse((d, v))) = heap.pop() {
        if d > dist[v] {
            continue;
        }
        for &(u, c) in &incoming[v] {
            let nd = d.saturating_add(c);
            if u != avoid && nd < dist[u] {
                dist[u] = nd;
                heap.push(Reverse((nd, u)));
            }
        }
    }
    dist
}

/// All next hops towards `producer_node`, for every other node.
pub fn routes_to(n_nodes: usize, edges: &[Edge], producer_node: usize) -> Vec<RouteHop> {
    let incoming = incoming_edges(n_nodes, edges);
    let mut outgoing: Vec<Vec<usize>> = vec![Vec::new(); n_nodes];
    for (i, e) in edges.iter().enumerate() {
        outgoing[e.from].push(i);
    }
    let mut hops = Vec::new();
    for node in (0..n_nodes).filter(|&u| u != producer_node && !outgoing[u].is_empty()) {
        let dist = distances_avoiding(&incoming, producer_node, node);
        for &i in &outgoing[node] {
            let e = &edges[i];
            if dist[e.to] != u64::MAX {
                hops.push(RouteHop { node, edge: i, cost: e.cost.saturating_add(dist[e.to]) });
            }
        }
    }
    hops
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edge(from: usize, to: usize, cost: u64) -> Vec<Edge> {
        vec![Edge { from, to, cost, link: 0 }, Edge { from: to, to: from, cost, link: 0 }]
    }

    #[test]
    fn diamond_ranks_both_paths_by_cost() {
        // 0 - 1 - 3 (cost 1 + 1) and 0 - 2 - 3 (cost 1 + 5); producer at 3.
        let edges: Vec<Edge> = [edge(0, 1, 1), edge(1, 3, 1), edge(0, 2, 1), edge(2, 3, 5)].concat();
        assert_eq!(distances_to(4, &edges, 3), vec![2, 1, 3, 0]);
        let hops = routes_to(4, &edges, 3);
        let at = |n: usize| -> Vec<(usize, u64)> {
            hops.iter().filter(|h| h.node == n).map(|h| (edges[h.edge].to, h.cost)).collect()
        };
        assert_eq!(at(0), vec![(1, 2), (2, 6)]);
        // Node 2 reaches 3 directly (5) or through 0 and 1 (1 + 1 + 1 = 3), avoiding itself.
        assert_eq!(at(2), vec![(0, 3), (3, 5)]);
    }

    #[test]
    fn a_neighbour_that_only_leads_back_gets_no_route() {
        // Line 0 - 1 - 2, producer at 2: node 1 must not route through 0.
        let edges: Vec<Edge> = [edge(0, 1, 1), edge(1, 2, 1)].concat();
        let hops = routes_to(3, &edges, 2);
        let pairs: Vec<_> = hops.iter().map(|h| (h.node, edges[h.edge].to, h.cost)).collect();
        assert_eq!(pairs, vec![(0, 1, 2), (1, 2, 1)]);
    }

    #[test]
    fn unreachable_nodes_get_no_routes() {
        let edges = edge(0, 1, 1);
        let hops = routes_to(3, &edges, 1);
        assert_eq!(hops, vec![RouteHop { node: 0, edge: 0, cost: 1 }]);
    }
}
