//! Automatic routes: for every producer prefix, each node gets every neighbour as a next hop, ranked
//! by the cost of reaching the producer through it (link cost + the neighbour's shortest distance),
//! as NLSR and ndnSIM's `GlobalRoutingHelper::CalculateAllPossibleRoutes` install them.
//!
//! Distances come from one Dijkstra per producer node over the reversed graph. ndnSIM computes each
//! neighbour's cost with the other faces removed; using the full-graph distance instead costs one
//! Dijkstra per producer rather than one per face, and ranks the loop-free next hops identically
//! (a neighbour whose shortest path comes back through this node simply ranks last).

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
        out.push(Edge { from: l.a, to: l.b, cost: cost(l.ab.delay), link: i });
        out.push(Edge { from: l.b, to: l.a, cost: cost(l.ba.delay), link: i });
    }
    out
}

/// Shortest distance from every node to `target` along directed edges (`u64::MAX` = unreachable).
pub fn distances_to(n_nodes: usize, edges: &[Edge], target: usize) -> Vec<u64> {
    let mut incoming: Vec<Vec<(usize, u64)>> = vec![Vec::new(); n_nodes];
    for e in edges {
        incoming[e.to].push((e.from, e.cost));
    }
    let mut dist = vec![u64::MAX; n_nodes];
    let mut heap = BinaryHeap::new();
    dist[target] = 0;
    heap.push(Reverse((0u64, target)));
    while let Some(Reverse((d, v))) = heap.pop() {
        if d > dist[v] {
            continue;
        }
        for &(u, c) in &incoming[v] {
            let nd = d.saturating_add(c);
            if nd < dist[u] {
                dist[u] = nd;
                heap.push(Reverse((nd, u)));
            }
        }
    }
    dist
}

/// A next hop to install: at `node`, towards `producer`'s prefix, over `edge`, at `cost`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RouteHop {
    pub node: usize,
    pub edge: usize,
    pub cost: u64,
}

/// All next hops towards `producer_node`, for every other node.
pub fn routes_to(n_nodes: usize, edges: &[Edge], producer_node: usize) -> Vec<RouteHop> {
    let dist = distances_to(n_nodes, edges, producer_node);
    let mut hops = Vec::new();
    for (i, e) in edges.iter().enumerate() {
        if e.from == producer_node || dist[e.to] == u64::MAX {
            continue;
        }
        hops.push(RouteHop { node: e.from, edge: i, cost: e.cost.saturating_add(dist[e.to]) });
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
        let at0: Vec<_> = hops.iter().filter(|h| h.node == 0).map(|h| (edges[h.edge].to, h.cost)).collect();
        assert_eq!(at0, vec![(1, 2), (2, 4)]);
        // Node 2 reaches 3 directly (5) or back through 0 (1 + 2 = 3): the detour ranks first.
        let at2: Vec<_> = hops.iter().filter(|h| h.node == 2).map(|h| (edges[h.edge].to, h.cost)).collect();
        assert_eq!(at2, vec![(0, 3), (3, 5)]);
    }

    #[test]
    fn unreachable_nodes_get_no_routes() {
        let edges = edge(0, 1, 1);
        let hops = routes_to(3, &edges, 1);
        assert_eq!(hops, vec![RouteHop { node: 0, edge: 0, cost: 1 }]);
    }
}
