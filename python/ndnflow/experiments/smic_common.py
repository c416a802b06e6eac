"""What the SMIC paper's four experiments share ("SMIC: Subflow-level Multi-path Interest Control",
§5 and Table 1): the workload, the consumers compared, the topology builder, and the readings of
completion times, "% faster" and link stress.

Table 1 and §5: "Requests follow Zipf distribution, skewness parameter α = 1.0", 10,000 objects
per prefix of 10 MB, "transmitted in the unit of a data packet with 1040 bytes of payload; thus, a
content object consists of 10,083 chunks. Each router has a tail-drop queue and content store of
100 MB; thus it can cache maximum 100,830 chunks", LRU, "New content request is generated when
previous request is done". The baselines: ICP (single path), MPTCP LIA and OLIA.

Figures are lost with the paper's topologies. The settings the text leaves out (queues, delays,
bandwidths, durations, what a consumer does between objects) are those of the authors' own ndnSIM
scenarios (the public repository soiry/test, "SMIC 2018", by the paper's first author), as
docs/experiments/smic.md lists them with the lines they come from.
"""

from __future__ import annotations

import math
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

import pandas as pd

from ndnflow.experiments import common
from ndnflow.experiments.common import Row
from ndnflow.scenario import Scenario

PAPER = "SMIC (Subflow-level Multi-path Interest Control)"
SEED = 1
PREFIX = "/snu"  # §4.2's example prefix
PAYLOAD = 1040  # Table 1 text: "1040 bytes of payload"
SEGMENTS = 10_083  # "a content object consists of 10,083 chunks": ceil(10 MiB / 1040)
OBJECTS = 10_000  # Table 1: "Number of objects per prefix"
ALPHA = 1.0  # Table 1: Zipf skewness
#: "it can cache maximum 100,830 chunks": the 100 MB store in packets. Every Data here carries 1040
#: bytes, so a packet count is the byte limit exactly (the paper's own arithmetic).
CS_PACKETS = 100_830
ROUTER_CS: Dict[str, Any] = {"policy": "lru", "capacity": CS_PACKETS}
#: "Each router has ... content store": routers, not the consumers' own nodes. A store on a
#: consumer's node would answer an object drawn again while still cached in 0 s (local delivery),
#: which is no retrieval at all.
CONSUMER_CS: Dict[str, Any] = {"policy": "off"}
#: "Each router has a tail-drop queue" (§5); its size was in a lost figure. The authors'
#: topology files give 50 packets (bottleneck, diamond and tree; the competition's: 10).
QUEUE_PACKETS = 50
#: "Propagation delays ... are equal for all the links" (§5.1, §5.3): 10 ms in the authors' files
#: (the tree's differ, smic_tree).
DELAY = "10ms"
#: Between objects the authors' consumers (SMIC, MPTCP and single path alike) start a new flow:
#: every window, threshold, estimator and sharing group is reset, and the next object's first
#: Interest leaves 1 s after the last Data of the previous one (`int interval = 1;`), its
#: retrieval time counted from then.
RESTART = True
GAP = "1s"
#: The authors' consumers cap the retransmission timer at 2 s (`SetMaxRto(Seconds(2))`); ns-3's
#: other defaults (1 s initial, 200 ms minimum) are the consumer's own.
RTO = {"max": "2s"}

#: The consumers compared (§5): SMIC (Algorithm 1 over its sub-flows), MPTCP LIA and OLIA over the
#: same sub-flows, and the single-path flow: ICP with the RFC 6298 timer, as the SMIC sub-flows'.
SMIC: Dict[str, Any] = {"algorithm": "smic"}
LIA: Dict[str, Any] = {"algorithm": "smic", "coupling": "lia"}
OLIA: Dict[str, Any] = {"algorithm": "smic", "coupling": "olia"}
SINGLE: Dict[str, Any] = {"algorithm": "icp", "rto": "rfc6298"}
CONTROLLERS: Dict[str, Dict[str, Any]] = {"SMIC": SMIC, "MPTCP LIA": LIA, "MPTCP OLIA": OLIA, "single": SINGLE}

#: A time "about X" is within 1 s (docs/experiments/README.md, "One reading per phrase").
ABOUT_S = 1.0
#: A rate "about X" is within 10 %; a speed-up is a ratio of rates, so "X % faster" gets the same.
ABOUT_RATE = 0.10


def catalog() -> Dict[str, Any]:
    """The Zipf catalog of Table 1 (plain Zipf: q = 0), each object a new flow after a 1 s gap."""
    return {"objects": OBJECTS, "alpha": ALPHA, "restart": RESTART, "gap": GAP}


class Topology:
    """Links (a, b, bandwidth[, delay]), producer nodes and consumers (node, controller name) of one
    run, and its queue size in packets. Every node is a SMIC router with the paper's LRU store, but
    the consumers' nodes have no store; `hash` picks the path-id hash."""

    def __init__(self, links: Sequence[Tuple[str, ...]], producers: Sequence[str],
                 consumers: Sequence[Tuple[str, str]], queue_packets: int = QUEUE_PACKETS):
        self.links = [(link[0], link[1], link[2], link[3] if len(link) > 3 else DELAY) for link in links]
        self.producers = list(producers)
        self.consumers = list(consumers)
        self.queue = {"discipline": "droptail", "packets": queue_packets}

    def nodes(self) -> List[str]:
        seen: Dict[str, None] = {}
        for a, b, _, _ in self.links:
            seen.setdefault(a)
            seen.setdefault(b)
        return list(seen)

    def multipath_routes(self, tables: Mapping[str, Mapping[str, Any]]) -> List[Tuple[str, str]]:
        """(node, neighbour) for every neighbour of a multi-path consumer's node: the routes the
        authors add by hand (`ndn-diamond-smic.cc`, `ndn-disjoint-smic*.cc`), since shortest-path
        routing gives such a node one next hop where its sub-flows need each."""
        multi = {node for node, controller in self.consumers if tables[controller]["algorithm"] == "smic"}
        return [(x, y) for a, b, _, _ in self.links for x, y in ((a, b), (b, a)) if x in multi]

    def scenario(self, duration: Any, seed: int, bin: str = "1s", hash: str = "paper",
                 cc: Optional[Mapping[str, Mapping[str, Any]]] = None) -> Scenario:
        """`cc`: a consumer table per controller name, overriding `CONTROLLERS` (a larger path-id
        pool, say). Links are added in the given order, which decides best-route's ties."""
        tables = {**CONTROLLERS, **(cc or {})}
        # The authors' routes: ndnSIM's CalculateRoutes (each node the first hop of its shortest
        # path to each producer) and, by hand (`AddRoute`), every neighbour of a multi-path
        # consumer's node, so that a single-path flow has one path ("each single-path consumer
        # requests through a single path", §5.3).
        sc = Scenario(duration=duration, seed=seed, bin=bin, next_hops="shortest-path")
        smic = True if hash == "paper" else {"hash": hash}
        users = {node for node, _ in self.consumers}
        for node in self.nodes():
            sc.node(node, cs=CONSUMER_CS if node in users else ROUTER_CS, smic=smic)
        for a, b, bandwidth, delay in self.links:
            sc.link(a, b, bandwidth=bandwidth, delay=delay, queue=self.queue)
        for node in self.producers:
            sc.producer(node, PREFIX, payload=PAYLOAD)
        for node, controller in self.consumers:
            sc.consumer(node, PREFIX, cc=dict(tables[controller]), segments=SEGMENTS, catalog=catalog(), rto=RTO)
        for node, neighbour in self.multipath_routes(tables):
            sc.route(node, PREFIX, neighbour)
        return sc


# ------------------------------------------------------------------------------ reading results


def completed(res: Any, consumer: str) -> pd.DataFrame:
    """The objects `consumer` finished, with their retrieval time `took_s`."""
    objects = res.objects[res.objects["consumer"] == consumer]
    objects = objects[objects["end_s"].notna()]
    return objects.assign(took_s=objects["end_s"] - objects["start_s"])


def mean_time(res: Any, consumer: str) -> float:
    """Average content retrieval time (§5: "average content retrieval times"), over the objects
    finished; NaN when none finished."""
    took = completed(res, consumer)["took_s"]
    return float(took.mean()) if len(took) else math.nan


def max_time(res: Any, consumer: str) -> float:
    took = completed(res, consumer)["took_s"]
    return float(took.max()) if len(took) else math.nan


def mean_of(res: Any, consumers: Sequence[str]) -> float:
    """The retrieval time of a group of consumers: every finished object of any of them counts once."""
    took = pd.concat([completed(res, c)["took_s"] for c in consumers])
    return float(took.mean()) if len(took) else math.nan


def faster_percent(slow_s: float, fast_s: float) -> float:
    """"X % faster content retrieval" (§5.3): the slower time over the faster, less one. Fixed from
    the text's own example before any run: 24 s against 16.4 s "achieves about 46% faster", and
    24 / 16.4 - 1 = 46.3 %, where 1 - 16.4 / 24 = 31.7 % would not give it."""
    return 100.0 * (slow_s / fast_s - 1.0) if fast_s > 0 else math.nan


def faster_row(metric: str, paper_percent: float, measured_percent: float) -> Row:
    """A stated "X % faster" against the measured one: the speed-up 1 + X / 100 within 10 %."""
    low, high = ((1.0 + paper_percent / 100.0) * (1.0 + k * ABOUT_RATE) for k in (-1, 1))
    bounds = f"{100 * (low - 1):.0f} to {100 * (high - 1):.0f} %"
    return common.check(metric, f"{paper_percent:g} %", measured_percent,
                        f"{bounds}: the speed-up 1 + X/100 within 10 %, a ratio of rates ('about X')",
                        lambda v: low <= 1.0 + v / 100.0 <= high, "%")


def about_s(metric: str, paper_s: float, measured_s: Any) -> Row:
    return common.within(metric, paper_s, measured_s, ABOUT_S, "'about X' for a time", "s")


def alike_row(metric: str, paper: str, values: Sequence[float], unit: str = "s") -> Row:
    """"Similar" values: the largest at most `common.ALIKE` x the smallest."""
    return common.check(metric, paper, list(values), f"max/min <= {common.ALIKE}: 'similar'",
                        lambda v: max(v) <= common.ALIKE * min(v), unit)


def data_volumes(res: Any) -> Dict[str, int]:
    """Wire bytes per link direction over the run, the directions that carried no bytes included."""
    return {link: int(stats.get("bytes", 0) or 0) for link, stats in res.summary.get("links", {}).items()}


def link_shares(res: Any) -> Dict[str, float]:
    """Fig. 8(b)'s link stress: each link's share of all link traffic of the run (wire bytes, both
    directions of a link together), keyed "a-b" in name order. Shares, not volumes, so that runs
    that moved different amounts compare."""
    per_link: Dict[str, int] = {}
    for link, volume in data_volumes(res).items():
        key = "-".join(sorted(link.split("->")))
        per_link[key] = per_link.get(key, 0) + volume
    total = sum(per_link.values())
    return {link: volume / total for link, volume in per_link.items()} if total else {}


def link_stress(res: Any) -> List[float]:
    """The link shares in descending order (the order Fig. 8(b) ranks them in)."""
    return sorted(link_shares(res).values(), reverse=True)


def windows(res: Any, consumer: str) -> pd.DataFrame:
    return common.consumer_rows(res, consumer)[["time_s", "window", "timeouts"]].reset_index(drop=True)


def halving_ratio(res: Any, consumer: str) -> float:
    """The median, over bins with a timeout after a bin without, of the window at the bin's end over
    the window at the previous bin's end: 0.5 when a timeout halves the window (plus the growth
    within the bin)."""
    rows = windows(res, consumer)
    before = rows["window"].shift(1)
    fresh = (rows["timeouts"] > 0) & (rows["timeouts"].shift(1) == 0) & (before > 0)
    ratios = rows["window"][fresh] / before[fresh]
    return float(ratios.median()) if len(ratios) else math.nan


def grouped_spans(paths: pd.DataFrame, consumer: str, bin_s: float) -> List[Tuple[float, float]]:
    """The time spans, [start, end) in seconds, over which every sub-flow `consumer` has in use
    was found to share its bottleneck with another (paths.parquet's `sharing` at least 2): the
    bins whose end saw the group, merged where they follow one another."""
    rows = paths[(paths["consumer"] == consumer) & (paths["in_use"] == 1)]
    if rows.empty:
        return []
    grouped = rows.groupby("time_s")["sharing"].apply(lambda s: bool((s >= 2).all()))
    spans: List[Tuple[float, float]] = []
    for start, is_grouped in grouped.items():
        if not is_grouped:
            continue
        end = float(start) + bin_s
        if spans and math.isclose(spans[-1][1], float(start), abs_tol=bin_s * 1e-6):
            spans[-1] = (spans[-1][0], end)
        else:
            spans.append((float(start), end))
    return spans
