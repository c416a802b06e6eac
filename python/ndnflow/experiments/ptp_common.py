"""What PTP's five scenarios share (Ye et al., "PTP: Path-specified Transport Protocol", §6): the
four solutions, the topology builder, and utilization against the max flow.

§6-A: "The payload size is set to 1024 bytes. [...] the number of in-use paths N is set to 10;
the time interval T [...] is set to 10s, and the decreasing factor beta is set to 0.75" (the
defaults of `cc = { algorithm = "ptp" }`). Queues are not given; the paper runs ndnSIM, whose
links default to a drop-tail queue of 100 packets (ns-3's DropTailQueue), and so do we.

Utilization (§6-B): "the utilization is calculated by dividing the measured throughput by the
theoretical throughput (calculated by max flow) for each link". Throughputs here are link bits
per second (headers included), the unit `ndnflow.optimum.max_flow` gives, averaged over the
measurement window `[WARMUP_S, end)`. "The link utilization of Sol.N" in the text is read as the
utilization of the consumer's access link, which carries all of its Data: "the effective
downloading rate is equal to the throughput of link 1-2" (§6-B).

Parameters, choices and their reasons: docs/experiments/ptp.md.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple

from ndnflow.experiments import common
from ndnflow.experiments.common import Row
from ndnflow.optimum import MaxFlow, max_flow
from ndnflow.scenario import Scenario

PAPER = "PTP (Ye et al.)"
SEED = 1
PAYLOAD = 1024  # §6-A
QUEUE: Dict[str, Any] = {"discipline": "droptail", "packets": 100}  # ndnSIM's default link queue
BIN = "100ms"
WARMUP_S = 10.0  # measured from the end of the first path-switching period T = 10 s (§6-A)
#: Utilization rows: the paper's percentage within this many points. The topologies' bandwidths
#: and delays were lost with the figures; five points is what a reconstruction can honestly claim.
UTIL_TOL = 5.0
PREFIX = "/content"

#: Sol.1-Sol.4 of §6: name -> (node attributes, consumer cc, link attributes; a `queue` there
#: overrides keys of the topology's queue).
SOLUTIONS: Dict[str, Tuple[Dict[str, Any], Dict[str, Any], Dict[str, Any]]] = {
    # Sol.1: MPFP at every node (best-route when a tag is invalid), MPCCP at the consumer.
    "PTP": ({"ptp": True}, {"algorithm": "ptp"}, {}),
    # Sol.2: OMCC-RF = RFA at routers + RAAQM at consumers (Carofiglio et al.); RAAQM keeps its
    # per-route state by route labels, so every node labels.
    "OMCC-RF": ({"strategy": "rfa", "route_labels": True}, {"algorithm": "raaqm"}, {}),
    # Sol.3: RFA + CHoPCoP: random early marking on every queue (its default band, 20-60 packets,
    # inside the topology's queue limit) and the per-flow fair-share Interest shaper on every link
    # (a flow = the first name component, the content object of §6-D); CHoPCoP's window.
    "RFA+CHoPCoP": ({"strategy": "rfa"}, {"algorithm": "chopcop"}, {"queue": {"discipline": "rem"}, "shaper": {"flows": 1}}),
    # Sol.4: PAF (the ant-colony, RTT-driven strategy) + RAAQM, labelled routes as in Sol.2.
    "PAF+RAAQM": ({"strategy": "paf", "route_labels": True}, {"algorithm": "raaqm"}, {}),
}


def variant(solution: str, case: Optional[str] = None) -> str:
    return solution if case is None else f"{solution}, {case}"


class Topology:
    """Nodes, links (a, b, bandwidth, delay), producers and consumers of one scenario, built into a
    `Scenario` for a solution. Node names are the paper's numbers ("n1", ...)."""

    def __init__(self, links: Sequence[Tuple[str, str, str, str]], producers: Iterable[Tuple[str, str]],
                 consumers: Sequence[Mapping[str, Any]], queue: Mapping[str, Any] = QUEUE,
                 paths: Optional[Sequence[Sequence[str]]] = None):
        """`producers`: (node, prefix); `consumers`: `Scenario.consumer` keywords with `node` and
        `name`, the cc coming from the solution; `queue`: every link's; `paths`: where the text
        names the consumer-producer paths, each one as a node list from consumer to producer, and
        then the routes are those paths' hops alone (`path_routes`) instead of hop-count routing's
        every loop-free next hop."""
        self.queue = dict(queue)
        self.links = list(links)
        self.producers = list(producers)
        self.consumers = list(consumers)
        self.paths = [list(p) for p in paths] if paths else None

    def nodes(self) -> List[str]:
        seen: Dict[str, None] = {}
        for a, b, _, _ in self.links:
            seen.setdefault(a)
            seen.setdefault(b)
        return sorted(seen, key=lambda n: int(n[1:]))

    def scenario(self, solution: str, duration: Any, seed: int,
                 node_extra: Optional[Mapping[str, Mapping[str, Any]]] = None,
                 solutions: Optional[Mapping[str, Tuple[Dict[str, Any], Dict[str, Any], Dict[str, Any]]]] = None
                 ) -> Scenario:
        """`solutions`: where `solution` is defined (PTP's `SOLUTIONS` unless given)."""
        attributes, cc, link_extra = (SOLUTIONS if solutions is None else solutions)[solution]
        link_extra = {**link_extra, "queue": {**self.queue, **link_extra.get("queue", {})}}
        # Without named paths, hop-count routing: every loop-free next hop (ndnSIM's
        # CalculateAllPossibleRoutes).
        sc = Scenario(duration=duration, seed=seed, bin=BIN, routing="none" if self.paths else None)
        for node in self.nodes():
            sc.node(node, **{**attributes, **dict((node_extra or {}).get(node, {}))})
        for a, b, bandwidth, delay in self.links:
            sc.link(a, b, bandwidth=bandwidth, delay=delay, **link_extra)
        for node, prefix in self.producers:
            sc.producer(node, prefix, payload=PAYLOAD)
            for at, nexthop, cost in path_routes(self.paths or [], node):
                sc.route(at, prefix, nexthop, cost=cost)
        for consumer in self.consumers:
            consumer = dict(consumer)
            sc.consumer(consumer.pop("node"), consumer.pop("name"), cc=cc, **consumer)
        return sc


def path_routes(paths: Sequence[Sequence[str]], producer: str) -> List[Tuple[str, str, int]]:
    """The FIB entries of the hops of `paths` (node lists from consumer to producer) toward
    `producer`'s prefix: (node, next hop, cost) for every hop of a path ending at `producer`, once
    each, its cost the fewest links from the node to the producer along the named paths through
    that next hop (as hop-count routing would cost it). The routes are the union of the hops, so
    paths that cross may combine into a path nobody named (or a loop, c-x-y-p with c-y-x-p); the
    diamond's four give exactly themselves (`tests/test_reproduce_ptp.py`)."""
    cost: Dict[Tuple[str, str], int] = {}
    for path in paths:
        if not path or path[-1] != producer:
            continue
        for k in range(len(path) - 1):
            hop = (path[k], path[k + 1])
            cost[hop] = min(cost.get(hop, len(path)), len(path) - 1 - k)
    return [(at, nexthop, c) for (at, nexthop), c in cost.items()]


def rate_bps(res: Any, link: str, start_s: float = WARMUP_S, end_s: float = float("inf")) -> float:
    """Mean link bits/s of one direction over the bins in [start_s, end_s)."""
    rows = common.link_rows(res, link, start_s, end_s)
    return float(rows["throughput_bps"].mean()) if len(rows) else float("nan")


def utilization(res: Any, optimum: MaxFlow, link: str, start_s: float = WARMUP_S) -> float:
    """Percent of the max flow's rate on `link` that the run carried there."""
    target = optimum.link_flows.get(link, 0.0)
    return 100.0 * rate_bps(res, link, start_s) / target if target else float("nan")


def optimum(scenario: Scenario, consumer: Any = 0) -> MaxFlow:
    return max_flow(scenario, consumer)


def util_row(metric: str, paper_percent: float, measured: float) -> Row:
    return common.within(metric, paper_percent, measured, UTIL_TOL,
                         "the topology is reconstructed (figures lost); see the page", "%")


def best_row(metric: str, utils: Mapping[str, float]) -> Row:
    """'PTP achieves the best bandwidth utilizations compared to the other solutions'."""
    others = {k: v for k, v in utils.items() if k != "PTP"}
    return common.check(metric, "PTP best", [utils["PTP"], *others.values()],
                        "PTP above every other solution (values: PTP, " + ", ".join(others) + ")",
                        lambda v: all(v[0] > x for x in v[1:]), "%")


def utilization_bars(results: Mapping[str, Any], cases: Sequence[Optional[str]], solutions: Sequence[str],
                     links: Sequence[str], scenario_of: Any, path: Any) -> List[Path]:
    """One panel per case: each link's utilization (its rate over its max-flow rate) per solution,
    as PTP's Figures 13, 14, 16 and 17 draw them."""
    figure, axes = common.figure_grid(len(cases), 1, width=7.5, height=2.6)
    for row, case in enumerate(cases):
        ax, best = axes[row, 0], optimum(scenario_of(case))
        width = 0.8 / max(len(solutions), 1)
        for k, solution in enumerate(solutions):
            values = [utilization(results[variant(solution, case)], best, link) for link in links]
            ax.bar([x + (k - (len(solutions) - 1) / 2) * width for x in range(len(links))], values, width=width,
                   color=f"C{k}", label=solution)
        ax.axhline(100, color="0.5", linewidth=0.8, linestyle=":")
        ax.set_xticks(list(range(len(links))))
        ax.set_xticklabels(links, fontsize="x-small")
        ax.set_ylabel("utilization [%]")
        ax.set_title(case or "", fontsize="small")
        ax.grid(True, axis="y", alpha=0.3)
    axes[0, 0].legend(fontsize="x-small", ncol=len(solutions), loc="lower left", framealpha=0.9)
    return common.save_figure(figure, Path(path))


def case_figures(results: Mapping[str, Any], cases: Sequence[str], links: Sequence[str], scenario_of: Any,
                 path: Path) -> List[Path]:
    """Scenarios 1 and 2: every link's utilization per solution and case (`path`), and PTP's
    paths in each case (paths.png beside it)."""
    panels = [(variant("PTP", case), results[variant("PTP", case)], "n1") for case in cases]
    return [*utilization_bars(results, cases, list(SOLUTIONS), links, scenario_of, path),
            *paths_figure(panels, path.parent / "paths.png")]


def case_rows(results: Mapping[str, Any], cases: Sequence[str], solutions: Sequence[str],
              paper: Mapping[str, Mapping[str, float]], scenario_of: Any, link: str) -> List[Row]:
    """Per case: each solution's utilization of `link` against the paper's percentage, then
    whether PTP's is the best (Scenarios 1 and 2)."""
    rows: List[Row] = []
    for case in cases:
        best = optimum(scenario_of(case))
        utils = {s: utilization(results[variant(s, case)], best, link) for s in solutions}
        for solution, value in utils.items():
            rows.append(util_row(f"{case}, {solution}: utilization of 1-2", paper[case][solution], value))
        rows.append(best_row(f"{case}: PTP has the best utilization of 1-2", utils))
    return rows


#: Paths a panel of `paths_figure` draws one by one; the rest are summed as "others".
PATHS_DRAWN = 10


def paths_figure(panels: Sequence[Tuple[str, Any, str]], path: Any, bin_s: float = 1.0) -> List[Path]:
    """paths.png: for each (title, results, consumer id), the consumer's paths over time (the
    `paths` trace): goodput per path on the left (payload of its Data, `bin_s` bins), congestion
    window on the right, while the path is in use. The `PATHS_DRAWN` paths that carried most are drawn one by one, labelled
    with their index in the order found; the others' goodput is summed."""
    figure, axes = common.figure_grid(len(panels), 2, width=5.0, height=2.3)
    for row, (title, res, consumer) in enumerate(panels):
        rows = res.paths[res.paths["consumer"] == consumer]
        left, right = axes[row, 0], axes[row, 1]
        totals = rows.groupby("path")["data"].sum().sort_values(ascending=False, kind="stable")
        drawn = [int(k) for k in totals.index[:PATHS_DRAWN] if totals[k] > 0]
        for k, index in enumerate(drawn):
            mine = rows[rows["path"] == index]
            rate = (mine.assign(bps=mine["data"] * PAYLOAD * 8.0).groupby(mine["time_s"] // bin_s * bin_s)["bps"]
                    .sum() / bin_s / 1e6)
            common.step(left, rate.index, rate, color=f"C{k % 10}", label=f"path {index}")
            window = mine["window"].where(mine["in_use"] == 1)  # an idle path's window is not drawn
            common.step(right, mine["time_s"], window, color=f"C{k % 10}")
        others = rows[~rows["path"].isin(drawn)]
        if others["data"].sum() > 0:
            rate = others.groupby(others["time_s"] // bin_s * bin_s)["data"].sum() * PAYLOAD * 8.0 / bin_s / 1e6
            common.step(left, rate.index, rate, color="0.5", linestyle=":", label=f"{others['path'].nunique()} others")
        found = int(rows["path"].nunique())
        left.set_title(f"{title}: goodput per path ({found} found)", fontsize="small")
        right.set_title(f"{title}: window per path", fontsize="small")
        left.set_ylabel("Mbit/s")
        right.set_ylabel("Interests")
        for ax in (left, right):
            ax.grid(True, alpha=0.3)
        left.legend(fontsize="xx-small", ncol=2, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    for ax in axes[-1]:
        ax.set_xlabel("time [s]")
    return common.save_figure(figure, Path(path))
