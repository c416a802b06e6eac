"""DPCCP §VII-C-1, MP-Scenario 1: inter-flow fairness with a two-source flow (Figure 14).

"Producer E and Producer F provide content to Consumer A concurrently (starts at 0s, Data Flow
1). [...] the first flow contains two sub-flows E-D-C-A and F-D-C-A. Producer F provides the
content to Consumer B (starts at 50s, Data Flow 2). [...] Consumer A and Consumer B should receive
the same downloading rate as the two flows are travelling through the same bottleneck (D-C)." The
figure is lost. Our bandwidths: D-C 30 Mbit/s (the bottleneck), E-D and F-D 20 Mbit/s, chosen so
that the text's MIRCC outcome can happen ("Consumer B only receives 50% bandwidth (around
10Mbps)": half of F-D) while the fair split is 15 : 15; the consumers' links 100 Mbit/s; every
link 10 ms. Nodes A-F are n1-n6.

Reading, fixed before the runs: "a split ratio nearly 1:1" holds when A's rate over B's, their
Data bit rates on their consumer links over 70-100 s (after B's start and 20 s to converge), is
within 10 % of 1; "OMCC-RF achieves near-perfect multi-flow fairness", the same; "the fairness of
PCON is worse than it is of DPCCP", PCON's ratio farther from 1 than DPCCP's; MIRCC's "Consumer B
only receives 50% bandwidth (around 10Mbps)", B's rate over 70-100 s within 10 % of 10 Mbit/s (the
catalog's "about X" for a rate), and A's rate beside it as information ("another sub-flow of
Consumer A (via E-D-C-A) soaks the remaining bandwidth").

"DPCCP follows the Congestion Equality Principle [...] thus guarantees multi-flow fairness" (§V-C:
the equilibrium of the log utility): each of DPCCP's rates within 5 % of the NUM optimum
(`ndnflow.optimum.num` over every loop-free path, 15 and 15 Mbit/s here).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Dict, List, Mapping

from ndnflow.experiments import common
from ndnflow.experiments import dpccp_common as dc
from ndnflow.experiments import ptp_common as pc
from ndnflow.experiments.common import Row
from ndnflow.optimum import num, num_paths
from ndnflow.scenario import Scenario

ID = "dpccp-mp1"
TITLE = "Two-source flow against a single-source flow at one bottleneck (Figure 14): split ratio"
PAPER = dc.PAPER
SECTION = "§VII-C-1, MP-Scenario 1"
DURATION = "100s"
SEED = dc.SEED
LINKS = [("n1", "n3", "100Mbps", "10ms"), ("n2", "n3", "100Mbps", "10ms"), ("n3", "n4", "30Mbps", "10ms"),
         ("n4", "n5", "20Mbps", "10ms"), ("n4", "n6", "20Mbps", "10ms")]
TOPOLOGY = pc.Topology(LINKS, [("n5", "/A"), ("n6", "/A"), ("n6", "/B")],
                       [{"node": "n1", "name": "/A/obj"}, {"node": "n2", "name": "/B/obj", "start": "50s"}])
WINDOW = (70.0, 100.0)
TOL = 0.10  # "nearly 1:1"
NUM_TOL = 0.05  # issue 19: "within 5 % of the NUM optimum"
#: DPCCP's ratio is derived from the two rates its NUM rows check (docs/experiments/dpccp.md).
INFO_ROWS = ("DPCCP: A's rate / B's rate (70-100 s)", "MIRCC: A's rate (70-100 s)")
#: "Consumer B only receives 50% bandwidth (around 10Mbps)" under MIRCC [Mbit/s].
MIRCC_B_MBPS = 10.0


def scenarios(duration: Any = DURATION, seed: int = SEED) -> Dict[str, Scenario]:
    return {s: TOPOLOGY.scenario(s, duration, seed, solutions=dc.SOLUTIONS) for s in dc.SOLUTIONS}


def ratio(res: Any) -> float:
    """A's Data bit rate over B's on their consumer links, over `WINDOW`."""
    a, b = (pc.rate_bps(res, f"n3->{c}", *WINDOW) for c in ("n1", "n2"))
    return a / b if b else float("inf")


def num_optimum_bps() -> Dict[str, float]:
    """Each consumer's rate at the NUM optimum with log utility (link bit/s)."""
    return num(*num_paths(TOPOLOGY.scenario("DPCCP", DURATION, SEED, solutions=dc.SOLUTIONS))).flows


def metrics(results: Mapping[str, Any]) -> List[Row]:
    ratios = {s: ratio(results[s]) for s in dc.SOLUTIONS}
    best = num_optimum_bps()
    rows = [common.within(f"{s}: A's rate / B's rate ({WINDOW[0]:.0f}-{WINDOW[1]:.0f} s)", 1.0, ratios[s], TOL,
                          "'nearly 1:1'") for s in ("DPCCP", "OMCC-RF")]
    rows.append(common.check("PCON less fair than DPCCP (|ratio - 1|)", "'worse'",
                             [abs(ratios["PCON"] - 1), abs(ratios["DPCCP"] - 1)], "PCON's farther from 1",
                             lambda v: v[0] > v[1]))
    mircc = {c: pc.rate_bps(results["MIRCC"], f"n3->{c}", *WINDOW) / 1e6 for c in ("n1", "n2")}
    rows.append(common.within("MIRCC: B's rate (70-100 s)", MIRCC_B_MBPS, mircc["n2"], TOL * MIRCC_B_MBPS,
                              "'around 10Mbps'", "Mbit/s"))
    rest = 30.0 - MIRCC_B_MBPS  # what B leaves of D-C
    rows.append(common.within("MIRCC: A's rate (70-100 s)", rest, mircc["n1"], TOL * rest,
                              "'soaks the remaining bandwidth' of D-C", "Mbit/s"))
    for consumer, label in (("n1", "A"), ("n2", "B")):
        target = best[consumer] / 1e6
        measured = pc.rate_bps(results["DPCCP"], f"n3->{consumer}", *WINDOW) / 1e6
        rows.append(common.within(f"DPCCP: {label}'s rate against the NUM optimum", target, measured,
                                  NUM_TOL * target, "within 5 % (issue 19)", "Mbit/s"))
    return rows


def figures(results: Mapping[str, Any], out_dir: Any) -> List[Path]:
    """figure16.png: per protocol, A's and B's rates on their consumer links (1 s bins), as the
    paper's Figure 16; paths.png: DPCCP's sub-flows of A and B."""
    names = list(dc.SOLUTIONS)
    figure, axes = common.figure_grid(len(names), 1, width=7.0, height=2.2)
    for row, solution in enumerate(names):
        ax, res = axes[row, 0], results[solution]
        for k, consumer in enumerate(("n1", "n2")):
            rate = dc.per_second_mbps(res, f"n3->{consumer}")
            common.step(ax, rate.index, rate, color=f"C{k}", label="A (two sources)" if k == 0 else "B")
        ax.set_title(f"{solution}: A / B = {ratio(res):.2f}", fontsize="small")
        ax.set_ylabel("Mbit/s")
        ax.grid(True, alpha=0.3)
    axes[0, 0].legend(fontsize="x-small")
    axes[-1, 0].set_xlabel("time [s]")
    panels = [("DPCCP, A", results["DPCCP"], "n1"), ("DPCCP, B", results["DPCCP"], "n2")]
    return [*common.save_figure(figure, Path(out_dir) / "figure16.png"),
            *pc.paths_figure(panels, Path(out_dir) / "paths.png")]
