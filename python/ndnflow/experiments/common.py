"""What every experiment shares: result rows and their verdicts, running several variants under one
progress bar, the table, the files written, and figure helpers.

An experiment module defines ``ID``, ``TITLE``, ``PAPER``, ``SECTION``, ``DURATION`` and three
functions:

* ``scenarios(duration=DURATION, seed=SEED) -> {variant: Scenario}``
* ``metrics(results: {variant: Results}) -> [Row]``; it reads only ``summary``, ``links`` and
  ``consumers``, so any object with those three attributes will do (the tests use small synthetic
  ones);
* ``figures(results, out_dir) -> [Path]``.

`run_experiment` ties them together.
"""

from __future__ import annotations

import csv
import io
import json
import math
import os
import textwrap
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import ModuleType
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Union

import numpy as np
import pandas as pd
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from ndnflow import figures, safe_io
from ndnflow.report import render_wrapped
from ndnflow.results import Results, json_ready
from ndnflow.runner import _progress_bar, advance_all, core_results, usable_cpus
from ndnflow.scenario import Scenario

PathLike = Union[str, "os.PathLike[str]"]

#: The router queue of the PCON variants of pcon-4.1 and pcon-4.2: PCON's own detector (CoDel
#: detection, marking interval from 110 ms shrinking as 1/sqrt(marks), §3.2; the highly congested
#: state of §3.6), with the experiment's queue limit.
PCON_QUEUE: Dict[str, Any] = {"discipline": "pcon"}

#: PCON's own marking queue (CoDel detection, marks spaced from 110 ms, §3.2), as pcon-4.3 and
#: pcon-4.4-* use it, with the 1000-packet limit of the authors' ndnSIM scripts (QUEUE_SIZE_PKTS).
PCON_MARKING_QUEUE: Dict[str, Any] = {"discipline": "pcon", "packets": 1000}

#: The PCON consumer as pcon-4.3 and pcon-4.4-* run it: BIC with a decrease per mark (§3.3) and
#: beta = 0.5, "the consumer reacts more strongly to each congestion mark (e.g., by halving the
#: cwnd)" (§3.4), which is also the BETA default of the authors' ndnSIM consumer (ConsumerCC).
#: pcon-4.1 and pcon-4.2 keep ndnflow's default beta of 0.8.
PCON_CONSUMER: Dict[str, Any] = {"algorithm": "pcon", "beta": 0.5}


#: The catalog's readings of the papers' recurring words (docs/experiments/README.md, "One reading
#: per phrase"), fixed before looking at results. Two rates are "alike", "similar" or "the same"
#: when the larger is at most 1.25 x the smaller.
ALIKE = 1.25
#: "Quickly": within 2 s of its cause (~70 RTTs of the PCON topologies).
QUICKLY_S = 2.0
#: "Significantly", "clearly", "much" (higher): at least +10 %.
MUCH = 1.1


def fixed_rto(seconds: float) -> Dict[str, float]:
    """A consumer `rto` table that pins the timer to `seconds` (PCON's "fixed higher RTO", §4.2)."""
    return {"initial": seconds, "min": seconds, "max": seconds}


RESULTS_JSON = "results.json"
RESULTS_CSV = "results.csv"
DPI = figures.DPI


# ------------------------------------------------------------------------------------ rows


#: A row's kind (docs/experiments/README.md, "Checks and information"): a **check** compares a
#: number or claim the paper's text states with a measurement and counts in "N of M checks pass";
#: an **info** row (a setting, a precondition, a derived figure, a duplicate of another row's run,
#: or a row that cannot fail under the configured settings) is shown with its verdict in
#: parentheses and counts nowhere.
CHECK, INFO = "check", "info"


@dataclass
class Row:
    """One metric: what the paper says, what we measured, and whether that agrees.

    `paper` is the paper's number when the text states one, else the qualitative expectation as
    text (or None); `tolerance` says what counts as agreement and, shortly, why. `test` is the
    verdict's rule, kept so that a seed sweep can judge the median of the seeds' values by it.
    `seed_sensitive`: the verdict changes over seeds 1-4, or the value moves more than its
    tolerance band, so one seed's verdict is not the row's judgement (the catalog judges it on
    the median of seeds 1-4).
    """

    metric: str
    paper: Optional[str]
    measured: Any
    tolerance: str
    passed: bool
    unit: str = ""
    kind: str = CHECK
    test: Optional[Callable[[Any], bool]] = field(default=None, repr=False, compare=False)
    seed_sensitive: bool = False

    @property
    def counts(self) -> bool:
        """Whether the row counts in "N of M checks pass"."""
        return self.kind == CHECK

    @property
    def verdict(self) -> str:
        return "pass" if self.passed else "fail"

    def verdict_cell(self) -> str:
        """The table's verdict: "(pass)" for an info row, "pass~" for a seed-sensitive check."""
        if not self.counts:
            return f"({self.verdict})"
        return self.verdict + ("~" if self.seed_sensitive else "")

    def measured_text(self) -> str:
        return f"{fmt(self.measured)}{' ' + self.unit if self.unit and _is_number(self.measured) else ''}"

    def to_dict(self) -> Dict[str, Any]:
        return json_ready({"metric": self.metric, "paper": self.paper, "measured": self.measured, "unit": self.unit,
                           "tolerance": self.tolerance, "verdict": self.verdict, "kind": self.kind,
                           "seed_sensitive": self.seed_sensitive})


def classify(rows: List[Row], info_rows: Sequence[str] = (), seed_sensitive: Sequence[str] = ()) -> List[Row]:
    """`rows` with those named in `info_rows` made information and those in `seed_sensitive`
    flagged (a module's `INFO_ROWS` and `SEED_SENSITIVE`); a name that matches no row is a typo in
    the experiment module."""
    names = {row.metric for row in rows}
    for what, metrics in (("INFO_ROWS", info_rows), ("SEED_SENSITIVE", seed_sensitive)):
        unknown = set(metrics) - names
        if unknown:
            raise KeyError(f"{what} names metrics that no row has: {sorted(unknown)}")
    return [replace(row, kind=INFO if row.metric in info_rows else row.kind,
                    seed_sensitive=row.metric in seed_sensitive) for row in rows]


#: The table's footnote on its verdict markers.
VERDICT_NOTE = ("(pass), (fail): information, not counted; pass~, fail~: a value that moves with the seed, "
                "judged on the median of seeds 1-4 (--seeds 1-4)")


#: A printed table fits a terminal this wide (issue 21: it was 239 characters).
TABLE_COLUMNS = 120


def wrap_line(text: str) -> str:
    """`text` within `TABLE_COLUMNS` columns, continuation lines indented by two spaces."""
    return textwrap.fill(text, TABLE_COLUMNS, subsequent_indent="  ", break_on_hyphens=False)


#: Widest metric, paper, measured, tolerance and verdict cells: 120 columns with the 4 x 2 blanks
#: between them; longer cells wrap onto further lines.
TABLE_WIDTHS = (36, 28, 22, 19, 7)


def tolerance_bound(tolerance: str) -> str:
    """The bound of a row's tolerance, "<= 5 ms" of "<= 5 ms: CoDel's target, r3 included": the
    text up to the first ": " outside parentheses (a tolerance writes "bound: reason")."""
    depth = 0
    for k, char in enumerate(tolerance):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth == 0 and tolerance.startswith(": ", k):
            return tolerance[:k]
    return tolerance


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, bool)


def fmt(value: Any) -> str:
    """A measured value for the table: integers as they are, floats with 3 significant digits."""
    if value is None:
        return "-"
    if isinstance(value, (bool, np.bool_)):
        return "yes" if value else "no"
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    if isinstance(value, (float, np.floating)):
        value = float(value)
        if not math.isfinite(value):
            return "-"
        return f"{value:.3g}" if abs(value) < 1000 else f"{value:.0f}"
    if isinstance(value, (list, tuple)):
        return " / ".join(fmt(item) for item in value)
    return str(value)


def _ok(value: Any) -> bool:
    return value is not None and not (isinstance(value, float) and math.isnan(value))


def check(metric: str, paper: Optional[str], measured: Any, tolerance: str, test: Callable[[Any], bool],
          unit: str = "") -> Row:
    """A row whose verdict is `test(measured)`; a missing measurement (None, NaN) fails."""
    return Row(metric, paper, measured, tolerance, judge(test, measured), unit, test=test)


def judge(test: Callable[[Any], bool], measured: Any) -> bool:
    """`test(measured)`, failing when a value is missing (None, NaN)."""
    values = measured if isinstance(measured, (list, tuple)) else [measured]
    return all(_ok(v) for v in values) and bool(test(measured))


def _bound(op: str, bound: float, unit: str, why: str) -> str:
    return f"{op} {fmt(bound)}{' ' + unit if unit else ''}: {why}"


def at_least(metric: str, paper: Optional[str], measured: Any, bound: float, why: str, unit: str = "") -> Row:
    return check(metric, paper, measured, _bound(">=", bound, unit, why), lambda v: v >= bound, unit)


def at_most(metric: str, paper: Optional[str], measured: Any, bound: float, why: str, unit: str = "") -> Row:
    return check(metric, paper, measured, _bound("<=", bound, unit, why), lambda v: v <= bound, unit)


def below(metric: str, paper: Optional[str], measured: Any, bound: float, why: str, unit: str = "") -> Row:
    return check(metric, paper, measured, _bound("<", bound, unit, why), lambda v: v < bound, unit)


def above(metric: str, paper: Optional[str], measured: Any, bound: float, why: str, unit: str = "") -> Row:
    return check(metric, paper, measured, _bound(">", bound, unit, why), lambda v: v > bound, unit)


def all_zero(metric: str, paper: Optional[str], measured: Sequence[Any], why: str) -> Row:
    return check(metric, paper, list(measured), f"all 0: {why}", lambda v: all(x == 0 for x in v))


def all_positive(metric: str, paper: Optional[str], measured: Sequence[Any], why: str) -> Row:
    return check(metric, paper, list(measured), f"all > 0: {why}", lambda v: all(x > 0 for x in v))


def within(metric: str, paper_value: float, measured: Any, abs_tol: float, why: str, unit: str = "") -> Row:
    paper = f"{fmt(paper_value)}{' ' + unit if unit else ''}"
    return check(metric, paper, measured, f"±{fmt(abs_tol)}{' ' + unit if unit else ''}: {why}",
                 lambda v: abs(v - paper_value) <= abs_tol, unit)


# ------------------------------------------------------------------------- reading results


def link_total(results: Any, link: str, key: str) -> int:
    """A link direction's total of `key` (drops, marks, packets, ...) from the summary, 0 if absent."""
    return int(results.summary.get("links", {}).get(link, {}).get(key, 0) or 0)


def consumer_total(results: Any, consumer: str, key: str) -> Any:
    return results.summary.get("consumers", {}).get(consumer, {}).get(key)


def all_drops(results: Any) -> int:
    return sum(int(link.get("drops", 0) or 0) for link in results.summary.get("links", {}).values())


def all_lost(results: Any) -> int:
    """Everything that can keep a Data from ever answering an Interest: queue drops, link losses,
    expired PIT entries and Nacks."""
    summary = results.summary
    links = sum(int(link.get(key, 0) or 0) for link in summary.get("links", {}).values() for key in ("drops", "losses"))
    nodes = sum(int(node.get("pit_expired", 0) or 0) for node in summary.get("nodes", {}).values())
    nacks = sum(int(c.get("nacks", 0) or 0) for c in summary.get("consumers", {}).values())
    return links + nodes + nacks


def link_rows(results: Any, link: str, start_s: float = 0.0, end_s: float = math.inf) -> pd.DataFrame:
    frame = results.links
    return frame[(frame["link"] == link) & (frame["time_s"] >= start_s) & (frame["time_s"] < end_s)]


def consumer_rows(results: Any, consumer: str, start_s: float = 0.0, end_s: float = math.inf) -> pd.DataFrame:
    frame = results.consumers
    return frame[(frame["consumer"] == consumer) & (frame["time_s"] >= start_s) & (frame["time_s"] < end_s)]


def mean_goodput_bps(results: Any, consumer: str, start_s: float = 0.0, end_s: float = math.inf) -> float:
    """Mean goodput over the bins in [start_s, end_s) (bins of equal width)."""
    rows = consumer_rows(results, consumer, start_s, end_s)
    return float(rows["goodput_bps"].mean()) if len(rows) else float("nan")


def jain_index(rates: Sequence[float]) -> float:
    """Jain's fairness index (sum x)^2 / (n sum x^2) (Jain, Chiu and Hawe, DEC-TR-301, 1984): 1 when
    every rate is equal, 1/n when one takes everything; nan for no rates or all zero."""
    values = [float(x) for x in rates]
    squares = sum(x * x for x in values)
    return sum(values) ** 2 / (len(values) * squares) if squares > 0 else float("nan")


def weighted_sojourn_ms(results: Any, link: str) -> float:
    """Queuing delay of a link direction: the per-bin mean sojourn weighted by packets sent."""
    rows = link_rows(results, link)
    rows = rows[rows["sojourn_ms"].notna()]
    weight = rows["packets"].sum()
    return float((rows["sojourn_ms"] * rows["packets"]).sum() / weight) if weight else float("nan")


# ------------------------------------------------------------------------------------ runs


def run_variants(scenarios: Mapping[str, Scenario], progress: Optional[bool] = None,
                 desc: str = "simulating", jobs: Optional[int] = None) -> Dict[str, Results]:
    """Run every scenario under one progress bar (simulated seconds of all runs together), `jobs`
    at a time (default: one per usable processor). The results do not depend on `jobs`.

    Ctrl-C raises KeyboardInterrupt: half an experiment has no verdict.
    """
    simulations = {name: scenario.build_simulation() for name, scenario in scenarios.items()}
    total_s = sum(int(sim.duration_ns) for sim in simulations.values()) / 1e9
    with _progress_bar(total_s, progress, desc) as bar:
        advance_all(list(simulations.values()), bar, usable_cpus() if jobs is None else jobs)
    results: Dict[str, Results] = {}
    for name, simulation in simulations.items():
        text, _source, _base = scenarios[name].compiled()
        results[name] = Results.from_core(core_results(simulation), scenario_toml=text)
    return results


@dataclass
class Report:
    """An experiment's outcome: its rows, the variants' results and the files written."""

    id: str
    title: str
    paper: str
    section: str
    rows: List[Row]
    results: Dict[str, Results] = field(repr=False, default_factory=dict)
    files: List[Path] = field(default_factory=list)
    elapsed_s: float = 0.0
    seed: Optional[int] = None
    duration: Optional[str] = None

    @property
    def checks(self) -> List[Row]:
        """The rows that count: information rows are left out."""
        return [row for row in self.rows if row.counts]

    @property
    def passed(self) -> bool:
        return all(row.passed for row in self.checks)

    @property
    def failed(self) -> List[Row]:
        """The checks that fail (a failing information row is shown, not counted)."""
        return [row for row in self.checks if not row.passed]

    def checks_passed(self) -> List[int]:
        """How many checks pass, as a one-seed list (a SeedSweep gives one count per seed)."""
        return [len(self.checks) - len(self.failed)]

    def seed_sensitive(self) -> List[Row]:
        """The checks whose verdict here is this seed's alone (see `Row.seed_sensitive`)."""
        return [row for row in self.checks if row.seed_sensitive]

    def table(self) -> str:
        """The rows as text within `TABLE_COLUMNS` columns: each tolerance's bound without its
        reason (results.json, results.csv and the experiment's page keep that)."""
        head = textwrap.fill(f"{self.id}: {self.title} [{self.paper} {self.section}]", TABLE_COLUMNS)
        body = render_wrapped(["metric", "paper", "measured", "tolerance", "verdict"],
                              [[r.metric, r.paper if r.paper is not None else "-", r.measured_text(),
                                tolerance_bound(r.tolerance), r.verdict_cell()] for r in self.rows],
                              TABLE_WIDTHS, align="llrll")
        return f"{head}\n{body}\n{wrap_line(VERDICT_NOTE)}\n"

    def summary_line(self) -> str:
        """One line per experiment, wrapped within `TABLE_COLUMNS` (continuation lines indented)."""
        line = f"{self.id}: {self.checks_passed()[0]} of {len(self.checks)} checks pass"
        extras = []
        if len(self.rows) > len(self.checks):
            extras.append(f"{len(self.rows) - len(self.checks)} info rows")
        if self.seed_sensitive():
            extras.append(f"{len(self.seed_sensitive())} seed-sensitive (~)")
        line += f" ({', '.join(extras)})" if extras else ""
        return wrap_line(line + ("" if self.passed else "; failed: " + "; ".join(row.metric for row in self.failed)))

    def to_dict(self) -> Dict[str, Any]:
        # No wall-clock time in here: the same seed gives the same file.
        return json_ready({
            "id": self.id, "title": self.title, "paper": self.paper, "section": self.section,
            "seed": self.seed, "duration": self.duration, "passed": self.passed,
            "checks": len(self.checks), "checks_passed": self.checks_passed()[0],
            "rows": [row.to_dict() for row in self.rows],
            "variants": {name: _recorded_summary(res.summary) for name, res in self.results.items()},
        })


#: Consumer summary keys added after the catalog's results were recorded (the RTT percentiles and
#: the count of Data a store answered, issue 24). results.json leaves them out so that a recorded file stays byte-identical across
#: the change and a diff shows changed results only; each run's own summary has them.
NOT_RECORDED = ("rtt_p50_ms", "rtt_p95_ms", "rtt_p99_ms", "data_from_cache")


def _recorded_summary(summary: Mapping[str, Any]) -> Dict[str, Any]:
    """`summary` without the `NOT_RECORDED` consumer keys."""
    consumers = {name: {k: v for k, v in c.items() if k not in NOT_RECORDED}
                 for name, c in summary.get("consumers", {}).items()}
    return {**summary, "consumers": consumers} if "consumers" in summary else dict(summary)


def write_report(report: Report, out_dir: PathLike) -> List[Path]:
    """results.json (rows + each variant's summary), results.csv (the table), scenarios/*.toml."""
    out = Path(out_dir)
    (out / "scenarios").mkdir(parents=True, exist_ok=True)
    # Each file atomically, results.json last; a stop signal meanwhile waits for them all.
    with safe_io.signals_held():
        written = [out / RESULTS_JSON]
        table = io.StringIO(newline="")
        writer = csv.writer(table)
        writer.writerow(["metric", "paper", "measured", "unit", "tolerance", "verdict", "kind"])
        for row in report.rows:
            writer.writerow([row.metric, row.paper if row.paper is not None else "", fmt(row.measured), row.unit,
                             row.tolerance, row.verdict, row.kind])
        written.append(safe_io.write_text(out / RESULTS_CSV, table.getvalue()))
        for name, res in report.results.items():
            if res.scenario_toml is not None:
                written.append(safe_io.write_text(out / "scenarios" / f"{name}.toml", res.scenario_toml))
        safe_io.write_text(written[0], json.dumps(report.to_dict(), indent=2, sort_keys=True) + "\n")
    return written


def run_experiment(module: ModuleType, out_dir: Optional[PathLike] = None, *, duration: Any = None,
                   seed: Optional[int] = None, progress: Optional[bool] = None,
                   jobs: Optional[int] = None) -> Report:
    """Run an experiment module's scenarios (`jobs` at a time, default one per usable processor),
    check its metrics, and (with `out_dir`) write the figures, results.json, results.csv and the
    scenarios there."""
    started = time.perf_counter()
    kwargs: Dict[str, Any] = {}
    if duration is not None:
        kwargs["duration"] = duration
    if seed is not None:
        kwargs["seed"] = seed
    scenarios = module.scenarios(**kwargs)
    results = run_variants(scenarios, progress, desc=module.ID, jobs=jobs)
    first = next(iter(scenarios.values()))
    rows = classify(module.metrics(results), getattr(module, "INFO_ROWS", ()), getattr(module, "SEED_SENSITIVE", ()))
    report = Report(module.ID, module.TITLE, module.PAPER, module.SECTION, rows, results,
                    seed=first.seed, duration=first.duration)
    if out_dir is not None:
        report.files = write_report(report, out_dir) + list(module.figures(results, out_dir))
    report.elapsed_s = time.perf_counter() - started
    return report


# --------------------------------------------------------------------------------- figures


def figure_grid(rows: int, cols: int, width: float = 4.2, height: float = 2.2):
    """A Figure (Agg canvas, no pyplot) and its axes as a rows x cols array, columns sharing x."""
    figure = Figure(figsize=(width * cols, height * rows), dpi=DPI)
    FigureCanvasAgg(figure)
    axes = figure.subplots(rows, cols, squeeze=False, sharex="col")
    return figure, axes


def save_figure(figure: Figure, path: Path) -> List[Path]:
    """`figure` at `path`, once per chosen figure format (`ndnflow.figures`); the paths written."""
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    return figures.save(figure, path)


def step(ax: Any, times: Any, values: Any, **style: Any) -> None:
    """A per-bin value drawn over its bin."""
    ax.plot(np.asarray(times), np.asarray(values), drawstyle="steps-post", linewidth=1.0, **style)


def rebin(frame: pd.DataFrame, width_s: float, column: str, how: str = "mean") -> pd.Series:
    """`column` of a one-series frame aggregated into bins of `width_s` (for smoother rate lines)."""
    keys = (frame["time_s"] / width_s + 1e-9).astype(int) * width_s
    return frame.groupby(keys)[column].agg(how)
