"""SMIC §5.3, competition (Fig. 7b, Fig. 9): one multi-path flow against k single-path flows, one
on each of its k paths, k = 2..5.

"A SMIC consumer requests content objects through multiple paths, while each single-path consumer
requests through a single path. There is only one producer ... each subflow of the SMIC consumer
competes for the bottleneck bandwidth with a single-path flow. Propagation delays and link
bandwidths between consumers and the producer are equal for all the links." Fig. 7(b) is lost;
the authors' scenarios (`ndn-disjoint-smic-2/-3/-4.cc`, `ndn-disjoint-smic.cc` for k = 5, on
`topo-disjoint*.txt`) give it: the multi-path consumer m links to each of r1..rk, single-path
consumer si hangs off ri, ri - p is path i's bottleneck; every link 10 Mbit/s, 10 ms, a drop-tail
queue of 10 packets; 500 s; the single-path consumers' slow-start threshold k ("Ssth").

The paper's hash at m sends path ids 0..10 to every one of 2, 3 or 4 next hops, but to only 4 of 5
(index 4 first comes at path id 17, docs/experiments/smic.md); at k = 5 the pool is 0..17, the
paper's remedy ("using broad pool of path identifiers could be the solution", §3.3.2).

Runs: SMIC, MPTCP LIA and MPTCP OLIA, each with its k single-path flows (ICP), same seed. Text:
"When the number of paths is two, only the SMIC flow shows outstanding content retrieval time of
16.4 seconds. Others show similar content retrieval times, about 24 seconds in average. It means
the SMIC flow achieves about 46% faster content retrieval than the single-path flows. However,
the LIA and OLIA flows achieve almost the similar performance to the single-path flows"; "As the
number of paths increases, LIA and OLIA show performance improvements. However, SMIC shows the
higher performance gain than LIA and OLIA (50%, 90%, 102% faster content retrieval for 3, 4, and 5
path cases". "X % faster" is `smic_common.faster_percent` (slower / faster - 1, fixed from the
46 % before any run), a multi-path flow against the single-path flows of its own run.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Dict, List, Mapping, Tuple

from ndnflow.experiments import common
from ndnflow.experiments import smic_common as sc
from ndnflow.experiments.common import Row
from ndnflow.scenario import Scenario

ID = "smic-competition"
TITLE = "One multi-path flow against k single-path flows, k = 2..5 (Fig. 7b, 9): retrieval times"
PAPER = sc.PAPER
SECTION = "§5.3, competition topology"
#: The authors' `Simulator::Stop (Seconds (500.0))`.
DURATION = "500s"
SEED = sc.SEED
PATHS = (2, 3, 4, 5)
MULTI = ("SMIC", "MPTCP LIA", "MPTCP OLIA")
PATH_MBPS = 10
#: `topo-disjoint*.txt`: "10Mbps 1 10ms 10", a queue of 10 packets on every link.
QUEUE_PACKETS = 10
#: The smallest pool 0..n-1 whose paper hashes reach every one of k next hops, where the default
#: eleven do not (k = 5: index 4 first at path id 17).
POOL = {5: 18}
PAPER_SMIC_S, PAPER_OTHERS_S = 16.4, 24.0
PAPER_FASTER = {2: 46.0, 3: 50.0, 4: 90.0, 5: 102.0}
#: k = 2's 46 % is the text's own 24 / 16.4 - 1, derived from the two times checked above it.
INFO_ROWS = ("k=2: SMIC % faster than its single-path flows",)
#: Verdicts that change over seeds 1-4: none since the authors' settings (docs/experiments/smic.md;
#: at 1000 s with our earlier topology, k = 2's SMIC time, k = 3's SMIC gain and the order of the
#: gains at k = 3 and 4).
SEED_SENSITIVE: Tuple[str, ...] = ()


def variant(k: int, multi: str) -> str:
    return f"k={k}, {multi}"


def singles(k: int) -> List[str]:
    return [f"s{i}" for i in range(1, k + 1)]


def topology(k: int, multi: str) -> sc.Topology:
    links = []
    for i in range(1, k + 1):
        links += [("m", f"r{i}", f"{PATH_MBPS}Mbps"), (f"s{i}", f"r{i}", f"{PATH_MBPS}Mbps"),
                  (f"r{i}", "p", f"{PATH_MBPS}Mbps")]
    return sc.Topology(links, ["p"], [("m", multi)] + [(s, "single") for s in singles(k)], QUEUE_PACKETS)


def cc_tables(k: int) -> Dict[str, Dict[str, Any]]:
    """The single-path flows slow-start to k (the authors' `Ssth "k"`); at k = 5 the multi-path
    flows take the larger pool."""
    tables: Dict[str, Dict[str, Any]] = {"single": {**sc.SINGLE, "initial_ssthresh": k}}
    if k in POOL:
        tables.update({multi: {**sc.CONTROLLERS[multi], "path_ids": POOL[k]} for multi in MULTI})
    return tables


def scenarios(duration: Any = DURATION, seed: int = SEED) -> Dict[str, Scenario]:
    return {variant(k, multi): topology(k, multi).scenario(duration, seed, cc=cc_tables(k))
            for k in PATHS for multi in MULTI}


def times(results: Mapping[str, Any], k: int, multi: str) -> Tuple[float, float]:
    """(the multi-path flow's, its single-path flows') average retrieval times."""
    res = results[variant(k, multi)]
    return sc.mean_time(res, "m"), sc.mean_of(res, singles(k))


def gain(results: Mapping[str, Any], k: int, multi: str) -> float:
    multi_s, single_s = times(results, k, multi)
    return sc.faster_percent(single_s, multi_s)


def metrics(results: Mapping[str, Any]) -> List[Row]:
    smic_s, smic_singles_s = times(results, 2, "SMIC")
    others = [smic_singles_s]
    for multi in MULTI[1:]:
        others += list(times(results, 2, multi))
    rows = [sc.about_s("k=2: SMIC average retrieval time", PAPER_SMIC_S, smic_s),
            common.check("k=2: the others' average retrieval times", f"about {PAPER_OTHERS_S:g} s", others,
                         "each within 1 s ('about X' for a time); singles with SMIC, LIA, LIA's singles, OLIA, "
                         "OLIA's singles", lambda v: all(abs(x - PAPER_OTHERS_S) <= sc.ABOUT_S for x in v), "s")]
    for multi in MULTI[1:]:
        rows.append(sc.alike_row(f"k=2: {multi} and its single-path flows", "almost similar",
                                 list(times(results, 2, multi))))
    for k in PATHS:
        rows.append(sc.faster_row(f"k={k}: SMIC % faster than its single-path flows", PAPER_FASTER[k],
                                  gain(results, k, "SMIC")))
    for k in PATHS[1:]:
        gains = [gain(results, k, multi) for multi in MULTI]
        rows.append(common.check(f"k={k}: % faster (SMIC, LIA, OLIA)", "SMIC's the highest", gains,
                                 "SMIC's above both: 'higher performance gain'",
                                 lambda v: v[0] > v[1] and v[0] > v[2], "%"))
    for multi in MULTI[1:]:
        ends = [times(results, k, multi)[0] for k in (PATHS[0], PATHS[-1])]
        rows.append(common.check(f"{multi}: retrieval time at k=2, k=5", "improves with more paths", ends,
                                 "shorter at k=5", lambda v: v[1] < v[0], "s"))
    return rows


def figures(results: Mapping[str, Any], out_dir: Any) -> List[Path]:
    """figure9.png: average retrieval time against k, solid for the multi-path flow and dotted for
    its single-path flows, red SMIC, green LIA, blue OLIA (Fig. 9's colours)."""
    figure, axes = common.figure_grid(1, 1, width=6.0, height=3.6)
    ax = axes[0, 0]
    for multi, color in zip(MULTI, ("C3", "C2", "C0")):
        pairs = [times(results, k, multi) for k in PATHS]
        ax.plot(PATHS, [p[0] for p in pairs], "-o", color=color, label=multi)
        ax.plot(PATHS, [p[1] for p in pairs], ":s", color=color, label=f"single-path with {multi}")
    ax.set_xticks(list(PATHS))
    ax.set_xlabel("paths k")
    ax.set_ylabel("average retrieval time [s]")
    ax.legend(fontsize="x-small")
    ax.grid(True, alpha=0.3)
    return common.save_figure(figure, Path(out_dir) / "figure9.png")
