"""PCON §4.4, first part, "Multipath Forwarding: PCON vs. PI vs. CF" (the paper's Figure 8).

A consumer behind R2, which has three one-hop paths to producers P1, P2, P3 of the same prefix.
Three cases: Equal (10 Mbit/s each, RTT 20 ms), Diff_Delay (10 Mbit/s each, RTT 100/50/10 ms) and
Diff_BW (22.5/6/1.5 Mbit/s, RTT 20 ms); three strategies at R2: PI (fewest pending Interests), CF
(weighted round robin by 1/avg pending Interests) and PCON (mark-driven percentages). The same PCON
consumer and PCON queues in every run, so only the forwarding differs. The split of Data over the
three paths and the consumer's goodput are measured over the second half of the run.

Parameters and their sources: docs/experiments/pcon-4.4-split.md.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Dict, List, Mapping, Sequence

import numpy as np

from ndnflow.experiments import common
from ndnflow.experiments.common import Row
from ndnflow.scenario import Scenario

ID = "pcon-4.4-split"
TITLE = "Multipath forwarding: split ratio of PCON, PI and CF (Figure 8)"
PAPER = "PCON (Schneider et al., ICN 2016)"
SECTION = "§4.4"
DURATION = "120s"  # the authors' script (pcon_scen4.1.cpp): RUNTIME 120
SEED = 1
BIN = "100ms"

QUEUE = common.PCON_MARKING_QUEUE
PATHS = ("p1", "p2", "p3")
#: case: (bandwidth per path, one-way delay per path, consumer access delay); the authors'
#: topology files topo-pcon_scen4.1_{EQUAL,DIFF_DELAY,DIFF_BW}.txt, RTT = 2 x (access + path).
CASES = {
    "Equal": (("10Mbps",) * 3, ("5ms",) * 3, "5ms"),
    "Diff_Delay": (("10Mbps",) * 3, ("46ms", "21ms", "1ms"), "4ms"),
    "Diff_BW": (("22.5Mbps", "6Mbps", "1.5Mbps"), ("5ms",) * 3, "5ms"),
}
ACCESS_BW = "100Mbps"
#: The capacity split (percent per path): what fully uses all three links.
EXPECTED = {"Equal": (100 / 3,) * 3, "Diff_Delay": (100 / 3,) * 3, "Diff_BW": (75.0, 20.0, 5.0)}
#: R2's strategy per variant. PCON without shift-back, as the authors' pcon-strategy.cpp (it has
#: none); ndnflow's default shift_back = 0.1 gives the same here, the three next hops having equal
#: costs (see the docs page).
STRATEGIES = {"PI": "pi", "CF": "cf", "PCON": {"name": "pcon", "shift_back": 0.0}}
RTO_S = 1.0  # fixed, above every RTT here (max ~110 ms), as pcon-4.2's PCON consumer
SPLIT_TOL = 5.0  # percentage points
FASTER = common.MUCH  # "significantly higher overall throughput"


def variant(case: str, strategy: str) -> str:
    return f"{case}_{strategy}"


VARIANTS = tuple(variant(c, s) for c in CASES for s in STRATEGIES)


def scenario(case: str, strategy: str, duration: Any = DURATION, seed: int = SEED) -> Scenario:
    bandwidths, delays, access = CASES[case]
    sc = Scenario(duration=duration, seed=seed, bin=BIN)
    for node in ("c", "r2") + PATHS:
        sc.node(node, strategy=STRATEGIES[strategy])
    sc.link("c", "r2", bandwidth=ACCESS_BW, delay=access, queue=QUEUE)
    for p, bandwidth, delay in zip(PATHS, bandwidths, delays):
        sc.link("r2", p, bandwidth=bandwidth, delay=delay, queue=QUEUE)
        sc.producer(p, "/prefix/A", payload=1024)
    sc.consumer("c", "/prefix/A/0", cc=common.PCON_CONSUMER, rto=common.fixed_rto(RTO_S))
    return sc


def scenarios(duration: Any = DURATION, seed: int = SEED) -> Dict[str, Scenario]:
    return {variant(c, s): scenario(c, s, duration, seed) for c in CASES for s in STRATEGIES}


# ----------------------------------------------------------------------------------- metrics


def _half(res: Any) -> float:
    """Start of the measured (second) half of the run."""
    return 0.5 * float(res.summary["simulation"]["duration_s"])


def split(res: Any) -> List[float]:
    """Percent of the Data arriving at R2 from P1, P2, P3 over the second half of the run."""
    start = _half(res)
    data = [float(common.link_rows(res, f"{p}->r2", start)["data"].sum()) for p in PATHS]
    total = sum(data)
    return [100 * d / total if total else float("nan") for d in data]


def goodput_mbps(res: Any) -> float:
    return common.mean_goodput_bps(res, "c", _half(res)) / 1e6


def deviation(shares: Sequence[float], expected: Sequence[float]) -> float:
    """Largest distance, in percentage points, of a split from the expected one."""
    return max(abs(a - b) for a, b in zip(shares, expected))


def _split_row(metric: str, paper: str, shares: List[float], expected: Sequence[float]) -> Row:
    return common.check(metric, paper, [round(s, 1) for s in shares],
                        f"each within ±{SPLIT_TOL:g} points", lambda v: deviation(shares, expected) <= SPLIT_TOL, "%")


def metrics(results: Mapping[str, Any]) -> List[Row]:
    shares = {name: split(res) for name, res in results.items()}
    rate = {name: goodput_mbps(res) for name, res in results.items()}
    rows: List[Row] = []
    for case in CASES:
        text = "/".join(f"{x:.0f}" for x in EXPECTED[case])
        rows.append(_split_row(f"{case}: PCON split P1/P2/P3", f"{text} (expected split)",
                               shares[variant(case, "PCON")], EXPECTED[case]))
    for s in ("PI", "CF"):
        rows.append(_split_row(f"Equal: {s} split P1/P2/P3", "33/33/33", shares[variant("Equal", s)],
                               EXPECTED["Equal"]))
    for s in ("PI", "CF"):
        rows.append(common.at_least(
            f"Diff_Delay: {s} share of the 10 ms path (P3)", "prefers the lower-delay path",
            shares[variant("Diff_Delay", s)][2], 100 / 3 + SPLIT_TOL, "more than 33 % + 5 points", "%"))
    dev = {s: deviation(shares[variant("Diff_Delay", s)], EXPECTED["Diff_Delay"]) for s in ("PI", "CF")}
    rows.append(common.check("Diff_Delay: CF / PI distance from 33/33/33", "CF slightly better split",
                             [round(dev["CF"], 1), round(dev["PI"], 1)], "CF's < PI's",
                             lambda v: v[0] < v[1], "points"))
    rows.append(common.check("Diff_Delay: CF / PI goodput", "CF higher than PI",
                             [rate[variant("Diff_Delay", "CF")], rate[variant("Diff_Delay", "PI")]], "CF's > PI's",
                             lambda v: v[0] > v[1], "Mbit/s"))
    for s in ("PI", "CF"):
        rows.append(common.within(f"Diff_BW: {s} share of the 22.5 Mbit/s path (P1)", 54.0,
                                  shares[variant("Diff_BW", s)][0], SPLIT_TOL, "'about 54%'", "%"))
    for case in ("Diff_Delay", "Diff_BW"):
        best = max(rate[variant(case, "PI")], rate[variant(case, "CF")])
        rows.append(common.at_least(
            f"{case}: PCON goodput / best of PI, CF", "significantly higher", rate[variant(case, "PCON")] / best,
            FASTER, f"+10 % ({rate[variant(case, 'PCON')]:.1f} vs {best:.1f} Mbit/s)"))
    return rows


# ----------------------------------------------------------------------------------- figures


def figures(results: Mapping[str, Any], out_dir: Any) -> List[Path]:
    """figure8.png: per case (columns) the split over P1/P2/P3 per strategy (stacked bars, the
    expected split as a dashed line) and the consumer's goodput (bars), second half of the run."""
    figure, axes = common.figure_grid(2, len(CASES), width=3.8, height=2.6)
    names = list(STRATEGIES)
    x = np.arange(len(names))
    for col, case in enumerate(CASES):
        bottom = np.zeros(len(names))
        for k, p in enumerate(PATHS):
            part = np.array([split(results[variant(case, s)])[k] for s in names])
            axes[0, col].bar(x, part, bottom=bottom, color=f"C{k}", width=0.6, label=p.upper())
            bottom += part
        for level in np.cumsum(EXPECTED[case])[:-1]:
            axes[0, col].axhline(level, color="black", linestyle="--", linewidth=0.8)
        axes[0, col].set_title(case)
        axes[0, col].set_ylim(0, 100)
        axes[1, col].bar(x, [goodput_mbps(results[variant(case, s)]) for s in names], color="C7", width=0.6)
        for row in (0, 1):
            axes[row, col].set_xticks(x)
            axes[row, col].set_xticklabels(names)
            axes[row, col].grid(True, axis="y", alpha=0.3)
    axes[0, 0].set_ylabel("split of Data [%]")
    axes[1, 0].set_ylabel("goodput [Mbit/s]")
    axes[0, -1].legend(fontsize="x-small", loc="upper right")
    top = max(ax.get_ylim()[1] for ax in axes[1])
    for ax in axes[1]:
        ax.set_ylim(0, top)
    figure.text(0.01, 0.005, "second half of each run; dashed: the expected (capacity) split", fontsize="x-small")
    return common.save_figure(figure, Path(out_dir) / "figure8.png")
