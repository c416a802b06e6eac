"""SMIC §5.2, the tree (Fig. 7a, Fig. 8): one consumer, four replica servers at the leaves of a
2-depth binary tree.

"The root of tree is an access router", the consumer hangs off it, "we have four replication
servers of a single producer ... located at four leaves, and each server has different access
link bandwidth". The bandwidths were in the lost figure; the text fixes two sums: the best path
"3Mbps, the capacity of the best-path", and "8.5Mbps which is the maximum (Optimal) throughput".
The authors' scenario (`ndn-tree-depth2-mic.cc`, SMIC despite its name, and its MPTCP and
single-path siblings, on `topo-tree-depth2.txt`) gives the tree: leaves of 3 and 2 Mbit/s under r1
and 1.5 and 2 Mbit/s under r2, 20 ms each; r0 - r1 and r0 - r2 of 5 Mbit/s, 10 ms; the consumer's
link of 1 Gbit/s, 1 ms; 50-packet queues; 100 s; the single-path consumer with a window and
slow-start threshold of 8. The max flow (`ndnflow.optimum.max_flow`, computed, not written down)
is 8.5 Mbit/s.

The hash: with the paper's, a path id takes the same index at r0 and at r1 or r2, so path ids
reach two of the four leaves, never the crossed ones (docs/protocols/smic.md), and no run could
use more than 3 + 1 Mbit/s. The tree runs `hash = "salted"`, each router's own salt. With salts,
n path ids miss some leaf with probability about 4 x 0.75^n (r1 misses one of its two leaves when
all of its k ids hash alike, 2^(1-k), summed over r0's binomial split; the same for r2): 17 % for
the paper's 11 (seed 3 reaches s2, s3, s4 only), 0.04 % for 32, the pool the tree uses ("using
broad pool of path identifiers could be the solution", §3.3.2).

One consumer per run, same seed (same objects): SMIC, MPTCP LIA over SMIC's sub-flows, single
path (ICP, best route: the 3 Mbit/s leaf, first in FIB order). Text: averages "about 11 seconds,
and those of MPTCP and single-path are about 15.8 and 27 seconds"; "about 2.4 times", "1.7 times",
"1.4 times shorter" (derived: information); the single-path flow "only uses the path of the
highest capacity" and "its throughput is bound at 3Mbps"; SMIC's "throughput reaches 8.5Mbps"; in
Fig. 8(b) "only three links of the best path handle all the traffic volume" for single path,
SMIC and MPTCP "lower the link utilization of the 2nd and 3rd highest links", "the most-utilized
link is the access link". Throughput is the servers' Data into the tree (the four leaf links'
wire bits, 1 s bins), which cache hits at the routers do not inflate.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Dict, List, Mapping

import numpy as np

from ndnflow.experiments import common
from ndnflow.experiments import smic_common as sc
from ndnflow.experiments.common import Row
from ndnflow.optimum import max_flow
from ndnflow.scenario import Scenario

ID = "smic-tree"
TITLE = "One consumer, four replica servers on a binary tree (Fig. 7a, 8): retrieval time, throughput, link stress"
PAPER = sc.PAPER
SECTION = "§5.2, tree topology"
#: The authors' `Simulator::Stop (Seconds (100.0))`.
DURATION = "100s"
SEED = sc.SEED
LEAVES = [("r1", "s1", "3Mbps", "20ms"), ("r1", "s2", "2Mbps", "20ms"), ("r2", "s3", "1.5Mbps", "20ms"),
          ("r2", "s4", "2Mbps", "20ms")]
LINKS = [("c", "r0", "1Gbps", "1ms"), ("r0", "r1", "5Mbps", "10ms"), ("r0", "r2", "5Mbps", "10ms"), *LEAVES]
SERVER_LINKS = [f"{server}->{router}" for router, server, *_ in LEAVES]
VARIANTS = ("SMIC", "MPTCP LIA", "single")
PAPER_MEAN_S = {"SMIC": 11.0, "MPTCP LIA": 15.8, "single": 27.0}
#: §5.2: how many times shorter the first's retrieval time is than the second's.
PAPER_TIMES = (("single", "SMIC", 2.4), ("single", "MPTCP LIA", 1.7), ("MPTCP LIA", "SMIC", 1.4))
BEST_PATH_MBPS = 3.0
REACHES = 0.9  # "reaches X": the best 1 s rate at least 90 % of X
ABOUT_RATE = sc.ABOUT_RATE
ACCESS = "c-r0"
BEST_PATH = [ACCESS, "r0-r1", "r1-s1"]
#: A link "handles traffic" when it carries at least 1 % of the run's link bytes. Chosen after a run
#: showed best-route sending a few retransmissions to the other next hop (NFD's best-route retries
#: an unused upstream), 0.04 % of the bytes: docs/experiments/smic.md.
CARRIES = 0.01
#: "Convergence": the end of the first 1 s bin in which the servers' rate reaches 90 % of its median
#: 1 s rate over the run (the rate it settles at). Added after the first runs (docs/experiments/smic.md).
SETTLED = 0.9
#: Within 1 s with some seeds only (SMIC 10.8 s with seed 1, 12.4 with seeds 2-4; MPTCP 13.0 with
#: seed 1, 14.9-15.6 with seeds 2-4): docs/experiments/smic.md.
SEED_SENSITIVE = ("SMIC: average retrieval time", "MPTCP LIA: average retrieval time")
INFO_ROWS = tuple(f"{slow} / {fast} retrieval time" for slow, fast, _ in PAPER_TIMES) + (
    "optimum (max flow to c)", "first object's retrieval time (SMIC, MPTCP, single)")


def topology(controller: str) -> sc.Topology:
    return sc.Topology(LINKS, [server for _, server, *_ in LEAVES], [("c", controller)])


#: Path ids per multi-path consumer: see the module's comment.
POOL = 32
CC: Dict[str, Dict[str, Any]] = {v: {**sc.CONTROLLERS[v], "path_ids": POOL} for v in ("SMIC", "MPTCP LIA")}
#: The authors' single-path consumer: `Window "8"`, `Ssth "8"`.
CC["single"] = {**sc.SINGLE, "initial_window": 8, "initial_ssthresh": 8}


def scenarios(duration: Any = DURATION, seed: int = SEED) -> Dict[str, Scenario]:
    return {v: topology(v).scenario(duration, seed, hash="salted", cc=CC) for v in VARIANTS}


def optimum_mbps() -> float:
    return max_flow(topology("single").scenario("1s", SEED, hash="salted"), "c").value_bps / 1e6


def server_mbps(res: Any) -> Any:
    """The four servers' Data into the tree, Mbit/s per 1 s bin."""
    frame = res.links[res.links["link"].isin(SERVER_LINKS)]
    return frame.groupby("time_s")["throughput_bps"].sum() / 1e6


def convergence_s(res: Any) -> float:
    """When the servers' rate first reaches `SETTLED` of its median 1 s rate (end of that bin)."""
    rate = server_mbps(res)
    reached = rate.index[rate >= SETTLED * rate.median()]
    return float(reached[0]) + 1.0 if len(reached) else float("nan")


def convergence_rows(results: Mapping[str, Any]) -> List[Row]:
    """"MPTCP flow shows slow convergence time due to conservative window increase. SMIC flow shows
    fast convergence time which is similar to the single-path flow" (§5.2, Fig. 8c); with the first
    object's retrieval time beside them, the one object whose windows start from 1."""
    conv = {v: convergence_s(results[v]) for v in VARIANTS}
    first = [float(sc.completed(results[v], "c")["took_s"].iloc[0]) if len(sc.completed(results[v], "c"))
             else float("nan") for v in VARIANTS]
    return [common.check("convergence (SMIC, MPTCP)", "MPTCP slower", [conv["SMIC"], conv["MPTCP LIA"]],
                         "MPTCP's later", lambda v: v[1] > v[0], "s"),
            sc.alike_row("convergence (SMIC, single)", "similar", [conv["SMIC"], conv["single"]]),
            Row("first object's retrieval time (SMIC, MPTCP, single)", "-", first,
                "the object fetched while the windows grow from 1", True, "s")]


def metrics(results: Mapping[str, Any]) -> List[Row]:
    means = {v: sc.mean_time(results[v], "c") for v in VARIANTS}
    rows = [sc.about_s(f"{v}: average retrieval time", PAPER_MEAN_S[v], means[v]) for v in VARIANTS]
    for slow, fast, paper in PAPER_TIMES:
        rows.append(common.within(f"{slow} / {fast} retrieval time", paper, means[slow] / means[fast], 0.1 * paper,
                                  "derived from the averages above", "x"))
    rows.append(common.check("SMIC < MPTCP < single (average retrieval time)", "SMIC < MPTCP < single",
                             [means[v] for v in VARIANTS], "strictly in this order", lambda v: v[0] < v[1] < v[2], "s"))
    best = optimum_mbps()
    rows.append(common.within("optimum (max flow to c)", 8.5, best, 0.0, "3 + 2.5 + 2 + 1 Mbit/s leaves", "Mbit/s"))
    rows.append(common.at_least("SMIC: best 1 s rate from the servers", f"{best:g} Mbit/s (optimum)",
                                float(server_mbps(results["SMIC"]).max()), REACHES * best, "'reaches X'", "Mbit/s"))
    single = results["single"]
    rows.append(common.within("single: median 1 s rate from the servers", BEST_PATH_MBPS,
                              float(server_mbps(single).median()), ABOUT_RATE * BEST_PATH_MBPS,
                              "'bound at' the best path's rate: about X", "Mbit/s"))
    rows += convergence_rows(results)
    shares = {v: sc.link_shares(results[v]) for v in VARIANTS}
    carrying = [link for link, s in shares["single"].items() if s >= CARRIES]
    rows.append(common.check("single: links carrying >= 1 % of the traffic (all, on the best path)",
                             "3 (the best path's)", [len(carrying), len(set(carrying) & set(BEST_PATH))],
                             "3 and 3: c-r0, r0-r1, r1-s1 alone", lambda v: v == [3, 3]))
    for v in ("SMIC", "MPTCP LIA"):
        others = max(share for link, share in shares[v].items() if link != ACCESS)
        rows.append(common.check(f"{v}: share of c-r0, of the most loaded other link", "c-r0 the most loaded",
                                 [shares[v].get(ACCESS, 0.0), others], "c-r0's above", lambda s: s[0] > s[1],
                                 "share"))
        mine, single_stress = sc.link_stress(results[v]), sc.link_stress(single)
        rows.append(common.check(f"{v}: 2nd and 3rd link shares (single's)", "lower than single's",
                                 [*mine[1:3], *single_stress[1:3]], "both below single's",
                                 lambda s: s[0] < s[2] and s[1] < s[3], "share"))
    return rows


def figures(results: Mapping[str, Any], out_dir: Any) -> List[Path]:
    """figure8.png: (a) average and maximum retrieval times; (b) the link-stress CDF; (c) the
    servers' rate over the first 100 s against the optimum."""
    figure, axes = common.figure_grid(1, 3, width=4.2, height=3.0)
    times, cdf, rate = axes[0]
    for k, v in enumerate(VARIANTS):
        res = results[v]
        times.bar(k, sc.mean_time(res, "c"), color=f"C{k}")
        times.plot(k, sc.max_time(res, "c"), "k_", markersize=20)
        stress = sc.link_stress(res)
        cdf.step(np.arange(1, len(stress) + 1), np.cumsum(stress), where="post", color=f"C{k}", label=v)
        series = server_mbps(res)
        series = series[series.index < 100.0]
        common.step(rate, series.index, series, color=f"C{k}", label=v)
    rate.axhline(optimum_mbps(), color="0.5", linestyle=":", label="optimum")
    times.set_xticks(range(len(VARIANTS)))
    times.set_xticklabels(VARIANTS, fontsize="small")
    times.set_ylabel("retrieval time [s]")
    times.set_title("bars: average, -: maximum", fontsize="small")
    cdf.set_xlabel("links, most loaded first")
    cdf.set_ylabel("CDF of link stress")
    rate.set_xlabel("time [s]")
    rate.set_ylabel("from the servers [Mbit/s]")
    for ax in (cdf, rate):
        ax.legend(fontsize="x-small")
    for ax in (times, cdf, rate):
        ax.grid(True, alpha=0.3)
    return common.save_figure(figure, Path(out_dir) / "figure8.png")
