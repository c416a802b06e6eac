"""Thibaud et al. §IV, Sce3 (Table VI): nine flows on the larger topology of Fig. 2.

Fig. 2 is lost; our reconstruction (docs/experiments/survey-sce3.md): nine consumers C1..C9 behind
R1 on 100 Mbit/s access links ("each flow can have 100Mbps"), R1 - R2 and R1 - R3 of 600 Mbit/s
(Sce3a) or 300 Mbit/s (Sce3b), three producers shared three by three: A behind both R2 and R3
(C1-C3, the flows with two paths), B behind R2 (C4-C6), C behind R3 (C7-C9). In Sce3b the nine
flows share the 600 Mbit/s that R2 -> R1 and R3 -> R1 carry. PCON-FS and DRF, each with ICP and
PCON-CS: eight runs. Each consumer fetches its own 400 MB. `layout = "fig1x3"` builds the
alternative we tried and rejected (Fig. 1 tripled; docs page, "What did not fit").
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

ID = "survey-sce3"
TITLE = "Nine flows on a larger topology, unconstrained and constrained cores (Table VI)"
PAPER = sv.PAPER
SECTION = "§IV-A, Sce3"
DURATION = "300s"  # an upper bound: the run stops when every consumer has its 400 MB
SEED = sv.SEED

CASES = {"Sce3a": "600Mbps", "Sce3b": "300Mbps"}
FORWARDING = ("PCON-FS", "DRF")
CONSUMERS = tuple(f"c{i}" for i in range(1, 10))
GROUPS = {"A": CONSUMERS[:3], "B": CONSUMERS[3:6], "C": CONSUMERS[6:]}
ACCESS_BW = "100Mbps"
PRODUCER_BW = "1Gbps"  # our choice: never a bottleneck (three flows of at most 100 Mbit/s each)
#: Table VI: mean rate (Mbit/s) over the nine flows, and the ± the paper gives with it.
TABLE6 = {
    ("Sce3a", "ICP", "PCON-FS"): (88.383, 1.13573), ("Sce3a", "ICP", "DRF"): (88.965, 1.1493),
    ("Sce3a", "PCON-CS", "PCON-FS"): (76.659, 0.66441), ("Sce3a", "PCON-CS", "DRF"): (76.76, 0.55762),
    ("Sce3b", "ICP", "PCON-FS"): (65.331, 6.83087), ("Sce3b", "ICP", "DRF"): (66.248, 8.0037),
    ("Sce3b", "PCON-CS", "PCON-FS"): (59.151, 19.54676), ("Sce3b", "PCON-CS", "DRF"): (61.622, 2.55499),
}
RATE_TOL = 0.10


def variant(case: str, cc: str, fs: str) -> str:
    return f"{case}_{cc}_{fs}"


VARIANTS = tuple(variant(case, cc, fs) for case in CASES for fs in FORWARDING for cc in sv.CONSUMERS)


#: Where each group's consumers sit and where its producers are, per layout. "r1" (the one the
#: experiment runs): every consumer behind R1, A's producers behind R2 and R3, B's behind R2, C's
#: behind R3. "fig1x3" (tried, not used; docs page "What did not fit"): Fig. 1 with each endpoint
#: tripled and a mirrored third group, A's consumers behind R1, B's behind R2 fetching from R3 (as
#: Sce2's U2), C's behind R3 fetching from R2.
LAYOUTS = {
    "r1": {"homes": {"A": "r1", "B": "r1", "C": "r1"},
           "producers": {"pa2": ("r2", "/A"), "pa3": ("r3", "/A"), "pb": ("r2", "/B"), "pc": ("r3", "/C")}},
    "fig1x3": {"homes": {"A": "r1", "B": "r2", "C": "r3"},
               "producers": {"pa2": ("r2", "/A"), "pa3": ("r3", "/A"), "pb": ("r3", "/B"), "pc": ("r2", "/C")}},
}
#: Hops towards each prefix (static routes; R3 before R2 for /A: R1's first next hop, as Sce1).
ROUTES = {
    "r1": {"r1": {"/A": ("r3", "r2"), "/B": ("r2",), "/C": ("r3",)}},
    "fig1x3": {"r1": {"/A": ("r3", "r2"), "/B": ("r3",), "/C": ("r2",)}, "r2": {"/B": ("r1",)}, "r3": {"/C": ("r1",)}},
}
LAYOUT = "r1"


def scenario(case: str, cc: str, fs: str, duration: Any = DURATION, seed: int = SEED,
             segments: int = sv.SEGMENTS, layout: str = LAYOUT) -> Scenario:
    sc = Scenario(duration=duration, seed=seed, bin=sv.BIN, routing="none")
    homes, producers = LAYOUTS[layout]["homes"], LAYOUTS[layout]["producers"]
    for n in CONSUMERS + ("r1", "r2", "r3") + tuple(producers):
        sc.node(n, strategy=sv.STRATEGIES[fs])
    for group, members in GROUPS.items():
        for c in members:
            sc.link(c, homes[group], bandwidth=ACCESS_BW, delay=sv.DELAY, queue=sv.QUEUE, mtu=sv.MTU)
    sc.link("r1", "r3", bandwidth=CASES[case], delay=sv.DELAY, queue=sv.QUEUE, mtu=sv.MTU)  # R3 first for A, as Sce1
    sc.link("r1", "r2", bandwidth=CASES[case], delay=sv.DELAY, queue=sv.QUEUE, mtu=sv.MTU)
    for p, (router, prefix) in producers.items():
        sc.link(router, p, bandwidth=PRODUCER_BW, delay=sv.DELAY, queue=sv.QUEUE, mtu=sv.MTU)
        sc.route(router, prefix, p)
        sc.producer(p, prefix, payload=sv.CHUNK)
    for router, table in ROUTES[layout].items():
        for prefix, hops in table.items():
            for hop in hops:
                sc.route(router, prefix, hop)
    for group, members in GROUPS.items():
        for c in members:
            sc.route(c, f"/{group}", homes[group])
            sc.consumer(c, f"/{group}/{c}", cc=sv.CONSUMERS[cc], segments=segments)
    return sc


def scenarios(duration: Any = DURATION, seed: int = SEED) -> Dict[str, Scenario]:
    return {variant(case, cc, fs): scenario(case, cc, fs, duration, seed)
            for case in CASES for fs in FORWARDING for cc in sv.CONSUMERS}


# ------------------------------------------------------------------------------ derived values


def rates(res: Any, consumers=CONSUMERS) -> np.ndarray:
    """Each consumer's mean rate over its download (Mbit/s)."""
    return np.array([sv.mbps(res, c) for c in consumers])


#: The link directions that carry Data from R2 and R3 towards R1: the two cores (the "r1" layout).
CORES = ("r2->r1", "r3->r1")


def core_payload_mbps(res: Any) -> float:
    """Payload rate (Data x 8400 B) the two cores carried towards R1 while all nine flows ran, i.e.
    from 0 to the first consumer's end (Mbit/s). At MTU 1500 an 8400-byte Data is 8600 bytes on
    the wire, so two 300 Mbit/s cores carry at most 600 x 8400 / 8600 = 586 Mbit/s of it."""
    first_end = min(sv.end_s(res, c) for c in CONSUMERS)
    return sum(sv.data_mbps(res, link, 0.0, first_end) for link in CORES)


def spread(res: Any) -> float:
    """Sample standard deviation of the nine rates."""
    values = rates(res)
    return float(values.std(ddof=1)) if len(values) > 1 else math.nan


# ----------------------------------------------------------------------------------- metrics


def metrics(results: Mapping[str, Any]) -> List[Row]:
    rows: List[Row] = []
    for (case, cc, fs), (mean, _) in TABLE6.items():
        measured = float(rates(results[variant(case, cc, fs)]).mean())
        rows.append(sv.relative(f"{case}, {cc} + {fs}: mean rate", mean, measured, RATE_TOL))
    for fs in FORWARDING:
        pair = [float(rates(results[variant("Sce3a", cc, fs)]).mean()) for cc in sv.CONSUMERS]
        rows.append(common.check(f"Sce3a, {fs}: ICP / PCON-CS mean rate", "ICP ahead ('PCON-CS has lower rates')",
                                 pair, "first > second", lambda x: x[0] > x[1], "Mbit/s"))
    key = ("Sce3b", "PCON-CS", "PCON-FS")
    res = results[variant(*key)]
    spreads = [spread(results[variant("Sce3b", cc, fs)]) for fs in FORWARDING for cc in sv.CONSUMERS]
    rows.append(common.check("Sce3b: rate spread, ICP+PCON-FS / PCON-CS+PCON-FS / ICP+DRF / PCON-CS+DRF",
                             "6.8 / 19.5 / 8.0 / 2.6: PCON-CS + PCON-FS the largest", spreads,
                             "PCON-CS + PCON-FS's the largest", lambda x: x[1] == max(x), "Mbit/s"))
    a = float(rates(res, GROUPS["A"]).mean())
    others = float(rates(res, GROUPS["B"] + GROUPS["C"]).mean())
    rows.append(common.check("Sce3b, PCON-CS + PCON-FS: flows of A / the others", "A lower ('the A flows get "
                             "lowers rates')", [a, others], "A below 0.8 x the others",
                             lambda x: x[0] < 0.8 * x[1], "Mbit/s"))
    return rows


# ----------------------------------------------------------------------------------- figures


def figures(results: Mapping[str, Any], out_dir: Any) -> List[Path]:
    """table6.png: per case, the mean rate of each combination with the spread over the nine flows
    (ours, and the paper's Table VI beside it), and each flow's rate (dots, A / B / C coloured)."""
    figure, axes = common.figure_grid(1, len(CASES), width=5.0, height=3.0)
    combos = [(cc, fs) for fs in FORWARDING for cc in sv.CONSUMERS]
    x = np.arange(len(combos))
    for ax, case in zip(axes[0], CASES):
        ours = [rates(results[variant(case, cc, fs)]) for cc, fs in combos]
        paper = [TABLE6[(case, cc, fs)] for cc, fs in combos]
        ax.bar(x - 0.2, [p[0] for p in paper], 0.4, yerr=[p[1] for p in paper], color="lightgray", label="paper")
        ax.bar(x + 0.2, [o.mean() for o in ours], 0.4, yerr=[o.std(ddof=1) for o in ours], color="C0", label="ndnflow")
        for k, o in enumerate(ours):
            for g, (group, members) in enumerate(GROUPS.items()):
                idx = [CONSUMERS.index(c) for c in members]
                ax.plot([x[k] + 0.2] * len(idx), o[idx], ".", color=f"C{g + 1}", markersize=4,
                        label=f"flows of {group}" if k == 0 else None)
        ax.set_xticks(x)
        ax.set_xticklabels([f"{cc}\n{fs}" for cc, fs in combos], fontsize="x-small")
        ax.set_title(f"{case} (R1-R2, R1-R3 {CASES[case]})", fontsize="small")
        ax.set_ylabel("mean rate [Mbit/s]")
        ax.set_ylim(0, 110)
        ax.grid(True, axis="y", alpha=0.3)
    axes[0, -1].legend(fontsize="x-small", loc="upper right", ncol=2)
    return common.save_figure(figure, Path(out_dir) / "table6.png")
