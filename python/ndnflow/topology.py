"""Topologies from networkx graphs and generators, and consumers and producers placed by rule.

    >>> from ndnflow import topology
    >>> g = topology.generate("waxman", 50, seed=3)
    >>> sc = topology.scenario(g, bandwidth="10Mbps", delay="5ms", duration="20s", seed=3)
    >>> topology.populate(sc, g, consumers=10, producers=2, place="leaves", seed=3)  # doctest: +SKIP

A graph's nodes become scenario nodes (named ``n<label>`` when the label is not already a valid
node name) and its edges full-duplex links. An edge's own ``bandwidth``, ``delay`` and ``queue``
attributes win over the defaults, so a graph annotated by hand or by a reader keeps its values.

Randomness (Waxman's and Barabási-Albert's edges, the ``random`` placement) comes from the seed
given, through networkx's own seeded generators and Python's ``random.Random``: the same arguments
give the same scenario, byte for byte.
"""

from __future__ import annotations

import random
import re
import warnings
from typing import Any, Dict, List, Mapping, Optional, Sequence

from ndnflow.scenario import Quantity, Scenario

# Each generator: its networkx builder and the integer arguments it takes, in order.
KINDS: Dict[str, Sequence[str]] = {
    "grid": ("rows", "cols"),
    "tree": ("branching", "height"),
    "waxman": ("n",),
    "ba": ("n", "m"),
}

_NAME = re.compile(r"^[A-Za-z0-9_.-]+$")


class TopologyError(ValueError):
    """A generator or placement asked for something it cannot give; the message says what."""


def generate(kind: str, *sizes: int, seed: Optional[int] = None, beta: float = 0.4, alpha: float = 0.1) -> Any:
    """A connected networkx graph of `kind`:

    * ``grid`` ROWS COLS: a rows x cols lattice (``networkx.grid_2d_graph``);
    * ``tree`` BRANCHING HEIGHT: a full tree, every inner node with BRANCHING children
      (``networkx.balanced_tree``; node 0 is the root);
    * ``waxman`` N: N nodes placed uniformly in the unit square, a pair at distance d joined with
      probability ``beta * exp(-d / (alpha * L))``, L the largest distance between two nodes
      (Waxman, "Routing of multipoint connections", IEEE JSAC 1988, in his letters, as
      ``networkx.waxman_graph`` names them; its defaults beta = 0.4, alpha = 0.1); only the largest
      connected component is kept, so the graph may hold fewer than N nodes;
    * ``ba`` N M: Barabási-Albert preferential attachment, each new node joined to M existing ones
      (``networkx.barabasi_albert_graph``).
    """
    import networkx as nx

    if kind not in KINDS:
        raise TopologyError(f"unknown topology kind {kind!r}; expected one of {', '.join(map(repr, KINDS))}")
    wanted = KINDS[kind]
    if len(sizes) != len(wanted):
        raise TopologyError(f"{kind} takes {len(wanted)} size(s), {' and '.join(wanted)}; got {len(sizes)}")
    for label, value in zip(wanted, sizes):
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise TopologyError(f"{kind}: {label} must be a whole number of at least 1, got {value!r}")
    count = node_count(kind, *sizes)
    if count > MAX_NODES:
        raise TopologyError(f"{kind} {' '.join(map(str, sizes))} has more than the {MAX_NODES:,} nodes a generated "
                            f"network may have")
    if kind == "waxman" and sizes[0] > MAX_WAXMAN_NODES:
        raise TopologyError(f"waxman {sizes[0]} has more than the {MAX_WAXMAN_NODES:,} places a Waxman network may "
                            f"have (it weighs every pair of them)")
    if kind == "waxman" and sizes[0] < 2:
        # networkx scales distances by the largest between two nodes: one node has none.
        raise TopologyError(f"waxman: n must be at least 2 (it joins pairs of nodes by their distance), got {sizes[0]}")
    if kind == "waxman" and not (alpha > 0 and 0 < beta <= 1):
        raise TopologyError(f"waxman: alpha must be above 0 and beta in (0, 1], got alpha {alpha!r}, beta {beta!r}")
    if kind == "grid":
        return nx.grid_2d_graph(sizes[0], sizes[1])
    if kind == "tree":
        return nx.balanced_tree(sizes[0], sizes[1])
    if kind == "ba":
        n, m = sizes
        if m >= n:
            raise TopologyError(f"ba: m ({m}) must be below n ({n})")
        return nx.barabasi_albert_graph(n, m, seed=seed)
    graph = nx.waxman_graph(sizes[0], beta=beta, alpha=alpha, seed=seed)
    largest = max(nx.connected_components(graph), key=lambda c: (len(c), -min(c)))
    # Rebuilt in the generator's node order (a subgraph would follow the component set's).
    kept = nx.Graph()
    kept.add_nodes_from((n, graph.nodes[n]) for n in graph.nodes if n in largest)
    kept.add_edges_from((a, b, d) for a, b, d in graph.edges(data=True) if a in largest)
    if len(kept) < sizes[0]:
        warnings.warn(f"waxman: the largest connected part holds {len(kept)} of the {sizes[0]} nodes placed; a larger "
                      f"beta or alpha joins more of them", stacklevel=2)
    return kept


#: Most nodes a generated network may have: twenty times the benchmark suite's largest. Measured
#: on the 2-core machine (2026-11-28, `ndnflow topology grid 200 250`): 50,000 nodes take 6 s and
#: 470 MB, about 3.5 KB a node past 300 MB of start, so this cap is some 25 s and 1 GB; a
#: 1000 x 1000 grid, within the million allowed before, ran past 2 minutes and 5 GB.
MAX_NODES = 200_000

#: Most places a Waxman network may have: it weighs every pair of places (5,000 take 25 s and
#: 1.5 GB; 20,000 did not finish in a minute).
MAX_WAXMAN_NODES = 5_000


def node_count(kind: str, *sizes: int) -> int:
    """How many nodes `generate(kind, *sizes)` makes (waxman: places, before its largest part);
    past `MAX_NODES` the count stops at the first level above it (a tall tree's exact size is a
    number too long to compute or print)."""
    if kind == "grid":
        return sizes[0] * sizes[1]
    if kind == "tree":
        branching, height = sizes
        if branching == 1:
            return height + 1
        total, level = 0, 1
        for _ in range(height + 1):
            total += level
            if total > MAX_NODES:
                break
            level *= branching
        return total
    return sizes[0]


def node_names(graph: Any) -> Dict[Any, str]:
    """The scenario name of each graph node: its label when that is a valid node name (letters,
    digits, ``_``, ``.``, ``-``), else ``n`` and the label's characters that are (a grid's (2, 3)
    is ``n2_3``). Two labels that would share a name are an error."""
    names: Dict[Any, str] = {}
    taken: Dict[str, Any] = {}
    for node in graph.nodes:
        text = str(node)
        if not _NAME.match(text):
            text = "n" + "_".join(re.findall(r"[A-Za-z0-9.-]+", text))
        elif text[0].isdigit():
            text = "n" + text
        if text in taken:
            raise TopologyError(f"graph nodes {taken[text]!r} and {node!r} would both be named {text!r}")
        taken[text] = node
        names[node] = text
    return names


def scenario(
    graph: Any,
    bandwidth: Quantity = "10Mbps",
    delay: Quantity = "5ms",
    queue: Optional[Any] = None,
    duration: Quantity = "10s",
    seed: Optional[int] = None,
    **simulation: Any,
) -> Scenario:
    """A scenario holding `graph`'s nodes and a link per edge, in networkx's node and edge order."""
    names = node_names(graph)
    sc = Scenario(duration=duration, seed=seed, **simulation)
    sc.nodes(*names.values())
    for a, b, attrs in graph.edges(data=True):
        sc.link(
            names[a],
            names[b],
            bandwidth=attrs.get("bandwidth", bandwidth),
            delay=attrs.get("delay", delay),
            queue=attrs.get("queue", queue),
            metric=attrs.get("metric"),
        )
    return sc


def pick(graph: Any, count: int, place: str = "random", seed: Optional[int] = None, exclude: Sequence[Any] = ()) -> List[Any]:
    """`count` distinct graph nodes chosen by rule, none of `exclude`:

    * ``random``: uniformly, from the seed;
    * ``leaves``: the nodes of least degree first (a tree's or a grid's edge), ties in node order;
    * ``core``: the nodes of highest degree first (hubs), ties in node order.
    """
    pool = [n for n in graph.nodes if n not in set(exclude)]
    if count > len(pool):
        raise TopologyError(f"asked for {count} nodes by {place!r}, only {len(pool)} are left to choose from")
    order = {n: i for i, n in enumerate(graph.nodes)}
    if place == "random":
        return random.Random(seed).sample(pool, count)
    if place == "leaves":
        return sorted(pool, key=lambda n: (graph.degree(n), order[n]))[:count]
    if place == "core":
        return sorted(pool, key=lambda n: (-graph.degree(n), order[n]))[:count]
    raise TopologyError(f"unknown placement {place!r}; expected 'random', 'leaves' or 'core'")


def populate(
    sc: Scenario,
    graph: Any,
    consumers: int,
    producers: int = 1,
    place: str = "random",
    seed: Optional[int] = None,
    prefix: str = "/p",
    cc: Optional[Mapping[str, Any]] = None,
    payload: int = 1024,
) -> Scenario:
    """Put `producers` producers, then `consumers` consumers on other nodes, chosen by `place` (see
    `pick`). Producer k serves ``<prefix><k>``; consumer j fetches ``<prefix><j mod producers>/c<j>``
    (each its own object, the producers taken in turn), with `cc` (default a fixed window of 8)."""
    if producers < 1 or consumers < 0:
        raise TopologyError(f"need at least one producer and no negative count (producers={producers}, consumers={consumers})")
    names = node_names(graph)
    serving = pick(graph, producers, place, seed)
    # Consumers go by the same rule on the nodes left; "leaves" puts both at the edge, as a
    # content-distribution tree would.
    asking = pick(graph, consumers, place, None if seed is None else seed + 1, exclude=serving)
    for k, node in enumerate(serving):
        sc.producer(names[node], f"{prefix}{k}", payload=payload)
    for j, node in enumerate(asking):
        sc.consumer(names[node], f"{prefix}{j % producers}/c{j}", cc=dict(cc) if cc else {"algorithm": "fixed-window", "window": 8})
    return sc
