"""`run`: drive a `_core.Simulation` to its end in steps, with a progress bar and Ctrl-C handling;
`run_tasks` and `advance_all`: several at once on threads.

tqdm loads only for a bar that may show: `--quiet` runs never import it (issue 23, item 3)."""

from __future__ import annotations

import os
import sys
import threading
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator, List, Optional, Sequence, Tuple, Union

from ndnflow import safe_io
from ndnflow.captures import Captures
from ndnflow.protocols import PROTOCOL_FAILURE, ProtocolError
from ndnflow.results import Results
from ndnflow.scenario import Scenario

if TYPE_CHECKING:
    from tqdm import tqdm

PathLike = Union[str, "os.PathLike[str]"]

#: The run advances in this many steps; the progress bar and Ctrl-C act between steps.
STEPS = 200


def _scenario(scenario_or_path: Union[Scenario, PathLike]) -> Scenario:
    if isinstance(scenario_or_path, Scenario):
        return scenario_or_path
    if isinstance(scenario_or_path, (str, os.PathLike)):
        return Scenario.from_file(scenario_or_path)
    raise TypeError(f"run() takes a Scenario or the path of a scenario file, not {type(scenario_or_path).__name__}")


class _NoBar:
    """What `run_tasks` reads and calls of a bar, for a run that shows none."""

    def __init__(self) -> None:
        self.n = 0.0

    def update(self, n: float) -> None:
        self.n += n

    def close(self) -> None:
        pass


@contextmanager
def _progress_bar(total_s: float, progress: Optional[bool], desc: str = "simulating") -> Iterator[tqdm]:
    """A bar in simulated seconds, on stderr, shown only when the run lasts more than a second.

    progress=None shows it when stderr is a terminal, True always, False never. `desc` is the
    label in front of the bar.
    """
    if progress is False:
        yield _NoBar()  # type: ignore[misc]
        return
    from tqdm import tqdm

    bar = tqdm(
        total=round(total_s, 6),
        unit="s",
        desc=desc,
        delay=1.0,
        file=sys.stderr,
        disable={True: False, None: None}[progress],
        bar_format="{desc}: {percentage:3.0f}%|{bar}| {n:.3f}/{total:.3f} s simulated [{elapsed}<{remaining}]",
        leave=False,
        dynamic_ncols=True,
    )
    try:
        yield bar
    finally:
        bar.close()


def build(scenario: Scenario, progress: Optional[bool] = None,
          compiled: Optional[Tuple[str, str, Optional[str]]] = None) -> Any:
    """`scenario.build_simulation()`, with a bar of the nodes, links and producers' routes built
    on stderr, shown as `_progress_bar` shows a run's: past one second, on a terminal (progress=None),
    always (True) or never (False: the build is not even asked to report)."""
    if progress is False or (progress is None and not _is_terminal(sys.stderr)):
        return scenario.build_simulation(compiled)
    from tqdm import tqdm

    bar = tqdm(total=0, unit="", desc="building", delay=1.0, file=sys.stderr,
               disable={True: False, None: None}[progress], leave=False, dynamic_ncols=True,
               bar_format="{desc}: {percentage:3.0f}%|{bar}| {n}/{total} nodes, links and routes [{elapsed}<{remaining}]")

    def step(done: int, total: int) -> None:
        bar.total = total
        bar.update(done - bar.n)

    try:
        return scenario.build_simulation(compiled, progress=step)
    finally:
        bar.close()


def _is_terminal(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):  # no isatty, or closed
        return False


def advance(simulation: Any, progress: Optional[bool] = None, steps: int = STEPS) -> bool:
    """Run `simulation` to its end in `steps` steps; returns False if Ctrl-C stopped it first."""
    with _progress_bar(int(simulation.duration_ns) / 1e9, progress) as bar:
        try:
            run_tasks([partial(drive, simulation, steps=steps)], bar)
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


def usable_cpus() -> int:
    """The processors this process may run on (its affinity, where the OS tells it); at least 1."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


class RunSlot:
    """What one task of `run_tasks` sees: where to report its simulated seconds, and whether the
    others want it to stop."""

    def __init__(self, done_s: List[float], k: int, stop: threading.Event, show: Optional[Callable[[], None]]) -> None:
        self._done_s = done_s
        self._k = k
        self._stop = stop
        self._show = show

    @property
    def stopping(self) -> bool:
        return self._stop.is_set()

    def report(self, seconds: float) -> None:
        """This task has simulated `seconds` so far."""
        self._done_s[self._k] = seconds
        if self._show is not None:
            self._show()


def drive(simulation: Any, slot: RunSlot, steps: int = STEPS) -> bool:
    """Step `simulation` to its end, reporting to `slot`; False if asked to stop before the end.

    A run that ends early (every consumer finished) reports its whole duration."""
    for now_ns in _steps(simulation, steps):
        slot.report(now_ns / 1e9)
        if slot.stopping:
            return False
    slot.report(int(simulation.duration_ns) / 1e9)
    return True


def run_tasks(tasks: Sequence[Callable[[RunSlot], Any]], bar: tqdm, jobs: int = 1,
              results: Optional[List[Any]] = None) -> List[Any]:
    """Call every task with a `RunSlot`, `jobs` of them at once, adding the simulated seconds they
    report to `bar`; returns their values in task order.

    With `jobs` > 1 each task runs on a thread of its own; a simulation step lets go of the GIL, so
    runs proceed side by side on as many processors. Ctrl-C, or the first error of a task, asks
    every task to stop at its next step and propagates. Pass `results` (a list of len(tasks)) to
    keep, after such a stop, the values of the tasks that had returned.
    """
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, not {jobs}")
    results = [None] * len(tasks) if results is None else results
    stop = threading.Event()
    # Simulated seconds of each task so far; slot k is written by task k only, and the bar is
    # touched by this thread only.
    done_s: List[float] = [0.0] * len(tasks)
    start_s = bar.n

    def show() -> None:
        bar.update(start_s + sum(done_s) - bar.n)

    if jobs == 1 or len(tasks) < 2:
        for k, task in enumerate(tasks):
            results[k] = task(RunSlot(done_s, k, stop, show))
        return results

    # Loaded here: a single run needs no pool (concurrent.futures also loads logging).
    from concurrent.futures import FIRST_EXCEPTION, ThreadPoolExecutor, wait

    def call(k: int, task: Callable[[RunSlot], Any]) -> None:
        if not stop.is_set():
            results[k] = task(RunSlot(done_s, k, stop, None))

    pool = ThreadPoolExecutor(max_workers=min(jobs, len(tasks)), thread_name_prefix="ndnflow-run")
    try:
        pending = {pool.submit(call, k, task) for k, task in enumerate(tasks)}
        while pending:
            finished, pending = wait(pending, timeout=0.2, return_when=FIRST_EXCEPTION)
            show()
            for future in finished:
                future.result()  # a task's error surfaces here
    except BaseException:
        stop.set()
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    return results


def advance_all(simulations: Sequence[Any], bar: tqdm, jobs: int = 1, steps: int = STEPS) -> None:
    """Run every simulation to its end, `jobs` of them at once, adding the simulated seconds to
    `bar` (a run that ends early counts as its whole duration).

    What each run computes does not depend on `jobs`: the runs share nothing. Ctrl-C stops every
    run at its next step and propagates (KeyboardInterrupt); so does the first error of a run.
    """
    run_tasks([partial(drive, simulation, steps=steps) for simulation in simulations], bar, jobs)


def run(scenario_or_path: Union[Scenario, PathLike], *, progress: Optional[bool] = None) -> Results:
    """Run a scenario (a `Scenario` or the path of a TOML file) and return its `Results`.

    `progress`: None shows a progress bar on a terminal when the run takes over a second, True
    forces it, False hides it. Ctrl-C stops the run early: the results up to that point are
    returned with ``interrupted=True``. A Python protocol that raises stops the run there:
    `ndnflow.ProtocolError`, whose `results` are those up to that point.
    """
    scenario = _scenario(scenario_or_path)
    compiled = scenario.compiled()
    simulation = build(scenario, progress, compiled)
    captures = Captures.start(simulation)
    completed = advance(simulation, progress)
    # A stop asked for while the results are copied out is recorded, not lost with them.
    with safe_io.signals_held(reraise=False) as held:
        text = compiled[0]
        raw = core_results(simulation)
        if captures is not None:
            captures.finish(simulation)
    results = Results.from_core(raw, interrupted=not completed or bool(held.caught), scenario_toml=text)
    if captures is not None:
        results.captures = captures
        results.summary["captures"] = captures.stats
    if results.stopped and results.stopped.startswith(PROTOCOL_FAILURE):
        raise ProtocolError(results.stopped, results)
    return results


def core_results(simulation: Any) -> Any:
    """What `Results.from_core` takes: the summary, and the traces as a `_core.Traces`, whose
    tables are copied into Python (numpy) only when read; a core without `traces` gives its
    `results()`, the tables copied at once."""
    if hasattr(simulation, "traces"):
        return {"summary": simulation.summary(), "traces": simulation.traces()}
    return simulation.results()


def load_scenario(path: PathLike) -> Scenario:
    """Read a scenario TOML file (same as `Scenario.from_file`)."""
    return Scenario.from_file(Path(path))
