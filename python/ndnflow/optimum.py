"""`max_flow`: the most Data the network can deliver to one consumer, so that an experiment can
print "measured / optimum" (PTP §6: "utilization = measured throughput / max flow").

The optimum is a property of the links alone: bandwidths at time 0, every path allowed. Routes,
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

networkx is imported when a flow is computed, so that `import ndnflow` neither pays for it nor
needs it.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from typing import Any, Dict, List, Mapping, Union

from ndnflow import _native
from ndnflow.scenario import Scenario

__all__ = ["MaxFlow", "OptimumError", "max_flow"]

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
