"""PCON §4.2, "Caching and Multicast" (the paper's Figure 6).

C1 and C2 fetch the same object through router R, which caches, from P. C2 starts at 5 s, is first
served from R's cache at up to 50 Mbit/s, and then, having caught up with C1 ("exhausts the
cache"), shares the far 10 Mbit/s, 30 ms link R - P. Variants:

* PCON: CoDel marking queues (`PCON_QUEUE`), the PCON consumer, a fixed RTO of 1 s;
* TCP_timer: the paper's comparison, CoDel dropping queues and the RFC 6298 timer
  (RTO = SRTT + 4 RTTVAR), and BIC with conservative window adaptation (§4.2 does not say; only
  §4.1's CODEL_Drop turns CWA off);
* TCP_timer_marks (ours): PCON with the RFC 6298 timer instead of the fixed RTO. Nothing is dropped
  in this run, so every timeout is an Interest whose Data came later (RTO < RTT) and every
  retransmission is unnecessary: the counts are exact, with no per-packet trace.

Parameters and their sources: docs/experiments/pcon-4.2.md.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional

import numpy as np
import pandas as pd

from ndnflow.experiments import common
from ndnflow.experiments.common import Row
from ndnflow.scenario import Scenario

ID = "pcon-4.2"
TITLE = "Caching and multicast: RTO timers under cache hits"
PAPER = "PCON (Schneider et al., ICN 2016)"
SECTION = "§4.2"
DURATION = "20s"
SEED = 1
#: Rows that are information, not checks (docs/experiments/README.md; the page says why).
INFO_ROWS = ("PCON: R-P throughput, C1 alone (1-5 s)", "PCON: min RTO - RTT", "PCON: drops",
             "TCP_timer_marks: drops, losses, expiries, Nacks")
BIN = "10ms"

LIMIT = 1000
#: The queue of the PCON variants: `common.PCON_QUEUE`, shared with pcon-4.1.
PCON_QUEUE = common.PCON_QUEUE
CODEL_QUEUE: Dict[str, Any] = {"discipline": "codel", "mode": "drop"}
ACCESS = {"bandwidth": "50Mbps", "delay": "10ms"}  # C1 - R, C2 - R: the cache's side
BOTTLENECK = {"bandwidth": "10Mbps", "delay": "30ms"}  # R - P
BOTTLENECK_BPS = 10e6
CS = {"policy": "lru", "capacity": 100_000}
PAYLOAD = 1024
C2_START_S = 5.0
FIXED_RTO_S = 1.0
#: The consumer's RFC 6298 estimator with its defaults (ndn-cxx): initial 1 s, min 200 ms, max 60 s.
TCP_RTO = {"initial": 1.0, "min": 0.2, "max": 60.0}

#: R's strategy. best-route (NFD) forwards a second consumer's Interest for a pending segment again
#: once NFD's 10 ms suppression interval has passed; the pcon strategy would aggregate it, as the
#: paper's ndnSIM fork does, which keeps the consumers in lockstep and removes the burst of
#: spurious timeouts this experiment looks for (docs/experiments/pcon-4.2.md).
STRATEGY = "best-route"

VARIANTS = ("PCON", "TCP_timer", "TCP_timer_marks")
SETUP = {  # variant: (queue, cc, rto table or None for the estimator's defaults)
    "PCON": (PCON_QUEUE, {"algorithm": "pcon"}, {"initial": FIXED_RTO_S, "min": FIXED_RTO_S, "max": FIXED_RTO_S}),
    "TCP_timer": (CODEL_QUEUE, {"algorithm": "bic", "cwa": True}, None),
    "TCP_timer_marks": (PCON_QUEUE, {"algorithm": "pcon"}, None),
}
CONSUMERS = ("c1", "c2")


def scenario(variant: str, duration: Any = DURATION, seed: int = SEED) -> Scenario:
    queue, cc, rto = SETUP[variant]
    queue = dict(queue, packets=LIMIT)
    return (
        Scenario(duration=duration, seed=seed, bin=BIN)
        .nodes("c1", "c2", "p")
        .node("r", cs=CS, strategy=STRATEGY)
        .link("c1", "r", queue=queue, **ACCESS)
        .link("c2", "r", queue=queue, **ACCESS)
        .link("r", "p", queue=queue, **BOTTLENECK)
        .producer("p", "/pcon", payload=PAYLOAD)
        .consumer("c1", "/pcon/obj", cc=cc, rto=rto)
        .consumer("c2", "/pcon/obj", cc=cc, rto=rto, start=C2_START_S)
    )


def scenarios(duration: Any = DURATION, seed: int = SEED) -> Dict[str, Scenario]:
    return {v: scenario(v, duration, seed) for v in VARIANTS}


# ------------------------------------------------------------------------------ derived series


def cache_exhausted_s(res: Any) -> float:
    """When C2 has asked for everything C1 had received: first bin end with
    received(C2) + window(C2) >= received(C1). NaN if it never happens."""
    c1, c2 = (common.consumer_rows(res, c).set_index("time_s") for c in CONSUMERS)
    both = pd.DataFrame({"got1": c1["data"].cumsum(), "got2": c2["data"].cumsum(), "w2": c2["window"]}).dropna()
    both = both[both.index >= C2_START_S]
    hit = both[both["got2"] + both["w2"] >= both["got1"]]
    if hit.empty:
        return float("nan")
    bin_s = float(np.diff(c1.index[:2])[0]) if len(c1) > 1 else 0.0
    return float(hit.index[0] + bin_s)


def replayed_rto_ms(rows: pd.DataFrame, rto: Optional[Mapping[str, float]]) -> np.ndarray:
    """The RTO in force during each bin, replaying RFC 6298 (alpha 1/8, beta 1/4, k 4) over the
    per-bin mean RTT as `data` equal samples, and one backoff for a bin with timeouts after a new
    sample. An approximation (a bin's samples are not all equal), for the figure only; a fixed
    RTO (min = max) is exact."""
    rto = dict(TCP_RTO, **(rto or {}))
    lo, hi = rto["min"] * 1e3, rto["max"] * 1e3
    current, srtt, var, sampled = rto["initial"] * 1e3, None, 0.0, True
    out = np.empty(len(rows))
    for i, (rtt, n, timeouts) in enumerate(zip(rows["rtt_ms"], rows["data"], rows["timeouts"])):
        out[i] = current
        if not math.isnan(rtt):
            for _ in range(max(1, int(n))):
                if srtt is None:
                    srtt, var = rtt, rtt / 2
                else:
                    var = 0.75 * var + 0.25 * abs(srtt - rtt)
                    srtt = 0.875 * srtt + 0.125 * rtt
            current, sampled = min(max(srtt + 4 * var, lo), hi), True
        if timeouts > 0 and sampled:
            current, sampled = min(2 * current, hi), False
    return out


# ----------------------------------------------------------------------------------- metrics


def _totals(res: Any, key: str) -> List[int]:
    return [int(common.consumer_total(res, c, key) or 0) for c in CONSUMERS]


def metrics(results: Mapping[str, Any]) -> List[Row]:
    pcon, tcp, marks = (results[v] for v in VARIANTS)
    rows: List[Row] = []
    alone = common.link_rows(pcon, "p->r", 1.0, C2_START_S)["throughput_bps"].mean() / 1e6
    rows.append(common.at_least(
        "PCON: R-P throughput, C1 alone (1-5 s)", "10 Mbit/s (the bottleneck)", alone, 0.9 * BOTTLENECK_BPS / 1e6,
        "90% of the link", "Mbit/s"))
    for name, res in (("PCON", pcon), ("TCP_timer", tcp)):
        done = cache_exhausted_s(res)
        rows.append(common.within(f"{name}: C2 exhausts the cache at", 7.0, done, 1.0,
                                  "read off a figure; the stated rates give 6.25 s", "s"))
        rate = common.mean_goodput_bps(res, "c2", C2_START_S, done if math.isfinite(done) else C2_START_S) / 1e6
        rows.append(common.above(f"{name}: C2 goodput from the cache", "up to 50 Mbit/s (cache link)", rate,
                                 BOTTLENECK_BPS / 1e6, "faster than R-P can deliver", "Mbit/s"))
    rows.append(common.all_zero("PCON: timeouts / retransmissions (C1, C2)", "none",
                                _totals(pcon, "timeouts") + _totals(pcon, "retransmissions"),
                                "no loss, and the RTO is above every RTT"))
    rtt_max = max(float(common.consumer_total(pcon, c, "rtt_max_ms") or math.nan) for c in CONSUMERS)
    rows.append(common.above("PCON: min RTO - RTT", "always positive", FIXED_RTO_S * 1e3 - rtt_max, 0,
                             "exact: fixed RTO minus the largest RTT", "ms"))
    rows.append(common.check("PCON: drops", "0 (no packet drops)", common.all_drops(pcon), "= 0",
                             lambda v: v == 0))
    rows.append(common.above("TCP_timer: retransmissions", "> 0 (unnecessary ones)",
                             sum(_totals(tcp, "retransmissions")), 0, "drops and timer together"))
    drops = common.all_lost(marks)
    rows.append(common.check("TCP_timer_marks: drops, losses, expiries, Nacks", "0 (marks, no loss)", drops,
                             "= 0: makes the next rows exact", lambda v: v == 0))
    rows.append(common.check(
        "TCP_timer_marks: Interests with RTO < RTT", "some (RTO - RTT < 0)", sum(_totals(marks, "timeouts")),
        "> 0, in a drop-free run (each timeout)", lambda v: v > 0 and drops == 0))
    rows.append(common.check(
        "TCP_timer_marks: unnecessary retransmissions", "> 0", sum(_totals(marks, "retransmissions")),
        "> 0, in a drop-free run (all of them)", lambda v: v > 0 and drops == 0))
    rows.append(common.check(
        "TCP_timer_marks: first timeout after cache exhausted", "when C2 exhausts the cache",
        first_timeout_s(marks) - cache_exhausted_s(marks), "-0.1 to 1 s (10 ms bins; a few RTTs)",
        lambda v: -0.1 <= v <= 1.0, "s"))
    return rows


def first_timeout_s(res: Any) -> float:
    frame = res.consumers
    fired = frame[frame["timeouts"] > 0]
    return float(fired["time_s"].min()) if len(fired) else float("nan")


# ----------------------------------------------------------------------------------- figures


def figures(results: Mapping[str, Any], out_dir: Any) -> List[Path]:
    """figure6.png: per variant (columns) each consumer's rate, RTO - RTT and cumulative
    retransmissions over time (rows)."""
    figure, axes = common.figure_grid(3, len(VARIANTS))
    for col, v in enumerate(VARIANTS):
        res = results[v]
        done = cache_exhausted_s(res)
        for k, c in enumerate(CONSUMERS):
            rows = common.consumer_rows(res, c)
            if rows.empty:
                continue
            color = f"C{k}"
            rate = common.rebin(rows, 0.1, "goodput_bps")
            common.step(axes[0, col], rate.index, rate / 1e6, color=color, label=c.upper())
            gap = replayed_rto_ms(rows, SETUP[v][2]) - rows["rtt_ms"].to_numpy()
            axes[1, col].plot(rows["time_s"], gap, ".", markersize=1.5, color=color)
            fired = rows[rows["timeouts"] > 0]
            axes[1, col].plot(fired["time_s"], np.full(len(fired), -100.0 * (k + 1)), "x", markersize=3,
                              color=color, label=f"{c.upper()} timeout")
            common.step(axes[2, col], rows["time_s"], rows["retransmissions"].cumsum(), color=color, label=c.upper())
        axes[0, col].set_title(v)
        axes[1, col].axhline(0, color="black", linewidth=0.8)
        for ax in axes[:, col]:
            ax.axvline(C2_START_S, color="gray", linestyle=":", linewidth=0.8)
            if math.isfinite(done):
                ax.axvline(done, color="gray", linestyle="--", linewidth=0.8)
            ax.grid(True, alpha=0.3)
        axes[0, col].set_ylim(bottom=0)
        axes[2, col].set_ylim(bottom=0)
        axes[2, col].set_xlabel("time [s]")
    axes[0, 0].set_ylabel("rate [Mbit/s]")
    axes[1, 0].set_ylabel("RTO - RTT [ms]")
    axes[2, 0].set_ylabel("retransmissions")
    axes[0, 0].legend(fontsize="x-small", loc="upper right")
    for row in (0, 2):
        top = max(ax.get_ylim()[1] for ax in axes[row])
        for ax in axes[row]:
            ax.set_ylim(0, top)
    for ax in axes[1]:
        ax.set_ylim(-300, 1100)
    axes[1, -1].legend(fontsize="x-small", loc="center right")
    figure.text(0.01, 0.005, "dotted: C2 starts; dashed: C2 has exhausted the cache. RTO - RTT: dots per 10 ms bin "
                "(TCP timer replayed from the bins, approximate; samples with RTO < RTT end in a timeout, not an RTT "
                "sample); x: bins with timeouts.", fontsize="x-small")
    return common.save_figure(figure, Path(out_dir) / "figure6.png")
