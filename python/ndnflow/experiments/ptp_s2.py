"""PTP §6-C, Scenario 2: the diamond (Figure 15), consumer #1 fetching one object from producer #7
over four joint paths: "1-2-3-4-6-7, 1-2-3-5-6-7, 1-2-4-6-7 and 1-2-5-6-7".

The figure is lost; the text gives the paths (so the links 1-2, 2-3, 2-4, 2-5, 3-4, 3-5, 4-6, 5-6,
6-7), that "the bottlenecks are the links within the diamond", and the cases: Case I, same
latencies and different bandwidths, "congestion always happens at the bottlenecks with much lower
bandwidths (3-5 and 2-4)" while "path 2-5-6-7 does not suffer from congestion"; Case II, same
bandwidths and different latencies, where "the latency of path 1-2-3-5-6 is relatively smaller
than others". Our bandwidths and delays: docs/experiments/ptp.md.

Checks: the consumer link's utilization per solution and case against the text's percentages,
and "PTP outperforms existing solutions" in each case.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Dict, List, Mapping

from ndnflow.experiments import ptp_common as pc
from ndnflow.experiments.common import Row
from ndnflow.scenario import Scenario

ID = "ptp-s2"
TITLE = "Diamond (Figure 15), Cases I and II: per-link utilization against the max flow, four solutions"
PAPER = pc.PAPER
SECTION = "§6-C, Scenario 2"
DURATION = "60s"
SEED = pc.SEED
#: Checks whose verdict changes over seeds 1-4, or whose value moves more than its tolerance band (--seeds 1-4):
#: judged on their median, docs/experiments/ptp.md.
SEED_SENSITIVE = ("Case I, PTP: utilization of 1-2",)
CASES = ("Case I", "Case II")
INNER = (("n2", "n3"), ("n2", "n4"), ("n2", "n5"), ("n3", "n4"), ("n3", "n5"), ("n4", "n6"), ("n5", "n6"))
#: Case I, Mbit/s: 2-4 and 3-5 narrow (1), 2-5 and 5-6 wide; the max flow (11) fills every inner
#: link. Every inner link 10 ms. Case II: every inner link 2 Mbit/s (max flow 4, through 4-6 and
#: 5-6); 2-3 and 3-5 take 5 ms and the others 15 ms, so 1-2-3-5-6 is the shortest path.
INNER_CASE = {"Case I": dict(zip(INNER, (("4Mbps", "10ms"), ("1Mbps", "10ms"), ("6Mbps", "10ms"), ("3Mbps", "10ms"),
                                         ("1Mbps", "10ms"), ("4Mbps", "10ms"), ("7Mbps", "10ms")))),
              "Case II": {link: ("2Mbps", "5ms" if link in (("n2", "n3"), ("n3", "n5")) else "15ms")
                          for link in INNER}}
#: §6-C: the consumer link's utilization [%] per solution.
PAPER_UTIL = {"Case I": {"PTP": 97.1, "OMCC-RF": 41.5, "RFA+CHoPCoP": 64.6, "PAF+RAAQM": 35.6},
              "Case II": {"PTP": 97.3, "OMCC-RF": 81.1, "RFA+CHoPCoP": 85.2, "PAF+RAAQM": 78.6}}
ACCESS = "n2->n1"


#: §6-C: "a consumer (#1) is connected to the content object via 4 joint paths (Figure 15,
#: 1-2-3-4-6-7, 1-2-3-5-6-7, 1-2-4-6-7 and 1-2-5-6-7)"; DPCCP §VII-C-3 names the same four for its
#: diamond, "calculated by the shortest path". The routes are these paths' hops alone.
PATHS = tuple(tuple(f"n{k}" for k in path) for path in
              ((1, 2, 3, 4, 6, 7), (1, 2, 3, 5, 6, 7), (1, 2, 4, 6, 7), (1, 2, 5, 6, 7)))


def diamond(case: str) -> pc.Topology:
    links = [("n1", "n2", "20Mbps", "5ms")]
    links += [(a, b, bandwidth, delay) for (a, b), (bandwidth, delay) in INNER_CASE[case].items()]
    links.append(("n6", "n7", "20Mbps", "5ms"))
    return pc.Topology(links, [("n7", pc.PREFIX)], [{"node": "n1", "name": f"{pc.PREFIX}/obj"}], paths=PATHS)


def reference(case: str) -> Scenario:
    """The case's network, whose max flow the utilizations divide by."""
    return diamond(case).scenario("PTP", DURATION, SEED)


def scenarios(duration: Any = DURATION, seed: int = SEED) -> Dict[str, Scenario]:
    return {pc.variant(s, case): diamond(case).scenario(s, duration, seed) for case in CASES for s in pc.SOLUTIONS}


def metrics(results: Mapping[str, Any]) -> List[Row]:
    return pc.case_rows(results, CASES, list(pc.SOLUTIONS), PAPER_UTIL, reference, ACCESS)


def figures(results: Mapping[str, Any], out_dir: Any) -> List[Path]:
    """figure16_17.png: utilization of every link (Data direction) per solution, one panel per
    case, as the paper's Figures 16 and 17; paths.png: PTP's paths per case."""
    links = [ACCESS, "n7->n6"] + [f"{b}->{a}" for a, b in INNER]
    return pc.case_figures(results, CASES, links, reference, Path(out_dir) / "figure16_17.png")
