"""`run`: drive a `_core.Simulation` to its end in steps, with a progress bar and Ctrl-C handling."""

from __future__ import annotations

import os
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator, Optional, Union

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


def advance_on(simulation: Any, bar: tqdm, steps: int = STEPS) -> None:
    """Run `simulation` to its end in `steps` steps, adding the simulated seconds to `bar`.

    A run that ends early (every consumer finished) stops short of its duration on the bar. Ctrl-C
    propagates (KeyboardInterrupt) from the current step.
    """
    duration_ns = int(simulation.duration_ns)
    step_ns = max(1, -(-duration_ns // steps))
    shown_ns = int(simulation.now_ns)
    while not simulation.finished:
        target = min(int(simulation.now_ns) + step_ns, duration_ns)
        done = simulation.run_until(target)
        now_ns = int(simulation.now_ns)
        bar.update((now_ns - shown_ns) / 1e9)
        shown_ns = now_ns
        if done or target >= duration_ns:
            break


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
