"""What the survey experiments share (Thibaud et al., "An Analysis of NDN Congestion Control
Challenges"): the consumers, strategies and queues of §III-IV, the Fig. 1 topology of Sce1 and
Sce2, and the per-phase, per-path rates their tables report.

Every parameter's source or our reason: docs/experiments/survey-sce1.md ("Parameters").
"""

from __future__ import annotations

import math
from typing import Any, Dict, Optional, Tuple

from ndnflow.experiments import common
from ndnflow.scenario import Scenario

PAPER = "Thibaud et al., An Analysis of NDN Congestion Control Challenges"
SEED = 1
BIN = "100ms"
BIN_S = 0.1

#: §III-A: "the producers use chunks of 8400B".
CHUNK = 8400
#: §III-A: "The size of A and B is 400MB": 400e6 / 8400 = 47619 segments (399 999 600 bytes).
SEGMENTS = 400_000_000 // CHUNK
#: §III-A: "All the queues have a size of 120 layer-2 packets of 1500B. It represents 21 full data
#: packets of 8400B": the survey ran ndnSIM, whose faces fragment every packet larger than the
#: link's MTU into NDNLPv2 frames (ndnSIM's StackHelper turns fragmentation on; the face MTU is the
#: ns-3 point-to-point device's, 1500 B), and whose queues are ns-3 device queues counting those
#: frames. So every link has an MTU of 1500 B and every queue holds 120 frames: an 8400-byte Data
#: is six frames (five of 1462 B and one of 1290 B: 8600 B on the wire), 20 Data fill a queue, and a full queue drops
#: frames, i.e. parts of several Data (docs/experiments/survey-sce1.md). Every queue marks as PCON-FS's routers do (§II-B: CoDel's
#: sojourn time, marks instead of drops; PCON §3.2's marking interval of 110 ms), since PCON-CS
#: reacts to R3's marks with BR as well (§IV: "In PCON-CS, R3 marks Data packets before the queue
#: is completely full"); ICP ignores marks. A CoDel mark queue rather than `discipline = "pcon"`:
#: the survey describes no highly congested state (PCON §3.6), whose disabled faces would change
#: PCON-FS under ICP's losses.
QUEUE: Dict[str, Any] = {"discipline": "codel", "mode": "mark", "mark_interval": "110ms", "packets": 120}
MTU = 1500

#: ICP (§II-B, §IV): +1 per RTT, halved on a timeout, RFC 6298 timer ("we choose to use the
#: classical computation, described in the RFC 6298"). One decrease per loss burst: §IV (Sce2)
#: says of R3's burst losses that "only one window decrease is triggered on U1. Both U1 and U2
#: reduce their respective congestion window by two, independently of the number of losses
#: detected". A burst here is noticed by timeouts over 2-3 RTTs (the RTO floor is 200 ms, about
#: three base RTTs), so the gate must span two RTTs after a decrease: `rtt_suppress = 1`. ndnSIM
#: ConsumerPcon's default, 0.5, halves U1 twice per burst in these scenarios (survey-sce1.md
#: shows 0, 0.5 and 1).
RTT_SUPPRESS = 1.0
ICP: Dict[str, Any] = {"algorithm": "icp", "rto": "rfc6298", "rtt_suppress": RTT_SUPPRESS}
#: PCON-CS (§II-B): "the same behavior as ICP: a congestion avoidance phase and the RTO computation
#: from RFC 6298. In addition, a marked Data is considered as a congestion notification and
#: triggers a multiplicative decrease." The `pcon` consumer (a decrease per mark, CWA for losses)
#: made AIMD: no slow start (ssthresh 1), never BIC (low_window above any window), halving.
PCON_CS: Dict[str, Any] = {"algorithm": "pcon", "initial_ssthresh": 1, "low_window": 1_000_000, "beta": 0.5,
                           "rtt_suppress": RTT_SUPPRESS}
CONSUMERS: Dict[str, Dict[str, Any]] = {"ICP": ICP, "PCON-CS": PCON_CS}

#: §II: BR, FPF, PCON-FS (PCON's strategy; "at most 3% by mark", §IV), DRF.
STRATEGIES: Dict[str, Any] = {
    "BR": "best-route",
    "FPF": "fpf",
    "PCON-FS": {"name": "pcon", "change_perc": 0.03},
    "DRF": "drf",
}

#: Fig. 1 (lost), reconstructed from Fig. 3's numbers (docs page): 10 ms links ("7 Interests and
#: 7 Data transiting on each links" at 50 Mbit/s: 7 x 1.344 ms < 10 ms < 8 x 1.344 ms), two
#: 50 Mbit/s paths R1-R3-PA1 and R1-R2-PA2 ("the maximal rate of 100Mbps allowed by the
#: topology"; "the 50Mbps available" on the second path), 100 Mbit/s elsewhere.
DELAY = "10ms"
#: Sce2's flow B: U2's access link and PB's link (Fig. 1, lost). The text gives no delay, only that
#: "the end-to-end delay of the U1 flow is smaller than the U2 one and U1 increases his window
#: faster than U2", and it puts BR/ICP's coexistence rates at 32.4 and 12.1 Mbit/s after burst
#: losses in which "Both U1 and U2 reduce their respective congestion window by two". Two AIMD
#: flows halving together share in the inverse square of their RTTs, so 32.4 / 12.1 = 2.68 asks
#: for U2's RTT to be 1.64 x U1's: with ~10 ms of queue in both and U1's 60 ms of base RTT, about
#: 105 ms of base RTT for U2, 16 ms on each of B's own two links (U2 - R2, R3 - PB). We take the
#: round 15 ms (100 ms: (110 / 70)^2 = 2.5); measured 2.67, where 10 ms gives 1.76
#: (docs/experiments/survey-sce2.md).
B_EDGE_DELAY = "15ms"
PATH_BW = "50Mbps"
EDGE_BW = "100Mbps"
PATH_MBPS = 50.0
#: Link directions that carry flow A's Data on each path (R3 and R2 are the bottleneck queues).
PATH1, PATH2 = "r3->r1", "r2->r1"


def variant(cc: str, fs: str) -> str:
    return f"{cc}_{fs}"


def fig1(strategy: Any, cc: Dict[str, Any], *, with_b: bool = False, duration: Any = "300s",
         seed: int = SEED, segments: int = SEGMENTS, b_start: str = "10s") -> Scenario:
    """Fig. 1: U1 - R1, R1 - R3 - PA1 (path 1), R1 - R2 - PA2 (path 2); with `with_b`, U2 - R2 and
    PB behind R3, U2's Interests going U2 - R2 - R1 - R3 - PB (Sce2)."""
    sc = Scenario(duration=duration, seed=seed, bin=BIN, routing="none")
    nodes = ["u1", "r1", "r2", "r3", "pa1", "pa2"] + (["u2", "pb"] if with_b else [])
    for n in nodes:
        sc.node(n, strategy=strategy)
    sc.link("u1", "r1", bandwidth=EDGE_BW, delay=DELAY, queue=QUEUE, mtu=MTU)
    sc.link("r1", "r3", bandwidth=PATH_BW, delay=DELAY, queue=QUEUE, mtu=MTU)  # first: R3 is R1's first next hop
    sc.link("r1", "r2", bandwidth=PATH_BW, delay=DELAY, queue=QUEUE, mtu=MTU)
    sc.link("r3", "pa1", bandwidth=EDGE_BW, delay=DELAY, queue=QUEUE, mtu=MTU)
    sc.link("r2", "pa2", bandwidth=EDGE_BW, delay=DELAY, queue=QUEUE, mtu=MTU)
    for node, hop in (("u1", "r1"), ("r1", "r3"), ("r1", "r2"), ("r3", "pa1"), ("r2", "pa2")):
        sc.route(node, "/A", hop)
    sc.producer("pa1", "/A", payload=CHUNK)
    sc.producer("pa2", "/A", payload=CHUNK)
    sc.consumer("u1", "/A/file", cc=cc, segments=segments)
    if with_b:
        sc.link("u2", "r2", bandwidth=EDGE_BW, delay=B_EDGE_DELAY, queue=QUEUE, mtu=MTU)
        sc.link("r3", "pb", bandwidth=EDGE_BW, delay=B_EDGE_DELAY, queue=QUEUE, mtu=MTU)
        for node, hop in (("u2", "r2"), ("r2", "r1"), ("r1", "r3"), ("r3", "pb")):
            sc.route(node, "/B", hop)
        sc.producer("pb", "/B", payload=CHUNK)
        sc.consumer("u2", "/B/file", cc=cc, segments=segments, start=b_start)
    return sc


# ------------------------------------------------------------------------------ measurements


def mbps(res: Any, consumer: str) -> float:
    """A consumer's mean rate over its download: file bytes / (end - start) (summary goodput)."""
    value = common.consumer_total(res, consumer, "goodput_bps")
    return float(value) / 1e6 if value is not None else math.nan


def end_s(res: Any, consumer: str) -> float:
    value = common.consumer_total(res, consumer, "end_s")
    return float(value) if value is not None else math.nan


def goodput_mbps(res: Any, consumer: str, start_s: float, stop_s: float) -> float:
    """Mean goodput over the 100 ms bins in [start_s, stop_s). The run's last bin is cut short
    where the last consumer finishes (a few microseconds, one Data: Gbit/s as a rate); it is not a
    100 ms bin and is left out."""
    if not stop_s > start_s:
        return math.nan
    run_end = res.summary.get("simulation", {}).get("end_s")
    if run_end is not None:
        stop_s = min(stop_s, float(run_end) - BIN_S + 1e-9)
    return common.mean_goodput_bps(res, consumer, start_s, stop_s) / 1e6


def data_mbps(res: Any, link: str, start_s: float, stop_s: float) -> float:
    """Payload rate of the Data a link direction carried in [start_s, stop_s): Data x CHUNK bytes."""
    if not stop_s > start_s:
        return math.nan
    rows = common.link_rows(res, link, start_s, stop_s)
    return float(rows["data"].sum()) * CHUNK * 8 / (stop_s - start_s) / 1e6


def path2_share(res: Any) -> float:
    """Share (percent) of flow A's Data that came over path 2 (R2 -> R1), whole run."""
    one, two = common.link_total(res, PATH1, "data"), common.link_total(res, PATH2, "data")
    return 100.0 * two / (one + two) if one + two else math.nan


def max_rate_mbps(frame: Any, column: str, width_s: float = 1.0, scale: float = 1e-6) -> float:
    """Largest mean of `column` over consecutive windows of `width_s` (e.g. a path's 1 s rate)."""
    if not len(frame):
        return math.nan
    return float(common.rebin(frame, width_s, column).max()) * scale


def first_drop_s(res: Any, link: str) -> Optional[float]:
    """Start of the first bin in which `link` dropped a packet, None if it never did."""
    rows = common.link_rows(res, link)
    rows = rows[rows["drops"] > 0]
    return float(rows["time_s"].min()) if len(rows) else None


def value_at(res: Any, consumer: str, time_s: float, column: str) -> float:
    rows = common.consumer_rows(res, consumer)
    rows = rows[(rows["time_s"] - time_s).abs() < 1e-9]
    return float(rows[column].iloc[0]) if len(rows) else math.nan


def relative(metric: str, paper: float, measured: float, tol: float, unit: str = "Mbit/s",
             why: str = "the brief's aim for rates") -> common.Row:
    return common.check(metric, f"{common.fmt(paper)} {unit}".strip(), measured,
                        f"±{100 * tol:.0f} % relative: {why}", lambda v: abs(v - paper) <= tol * paper, unit)


def phases(res: Any, first: str = "u1", second: str = "u2", b_start: float = 10.0) -> Dict[str, Tuple[float, float]]:
    """Sce2's three phases: U1 only [0, 10 s), both [10 s, U1's end), U2 only [U1's end, U2's end)."""
    e1, e2 = end_s(res, first), end_s(res, second)
    return {"U1 only": (0.0, b_start), "U1 & U2": (b_start, min(e1, e2)), "U2 only": (e1, e2)}
