"""DPCCP §VII-C-3, MP-Scenario 3: the diamond (Figure 19), consumer A fetching from producer G.

The figure is lost; the diamond is PTP's Scenario 2 (`ptp_s2.diamond`): the same seven inner
links that "need to be fully utilized to achieve optimal throughputs" (B-C, C-E, C-D, B-E, B-D,
D-F, E-F; PTP's 2-3, 3-5, 3-4, 2-5, 2-4, 4-6, 5-6), Case I with equal latencies and different
bandwidths, Case II with equal bandwidths and different latencies. Utilization is the consumer
link's, as in MP-Scenario 2.

Checks: each solution's utilization against the text's percentage, and DPCCP's the highest in
each case.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Dict, List, Mapping

from ndnflow.experiments import dpccp_common as dc
from ndnflow.experiments import ptp_s2
from ndnflow.experiments.common import Row
from ndnflow.scenario import Scenario

ID = "dpccp-mp3"
TITLE = "Diamond (Figure 19), Cases I and II: consumer-link utilization against the max flow"
PAPER = dc.PAPER
SECTION = "§VII-C-3, MP-Scenario 3"
DURATION = ptp_s2.DURATION
SEED = dc.SEED
CASES = ptp_s2.CASES
#: §VII-C-3: link utilization [%] per protocol.
PAPER_UTIL = {"Case I": {"DPCCP": 97.12, "OMCC-RF": 41.51, "PCON": 36.25, "MIRCC": 91.25},
              "Case II": {"DPCCP": 96.58, "OMCC-RF": 81.19, "PCON": 39.08, "MIRCC": 51.11}}


def reference(case: str) -> Scenario:
    return ptp_s2.diamond(case).scenario("DPCCP", DURATION, SEED, solutions=dc.SOLUTIONS)


def scenarios(duration: Any = DURATION, seed: int = SEED) -> Dict[str, Scenario]:
    return dc.case_scenarios(ptp_s2.diamond, CASES, duration, seed)


def metrics(results: Mapping[str, Any]) -> List[Row]:
    return dc.case_rows(results, CASES, PAPER_UTIL, reference, ptp_s2.ACCESS)


def figures(results: Mapping[str, Any], out_dir: Any) -> List[Path]:
    """figure20.png: every link's utilization per protocol, one panel per case (the paper's Figure
    20 draws the consumer's rate against the optimum); paths.png: DPCCP's sub-flows per case."""
    links = [ptp_s2.ACCESS, "n7->n6"] + [f"{b}->{a}" for a, b in ptp_s2.INNER]
    return dc.case_figures(results, CASES, links, reference, Path(out_dir) / "figure20.png")
