"""`max_flow`: the most Data the network can deliver to one consumer, so that an experiment can
print "measured / optimum" (PTP §6: "utilization = measured throughput / max flow").

The optimum is a property of the links alone: bandwidths at time 0, every path allowed. Routes,
strategies, queues, loss and `[[events]]` are not considered, because the optimum is what those
mechanisms are judged against.

Rates are link bit/s: what the link counters (`throughput_bps`, summary `bytes`) measure, headers
included. A consumer's `goodput_bps` counts payload only; to compare it with the optimum, scale
the optimum by payload / wire bytes per Data, which a run's link counters give (`bytes` / `data`
on a link that carries only that consumer's Data).

networkx is imported when a flow is computed, so that `import ndnflow` neither pays for it nor
needs it.
"""

from __future__ import annotations

import math
import os
import re
import sys
from collections import Counter
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Dict, Iterator, List, Mapping, Tuple, Union
from urllib.parse import unquote_to_bytes

from ndnflow import _native
from ndnflow.scenario import Scenario

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

__all__ = ["MaxFlow", "OptimumError", "max_flow"]

ScenarioLike = Union[Scenario, Mapping[str, Any], str, "os.PathLike[str]"]
#: The super-source feeding every producer; a tuple, so it cannot clash with a node name.
_SOURCE = ("<producers>",)
_RATE = re.compile(r"^\s*([0-9][0-9_]*(?:\.[0-9_]*)?|\.[0-9][0-9_]*)\s*([kKMGT]?)(bps|b/s)\s*$")
_PREFIX = {"": 1, "k": 10**3, "K": 10**3, "M": 10**6, "G": 10**9, "T": 10**12}


class OptimumError(ValueError):
    """The question has no answer: unknown consumer, no producer for its name, unknown node."""


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


def _bit_rate(value: Any, what: str) -> int:
    """Bit/s in a bandwidth as the scenario format writes it ("10Mbps", "1.5Mb/s"), or a number.

    `ndnflow.units` only formats bandwidths (Rust parses them), so this reads the same units."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return int(value)
    match = _RATE.match(value) if isinstance(value, str) else None
    if match is None:
        raise OptimumError(f"{what}: invalid bandwidth {value!r} (e.g. \"10Mbps\")")
    rate = int(Decimal(match.group(1).replace("_", "")) * _PREFIX[match.group(2)])
    if rate <= 0:
        raise OptimumError(f"{what}: bandwidth {value!r} must be positive")
    return rate


def _components(name: str) -> List[bytes]:
    """An NDN name's components, unescaped: "/a/b" -> [b"a", b"b"]."""
    rest = name[4:] if name.startswith("ndn:") else name
    return [unquote_to_bytes(part) for part in rest.split("/") if part]


def _serves(prefix: str, name: str) -> bool:
    """Whether `prefix` is a prefix of `name` component by component ("/a" of "/a/b", not "/ab")."""
    head, full = _components(prefix), _components(name)
    return full[: len(head)] == head


def _document(scenario: ScenarioLike) -> Dict[str, Any]:
    """The scenario document, with the nodes and links of a `[topology] ndnsim` file merged in."""
    if isinstance(scenario, (str, os.PathLike)):
        scenario = Scenario.from_file(scenario)
    if isinstance(scenario, Mapping):
        scenario = Scenario.from_dict(scenario)
    doc, base = scenario.to_dict(), scenario.base_dir or "."
    topology = doc.get("topology", {}).get("ndnsim")
    if topology is not None:
        path = os.path.join(base, topology)
        with open(path, encoding="utf-8") as file:
            text = _native.require("ndnsim_to_toml")(file.read(), path)
        network = tomllib.loads(text)
        doc["nodes"] = {**network.get("nodes", {}), **doc.get("nodes", {})}
        doc["links"] = network.get("links", []) + doc.get("links", [])
    return doc


def _directions(doc: Mapping[str, Any]) -> Iterator[Tuple[str, str, List[Tuple[str, int]]]]:
    """(src, dst, chain) per link direction in file order; `chain` is the direction and its
    underlay hops as (name, bit/s), which the Data cross one after the other."""
    nodes = doc.get("nodes", {})
    for i, link in enumerate(doc.get("links", [])):
        a, b = link["between"]
        for node in (a, b):
            if node not in nodes:
                raise OptimumError(f"links[{i}]: unknown node {node!r}")
        for key, src, dst in (("forward", a, b), ("reverse", b, a)):
            spec = {**link, **link.get(key, {})}
            if "bandwidth" not in spec:
                raise OptimumError(f"links[{i}]: no bandwidth for {src}->{dst}")
            name = f"{src}->{dst}"
            chain = [(name, _bit_rate(spec["bandwidth"], f"links[{i}].bandwidth"))]
            for k, hop in enumerate(spec.get("underlay", []), 1):
                chain.append((f"{name}/u{k}", _bit_rate(hop["bandwidth"], f"links[{i}].underlay[{k - 1}].bandwidth")))
            yield src, dst, chain


def _consumer_ids(doc: Mapping[str, Any]) -> List[str]:
    """The ids the simulator gives consumers: the node's name when it runs one consumer, else
    "node#k" (k counts that node's consumers in file order)."""
    nodes = [c["node"] for c in doc.get("consumers", [])]
    total, seen, ids = Counter(nodes), Counter(), []
    for node in nodes:
        ids.append(node if total[node] == 1 else f"{node}#{seen[node]}")
        seen[node] += 1
    return ids


def max_flow(scenario: ScenarioLike, consumer: Union[str, int] = 0) -> MaxFlow:
    """The largest Data rate (link bit/s) that can reach `consumer` (its id, or its index among
    `[[consumers]]`) from every producer whose prefix is a prefix of the consumer's name.

    `scenario` is a `Scenario`, a scenario document (dict) or the path of a TOML file. Each link
    direction is an edge of its own bandwidth (an underlay makes it the narrowest of the chain);
    a super-source feeds every matching producer without limit; the sink is the consumer's node.
    Parallel links between the same two nodes (which the scenario format rejects, but a document
    built by hand may hold) are one edge of the summed capacity whose flow is shared back in
    proportion to capacity; they have the same direction name, so `link_flows` sums them again.
    A consumer nothing can reach gets a MaxFlow of 0, not an error.
    """
    try:
        import networkx as nx
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError(f"ndnflow.optimum needs networkx ({exc}); install it with pip install networkx") from exc

    doc = _document(scenario)
    ids, consumers = _consumer_ids(doc), doc.get("consumers", [])
    if isinstance(consumer, int) and not isinstance(consumer, bool):
        if not 0 <= consumer < len(consumers):
            raise OptimumError(f"no consumer #{consumer}: the scenario has {len(consumers)} (ids: {', '.join(ids) or 'none'})")
        index = consumer
    elif consumer in ids:
        index = ids.index(consumer)
    else:
        raise OptimumError(f"unknown consumer {consumer!r} (known: {', '.join(ids) or 'none'})")
    cid, spec = ids[index], consumers[index]
    nodes, sink = doc.get("nodes", {}), spec["node"]
    if sink not in nodes:
        raise OptimumError(f"consumer {cid!r} is on unknown node {sink!r}")
    producers = [p for p in doc.get("producers", []) if _serves(p["prefix"], spec["name"])]
    if not producers:
        prefixes = ", ".join(p["prefix"] for p in doc.get("producers", [])) or "none"
        raise OptimumError(f"no producer serves consumer {cid!r}'s name {spec['name']!r} (producer prefixes: {prefixes})")
    for p in producers:
        if p["node"] not in nodes:
            raise OptimumError(f"producer of {p['prefix']!r} is on unknown node {p['node']!r}")
    if any(p["node"] == sink for p in producers):
        return MaxFlow(math.inf)

    directions = list(_directions(doc))
    graph = nx.DiGraph()
    graph.add_nodes_from(nodes)
    for src, dst, chain in directions:
        capacity = min(rate for _, rate in chain)
        if graph.has_edge(src, dst):
            capacity += graph[src][dst]["capacity"]
        graph.add_edge(src, dst, capacity=capacity)
    for p in producers:
        graph.add_edge(_SOURCE, p["node"])  # no capacity attribute: unlimited
    value, flows = nx.maximum_flow(graph, _SOURCE, sink)
    # networkx's sink side is every node that can still reach the sink in the residual network,
    # which makes its cut the minimum cut nearest the consumer.
    _, (_, sink_side) = nx.minimum_cut(graph, _SOURCE, sink)

    link_flows: Dict[str, float] = {}
    bottlenecks: List[str] = []
    for src, dst, chain in directions:
        share = min(rate for _, rate in chain) / graph[src][dst]["capacity"]
        for name, _ in chain:
            link_flows[name] = link_flows.get(name, 0.0) + flows[src][dst] * share
        narrowest = min(chain, key=lambda hop: hop[1])[0]  # the first of equals: the direction
        if src not in sink_side and dst in sink_side and narrowest not in bottlenecks:
            bottlenecks.append(narrowest)
    return MaxFlow(float(value), link_flows, bottlenecks)
