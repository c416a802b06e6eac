"""DPCCP §VII-B-1, SP-Scenario 1: a linear topology with a simulated cache (Figure 7).

"Router C is cache enabled. [...] Producer D and Consumer A are the nodes located at the two ends
of the graph. When caches do not exist in Router C, a single flow travels through bottleneck D-C
(10Mbps). The sum of the propagation latencies in the consumer-producer path is 170 = 2 x (25 + 50
+ 10) ms. [...] Different time-invariant caching hit probabilities κ (0%, 20%, 40%, 60%, 80% and
100%) are set for Router C. Every experiment is run 5 times, where each run lasts 200 seconds."
For κ = 100 % "the only bottleneck is link C-B and its bandwidth is 60Mbps". The figure is lost:
we read the delays in the order written, A-B 25 ms, B-C 50 ms, C-D 10 ms, and give B-A 100 Mbit/s
(never the bottleneck). A-D are n1-n4. The cache answers with probability κ without storing
anything (`simulated_cache`, §VII-A).

The optimum for κ (payload and headers alike, as the links carry them): the producer's share
(1 - κ) of the rate crosses D-C and the whole rate crosses C-B, so min(10 / (1 - κ), 60) Mbit/s on
the consumer's link B-A.

Readings, fixed before the runs: "DPCCP achieves a near-perfect link utilization for the first 5
cases" holds when its rate on B-A over 20-200 s is at least 95 % of the optimum for κ <= 80 %;
"OMCC-RF [...] achieve good performances in the first and the last cases but worse performances
in the other cases", OMCC-RF's and MIRCC's utilization at κ = 0 and 100 % each above every middle
case's; "the averaged queuing delay of OMCC-RF and MIRCC is nearly 0 as it operates at the point
that the queue is nearly empty", each one's mean sojourn at the bottleneck at most one Data's
transmission time there (less than one Data waiting on average: 0.87 ms at D-C, 0.15 ms at C-B),
in every case; the queuing delay "20Kbyte / 10Mbps * 8 ≈ 16ms" (κ <= 80 %, at D-C) and "20Kbyte / 60Mbps * 8 ≈
2.7ms" (κ = 100 %, at C-B) is the bottleneck queue's mean sojourn, within 25 % (our Data are
about 1,090 bytes on the wire, not 1,000: 20 of them take 17.4 ms at 10 Mbit/s); "all the
algorithms achieve near-zero packet drop", every protocol's drops at most 0.1 % of the Data the
producer and cache sent, in every case.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Dict, List, Mapping

from ndnflow.experiments import common
from ndnflow.experiments import dpccp_common as dc
from ndnflow.experiments import ptp_common as pc
from ndnflow.experiments.common import Row
from ndnflow.scenario import Scenario

ID = "dpccp-sp1"
TITLE = "Linear A-B-C-D with a cache at C hit with probability 0-100 %: rate, queuing delay, drops"
PAPER = dc.PAPER
SECTION = "§VII-B-1, SP-Scenario 1"
DURATION = "200s"  # "each run lasts 200 seconds"
SEED = dc.SEED
KAPPAS = (0.0, 0.2, 0.4, 0.6, 0.8, 1.0)
LINKS = [("n1", "n2", "100Mbps", "25ms"), ("n2", "n3", "60Mbps", "50ms"), ("n3", "n4", "10Mbps", "10ms")]
PRODUCER_MBPS, CACHE_LINK_MBPS = 10.0, 60.0
TOPOLOGY = pc.Topology(LINKS, [("n4", pc.PREFIX)], [{"node": "n1", "name": f"{pc.PREFIX}/obj"}])
ACCESS = "n2->n1"
START_S = 20.0  # past Z-MI's fill (about 8 s at 10 Mbit/s)
UTIL_MIN = 95.0  # "near-perfect"
DELAY_TOL = 0.25
DROP_MAX = 0.001  # "near-zero": 0.1 % of the Data sent
#: Judged on the median of seeds 1-4, as they move with the seed: κ = 80 %'s utilization fails
#: with seed 3 only (96.2, 95.8, 94.5, 95.7 %), its queuing delay passes with every seed (15.2,
#: 16.4, 14.9, 15.7 ms against 16 ± 4), since a drain needs K cycles of heavy congestion; with one
#: cycle, 93.5, 93.7, 95.2, 92.8 % and 11.8, 11.9, 14.4, 12.4 ms.
SEED_SENSITIVE = ("DPCCP, κ = 80%: utilization of B-A", "DPCCP, κ = 80%: queuing delay at n4->n3")
#: A Data's transmission time at each bottleneck [ms] (about 1,090 bytes on the wire).
DATA_TIME_MS = {"n4->n3": 1090 * 8 / 10e6 * 1e3, "n3->n2": 1090 * 8 / 60e6 * 1e3}
#: "expected queuing delay" [ms] and the link it is at, per κ.
PAPER_DELAY = {k: (16.0, "n4->n3") if k < 1.0 else (2.7, "n3->n2") for k in KAPPAS}


def variant(solution: str, kappa: float) -> str:
    return f"{solution}, κ = {kappa:.0%}"


def scenario(solution: str, kappa: float, duration: Any = DURATION, seed: int = SEED) -> Scenario:
    cache = {"simulated_cache": {"prefix": pc.PREFIX, "payload": pc.PAYLOAD, "hit": kappa}}
    return TOPOLOGY.scenario(solution, duration, seed, node_extra={"n3": cache}, solutions=dc.SOLUTIONS)


def scenarios(duration: Any = DURATION, seed: int = SEED) -> Dict[str, Scenario]:
    return {variant(s, k): scenario(s, k, duration, seed) for k in KAPPAS for s in dc.SOLUTIONS}


def optimum_mbps(kappa: float) -> float:
    return CACHE_LINK_MBPS if kappa >= 1.0 else min(PRODUCER_MBPS / (1.0 - kappa), CACHE_LINK_MBPS)


def utilization(res: Any, kappa: float) -> float:
    return 100.0 * pc.rate_bps(res, ACCESS, START_S) / (optimum_mbps(kappa) * 1e6)


def drop_share(res: Any) -> float:
    """Drops on every link over the Data the holders sent: D's (all its Data come from its
    producer) and C's cache hits (C's other Data are D's, passed on)."""
    nodes = res.summary.get("nodes", {})
    sent = int(nodes.get("n4", {}).get("out_data", 0) or 0) + int(nodes.get("n3", {}).get("cs_hits", 0) or 0)
    return common.all_drops(res) / sent if sent else 0.0


def queue_in_data_times(res: Any, kappa: float) -> float:
    """The bottleneck queue's mean sojourn over one Data's transmission time there."""
    link = PAPER_DELAY[kappa][1]
    return common.weighted_sojourn_ms(res, link) / DATA_TIME_MS[link]


def metrics(results: Mapping[str, Any]) -> List[Row]:
    rows: List[Row] = []
    for k in KAPPAS[:-1]:
        rows.append(common.at_least(f"DPCCP, κ = {k:.0%}: utilization of B-A", "near-perfect",
                                    utilization(results[variant("DPCCP", k)], k), UTIL_MIN, "'near-perfect'", "%"))
    for s in ("OMCC-RF", "MIRCC"):
        utils = [utilization(results[variant(s, k)], k) for k in KAPPAS]
        rows.append(common.check(f"{s}: κ = 0 and 100 % above every middle case", "good at the ends only", utils,
                                 "both ends above 20-80 % (values: κ = 0, 20, ..., 100 %)",
                                 lambda v: min(v[0], v[-1]) > max(v[1:-1]), "%"))
        worst = max(queue_in_data_times(results[variant(s, k)], k) for k in KAPPAS)
        rows.append(common.at_most(f"{s}: bottleneck queuing delay in Data transmission times, worst κ",
                                   "nearly 0", worst, 1.0, "'nearly 0': under one Data waiting", ""))
    for k in KAPPAS:
        paper_ms, link = PAPER_DELAY[k]
        measured = common.weighted_sojourn_ms(results[variant("DPCCP", k)], link)
        rows.append(common.within(f"DPCCP, κ = {k:.0%}: queuing delay at {link}", paper_ms, measured,
                                  DELAY_TOL * paper_ms, "20 packets of ~1,090 bytes, not 1,000", "ms"))
    for s in dc.SOLUTIONS:
        worst = max(drop_share(results[variant(s, k)]) for k in KAPPAS)
        rows.append(common.at_most(f"{s}: drops over Data sent, worst κ", "near-zero", 100.0 * worst,
                                   100.0 * DROP_MAX, "'near-zero'", "%"))
    return rows


def figures(results: Mapping[str, Any], out_dir: Any) -> List[Path]:
    """figure9_10.png: per κ, each protocol's rate on B-A against the optimum (Figure 9) and
    DPCCP's bottleneck queuing delay (Figure 10)."""
    figure, axes = common.figure_grid(1, 2, width=5.0, height=2.8)
    left, right = axes[0, 0], axes[0, 1]
    width = 0.8 / (len(dc.SOLUTIONS) + 1)
    xs = list(range(len(KAPPAS)))
    left.bar([x - width * len(dc.SOLUTIONS) / 2 for x in xs], [optimum_mbps(k) for k in KAPPAS], width=width,
             color="white", edgecolor="0.3", label="optimum")
    for j, s in enumerate(dc.SOLUTIONS):
        rates = [pc.rate_bps(results[variant(s, k)], ACCESS, START_S) / 1e6 for k in KAPPAS]
        left.bar([x + width * (j + 1 - len(dc.SOLUTIONS) / 2) for x in xs], rates, width=width, color=f"C{j}",
                 label=s)
    for j, s in enumerate(dc.SOLUTIONS):
        delays = [common.weighted_sojourn_ms(results[variant(s, k)], PAPER_DELAY[k][1]) for k in KAPPAS]
        right.plot(xs, delays, marker="o", color=f"C{j}", label=s)
    right.plot(xs, [PAPER_DELAY[k][0] for k in KAPPAS], linestyle=":", color="0.3", label="paper (DPCCP)")
    for ax, label in ((left, "rate on B-A [Mbit/s]"), (right, "bottleneck queuing delay [ms]")):
        ax.set_xticks(xs)
        ax.set_xticklabels([f"{k:.0%}" for k in KAPPAS])
        ax.set_xlabel("cache hit probability κ")
        ax.set_ylabel(label)
        ax.grid(True, axis="y", alpha=0.3)
        ax.legend(fontsize="x-small")
    return common.save_figure(figure, Path(out_dir) / "figure9_10.png")
