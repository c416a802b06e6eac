//! The all-possible-routes costs of `routing::routes_to` without one Dijkstra per node.
//!
//! A node `u` needs, for each neighbour `v`, `v`'s distance to the producer in the graph without
//! `u`. Running Dijkstra once per `u` made building a 10,000-node grid take 20 s. Instead:
//!
//! 1. One Dijkstra gives every node's distance `d` in the whole graph.
//! 2. If some shortest path from `v` avoids `u`, removing `u` changes nothing: the answer is
//!    `d(v)`. Otherwise `u` dominates `v` in the shortest-path DAG (every edge `x -> y` with
//!    `c(x, y) + d(y) = d(x)`, rooted at the producer); the DAG's dominator tree answers that in
//!    O(1) per query (Cooper, Harvey and Kennedy, "A Simple, Fast Dominance Algorithm", 2001: a
//!    node's immediate dominator is the nearest common dominator of its DAG successors, taken in
//!    order of distance since costs are at least 1).
//! 3. A dominated neighbour cut off from the producer by `u` (found from one depth-first search's
//!    low-links, Hopcroft and Tarjan 1973) has no route; costs nothing to search.
//! 4. The remaining few are searched with A* from `v` to the producer in the graph without `u`,
//!    guided by `d` (admissible and consistent: removing a node never shortens a path), which
//!    explores little beyond the detour.
//!
//! The distances are exact, so the routes are those of the per-node Dijkstra, which stays as
//! the reference (`routing::routes_by_removal`) for graphs with zero costs and for the tests.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Immediate dominators of the shortest-path DAG towards `root`, as Euler-tour intervals.
pub(crate) struct Dominators {
    enter: Vec<u32>,
    leave: Vec<u32>,
}

impl Dominators {
    /// `dist`: every node's distance to `root` (`u64::MAX`: unreachable); `outgoing[x]`: (y, cost)
    /// of the edges x -> y. Every cost must be at least 1.
    pub(crate) fn new(dist: &[u64], outgoing: &[Vec<(usize, u64)>], root: usize) -> Dominators {
        let n = dist.len();
        let mut order: Vec<usize> = (0..n).filter(|&x| dist[x] != u64::MAX).collect();
        order.sort_by_key(|&x| (dist[x], x));
        let mut idom = vec![usize::MAX; n];
        let mut depth = vec![0u32; n];
        idom[root] = root;
        for &x in order.iter().filter(|&&x| x != root) {
            let mut best = usize::MAX;
            for &(y, c) in &outgoing[x] {
                if dist[y] != u64::MAX && c.saturating_add(dist[y]) == dist[x] {
                    best = if best == usize::MAX { y } else { Self::common(&idom, &depth, best, y) };
                }
            }
            idom[x] = best;
            depth[x] = depth[best] + 1;
        }
        let mut children: Vec<Vec<usize>> = vec![Vec::new(); n];
        for &x in order.iter().filter(|&&x| x != root) {
            children[idom[x]].push(x);
        }
        let (mut enter, mut leave) = (vec![u32::MAX; n], vec![0u32; n]);
        let mut clock = 0u32;
        let mut stack = vec![(root, 0usize)];
        enter[root] = 0;
        while let Some(&mut (x, ref mut next)) = stack.last_mut() {
            if let Some(&child) = children[x].get(*next) {
                *next += 1;
                clock += 1;
                enter[child] = clock;
                stack.push((child, 0));
            } else {
                leave[x] = clock;
                stack.pop();
            }
        }
        Dominators { enter, leave }
    }

    /// The nearest common dominator of `a` and `b` (both already placed in the tree).
    fn common(idom: &[usize], depth: &[u32], mut a: usize, mut b: usize) -> usize {
        while a != b {
            if depth[a] >= depth[b] {
                a = idom[a];
            } else {
                b = idom[b];
            }
        }
        a
    }

    /// Whether every shortest path from `v` passes through `u` (`u != v`, both reachable).
    pub(crate) fn dominates(&self, u: usize, v: usize) -> bool {
        u != v && self.enter[u] != u32::MAX && self.enter[u] <= self.enter[v] && self.leave[v] <= self.leave[u]
    }
}

/// Which nodes removing one node cuts off from `root`, for a graph whose edges go both ways.
pub(crate) struct Separators {
    disc: Vec<u32>,
    /// The last discovery time in each node's DFS subtree.
    last: Vec<u32>,
    low: Vec<u32>,
    /// Each node's DFS children, in discovery order.
    children: Vec<Vec<usize>>,
}

impl Separators {
    /// `neighbours[x]`: the nodes joined to `x`.
    pub(crate) fn new(neighbours: &[Vec<usize>], root: usize) -> Separators {
        let n = neighbours.len();
        let (mut disc, mut last, mut low) = (vec![u32::MAX; n], vec![0u32; n], vec![u32::MAX; n]);
        let mut children: Vec<Vec<usize>> = vec![Vec::new(); n];
        let mut clock = 0u32;
        disc[root] = 0;
        low[root] = 0;
        let mut stack: Vec<(usize, usize, usize)> = vec![(root, usize::MAX, 0)];
        while let Some(&mut (x, parent, ref mut next)) = stack.last_mut() {
            if let Some(&y) = neighbours[x].get(*next) {
                *next += 1;
                if disc[y] == u32::MAX {
                    clock += 1;
                    disc[y] = clock;
                    low[y] = clock;
                    children[x].push(y);
                    stack.push((y, x, 0));
                } else if y != parent {
                    low[x] = low[x].min(disc[y]);
                }
            } else {
                last[x] = clock;
                stack.pop();
                if parent != usize::MAX {
                    low[parent] = low[parent].min(low[x]);
                }
            }
        }
        Separators { disc, last, low, children }
    }

    /// Whether removing `u` leaves `v` (a neighbour of `u`) with no way to the root.
    pub(crate) fn separates(&self, u: usize, v: usize) -> bool {
        let (du, dv) = (self.disc[u], self.disc[v]);
        if du == u32::MAX || dv == u32::MAX || dv <= du || dv > self.last[u] {
            return false; // v is not below u in the DFS tree: its way up avoids u
        }
        let kids = &self.children[u];
        let k = kids.partition_point(|&w| self.disc[w] <= dv) - 1;
        self.low[kids[k]] >= du
    }
}

/// A* from a node to `target` in the graph without one node, guided by the distances `dist`
/// of the whole graph; its buffers are kept between searches.
pub(crate) struct Detour {
    g: Vec<u64>,
    touched: Vec<usize>,
    heap: BinaryHeap<Reverse<(u64, u64, usize)>>,
}

impl Detour {
    pub(crate) fn new(n: usize) -> Detour {
        Detour { g: vec![u64::MAX; n], touched: Vec::new(), heap: BinaryHeap::new() }
    }

    /// The shortest distance from `from` to `target` never passing through `avoid`.
    pub(crate) fn distance(
        &mut self,
        outgoing: &[Vec<(usize, u64)>],
        dist: &[u64],
        from: usize,
        target: usize,
        avoid: usize,
    ) -> u64 {
        for &x in &self.touched {
            self.g[x] = u64::MAX;
        }
        self.touched.clear();
        self.heap.clear();
        self.g[from] = 0;
        self.touched.push(from);
        self.heap.push(Reverse((dist[from], 0, from)));
        while let Some(Reverse((_, g, x))) = self.heap.pop() {
            if x == target {
                return g;
            }
            if g > self.g[x] {
                continue;
            }
            for &(y, c) in &outgoing[x] {
                let ng = g.saturating_add(c);
                if y != avoid && dist[y] != u64::MAX && ng < self.g[y] {
                    if self.g[y] == u64::MAX {
                        self.touched.push(y);
                    }
                    self.g[y] = ng;
                    self.heap.push(Reverse((ng.saturating_add(dist[y]), ng, y)));
                }
            }
        }
        u64::MAX
    }
}
