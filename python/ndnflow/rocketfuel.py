"""Rocketfuel router maps (``.cch``) as networkx graphs, the way ndnSIM's RocketfuelMapReader reads
them (ndnSIM utils/topology/rocketfuel-map-reader.cpp): routers become nodes, adjacencies links,
and each router gets a role from its degree, each link a bandwidth, delay, OSPF metric and queue
from its class.

What the reader does, in order:

1. Every line ``uid @loc [+] [bb] (n) [&ext] -> <nuid> <nuid> ... {-euid} ... =name rR`` with
   radius R = 0 adds router ``uid`` and a link to each ``<nuid>`` (lines of a larger radius, and
   lines that do not parse, are skipped, as ndnSIM skips them).
2. Only the largest connected component is kept (``keep_one_component``).
3. Roles: for each degree d from 1 to ``client_degrees``, routers of degree d become clients, and
   their neighbours without a role gateways; a gateway of degree below min(d, 3) + 1 passes the
   backbone role on to its own neighbours without one. Every router still without a role is
   backbone.
4. ``connect_backbones``: the backbone's components are joined in a chain, each to the next by a
   link between two of their routers drawn at random.
5. Links other than backbone-backbone, backbone-gateway, gateway-gateway and gateway-client are
   removed, and the largest component kept again.
6. Routers are named ``bb-<uid>``, ``gw-<uid>`` and ``leaf-<uid>``; each link draws its bandwidth
   (a whole number of bit/s, uniform between its class's bounds) and delay (uniform, rounded up to
   the microsecond), and gets the OSPF metric max(1, floor(100 Mbit/s / bandwidth)) and a
   drop-tail queue of ceil(average RTT x bandwidth / 8 / 1100) packets (a bandwidth-delay product
   in 1,100-byte packets).

The bounds default to those of ndnSIM's own converter example (rocketfuel-maps-cch-to-annotaded):
an average RTT of 250 ms, clients of degree 1 and 2, backbone links 40-100 Mbit/s and 5-10 ms,
backbone-gateway and gateway-gateway 10-20 Mbit/s and 5-10 ms, gateway-client 1-3 Mbit/s and
10-70 ms (the example gives 70 ms as the minimum and 10 ms as the maximum; ns-3's uniform draw
between them is the same law). Differences from ndnSIM: neighbours are visited and components
numbered in the file's order, where ndnSIM's sets of pointers give an order of its own, and the
draws come from ``random.Random(seed)``, so a seed gives the same network every time.
"""

from __future__ import annotations

import math
import random
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple, Union

from ndnflow import safe_io

_LINE = re.compile(
    r"^(-*[0-9]+)\s+(@[?A-Za-z0-9,+]+)\s+(\+)*\s*(bb)*\s*\(([0-9]+)\)\s+(&[0-9]+)*\s*->\s*(<[0-9 \t<>]+>)*"
    r"\s*(\{-[0-9{} \t-]+\})*\s+=([A-Za-z0-9.!-]+)\s+r([0-9])\s*$"
)

CLIENT, GATEWAY, BACKBONE = "leaf", "gw", "bb"
#: ndnSIM's reference rate for OSPF metrics (`referenceOspfRate`, 100 Mbit/s).
REFERENCE_OSPF_BPS = 100e6
#: The packet size ndnSIM's queue rule divides the bandwidth-delay product by, bytes.
QUEUE_PACKET_BYTES = 1100


@dataclass
class RocketfuelParams:
    """ndnSIM's RocketfuelParams: bandwidth bounds in bit/s, delays and the RTT in seconds."""

    average_rtt_s: float = 0.25
    client_degrees: int = 2
    b2b_bandwidth_bps: Tuple[float, float] = (40e6, 100e6)
    b2b_delay_s: Tuple[float, float] = (0.005, 0.010)
    b2g_bandwidth_bps: Tuple[float, float] = (10e6, 20e6)
    b2g_delay_s: Tuple[float, float] = (0.005, 0.010)
    g2c_bandwidth_bps: Tuple[float, float] = (1e6, 3e6)
    g2c_delay_s: Tuple[float, float] = (0.010, 0.070)


class RocketfuelError(ValueError):
    """A map that gives no network; the message names the file."""


def parse(text: str) -> Tuple[List[str], List[Tuple[str, str]]]:
    """The routers (in order of first mention) and links of a map's radius-0 lines."""
    nodes: Dict[str, None] = {}
    links: Dict[Tuple[str, str], None] = {}
    for line in text.splitlines():
        m = _LINE.match(line)
        if m is None or int(m.group(10)) > 0:
            continue
        uid = m.group(1)
        nodes.setdefault(uid)
        for nuid in re.findall(r"<([0-9]+)>", m.group(7) or ""):
            nodes.setdefault(nuid)
            if nuid != uid and (nuid, uid) not in links:
                links.setdefault((uid, nuid))
    return list(nodes), list(links)


def _largest(graph: Any) -> Any:
    import networkx as nx

    order = {n: i for i, n in enumerate(graph.nodes)}
    biggest = max(nx.connected_components(graph), key=lambda c: (len(c), -min(order[n] for n in c)))
    return graph.subgraph([n for n in graph.nodes if n in biggest]).copy()


def _roles(graph: Any, client_degrees: int) -> Dict[str, str]:
    role: Dict[str, str] = {}

    def assign(vertex: str, degree: int, kind: str) -> None:
        for u in graph.neighbors(vertex):
            if u in role:
                continue
            role[u] = kind
            if graph.degree(u) < degree:
                assign(u, degree, BACKBONE)

    # No router has a degree above the graph's largest: degrees beyond it find nothing (and a huge
    # --client-degrees would loop for ever over them).
    highest = max((degree for _, degree in graph.degree), default=0)
    for d in range(1, min(client_degrees, highest) + 1):
        for v in list(graph.nodes):
            if graph.degree(v) == d:
                role[v] = CLIENT
                assign(v, min(d, 3) + 1, GATEWAY)
    for v in graph.nodes:
        role.setdefault(v, BACKBONE)
    return role


def _connect_backbones(graph: Any, role: Dict[str, str], rng: random.Random) -> None:
    import networkx as nx

    backbone = graph.subgraph([v for v in graph.nodes if role[v] == BACKBONE])
    order = {n: i for i, n in enumerate(graph.nodes)}
    parts = sorted((sorted(c, key=order.get) for c in nx.connected_components(backbone)), key=lambda c: order[c[0]])
    for previous, part in zip(parts, parts[1:]):
        graph.add_edge(previous[rng.randint(0, len(previous) - 1)], part[rng.randint(0, len(part) - 1)])


_ALLOWED = {
    frozenset([BACKBONE]): "b2b",
    frozenset([BACKBONE, GATEWAY]): "b2g",
    frozenset([GATEWAY]): "b2g",
    frozenset([GATEWAY, CLIENT]): "g2c",
}


def _link_attrs(kind: str, params: RocketfuelParams, rng: random.Random) -> Dict[str, Any]:
    lo_bw, hi_bw = sorted(int(x) for x in getattr(params, f"{kind}_bandwidth_bps"))
    lo_d, hi_d = sorted(getattr(params, f"{kind}_delay_s"))
    bw = rng.randint(lo_bw, hi_bw)
    # Rounded first to the nanosecond the simulator keeps, then up to the microsecond as ndnSIM.
    delay_us = math.ceil(round(rng.uniform(lo_d, hi_d) * 1e9) / 1e3)
    return {
        "bandwidth": f"{bw}bps",
        "delay": f"{delay_us}us",
        "metric": max(1, int(REFERENCE_OSPF_BPS / bw)),
        "queue": math.ceil(params.average_rtt_s * bw / 8 / QUEUE_PACKET_BYTES),
    }


def read(
    source: Union[str, Path],
    params: Optional[RocketfuelParams] = None,
    seed: Optional[int] = None,
    keep_one_component: bool = True,
    connect_backbones: bool = True,
) -> Any:
    """The network of Rocketfuel map file `source` as a networkx graph: nodes named by role
    (``role`` attribute too), edges with ``bandwidth``, ``delay``, ``metric`` and ``queue``, ready
    for `ndnflow.topology.scenario`."""
    import networkx as nx

    path = Path(source)
    params = params or RocketfuelParams()
    nodes, links = parse(safe_io.read_text_file(path, "a Rocketfuel map"))
    if not links:
        raise RocketfuelError(f"{path}: no router with a neighbour at radius 0 (is it a Rocketfuel .cch map?)")
    graph = nx.Graph()
    graph.add_nodes_from(nodes)
    graph.add_edges_from(links)
    if keep_one_component:
        graph = _largest(graph)
    role = _roles(graph, params.client_degrees)
    rng = random.Random(seed)
    if connect_backbones:
        _connect_backbones(graph, role, rng)
    graph.remove_edges_from([(a, b) for a, b in list(graph.edges) if frozenset([role[a], role[b]]) not in _ALLOWED])
    if keep_one_component and graph.number_of_nodes():
        graph = _largest(graph)
    named = nx.relabel_nodes(graph, {v: f"{role[v]}-{v}" for v in graph.nodes})
    for v in graph.nodes:
        named.nodes[f"{role[v]}-{v}"]["role"] = role[v]
    for a, b in named.edges:
        kind = _ALLOWED[frozenset([named.nodes[a]["role"], named.nodes[b]["role"]])]
        named.edges[a, b].update(_link_attrs(kind, params, rng))
    return named
