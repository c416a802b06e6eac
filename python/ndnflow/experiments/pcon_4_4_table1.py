"""PCON §4.4, second part: "Multipath Forwarding: ICP vs. PCON" (the paper's Table 1 and Figure 11).

Five consumers C1..C5 (100 Mbit/s access links of 40, 30, 20, 10 and 1 ms, starting at 0..4 s,
each fetching its own file under /prefix/A) share R1 - R2 and four producers: R1 reaches P4
directly (20 Mbit/s) and P1, P2, P3 (20, 10, 10 Mbit/s) through R2; 60 Mbit/s in all. Variants:

* ICP: the delay-based RAAQM consumer (pMin 0.00001, dropFactor 0.005, beta 0.9) with CF
  forwarding at the routers (weights 1 / average pending Interests);
* PCON: the PCON consumer, the pcon strategy and PCON marking queues.

Per consumer: mean RTT and goodput while all five run (5 s to the end), against Table 1.
Parameters and their sources: docs/experiments/pcon-4.4-table1.md.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Dict, List, Mapping

from ndnflow.experiments import common
from ndnflow.experiments.common import Row
from ndnflow.scenario import Scenario

ID = "pcon-4.4-table1"
TITLE = "Multipath forwarding: ICP (RAAQM + CF) vs. PCON, RTT and rate per consumer (Table 1)"
PAPER = "PCON (Schneider et al., ICN 2016)"
SECTION = "§4.4"
DURATION = "30s"  # the authors' script (pcon_scen4.2.cpp): RUNTIME 30
SEED = 1
#: Rows that are information, not checks (docs/experiments/README.md; the page says why).
INFO_ROWS = ("PCON / ICP total rate", "ICP RTT < PCON RTT, consumers")
#: Checks whose verdict changes over seeds 1-4, or whose value moves more than its tolerance band (--seeds 1-4):
#: judged on their median, the page has the values.
SEED_SENSITIVE = ("ICP: C1 rate", "ICP: C2 rate", "ICP: C3 rate", "ICP: C5 rate", "PCON: C1 rate", "PCON: C2 rate",
                  "PCON: C3 rate", "PCON: All RTT")
BIN = "100ms"

CONSUMERS = ("c1", "c2", "c3", "c4", "c5")
ACCESS_DELAY = dict(zip(CONSUMERS, ("40ms", "30ms", "20ms", "10ms", "1ms")))
#: The authors' topology file topo-pcon_scen4.2.txt: (a, b, bandwidth, delay), access links aside.
CORE = (("r1", "r2", "50Mbps", "20ms"), ("r2", "p1", "20Mbps", "15ms"), ("r2", "p2", "10Mbps", "5ms"),
        ("r2", "p3", "10Mbps", "5ms"), ("r1", "p4", "20Mbps", "10ms"))
#: The authors' static FIB (equal costs): R1 -> R2, P4; R2 -> P1, P2, P3; consumers -> R1.
NEXTHOPS = {"r1": ("r2", "p4"), "r2": ("p1", "p2", "p3")}
BOTTLENECKS = ("p1->r2", "p2->r2", "p3->r2", "p4->r1")
CAPACITY_MBPS = 60.0
START_S = 5.0  # measured from here: all five consumers run (C5 starts at 4 s)
RTO_S = 1.0  # fixed for both consumers, above every RTT of the run (< 200 ms)

VARIANTS = ("ICP", "PCON")
SETUP = {  # variant: (consumer cc, strategy, queue)
    "ICP": ({"algorithm": "raaqm", "p_min": 0.00001, "p_max": 0.00001 + 0.005, "beta": 0.9}, "cf",
            {"discipline": "droptail", "packets": 1000}),
    "PCON": (common.PCON_CONSUMER, {"name": "pcon", "shift_back": 0.0}, common.PCON_MARKING_QUEUE),
}
#: Table 1: RTT [ms] and rate [Mbit/s] per consumer, and "All".
TABLE1 = {
    "ICP": {"rtt": (128.31, 107.83, 88.28, 68.01, 48.21, 78.08), "rate": (4.48, 5.16, 6.34, 7.86, 12.20, 7.21)},
    "PCON": {"rtt": (132.08, 112.37, 92.26, 72.19, 52.46, 79.23), "rate": (5.53, 6.77, 9.32, 12.69, 20.52, 10.96)},
}
RATIOS = {"ICP": (2.66, 2.72), "PCON": (2.52, 3.71)}  # (RTT C1/C5, throughput C5/C1), §4.4 text
REL_TOL = 0.10  # per value; a ratio of two such values: 0.20


def scenario(variant: str, duration: Any = DURATION, seed: int = SEED) -> Scenario:
    cc, strategy, queue = SETUP[variant]
    sc = Scenario(duration=duration, seed=seed, bin=BIN, routing="none")
    for node in CONSUMERS + ("r1", "r2", "p1", "p2", "p3", "p4"):
        # RAAQM's probabilities are per route (Carofiglio et al.'s route labels): every node labels.
        sc.node(node, strategy=strategy, route_labels=True if variant == "ICP" else None)
    for c in CONSUMERS:
        sc.link(c, "r1", bandwidth="100Mbps", delay=ACCESS_DELAY[c], queue=queue)
    for a, b, bandwidth, delay in CORE:
        sc.link(a, b, bandwidth=bandwidth, delay=delay, queue=queue)
    for c in CONSUMERS:
        sc.route(c, "/prefix/A", "r1")
    for node, hops in NEXTHOPS.items():
        for hop in hops:
            sc.route(node, "/prefix/A", hop)
    for p in ("p1", "p2", "p3", "p4"):
        sc.producer(p, "/prefix/A", payload=1024)
    for i, c in enumerate(CONSUMERS):
        sc.consumer(c, f"/prefix/A/{i}", cc=cc, start=float(i), rto=common.fixed_rto(RTO_S))
    return sc


def scenarios(duration: Any = DURATION, seed: int = SEED) -> Dict[str, Scenario]:
    return {v: scenario(v, duration, seed) for v in VARIANTS}


# ------------------------------------------------------------------------------ derived values


def consumer_rtt_ms(res: Any, consumers=CONSUMERS) -> float:
    """Mean RTT per Data of `consumers` from START_S on (bin means weighted by Data)."""
    rows = res.consumers
    rows = rows[rows["consumer"].isin(list(consumers)) & (rows["time_s"] >= START_S) & rows["rtt_ms"].notna()]
    n = rows["data"].sum()
    return float((rows["rtt_ms"] * rows["data"]).sum() / n) if n else float("nan")


def consumer_rate_mbps(res: Any, consumer: str) -> float:
    return common.mean_goodput_bps(res, consumer, START_S) / 1e6


def sojourn_ms(res: Any, link: str) -> float:
    """Queuing delay of a link direction from START_S on: bin means weighted by packets."""
    rows = common.link_rows(res, link, START_S)
    rows = rows[rows["sojourn_ms"].notna()]
    n = rows["packets"].sum()
    return float((rows["sojourn_ms"] * rows["packets"]).sum() / n) if n else 0.0


def first_mark_s(res: Any) -> float:
    marked = res.consumers[res.consumers["marks"] > 0]
    return float(marked["time_s"].min()) if len(marked) else float("nan")


def p4_in_use_s(res: Any) -> float:
    """When R1's second next hop (P4) first carries 1 Mbit/s: the forwarding has left P1 alone."""
    rows = common.link_rows(res, "p4->r1")
    rows = rows[rows["throughput_bps"] >= 1e6]
    return float(rows["time_s"].min()) if len(rows) else float("nan")


def _relative(metric: str, paper: float, measured: float, tol: float, unit: str) -> Row:
    return common.check(metric, f"{common.fmt(paper)} {unit}", measured, f"±{100 * tol:.0f} % relative",
                        lambda v: abs(v - paper) <= tol * paper, unit)


# ----------------------------------------------------------------------------------- metrics


def metrics(results: Mapping[str, Any]) -> List[Row]:
    rows: List[Row] = []
    total = {}
    for v in VARIANTS:
        res, paper = results[v], TABLE1[v]
        rtts = [consumer_rtt_ms(res, (c,)) for c in CONSUMERS] + [consumer_rtt_ms(res)]
        rates = [consumer_rate_mbps(res, c) for c in CONSUMERS]
        rates.append(sum(rates) / len(rates))
        total[v] = sum(rates[:-1])
        for name, rtt, rate, p_rtt, p_rate in zip(CONSUMERS + ("All",), rtts, rates, paper["rtt"], paper["rate"]):
            label = name.upper() if name != "All" else name
            rows.append(_relative(f"{v}: {label} RTT", p_rtt, rtt, REL_TOL, "ms"))
            rows.append(_relative(f"{v}: {label} rate", p_rate, rate, REL_TOL, "Mbit/s"))
        rows.append(_relative(f"{v}: RTT ratio C1/C5", RATIOS[v][0], rtts[0] / rtts[4], 2 * REL_TOL, ""))
        rows.append(_relative(f"{v}: throughput ratio C5/C1", RATIOS[v][1], rates[4] / rates[0], 2 * REL_TOL, ""))
    rows.append(common.at_least(
        "PCON / ICP total rate", "1.52 (much closer to 60 Mbit/s)", total["PCON"] / total["ICP"], common.MUCH,
        f"'much' higher, the catalog's reading: PCON {total['PCON']:.1f} vs ICP {total['ICP']:.1f} "
        f"of {CAPACITY_MBPS:g} Mbit/s"))
    icp = [sojourn_ms(results["ICP"], link) for link in BOTTLENECKS]
    rows.append(common.check("ICP: queuing delay P1 / P2 / P3 / P4", "noticeable only at P4", icp,
                             "P4 > 5 ms (CoDel target), others < 2.5 ms",
                             lambda v: v[3] > 5.0 and max(v[:3]) < 2.5, "ms"))
    pcon = [sojourn_ms(results["PCON"], link) for link in BOTTLENECKS]
    rows.append(common.check("PCON: queuing delay P1 / P2 / P3 / P4", "evenly distributed", pcon,
                             "all within a factor 2 of each other, and > 1 ms",
                             lambda v: min(v) > 1.0 and max(v) <= 2 * min(v), "ms"))
    inner = [sojourn_ms(results[v], link) for v in VARIANTS for link in ("r2->r1", "r1->c5")]
    rows.append(common.check("R2->R1, R1->C5 queuing delay (ICP, PCON)", "none at R1 and R2", inner, "all < 1 ms",
                             lambda v: max(v) < 1.0, "ms"))
    shorter = [consumer_rtt_ms(results["ICP"], (c,)) < consumer_rtt_ms(results["PCON"], (c,)) for c in CONSUMERS]
    rows.append(common.check("ICP RTT < PCON RTT, consumers", "shorter for ICP (Table 1: all five)",
                             sum(shorter), "= 5", lambda v: v == 5))
    rows.append(common.within("PCON: first congestion mark at a consumer", 2.5, first_mark_s(results["PCON"]), 1.0,
                              "'about 2.5 seconds'", "s"))
    rows.append(common.check("P4 carries >= 1 Mbit/s from, ICP / PCON", "ICP adjusts faster",
                             [p4_in_use_s(results["ICP"]), p4_in_use_s(results["PCON"])], "ICP's earlier",
                             lambda v: v[0] < v[1], "s"))
    return rows


# ----------------------------------------------------------------------------------- figures


def figures(results: Mapping[str, Any], out_dir: Any) -> List[Path]:
    """figure11.png: per variant (columns) the Data rate on each bottleneck (the split), each
    consumer's goodput, and the bottlenecks' queuing delay over time (rows)."""
    figure, axes = common.figure_grid(3, len(VARIANTS), width=5.0, height=2.4)
    for col, v in enumerate(VARIANTS):
        res = results[v]
        for k, link in enumerate(BOTTLENECKS):
            rows = common.link_rows(res, link)
            rate = common.rebin(rows, 0.5, "throughput_bps")
            common.step(axes[0, col], rate.index, rate / 1e6, color=f"C{k}", label=link.split("->")[0].upper())
            sojourn = common.rebin(rows.fillna({"sojourn_ms": 0.0}), 0.5, "sojourn_ms")
            common.step(axes[2, col], sojourn.index, sojourn, color=f"C{k}", label=link.split("->")[0].upper())
        for k, c in enumerate(CONSUMERS):
            rate = common.rebin(common.consumer_rows(res, c), 0.5, "goodput_bps")
            common.step(axes[1, col], rate.index, rate / 1e6, color=f"C{k + 4}", label=c.upper())
        axes[0, col].set_title(v)
        for ax in axes[:, col]:
            ax.axvline(START_S, color="gray", linestyle=":", linewidth=0.8)
            ax.grid(True, alpha=0.3)
            ax.set_ylim(bottom=0)
        axes[2, col].set_xlabel("time [s]")
    axes[0, 0].set_ylabel("bottleneck rate [Mbit/s]")
    axes[1, 0].set_ylabel("consumer goodput [Mbit/s]")
    axes[2, 0].set_ylabel("queuing delay [ms]")
    for row in range(3):
        top = max(ax.get_ylim()[1] for ax in axes[row])
        for ax in axes[row]:
            ax.set_ylim(0, top)
        axes[row, -1].legend(fontsize="x-small", loc="upper right", ncol=2)
    figure.text(0.01, 0.005, "0.5 s bins; dotted: 5 s, all consumers running (Table 1 is measured from here)",
                fontsize="x-small")
    return common.save_figure(figure, Path(out_dir) / "figure11.png")
