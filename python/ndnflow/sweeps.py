"""`sweep`: run one scenario over a grid of parameter values and seeds, and tabulate the results.

    >>> import ndnflow
    >>> table = ndnflow.sweep("examples/quickstart.toml",              # doctest: +SKIP
    ...                       {"links[r,p].delay": ["10ms", "20ms"]}, seeds=[1, 2]).table

Every combination of the grid's values (see `ndnflow.sweep_grid` for the keys) is run once per seed.
The runs share nothing, so they go side by side: on threads of this process (one per usable
processor by default), or on a Dask cluster given its scheduler's address. Every point is built and
checked before the first run starts, so a bad key or value costs nothing. A run keeps only its
summary (`summary.json`'s numbers); `scenarios/` in the output holds each run's scenario, to re-run
one with `ndnflow run` for its time series.
"""

from __future__ import annotations

import collections
import collections.abc
import fnmatch
import json
import math
import numbers
import os
import re
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

import pandas as pd

from ndnflow import _native, safe_io
from ndnflow.results import _write_parquet, json_ready
from ndnflow.runner import RunSlot, _progress_bar, _scenario, drive, run_tasks, usable_cpus
from ndnflow.scenario import Scenario
from ndnflow.sweep_grid import GridError, check_grid, check_overlaps, count_points, points, set_field, value_text

PathLike = Union[str, "os.PathLike[str]"]

SWEEP_CSV = "sweep.csv"
SWEEP_PARQUET = "sweep.parquet"
SWEEP_JSON = "sweep.json"
SCENARIOS_DIR = "scenarios"
#: What the terminal table shows when no metric is asked for.
DEFAULT_METRICS = ("consumers.*.goodput_bps",)


class SweepError(ValueError):
    """A sweep that cannot start (bad grid, a point the scenario reader refuses); names the point."""


class UnknownMetric(SweepError):
    """A metric pattern that matches no number of the summary."""


def matching(columns: Sequence[str], patterns: Union[str, Sequence[str]]) -> List[str]:
    """The `columns` matching any of the glob `patterns` (one pattern or several), in order."""
    patterns = [patterns] if isinstance(patterns, str) else list(patterns)
    return [column for column in columns if any(fnmatch.fnmatchcase(column, pattern) for pattern in patterns)]


def display(metric: str) -> Tuple[str, float, str]:
    """How tables and figures show a metric: (name, divisor, unit); rates (``*_bps``) in Mbit/s."""
    if metric.endswith("_bps"):
        return metric[: -len("_bps")], 1e6, "Mbit/s"
    return metric, 1.0, ""


@dataclass(frozen=True)
class SweepRun:
    """One run of a sweep: grid point `point` (0-based) with `values`, and `seed`."""

    point: int
    values: Dict[str, Any]
    seed: int
    scenario: Scenario
    duration_s: float

    @property
    def label(self) -> str:
        return _label(self.point, self.values, self.seed)

    @property
    def file_name(self) -> str:
        return f"point-{self.point:03d}-seed-{self.seed}.toml"


def _label(point: int, values: Mapping[str, Any], seed: int) -> str:
    """"point 3 (links[r,p].delay=15ms, seed 2)": how errors name a run."""
    settings = "".join(f"{key}={value_text(value)}, " for key, value in values.items())
    return f"point {point} ({settings}seed {seed})"


def flatten(summary: Mapping[str, Any], prefix: str = "") -> Dict[str, Any]:
    """The summary's numbers as one level: ``{"consumers.c1.goodput_bps": 5.2e6, ...}`` (strings are
    left out, booleans become 0/1, a missing value, such as the RTT of a consumer that got no Data,
    becomes NaN)."""
    flat: Dict[str, Any] = {}
    for key, value in summary.items():
        name = f"{prefix}{key}"
        if isinstance(value, Mapping):
            flat.update(flatten(value, name + "."))
        elif isinstance(value, bool):
            flat[name] = int(value)
        elif isinstance(value, (int, float)):
            flat[name] = value
        elif value is None:
            flat[name] = math.nan
    return flat


class SweepResults:
    """What a sweep produced.

    Attributes:
        table: one row per completed run, in grid order then seed order: ``point``, one column per
            grid key, ``seed``, then every number of the run's summary (``consumers.c1.goodput_bps``,
            ``links.r->p.drops``, ``nodes.r.cs_hits``, ``simulation.events``, ...).
        runs: every run of the grid (`SweepRun`), completed or not.
        grid, seeds: as given.
        interrupted: True when Ctrl-C stopped the sweep; the table holds the runs done until then.
    """

    def __init__(self, grid: Mapping[str, List[Any]], seeds: List[int], runs: List[SweepRun],
                 summaries: Sequence[Optional[Mapping[str, Any]]], interrupted: bool, source: str) -> None:
        self.grid = dict(grid)
        self.seeds = list(seeds)
        self.runs = list(runs)
        self.interrupted = interrupted
        self.source = source
        rows = []
        for run, summary in zip(runs, summaries):
            if summary is not None:
                rows.append({"point": run.point, **run.values, "seed": run.seed, **flatten(summary)})
        self.table = _frame(rows, ["point", *self.grid, "seed"])

    @property
    def keys(self) -> List[str]:
        return list(self.grid)

    def metrics(self, patterns: Union[str, Sequence[str]] = DEFAULT_METRICS) -> List[str]:
        """The metric columns matching any of the glob `patterns` (one pattern or several), in
        table order."""
        fixed = {"point", "seed", *self.grid}
        return matching([column for column in self.table.columns if column not in fixed], patterns)

    def mean(self, patterns: Union[str, Sequence[str]] = DEFAULT_METRICS) -> pd.DataFrame:
        """Per grid point: the grid values, ``runs`` (seeds completed), and each matching metric's
        mean and standard deviation over the seeds (``METRIC`` and ``METRIC.std``; NaN for one seed)."""
        metrics = self.metrics(patterns)
        if self.table.empty:
            return pd.DataFrame(columns=["point", *self.grid, "runs", *metrics])
        groups = self.table.groupby("point", sort=True)
        frame = groups[list(self.grid)].first() if self.grid else pd.DataFrame(index=groups.size().index)
        frame["runs"] = groups.size()
        for metric in metrics:
            frame[metric] = groups[metric].mean()
            frame[f"{metric}.std"] = groups[metric].std(ddof=1)
        return frame.reset_index()

    def text(self, patterns: Union[str, Sequence[str]] = DEFAULT_METRICS) -> str:
        """A terminal table: one line per grid point, each metric as mean (± sd over the seeds);
        rates (``*_bps``) in Mbit/s."""
        from ndnflow.report import render

        means = self.mean(patterns)
        metrics = self.metrics(patterns)
        several = len(self.seeds) > 1
        headers = [*self.grid, "runs" if several else "seed", *(_header(metric) for metric in metrics)]
        rows = []
        for i in range(len(means)):
            # Column by column: a row of mixed columns would turn the grid's integers into floats.
            cells = [value_text(means[key].iloc[i]) for key in self.grid]
            cells.append(str(int(means["runs"].iloc[i])) if several else str(self.seeds[0]))
            cells += [_cell(means[metric].iloc[i], means[f"{metric}.std"].iloc[i], metric, several) for metric in metrics]
            rows.append(cells)
        align = "l" * len(self.grid) + "r" * (len(headers) - len(self.grid))
        return render(headers, rows, align) + "\n"

    def save(self, directory: PathLike) -> List[Path]:
        """Write sweep.csv, sweep.parquet, sweep.json and scenarios/ into `directory`: each file
        atomically, sweep.json last, Ctrl-C or SIGTERM meanwhile acted on once all are written."""
        out = Path(directory)
        (out / SCENARIOS_DIR).mkdir(parents=True, exist_ok=True)
        with safe_io.signals_held():
            return self._save(out)

    def _save(self, out: Path) -> List[Path]:
        csv_path, parquet_path, json_path = out / SWEEP_CSV, out / SWEEP_PARQUET, out / SWEEP_JSON
        safe_io.write_text(csv_path, self.table.to_csv(index=False, lineterminator="\n"))
        safe_io.write_with(parquet_path, partial(_write_parquet, self.table))
        scenarios = [run.scenario.save(out / SCENARIOS_DIR / run.file_name) for run in self.runs]
        meta = {
            "scenario": self.source,
            # A list, not a table: the keys' order is the grid's (the last varies fastest).
            "grid": [{"key": key, "values": values} for key, values in self.grid.items()],
            "seeds": self.seeds,
            "runs": len(self.runs),
            "completed": len(self.table),
            "interrupted": self.interrupted,
        }
        safe_io.write_text(json_path, json.dumps(json_ready(meta), indent=2, sort_keys=True) + "\n")
        return [csv_path, parquet_path, json_path] + scenarios

    def __repr__(self) -> str:
        state = ", interrupted" if self.interrupted else ""
        return f"SweepResults({len(self.table)} of {len(self.runs)} runs, keys={self.keys}, seeds={self.seeds}{state})"


def _frame(rows: List[Dict[str, Any]], first: List[str]) -> pd.DataFrame:
    frame = pd.DataFrame(rows, columns=None if rows else first)
    for column in frame.columns:
        values = frame[column]
        if values.dtype == object and not all(isinstance(v, str) for v in values):
            # A grid column mixing numbers and words, or holding tables: keep it as text, so
            # that Parquet can store it and the CSV reads the same.
            frame[column] = values.map(value_text)
    return frame


def _header(metric: str) -> str:
    """"consumers.c1.goodput_bps" -> "c1.goodput [Mbit/s]": the section is left out to keep the
    table narrow (its field names tell consumers, links and nodes apart)."""
    name, _, unit = display(metric)
    section, _, rest = name.partition(".")
    name = rest if section in ("consumers", "links", "nodes") and rest else name
    return f"{name} [{unit}]" if unit else name


def _cell(mean: Any, std: Any, metric: str, several: bool) -> str:
    if pd.isna(mean):
        return "-"
    _, scale, _ = display(metric)
    text = f"{mean / scale:.4g}"
    if several and not pd.isna(std):
        text += f" ± {std / scale:.2g}"
    return text


#: The most runs (points x seeds) one sweep takes. Each is planned, its scenario built and checked,
#: before the first runs: a grid of three keys of 1,000 values each (10^9 points) grew to 13.7 GB
#: before printing anything, until 2026-11-28.
MAX_RUNS = 100_000


def _seed_list(seeds: Any) -> List[int]:
    """`seeds` as the command line's --seeds takes them: integers from 0 to 2^64 - 1, each once."""
    if isinstance(seeds, (str, bytes, Mapping)) or not isinstance(seeds, collections.abc.Iterable):
        raise SweepError(f"seeds: expected a list of integers, such as [1, 2, 3], got {seeds!r}")
    from ndnflow.cli import MAX_SEED

    seeds = list(seeds)
    for seed in seeds:
        # numbers.Integral: numpy's integers too (np.arange(1, 5)).
        if isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or not 0 <= seed <= MAX_SEED:
            raise SweepError(f"seeds: {seed!r} is not an integer from 0 to {MAX_SEED}")
    seed_list = [int(seed) for seed in seeds]
    repeated = sorted(seed for seed, times in collections.Counter(seed_list).items() if times > 1)
    if repeated:
        raise SweepError(f"seeds: {', '.join(map(str, repeated))} given more than once")
    return seed_list


def plan(scenario: Union[Scenario, PathLike], grid: Mapping[str, Sequence[Any]],
         seeds: Optional[Sequence[int]] = None) -> Tuple[Scenario, Dict[str, List[Any]], List[int], List[SweepRun], List[str]]:
    """Every run of the sweep, each point's scenario built and checked by the Rust reader, and the
    metric columns its table will have.

    Raises `SweepError` naming the key, or the point and what the reader said of it."""
    base = _scenario(scenario)
    if not isinstance(grid, Mapping) or not all(isinstance(key, str) for key in grid):
        raise SweepError(f"the grid: expected a table of keys (text) to lists of values, such as "
                         f"{{'links[0].delay': ['1ms', '10ms']}}, got {grid!r}")
    try:
        checked = check_grid(grid)
    except GridError as exc:
        raise SweepError(str(exc)) from None
    seed_list = [base.seed if base.seed is not None else 1] if seeds is None else _seed_list(seeds)
    if not seed_list:
        raise SweepError("no seeds")
    runs_asked = count_points(checked) * len(seed_list)
    if runs_asked > MAX_RUNS:
        sizes = " x ".join(str(len(values)) for values in checked.values())
        raise SweepError(f"the sweep asks for {runs_asked} runs ({sizes} values x {len(seed_list)} seeds), "
                         f"more than the {MAX_RUNS} one sweep takes; split it, or narrow the grid")
    base.validate()  # a mistake in the file itself is reported with its line in that file
    try:
        check_overlaps(base.to_dict(), checked)
    except GridError as exc:
        raise SweepError(str(exc)) from None
    runs: List[SweepRun] = []
    columns: List[str] = []
    for point, values in enumerate(points(checked)):
        doc = base.to_dict()
        try:
            for key, value in values.items():
                set_field(doc, key, value)
        except GridError as exc:
            raise SweepError(str(exc)) from None
        for seed in seed_list:
            variant = Scenario.from_dict(doc, base.source, base.base_dir).with_seed(seed)
            try:
                simulation = _native.require("Simulation")(variant.to_toml(), _POINT_SOURCE, base.base_dir)
            except _native.ScenarioError as exc:
                raise SweepError(f"{_label(point, values, seed)}: {_without_position(str(exc))}") from None
            if not runs:
                # The summary of a run not yet started has every key a finished one has.
                columns = list(flatten(simulation.summary()))
            runs.append(SweepRun(point, values, seed, variant, int(simulation.duration_ns) / 1e9))
    return base, checked, seed_list, runs, columns


#: The name a point's document has while it is checked; the reader's "name:line:column: " prefix
#: is then cut, since the lines are those of a document the user never sees.
_POINT_SOURCE = "<sweep point>"


def _without_position(message: str) -> str:
    return re.sub(rf"^{re.escape(_POINT_SOURCE)}(:\d+:\d+)?: ", "", message)


def _run_local(run: SweepRun, slot: RunSlot) -> Optional[Dict[str, Any]]:
    simulation = run.scenario.build_simulation()
    return simulation.summary() if drive(simulation, slot) else None


def run_summary(text: str, source: str, base_dir: Optional[str]) -> Dict[str, Any]:
    """Build and run one scenario to its end, returning its summary: what a Dask worker does."""
    simulation = _native.require("Simulation")(text, source, base_dir)
    simulation.run_until(int(simulation.duration_ns))
    return simulation.summary()


def sweep(scenario: Union[Scenario, PathLike], grid: Mapping[str, Sequence[Any]], *,
          seeds: Optional[Sequence[int]] = None, jobs: Optional[int] = None,
          progress: Optional[bool] = None, scheduler: Any = None,
          metrics: Optional[Union[str, Sequence[str]]] = None) -> SweepResults:
    """Run `scenario` (a `Scenario` or a file) for every combination of `grid`'s values and every
    seed (default: the scenario's own).

    `grid` maps keys such as ``"links[r,p].delay"`` or ``"consumers[0].cc.window"`` to lists of
    values. `jobs` runs at once on this machine (default: one per usable processor), or, with
    `scheduler` (a Dask scheduler address such as ``"tcp://10.0.0.1:8786"``, or a
    `distributed.Client`), on that cluster, whose workers need ndnflow installed. The results do not
    depend on either. Ctrl-C stops the sweep and returns what was done (``interrupted=True``).
    `metrics`, glob patterns the caller means to read (``"links.*.drops"``), are checked against
    the summary's numbers before anything runs: a pattern matching none is a `SweepError`.
    """
    if jobs is not None and (isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1):
        raise ValueError(f"jobs must be a whole number of at least 1, not {jobs!r}")
    base, checked, seed_list, runs, columns = plan(scenario, grid, seeds)
    for pattern in [metrics] if isinstance(metrics, str) else metrics or []:
        if not matching(columns, pattern):
            raise UnknownMetric(f"metric {pattern!r} matches no number of the summary "
                                f"(e.g. consumers.*.goodput_bps, links.*.drops, nodes.*.cs_hits)")
    summaries: List[Optional[Dict[str, Any]]] = [None] * len(runs)
    interrupted = False
    total_s = sum(run.duration_s for run in runs)
    with _progress_bar(total_s, progress, desc=f"sweep of {len(runs)} runs") as bar:
        try:
            if scheduler is None:
                tasks = [lambda slot, run=run: _run_local(run, slot) for run in runs]
                run_tasks(tasks, bar, usable_cpus() if jobs is None else jobs, summaries)
            else:
                from ndnflow.sweep_cluster import run_on_cluster

                run_on_cluster(scheduler, runs, bar, summaries)
        except KeyboardInterrupt:
            interrupted = True
    return SweepResults(checked, seed_list, runs, summaries, interrupted, base.source)
