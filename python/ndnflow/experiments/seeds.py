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
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any, Dict, List, Optional, Set

from ndnflow import safe_io
from ndnflow.experiments.common import Report, fmt, json_ready, run_experiment, wrap_line
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
        """How many rows pass with each seed, in the order of `seeds`."""
        return [report.checks_passed()[0] for report in self.reports]

    def _row(self, report: Report, metric: str) -> Any:
        return next((row for row in report.rows if row.metric == metric), None)

    def passes(self, metric: str) -> int:
        """In how many seeds the row passes."""
        return sum(1 for report in self.reports if (row := self._row(report, metric)) is not None and row.passed)

    def table(self) -> str:
        first = self.reports[0]
        head = f"{self.id} over seeds {_spec(self.seeds)}: {first.title} [{first.paper} {first.section}]"
        columns = ["metric", "paper"] + [f"seed {seed}" for seed in self.seeds] + ["passes"]
        lines = []
        for metric in self.metrics():
            cells = []
            for report in self.reports:
                row = self._row(report, metric)
                cells.append("-" if row is None else row.measured_text() + ("" if row.passed else " *"))
            paper = next((r.paper for rep in self.reports if (r := self._row(rep, metric)) is not None), None)
            lines.append([metric, "-" if paper is None else paper] + cells
                         + [f"{self.passes(metric)}/{len(self.seeds)}"])
        # Narrower than a single run's table: one measured column per seed (120 columns up to 4 seeds).
        widths = [30, 20] + [14] * len(self.seeds) + [6]
        body = render_wrapped(columns, lines, widths, align="ll" + "r" * len(self.seeds) + "r")
        return f"{head}\n{body}\n* the row fails its check with that seed\n"

    def summary_line(self) -> str:
        counts = ", ".join(str(n) for n in self.checks_passed())
        total = len(self.metrics())
        always = [m for m in self.metrics() if self.passes(m) == 0]
        line = f"{self.id}, seeds {_spec(self.seeds)}: {counts} of {total} checks pass"
        return wrap_line(line + (f"; failed with every seed: {'; '.join(always)}" if always else ""))

    def to_dict(self) -> Dict[str, Any]:
        # As results.json: nothing from the wall clock, so the same seeds give the same file.
        return json_ready({
            "id": self.id, "seeds": self.seeds, "passed": self.passed,
            "checks_passed": {str(r.seed): len(r.rows) - len(r.failed) for r in self.reports},
            "rows": [{"metric": metric, "passes": self.passes(metric),
                      "measured": {str(rep.seed): (None if (row := self._row(rep, metric)) is None else row.measured)
                                   for rep in self.reports},
                      "verdict": {str(rep.seed): (None if (row := self._row(rep, metric)) is None else row.verdict)
                                  for rep in self.reports}}
                     for metric in self.metrics()],
        })


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
    reports = [run_experiment(module, None if out_dir is None else out_dir / f"seed-{seed}",
                              duration=duration, seed=seed, progress=progress, jobs=jobs)
               for seed in seeds]
    sweep = SeedSweep(module.ID, list(seeds), reports)
    if out_dir is not None:
        sweep.files = write_sweep(sweep, out_dir) + [f for report in reports for f in report.files]
    return sweep
