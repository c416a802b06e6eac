"""One experiment over several seeds (`ndnflow reproduce ID --seeds 1-4`).

A paper reports one run, and so does `ndnflow reproduce` by default (seed 1). A row that passes
with one seed may fail with the next when it rests on a few random events (the moment of a mark,
which of two equal paths a random draw picks). This sweep runs every seed in full, as
`run_experiment` would, and puts the rows side by side: what holds whatever the seed, and what
does not. Each seed's run is saved as a single run is (DIR/seed-N), and the matrix goes to
DIR/seeds.csv and DIR/seeds.json.
"""

from __future__ import annotations

import csv
import io
import json
import math
import statistics
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any, Dict, List, Optional, Set

from ndnflow import safe_io
from ndnflow.experiments.common import Report, Row, fmt, judge, json_ready, run_experiment, wrap_line
from ndnflow.report import render_wrapped

SEEDS_CSV = "seeds.csv"
SEEDS_JSON = "seeds.json"
#: A sweep longer than this is more likely a typo ("1-1000") than a plan.
MAX_SEEDS = 100


class SeedSpecError(ValueError):
    """A `--seeds` value that is not a list of seeds."""


def parse_seeds(text: str) -> List[int]:
    """"1-4" -> [1, 2, 3, 4]; "1,3,7" -> [1, 3, 7]; ranges and single seeds may be mixed
    ("1-3,9"). Seeds are integers >= 0, each at most once, in the order given."""
    seeds: List[int] = []
    given: Set[int] = set()
    for part in text.split(","):
        part = part.strip()
        if not part:
            raise SeedSpecError(f"--seeds {text!r}: empty item (expected e.g. 1-4 or 1,3,7)")
        if part.startswith("-"):
            raise SeedSpecError(f"--seeds {text!r}: {part!r} is negative (a seed is an integer >= 0)")
        low_text, dash, high_text = part.partition("-")
        if dash and not high_text.strip():
            raise SeedSpecError(f"--seeds {text!r}: range {part!r} has no end")
        low, high = _seed(low_text, text), _seed(high_text, text) if dash else None
        high = low if high is None else high
        if high < low:
            raise SeedSpecError(f"--seeds {text!r}: range {part!r} runs backwards")
        # Checked before the range is expanded: "1-100000000" must not build its list first.
        if len(seeds) + (high - low + 1) > MAX_SEEDS:
            raise SeedSpecError(f"--seeds {text!r}: more than {MAX_SEEDS} seeds")
        for seed in range(low, high + 1):
            if seed in given:
                raise SeedSpecError(f"--seeds {text!r}: seed {seed} is given twice")
            given.add(seed)
            seeds.append(seed)
    return seeds


def _seed(item: str, text: str) -> int:
    item = item.strip()
    if not item.isdigit():
        raise SeedSpecError(f"--seeds {text!r}: {item!r} is not a seed (an integer >= 0)")
    from ndnflow.cli import MAX_SEED

    if int(item) > MAX_SEED:
        raise SeedSpecError(f"--seeds {text!r}: {item} is above the largest seed, {MAX_SEED} (2^64 - 1)")
    return int(item)


@dataclass
class SeedSweep:
    """The reports of one experiment, one per seed, in the order the seeds were given."""

    id: str
    seeds: List[int]
    reports: List[Report]
    files: List[Path] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return all(report.passed for report in self.reports)

    def metrics(self) -> List[str]:
        """Every row's metric, in the first report's order (later reports' extra rows last)."""
        names: List[str] = []
        for report in self.reports:
            names += [row.metric for row in report.rows if row.metric not in names]
        return names

    def checks_passed(self) -> List[int]:
        """How many checks pass with each seed, in the order of `seeds`."""
        return [report.checks_passed()[0] for report in self.reports]

    def checks(self) -> List[str]:
        """The metrics that count (information rows left out), as the first report has them."""
        return [m for m in self.metrics() if (row := self._first(m)) is not None and row.counts]

    def _row(self, report: Report, metric: str) -> Any:
        return next((row for row in report.rows if row.metric == metric), None)

    def _first(self, metric: str) -> Optional[Row]:
        return next((row for rep in self.reports if (row := self._row(rep, metric)) is not None), None)

    def passes(self, metric: str) -> int:
        """In how many seeds the row passes."""
        return sum(1 for report in self.reports if (row := self._row(report, metric)) is not None and row.passed)

    def median(self, metric: str) -> Any:
        """The median over the seeds of the row's value (of each item, for a list), None when
        fewer than half of the seeds measured it."""
        values = [row.measured for rep in self.reports if (row := self._row(rep, metric)) is not None]
        return median_of(values, len(self.reports))

    def median_passes(self, metric: str) -> bool:
        """The row's judgement on the median of the seeds: its own rule applied to `median`. A row
        without its rule (built by hand), or whose values have no median (lists of events whose
        length differs by seed, such as the start of each burst), is judged by the majority of the
        seeds' verdicts, the median verdict (half or fewer passing: fail)."""
        row = self._first(metric)
        if row is None:
            return False
        value = self.median(metric)
        if row.test is None or (value is None and self._all_measured(metric)):
            return 2 * self.passes(metric) > len(self.reports)
        return value is not None and judge(row.test, value)

    def _all_measured(self, metric: str) -> bool:
        rows = [self._row(report, metric) for report in self.reports]
        return all(row is not None and row.measured is not None for row in rows)

    def median_checks_passed(self) -> int:
        return sum(1 for metric in self.checks() if self.median_passes(metric))

    def table(self) -> str:
        first = self.reports[0]
        head = wrap_line(f"{self.id} over seeds {_spec(self.seeds)}: {first.title} [{first.paper} {first.section}]")
        columns = ["metric", "paper"] + [f"seed {seed}" for seed in self.seeds] + ["median", "passes"]
        lines = []
        for metric in self.metrics():
            cells = []
            for report in self.reports:
                row = self._row(report, metric)
                cells.append("-" if row is None else row.measured_text() + ("" if row.passed else " *"))
            first_row = self._first(metric)
            paper = None if first_row is None else first_row.paper
            median_cell = fmt(self.median(metric)) + ("" if self.median_passes(metric) else " *")
            passes = f"{self.passes(metric)}/{len(self.seeds)}"
            lines.append([metric, "-" if paper is None else paper] + cells
                         + [median_cell, passes if first_row is None or first_row.counts else f"({passes})"])
        # Narrower than a single run's table: one measured column per seed (120 columns up to 4 seeds).
        widths = [24, 14] + [12] * len(self.seeds) + [12, 6]
        body = render_wrapped(columns, lines, widths, align="ll" + "r" * (len(self.seeds) + 1) + "r")
        return (f"{head}\n{body}\n* the row fails its check with that seed, or on the median; "
                f"(n/m): information, not counted\n")

    def summary_line(self) -> str:
        counts = ", ".join(str(n) for n in self.checks_passed())
        total = len(self.checks())
        always = [m for m in self.checks() if self.passes(m) == 0]
        line = (f"{self.id}, seeds {_spec(self.seeds)}: {counts} of {total} checks pass; "
                f"on the median {self.median_checks_passed()} of {total}")
        return wrap_line(line + (f"; failed with every seed: {'; '.join(always)}" if always else ""))

    def to_dict(self) -> Dict[str, Any]:
        # As results.json: nothing from the wall clock, so the same seeds give the same file.
        return json_ready({
            "id": self.id, "seeds": self.seeds, "passed": self.passed,
            "checks": len(self.checks()), "median_checks_passed": self.median_checks_passed(),
            "checks_passed": {str(r.seed): r.checks_passed()[0] for r in self.reports},
            "rows": [{"metric": metric, "passes": self.passes(metric),
                      "kind": None if (first := self._first(metric)) is None else first.kind,
                      "median": self.median(metric),
                      "median_verdict": "pass" if self.median_passes(metric) else "fail",
                      "measured": {str(rep.seed): (None if (row := self._row(rep, metric)) is None else row.measured)
                                   for rep in self.reports},
                      "verdict": {str(rep.seed): (None if (row := self._row(rep, metric)) is None else row.verdict)
                                  for rep in self.reports}}
                     for metric in self.metrics()],
        })


def median_of(values: List[Any], seeds: int) -> Any:
    """The median of one row's values over `seeds` seeds: of each item for lists of one length,
    None when fewer than half of the seeds gave a value (or the items do not line up)."""
    present = [v for v in values if v is not None]
    if 2 * len(present) < seeds or not present:
        return None
    if all(isinstance(v, (list, tuple)) for v in present):
        if len({len(v) for v in present}) != 1:
            return None
        return [median_of([v[k] for v in present], len(present)) for k in range(len(present[0]))]
    try:
        numbers = [float(v) for v in present]
    except (TypeError, ValueError):
        return None
    numbers = [x for x in numbers if not math.isnan(x)]
    return float(statistics.median(numbers)) if 2 * len(numbers) >= seeds and numbers else None


def _spec(seeds: List[int]) -> str:
    """[1, 2, 3, 4] -> "1-4"; anything else comma-separated."""
    if len(seeds) > 2 and seeds == list(range(seeds[0], seeds[-1] + 1)):
        return f"{seeds[0]}-{seeds[-1]}"
    return ",".join(str(seed) for seed in seeds)


def write_sweep(sweep: SeedSweep, out_dir: Path) -> List[Path]:
    """DIR/seeds.json (the matrix with each seed's value and verdict) and DIR/seeds.csv (one line
    per row and seed)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    table = io.StringIO(newline="")
    writer = csv.writer(table)
    writer.writerow(["metric", "paper", "seed", "measured", "unit", "tolerance", "verdict"])
    for metric in sweep.metrics():
        for report in sweep.reports:
            row = sweep._row(report, metric)
            if row is not None:
                writer.writerow([metric, row.paper if row.paper is not None else "", report.seed,
                                 fmt(row.measured), row.unit, row.tolerance, row.verdict])
    with safe_io.signals_held():
        path_csv = safe_io.write_text(out_dir / SEEDS_CSV, table.getvalue())
        path_json = safe_io.write_text(out_dir / SEEDS_JSON, json.dumps(sweep.to_dict(), indent=2, sort_keys=True) + "\n")
    return [path_json, path_csv]


def run_seeds(module: ModuleType, seeds: List[int], out_dir: Optional[Path] = None, *,
              duration: Any = None, progress: Optional[bool] = None, jobs: Optional[int] = None) -> SeedSweep:
    """Run `module` once per seed (each saved to out_dir/seed-N, as `run_experiment` saves one
    run, its variants `jobs` at a time) and collect the reports."""
    if not seeds:
        raise SeedSpecError("no seeds given")
    reports: List[Report] = []
    try:
        for seed in seeds:
            reports.append(run_experiment(module, None if out_dir is None else out_dir / f"seed-{seed}",
                                          duration=duration, seed=seed, progress=progress, jobs=jobs))
    except KeyboardInterrupt:
        if not reports:
            raise
        # The seeds that finished keep their table and files (only their seed-N folders were
        # left, unnamed, until 2026-11-28).
        sweep = _collected(module, seeds[:len(reports)], reports, out_dir)
        raise SeedsInterrupted(sweep, list(seeds)) from None
    return _collected(module, seeds, reports, out_dir)


def _collected(module: ModuleType, seeds: List[int], reports: List[Report], out_dir: Optional[Path]) -> SeedSweep:
    sweep = SeedSweep(module.ID, list(seeds), reports)
    if out_dir is not None:
        sweep.files = write_sweep(sweep, out_dir) + [f for report in reports for f in report.files]
    return sweep


class SeedsInterrupted(KeyboardInterrupt):
    """Ctrl-C after some seeds finished: `sweep` holds those (their table and files written),
    `asked` every seed given."""

    def __init__(self, sweep: SeedSweep, asked: List[int]) -> None:
        super().__init__(f"interrupted after {len(sweep.seeds)} of {len(asked)} seeds")
        self.sweep = sweep
        self.asked = asked
