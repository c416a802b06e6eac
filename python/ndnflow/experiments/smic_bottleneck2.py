"""SMIC §5.1, bottleneck topology 2 (Fig. 4b, Fig. 6): a SMIC flow of two sub-flows and a
single-path flow share one bottleneck.

"A SMIC consumer requests content objects through two paths, while a single-path flow requests
through another path. Then, the requests from the SMIC consumer and single-path consumer go
through the same bottleneck link." Fig. 4(b) is lost; the authors' scenario
(`ndn-diamond-smic.cc` on `topo-diamond.txt`) gives it: the SMIC consumer's node has two links, to
a and to b, which both join r; the single-path consumer reaches r through its own access router
c; r - p is the bottleneck; every link 10 Mbit/s, 10 ms, 50 packets; 1000 s; the single-path
flow's slow-start threshold 2 (`Ssth "2"`). The paper's hash at the SMIC node sends path ids 2,
4, 5, 6, 8, 9, 10 one way and 0, 1, 3, 7 the other (docs/protocols/smic.md), so both paths carry
sub-flows.

Text: "both the SMIC and single-path flows show similar completion times" (average bars and
maximum lines of Fig. 6a); "At the start of the content retrieval, the SMIC flow increases its
congestion window more aggressively than a single-path flow. However, the subflows sharing the
bottleneck are detected after timeouts, and the window size is adjusted." Checks: average and
maximum retrieval times similar (1.25 x); SMIC's window above the single-path flow's at SMIC's
first timeout; the goodputs after the first 30 s similar (the adjustment). Information: both of
SMIC's paths carry Data (the precondition of the rest).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Dict, List, Mapping

from ndnflow import units
from ndnflow.experiments import common
from ndnflow.experiments import smic_common as sc
from ndnflow.experiments.common import Row
from ndnflow.scenario import Scenario

ID = "smic-bottleneck2"
TITLE = "A two-sub-flow SMIC flow and a single-path flow at one bottleneck (Fig. 4b, 6): friendliness"
PAPER = sc.PAPER
SECTION = "§5.1, bottleneck topology 2"
DURATION = "1000s"
SEED = sc.SEED
VARIANT = "SMIC + single"
LINKS = [("smic", "a", "10Mbps"), ("smic", "b", "10Mbps"), ("single", "c", "10Mbps"), ("a", "r", "10Mbps"),
         ("b", "r", "10Mbps"), ("c", "r", "10Mbps"), ("r", "p", "10Mbps")]
TOPOLOGY = sc.Topology(LINKS, ["p"], [("smic", "SMIC"), ("single", "single")])
CC = {"single": {**sc.SINGLE, "initial_ssthresh": 2}}
BIN = "100ms"  # as smic-bottleneck1: shorter than the RTT at a full queue
#: After the start: the goodputs from here on show the windows "adjusted" after the detection.
SETTLED_S = 30.0
INFO_ROWS = ("SMIC's Data over a -> smic and b -> smic",)


def scenarios(duration: Any = DURATION, seed: int = SEED) -> Dict[str, Scenario]:
    return {VARIANT: TOPOLOGY.scenario(duration, seed, bin=BIN, cc=CC)}


def window_at_first_timeout(res: Any, consumer: str, of: str) -> float:
    """`consumer`'s window at the end of the bin before `of`'s first timeout (NaN without one)."""
    first = sc.windows(res, of)
    hits = first.index[first["timeouts"] > 0]
    if not len(hits) or hits[0] == 0:
        return float("nan")
    rows = sc.windows(res, consumer)
    return float(rows["window"].iloc[hits[0] - 1])


def metrics(results: Mapping[str, Any]) -> List[Row]:
    res = results[VARIANT]
    pair = ("smic", "single")
    rows = [sc.alike_row("average retrieval time (SMIC, single)", "similar", [sc.mean_time(res, c) for c in pair]),
            sc.alike_row("maximum retrieval time (SMIC, single)", "similar", [sc.max_time(res, c) for c in pair])]
    windows = [window_at_first_timeout(res, c, "smic") for c in pair]
    rows.append(common.check("window before SMIC's first timeout (SMIC, single)", "SMIC more aggressive",
                             windows, "SMIC's above: 'more aggressively'", lambda v: v[0] > v[1], "packets"))
    goodputs = [common.mean_goodput_bps(res, c, SETTLED_S) / 1e6 for c in pair]
    rows.append(sc.alike_row(f"goodput from {SETTLED_S:g} s (SMIC, single)", "windows adjusted", goodputs, "Mbit/s"))
    volumes = sc.data_volumes(res)
    rows.append(common.all_positive("SMIC's Data over a -> smic and b -> smic", "two sub-flows",
                                    [volumes.get("a->smic", 0), volumes.get("b->smic", 0)],
                                    "both paths used (precondition)"))
    return rows


def figures(results: Mapping[str, Any], out_dir: Any) -> List[Path]:
    """figure6.png: (a) average (bars) and maximum (points) retrieval times; (b) the windows over
    the first 60 s, shaded where SMIC's two sub-flows are grouped (Algorithm 1's S_r)."""
    res = results[VARIANT]
    pair = ("smic", "single")
    figure, axes = common.figure_grid(1, 2, width=5.0, height=3.0)
    bars, lines = axes[0, 0], axes[0, 1]
    bars.bar([0, 1], [sc.mean_time(res, c) for c in pair], color=["C0", "C3"], label="average")
    bars.plot([0, 1], [sc.max_time(res, c) for c in pair], "k_", markersize=20, label="maximum")
    bars.set_xticks([0, 1])
    bars.set_xticklabels(pair)
    bars.set_ylabel("retrieval time [s]")
    bars.legend(fontsize="x-small")
    for k, consumer in enumerate(pair):
        rows = sc.windows(res, consumer)
        rows = rows[rows["time_s"] < 60.0]
        common.step(lines, rows["time_s"], rows["window"], color=["C0", "C3"][k], label=consumer)
    bin_s = units.parse_duration(BIN)
    for k, (start, end) in enumerate(sc.grouped_spans(res.paths, "smic", bin_s)):
        if start < 60.0:
            lines.axvspan(start, min(end, 60.0), color="C0", alpha=0.12, linewidth=0,
                          label="SMIC's sub-flows grouped" if k == 0 else None)
    lines.set_xlabel("time [s]")
    lines.set_ylabel("window [packets]")
    lines.legend(fontsize="x-small")
    for ax in (bars, lines):
        ax.grid(True, alpha=0.3)
    return common.save_figure(figure, Path(out_dir) / "figure6.png")
