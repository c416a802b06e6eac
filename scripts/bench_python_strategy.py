"""The cost of a forwarding strategy written in Python (docs/performance.md, "Protocols in
Python"): `ndnflow bench`'s scenario with the Python best-route of examples/python_strategy.py on
every node against the same scenario with the Rust best-route, in pairs run one after the other,
so that the machine's drift between hours falls on both alike. Timed in CPU seconds of this
process (`time.process_time`) besides wall seconds: on a machine shared with other work, the
wall clock also counts the time the process waited for a processor.

    PYTHONPATH=python python3 scripts/bench_python_strategy.py --duration 2s --pairs 3 [--cpu 1]

Prints each pair's packet-hops per CPU second and the ratio of CPU times, Python / Rust; both runs of a pair
must simulate the same packet-hops (the port is exact), else it says so and exits 1.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "examples"))

from ndnflow.bench import bench_scenario, pin_to_cpu  # noqa: E402
from ndnflow.runner import advance  # noqa: E402
from python_strategy import BestRoute  # noqa: E402


def one_run(duration: str, python: bool) -> tuple:
    """(packet-hops, CPU seconds, wall seconds) of the bench scenario's run alone."""
    scenario = bench_scenario(duration=duration)
    if python:
        for node in list(scenario.to_dict()["nodes"]):
            scenario.node(node, strategy=BestRoute)
    simulation = scenario.build_simulation()
    cpu, wall = time.process_time(), time.perf_counter()
    advance(simulation, progress=False)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    return int(simulation.summary()["simulation"]["packet_hops"]), cpu, wall


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", default="2s")
    parser.add_argument("--pairs", type=int, default=3)
    parser.add_argument("--cpu", type=int)
    args = parser.parse_args()
    if args.cpu is not None:
        pin_to_cpu(args.cpu)
    ratios = []
    for pair in range(args.pairs):
        hops_rust, cpu_rust, wall_rust = one_run(args.duration, python=False)
        hops_python, cpu_python, wall_python = one_run(args.duration, python=True)
        if hops_rust != hops_python:
            print(f"pair {pair + 1}: packet-hops differ ({hops_rust:,} Rust, {hops_python:,} Python)")
            return 1
        ratios.append(cpu_python / cpu_rust)
        print(f"pair {pair + 1}: {hops_rust:,} packet-hops; Rust {hops_rust / cpu_rust / 1e6:.3f} M per CPU second "
              f"({cpu_rust:.2f} s CPU, {wall_rust:.2f} s wall), Python {hops_python / cpu_python / 1e6:.3f} M "
              f"({cpu_python:.2f} s CPU, {wall_python:.2f} s wall), CPU ratio {ratios[-1]:.2f}", flush=True)
    print(f"median CPU ratio {statistics.median(ratios):.2f} ({min(ratios):.2f} - {max(ratios):.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
