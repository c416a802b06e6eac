"""DPCCP §VII-B-3, SP-Scenario 3: multi-user fairness convergence on a dumbbell (Figure 13).

"The transmission latency of each link is set to 20ms. Producer F serves content to Consumer A
(starts from 0s and ends in 150s, Data Flow 1). Producer G serves content to Consumer B (starts
from 50s and ends in 200s, Data Flow 2). Producer H serves content to Consumer C (starts from
100s and ends in 200s, Data Flow 3). All the three flows travel through link E-D. In the case
that only Consumer A is downloading content, the bottleneck is at F-E (20Mbps). In the case that
more than one flow is downloading content, the bottleneck becomes E-D (30Mbps)." The figure is
lost: we read the dumbbell as A, B, C on D and F, G, H on E; G-E and H-E at 20 Mbit/s as F-E, the
consumers' links at 100 Mbit/s (never a bottleneck). Nodes A-H are n1-n8.

"Ideally, the congestion control scheme should achieve 20Mbps downloading rate when only a single
flow is activated; 15Mbps downloading rate when two flows are activated; and 10Mbps downloading
rate when three flows are activated. [...] all four protocols can fairly and efficiently share
the bottleneck bandwidth." Reading, fixed before the runs: a flow's downloading rate is the bit
rate of its Data on its consumer's link (headers included, as the link bandwidths count them),
averaged over the last 30 s of each phase (A alone 20-50 s, two flows 70-100 s, three 120-150 s);
"should achieve" holds when every active flow is within 10 % of the ideal. And "as a result of
employing A-AIAD in DPCCP, the number of backlogged packets of each flow converges to the
setpoint quickly [...] as OMCC-RF use AI to increase the congestion window, each flow takes
more time": the time from a flow's start until its 1 s rate first comes within 10 % of its
share, DPCCP's shorter than OMCC-RF's for flows 2 and 3; "the explicit calculation and congestion
notification endow MIRCC a quick convergence toward fair bandwidth share" (against OMCC-RF's AI,
"each flow takes more time"), the same time, MIRCC's shorter than OMCC-RF's for flows 2 and 3.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any, Dict, List, Mapping, Tuple

from ndnflow.experiments import common
from ndnflow.experiments import dpccp_common as dc
from ndnflow.experiments import ptp_common as pc
from ndnflow.experiments.common import Row
from ndnflow.scenario import Scenario

ID = "dpccp-sp3"
TITLE = "Dumbbell (Figure 13): three flows joining at 0, 50, 100 s share E-D fairly"
PAPER = dc.PAPER
SECTION = "§VII-B-3, SP-Scenario 3"
DURATION = "200s"
SEED = dc.SEED
#: consumer node, producer node, prefix, start, stop (seconds).
FLOWS = (("n1", "n6", "/F", 0, 150), ("n2", "n7", "/G", 50, 200), ("n3", "n8", "/H", 100, 200))
LINKS = [("n1", "n4", "100Mbps", "20ms"), ("n2", "n4", "100Mbps", "20ms"), ("n3", "n4", "100Mbps", "20ms"),
         ("n4", "n5", "30Mbps", "20ms"),
         ("n5", "n6", "20Mbps", "20ms"), ("n5", "n7", "20Mbps", "20ms"), ("n5", "n8", "20Mbps", "20ms")]
#: phase -> (measurement window [s], active flows' consumers, ideal rate [Mbit/s]).
PHASES: Dict[str, Tuple[Tuple[float, float], Tuple[str, ...], float]] = {
    "one flow": ((20.0, 50.0), ("n1",), 20.0),
    "two flows": ((70.0, 100.0), ("n1", "n2"), 15.0),
    "three flows": ((120.0, 150.0), ("n1", "n2", "n3"), 10.0),
}
TOL = 0.10  # "should achieve": within 10 % of the ideal
TOPOLOGY = pc.Topology(LINKS, [(p, prefix) for _, p, prefix, _, _ in FLOWS],
                       [{"node": c, "name": f"{prefix}/obj", "start": f"{a}s", "stop": f"{b}s"}
                        for c, _, prefix, a, b in FLOWS])


def scenarios(duration: Any = DURATION, seed: int = SEED) -> Dict[str, Scenario]:
    return {s: TOPOLOGY.scenario(s, duration, seed, solutions=dc.SOLUTIONS) for s in dc.SOLUTIONS}


def flow_mbps(res: Any, consumer: str, start_s: float, end_s: float) -> float:
    """Mean Data bit rate on the consumer's link (D -> consumer) over [start_s, end_s), Mbit/s."""
    return pc.rate_bps(res, f"n4->{consumer}", start_s, end_s) / 1e6


def convergence_s(res: Any, consumer: str, start_s: float, share_mbps: float) -> float:
    """Seconds from `start_s` until the consumer's 1 s rate first comes within TOL of `share_mbps`."""
    rate = dc.per_second_mbps(res, f"n4->{consumer}", start_s)
    near = rate[(rate - share_mbps).abs() <= TOL * share_mbps]
    return float(near.index[0] - start_s) if len(near) else math.inf


def metrics(results: Mapping[str, Any]) -> List[Row]:
    rows: List[Row] = []
    for solution in dc.SOLUTIONS:
        res = results[solution]
        for phase, ((a, b), consumers, ideal) in PHASES.items():
            rates = [flow_mbps(res, c, a, b) for c in consumers]
            rows.append(common.check(
                f"{solution}, {phase} ({a:.0f}-{b:.0f} s): each flow's rate", f"{ideal:g} Mbit/s each", rates,
                f"every flow within {TOL:.0%} of {ideal:g}", lambda v, i=ideal: all(abs(x - i) <= TOL * i for x in v),
                "Mbit/s"))
    for quick in ("DPCCP", "MIRCC"):
        for consumer, start, share in (("n2", 50.0, 15.0), ("n3", 100.0, 10.0)):
            times = [convergence_s(results[s], consumer, start, share) for s in (quick, "OMCC-RF")]
            rows.append(common.check(
                f"flow {consumer[1:]}: time to its share, {quick} vs OMCC-RF", f"{quick} quicker", times,
                f"{quick}'s shorter (1 s rate within {TOL:.0%} of {share:g} Mbit/s)", lambda v: v[0] < v[1], "s"))
    return rows


def figures(results: Mapping[str, Any], out_dir: Any) -> List[Path]:
    """figure15.png: per protocol, each flow's rate on its consumer link over time (1 s bins), with
    the ideal shares dotted, as the paper's Figure 15."""
    names = list(dc.SOLUTIONS)
    figure, axes = common.figure_grid(len(names), 1, width=7.0, height=2.2)
    for row, solution in enumerate(names):
        ax, res = axes[row, 0], results[solution]
        for k, (consumer, _, _, _, _) in enumerate(FLOWS):
            rate = dc.per_second_mbps(res, f"n4->{consumer}")
            common.step(ax, rate.index, rate, color=f"C{k}", label=f"flow {k + 1}")
        for (a, b), _, ideal in PHASES.values():
            ax.hlines(ideal, a, b, color="0.4", linestyle=":", linewidth=0.9)
        ax.set_title(solution, fontsize="small")
        ax.set_ylabel("Mbit/s")
        ax.grid(True, alpha=0.3)
    axes[0, 0].legend(fontsize="x-small", ncol=3)
    axes[-1, 0].set_xlabel("time [s]")
    return common.save_figure(figure, Path(out_dir) / "figure15.png")
