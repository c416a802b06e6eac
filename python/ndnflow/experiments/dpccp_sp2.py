"""DPCCP §VII-B-2, SP-Scenario 2: the cache appears and goes (Figure 8).

"The topology is still linear, like Scenario 1 but using different bottleneck settings (Figure 8).
[...] the cache hitting probability changes over time. It is set to 0% from 0s to 50s, 95% from
50s to 150s and 0% from 150s to 200s." The figure is lost: we keep SP-1's line and delays (A-B
25 ms, B-C 50 ms, C-D 10 ms; D-C 10 Mbit/s) and take C-B down to 40 Mbit/s, so that the cache
quadruples the rate ("the cache hit usually provides the consumer with more bandwidth than that
can be provided from the producer"). Optimum on B-A: 10 Mbit/s, then min(10 / 0.05, 40) = 40,
then 10.

Readings, fixed before the runs: "DPCCP outperforms the others significantly", DPCCP's mean rate
on B-A over the run at least `common.MUCH` (1.1) times each other protocol's (the catalog's
"significantly"); "as the increasing speed of the requesting rate
in DPCCP is exponential with time, the time to arrive at the optimal utilization is much
shortened" (against OMCC-RF's and PCON's additive increase), the time from 50 s until the 1 s rate
first reaches 90 % of 40 Mbit/s, OMCC-RF's and PCON's each at least `common.MUCH` (1.1) times
DPCCP's (the catalog's "much"; MIRCC, whose rate the routers compute, is not among "those using
AI").
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any, Dict, List, Mapping

from ndnflow.experiments import common
from ndnflow.experiments import dpccp_common as dc
from ndnflow.experiments import ptp_common as pc
from ndnflow.experiments.common import Row
from ndnflow.scenario import Scenario

ID = "dpccp-sp2"
TITLE = "Linear A-B-C-D, the cache at C hit 0 -> 95 % -> 0 at 50 and 150 s: tracking the bottleneck"
PAPER = dc.PAPER
SECTION = "§VII-B-2, SP-Scenario 2"
DURATION = "200s"
SEED = dc.SEED
LINKS = [("n1", "n2", "100Mbps", "25ms"), ("n2", "n3", "40Mbps", "50ms"), ("n3", "n4", "10Mbps", "10ms")]
SCHEDULE = [{"at": "0s", "hit": 0.0}, {"at": "50s", "hit": 0.95}, {"at": "150s", "hit": 0.0}]
TOPOLOGY = pc.Topology(LINKS, [("n4", pc.PREFIX)], [{"node": "n1", "name": f"{pc.PREFIX}/obj"}])
ACCESS = "n2->n1"
CACHED_MBPS, CACHE_ON_S = 40.0, 50.0
REACH = 0.9


def scenarios(duration: Any = DURATION, seed: int = SEED) -> Dict[str, Scenario]:
    cache = {"simulated_cache": {"prefix": pc.PREFIX, "payload": pc.PAYLOAD, "schedule": SCHEDULE}}
    return {s: TOPOLOGY.scenario(s, duration, seed, node_extra={"n3": cache}, solutions=dc.SOLUTIONS)
            for s in dc.SOLUTIONS}


def time_to_fill(res: Any) -> float:
    """Seconds from 50 s until the 1 s rate on B-A first reaches 90 % of 40 Mbit/s."""
    rate = dc.per_second_mbps(res, ACCESS)
    hit = rate[(rate.index >= CACHE_ON_S) & (rate >= REACH * CACHED_MBPS)]
    return float(hit.index[0] - CACHE_ON_S) if len(hit) else math.inf


#: The protocols that probe with additive increase, which "much shortened" is measured against
#: (the text: "compared with those using AI"; MIRCC's rate comes from the routers).
ADDITIVE = ("OMCC-RF", "PCON")


def metrics(results: Mapping[str, Any]) -> List[Row]:
    others = [s for s in dc.SOLUTIONS if s != "DPCCP"]
    means = {s: pc.rate_bps(results[s], ACCESS, 0.0) / 1e6 for s in dc.SOLUTIONS}
    fill = {s: time_to_fill(results[s]) for s in dc.SOLUTIONS}
    return [
        common.check("DPCCP's mean rate above the others'", "'outperforms the others significantly'",
                     [means["DPCCP"], *(means[s] for s in others)],
                     f"DPCCP at least {common.MUCH:g} x each (values: DPCCP, " + ", ".join(others) + ")",
                     lambda v: all(v[0] >= common.MUCH * x for x in v[1:]), "Mbit/s"),
        common.check(f"time from 50 s to {REACH:.0%} of 40 Mbit/s", "DPCCP 'much shortened'",
                     [fill["DPCCP"], *(fill[s] for s in ADDITIVE)],
                     f"each at least {common.MUCH:g} x DPCCP's (values: DPCCP, " + ", ".join(ADDITIVE) + ")",
                     lambda v: all(x >= common.MUCH * v[0] for x in v[1:]), "s"),
    ]


def figures(results: Mapping[str, Any], out_dir: Any) -> List[Path]:
    """figure12.png: each protocol's rate on B-A over time (1 s bins) against the optimum, one panel
    per protocol, as the paper's Figure 12 (A)-(D)."""
    names = list(dc.SOLUTIONS)
    figure, axes = common.figure_grid(len(names), 1, width=7.0, height=2.0)
    for row, s in enumerate(names):
        ax = axes[row, 0]
        rate = dc.per_second_mbps(results[s], ACCESS)
        common.step(ax, rate.index, rate, color=f"C{row}", label=s)
        ax.hlines([10, CACHED_MBPS, 10], [0, 50, 150], [50, 150, 200], color="0.4", linestyle=":", linewidth=0.9)
        ax.set_title(f"{s}: time to fill {time_to_fill(results[s]):.0f} s", fontsize="small")
        ax.set_ylabel("Mbit/s")
        ax.grid(True, alpha=0.3)
    axes[-1, 0].set_xlabel("time [s]")
    return common.save_figure(figure, Path(out_dir) / "figure12.png")
