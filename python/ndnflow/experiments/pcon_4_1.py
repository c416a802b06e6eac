"""PCON §4.1, "Consumer Rate Adjustment and Router Queue Management" (the paper's Figure 3).

One consumer fetches one object over C - R - P (no caching). Three cases:

* FIFO: drop-tail queues of 100 packets; TCP BIC with conservative window adaptation (CWA);
* CODEL_Drop: CoDel dropping queues; BIC without CWA;
* PCON: CoDel detection with marks instead of drops (`PCON_QUEUE`); the PCON consumer (BIC, one
  decrease per mark, CWA for timeouts).

All use BIC's maximum increment of 16 Interests per RTT and the retransmission timer of the authors'
ndnSIM scripts (ndnSIM's periodic check, minimum RTO 10 ms for FIFO and CoDel, 1100 ms for PCON). The same
three run again with 1000-packet queues, for the text's "Raising the queue size to 1000 packets
would have no impact on CoDel/PCON, but heavily increase the queuing delay for FIFO queues".
Parameters and their sources: docs/experiments/pcon-4.1.md.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Dict, List, Mapping

import numpy as np

from ndnflow.experiments import common
from ndnflow.experiments.common import Row
from ndnflow.scenario import Scenario

ID = "pcon-4.1"
TITLE = "Consumer rate adjustment and router queue management"
PAPER = "PCON (Schneider et al., ICN 2016)"
SECTION = "§4.1"
DURATION = "20s"
SEED = 1
BIN = "10ms"

#: Queue limit of the paper ("before the queue reaches its limit (here 100 packets)").
LIMIT = 100
#: The queue of the PCON variant: `common.PCON_QUEUE`, shared with pcon-4.2.
PCON_QUEUE = common.PCON_QUEUE
CODEL_QUEUE: Dict[str, Any] = {"discipline": "codel", "mode": "drop"}
FIFO_QUEUE: Dict[str, Any] = {"discipline": "droptail"}

ACCESS = {"bandwidth": "50Mbps", "delay": "10ms"}  # C - R
BOTTLENECK = {"bandwidth": "10Mbps", "delay": "10ms"}  # R - P
BOTTLENECK_BPS = 10e6
#: The bottleneck queue: Data leave P towards R.
QUEUE_LINK = "p->r"
CONSUMER = "c"
PAYLOAD = 1024
MAX_INCREMENT = 16

VARIANTS = ("FIFO", "CODEL_Drop", "PCON")
CC = {
    "FIFO": {"algorithm": "bic", "cwa": True, "max_increment": MAX_INCREMENT},
    "CODEL_Drop": {"algorithm": "bic", "cwa": False, "max_increment": MAX_INCREMENT},
    "PCON": {"algorithm": "pcon", "max_increment": MAX_INCREMENT},
}
QUEUES = {"FIFO": FIFO_QUEUE, "CODEL_Drop": CODEL_QUEUE, "PCON": PCON_QUEUE}
#: "The traditional TCP RTO" as the authors ran it (gholamifrd/ndnSIM @ 075bd07, pcon_scen1.cpp:
#: `MIN_RTO` 10 ms, 1100 ms when QUEUE_TYPE is PCON; ConsumerCC's RttMeanDeviation with the
#: Consumer's 10 ms RetxTimer check and MaxMultiplier 8): `timer = "ndnsim"`, docs/protocols/consumer.md.
RTO = {
    "FIFO": {"min": "10ms", "timer": "ndnsim"},
    "CODEL_Drop": {"min": "10ms", "timer": "ndnsim"},
    "PCON": {"min": "1100ms", "timer": "ndnsim"},
}
BIG = 1000  # the text's "raising the queue size to 1000 packets"


def scenario(variant: str, limit: int = LIMIT, duration: Any = DURATION, seed: int = SEED) -> Scenario:
    queue = dict(QUEUES[variant], packets=limit)
    return (
        Scenario(duration=duration, seed=seed, bin=BIN)
        .nodes("c", "r", "p")
        .link("c", "r", queue=queue, **ACCESS)
        .link("r", "p", queue=queue, **BOTTLENECK)
        .producer("p", "/pcon", payload=PAYLOAD)
        .consumer("c", "/pcon/obj", cc=CC[variant], rto=RTO[variant])
    )


def scenarios(duration: Any = DURATION, seed: int = SEED) -> Dict[str, Scenario]:
    out = {v: scenario(v, LIMIT, duration, seed) for v in VARIANTS}
    out.update({f"{v}_{BIG}": scenario(v, BIG, duration, seed) for v in VARIANTS})
    return out


# ----------------------------------------------------------------------------------- metrics


def _queue_stats(res: Any) -> Dict[str, float]:
    rows = common.link_rows(res, QUEUE_LINK)
    return {"max": int(rows["queue_packets"].max()) if len(rows) else 0,
            "mean": float(rows["queue_packets"].mean()) if len(rows) else float("nan")}


def metrics(results: Mapping[str, Any]) -> List[Row]:
    goodput = {v: float(common.consumer_total(results[v], CONSUMER, "goodput_bps") or 0.0) for v in VARIANTS}
    best = max(goodput.values()) or float("nan")
    queue = {v: _queue_stats(results[v]) for v in VARIANTS}
    losses = {v: [common.all_drops(results[v]), common.consumer_total(results[v], CONSUMER, "timeouts"),
                  common.consumer_total(results[v], CONSUMER, "retransmissions")] for v in VARIANTS}
    rows: List[Row] = []
    for v in VARIANTS:
        rows.append(common.at_least(
            f"{v} goodput", "same as the others", goodput[v] / 1e6, best / common.ALIKE / 1e6,
            f"the best variant's / {common.ALIKE:g} ('the same': the catalog's reading)", "Mbit/s"))
    rows.append(common.check(
        "FIFO max bottleneck queue", f"{LIMIT} (fills the queue)", queue["FIFO"]["max"],
        f"= {LIMIT}: drop-tail drops only when full", lambda q: q == LIMIT, "packets"))
    rows.append(common.all_positive(
        "FIFO drops / timeouts / retransmissions", "> 0 (losses, retransmission spikes)", losses["FIFO"],
        "its only congestion signal"))
    for v in ("CODEL_Drop", "PCON"):
        rows.append(common.below(
            f"{v} max bottleneck queue", f"< {LIMIT} (reacts before the limit)", queue[v]["max"], LIMIT,
            "the limit", "packets"))
        rows.append(common.at_most(
            f"{v} mean bottleneck queue", "small (no persistent queue)", queue[v]["mean"], 0.2 * LIMIT,
            "20% of the limit (target 5 ms = 6 packets)", "packets"))
    rows.append(common.above(
        "CODEL_Drop drops", "> 0 (CoDel drops)", common.all_drops(results["CODEL_Drop"]), 0,
        "its only signal"))
    rows.append(common.all_zero(
        "PCON drops / timeouts / retransmissions", "0 (avoids packet drops)", losses["PCON"],
        "marks replace drops"))
    rows.extend(_big_queue_rows(results))
    return rows


def _big_queue_rows(results: Mapping[str, Any]) -> List[Row]:
    rows = []
    for v in ("CODEL_Drop", "PCON"):
        small = float(common.consumer_total(results[v], CONSUMER, "goodput_bps") or 0.0)
        big = float(common.consumer_total(results[f"{v}_{BIG}"], CONSUMER, "goodput_bps") or 0.0)
        change = 100 * abs(big - small) / small if small else float("nan")
        rows.append(common.at_most(
            f"{v} goodput change, {LIMIT} -> {BIG} packets", "no impact", change, 2.0,
            "unchanged unless the limit was hit", "%"))
    small, big = (common.weighted_sojourn_ms(results[name], QUEUE_LINK) for name in ("FIFO", f"FIFO_{BIG}"))
    rows.append(common.at_least(
        f"FIFO queuing delay, {BIG} / {LIMIT} packets", "heavily increased", big / small, 1.5,
        f"'heavily': +50 % or more ({small:.0f} -> {big:.0f} ms)"))
    return rows


# ----------------------------------------------------------------------------------- figures


def figures(results: Mapping[str, Any], out_dir: Any) -> List[Path]:
    """figure3.png: per variant (columns) cwnd, bottleneck queue and RTT over time (rows)."""
    figure, axes = common.figure_grid(3, len(VARIANTS))
    for col, v in enumerate(VARIANTS):
        res = results[v]
        cons = common.consumer_rows(res, CONSUMER)
        queue = common.link_rows(res, QUEUE_LINK)
        bin_s = float(np.diff(np.unique(queue["time_s"]))[:1].sum()) if len(queue) > 1 else 0.0
        common.step(axes[0, col], cons["time_s"], cons["window"], color="C0")
        axes[0, col].set_title(v)
        axes[1, col].plot(queue["time_s"] + bin_s, queue["queue_packets"], linewidth=1.0, color="C1")
        axes[1, col].axhline(LIMIT, color="gray", linestyle="--", linewidth=0.8)
        common.step(axes[2, col], cons["time_s"], cons["rtt_ms"], color="C2")
        retx = cons[cons["retransmissions"] > 0]
        if len(retx):
            top = np.nanmax(cons["rtt_ms"].to_numpy()) if cons["rtt_ms"].notna().any() else 1.0
            axes[2, col].plot(retx["time_s"], np.full(len(retx), top * 1.05), "|", color="C3", markersize=6,
                              label="retransmission")
            axes[2, col].legend(fontsize="x-small", loc="lower right")
        for row in range(3):
            axes[row, col].grid(True, alpha=0.3)
            axes[row, col].set_ylim(bottom=0)
        axes[2, col].set_xlabel("time [s]")
    axes[0, 0].set_ylabel("cwnd [Interests]")
    axes[1, 0].set_ylabel(f"queue {QUEUE_LINK} [packets]")
    axes[2, 0].set_ylabel("RTT [ms]")
    for row in range(3):  # same y scale across the variants, as in the paper
        top = max(ax.get_ylim()[1] for ax in axes[row])
        for ax in axes[row]:
            ax.set_ylim(0, top)
    return common.save_figure(figure, Path(out_dir) / "figure3.png")
