"""What DPCCP's experiments share (Chen et al., "DPCCP: Delay-based Path-specified Congestion
Control", §VII): the solutions compared, and the paper's settings.

§VII-A: "Each requested content object is split into segments with a payload of 1024Bytes";
"the target number of backlogged packets [...] set to a constant value (20 packets)" (the default
of `cc = { algorithm = "dpccp" }`). The baselines are OMCC-RF (RAAQM + RFA, as PTP's Sol.2),
MIRCC (its rate law at every link, its consumer, [mircc.md](../protocols/mircc.md) in docs) and PCON
("we directly use the published source code"). Queues are not given; the paper runs ndnSIM, whose
links default to a drop-tail queue of 100 packets, as PTP's experiments here (`ptp_common`).

Parameters, choices and their reasons: docs/experiments/dpccp.md.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Dict, List, Mapping, Sequence, Tuple

from ndnflow.experiments import common
from ndnflow.experiments import ptp_common as pc
from ndnflow.experiments.common import Row

PAPER = "DPCCP (Chen et al.)"
SEED = 1

#: name -> (node attributes, consumer cc, link attributes), as `ptp_common.SOLUTIONS`.
SOLUTIONS: Dict[str, Tuple[Dict[str, Any], Dict[str, Any], Dict[str, Any]]] = {
    # DPCCP on PTP's path switching (§VI-A): MPFP at every node, and DPCCP's router part (hop counts,
    # RTT-probing labels).
    "DPCCP": ({"ptp": True, "dpccp": True}, {"algorithm": "dpccp"}, {}),
    "OMCC-RF": pc.SOLUTIONS["OMCC-RF"],
    # PCON as its authors run it (pcon-4.3/4.4 here): PCON's marking queue on every link, its
    # mark-driven strategy at every node, its consumer.
    "PCON": ({"strategy": "pcon"}, common.PCON_CONSUMER, {"queue": {"discipline": "pcon"}}),
    # MIRCC on the same path switching (DPCCP §II: MIRCC "took advantage of path-switch"): MPFP and
    # MIRCC's forwarding of its rates and classes at every node, MIRCC's rate law on every link.
    "MIRCC": ({"ptp": True, "mircc": True}, {"algorithm": "mircc"}, {"queue": {"discipline": "mircc"}}),
}


def per_second_mbps(res: Any, link: str, start_s: float = 0.0) -> Any:
    """A link direction's Data rate in 1 s bins from `start_s`, Mbit/s (the experiments' figures and
    their time-to-share rows)."""
    return common.rebin(common.link_rows(res, link, start_s), 1.0, "throughput_bps") / 1e6


def case_scenarios(build: Any, cases: Sequence[str], duration: Any, seed: int) -> Dict[str, Any]:
    """Every protocol in every case of a topology builder `build(case) -> Topology` (MP-2, MP-3)."""
    return {pc.variant(s, case): build(case).scenario(s, duration, seed, solutions=SOLUTIONS)
            for case in cases for s in SOLUTIONS}


def case_rows(results: Mapping[str, Any], cases: Sequence[str], paper: Mapping[str, Mapping[str, float]],
              scenario_of: Any, link: str) -> List[Row]:
    """Per case: each protocol's utilization of `link` against the paper's percentage, then
    whether DPCCP's is the highest (MP-Scenarios 2 and 3)."""
    rows: List[Row] = []
    for case in cases:
        best = pc.optimum(scenario_of(case))
        utils = {s: pc.utilization(results[pc.variant(s, case)], best, link) for s in SOLUTIONS}
        for solution, value in utils.items():
            rows.append(pc.util_row(f"{case}, {solution}: utilization of the consumer link", paper[case][solution],
                                    value))
        rows.append(dpccp_highest(f"{case}: DPCCP has the highest utilization", "DPCCP highest", utils, "%"))
    return rows


def dpccp_highest(metric: str, paper: str, values: Mapping[str, float], unit: str = "") -> Row:
    """A check that DPCCP's value is strictly above every other protocol's (the catalog's reading
    of "higher", "better", "beats", "outperforms"); `values` per protocol, DPCCP's among them."""
    others = [s for s in values if s != "DPCCP"]
    return common.check(metric, paper, [values["DPCCP"], *(values[s] for s in others)],
                        "DPCCP above every other protocol (values: DPCCP, " + ", ".join(others) + ")",
                        lambda v: all(v[0] > x for x in v[1:]), unit)


def case_figures(results: Mapping[str, Any], cases: Sequence[str], links: Sequence[str], scenario_of: Any,
                 path: Path) -> List[Path]:
    """Every link's utilization per protocol and case (`path`), and DPCCP's sub-flows in each case
    (paths.png beside it)."""
    panels = [(pc.variant("DPCCP", case), results[pc.variant("DPCCP", case)], "n1") for case in cases]
    return [*pc.utilization_bars(results, cases, list(SOLUTIONS), links, scenario_of, path),
            *pc.paths_figure(panels, path.parent / "paths.png")]
