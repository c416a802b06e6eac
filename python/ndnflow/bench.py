"""`ndnflow bench`: a standard scenario of a given size, run without a progress bar, and measured.

The scenario is a grid of routers (nearly square, with a few diagonal shortcuts), 10 producers on
distinct nodes each serving its own prefix, and fixed-window consumers on random nodes fetching from
random producers for the whole run. Every random choice comes from `random.Random(seed)`, so a
given (nodes, consumers, seed) always gives the same scenario.
"""

from __future__ import annotations

import math
import os
import random
import sys
import time
from typing import Any, Dict, List, Optional, Tuple

from ndnflow.report import render
from ndnflow.runner import advance
from ndnflow.scenario import Scenario

PRODUCERS = 10
LINK_BANDWIDTH = "100Mbps"
QUEUE_PACKETS = 100


def _node(index: int) -> str:
    return f"n{index}"


def grid_edges(nodes: int, rng: random.Random) -> List[Tuple[int, int]]:
    """Edges of a connected, nearly square grid of `nodes` nodes plus nodes/20 diagonal shortcuts."""
    columns = max(1, math.ceil(math.sqrt(nodes)))
    edges = []
    for index in range(nodes):
        row, column = divmod(index, columns)
        if column + 1 < columns and index + 1 < nodes:
            edges.append((index, index + 1))
        if index + columns < nodes:
            edges.append((index, index + columns))
    diagonals = [
        (index, index + columns + 1)
        for index in range(nodes)
        if index % columns + 1 < columns and index + columns + 1 < nodes
    ]
    edges.extend(rng.sample(diagonals, min(len(diagonals), nodes // 20)))
    return edges


def add_grid(scenario: Scenario, nodes: int, rng: random.Random) -> None:
    """The nodes n0, n1, ... and the links of `grid_edges`, each with a delay of 1-5 ms from `rng`."""
    for index in range(nodes):
        scenario.node(_node(index))
    for a, b in grid_edges(nodes, rng):
        scenario.link(_node(a), _node(b), bandwidth=LINK_BANDWIDTH, delay=f"{rng.randint(1, 5)}ms", queue=QUEUE_PACKETS)


def bench_scenario(nodes: int = 100, consumers: int = 200, duration: Any = "60s", seed: int = 1) -> Scenario:
    """The standard benchmark scenario (see the module docstring)."""
    if nodes < 2:
        raise ValueError("bench needs at least 2 nodes")
    if consumers < 1:
        raise ValueError("bench needs at least 1 consumer")
    rng = random.Random(seed)
    scenario = Scenario(duration=duration, seed=seed)
    add_grid(scenario, nodes, rng)
    producer_nodes = rng.sample(range(nodes), min(PRODUCERS, nodes))
    for k, index in enumerate(producer_nodes):
        scenario.producer(_node(index), f"/p{k}")
    for k in range(consumers):
        producer = rng.randrange(len(producer_nodes))
        home = rng.choice([index for index in range(nodes) if index != producer_nodes[producer]])
        scenario.consumer(_node(home), f"/p{producer}/c{k}", window=rng.randint(8, 32))
    return scenario


def peak_memory_mib() -> float:
    """Peak resident memory of this process in MiB (0 where the platform does not tell)."""
    try:
        import resource
    except ImportError:  # pragma: no cover - Windows
        return 0.0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    # Linux reports KiB, macOS bytes.
    return peak / (1024.0 * 1024.0) if sys.platform == "darwin" else peak / 1024.0


def pin_to_cpu(cpu: int) -> None:
    """Runs this process on processor `cpu` alone (the bench's "one core"); ValueError if it cannot."""
    if not hasattr(os, "sched_setaffinity"):
        raise ValueError("this platform cannot pin a process to a processor")
    try:
        os.sched_setaffinity(0, {cpu})
    except (OSError, OverflowError, ValueError) as exc:
        raise ValueError(f"cannot run on processor {cpu}: {exc}") from None


def run_bench(nodes: int = 100, consumers: int = 200, duration: Any = "60s", seed: int = 1,
              repeat: int = 1, cpu: Optional[int] = None) -> Dict[str, Any]:
    """Build and run the benchmark scenario `repeat` times; returns the measurements.

    Rates and times are the median run's (by packet-hops per wall second; the lower of the two
    middle runs for an even count), and every run's rate is in `runs_packet_hops_per_s`, in run
    order: a shared machine's speed drifts from run to run, and one run says little. `cpu` pins
    the process to that processor first.
    """
    if repeat < 1:
        raise ValueError("repeat must be at least 1")
    if cpu is not None:
        pin_to_cpu(cpu)
    runs: List[Dict[str, Any]] = []
    for _ in range(repeat):
        run, finished = _run_once(nodes, consumers, duration, seed)
        runs.append(run)
        if not finished:  # Ctrl-C: report what was measured, run no more
            break
    rates = [r["packet_hops_per_s"] for r in runs]
    median = sorted(runs, key=lambda r: r["packet_hops_per_s"])[(len(runs) - 1) // 2]
    result = dict(median)
    result["runs_packet_hops_per_s"] = rates
    # The process's peak over every run (the counter only grows), read once at the end.
    result["peak_memory_mib"] = peak_memory_mib()
    return result


def _run_once(nodes: int, consumers: int, duration: Any, seed: int) -> Tuple[Dict[str, Any], bool]:
    """One run's measurements, and whether it ran to its end (False: Ctrl-C stopped it)."""
    scenario = bench_scenario(nodes, consumers, duration, seed)
    started = time.perf_counter()
    simulation = scenario.build_simulation()
    built = time.perf_counter()
    completed = advance(simulation, progress=False)
    finished = time.perf_counter()
    summary = simulation.summary()["simulation"]
    wall_s = finished - built
    hops = int(summary.get("packet_hops", 0))
    events = int(summary.get("events", 0))
    return {
        "nodes": nodes,
        "consumers": consumers,
        "seed": seed,
        "simulated_s": float(summary.get("end_s", simulation.now_ns / 1e9)),
        "setup_s": built - started,
        "wall_s": wall_s,
        "packet_hops": hops,
        "packet_hops_per_s": hops / wall_s if wall_s > 0 else 0.0,
        "events": events,
        "events_per_s": events / wall_s if wall_s > 0 else 0.0,
    }, completed


def bench_table(result: Dict[str, Any]) -> str:
    rows = [
        ("scenario", f"{result['nodes']} nodes, {result['consumers']} consumers, seed {result['seed']}"),
        ("simulated time", f"{result['simulated_s']:.3f} s"),
        ("setup (wall)", f"{result['setup_s']:.3f} s"),
        ("run (wall)", f"{result['wall_s']:.3f} s"),
        ("packet-hops", f"{result['packet_hops']:,}"),
        ("packet-hops per wall second", f"{result['packet_hops_per_s']:,.0f}"),
        *_spread(result.get("runs_packet_hops_per_s", [])),
        ("events", f"{result['events']:,}"),
        ("events per wall second", f"{result['events_per_s']:,.0f}"),
        ("peak memory", f"{result['peak_memory_mib']:.1f} MiB"),
    ]
    return render(["measure", "value"], rows, align="ll") + "\n"


def _spread(rates: List[float]) -> List[Tuple[str, str]]:
    """The table's row for several runs (the row above is their median): the slowest and fastest."""
    if len(rates) < 2:
        return []
    return [(f"  {len(rates)} runs, slowest - fastest", f"{min(rates):,.0f} - {max(rates):,.0f}")]
