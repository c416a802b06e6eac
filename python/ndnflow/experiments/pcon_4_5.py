"""PCON §4.5, "Highly Congested Links" (the paper's Figure 12; topology Figure 10, lost).

Our topology (every link 5 ms one way): C1 and C2 on R2, C3 behind R1 - R2, and R2 with three
producer links of 10 Mbit/s to P1, P2, P3, which all serve /A and /B; only P1 serves /C. C1 fetches
/A from 0 s; from 5 s to 30 s C3 requests /C at a fixed rate twice what P1's link can carry; C2
fetches /B from 15 s. Two variants: PCON (PCON queues, which track the highly congested state of
§3.6) and CODEL (CoDel queues in mark mode: 1-bit marks only); both with the `pcon` strategy on the
routers and the PCON consumer.

The strategy's state is not exported, so the checks read traffic: R1 forwards only C3's Interests,
all of which R2 must send to P1, so R2 -> P1 minus R1 -> R2 (5 ms later) is what R2 sends to P1 of
/A and /B; C1 -> R2 plus C2 -> R2 is all it receives of them.

Parameters and their sources: docs/experiments/pcon-4.5.md.
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

ID = "pcon-4.5"
TITLE = "Highly congested links: PCON's highly congested state vs. 1-bit marks (Figure 12)"
PAPER = "PCON (Schneider et al., ICN 2016)"
SECTION = "§4.5"
DURATION = "40s"
SEED = 1
#: Rows that are information, not checks (docs/experiments/README.md; the page says why).
INFO_ROWS = ("C3 overflows P1's queue (first drop at, PCON / CODEL)",)
#: Checks whose verdict changes over seeds 1-4, or whose value moves more than its tolerance band (--seeds 1-4):
#: judged on their median, the page has the values.
SEED_SENSITIVE = ("PCON: interface to P1 re-enabled at", "PCON: C1 + C2 above two links' goodput, after re-enabling")
BIN = "100ms"
BIN_S = 0.1

VARIANTS = ("PCON", "CODEL")
QUEUES = {"PCON": common.PCON_MARKING_QUEUE, "CODEL": {"discipline": "codel", "mode": "mark", "packets": 1000}}
LIMIT = 1000
DELAY = "5ms"  # "each link has a one-way delay of 5ms"
PRODUCERS = ("p1", "p2", "p3")
#: Link order fixes R2's face order: P1 is its first producer face (the paper's face 257), so
#: every prefix starts on P1 (§3.4: 100 % on the shortest path, the first among equals).
LINKS = [("c1", "r2", "100Mbps"), ("c2", "r2", "100Mbps"), ("c3", "r1", "100Mbps"), ("r1", "r2", "100Mbps")] + [
    ("r2", p, "10Mbps") for p in PRODUCERS]
LINK_BPS = 10e6
PAYLOAD = 1024
#: Wire size of /A/obj/seg=N (N from 256 to 65535) with a 1024-byte payload and DigestSha256:
#: name 14 + content 1028 + signature 39 + Data TL 4 (docs/wire-format.md).
DATA_BYTES = 1085
PATH_GOODPUT_BPS = LINK_BPS * PAYLOAD / DATA_BYTES  # 9.44 Mbit/s of payload per producer link
FLOOD_RATE = 2 * LINK_BPS / (8 * DATA_BYTES)  # 2304 Interests/s: twice what P1's link carries
FLOOD_START, C2_START, FLOOD_STOP = 5.0, 15.0, 30.0
RTO_S = 1.0  # fixed; above every RTT but the flood's (P1's full queue holds 0.87 s of Data)
LIFETIME = "1s"
LAG_S = 0.005  # R1 -> R2 counts C3's Interests one link delay before R2 -> P1 does
#: A bin "uses" P1 when more than 5 % of the /A, /B Interests, and at least 3, go there: probes are
#: 0.1 % of them, one at a time, and the flood's subtraction is exact to +-1 Interest per bin.
IN_USE, IN_USE_MIN = 0.05, 3


#: The routers' strategy in both variants. `expiry_reduction` is the authors' ndnSIM rule (an
#: expired PIT entry takes CHANGE_PERC points from its face); §4.5's "R2 has reduced forwarding
#: percentage towards P1 to 0%" under 1-bit marks needs it, since almost no marked Data come back
#: from the flooded link (docs/experiments/pcon-4.5.md).
STRATEGY = {"name": "pcon", "expiry_reduction": True}

def scenario(variant: str, duration: Any = DURATION, seed: int = SEED) -> Scenario:
    sc = Scenario(duration=duration, seed=seed, bin=BIN)
    for node in ("c1", "c2", "c3", "r1", "r2") + PRODUCERS:
        sc.node(node, strategy=STRATEGY if node.startswith("r") else None)
    for a, b, bandwidth in LINKS:
        sc.link(a, b, bandwidth=bandwidth, delay=DELAY, queue=QUEUES[variant])
    for p in PRODUCERS:
        for prefix in ("/A", "/B") + (("/C",) if p == "p1" else ()):
            sc.producer(p, prefix, payload=PAYLOAD)
    timer = dict(rto=common.fixed_rto(RTO_S), lifetime=LIFETIME)
    sc.consumer("c1", "/A/obj", cc=common.PCON_CONSUMER, **timer)
    sc.consumer("c2", "/B/obj", cc=common.PCON_CONSUMER, start=C2_START, **timer)
    sc.consumer("c3", "/C/obj", rate=FLOOD_RATE, start=FLOOD_START, stop=FLOOD_STOP, **timer)
    return sc


def scenarios(duration: Any = DURATION, seed: int = SEED) -> Dict[str, Scenario]:
    return {v: scenario(v, duration, seed) for v in VARIANTS}


# ------------------------------------------------------------------------------ derived series


def _column(res: Any, link: str, column: str = "interests") -> pd.Series:
    rows = common.link_rows(res, link)
    return pd.Series(rows[column].to_numpy(dtype=float), index=np.round(rows["time_s"].to_numpy(dtype=float), 6))


def to_p1(res: Any) -> pd.Series:
    """Interests of /A and /B that R2 sends to P1, per bin: R2 -> P1 minus C3's Interests, which
    R1 -> R2 counts LAG_S earlier (so a share LAG_S / bin of each bin's count lands in the next)."""
    flood = _column(res, "r1->r2")
    lag = LAG_S / BIN_S
    flood = flood * (1 - lag) + flood.shift(1, fill_value=0.0) * lag
    return _column(res, "r2->p1").sub(flood, fill_value=0.0)


def received(res: Any) -> pd.Series:
    """Interests of /A and /B that R2 receives, per bin (C1 and C2 each have their own link)."""
    return _column(res, "c1->r2").add(_column(res, "c2->r2"), fill_value=0.0)


def share_to_p1(res: Any, start: float, end: float) -> float:
    sent, total = to_p1(res), received(res)
    sel = (total.index >= start - 1e-9) & (total.index < end - 1e-9)
    n = total[sel].sum()
    return float(sent.reindex(total.index, fill_value=0.0)[sel].sum() / n) if n else float("nan")


def in_use(res: Any) -> pd.Series:
    """Per bin: whether R2 sends P1 more than IN_USE of the /A and /B Interests, and IN_USE_MIN."""
    total = received(res)
    sent = to_p1(res).reindex(total.index, fill_value=0.0)
    return (sent > IN_USE * total) & (sent >= IN_USE_MIN)


def disabled_at(res: Any) -> float:
    """Start of the first bin after the flood starts from which R2 uses P1 in no bin until the
    flood stops. NaN if it never stops using it."""
    use = in_use(res)
    flood = use[(use.index > FLOOD_START + 1e-9) & (use.index < FLOOD_STOP - 1e-9)]
    used = flood[flood]
    after = flood.index[flood.index > used.index[-1]] if len(used) else flood.index
    return float(after[0]) if len(after) else float("nan")


def reenabled_at(res: Any) -> float:
    """Start of the first bin at or after the flood's stop in which R2 uses P1 again."""
    use = in_use(res)
    back = use[(use.index >= FLOOD_STOP - 1e-9) & use]
    return float(back.index[0]) if len(back) else float("nan")


def drained_at(res: Any) -> float:
    """When P1's queue has drained after the flood: the end of the first bin from 30 s whose
    end-of-bin sample of the P1 -> R2 queue is below 10 % of the limit (the consumers' own
    traffic, back on P1 within the bin, may already queue a few dozen packets)."""
    queue = _column(res, "p1->r2", "queue_packets")
    empty = queue[(queue.index >= FLOOD_STOP - 1e-9) & (queue < 0.1 * LIMIT)]
    return float(empty.index[0] + BIN_S) if len(empty) else float("nan")


def goodput(res: Any, consumers: Any = ("c1", "c2")) -> pd.Series:
    """Summed goodput of `consumers` per bin (bit/s)."""
    rows = res.consumers[res.consumers["consumer"].isin(list(consumers))]
    return rows.groupby(np.round(rows["time_s"].to_numpy(dtype=float), 6))["goodput_bps"].sum()


def taken_up_at(res: Any, after: float) -> float:
    """First bin start >= `after` from which C1 + C2 get more over one second than two producer
    links can carry: they use the bandwidth that P1's return freed. NaN if never."""
    total = goodput(res)
    ahead = total.rolling(int(round(1 / BIN_S))).mean().shift(-int(round(1 / BIN_S)) + 1)
    above = ahead[(ahead.index >= after - 1e-9) & (ahead > 2 * PATH_GOODPUT_BPS)]
    return float(above.index[0]) if len(above) else float("nan")


def _window_max(res: Any, consumer: str, start: float, end: float) -> float:
    rows = common.consumer_rows(res, consumer, start, end)
    return float(rows["window"].max()) if len(rows) else float("nan")


def _timeouts(res: Any, consumer: str, start: float, end: float) -> int:
    return int(common.consumer_rows(res, consumer, start, end)["timeouts"].sum())


def _first_drop(res: Any) -> float:
    rows = common.link_rows(res, "p1->r2")
    dropped = rows[rows["drops"] > 0]
    return float(dropped["time_s"].min()) if len(dropped) else float("nan")


# ----------------------------------------------------------------------------------- metrics


def metrics(results: Mapping[str, Any]) -> List[Row]:
    pcon, codel = results["PCON"], results["CODEL"]
    rows: List[Row] = []
    drops = [_first_drop(res) for res in (pcon, codel)]
    rows.append(common.check("C3 overflows P1's queue (first drop at, PCON / CODEL)", "quickly after 5 s", drops,
                             f"within {common.QUICKLY_S:g} s of the flood's start ('quickly')",
                             lambda v: all(5 <= x < 5 + common.QUICKLY_S for x in v), "s"))
    off = disabled_at(pcon)
    rows.append(common.within("PCON: interface to P1 disabled at", 7.0, off, 1.0,
                              "'about 7 seconds'; P1 unused in every later bin to 30 s", "s"))
    rows.append(common.at_most("PCON: share of /A, /B Interests to P1, 8-30 s", "0 ('completely disables')",
                               100 * share_to_p1(pcon, 8.0, FLOOD_STOP), 0.5,
                               "5 x the probes (0.1 % of Interests)", "%"))
    rows.append(common.at_most("PCON: share to P1 in C2's first second (15-16 s)",
                               "0 (unseen prefix avoids P1 at once)", 100 * share_to_p1(pcon, C2_START, C2_START + 1),
                               0.5, "as above; /B starts at 100 % on P1", "%"))
    rows.append(common.all_zero("PCON: timeouts C1 / C2, 7-30 s", "0 (PCON 'avoids that problem')",
                                [_timeouts(pcon, c, 7.0, FLOOD_STOP) for c in ("c1", "c2")],
                                "no Interest into the flood"))
    back = reenabled_at(pcon)
    rows.append(common.within("PCON: interface to P1 re-enabled at", 32.0, back, 1.0,
                              "'about 32 seconds'; first bin from 30 s using P1", "s"))
    rows.append(common.at_least("PCON: re-enabled minus P1's queue drained", "> 0 ('when the queue has drained')",
                                back - drained_at(pcon), -BIN_S - 1e-6,
                                "not before it (one 100 ms bin of resolution)", "s"))
    up = taken_up_at(pcon, back if math.isfinite(back) else FLOOD_STOP)
    rows.append(common.at_most("PCON: C1 + C2 above two links' goodput, after re-enabling", "quickly",
                               up - back, common.QUICKLY_S,
                               f"1 s mean > {2 * PATH_GOODPUT_BPS / 1e6:.1f} Mbit/s within 2 s (~70 RTTs)", "s"))
    g1, g2 = (common.mean_goodput_bps(pcon, c, 35.0, 40.0) for c in ("c1", "c2"))
    rows.append(common.check("PCON: C1 / C2 goodput, 35-40 s", "~1 ('share the newly available bandwidth')", g1 / g2,
                             "0.5 to 2: equal RTTs, neither gets twice the other", lambda v: 0.5 <= v <= 2.0))
    share = 100 * share_to_p1(codel, 7.0, FLOOD_STOP)
    rows.append(common.check("CODEL: share of /A, /B Interests to P1, 7-30 s", "small (0 %, back to 0.5 % on marks)",
                             share, "0.1 to 5 %: above the probes, 10 x the text's 0.5 %",
                             lambda v: 0.1 < v <= 5.0, "%"))
    rows.append(common.all_positive("CODEL: timeouts C1 / C2 during the flood", "bursts of timeouts",
                                    [_timeouts(codel, c, FLOOD_START, FLOOD_STOP + 1) for c in ("c1", "c2")],
                                    "both consumers"))
    rows.append(common.at_most("CODEL: C2's largest window, 15-30 s", "'can't even go much higher than 1'",
                               _window_max(codel, "c2", C2_START, FLOOD_STOP), 3.0, "3 x the floor of 1"))
    during = [sum(common.mean_goodput_bps(res, c, 16.0, FLOOD_STOP) for c in ("c1", "c2")) for res in (pcon, codel)]
    rows.append(common.above("PCON / CODEL: C1 + C2 goodput, 16-30 s", "> 1 (§3.6 'improves performance')",
                             during[0] / during[1], 1.0, "the highly congested state helps"))
    return rows


# ----------------------------------------------------------------------------------- figures


def figures(results: Mapping[str, Any], out_dir: Any) -> List[Path]:
    """figure12.png: per variant (columns) the share of /A, /B Interests R2 sends to P1, P1's queue
    ("Q"), the consumers' windows and goodput, and their cumulative timeouts (rows)."""
    figure, axes = common.figure_grid(5, len(VARIANTS), width=4.6)
    for col, v in enumerate(VARIANTS):
        res = results[v]
        total = received(res)
        sent = to_p1(res).reindex(total.index, fill_value=0.0)
        window = 5
        received_w = total.rolling(window).sum()
        share = 100 * sent.rolling(window).sum() / received_w.where(received_w > 0)
        common.step(axes[0, col], share.index - (window - 1) * BIN_S, share, color="C3")
        axes[0, col].set_ylim(-2, 102)
        axes[0, col].set_title(v)
        queue = common.link_rows(res, "p1->r2")
        axes[1, col].plot(queue["time_s"], queue["queue_packets"], linewidth=1.0, color="C3")
        axes[1, col].axhline(LIMIT, color="gray", linestyle="--", linewidth=0.8)
        for i, c in enumerate(("c1", "c2")):
            cons = common.consumer_rows(res, c)
            common.step(axes[2, col], cons["time_s"], cons["window"], color=f"C{i}", label=c.upper())
            rate = common.rebin(cons, 0.5, "goodput_bps")
            common.step(axes[3, col], rate.index, rate / 1e6, color=f"C{i}", label=c.upper())
            common.step(axes[4, col], cons["time_s"], cons["timeouts"].cumsum(), color=f"C{i}", label=c.upper())
        axes[2, col].set_yscale("symlog", linthresh=10)
        for ax in axes[:, col]:
            for t in (FLOOD_START, C2_START, FLOOD_STOP):
                ax.axvline(t, color="gray", linestyle=":", linewidth=0.8)
            ax.grid(True, alpha=0.3)
        for row in (1, 3, 4):
            axes[row, col].set_ylim(bottom=0)
        axes[4, col].set_xlabel("time [s]")
    for row in (3, 4):
        top = max(ax.get_ylim()[1] for ax in axes[row])
        for ax in axes[row]:
            ax.set_ylim(0, top)
    axes[0, 0].set_ylabel("/A,/B to P1 [%]")
    axes[1, 0].set_ylabel("Q: P1->R2 [pkts]")
    axes[2, 0].set_ylabel("cwnd [Interests]")
    axes[3, 0].set_ylabel("goodput [Mbit/s]")
    axes[4, 0].set_ylabel("timeouts (cum.)")
    axes[3, 0].legend(fontsize="x-small", loc="upper left")
    figure.text(0.01, 0.005, "dotted: 5 s (C3 floods /C from P1), 15 s (C2 starts), 30 s (C3 stops); "
                "dashed: the 1000-packet limit. Share: 0.5 s windows.", fontsize="x-small")
    return common.save_figure(figure, Path(out_dir) / "figure12.png")
