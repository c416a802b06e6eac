"""The cost of a forwarding strategy written in Python (docs/performance.md, "Protocols in
Python"): `ndnflow bench`'s scenario with the Python best-route of examples/python_strategy.py on
every node against the same scenario with the Rust best-route, in pairs run one after the other,
so that the machine's drift between hours falls on both alike.

    PYTHONPATH=python python3 scripts/bench_python_strategy.py --duration 2s --pairs 3 [--cpu 1]

Prints each pair's packet-hops per wall second and the ratio Rust / Python; both runs of a pair
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
    """(packet-hops, wall seconds of the run alone) of the bench scenario."""
    scenario = bench_scenario(duration=duration)
    if python:
        for node in list(scenario.to_dict()["nodes"]):
            scenario.node(node, strategy=BestRoute)
    simulation = scenario.build_simulation()
    started = time.perf_counter()
    advance(simulation, progress=False)
    wall = time.perf_counter() - started
    return int(simulation.summary()["simulation"]["packet_hops"]), wall


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
        hops_rust, wall_rust = one_run(args.duration, python=False)
        hops_python, wall_python = one_run(args.duration, python=True)
        if hops_rust != hops_python:
            print(f"pair {pair + 1}: packet-hops differ ({hops_rust:,} Rust, {hops_python:,} Python)")
            return 1
        ratios.append(wall_python / wall_rust)
        print(f"pair {pair + 1}: {hops_rust:,} packet-hops; Rust {hops_rust / wall_rust / 1e6:.3f} M/s "
              f"({wall_rust:.2f} s), Python {hops_python / wall_python / 1e6:.3f} M/s ({wall_python:.2f} s), "
              f"ratio {ratios[-1]:.1f}", flush=True)
    print(f"median ratio {statistics.median(ratios):.1f} ({min(ratios):.1f} - {max(ratios):.1f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
