"""PTP §6-E, Scenario 4: cache support (Figures 21-23).

"In the first 20s, consumer #5 downloads content from producer #4. Note that consumer #5 only
download 2000 Data packets [...]. Half of the 2000 Data packets (randomly selected) are cached in
node #3. After 20s, consumer #5 is stopped, and consumer #1 starts to download content from #4.
The bottleneck [...] is 1Mbps (5-3) if cache is not available. In the case that the content is
fully cached in #3, the bottleneck between #1 and #3 is 2Mbps (3-2)." and "After the 1000 cached
Data packets are downloaded, the usable bandwidth is dropped to 1Mbps (4-3)".

We read the figure as the line 1-2-3-4 with #5 on #3: 3-2 at 2 Mbit/s, 4-3 at 1 Mbit/s, the
others 10 Mbit/s. #3's store admits each Data with probability 0.5 (`cs.admit`). Phase 1 runs
from #1's start (20 s) plus one second of ramp to the bin in which #1 has 2000 Data; phase 2 from
two seconds after that to the end. Rates are link bits per second.

Checks (each within five points of its bottleneck's bandwidth, as the utilization rows): #1's
rate in phase 1 (1.9 Mbit/s), split into 0.9 from the cache and 1 from the producer, #1's rate in
phase 2 (1 Mbit/s), and its Interest rate in phase 2 matching the Data that come back.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any, Dict, List, Mapping, Tuple

from ndnflow.experiments import common
from ndnflow.experiments import ptp_common as pc
from ndnflow.experiments.common import Row
from ndnflow.scenario import Scenario

ID = "ptp-s4"
TITLE = "Cache support (Figures 21-23): a half-cached object, then the producer alone"
PAPER = pc.PAPER
SECTION = "§6-E, Scenario 4"
DURATION = "50s"
SEED = pc.SEED
#: Checks whose verdict changes over seeds 1-4, or whose value moves more than its tolerance band (--seeds 1-4):
#: judged on their median, docs/experiments/ptp.md.
SEED_SENSITIVE = ("#1's rate while half the object is cached", "of which from #3's cache")
START_S = 20.0
CACHED = 2000  # segments #5 fetches; half of them stay in #3's store
RAMP_S, SETTLE_S = 1.0, 2.0
LINKS = [("n1", "n2", "10Mbps", "10ms"), ("n2", "n3", "2Mbps", "10ms"), ("n3", "n4", "1Mbps", "10ms"),
         ("n3", "n5", "10Mbps", "10ms")]
TOPOLOGY = pc.Topology(LINKS, [("n4", pc.PREFIX)],
                       [{"node": "n5", "name": f"{pc.PREFIX}/obj", "segments": CACHED},
                        {"node": "n1", "name": f"{pc.PREFIX}/obj", "start": f"{START_S:g}s"}])
CACHE_NODE = {"n3": {"cs": {"policy": "lru", "capacity": 10000, "admit": 0.5}}}


def scenarios(duration: Any = DURATION, seed: int = SEED) -> Dict[str, Scenario]:
    return {"PTP": TOPOLOGY.scenario("PTP", duration, seed, node_extra=CACHE_NODE)}


def phases(res: Any) -> Tuple[Tuple[float, float], Tuple[float, float]]:
    """(phase 1, phase 2) as [start, end) in seconds; phase 2 is empty if #1 never got 2000 Data."""
    rows = common.consumer_rows(res, "n1")
    done = rows[rows["data"].cumsum() >= CACHED]
    t = float(done["time_s"].iloc[0]) if len(done) else math.inf
    return (START_S + RAMP_S, t), (t + SETTLE_S, math.inf)


def mbps(res: Any, link: str, window: Tuple[float, float], column: str = "throughput_bps") -> float:
    rows = common.link_rows(res, link, *window)
    return float(rows[column].mean()) / 1e6 if len(rows) else math.nan


def metrics(results: Mapping[str, Any]) -> List[Row]:
    res = results["PTP"]
    one, two = phases(res)
    total, producer = mbps(res, "n2->n1", one), mbps(res, "n4->n3", one)
    bin_s = float(res.links["time_s"].drop_duplicates().diff().min())
    asked = mbps(res, "n1->n2", two, "interests") * 1e6 / bin_s
    came = mbps(res, "n2->n1", two, "data") * 1e6 / bin_s
    why2, why1 = "5 % of the 2 Mbit/s bottleneck 3-2", "5 % of the 1 Mbit/s bottleneck 4-3"
    return [
        common.within("#1's rate while half the object is cached", 1.9, total, 0.1, why2, "Mbit/s"),
        common.within("of which from #3's cache", 0.9, total - producer, 0.1, why2, "Mbit/s"),
        common.within("of which from producer #4", 1.0, producer, 0.05, why1, "Mbit/s"),
        common.within("#1's rate once the cached part is fetched", 1.0, mbps(res, "n2->n1", two), 0.05, why1,
                      "Mbit/s"),
        common.check("#1's Interest rate then / its Data rate", "'reduced to the suitable value'", asked / came,
                     "within 5 %", lambda x: abs(x - 1.0) <= 0.05),
    ]


def figures(results: Mapping[str, Any], out_dir: Any) -> List[Path]:
    """figure22_23.png: #1's Interest rate (Figure 22) and Data rate, from the cache and from the
    producer (Figure 23), 1 s bins."""
    res = results["PTP"]
    figure, axes = common.figure_grid(2, 1, width=7.0, height=2.4)
    interests = common.rebin(common.link_rows(res, "n1->n2"), 1.0, "interests", "sum")
    common.step(axes[0, 0], interests.index, interests, color="C0", label="#1's Interests")
    axes[0, 0].set_ylabel("Interests / s")
    total = common.rebin(common.link_rows(res, "n2->n1"), 1.0, "throughput_bps") / 1e6
    producer = common.rebin(common.link_rows(res, "n4->n3"), 1.0, "throughput_bps") / 1e6
    common.step(axes[1, 0], total.index, total, color="C0", label="to #1 (2-1)")
    common.step(axes[1, 0], producer.index, producer, color="C1", label="from producer #4 (4-3)")
    axes[1, 0].set_ylabel("rate [Mbit/s]")
    axes[1, 0].set_xlabel("time [s]")
    for ax in axes[:, 0]:
        for t in (START_S, phases(res)[1][0] - SETTLE_S):
            if math.isfinite(t):
                ax.axvline(t, color="gray", linestyle=":", linewidth=0.8)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize="x-small")
    return [*common.save_figure(figure, Path(out_dir) / "figure22_23.png"),
            *pc.paths_figure([("PTP, #1", res, "n1")], Path(out_dir) / "paths.png")]
