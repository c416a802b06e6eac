"""PCON §4.3, "Changing Data Packet Size and Cross-Traffic" (the paper's Figure 7).

The §4.2 topology (C1, C2 - R - P, 80 ms RTT over a 10 Mbit/s R - P link); only C1 fetches regular
Data (100-byte payload). Four scenarios, all with PCON queues and the PCON consumer:

* Payload: P's payload goes from 100 B to 5 KB at 5 s and back at 15 s;
* Cross_Same: from 5 s to 15 s C2 requests an unresponsive constant rate of Data from P that takes
  98 % of R - P's bandwidth (Data path P -> R congested);
* Cross_Opp_1: the same cross-traffic in the opposite direction (a constant-rate consumer at P, a
  producer at C2: Data cross R -> P, C1's Interest path); every node ignores Interest marks;
* Cross_Opp_2: as Cross_Opp_1 with PIT marking (the mark of a congested Interest comes back on its
  Data).

Parameters and their sources: docs/experiments/pcon-4.3.md.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any, Dict, List, Mapping

import numpy as np
import pandas as pd

from ndnflow.experiments import common
from ndnflow.experiments.common import Row
from ndnflow.scenario import Scenario

ID = "pcon-4.3"
TITLE = "Changing Data packet size and cross-traffic"
PAPER = "PCON (Schneider et al., ICN 2016)"
SECTION = "§4.3"
DURATION = "25s"
SEED = 1
#: Rows that are information, not checks (docs/experiments/README.md; the page says why).
INFO_ROWS = ("Payload: peak RTT / (Data size ratio x base RTT)", "Cross_Same: cross-traffic load on R-P",
             "Cross_Opp_1: C1 marks before the first loss")
BIN = "10ms"

QUEUE = common.PCON_MARKING_QUEUE
LIMIT = QUEUE["packets"]
LINKS = {("c1", "r"): ("20Mbps", "10ms"), ("c2", "r"): ("50Mbps", "10ms"), ("r", "p"): ("10Mbps", "30ms")}
BOTTLENECK_BPS = 10e6
CHANGE_S, BACK_S = 5.0, 15.0
SMALL, LARGE = 100, 5000  # payload bytes, "from 100 Bytes to 5KB"
CROSS_PAYLOAD = 1000  # the authors' script (pcon_scen3.cpp): the cross-traffic producer's PayloadSize
#: Wire size of a cross Data (/cross/obj/seg=N, N in 256..65535, 1000-byte payload, DigestSha256):
#: name 18 + content 1004 + signature 39 + Data TL 4 (docs/wire-format.md).
CROSS_DATA_BYTES = 1065
CROSS_SHARE = 0.98
CROSS_RATE = CROSS_SHARE * BOTTLENECK_BPS / (8 * CROSS_DATA_BYTES)  # Interests per second
#: Fixed RTO and Interest lifetime: above the largest delay the text describes (4 s), so that a
#: late Data is never taken for a lost one ("If the Interest lifetime (and RTO) is long enough,
#: this works without packet loss").
RTO_S = 5.0
LIFETIME = "5s"
NORMAL_MS = 10.0  # "back to normal": sojourn <= 2 x CoDel's 5 ms target

VARIANTS = ("Payload", "Cross_Same", "Cross_Opp_1", "Cross_Opp_2")
#: Where each scenario's congestion is: the queue the figure shows.
CONGESTED = {"Payload": "p->r", "Cross_Same": "p->r", "Cross_Opp_1": "r->p", "Cross_Opp_2": "r->p"}


def scenario(variant: str, duration: Any = DURATION, seed: int = SEED) -> Scenario:
    marks = "ignore" if variant == "Cross_Opp_1" else "pit"
    sc = Scenario(duration=duration, seed=seed, bin=BIN)
    for node in ("c1", "c2", "r", "p"):
        sc.node(node, interest_marks=marks)
    for (a, b), (bandwidth, delay) in LINKS.items():
        sc.link(a, b, bandwidth=bandwidth, delay=delay, queue=QUEUE)
    changes = ([{"at": f"{CHANGE_S:g}s", "payload": LARGE}, {"at": f"{BACK_S:g}s", "payload": SMALL}]
               if variant == "Payload" else None)
    sc.producer("p", "/pcon", payload=SMALL, payload_changes=changes)
    timer = dict(rto=common.fixed_rto(RTO_S), lifetime=LIFETIME)
    sc.consumer("c1", "/pcon/obj", cc=common.PCON_CONSUMER, **timer)
    if variant != "Payload":
        source, sink = ("p", "c2") if variant == "Cross_Same" else ("c2", "p")
        sc.producer(source, "/cross", payload=CROSS_PAYLOAD)
        sc.consumer(sink, "/cross/obj", rate=CROSS_RATE, start=CHANGE_S, stop=BACK_S, **timer)
    return sc


def scenarios(duration: Any = DURATION, seed: int = SEED) -> Dict[str, Scenario]:
    return {v: scenario(v, duration, seed) for v in VARIANTS}


# ------------------------------------------------------------------------------ derived series


def _rebinned(res: Any, link: str, column: str, start: float, end: float, width: float = 0.1) -> pd.Series:
    return common.rebin(common.link_rows(res, link, start, end), width, column)


def queue_normal_s(res: Any, link: str = "p->r") -> float:
    """Start of the first 100 ms bin after the sojourn peak in [5 s, 15 s) whose mean sojourn is
    back to <= NORMAL_MS (a bin with no packet counts as an empty queue). NaN if none."""
    sojourn = _rebinned(res, link, "sojourn_ms", CHANGE_S, BACK_S).fillna(0.0)
    if sojourn.empty:
        return float("nan")
    after = sojourn[sojourn.index >= sojourn.idxmax()]
    normal = after[after <= NORMAL_MS]
    return float(normal.index[0]) if len(normal) else float("nan")


def full_bandwidth_s(res: Any, link: str = "p->r") -> float:
    """After 15 s: start of the first 100 ms bin in which the bottleneck carries >= 90 % of its
    bandwidth again, once it has fallen below half of it. NaN if never."""
    thr = _rebinned(res, link, "throughput_bps", BACK_S, math.inf)
    low = thr[thr < 0.5 * BOTTLENECK_BPS]
    if low.empty:
        return float("nan")
    full = thr[(thr.index > low.index[0]) & (thr >= 0.9 * BOTTLENECK_BPS)]
    return float(full.index[0]) if len(full) else float("nan")


def data_bytes(res: Any, link: str, start: float, end: float) -> float:
    """Mean wire size of the Data on `link` in [start, end) (the link carries only Data)."""
    rows = common.link_rows(res, link, start, end)
    return float(rows["bytes"].sum() / rows["data"].sum()) if rows["data"].sum() else float("nan")


def first_drop_s(res: Any, link: str) -> float:
    rows = common.link_rows(res, link)
    dropped = rows[rows["drops"] > 0]
    return float(dropped["time_s"].min()) if len(dropped) else float("nan")


def rtt_per_second(res: Any, start: float, end: float) -> List[float]:
    """C1's RTT averaged per Data over each whole second in [start, end)."""
    out = []
    for t in np.arange(start, end - 1 + 1e-9, 1.0):
        rows = common.consumer_rows(res, "c1", t, t + 1)
        rows = rows[rows["rtt_ms"].notna()]
        n = rows["data"].sum()
        out.append(float((rows["rtt_ms"] * rows["data"]).sum() / n) if n else float("nan"))
    return out


def _c1(res: Any, key: str) -> Any:
    return common.consumer_total(res, "c1", key)


def _losses(res: Any) -> List[int]:
    return [common.all_drops(res), int(_c1(res, "timeouts") or 0), int(_c1(res, "retransmissions") or 0)]


def _marks(res: Any, start: float, end: float) -> int:
    return int(common.consumer_rows(res, "c1", start, end)["marks"].sum())


# ----------------------------------------------------------------------------------- metrics


def metrics(results: Mapping[str, Any]) -> List[Row]:
    pay, same, opp1, opp2 = (results[v] for v in VARIANTS)
    rows: List[Row] = []
    peak = float(_c1(pay, "rtt_max_ms") or math.nan)
    rows.append(common.within("Payload: peak RTT", 4.0, peak / 1e3, 1.0,
                              "25 % of the text's estimate, 50 x the 80 ms RTT", "s"))
    ratio = data_bytes(pay, "p->r", 8.0, BACK_S) / data_bytes(pay, "p->r", 1.0, CHANGE_S)
    model = peak / (ratio * float(_c1(pay, "rtt_min_ms") or math.nan))
    rows.append(common.check(
        "Payload: peak RTT / (Data size ratio x base RTT)", "1 (delay proportional to the change in Data size)",
        model, f"0.75 to 1.25: the text's model with our wire sizes ({ratio:.1f}x, not 50x)",
        lambda v: 0.75 <= v <= 1.25))
    rows.append(common.within("Payload: queue back to normal at", 12.0, queue_normal_s(pay), 1.0,
                              f"'about 12s'; normal = sojourn <= {NORMAL_MS:g} ms (2 x target)", "s"))
    rows.append(common.within("Payload: full bandwidth again at", 18.0, full_bandwidth_s(pay), 1.0,
                              "'at about 18s'; >= 90 % of R-P in a 100 ms bin", "s"))
    rows.append(common.all_zero("Payload: drops / timeouts / retransmissions", "0 (lifetime and RTO long enough)",
                                _losses(pay), "marks only"))

    # C2's Data as the producer sends them (marks and flags added on the way do not count).
    cross = 8 * CROSS_DATA_BYTES * common.link_total(same, "r->c2", "data") / ((BACK_S - CHANGE_S) * BOTTLENECK_BPS)
    rows.append(common.within("Cross_Same: cross-traffic load on R-P", 98.0, 100 * cross, 1.0,
                              "the setting: Data received by C2 x 1065 B / (10 s x 10 Mbit/s)", "%"))
    same_peak = float(_c1(same, "rtt_max_ms") or math.nan)
    rows.append(common.check("Cross_Same: peak RTT", "300 ms", same_peak,
                             "200 to 450 ms: read off a log axis (x/÷ 1.5)", lambda v: 200 <= v <= 450, "ms"))
    rows.append(common.below("Cross_Same: peak RTT / Payload's", "< 1 ('less delay')", same_peak / peak, 1.0,
                             "less than Payload's"))
    before = common.mean_goodput_bps(same, "c1", 2.0, CHANGE_S)
    during = common.mean_goodput_bps(same, "c1", CHANGE_S + 1, BACK_S)
    rows.append(common.at_most("Cross_Same: C1 goodput during / before cross traffic",
                               "reduced (2 % of R-P left)", during / before, 0.1,
                               "C1 must yield: the cross traffic leaves 2 % of R-P"))
    rows.append(common.all_zero("Cross_Same: drops / timeouts / retransmissions", "0 (no packet loss)",
                                _losses(same), "marks only"))

    drop = first_drop_s(opp1, "r->p")
    end = drop if math.isfinite(drop) else BACK_S
    rows.append(common.check("Cross_Opp_1: R->P queue overflows (first drop at)", "packet loss by buffer overflow",
                             drop, f"a drop before the cross traffic ends ({BACK_S:g} s)",
                             lambda v: CHANGE_S <= v < BACK_S, "s"))
    rows.append(common.check("Cross_Opp_1: C1 marks before the first loss", "0 (loss is the first sign)",
                             _marks(opp1, CHANGE_S, end), "= 0", lambda v: v == 0))
    rtts = rtt_per_second(opp1, CHANGE_S, math.floor(end))
    rows.append(common.check(
        "Cross_Opp_1: C1 RTT per second until the loss", "rises indefinitely", [round(x) for x in rtts],
        "each second above the last", lambda v: len(v) >= 3 and all(b > a for a, b in zip(v, v[1:])), "ms"))
    rows.append(common.all_zero("Cross_Opp_2: drops / timeouts / retransmissions", "0 (queue buildup avoided)",
                                _losses(opp2), "PIT marks slow C1 down before the limit"))
    rows.append(common.above("Cross_Opp_2: C1 marks during cross traffic", "> 0 (PIT marking)",
                             _marks(opp2, CHANGE_S, BACK_S), 0, "the Interest-path signal"))
    tail = {name: float(common.link_rows(res, "r->p", BACK_S - 1, BACK_S)["queue_packets"].mean())
            for name, res in (("Opp_1", opp1), ("Opp_2", opp2))}
    rows.append(common.at_most("Cross_Opp_2: R->P queue in the last second of cross traffic", "no buildup",
                               tail["Opp_2"], 0.1 * LIMIT,
                               f"10 % of the limit (Cross_Opp_1: {tail['Opp_1']:.0f})", "packets"))
    return rows


# ----------------------------------------------------------------------------------- figures


def figures(results: Mapping[str, Any], out_dir: Any) -> List[Path]:
    """figure7.png: per scenario (columns) C1's goodput, cwnd, RTT (log scale, as in the paper)
    and the congested queue over time (rows)."""
    figure, axes = common.figure_grid(4, len(VARIANTS), width=3.6)
    for col, v in enumerate(VARIANTS):
        res = results[v]
        cons = common.consumer_rows(res, "c1")
        link = CONGESTED[v]
        queue = common.link_rows(res, link)
        rate = common.rebin(cons, 0.1, "goodput_bps")
        common.step(axes[0, col], rate.index, rate / 1e6, color="C0")
        axes[0, col].set_title(v)
        common.step(axes[1, col], cons["time_s"], cons["window"], color="C1")
        rtt = cons[cons["rtt_ms"].notna()]
        axes[2, col].plot(rtt["time_s"], rtt["rtt_ms"], ".", markersize=1.5, color="C2")
        axes[2, col].set_yscale("log")
        axes[2, col].set_ylim(50, 10_000)
        axes[3, col].plot(queue["time_s"], queue["queue_packets"], linewidth=1.0, color="C3")
        axes[3, col].axhline(LIMIT, color="gray", linestyle="--", linewidth=0.8)
        axes[3, col].set_ylabel(f"queue {link} [pkts]" if col == 0 or link != CONGESTED[VARIANTS[col - 1]] else "")
        for ax in axes[:, col]:
            for t in (CHANGE_S, BACK_S):
                ax.axvline(t, color="gray", linestyle=":", linewidth=0.8)
            ax.grid(True, alpha=0.3)
        for row in (0, 1, 3):
            axes[row, col].set_ylim(bottom=0)
        axes[3, col].set_xlabel("time [s]")
    axes[0, 0].set_ylabel("C1 goodput [Mbit/s]")
    axes[1, 0].set_ylabel("C1 cwnd [Interests]")
    axes[2, 0].set_ylabel("C1 RTT [ms]")
    for row in (0, 1):
        top = max(ax.get_ylim()[1] for ax in axes[row])
        for ax in axes[row]:
            ax.set_ylim(0, top)
    figure.text(0.01, 0.005, "dotted: 5 s (payload x50 / cross traffic starts) and 15 s (back / stops); "
                "dashed: the 1000-packet queue limit. Queue: P->R for Payload and Cross_Same, R->P for Cross_Opp_*.",
                fontsize="x-small")
    return common.save_figure(figure, Path(out_dir) / "figure7.png")
