"""Thibaud et al. §IV, Sce2 (Tables III-V, Fig. 6): flow B joins flow A ten seconds in.

The Fig. 1 topology of survey-sce1 with U2 behind R2 fetching B from PB behind R3: B's Data share
R3 -> R1 (path 1 of A) in A's direction, and R1 - R2 (path 2 of A) in the opposite one. U2 starts
at 10 s; each fetches 400 MB. Three phases: U1 only (0-10 s), both (10 s to U1's end), U2 only.
BR, PCON-FS and DRF at every node, each with ICP and with PCON-CS consumers: six runs.

Table III (BR) and IV (PCON-FS) are lost; the text gives BR's coexistence rates and U2's rate
alone with ICP, and PCON-FS's qualitative outcome. Table V (DRF) survives whole.

Parameters and their sources: docs/experiments/survey-sce2.md.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Tuple

from ndnflow.experiments import common
from ndnflow.experiments import survey_common as sv
from ndnflow.experiments.common import Row
from ndnflow.scenario import Scenario

ID = "survey-sce2"
TITLE = "Two flows, one with two paths: BR, PCON-FS, DRF with ICP and PCON-CS (Tables III-V, Fig. 6)"
PAPER = sv.PAPER
SECTION = "§IV-A, Sce2"
DURATION = "400s"  # an upper bound: the run stops when both have their 400 MB
SEED = sv.SEED
#: Rows that are information, not checks (docs/experiments/README.md; the page says why).
INFO_ROWS = ("BR: U1 rate > U2 rate while both run, ICP / PCON-CS",)
#: Checks whose verdict changes over seeds 1-4, or whose value moves more than its tolerance band (--seeds 1-4):
#: judged on their median, the page has the values.
SEED_SENSITIVE = ("PCON-FS, PCON-CS: U1 / U2 on the shared link (R3 -> R1)",)
B_START_S = 10.0  # "The flow B starts requesting data ten seconds after the flow A"

FORWARDING = ("BR", "PCON-FS", "DRF")
VARIANTS = tuple(sv.variant(cc, fs) for fs in FORWARDING for cc in sv.CONSUMERS)
PHASES = ("U1 only", "U1 & U2", "U2 only")
RATE_TOL = 0.10

#: Table III (BR), from the text: U1 and U2 during the coexistence, U2 alone (ICP only).
TABLE3 = {"ICP": {("U1", "U1 & U2"): 32.4, ("U2", "U1 & U2"): 12.1, ("U2", "U2 only"): 41.3},
          "PCON-CS": {("U1", "U1 & U2"): 25.9, ("U2", "U1 & U2"): 17.9}}
#: Table V (DRF): (U1 path 1, U1 path 2, U1 total, U2) per phase; None where the table is empty.
TABLE5: Dict[str, Dict[str, Tuple[Optional[float], ...]]] = {
    "ICP": {"U1 only": (28.0, 28.4, 56.4, None), "U1 & U2": (23.4, 23.6, 47.0, 17.4),
            "U2 only": (None, None, None, 42.3)},
    "PCON-CS": {"U1 only": (25.2, 25.4, 50.6, None), "U1 & U2": (22.0, 22.3, 44.3, 18.6),
                "U2 only": (None, None, None, 32.9)},
}
ALIKE = common.ALIKE  # "the rate of the consumers are alike on the shared link"


def scenarios(duration: Any = DURATION, seed: int = SEED) -> Dict[str, Scenario]:
    return {sv.variant(cc, fs): sv.fig1(sv.STRATEGIES[fs], sv.CONSUMERS[cc], with_b=True, duration=duration,
                                        seed=seed, b_start=f"{B_START_S:g}s")
            for fs in FORWARDING for cc in sv.CONSUMERS}


# ------------------------------------------------------------------------------ derived values


def table(res: Any) -> Dict[str, Tuple[float, float, float, float]]:
    """Per phase: U1's rate on path 1 and on path 2, U1's total, U2's rate (Mbit/s; NaN where the
    phase has no such flow). U1's path-2 rate is the Data R2 -> R1 carried (only A's Data use that
    direction); path 1 is U1's goodput less it."""
    out = {}
    for name, (a, b) in sv.phases(res, b_start=B_START_S).items():
        u1 = sv.goodput_mbps(res, "u1", a, b) if name != "U2 only" else math.nan
        p2 = sv.data_mbps(res, sv.PATH2, a, b) if name != "U2 only" else math.nan
        u2 = sv.goodput_mbps(res, "u2", a, b) if name != "U1 only" else math.nan
        out[name] = (u1 - p2, p2, u1, u2)
    return out


# ----------------------------------------------------------------------------------- metrics


def metrics(results: Mapping[str, Any]) -> List[Row]:
    v = sv.variant
    tables = {name: table(results[name]) for name in VARIANTS}
    rows: List[Row] = []
    column = {"U1": 2, "U2": 3}
    for cc, paper in TABLE3.items():
        for (user, phase), value in paper.items():
            rows.append(sv.relative(f"BR, {cc}: {user} rate, {phase}", value, tables[v(cc, "BR")][phase][column[user]],
                                    RATE_TOL))
    rows.append(common.check("BR: U1 rate > U2 rate while both run, ICP / PCON-CS", "U1 ahead (Table III)",
                             [tables[v(cc, "BR")]["U1 & U2"][2] / tables[v(cc, "BR")]["U1 & U2"][3]
                              for cc in sv.CONSUMERS], "U1 / U2 > 1", lambda x: all(y > 1 for y in x)))
    for cc in sv.CONSUMERS:
        t = tables[v(cc, "PCON-FS")]["U1 & U2"]
        rows.append(common.check(f"PCON-FS, {cc}: U1 / U2 on the shared link (R3 -> R1)", "'alike'", t[0] / t[3],
                                 f"within a factor {ALIKE:g}", lambda x: 1 / ALIKE <= x <= ALIKE))
    second = [tables[v(cc, "PCON-FS")]["U1 & U2"][1] for cc in sv.CONSUMERS]
    rows.append(common.check("PCON-FS: U1 on path 2 while both run, ICP / PCON-CS", "ICP uses it 'at it full "
                             "capacity'; the marks limit PCON-CS", second, "ICP >= 45 (90 % of 50), PCON-CS below ICP",
                             lambda x: x[0] >= 45.0 and x[1] < x[0], "Mbit/s"))
    labels = ("U1 path 1", "U1 path 2", "U1 total", "U2")
    for cc, paper in TABLE5.items():
        measured = tables[v(cc, "DRF")]
        for phase in PHASES:
            for k, value in enumerate(paper[phase]):
                if value is not None:
                    rows.append(sv.relative(f"DRF, {cc}: {labels[k]}, {phase}", value, measured[phase][k], RATE_TOL))
    return rows


# ----------------------------------------------------------------------------------- figures


def figures(results: Mapping[str, Any], out_dir: Any) -> List[Path]:
    """figure6.png: per run (columns: BR, PCON-FS, DRF; rows: ICP, PCON-CS), U1's rate on path 1
    (green in the paper's Fig. 6), U2's rate (red), U1's rate on path 2 (orange), 1 s bins."""
    figure, axes = common.figure_grid(2, len(FORWARDING), width=4.4, height=2.4)
    for col, fs in enumerate(FORWARDING):
        for row, cc in enumerate(sv.CONSUMERS):
            res, ax = results[sv.variant(cc, fs)], axes[row, col]
            u1 = common.rebin(common.consumer_rows(res, "u1"), 1.0, "goodput_bps") / 1e6
            u2 = common.rebin(common.consumer_rows(res, "u2"), 1.0, "goodput_bps") / 1e6
            path2 = common.rebin(common.link_rows(res, sv.PATH2), 1.0, "data", "sum") * sv.CHUNK * 8 / 1e6
            path1 = (u1 - path2.reindex(u1.index, fill_value=0.0)).clip(lower=0.0)
            common.step(ax, path1.index, path1, color="C2", label="U1 on path 1")
            common.step(ax, u2.index, u2, color="C3", label="U2")
            common.step(ax, path2.index, path2, color="C1", label="U1 on path 2")
            for t in (B_START_S, sv.end_s(res, "u1")):
                if math.isfinite(t):
                    ax.axvline(t, color="gray", linestyle=":", linewidth=0.8)
            ax.set_title(f"{cc} + {fs}", fontsize="small")
            ax.grid(True, alpha=0.3)
            ax.set_ylim(0, 60)
        axes[1, col].set_xlabel("time [s]")
    for row in range(2):
        axes[row, 0].set_ylabel("rate [Mbit/s]")
    axes[0, -1].legend(fontsize="x-small", loc="upper right")
    figure.text(0.01, 0.005, "dotted: U2 starts (10 s), U1 ends; the paper's Fig. 6 is ICP + PCON-FS",
                fontsize="x-small")
    return common.save_figure(figure, Path(out_dir) / "figure6.png")
