"""`run`: drive a `_core.Simulation` to its end in steps, with a progress bar and Ctrl-C handling;
`advance_all`: several at once on threads."""

from __future__ import annotations

import os
import sys
import threading
from concurrent.futures import FIRST_EXCEPTION, ThreadPoolExecutor, wait
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator, List, Optional, Sequence, Union

from tqdm import tqdm

from ndnflow.results import Results
from ndnflow.scenario import Scenario

PathLike = Union[str, "os.PathLike[str]"]

#: The run advances in this many steps; the progress bar and Ctrl-C act between steps.
STEPS = 200


def _scenario(scenario_or_path: Union[Scenario, PathLike]) -> Scenario:
    if isinstance(scenario_or_path, Scenario):
        return scenario_or_path
    if isinstance(scenario_or_path, (str, os.PathLike)):
        return Scenario.from_file(scenario_or_path)
    raise TypeError(f"run() takes a Scenario or the path of a scenario file, not {type(scenario_or_path).__name__}")


@contextmanager
def _progress_bar(total_s: float, progress: Optional[bool], desc: str = "simulating") -> Iterator[tqdm]:
    """A bar in simulated seconds, on stderr, shown only when the run lasts more than a second.

    progress=None shows it when stderr is a terminal, True always, False never. `desc` is the
    label in front of the bar.
    """
    bar = tqdm(
        total=round(total_s, 6),
        unit="s",
        desc=desc,
        delay=1.0,
        file=sys.stderr,
        disable={True: False, False: True, None: None}[progress],
        bar_format="{desc}: {percentage:3.0f}%|{bar}| {n:.3f}/{total:.3f} s simulated [{elapsed}<{remaining}]",
        leave=False,
        dynamic_ncols=True,
    )
    try:
        yield bar
    finally:
        bar.close()


def advance(simulation: Any, progress: Optional[bool] = None, steps: int = STEPS) -> bool:
    """Run `simulation` to its end in `steps` steps; returns False if Ctrl-C stopped it first."""
    with _progress_bar(int(simulation.duration_ns) / 1e9, progress) as bar:
        try:
            advance_on(simulation, bar, steps)
        except KeyboardInterrupt:
            return False
    return True


def _steps(simulation: Any, steps: int = STEPS) -> Iterator[int]:
    """Advance `simulation` to its end in `steps` steps, yielding the simulated time (ns) after each.

    A run that ends early (every consumer finished) stops short of its duration."""
    duration_ns = int(simulation.duration_ns)
    step_ns = max(1, -(-duration_ns // steps))
    while not simulation.finished:
        target = min(int(simulation.now_ns) + step_ns, duration_ns)
        done = simulation.run_until(target)
        yield int(simulation.now_ns)
        if done or target >= duration_ns:
            break


def advance_on(simulation: Any, bar: tqdm, steps: int = STEPS) -> None:
    """Run `simulation` to its end in `steps` steps, adding the simulated seconds to `bar`.

    A run that ends early (every consumer finished) stops short of its duration on the bar. Ctrl-C
    propagates (KeyboardInterrupt) from the current step.
    """
    shown_ns = int(simulation.now_ns)
    for now_ns in _steps(simulation, steps):
        bar.update((now_ns - shown_ns) / 1e9)
        shown_ns = now_ns


def usable_cpus() -> int:
    """The processors this process may run on (its affinity, where the OS tells it); at least 1."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def advance_all(simulations: Sequence[Any], bar: tqdm, jobs: int = 1, steps: int = STEPS) -> None:
    """Run every simulation to its end, `jobs` of them at once, adding the simulated seconds to
    `bar` (a run that ends early counts as its whole duration).

    With `jobs` > 1 each run steps on a thread of its own; a step lets go of the GIL, so runs
    proceed side by side on as many processors. What each run computes does not depend on `jobs`:
    the runs share nothing. Ctrl-C stops every run at its next step and propagates
    (KeyboardInterrupt); so does the first error of a run.
    """
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, not {jobs}")
    if jobs == 1 or len(simulations) < 2:
        for simulation in simulations:
            before = bar.n
            advance_on(simulation, bar, steps)
            bar.update(before + int(simulation.duration_ns) / 1e9 - bar.n)
        return
    stop = threading.Event()
    # Simulated seconds of each run so far; slot k is written by run k's thread only, and the bar
    # is touched by this thread only.
    done_s: List[float] = [0.0] * len(simulations)

    def drive(k: int, simulation: Any) -> None:
        if stop.is_set():
            return
        for now_ns in _steps(simulation, steps):
            done_s[k] = now_ns / 1e9
            if stop.is_set():
                return
        done_s[k] = int(simulation.duration_ns) / 1e9

    start_s = bar.n
    pool = ThreadPoolExecutor(max_workers=min(jobs, len(simulations)), thread_name_prefix="ndnflow-run")
    try:
        pending = {pool.submit(drive, k, simulation) for k, simulation in enumerate(simulations)}
        while pending:
            finished, pending = wait(pending, timeout=0.2, return_when=FIRST_EXCEPTION)
            bar.update(start_s + sum(done_s) - bar.n)
            for future in finished:
                future.result()  # a run's error surfaces here
    except BaseException:
        stop.set()
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def run(scenario_or_path: Union[Scenario, PathLike], *, progress: Optional[bool] = None) -> Results:
    """Run a scenario (a `Scenario` or the path of a TOML file) and return its `Results`.

    `progress`: None shows a progress bar on a terminal when the run takes over a second, True
    forces it, False hides it. Ctrl-C stops the run early: the results up to that point are
    returned with ``interrupted=True``.
    """
    scenario = _scenario(scenario_or_path)
    simulation = scenario.build_simulation()
    completed = advance(simulation, progress)
    text, _source, _base_dir = scenario.compiled()
    return Results.from_core(simulation.results(), interrupted=not completed, scenario_toml=text)


def load_scenario(path: PathLike) -> Scenario:
    """Read a scenario TOML file (same as `Scenario.from_file`)."""
    return Scenario.from_file(Path(path))
