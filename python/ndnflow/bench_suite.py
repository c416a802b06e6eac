"""`ndnflow bench --suite` and `ndnflow bench --case NAME`: the workloads of `ndnflow.bench_cases`,
each run in a child process of its own and measured (issue 23, item 1).

Why child processes: a process's resident-set high-water mark only grows, so a second case run in
the same process would report the first one's peak. Each child reads its own high-water mark
(`VmHWM` in /proc/self/status: that of its own address space, which `ru_maxrss` is not after
`exec`, since Linux carries the parent's peak over into it).

Memory per cached Data and per trace row are differences of two runs of the same case, divided
by the difference of what the engine counts at the end (`Simulation.cached_data`,
`Simulation.trace_rows`): the case with its Content Stores off against the case as is, and the
case with bins `k` times narrower against the case as is, `k` chosen so that the narrower bins
add at least `EXTRA_ROWS` rows (a difference well above the peak's noise of a few hundred KiB).
Both are whole-process figures: they include the allocator's spare room and the tables' growth
by doubling, as a user's run would.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import tempfile
import time
from typing import Any, Callable, Dict, Optional, Sequence

import tomli_w

from ndnflow import units
from ndnflow.bench_cases import CASES, Case
from ndnflow.report import render

#: Rows the narrow-bin run adds at least (about 15 MB at the engine's ~15 bytes a row).
EXTRA_ROWS = 1_000_000
#: The scenario format's default bin, for cases that do not set one.
DEFAULT_BIN_NS = 100_000_000


class SuiteError(RuntimeError):
    """A case's child process failed; the message names the case and quotes its error."""


# --------------------------------------------------------------------------------- the child


def _status_kib(field: str) -> Optional[int]:
    """A `VmHWM`/`VmRSS`-style line of /proc/self/status, in KiB (None off Linux)."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


def _peak_kib() -> int:
    peak = _status_kib("VmHWM")
    if peak is not None:
        return peak
    import resource

    maxrss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return maxrss // 1024 if sys.platform == "darwin" else maxrss


def measure(path: str) -> Dict[str, Any]:
    """Build and run the scenario file `path` in this process; its figures. The engine reads the
    file itself: the child imports no TOML reader and no experiment, so its peak is the run's."""
    from ndnflow import _native
    from ndnflow.runner import advance

    started = time.perf_counter()
    with open(path, encoding="utf-8") as file:
        text = file.read()
    rss_before = _status_kib("VmRSS")
    simulation = _native.require("Simulation")(text, path, None)
    built = time.perf_counter()
    advance(simulation, progress=False)
    wall_s = time.perf_counter() - built
    summary = simulation.summary()["simulation"]
    hops, events = int(summary["packet_hops"]), int(summary["events"])
    return {
        "simulated_s": float(summary["end_s"]),
        "setup_s": built - started,
        "wall_s": wall_s,
        "packet_hops": hops,
        "events": events,
        "packet_hops_per_s": hops / wall_s if wall_s > 0 else 0.0,
        "events_per_s": events / wall_s if wall_s > 0 else 0.0,
        "peak_kib": _peak_kib(),
        "rss_before_run_kib": rss_before,
        "trace_rows": int(simulation.trace_rows),
        "cached_data": int(simulation.cached_data),
    }


def _child_main(argv: Sequence[str]) -> int:
    """`python -m ndnflow.bench_suite FILE`: run the scenario FILE and print its figures as JSON."""
    print(json.dumps(measure(argv[0])))
    return 0


# -------------------------------------------------------------------------------- the parent


class CaseFiles:
    """A case's scenario written as TOML for a child, and its variants (narrower bins, stores off).

    The files are for the engine alone, so they are written by tomli-w, about four times faster
    than `Scenario.to_toml`'s hand-laid, read-back-checked layout (1.5 s against 5.5 s for the
    10,000-node case).
    """

    def __init__(self, case: Case, duration_s: float, seed: int, folder: str):
        self.case = case
        self.folder = folder
        self.doc = case.build(duration_s, seed).to_dict()

    def bin_ns(self) -> int:
        text = self.doc.get("simulation", {}).get("bin")
        return DEFAULT_BIN_NS if text is None else round(units.parse_duration(text) * 1e9)

    def write(self, name: str, **changed: Any) -> str:
        """The scenario with top-level sections replaced by `changed`, as file `name`."""
        path = os.path.join(self.folder, f"{self.case.name}-{name}.toml")
        with open(path, "w", encoding="utf-8") as file:
            file.write(tomli_w.dumps({**self.doc, **changed}))
        return path

    def base(self) -> str:
        return self.write("base")

    def narrow_bins(self, bin_ns: int) -> str:
        return self.write("bins", simulation={**self.doc.get("simulation", {}), "bin": f"{bin_ns}ns"})

    def stores_off(self) -> str:
        nodes = {name: ({**settings, "cs": {"policy": "off"}} if "cs" in settings else settings)
                 for name, settings in self.doc.get("nodes", {}).items()}
        return self.write("no-stores", nodes=nodes)


def _child_env() -> Dict[str, str]:
    """The environment for a child: this package first on its path, wherever it was found."""
    package_root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (package_root, env.get("PYTHONPATH")) if p)
    return env


def run_child(name: str, path: str) -> Dict[str, Any]:
    """The scenario file `path` (of case `name`) measured in a fresh interpreter; SuiteError if
    the run fails."""
    done = subprocess.run([sys.executable, "-m", "ndnflow.bench_suite", path],
                          capture_output=True, text=True, env=_child_env(), check=False)
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no message"])[-1]
        raise SuiteError(f"bench case {name!r} failed (exit status {done.returncode}): {last}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def per_unit(more: Dict[str, Any], fewer: Dict[str, Any], count: str) -> Optional[float]:
    """Bytes per `count` ("cached_data" or "trace_rows"): the difference of two runs' peaks over
    the difference of their counts; None when the counts do not differ (nothing to divide by)."""
    units_more = more[count] - fewer[count]
    if units_more == 0:
        return None
    return (more["peak_kib"] - fewer["peak_kib"]) * 1024.0 / units_more


def run_case(case: Case, short: bool = False, seed: int = 1, repeat: int = 1,
             memory: bool = True) -> Dict[str, Any]:
    """A case measured: the median of `repeat` runs (by packet-hops per wall second), then, with
    `memory`, the runs that give bytes per cached Data and per trace row."""
    duration_s = case.short_s if short else case.duration_s
    with tempfile.TemporaryDirectory(prefix="ndnflow-bench-") as folder:
        files = CaseFiles(case, duration_s, seed, folder)
        base_file = files.base()
        runs = [run_child(case.name, base_file) for _ in range(repeat)]
        result = dict(sorted(runs, key=lambda r: r["packet_hops_per_s"])[(len(runs) - 1) // 2])
        result.update(case=case.name, what=case.what, duration_s=duration_s, seed=seed,
                      runs_packet_hops_per_s=[r["packet_hops_per_s"] for r in runs],
                      bytes_per_cached_data=None, bytes_per_trace_row=None)
        if not memory:
            return result
        if result["cached_data"] > 0:
            result["bytes_per_cached_data"] = per_unit(result, run_child(case.name, files.stores_off()), "cached_data")
        factor = 1 + math.ceil(EXTRA_ROWS / max(1, result["trace_rows"]))
        narrow = run_child(case.name, files.narrow_bins(max(1, files.bin_ns() // factor)))
        result["bytes_per_trace_row"] = per_unit(narrow, result, "trace_rows")
    return result


def run_suite(names: Sequence[str], short: bool = False, seed: int = 1, repeat: int = 1,
              memory: bool = True, progress: Optional[Callable[[str], None]] = None) -> Dict[str, Dict[str, Any]]:
    """The cases `names`, in order; `progress(name)` is called before each."""
    results = {}
    for name in names:
        if progress is not None:
            progress(name)
        results[name] = run_case(CASES[name], short, seed, repeat, memory)
    return results


def _bytes(value: Optional[float]) -> str:
    return "-" if value is None else f"{value:,.0f}"


def _cached_cell(result: Dict[str, Any]) -> str:
    return "no stores" if result["cached_data"] == 0 else _bytes(result["bytes_per_cached_data"])


def suite_table(results: Dict[str, Dict[str, Any]]) -> str:
    headers = ["case", "simulated", "run (wall)", "packet-hops/s", "events/s", "peak memory",
               "B per cached Data", "B per trace row"]
    rows = [
        (name, f"{r['simulated_s']:g} s", f"{r['wall_s']:.2f} s", f"{r['packet_hops_per_s']:,.0f}",
         f"{r['events_per_s']:,.0f}", f"{r['peak_kib'] / 1024:.1f} MiB", _cached_cell(r),
         _bytes(r["bytes_per_trace_row"]))
        for name, r in results.items()
    ]
    return render(headers, rows) + "\n"


if __name__ == "__main__":
    sys.exit(_child_main(sys.argv[1:]))
