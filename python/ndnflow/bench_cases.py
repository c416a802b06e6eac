"""The benchmark suite's workloads (issue 23, item 1): named scenarios shaped like what ndnSIM users
run, each with the simulated duration it is measured over (docs/performance.md, "The benchmark
suite").

Each case builds its scenario from a duration and a seed, so that `--short` runs the same network
for a small fraction of the time. The PCON and PTP cases take their scenarios from the
experiments' own builders (`ndnflow.experiments`), so they follow any change made there.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable, Dict

from ndnflow.bench import _node, add_grid, bench_scenario
from ndnflow.scenario import Scenario


@dataclass(frozen=True)
class Case:
    name: str
    #: Simulated seconds of a full run, and of a `--short` one (enough for every figure to be
    #: measurable: the stores of the cases that have them fill past a few thousand Data).
    duration_s: float
    short_s: float
    #: One line for the docs and `--help`.
    what: str
    #: (duration in seconds, seed) -> the scenario.
    build: Callable[[float, int], Scenario]


# ----------------------------------------------------------------------------------- dumbbell

#: ndnSIM's congestion example (examples/ndn-congestion-topo-plugin.cpp with
#: topologies/topo-6-node.txt, ndnSIM 2.8), as issue 23 states it.
DUMBBELL_ACCESS = "10Mbps"
DUMBBELL_BOTTLENECK = "1Mbps"
DUMBBELL_DELAY = "10ms"
DUMBBELL_QUEUE = 20  # DropTail, packets
DUMBBELL_STORE = 10_000  # LRU, packets (ndnSIM's MaxSize)
DUMBBELL_RATE = 100.0  # Interests/s per consumer (ConsumerCbr's Frequency)


def dumbbell(duration_s: float, seed: int = 1) -> Scenario:
    """Src1, Src2 - Rtr1 - Rtr2 - Dst1, Dst2; each source asks its destination's prefix at a constant
    rate. Two consumers of 100 Interests/s of 1,024-byte Data share the 1 Mbit/s Rtr2 -> Rtr1
    direction (about 120 Data/s), so the run is overloaded: Data dropped at the queue, Interests
    expiring in the PITs, and retransmissions by ndnSIM's consumer timer (`timer = "ndnsim"`:
    ndnSIM's `Consumer` retransmits on its own periodic check)."""
    sc = Scenario(duration=duration_s, seed=seed)
    for node in ("Src1", "Src2", "Rtr1", "Rtr2", "Dst1", "Dst2"):
        sc.node(node, cs={"policy": "lru", "capacity": DUMBBELL_STORE})
    links = [("Src1", "Rtr1", DUMBBELL_ACCESS), ("Src2", "Rtr1", DUMBBELL_ACCESS),
             ("Rtr1", "Rtr2", DUMBBELL_BOTTLENECK), ("Rtr2", "Dst1", DUMBBELL_ACCESS),
             ("Rtr2", "Dst2", DUMBBELL_ACCESS)]
    for a, b, bandwidth in links:
        sc.link(a, b, bandwidth=bandwidth, delay=DUMBBELL_DELAY, queue=DUMBBELL_QUEUE)
    for k in (1, 2):
        sc.producer(f"Dst{k}", f"/dst{k}", payload=1024)
        sc.consumer(f"Src{k}", f"/dst{k}", rate=DUMBBELL_RATE, rto={"timer": "ndnsim"})
    return sc


# ------------------------------------------------------------------------------ experiments'


def pcon_split(duration_s: float, seed: int = 1) -> Scenario:
    """pcon-4.4-split's Diff_BW case with PCON at R2: three paths of 22.5, 6 and 1.5 Mbit/s."""
    from ndnflow.experiments import pcon_4_4_split

    return pcon_4_4_split.scenario("Diff_BW", "PCON", duration_s, seed)


def ptp_tree(duration_s: float, seed: int = 1) -> Scenario:
    """ptp-s1's tree, Case I, with PTP (path-specified forwarding at every node, MPCCP)."""
    from ndnflow.experiments import ptp_s1

    return ptp_s1.tree("Case I").scenario("PTP", duration_s, seed)


# ------------------------------------------------------------------------------------ grids

LARGE_NODES = 10_000
LARGE_CONSUMERS = 1_000


def grid(duration_s: float, seed: int = 1) -> Scenario:
    """`ndnflow bench`'s scenario at its defaults: 100 nodes, 200 fixed-window consumers."""
    return bench_scenario(duration=duration_s, seed=seed)


def large(duration_s: float, seed: int = 1) -> Scenario:
    """The same generator at 10,000 nodes (about 20,000 links) and 1,000 consumers."""
    return bench_scenario(LARGE_NODES, LARGE_CONSUMERS, duration_s, seed)


ZIPF_NODES = 25
ZIPF_CONSUMERS = 20
ZIPF_OBJECTS = 10_000
ZIPF_SEGMENTS = 10
ZIPF_ALPHA = 0.8
ZIPF_STORE = 1_000  # packets: 1 % of the catalog's 100,000 segments
ZIPF_WINDOW = 16


def zipf_cache(duration_s: float, seed: int = 1) -> Scenario:
    """A 5 x 5 grid, one producer of /catalog, 20 catalog consumers (10,000 objects of 10 segments,
    Zipf alpha 0.8, a window of 16) on the other nodes, and LRU stores of 1,000 packets on every
    node: the stores hold 1 % of the catalog, so they evict all the time."""
    rng = random.Random(seed)
    sc = Scenario(duration=duration_s, seed=seed)
    add_grid(sc, ZIPF_NODES, rng)
    for index in range(ZIPF_NODES):
        sc.node(_node(index), cs={"policy": "lru", "capacity": ZIPF_STORE})
    producer = rng.randrange(ZIPF_NODES)
    sc.producer(_node(producer), "/catalog", payload=1024)
    homes = [index for index in range(ZIPF_NODES) if index != producer]
    # One name for all: object k is /catalog/obj/k for every consumer, so the stores are shared.
    for _ in range(ZIPF_CONSUMERS):
        sc.consumer(_node(rng.choice(homes)), "/catalog/obj", window=ZIPF_WINDOW, segments=ZIPF_SEGMENTS,
                    catalog={"objects": ZIPF_OBJECTS, "alpha": ZIPF_ALPHA})
    return sc


CASES: Dict[str, Case] = {c.name: c for c in (
    Case("grid", 60.0, 0.3, "ndnflow bench's scenario: 100 nodes, 200 fixed-window consumers", grid),
    Case("dumbbell", 4000.0, 40.0, "ndnSIM's congestion example (topo-6-node), overloaded", dumbbell),
    Case("pcon-split", 120.0, 2.0, "PCON over three paths (pcon-4.4-split, Diff_BW)", pcon_split),
    Case("ptp-tree", 60.0, 2.0, "PTP on ptp-s1's tree (Case I)", ptp_tree),
    Case("large", 2.0, 0.02, "10,000 nodes, 1,000 fixed-window consumers", large),
    Case("zipf-cache", 60.0, 1.0, "Zipf catalog of 100,000 segments, stores of 1,000", zipf_cache),
)}
