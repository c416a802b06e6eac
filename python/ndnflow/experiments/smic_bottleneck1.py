"""SMIC §5.1, bottleneck topology 1 (Fig. 4a, Fig. 5): three SMIC flows and a single-path flow
share one bottleneck.

"In bottleneck topology 1, three SMIC flows share a bottleneck with a single-path flow. Each
consumer requests content objects through an access router." Fig. 4(a) is lost; the authors'
scenario (`ndn-bottleneck.cc` on `topo-bottleneck.txt`) gives each consumer its own access router
acc1..acc4, which all join bot, and bot - p is the bottleneck to the one producer; every link
10 Mbit/s, 10 ms, 50 packets; 1000 s. Every SMIC consumer has a single path, so its path ids all
return one trajectory and merge into one sub-flow: the run checks that SMIC on one path is as
friendly as ICP.

Text: "multiple SMIC flows have throughput-friendliness with a single-path flow overall even
though there are slight differences in their performance metrics. The differences come from a
caching effect"; "when timeouts occur, both SMIC and ICP decrease their window size in half".
Checks: the four average retrieval times and the four goodputs "similar" (largest at most 1.25 x
the smallest, the catalog's reading). Information: each flow's window after a timeout over the
window before (both controllers halve by construction, so the row cannot fail), and the shared
router bot's cache hit ratio.

Fig. 5(a), "SMIC-2 and SMIC-3 experience more cache hits than Single and SMIC-1", read before any
run (issue 20): a consumer's hit ratio is the Data a Content Store answered over the Data it
received (the summary's ``data_from_cache`` / ``data_received``; the consumers' nodes have no
store, so every such answer is a router's); the check passes when SMIC-2's and SMIC-3's
ratios are each strictly above both Single's and SMIC-1's. Judged, as every check, on the median of
seeds 1-4 (the median of each consumer's ratio, the rule then applied to the four medians).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Dict, List, Mapping

from ndnflow.experiments import common
from ndnflow.experiments import smic_common as sc
from ndnflow.experiments.common import Row
from ndnflow.scenario import Scenario

ID = "smic-bottleneck1"
TITLE = "Three SMIC flows and a single-path flow at one bottleneck (Fig. 4a, 5): friendliness"
PAPER = sc.PAPER
SECTION = "§5.1, bottleneck topology 1"
DURATION = "1000s"
SEED = sc.SEED
VARIANT = "SMIC x3 + single"
CONSUMERS = ("smic1", "smic2", "smic3", "single")
ACCESS = [(c, f"acc{i}", "10Mbps") for i, c in enumerate(CONSUMERS, 1)]
TOPOLOGY = sc.Topology(ACCESS + [(acc, "bot", "10Mbps") for _, acc, _ in ACCESS] + [("bot", "p", "10Mbps")],
                       ["p"], [(c, "SMIC" if c.startswith("smic") else "single") for c in CONSUMERS])
#: Window traces need bins shorter than an RTT's growth; 100 ms is under the ~104 ms RTT at a
#: full 50-packet queue (6 x 10 ms + 50 x 0.88 ms).
BIN = "100ms"
#: "decrease their window size in half": 0.5, within 0.1 for the bin's growth after the halving
#: (at most +1 per window per RTT) and a second timeout in the same bin.
HALF_TOL = 0.1
#: The halving rows restate how both controllers are built (Algorithm 1 and ICP halve on a
#: timeout): they cannot fail under the configured settings, so they are information.
INFO_ROWS = ("bot's cache hit ratio",) + tuple(
    f"{c}: window after a timeout / before" for c in CONSUMERS)
#: Its verdict differs between seeds (passes with seed 2 and on the median only, since the
#: authors' settings; before them the times and goodputs moved with the seed): what one seed
#: says is not the row's judgement.
SEED_SENSITIVE = ("hit ratio per consumer (smic1-3, single)",)


def scenarios(duration: Any = DURATION, seed: int = SEED) -> Dict[str, Scenario]:
    return {VARIANT: TOPOLOGY.scenario(duration, seed, bin=BIN)}


def hit_ratio(res: Any, node: str = "bot") -> float:
    stats = res.summary.get("nodes", {}).get(node, {})
    hits, misses = int(stats.get("cs_hits", 0) or 0), int(stats.get("cs_misses", 0) or 0)
    return hits / (hits + misses) if hits + misses else float("nan")


def consumer_hit_ratio(res: Any, consumer: str) -> float:
    """Fig. 5(a)'s hit ratio of one consumer: Data a store answered / Data received."""
    stats = res.summary.get("consumers", {}).get(consumer, {})
    received, cached = int(stats.get("data_received", 0) or 0), int(stats.get("data_from_cache", 0) or 0)
    return cached / received if received else float("nan")


def more_hits_row(res: Any) -> Row:
    """"SMIC-2 and SMIC-3 experience more cache hits than Single and SMIC-1" (the docstring's
    reading), values in `CONSUMERS` order."""
    ratios = [consumer_hit_ratio(res, c) for c in CONSUMERS]

    def more(v: List[float]) -> bool:
        return min(v[1], v[2]) > max(v[0], v[3])

    return common.check("hit ratio per consumer (smic1-3, single)", "SMIC-2, -3 more than single, SMIC-1",
                        ratios, "smic2, smic3 each > smic1, single: Data from a store / Data received", more)


def metrics(results: Mapping[str, Any]) -> List[Row]:
    res = results[VARIANT]
    times = [sc.mean_time(res, c) for c in CONSUMERS]
    goodputs = [common.mean_goodput_bps(res, c) / 1e6 for c in CONSUMERS]
    rows = [sc.alike_row("average retrieval time (smic1-3, single)", "similar (slight differences)", times),
            sc.alike_row("goodput (smic1-3, single)", "shared fairly", goodputs, "Mbit/s")]
    for consumer in CONSUMERS:
        rows.append(common.within(f"{consumer}: window after a timeout / before", 0.5,
                                  sc.halving_ratio(res, consumer), HALF_TOL,
                                  "median over timeouts; the bin's growth after the halving"))
    rows.append(Row("bot's cache hit ratio", "SMIC-2, -3 more than single, SMIC-1", hit_ratio(res),
                    "a setting's outcome: the shared router bot's, all consumers together (each one's: next row)",
                    True))
    rows.append(more_hits_row(res))
    return rows


def figures(results: Mapping[str, Any], out_dir: Any) -> List[Path]:
    """figure5.png: (a) each consumer's average retrieval time; (b) the windows over the first
    60 s, as Fig. 5(b) draws them from a common start."""
    res = results[VARIANT]
    figure, axes = common.figure_grid(1, 2, width=5.0, height=3.0)
    bars, lines = axes[0, 0], axes[0, 1]
    bars.bar(range(len(CONSUMERS)), [sc.mean_time(res, c) for c in CONSUMERS], color=["C0", "C0", "C0", "C3"])
    bars.set_xticks(range(len(CONSUMERS)))
    bars.set_xticklabels(CONSUMERS)
    bars.set_ylabel("average retrieval time [s]")
    bars.set_title(f"(a) router hit ratio {hit_ratio(res):.2f}", fontsize="small")
    for k, consumer in enumerate(CONSUMERS):
        rows = sc.windows(res, consumer)
        rows = rows[rows["time_s"] < 60.0]
        common.step(lines, rows["time_s"], rows["window"], color=f"C{k}", label=consumer)
    lines.set_xlabel("time [s]")
    lines.set_ylabel("window [packets]")
    lines.set_title("(b) congestion windows", fontsize="small")
    lines.legend(fontsize="x-small")
    for ax in (bars, lines):
        ax.grid(True, alpha=0.3)
    return common.save_figure(figure, Path(out_dir) / "figure5.png")
