"""The optima experiments are judged against: `max_flow`, the most Data the network can deliver to
one consumer, so that an experiment can print "measured / optimum" (PTP §6: "utilization =
measured throughput / max flow"); and `num`, the rates network utility maximisation gives several
flows over their paths (DPCCP §IV; see its section below).

The max flow is a property of the links alone: bandwidths at time 0, every path allowed. Routes,
strategies, queues, loss and `[[events]]` are not considered, because the optimum is what those
mechanisms are judged against.

Rates are link bit/s: what the link counters (`throughput_bps`, summary `bytes`) measure, headers
included. A consumer's `goodput_bps` counts payload only; to compare it with the optimum, scale
the optimum by payload / wire bytes per Data, which a run's link counters give (`bytes` / `data`
on a link that carries only that consumer's Data).

The network (nodes, link directions with their bandwidths and underlay hops, the producers that
can serve each consumer, consumer ids) is read by the simulator's own scenario reader and handed
over by `_core.flow_network` (Rust `ndnflow_sim::flow_network`): units, names, `[topology] ndnsim`
files and errors are those of a run, with no second reader to drift from it.

networkx and scipy are imported when an optimum is computed, so that `import ndnflow` neither
pays for them nor needs them.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from ndnflow import _native
from ndnflow.scenario import Scenario

__all__ = ["MaxFlow", "Num", "OptimumError", "duality_gap", "max_flow", "num", "num_paths"]

ScenarioLike = Union[Scenario, Mapping[str, Any], str, "os.PathLike[str]"]
#: The super-source feeding every producer; a tuple, so it cannot clash with a node name.
_SOURCE = ("<producers>",)


class OptimumError(ValueError):
    """The question names no consumer of the scenario (a scenario that would not run raises the
    simulator's `ScenarioError` instead)."""


@dataclass(frozen=True)
class MaxFlow:
    """The maximum flow to one consumer.

    `value_bps`: the optimum in link bit/s (`math.inf` when a producer of the name runs on the
    consumer's own node: no link limits it). `link_flows`: bit/s on each link direction in one
    optimal flow, keyed as the results name directions ("p->r", underlay hops "a->b/u1"); several
    optimal flows may exist, this is the one networkx found. `bottlenecks`: the saturated
    directions of a minimum cut, in link order; of several minimum cuts, the one nearest the
    consumer.
    """

    value_bps: float
    link_flows: Dict[str, float] = field(default_factory=dict)
    bottlenecks: List[str] = field(default_factory=list)

    def utilization(self, measured_bps: float) -> float:
        """`measured_bps` / optimum; nan when the optimum is 0 (nothing can arrive at all)."""
        if self.value_bps == 0:
            return math.nan
        return float(measured_bps) / self.value_bps


def _network(scenario: ScenarioLike) -> Dict[str, Any]:
    """The scenario's flow network as the simulator reads it; `ScenarioError` if it would not run."""
    if isinstance(scenario, (str, os.PathLike)):
        scenario = Scenario.from_file(scenario)
    if isinstance(scenario, Mapping):
        scenario = Scenario.from_dict(scenario)
    return _native.require("flow_network")(*scenario.compiled())


def _consumer_index(consumers: List[Mapping[str, Any]], consumer: Union[str, int]) -> int:
    """The index of `consumer` (an id, or an index among `[[consumers]]`)."""
    ids = [c["id"] for c in consumers]
    if isinstance(consumer, int) and not isinstance(consumer, bool):
        if not 0 <= consumer < len(consumers):
            raise OptimumError(f"no consumer #{consumer}: the scenario has {len(consumers)} (ids: {', '.join(ids) or 'none'})")
        return consumer
    if consumer in ids:
        return ids.index(consumer)
    raise OptimumError(f"unknown consumer {consumer!r} (known: {', '.join(ids) or 'none'})")


def max_flow(scenario: ScenarioLike, consumer: Union[str, int] = 0) -> MaxFlow:
    """The largest Data rate (link bit/s) that can reach `consumer` (its id, or its index among
    `[[consumers]]`) from every producer whose prefix is a prefix of the consumer's name.

    `scenario` is a `Scenario`, a scenario document (dict) or the path of a TOML file; one the
    simulator rejects raises its `ScenarioError`. Each link direction is an edge of its own
    bandwidth (an underlay makes it the narrowest of the chain); a super-source feeds every
    matching producer without limit; the sink is the consumer's node. A consumer nothing can
    reach gets a MaxFlow of 0, not an error.
    """
    try:
        import networkx as nx
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError(f"ndnflow.optimum needs networkx ({exc}); install it with pip install networkx") from exc

    network = _network(scenario)
    spec = network["consumers"][_consumer_index(network["consumers"], consumer)]
    sink = spec["node"]
    # The reader rejects a consumer no producer serves, so this list is never empty.
    sources = [network["producers"][i]["node"] for i in spec["producers"]]
    if sink in sources:
        return MaxFlow(math.inf)

    directions = network["directions"]
    graph = nx.DiGraph()
    graph.add_nodes_from(network["nodes"])
    for d in directions:
        # The reader allows one link per pair of nodes, so each direction is an edge of its own.
        graph.add_edge(d["src"], d["dst"], capacity=min(hop["bandwidth_bps"] for hop in d["chain"]))
    for node in sources:
        graph.add_edge(_SOURCE, node)  # no capacity attribute: unlimited
    value, flows = nx.maximum_flow(graph, _SOURCE, sink)
    # networkx's sink side is every node that can still reach the sink in the residual network,
    # which makes its cut the minimum cut nearest the consumer.
    _, (_, sink_side) = nx.minimum_cut(graph, _SOURCE, sink)

    link_flows: Dict[str, float] = {}
    bottlenecks: List[str] = []
    for d in directions:
        for hop in d["chain"]:
            link_flows[hop["name"]] = float(flows[d["src"]][d["dst"]])
        if d["src"] not in sink_side and d["dst"] in sink_side:
            bottlenecks.append(d["bottleneck"])
    return MaxFlow(float(value), link_flows, bottlenecks)


# ------------------------------------------------------------------------------------ NUM
# `num`: the rates that network utility maximisation gives, so that an experiment can print each
# flow's measured rate beside its optimum (DPCCP, §IV-A, eq. (1)).
#
# The model is DPCCP's NUM for NDN: flows s (one per consumer), each made of sub-flows r (one per
# consumer-producer path), and links l of capacity c_l. Sub-flow r puts a share a_lr of its rate
# x_r on link l: 1 on every link of its path without caches, less on the links beyond a cache that
# serves part of its segments (§IV-A, Figure 3: a router answering 40 % of the segments leaves
# 0.6 on the links behind it). The flows' rates y_s = sum over r in s of x_r maximise
#
#     sum_s w_s log(y_s)   subject to   A x <= c,   x >= 0,
#
# the logarithmic utility of eq. (12) (U_s(y_s) = beta_s log y_s, beta_s the flow's setpoint: equal
# setpoints give proportional fairness, §V-C). The problem is concave with linear constraints; it is
# solved by scipy's SLSQP. Each link's price is the Lagrange multiplier of its capacity constraint:
# at the optimum, every used sub-flow of flow s sees the same summed price w_s / y_s (eq. (11),
# "Condition 1" of §V-C). Those prices also bound the optimum from above (Lagrangian duality): when
# SLSQP stops because its line search can gain nothing more in floating point, the run is
# accepted if the dual at its prices is within `GAP_TOL` of its utility (`duality_gap`).
#
# `num_paths` builds the model from a scenario: every loop-free path from a producer to each
# consumer, as the simulator reads the network (`_core.flow_network`, as `max_flow` does).

#: flow -> sub-flow -> link -> share of the sub-flow's rate on that link (a_lr).
Routing = Mapping[str, Mapping[str, Mapping[str, float]]]


@dataclass(frozen=True)
class Num:
    """The NUM optimum. Rates are in the capacities' unit (link bit/s from `num_paths`).

    `flows`: y_s per flow; `subflows`: x_r per (flow, sub-flow); `links`: the load sum_r a_lr x_r of
    every link some sub-flow uses; `prices`: each such link's Lagrange multiplier (0 where the
    link is not full), per unit of rate; `utility`: sum_s w_s log y_s.
    """

    flows: Dict[str, float]
    subflows: Dict[Tuple[str, str], float]
    links: Dict[str, float]
    prices: Dict[str, float] = field(default_factory=dict)
    utility: float = math.nan


def num(capacities: Mapping[str, float], routing: Routing, weights: Optional[Mapping[str, float]] = None) -> Num:
    """Maximise sum_s w_s log(y_s) over the sub-flows of `routing` within `capacities`.

    `capacities`: link -> capacity (> 0). `routing`: flow -> sub-flow -> link -> share a_lr (> 0,
    at most 1). `weights`: flow -> w_s (> 0), 1 each by default. Raises `OptimumError` for a flow
    without sub-flows, a sub-flow without links, a link with no capacity, or a share or weight
    out of range.
    """
    flows, subflows, links, a, w = _model(capacities, routing, weights)
    import numpy as np

    try:
        from scipy.optimize import minimize
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError(f"ndnflow.num needs scipy ({exc}); install it with pip install scipy") from exc

    c = np.array([capacities[l] for l in links], dtype=float)
    # Rates in units of the smallest capacity: the links that bind are the narrow ones, and SLSQP's
    # tolerances are absolute. In units of the largest, a network with fast access links (Abilene's
    # 10 Mbit/s backbone behind 100 Mbit/s leaves, dpccp-mp4) made its linearised constraints
    # "incompatible" three steps in.
    scale = float(c.min())
    A = np.array(a, dtype=float)
    B = np.array([[1.0 if f == s else 0.0 for (f, _) in subflows] for s in flows])
    weight = np.array([w[s] for s in flows])

    def objective(x):
        return -float(weight @ np.log(B @ x))

    def gradient(x):
        return -(B.T @ (weight / (B @ x)))

    # A feasible interior start: each sub-flow takes an equal part of its tightest link.
    load = (A > 0).sum(axis=1)
    x0 = np.array([min(c[i] / scale / load[i] for i in np.nonzero(A[:, r])[0]) for r in range(len(subflows))]) / 2
    # A line search may try a point where a flow's rate is 0 (log 0 = -inf): SLSQP backs off from
    # it, and numpy's warning about it says nothing to the reader.
    with np.errstate(divide="ignore", invalid="ignore"):
        result = minimize(objective, x0, jac=gradient, method="SLSQP", bounds=[(0.0, None)] * len(subflows),
                          constraints=[{"type": "ineq", "fun": lambda x: c / scale - A @ x, "jac": lambda x: -A}],
                          options={"ftol": 1e-13, "maxiter": 1000})
    x = np.maximum(result.x, 0.0)
    y = B @ x
    prices = getattr(result, "multipliers", None)
    if not (result.success or _certified(result.status, x, prices, A, B, c / scale, weight)):
        raise OptimumError(f"the NUM solver did not converge: {result.message}")
    return Num(
        flows={s: float(v * scale) for s, v in zip(flows, y)},
        subflows={key: float(v * scale) for key, v in zip(subflows, x)},
        links={l: float(v * scale) for l, v in zip(links, A @ x)},
        # The multipliers are per unit of the scaled rates: d(utility) / d(capacity) in real units.
        prices={} if prices is None else {l: float(p) / scale for l, p in zip(links, np.asarray(prices)[: len(links)])},
        utility=float(weight @ np.log(y * scale)),
    )


#: SLSQP's status when its line search cannot improve any more in floating point ("Positive
#: directional derivative for linesearch"): at the optimum when the duality gap says so.
_LINESEARCH_STUCK = 8
#: Largest duality gap, in units of the utility, at which a stuck run is the optimum: the utility
#: is then within 1e-6 of the best, the rates within about sqrt(2e-6) = 0.14 % of it.
GAP_TOL = 1e-6


def duality_gap(x: Any, prices: Any, A: Any, B: Any, c: Any, weight: Any) -> float:
    """The dual value at link prices `prices` minus the utility at sub-flow rates `x` (>= 0 for
    a feasible `x`; 0 at the optimum with its prices). For log utility the dual is
    D(p) = sum_s [w_s log(w_s / q_s) - w_s] + p . c, q_s being the cheapest price of flow s's
    sub-flows (a flow spends all its rate on its cheapest path: max_y w log y - y q is at y = w / q)."""
    import numpy as np

    p = np.maximum(np.asarray(prices, dtype=float)[: len(c)], 0.0)
    path_price = A.T @ p
    dual = float(p @ c)
    for s, w in enumerate(weight):
        cheapest = float(path_price[B[s] > 0].min())
        if cheapest <= 0.0:
            return math.inf  # a free path: the dual is unbounded at these prices
        dual += float(w * math.log(w / cheapest) - w)
    return dual - float(weight @ np.log(B @ x))


def _certified(status: int, x: Any, prices: Any, A: Any, B: Any, c: Any, weight: Any) -> bool:
    """Whether a run SLSQP gave up on is the optimum anyway: stuck in its line search, feasible,
    and within `GAP_TOL` of the dual."""
    import numpy as np

    if status != _LINESEARCH_STUCK or prices is None or not bool(np.all(A @ x <= c * (1 + 1e-9))):
        return False
    return duality_gap(x, prices, A, B, c, weight) <= GAP_TOL


def _model(capacities: Mapping[str, float], routing: Routing, weights: Optional[Mapping[str, float]]):
    """Flows, (flow, sub-flow) keys, used links, the matrix A (links x sub-flows) and the weights,
    checked."""
    flows = list(routing)
    if not flows:
        raise OptimumError("no flows to share the network")
    subflows: List[Tuple[str, str]] = []
    for s in flows:
        if not routing[s]:
            raise OptimumError(f"flow {s!r} has no sub-flows")
        subflows.extend((s, r) for r in routing[s])
    links: List[str] = []
    for s, r in subflows:
        shares = routing[s][r]
        if not shares:
            raise OptimumError(f"sub-flow {r!r} of flow {s!r} crosses no link")
        for link, share in shares.items():
            if link not in capacities:
                raise OptimumError(f"sub-flow {r!r} of flow {s!r}: link {link!r} has no capacity")
            if not 0.0 < float(share) <= 1.0:
                raise OptimumError(f"sub-flow {r!r} of flow {s!r}: share {share!r} of link {link!r} is not in (0, 1]")
            if link not in links:
                links.append(link)
    for link in links:
        if not float(capacities[link]) > 0.0:
            raise OptimumError(f"link {link!r}: capacity {capacities[link]!r} is not positive")
    a = [[float(routing[s][r].get(link, 0.0)) for (s, r) in subflows] for link in links]
    w = {s: 1.0 for s in flows}
    for s, value in (weights or {}).items():
        if s not in w:
            raise OptimumError(f"weight for unknown flow {s!r} (flows: {', '.join(flows)})")
        if not float(value) > 0.0:
            raise OptimumError(f"flow {s!r}: weight {value!r} is not positive")
        w[s] = float(value)
    return flows, subflows, links, a, w


def num_paths(scenario: ScenarioLike, consumers: Optional[Sequence[Union[str, int]]] = None,
              max_hops: Optional[int] = None) -> Tuple[Dict[str, float], Dict[str, Dict[str, Dict[str, float]]]]:
    """The capacities and routing of `num` for a scenario: each consumer (ids or indices; all by
    default) is a flow, and each loop-free path from one of its producers to it a sub-flow, named
    by its nodes ("p-a-r-c"), with share 1 on each link direction its Data cross (named as the
    results name them, underlay hops included; a direction's capacity is its narrowest hop).
    `max_hops` leaves out longer paths. Bandwidths are those at time 0.
    """
    try:
        import networkx as nx
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError(f"ndnflow.num needs networkx ({exc}); install it with pip install networkx") from exc

    network = _network(scenario)
    specs = network["consumers"]
    chosen = range(len(specs)) if consumers is None else [_consumer_index(specs, c) for c in consumers]
    graph = nx.DiGraph()
    graph.add_nodes_from(network["nodes"])
    capacities: Dict[str, float] = {}
    for d in network["directions"]:
        hops = [hop["name"] for hop in d["chain"]]
        graph.add_edge(d["src"], d["dst"], hops=hops)
        for hop in d["chain"]:
            capacities[hop["name"]] = float(hop["bandwidth_bps"])
    routing: Dict[str, Dict[str, Dict[str, float]]] = {}
    for i in chosen:
        spec = specs[i]
        subflows: Dict[str, Dict[str, float]] = {}
        for producer in dict.fromkeys(network["producers"][k]["node"] for k in spec["producers"]):
            if producer == spec["node"]:
                raise OptimumError(f"consumer {spec['id']!r}: a producer runs on its own node; no link limits it")
            for nodes in nx.all_simple_paths(graph, producer, spec["node"], cutoff=max_hops):
                edges = zip(nodes, nodes[1:])
                subflows["-".join(nodes)] = {hop: 1.0 for u, v in edges for hop in graph.edges[u, v]["hops"]}
        if not subflows:
            raise OptimumError(f"consumer {spec['id']!r}: no path from a producer")
        routing[spec["id"]] = subflows
    return capacities, routing
