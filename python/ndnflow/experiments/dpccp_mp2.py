"""DPCCP §VII-C-2, MP-Scenario 2: the tree (Figure 17), consumer A fetching from producers E-H.

"MP-2 and MP-3 use the same topologies as PTP's S1 and S2": the figure is lost in both papers;
the tree is PTP's Scenario 1 (`ptp_s1.tree`), with its Case I (equal latencies, different
bandwidths) and Case II (equal bandwidths, different latencies). The paper's "link utilization"
is the consumer link's throughput over its max-flow rate ("the effective downloading rate is
equal to the throughput of link B-A"), as in PTP's Scenario 1.

Checks: each solution's utilization against the text's percentage, and "DPCCP achieves the
highest bandwidth utilization" in each case.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Dict, List, Mapping

from ndnflow.experiments import dpccp_common as dc
from ndnflow.experiments import ptp_s1
from ndnflow.experiments.common import Row
from ndnflow.scenario import Scenario

ID = "dpccp-mp2"
TITLE = "Tree (Figure 17), Cases I and II: consumer-link utilization against the max flow"
PAPER = dc.PAPER
SECTION = "§VII-C-2, MP-Scenario 2"
DURATION = ptp_s1.DURATION
SEED = dc.SEED
CASES = ptp_s1.CASES
#: §VII-C-2: link utilization [%] per protocol.
PAPER_UTIL = {"Case I": {"DPCCP": 96.91, "OMCC-RF": 81.56, "PCON": 63.30, "MIRCC": 90.01},
              "Case II": {"DPCCP": 96.55, "OMCC-RF": 78.33, "PCON": 58.13, "MIRCC": 90.03}}


def reference(case: str) -> Scenario:
    return ptp_s1.tree(case).scenario("DPCCP", DURATION, SEED, solutions=dc.SOLUTIONS)


def scenarios(duration: Any = DURATION, seed: int = SEED) -> Dict[str, Scenario]:
    return dc.case_scenarios(ptp_s1.tree, CASES, duration, seed)


def metrics(results: Mapping[str, Any]) -> List[Row]:
    return dc.case_rows(results, CASES, PAPER_UTIL, reference, ptp_s1.ACCESS)


def figures(results: Mapping[str, Any], out_dir: Any) -> List[Path]:
    """figure18.png: every link's utilization per protocol, one panel per case (the paper's Figure
    18 draws the consumer's rate against the optimum); paths.png: DPCCP's sub-flows per case."""
    links = [ptp_s1.ACCESS, "n3->n2", "n4->n2"] + [f"{b}->{a}" for a, b in ptp_s1.LEAVES]
    return dc.case_figures(results, CASES, links, reference, Path(out_dir) / "figure18.png")
