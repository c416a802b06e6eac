"""Thibaud et al. §IV, Sce1 (Table II, Figs. 3-5): one flow A over the two paths of Fig. 1.

U1 fetches 400 MB of 8400-byte chunks from PA1 (behind R3, path 1) or PA2 (behind R2, path 2),
each path 50 Mbit/s. Four forwarding strategies at every node (BR, FPF, PCON-FS, DRF), each with
the ICP and the PCON-CS consumer: eight runs. Table II is lost with the figures; the rows check
every number and claim the text makes about it.

Parameters and their sources: docs/experiments/survey-sce1.md.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any, Dict, List, Mapping

import numpy as np

from ndnflow.experiments import common
from ndnflow.experiments import survey_common as sv
from ndnflow.experiments.common import Row
from ndnflow.scenario import Scenario

ID = "survey-sce1"
TITLE = "One flow over two paths: BR, FPF, PCON-FS, DRF with ICP and PCON-CS (Table II, Figs. 3-5)"
PAPER = sv.PAPER
SECTION = "§IV-A, Sce1"
DURATION = "300s"  # an upper bound: the run stops when U1 has its 400 MB (35 to 80 s here)
SEED = sv.SEED
#: Rows that are information, not checks (docs/experiments/README.md; the page says why).
INFO_ROWS = ("ICP + FPF: end-to-end delay", "ICP + FPF: sojourn at R3", "PCON-CS + FPF: end-to-end delay",
             "PCON-CS + FPF: sojourn at R3")
#: Checks whose verdict changes over seeds 1-4, or whose value moves more than its tolerance band (--seeds 1-4):
#: judged on their median, the page has the values.
SEED_SENSITIVE = ("PCON-CS: drops with BR / FPF / PCON-FS",)

VARIANTS = tuple(sv.variant(cc, fs) for fs in sv.STRATEGIES for cc in sv.CONSUMERS)
#: §IV, BR and FPF: "The average end-to-end delay is about 72.9ms with the ICP consumer while it is
#: only about 64.3ms with the PCON-CS consumer ... a packet waits on average 2.1ms with the PCON-CS
#: consumer while it waits 10.3ms with the ICP consumer."
DELAY_MS = {"ICP": 72.9, "PCON-CS": 64.3}
SOJOURN_MS = {"ICP": 10.3, "PCON-CS": 2.1}
DELAY_TOL_MS = 2.0
SOJOURN_TOL_MS = 1.0
RATE_TOL = 0.10
ICP_PCON_FS_MBPS = 81.3  # "this combination reaches an average rate of 81.3Mbps out of the 100Mbps"
FIG3_WINDOW = 65.0  # "The size of the congestion window of our consumer (ICP in this case) is 65"
FIG3_CAPACITY = 74.0  # "R1 computes a capacity of 74 Interests"
FIG3_QUEUE = 21  # R1's own queue, in Data packets (180 000 B / 8400 B)
ACCESS_RTT_MS = 20.0  # U1 - R1 - U1 propagation


def scenarios(duration: Any = DURATION, seed: int = SEED) -> Dict[str, Scenario]:
    return {sv.variant(cc, fs): sv.fig1(strategy, sv.CONSUMERS[cc], duration=duration, seed=seed)
            for fs, strategy in sv.STRATEGIES.items() for cc in sv.CONSUMERS}


# ------------------------------------------------------------------------------ derived values


def delay_ms(res: Any) -> float:
    value = common.consumer_total(res, "u1", "rtt_avg_ms")
    return float(value) if value is not None else math.nan


def sojourn_ms(res: Any) -> float:
    """Mean sojourn per packet in the bottleneck queue of path 1 (R3 -> R1)."""
    return common.weighted_sojourn_ms(res, sv.PATH1)


def drops(res: Any) -> int:
    return common.all_drops(res)


def fig3(res: Any) -> Dict[str, float]:
    """At the first drop on path 1: U1's window, and the capacity R1's FPF computes by formula (1)
    from the RTT it sees (U1's RTT less the access RTT and U1 - R1's Data serialization)."""
    t = sv.first_drop_s(res, sv.PATH1)
    if t is None:
        return {"time_s": math.nan, "window": math.nan, "capacity": math.nan}
    data = common.link_total(res, sv.PATH1, "data")
    size = common.link_total(res, sv.PATH1, "bytes") / data if data else math.nan  # a Data on the wire, its fragments together
    rtt_r1_s = (sv.value_at(res, "u1", t, "rtt_ms") - ACCESS_RTT_MS - size * 8 / 100e6 * 1e3) / 1e3
    rate = sv.PATH_MBPS * 1e6 / (8 * size)
    return {"time_s": t, "window": sv.value_at(res, "u1", t, "window"),
            "capacity": rtt_r1_s * rate + FIG3_QUEUE}


def both_paths_before_first_drop(res: Any) -> float:
    """Data rate of both paths together over the second before the first drop anywhere."""
    times = [t for t in (sv.first_drop_s(res, sv.PATH1), sv.first_drop_s(res, sv.PATH2)) if t is not None]
    if not times:
        return math.nan
    t = min(times)
    return sv.data_mbps(res, sv.PATH1, t - 1.0, t) + sv.data_mbps(res, sv.PATH2, t - 1.0, t)


def path2_max_mbps(res: Any) -> float:
    return sv.max_rate_mbps(common.link_rows(res, sv.PATH2), "throughput_bps")


def u1_max_mbps(res: Any) -> float:
    return sv.max_rate_mbps(common.consumer_rows(res, "u1"), "goodput_bps")


# ----------------------------------------------------------------------------------- metrics


def metrics(results: Mapping[str, Any]) -> List[Row]:
    r = {v: results[v] for v in VARIANTS}
    v = sv.variant
    rows: List[Row] = []
    rows.append(sv.relative("ICP + PCON-FS: U1 rate", ICP_PCON_FS_MBPS, sv.mbps(r[v("ICP", "PCON-FS")], "u1"),
                            RATE_TOL))
    for fs in ("BR", "FPF"):
        for cc in sv.CONSUMERS:
            rows.append(common.within(f"{cc} + {fs}: end-to-end delay", DELAY_MS[cc], delay_ms(r[v(cc, fs)]),
                                      DELAY_TOL_MS, "a quarter of the 8.6 ms ICP - PCON-CS gap, all queueing", "ms"))
            rows.append(common.within(f"{cc} + {fs}: sojourn at R3", SOJOURN_MS[cc], sojourn_ms(r[v(cc, fs)]),
                                      SOJOURN_TOL_MS, "under one Data (1.38 ms for its 8600 B of frames at 50 Mbit/s) of mean queue", "ms"))
    rows.append(common.check(
        "BR, FPF: path 2 share, ICP / PCON-CS", "one path only ('BR always chooses the same interface. FPF does "
        "the same')", [sv.path2_share(r[v(cc, fs)]) for fs in ("BR", "FPF") for cc in sv.CONSUMERS],
        "all < 1 % (BR's retransmissions may take path 2)", lambda x: max(x) < 1.0, "%"))
    ratio = [sv.mbps(r[v(cc, "FPF")], "u1") / sv.mbps(r[v(cc, "BR")], "u1") for cc in sv.CONSUMERS]
    rows.append(common.check("FPF / BR rate, ICP / PCON-CS", "'similar performances'", ratio,
                             f"within a factor {common.ALIKE:g} ('similar': the catalog's reading)",
                             lambda x: all(1 / common.ALIKE <= y <= common.ALIKE for y in x)))
    faster = [sv.mbps(r[v("ICP", fs)], "u1") / sv.mbps(r[v("PCON-CS", fs)], "u1") for fs in ("BR", "FPF")]
    rows.append(common.check("ICP / PCON-CS rate, BR / FPF", "'ICP reaches a slightly better goodput'", faster,
                             "in (1, 1.2]", lambda x: all(1.0 < y <= 1.2 for y in x)))
    rows.append(common.all_zero("PCON-CS: drops with BR / FPF / PCON-FS", "none ('No loss occurs')",
                                [drops(r[v("PCON-CS", fs)]) for fs in ("BR", "FPF", "PCON-FS")],
                                "R3 marks before its queue is full"))
    rows.append(common.all_positive("ICP: drops with BR / FPF", "losses ('then drops packets')",
                                    [drops(r[v("ICP", fs)]) for fs in ("BR", "FPF")], "ICP only reacts to losses"))
    f3 = fig3(r[v("ICP", "FPF")])
    rows.append(sv.relative("ICP + FPF: U1 window at the first drop (Fig. 3)", FIG3_WINDOW, f3["window"], RATE_TOL,
                            "Interests", "as the rates"))
    rows.append(sv.relative("ICP + FPF: R1's capacity at the first drop (Fig. 3)", FIG3_CAPACITY, f3["capacity"],
                            RATE_TOL, "Interests", "as the rates; formula (1), R1's RTT from U1's"))
    icp_fs = r[v("ICP", "PCON-FS")]
    rows.append(common.at_least("ICP + PCON-FS: U1's best 1 s rate", "100 Mbit/s ('reaches the maximal rate')",
                                u1_max_mbps(icp_fs), 90.0, "90 % of the two paths", "Mbit/s"))
    rows.append(common.at_least("ICP + PCON-FS: both paths, 1 s before the first drop", "both full ('no loss "
                                "occurs until both paths are fully used')", both_paths_before_first_drop(icp_fs),
                                90.0, "90 % of 2 x 50 Mbit/s", "Mbit/s"))
    rows.append(common.check("PCON-FS: path 2's best 1 s rate, ICP / PCON-CS", "ICP: 50; PCON-CS: 'never approaches "
                             "the 50Mbps'", [path2_max_mbps(icp_fs), path2_max_mbps(r[v("PCON-CS", "PCON-FS")])],
                             "ICP >= 45, PCON-CS < 45 (90 % of 50)", lambda x: x[0] >= 45.0 and x[1] < 45.0, "Mbit/s"))
    rows.append(common.check("PCON-FS: ICP rate > PCON-CS rate", "the marks' double effect limits PCON-CS",
                             [sv.mbps(icp_fs, "u1"), sv.mbps(r[v("PCON-CS", "PCON-FS")], "u1")], "first > second",
                             lambda x: x[0] > x[1], "Mbit/s"))
    rows.append(common.check("ICP: PCON-FS rate > DRF rate", "'ICP has worse performances with DRF than PCON-FS'",
                             [sv.mbps(icp_fs, "u1"), sv.mbps(r[v("ICP", "DRF")], "u1")], "first > second",
                             lambda x: x[0] > x[1], "Mbit/s"))
    rows.append(common.check("PCON-CS: DRF rate > PCON-FS rate", "'the goodput is well improved with DRF'",
                             [sv.mbps(r[v("PCON-CS", "DRF")], "u1"), sv.mbps(r[v("PCON-CS", "PCON-FS")], "u1")],
                             "first > second", lambda x: x[0] > x[1], "Mbit/s"))
    rows.append(common.check("DRF: path 2 share, ICP / PCON-CS", "'both paths are used in an equivalent way'",
                             [sv.path2_share(r[v(cc, "DRF")]) for cc in sv.CONSUMERS], "50 ± 5 %",
                             lambda x: all(abs(y - 50) <= 5 for y in x), "%"))
    return rows


# ----------------------------------------------------------------------------------- figures


def figures(results: Mapping[str, Any], out_dir: Any) -> List[Path]:
    """figure4_5.png: the paper's Figs. 4 and 5 (PCON-FS with ICP, with PCON-CS): U1's window, and
    U1's rate with each path's Data rate; table2.png: rate, delay and sojourn of all eight runs."""
    out = []
    figure, axes = common.figure_grid(2, 2, width=5.0, height=2.4)
    for col, cc in enumerate(sv.CONSUMERS):
        res = results[sv.variant(cc, "PCON-FS")]
        u1 = common.consumer_rows(res, "u1")
        window = common.rebin(u1, 0.1, "window", "max")
        common.step(axes[0, col], window.index, window, color="C3", label="cwnd")
        rate = common.rebin(u1, 0.5, "goodput_bps") / 1e6
        common.step(axes[1, col], rate.index, rate, color="C0", label="U1 rate")
        for k, (link, name) in enumerate(((sv.PATH1, "path 1 (R3)"), (sv.PATH2, "path 2 (R2)"))):
            path = common.rebin(common.link_rows(res, link), 0.5, "throughput_bps") / 1e6
            common.step(axes[1, col], path.index, path, color=("C1", "C2")[k], label=name)
        axes[0, col].set_title(f"{cc} + PCON-FS (Fig. {4 + col})")
        axes[1, col].set_xlabel("time [s]")
        for ax in axes[:, col]:
            ax.grid(True, alpha=0.3)
            ax.set_ylim(bottom=0)
    axes[0, 0].set_ylabel("window [Interests]")
    axes[1, 0].set_ylabel("rate [Mbit/s]")
    axes[0, 1].legend(fontsize="x-small", loc="upper right")
    axes[1, 1].legend(fontsize="x-small", loc="upper right")
    out.extend(common.save_figure(figure, Path(out_dir) / "figure4_5.png"))

    figure, axes = common.figure_grid(1, 3, width=4.0, height=2.6)
    names = list(sv.STRATEGIES)
    x = np.arange(len(names))
    panels = (("U1 rate [Mbit/s]", lambda res: sv.mbps(res, "u1")), ("delay [ms]", delay_ms),
              ("sojourn at R3 [ms]", sojourn_ms))
    for ax, (label, value) in zip(axes[0], panels):
        for k, cc in enumerate(sv.CONSUMERS):
            ax.bar(x + (k - 0.5) * 0.38, [value(results[sv.variant(cc, fs)]) for fs in names], width=0.38,
                   color=f"C{k}", label=cc)
        ax.set_xticks(x)
        ax.set_xticklabels(names, fontsize="small")
        ax.set_ylabel(label)
        ax.grid(True, axis="y", alpha=0.3)
    axes[0, 0].axhline(ICP_PCON_FS_MBPS, color="gray", linestyle=":", linewidth=0.8)
    for cc, k in (("ICP", 0), ("PCON-CS", 1)):
        axes[0, 1].axhline(DELAY_MS[cc], color=f"C{k}", linestyle=":", linewidth=0.8)
        axes[0, 2].axhline(SOJOURN_MS[cc], color=f"C{k}", linestyle=":", linewidth=0.8)
    axes[0, 0].legend(fontsize="x-small")
    figure.text(0.01, 0.005, "dotted: the values the text states (81.3 Mbit/s; BR/FPF delays and sojourns)",
                fontsize="x-small")
    out.extend(common.save_figure(figure, Path(out_dir) / "table2.png"))
    return out
