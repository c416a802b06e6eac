"""PTP §6-D, Scenario 3: a multi-path flow against a single-path flow at one shared bottleneck
(Figure 18).

"Consumer #1 is downloading Data packets of the content object A from Producer #5 and Producer
#6, and Consumer #2 is downloading Data packets of the content object B from Producer #5 only.
The shared bottleneck is 3-4." The figure is lost; we read it as 1-3, 2-3, 3-4, 4-5, 4-6, so that
both of #1's paths cross 3-4 (MPTCP's fairness goal: a multi-path flow takes no more than a
single-path flow where its paths share a bottleneck). Bandwidths and delays:
docs/experiments/ptp.md.

The text's "fairness ratio" x:y is read as the single-path flow's share : the multi-path flow's
share of the two goodputs together ("multi-flow in Sol.2 (OMCC-RF) is more aggressive than single
flow, and the fairness ratio is 38:62"). Checks: each solution's multi-path share within five
points, and PTP's fairer than OMCC-RF's.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Dict, List, Mapping

from ndnflow.experiments import common
from ndnflow.experiments import ptp_common as pc
from ndnflow.experiments.common import Row
from ndnflow.scenario import Scenario

ID = "ptp-s3"
TITLE = "Multi-path vs single-path flow at one bottleneck (Figure 18): fairness ratio, four solutions"
PAPER = pc.PAPER
SECTION = "§6-D, Scenario 3"
DURATION = "60s"
SEED = pc.SEED
#: Checks whose verdict changes over seeds 1-4, or whose value moves more than its tolerance band (--seeds 1-4):
#: judged on their median, docs/experiments/ptp.md.
SEED_SENSITIVE = ("PTP: multi-path flow's share",)
#: §6-D: the single-path flow's share : the multi-path flow's share, percent.
PAPER_RATIO = {"PTP": (48, 52), "OMCC-RF": (38, 62), "RFA+CHoPCoP": (49, 51), "PAF+RAAQM": (41, 59)}
SHARE_TOL = 5.0  # points, as the utilization rows
LINKS = [("n1", "n3", "10Mbps", "10ms"), ("n2", "n3", "10Mbps", "10ms"), ("n3", "n4", "4Mbps", "10ms"),
         ("n4", "n5", "10Mbps", "10ms"), ("n4", "n6", "10Mbps", "10ms")]
TOPOLOGY = pc.Topology(LINKS, [("n5", "/A"), ("n6", "/A"), ("n5", "/B")],
                       [{"node": "n1", "name": "/A/obj"}, {"node": "n2", "name": "/B/obj"}])


def scenarios(duration: Any = DURATION, seed: int = SEED) -> Dict[str, Scenario]:
    return {s: TOPOLOGY.scenario(s, duration, seed) for s in pc.SOLUTIONS}


def multi_share(res: Any) -> float:
    """Percent of the two goodputs (from WARMUP_S on) that the multi-path consumer #1 took."""
    multi, single = (common.mean_goodput_bps(res, c, pc.WARMUP_S) for c in ("n1", "n2"))
    return 100.0 * multi / (multi + single)


def metrics(results: Mapping[str, Any]) -> List[Row]:
    rows: List[Row] = []
    shares = {s: multi_share(results[s]) for s in pc.SOLUTIONS}
    for solution, share in shares.items():
        rows.append(common.within(f"{solution}: multi-path flow's share", PAPER_RATIO[solution][1], share, SHARE_TOL,
                                  "as the utilization rows (topology reconstructed)", "%"))
    rows.append(common.check("PTP fairer than OMCC-RF (|share - 50|)", "'much better'",
                             [abs(shares["PTP"] - 50), abs(shares["OMCC-RF"] - 50)], "PTP's distance smaller",
                             lambda v: v[0] < v[1], "points"))
    return rows


def figures(results: Mapping[str, Any], out_dir: Any) -> List[Path]:
    """figure19_20.png: per solution, the two consumers' goodput over time (1 s bins). The
    paper's Figures 19 (PTP) and 20 (OMCC-RF) draw the windows' convergence; the fairness ratio
    is read on the goodputs (docs/experiments/ptp.md), so they are drawn."""
    names = list(pc.SOLUTIONS)
    figure, axes = common.figure_grid(len(names), 1, width=7.0, height=2.2)
    for row, solution in enumerate(names):
        ax, res = axes[row, 0], results[solution]
        for k, (consumer, label) in enumerate((("n1", "#1 multi-path"), ("n2", "#2 single-path"))):
            rate = common.rebin(common.consumer_rows(res, consumer), 1.0, "goodput_bps") / 1e6
            common.step(ax, rate.index, rate, color=f"C{k}", label=label)
        ax.set_title(f"{solution}: multi-path share {multi_share(res):.0f} % "
                     f"(paper {PAPER_RATIO[solution][1]} %)", fontsize="small")
        ax.set_ylabel("goodput [Mbit/s]")
        ax.grid(True, alpha=0.3)
    axes[0, 0].legend(fontsize="x-small")
    axes[-1, 0].set_xlabel("time [s]")
    panels = [("PTP, #1 multi-path", results["PTP"], "n1"), ("PTP, #2 single-path", results["PTP"], "n2")]
    return [*common.save_figure(figure, Path(out_dir) / "figure19_20.png"),
            *pc.paths_figure(panels, Path(out_dir) / "paths.png")]
