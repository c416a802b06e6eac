//! Automatic routes: for every producer prefix, each node gets every neighbour that can reach the
//! producer as a next hop, ranked by the cost of reaching it that way, as ndnSIM's
//! `GlobalRoutingHelper::CalculateAllPossibleRoutes` installs them (`routes_to`); or, with
//! `next_hops = "shortest-path"`, only the first hop of its shortest path, as ndnSIM's
//! `GlobalRoutingHelper::CalculateRoutes` does (`shortest_routes_to`).
//!
//! As in ndnSIM, the cost through neighbour n of node u is the link cost plus n's shortest distance
//! to the producer *in the graph without u*: a neighbour whose only way to the producer comes back
//! through u gets no route (in a line A - B - P, B does not route to P through A). That takes one
//! Dijkstra per (producer, node), which is fast for the topologies of the papers (hundreds of nodes).

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::routing_detours::{Detour, Dominators, Separators};
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

/// All next hops towards `producer_node`, for every other node: through each neighbour `v` of
/// node `u`, at the edge's cost plus `v`'s distance to the producer in the graph without `u`.
/// Worked out from one Dijkstra and few small searches (`routing_detours.rs`); the same routes as
/// `routes_by_removal`, which graphs with a zero cost still take.
pub fn routes_to(n_nodes: usize, edges: &[Edge], producer_node: usize) -> Vec<RouteHop> {
    if edges.iter().any(|e| e.cost == 0) {
        return routes_by_removal(n_nodes, edges, producer_node);
    }
    let incoming = incoming_edges(n_nodes, edges);
    let dist = distances_avoiding(&incoming, producer_node, usize::MAX);
    let mut outgoing: Vec<Vec<(usize, u64)>> = vec![Vec::new(); n_nodes];
    for e in edges {
        outgoing[e.from].push((e.to, e.cost));
    }
    let dominators = Dominators::new(&dist, &outgoing, producer_node);
    // The cut-off test needs every edge to go both ways, as `edges` makes them.
    let separators = symmetric(n_nodes, edges).then(|| {
        let neighbours: Vec<Vec<usize>> = outgoing.iter().map(|o| o.iter().map(|&(y, _)| y).collect()).collect();
        Separators::new(&neighbours, producer_node)
    });
    let mut detour = Detour::new(n_nodes);
    let mut hops = Vec::new();
    for (i, e) in edges.iter().enumerate().filter(|(_, e)| e.from != producer_node) {
        let (u, v) = (e.from, e.to);
        let d = if v == producer_node || dist[v] == u64::MAX || !dominators.dominates(u, v) {
            dist[v]
        } else if separators.as_ref().is_some_and(|s| s.separates(u, v)) {
            u64::MAX
        } else {
            detour.distance(&outgoing, &dist, v, producer_node, u)
        };
        if d != u64::MAX {
            hops.push(RouteHop { node: u, edge: i, cost: e.cost.saturating_add(d) });
        }
    }
    // In the order of `routes_by_removal`: by node, then by edge.
    hops.sort_by_key(|h| (h.node, h.edge));
    hops
}

/// The first hop of every node's shortest path to `producer_node`, at the path's cost: one next hop
/// per node (ndnSIM's `CalculateRoutes`). Among equal paths, the one through the neighbour that a
/// Dijkstra from the producer settles first (nearer, then the lower node index), then the edge
/// listed first: ndnSIM leaves the tie to the order of its graph's adjacency lists; ours is
/// fixed, so a scenario's routes do not depend on anything but its file.
pub fn shortest_routes_to(n_nodes: usize, edges: &[Edge], producer_node: usize) -> Vec<RouteHop> {
    let mut arriving: Vec<Vec<usize>> = vec![Vec::new(); n_nodes];
    for (i, e) in edges.iter().enumerate() {
        arriving[e.to].push(i);
    }
    let mut dist = vec![u64::MAX; n_nodes];
    let mut via = vec![usize::MAX; n_nodes];
    let mut heap = BinaryHeap::new();
    dist[producer_node] = 0;
    heap.push(Reverse((0u64, producer_node)));
    // Backwards from the producer: a node's `via` is its edge towards a node settled before it, so
    // the hops form a tree and no route loops, zero costs included.
    while let Some(Reverse((d, x))) = heap.pop() {
        if d > dist[x] {
            continue;
        }
        for &i in &arriving[x] {
            let e = edges[i];
            let through = d.saturating_add(e.cost);
            if through < dist[e.from] {
                dist[e.from] = through;
                via[e.from] = i;
                heap.push(Reverse((through, e.from)));
            }
        }
    }
    (0..n_nodes)
        .filter(|&u| u != producer_node && via[u] != usize::MAX)
        .map(|u| RouteHop { node: u, edge: via[u], cost: dist[u] })
        .collect()
}

/// Whether every edge has its reverse.
fn symmetric(n_nodes: usize, edges: &[Edge]) -> bool {
    let mut pairs: rustc_hash::FxHashMap<(usize, usize), i64> = rustc_hash::FxHashMap::default();
    for e in edges {
        *pairs.entry((e.from.min(e.to), e.from.max(e.to))).or_default() += if e.from < e.to { 1 } else { -1 };
    }
    n_nodes > 0 && pairs.values().all(|&balance| balance == 0)
}

/// `routes_to` by the definition: one Dijkstra per node, on the graph without that node.
pub fn routes_by_removal(n_nodes: usize, edges: &[Edge], producer_node: usize) -> Vec<RouteHop> {
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

    /// A random graph of 2-39 nodes: links with costs 1-4 each way, of which a tenth of the
    /// cases (`case % 10 == 0`) make a quarter one-way (which turns the cut-off shortcut off);
    /// several components at times. Returns the node count and the edges.
    fn random_graph(rng: &mut rand_chacha::ChaCha8Rng, case: usize) -> (usize, Vec<Edge>) {
        use rand::RngExt;
        let n = rng.random_range(2..40usize);
        let mut edges = Vec::new();
        for _ in 0..rng.random_range(0..3 * n) {
            let (a, b) = (rng.random_range(0..n), rng.random_range(0..n));
            if a == b || edges.iter().any(|e: &Edge| e.from == a && e.to == b) {
                continue;
            }
            edges.push(Edge { from: a, to: b, cost: rng.random_range(1..5), link: 0 });
            if !case.is_multiple_of(10) || rng.random_range(0..4) != 0 {
                edges.push(Edge { from: b, to: a, cost: rng.random_range(1..5), link: 0 });
            }
        }
        (n, edges)
    }

    #[test]
    fn detours_give_the_routes_of_one_dijkstra_per_node() {
        // 400 random graphs: the fast routes equal the definition's, hop for hop.
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(17);
        for case in 0..400 {
            let (n, edges) = random_graph(&mut rng, case);
            let producer = rng.random_range(0..n);
            assert_eq!(routes_to(n, &edges, producer), routes_by_removal(n, &edges, producer), "case {case}");
        }
    }

    #[test]
    fn a_line_and_a_ring() {
        // Line 0 - 1 - 2 - 3, producer 0: each node routes back towards 0 only (its other
        // neighbour leads nowhere without it). Ring of four, producer 0: node 2 reaches 0 both ways
        // at cost 2, through 1 and through 3; node 1 directly (1) or the long way round (3).
        let line: Vec<Edge> = [edge(0, 1, 1), edge(1, 2, 1), edge(2, 3, 1)].concat();
        let hops: Vec<_> = routes_to(4, &line, 0).iter().map(|h| (h.node, line[h.edge].to, h.cost)).collect();
        assert_eq!(hops, vec![(1, 0, 1), (2, 1, 2), (3, 2, 3)]);
        let ring: Vec<Edge> = [edge(0, 1, 1), edge(1, 2, 1), edge(2, 3, 1), edge(3, 0, 1)].concat();
        let at = |n: usize| -> Vec<(usize, u64)> {
            routes_to(4, &ring, 0).iter().filter(|h| h.node == n).map(|h| (ring[h.edge].to, h.cost)).collect()
        };
        assert_eq!(at(2), vec![(1, 2), (3, 2)]);
        assert_eq!(at(1), vec![(0, 1), (2, 3)]);
    }

    #[test]
    fn shortest_path_routes_keep_one_next_hop() {
        // The diamond above (producer 3): node 0 keeps 1 (2, against 6 through 2); node 2 keeps
        // 0 (1 + 1 + 1 = 3, against 5 directly), where all-possible routes give it both.
        let edges: Vec<Edge> = [edge(0, 1, 1), edge(1, 3, 1), edge(0, 2, 1), edge(2, 3, 5)].concat();
        let hops: Vec<_> =
            shortest_routes_to(4, &edges, 3).iter().map(|h| (h.node, edges[h.edge].to, h.cost)).collect();
        assert_eq!(hops, vec![(0, 1, 2), (1, 3, 1), (2, 0, 3)]);
        // The ring of four (producer 0): node 2's two paths cost 2 each; the tie goes to the
        // neighbour settled first, node 1 (lower index, both at distance 1).
        let ring: Vec<Edge> = [edge(0, 1, 1), edge(1, 2, 1), edge(2, 3, 1), edge(3, 0, 1)].concat();
        let hops: Vec<_> = shortest_routes_to(4, &ring, 0).iter().map(|h| (h.node, ring[h.edge].to, h.cost)).collect();
        assert_eq!(hops, vec![(1, 0, 1), (2, 1, 2), (3, 0, 1)]);
        // Unreachable node 2 gets nothing.
        let pair = edge(0, 1, 1);
        assert_eq!(shortest_routes_to(3, &pair, 1), vec![RouteHop { node: 0, edge: 0, cost: 1 }]);
    }

    #[test]
    fn a_shortest_path_route_is_one_of_the_all_possible_ones_at_their_best_cost() {
        // 300 random graphs: each node's one shortest-path hop is among its all-possible hops, at
        // the cheapest of their costs (a shortest path never comes back through the node).
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(23);
        for case in 0..300 {
            let (n, edges) = random_graph(&mut rng, case);
            let producer = rng.random_range(0..n);
            let all = routes_to(n, &edges, producer);
            for hop in shortest_routes_to(n, &edges, producer) {
                let best = all.iter().filter(|h| h.node == hop.node).map(|h| h.cost).min();
                assert_eq!(best, Some(hop.cost), "case {case}, node {}", hop.node);
                assert!(all.contains(&hop), "case {case}: {hop:?} is not an all-possible hop");
            }
        }
    }

    #[test]
    fn unreachable_nodes_get_no_routes() {
        let edges = edge(0, 1, 1);
        let hops = routes_to(3, &edges, 1);
        assert_eq!(hops, vec![RouteHop { node: 0, edge: 0, cost: 1 }]);
    }
}
