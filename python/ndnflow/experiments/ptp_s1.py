"""PTP §6-B, Scenario 1: a tree (Figure 12), consumer #1 fetching one object from producers #5-#8.

The figure is lost; the text gives the tree's shape (1-2, 2-3, 2-4 and the leaves 3-5, 3-6, 4-7,
4-8: "the path 1-2-3-5 and the path 1-2-3-6 are with the smallest latency (25ms)"), that the leaf
links are the bottlenecks ("the bottleneck (3-5 and 3-6)"), and the two cases: "In Case I, the
latencies of different transmission paths are identical, but the bandwidths are different
values. [...] In Case II, the bandwidths of different transmission paths [are] identical, but the
latencies are different." Our bandwidths and delays: docs/experiments/ptp.md.

Checks: the consumer link's utilization (1-2) per solution and case against the text's
percentages, and "PTP achieves the best bandwidth utilizations" in each case.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Dict, List, Mapping

from ndnflow.experiments import ptp_common as pc
from ndnflow.experiments.common import Row
from ndnflow.scenario import Scenario

ID = "ptp-s1"
TITLE = "Tree (Figure 12), Cases I and II: per-link utilization against the max flow, four solutions"
PAPER = pc.PAPER
SECTION = "§6-B, Scenario 1"
DURATION = "60s"
SEED = pc.SEED
CASES = ("Case I", "Case II")
LEAVES = (("n3", "n5"), ("n3", "n6"), ("n4", "n7"), ("n4", "n8"))
#: Case I: leaf bandwidths 1:2:3:4 (10 Mbit/s in all), every path 25 ms. Case II: 2.5 Mbit/s
#: each; the paths via #3 take 25 ms, via #4 40 and 55 ms.
LEAF = {"Case I": (("1Mbps", "10ms"), ("2Mbps", "10ms"), ("3Mbps", "10ms"), ("4Mbps", "10ms")),
        "Case II": (("2.5Mbps", "10ms"), ("2.5Mbps", "10ms"), ("2.5Mbps", "25ms"), ("2.5Mbps", "40ms"))}
#: §6-B: the consumer link's utilization [%] per solution.
PAPER_UTIL = {"Case I": {"PTP": 97.78, "OMCC-RF": 81.56, "RFA+CHoPCoP": 86.89, "PAF+RAAQM": 79.11},
              "Case II": {"PTP": 96.9, "OMCC-RF": 84.3, "RFA+CHoPCoP": 92.5, "PAF+RAAQM": 80.1}}
ACCESS = "n2->n1"


def tree(case: str) -> pc.Topology:
    links = [("n1", "n2", "20Mbps", "5ms"), ("n2", "n3", "20Mbps", "10ms"), ("n2", "n4", "20Mbps", "10ms")]
    links += [(a, b, bandwidth, delay) for (a, b), (bandwidth, delay) in zip(LEAVES, LEAF[case])]
    return pc.Topology(links, [(p, pc.PREFIX) for _, p in LEAVES], [{"node": "n1", "name": f"{pc.PREFIX}/obj"}])


def reference(case: str) -> Scenario:
    """The case's network, whose max flow the utilizations divide by."""
    return tree(case).scenario("PTP", DURATION, SEED)


def scenarios(duration: Any = DURATION, seed: int = SEED) -> Dict[str, Scenario]:
    return {pc.variant(s, case): tree(case).scenario(s, duration, seed) for case in CASES for s in pc.SOLUTIONS}


def metrics(results: Mapping[str, Any]) -> List[Row]:
    return pc.case_rows(results, CASES, list(pc.SOLUTIONS), PAPER_UTIL, reference, ACCESS)


def figures(results: Mapping[str, Any], out_dir: Any) -> List[Path]:
    """figure13_14.png: utilization of every link (Data direction) per solution, one panel per
    case, as the paper's Figures 13 (Case I) and 14 (Case II); paths.png: PTP's paths per case."""
    links = [ACCESS, "n3->n2", "n4->n2"] + [f"{b}->{a}" for a, b in LEAVES]
    return pc.case_figures(results, CASES, links, reference, Path(out_dir) / "figure13_14.png")
