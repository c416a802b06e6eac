"""PCON §4.6, "IP Overlay and Wireless Links" (the paper's Figure 14, topology Figure 13).

Router R1 serves consumer C over two paths to producers of the same prefix: a wireless link to P1
that loses 1 % of the packets at random, and a UDP tunnel to P2 (20 Mbit/s at R1 and P2, 10 Mbit/s
inside the IP underlay, whose routers r2 and r3 have 250 KB drop-tail queues). The split starts at
the optimal 0.5. Three schemes, as the text, plus the one it describes without a figure:

* Shaper_Ideal: hop-by-hop Interest shaping at R1, told the real 10 Mbit/s of either path;
* Shaper_Overlay: the same shaper told R1's local link bandwidth, 20 Mbit/s;
* PCON: PCON queues, the `pcon` strategy starting at 0.5, the PCON consumer, and link loss
  detection (§3.5): marked Nacks from the tunnel, unmarked ones from the wireless link;
* Shaper_5Mbps: the shaper told 5 Mbit/s ("not depicted").

Parameters and their sources: docs/experiments/pcon-4.6.md.
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

ID = "pcon-4.6"
TITLE = "IP overlay and wireless links: Interest shaping vs. PCON (Figure 14)"
PAPER = "PCON (Schneider et al., ICN 2016)"
SECTION = "§4.6"
DURATION = "30s"
SEED = 1
#: Rows that are information, not checks (docs/experiments/README.md; the page says why).
INFO_ROWS = ("Setting: wireless loss rate (PCON run)", "Setting: R1's Interests to P2 (Ideal, Overlay)")
BIN = "100ms"

VARIANTS = ("Shaper_Ideal", "Shaper_Overlay", "PCON", "Shaper_5Mbps")
#: The capacity R1's shaper assumes for both of its faces ("uses it as parameter").
SHAPER_CAPACITY = {"Shaper_Ideal": "10Mbps", "Shaper_Overlay": "20Mbps", "Shaper_5Mbps": "5Mbps"}
WIRELESS_LOSS = 0.01
UNDERLAY_QUEUE = {"discipline": "droptail", "bytes": "250KB"}  # "a maximum size of 250 KB"
UNDERLAY_BYTES = 250_000  # the same, as the scenario reader counts KB (x1000)
#: "Router queues small": the catalog's reading of "small" (a queue), as pcon-4.1's (README, "One
#: reading per phrase"): a mean queue of at most 20 % of its limit.
SMALL_QUEUE_PCT = 20.0
#: Tunnel hops after the NDN-level transmitter, the same in both directions: the 10 Mbit/s r2 - r3
#: hop, then 20 Mbit/s to the far end. On P2 -> R1 the first hop is r3's queue (towards r2).
UNDERLAY = [{"bandwidth": "10Mbps", "delay": "5ms", "queue": UNDERLAY_QUEUE},
            {"bandwidth": "20Mbps", "delay": "5ms", "queue": UNDERLAY_QUEUE}]
R3 = "p2->r1/u1"  # r3's queue: the Data direction's bottleneck hop
TUNNEL_OUT = "p2->r1/u2"  # the tunnel's last hop: every Data that reaches R1 from P2
WIRELESS = "p1->r1"
#: Shaper variants: drop-tail queues of the authors' size (QUEUE_SIZE_PKTS 1000); HBH shaping has
#: no marking AQM. PCON: PCON's marking queue.
FIFO = {"discipline": "droptail", "packets": 1000}
RTO_S = 1.0  # fixed, every variant: above every RTT of the section (max ~350 ms)
TARGET_MS = 5.0  # CoDel's target: what a queue that does not stand may hold
BASE_RTT_MS = 40.0  # C - R1 - P1 and C - R1 - P2: 2 x (5 + 15) ms
SPLIT_TOL = 5.0  # points, as pcon-4.4-split


def scenario(variant: str, duration: Any = DURATION, seed: int = SEED) -> Scenario:
    pcon = variant == "PCON"
    queue = common.PCON_MARKING_QUEUE if pcon else FIFO
    # change_perc = 0: no signal moves the split, and the shift back moves 0.1 x 0 points.
    strategy = {"name": "pcon", "initial": "equal", **({} if pcon else {"change_perc": 0.0})}
    sc = Scenario(duration=duration, seed=seed, bin=BIN)
    for node in ("c", "r1", "p1", "p2"):
        sc.node(node, strategy=strategy)
    shaper = None if pcon else {"shaper": {"capacity": SHAPER_CAPACITY[variant]}}
    sc.link("c", "r1", bandwidth="100Mbps", delay="5ms", queue=queue)
    sc.link("r1", "p1", bandwidth="10Mbps", delay="15ms", queue=queue,
            loss={"model": "bernoulli", "p": WIRELESS_LOSS}, loss_detection="wireless", forward=shaper)
    sc.link("r1", "p2", bandwidth="20Mbps", delay="5ms", queue=queue, underlay=UNDERLAY, forward=shaper,
            **({"loss_detection": "overlay"} if pcon else {}))
    for producer in ("p1", "p2"):
        sc.producer(producer, "/prefix", payload=1024)
    sc.consumer("c", "/prefix/obj", cc=common.PCON_CONSUMER, rto=common.fixed_rto(RTO_S))
    return sc


def scenarios(duration: Any = DURATION, seed: int = SEED) -> Dict[str, Scenario]:
    return {v: scenario(v, duration, seed) for v in VARIANTS}


# ------------------------------------------------------------------------------ derived values


def half(res: Any) -> float:
    """Start of the measured (second) half of the run."""
    return 0.5 * float(res.summary["simulation"]["duration_s"])


def from_p2(res: Any, start: float = 0.0, end: float = math.inf) -> pd.DataFrame:
    """Data per bin that reach R1 from P1 (sent minus lost on the wireless link) and from P2 (left
    the tunnel's last hop), columns "p1" and "p2", indexed by bin start."""
    p1 = common.link_rows(res, WIRELESS, start, end).set_index("time_s")
    p2 = common.link_rows(res, TUNNEL_OUT, start, end).set_index("time_s")
    return pd.DataFrame({"p1": p1["data"] - p1["losses"], "p2": p2["data"]}).fillna(0)


def p2_share(res: Any, start: float = 0.0, end: float = math.inf) -> float:
    """Percent of the Data R1 received from P2 (over the tunnel) in [start, end)."""
    counts = from_p2(res, start, end).sum()
    total = counts["p1"] + counts["p2"]
    return float(100 * counts["p2"] / total) if total else float("nan")


def sojourn_ms(res: Any, link: str, start: float = 0.0) -> float:
    """Mean queuing delay of a link direction from `start` on, per packet."""
    rows = common.link_rows(res, link, start)
    rows = rows[rows["sojourn_ms"].notna()]
    weight = rows["packets"].sum()
    return float((rows["sojourn_ms"] * rows["packets"]).sum() / weight) if weight else float("nan")


def queue_share_pct(res: Any, link: str, start: float = 0.0) -> float:
    """Mean queue of a link direction from `start` on, in percent of its limit: an underlay hop's
    (name ".../uN") in bytes of its 250 KB, any other in packets of the shaper variants' 1000-packet
    FIFO."""
    rows = common.link_rows(res, link, start)
    if not len(rows):
        return float("nan")
    if "/u" in link:
        return float(100 * rows["queue_bytes"].mean() / UNDERLAY_BYTES)
    return float(100 * rows["queue_packets"].mean() / FIFO["packets"])


def consumer_delay_ms(res: Any, start: float = 0.0) -> float:
    """C's queuing delay: its mean RTT per Data from `start` on, minus its smallest RTT."""
    rows = common.consumer_rows(res, "c", start)
    rows = rows[rows["rtt_ms"].notna()]
    n = rows["data"].sum()
    base = float(common.consumer_total(res, "c", "rtt_min_ms") or math.nan)
    return float((rows["rtt_ms"] * rows["data"]).sum() / n) - base if n else float("nan")


def timeout_bursts(res: Any, gap_s: float = 1.0) -> List[List[float]]:
    """C's timeout bursts as [first, last] bin starts: bins with timeouts, a new burst after more
    than `gap_s` without."""
    rows = common.consumer_rows(res, "c")
    bursts: List[List[float]] = []
    for t in rows.loc[rows["timeouts"] > 0, "time_s"].tolist():
        if bursts and t - bursts[-1][1] <= gap_s:
            bursts[-1][1] = float(t)
        else:
            bursts.append([float(t), float(t)])
    return bursts


def periodic(bursts: List[List[float]]) -> bool:
    """Periodic bursts: at least three, each lasting less than half the shortest quiet gap between
    two of them (bursts that repeat, not a steady stream of timeouts)."""
    if len(bursts) < 3:
        return False
    longest = max(end - start for start, end in bursts)
    quiet = min(b[0] - a[1] for a, b in zip(bursts, bursts[1:]))
    return longest < 0.5 * quiet


def interest_share(res: Any, start: float = 0.0) -> List[float]:
    """R1's Interests to P2 in percent of those to P1 and P2 from `start` on, and their number."""
    n1, n2 = (float(common.link_rows(res, link, start)["interests"].sum()) for link in ("r1->p1", "r1->p2"))
    return [100 * n2 / (n1 + n2) if n1 + n2 else float("nan"), n1 + n2]


def _goodput(res: Any) -> float:
    return common.mean_goodput_bps(res, "c", half(res)) / 1e6


def _timeouts(res: Any) -> int:
    return int(common.consumer_total(res, "c", "timeouts") or 0)


# ----------------------------------------------------------------------------------- metrics


def metrics(results: Mapping[str, Any]) -> List[Row]:
    ideal, overlay, pcon, low = (results[v] for v in VARIANTS)
    t0 = half(ideal)
    rows: List[Row] = []
    lost = sum(common.link_total(pcon, d, "losses") for d in ("r1->p1", "p1->r1"))
    sent = sum(common.link_total(pcon, d, "packets") for d in ("r1->p1", "p1->r1"))
    sigma = 100 * math.sqrt(WIRELESS_LOSS * (1 - WIRELESS_LOSS) / max(sent, 1))
    rows.append(common.within("Setting: wireless loss rate (PCON run)", 100 * WIRELESS_LOSS,
                              100 * lost / sent if sent else math.nan, round(3 * sigma, 3),
                              f"3 sigma of a binomial over {sent} packets", "%"))
    shares = [interest_share(res, t0) for res in (ideal, overlay)]
    count = min(k for _, k in shares)
    tol = 3 * 50 / math.sqrt(max(count, 1))
    rows.append(common.check("Setting: R1's Interests to P2 (Ideal, Overlay)", "50 % (optimal split, kept)",
                             [round(x, 2) for x, _ in shares],
                             f"±{tol:.2f} points: 3 sigma of a fair coin over {count:.0f} Interests",
                             lambda v: all(abs(x - 50) <= tol for x, _ in shares), "%"))
    worst = float(np.nanmax([queue_share_pct(ideal, link, t0) for link in ideal.links["link"].unique()]))
    rows.append(common.at_most("Shaper_Ideal: largest mean queue of any queue, share of its limit",
                               "router queues small", worst, SMALL_QUEUE_PCT,
                               "the catalog's 'small' (a queue), r3 included", "%"))
    rows.append(common.at_most("Shaper_Ideal: consumer queuing delay", "low Data retrieval delay",
                               consumer_delay_ms(ideal, t0), 2 * TARGET_MS,
                               "2 x target: the shaper's own CoDel queue may hold ~target", "ms"))
    rows.append(common.all_zero("Shaper_Ideal: timeouts / underlay drops", "0 (avoids timeouts)",
                                [_timeouts(ideal), common.link_total(ideal, R3, "drops")], "exact"))
    rows.append(common.at_least("Shaper_Overlay: r3 queuing delay", "high queuing delay", sojourn_ms(overlay, R3, t0),
                                BASE_RTT_MS, "the base RTT: queuing at r3 alone at least doubles the delay", "ms"))
    rows.append(common.at_least("Shaper_Overlay: consumer queuing delay", "high", consumer_delay_ms(overlay, t0),
                                BASE_RTT_MS, "the base RTT", "ms"))
    bursts = timeout_bursts(overlay)
    rows.append(common.check(
        "Shaper_Overlay: timeout bursts start at", f"periodic bursts ({_timeouts(overlay)} T/Os here)",
        [round(b[0], 1) for b in bursts], ">= 3 bursts (> 1 s apart), each shorter than half the shortest gap",
        lambda v: periodic(bursts), "s"))
    # "the maximum consumer throughput will be 5 Mbps": the consumer's, not a link's (the README's
    # reading of the phrase), over the 1 s windows the other rate rows use.
    peak = float(common.rebin(common.consumer_rows(low, "c"), 1.0, "goodput_bps").max() / 1e6)
    rows.append(common.at_most("Shaper_5Mbps: consumer's largest 1 s goodput", "5 Mbit/s (maximum consumer throughput)",
                               peak, 5.0, "the text's maximum", "Mbit/s"))
    rows.append(common.check("Shaper_5Mbps: goodput / Shaper_Ideal's", "predictably lower",
                             _goodput(low) / _goodput(ideal), "0.4 to 0.6: 5 / 10 Mbit/s, ±20 %",
                             lambda v: 0.4 <= v <= 0.6))
    both = [sojourn_ms(pcon, R3, t0), sojourn_ms(ideal, R3, t0)]
    rows.append(common.check("PCON / Shaper_Ideal: r3 queuing delay", "PCON higher", [round(x, 1) for x in both],
                             "PCON's > Ideal's", lambda v: both[0] > both[1], "ms"))
    delay = [consumer_delay_ms(pcon, t0), consumer_delay_ms(ideal, t0)]
    rows.append(common.check("PCON / Shaper_Ideal: consumer queuing delay", "PCON higher",
                             [round(x, 1) for x in delay], "PCON's > Ideal's", lambda v: delay[0] > delay[1], "ms"))
    r3_min = float(common.link_rows(pcon, R3, t0)["queue_packets"].min())
    rows.append(common.above("PCON: r3 queue, smallest in the second half", "not fully drained", r3_min, 0,
                             "never empty at a bin end", "packets"))
    rows.append(common.all_zero("PCON: timeouts / PIT expiries at R1", "0 (completely avoids timeouts)",
                                [_timeouts(pcon), int(pcon.summary.get("nodes", {}).get("r1", {}).get("pit_expired", 0)
                                                      or 0)], "exact: losses come back as Nacks"))
    rows.append(common.at_least("PCON: goodput / Shaper_Ideal's", "controls the rate without knowing the bandwidth",
                                _goodput(pcon) / _goodput(ideal), 0.9, "within 10 % of the shaper told the capacity"))
    rows.append(common.within("PCON: P2's share of Data - 50 %, second half", 0.0, p2_share(pcon, t0) - 50.0,
                              SPLIT_TOL, "converges to the optimal 50 % (pcon-4.4-split's tolerance)", "points"))
    return rows


# ----------------------------------------------------------------------------------- figures


def figures(results: Mapping[str, Any], out_dir: Any) -> List[Path]:
    """figure14.png: per variant (columns) r3's queue, C's RTT, cumulative timeouts and P2's share
    of the Data (rows)."""
    figure, axes = common.figure_grid(4, len(VARIANTS), width=3.6)
    for col, v in enumerate(VARIANTS):
        res = results[v]
        queue = common.link_rows(res, R3)
        axes[0, col].plot(queue["time_s"], queue["queue_packets"], linewidth=1.0, color="C3")
        axes[0, col].set_title(v)
        cons = common.consumer_rows(res, "c")
        rtt = cons[cons["rtt_ms"].notna()]
        common.step(axes[1, col], rtt["time_s"], rtt["rtt_ms"], color="C2")
        common.step(axes[2, col], cons["time_s"], cons["timeouts"].cumsum(), color="C1")
        counts = from_p2(res)
        keys = (counts.index.to_series() / 1.0 + 1e-9).astype(int)
        per_s = counts.groupby(keys.values).sum()
        common.step(axes[3, col], per_s.index, per_s["p2"] / (per_s["p1"] + per_s["p2"]), color="C0")
        axes[3, col].axhline(0.5, color="gray", linestyle="--", linewidth=0.8)
        axes[3, col].set_ylim(0.3, 0.7)
        axes[3, col].set_xlabel("time [s]")
        for ax in axes[:, col]:
            ax.grid(True, alpha=0.3)
        for row in (0, 1, 2):
            axes[row, col].set_ylim(bottom=0)
    axes[0, 0].set_ylabel("queue r3 [pkts]")
    axes[1, 0].set_ylabel("C's RTT [ms]")
    axes[2, 0].set_ylabel("cumulative T/Os")
    axes[3, 0].set_ylabel("split (P2 share of Data)")
    for row in (0, 1, 2):
        top = max(ax.get_ylim()[1] for ax in axes[row])
        for ax in axes[row]:
            ax.set_ylim(0, max(top, 1))
    figure.text(0.01, 0.005, "r3: the underlay queue in front of the 10 Mbit/s hop on P2 -> R1 (250 KB drop-tail). "
                "Split per 1 s; dashed: the optimal 0.5.", fontsize="x-small")
    return common.save_figure(figure, Path(out_dir) / "figure14.png")
