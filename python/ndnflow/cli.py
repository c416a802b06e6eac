"""The `ndnflow` command: run, sweep, plot, bench, import-ndnsim, reproduce (fwd, get and serve in
cli_net.py; plot in cli_plot.py; topology and import-rocketfuel in cli_topology.py).

Every mistake of the user (bad scenario, missing file, bad option) ends with one line
"error: ..." on stderr and exit status 2; an unexpected failure with exit status 1 and a one-line
message (NDNFLOW_DEBUG=1 shows the traceback instead).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import warnings
from pathlib import Path
from typing import Any, Dict, List, NoReturn, Optional, Sequence, Tuple

from ndnflow import _native, cli_net, cli_plot, cli_topology, figures, safe_io, units
from ndnflow._native import CoreUnavailableError, ScenarioError
from ndnflow.report import late_consumer_warnings, sweep_late_consumer_warnings

EXIT_OK = 0
EXIT_INTERNAL = 1
#: `reproduce`: the experiment ran, and some check of the paper's numbers failed.
EXIT_CHECKS_FAILED = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130


class UsageError(Exception):
    """A mistake in the command line or its inputs: reported in one line, exit status 2."""


class _Parser(argparse.ArgumentParser):
    """argparse, but errors are raised (and reported by `main` in one line) instead of printed."""

    def error(self, message: str) -> NoReturn:
        if message.endswith(": expected one argument"):
            # `--lifetime -1s`: argparse takes a value that starts with '-' (and is not a plain
            # number) for an option, and said only "expected one argument" (until 2026-11-28).
            option = message.removeprefix("argument ").split(":")[0].split("/")[-1]
            message += f" (for a value that starts with '-', write {option}=VALUE)"
        raise UsageError(f"{message} (see '{self.prog} --help')")


def _say(message: str) -> None:
    print(message, file=sys.stderr)


# ------------------------------------------------------------------------------------ commands

#: `simulation.seed` is an unsigned 64-bit integer.
MAX_SEED = 2**64 - 1


def _duration_option(text: str, option: str = "--duration", zero: bool = False) -> str:
    """`--duration`'s text, by the rule and with the message of `simulation.duration` in a file,
    but named as the option (the file's message would point into a scenario the user never wrote);
    longer than 0 unless `zero` (a link's delay may be none)."""
    try:
        seconds = units.parse_duration(text)
    except ValueError as exc:
        raise UsageError(f"{option}: {exc}") from None
    if seconds <= 0 and not zero:
        raise UsageError(f"{option} {text.strip()}: must be longer than 0")
    return units.normalize_duration(text)


def _bandwidth_option(text: str, option: str = "--bandwidth") -> str:
    """A bandwidth option's text, by the rule and with the message of a bandwidth in a file, but
    named as the option (the file's message would point into a scenario the user never wrote)."""
    try:
        units.parse_bandwidth(text)
    except ValueError as exc:
        raise UsageError(f"{option}: {exc}") from None
    return text.strip()


def _check_seed_option(seed: Optional[int]) -> None:
    if seed is not None and not 0 <= seed <= MAX_SEED:
        raise UsageError(f"--seed {seed}: a seed is an integer from 0 to {MAX_SEED}")


def _check_out_option(out: Optional[str]) -> None:
    """`--out`, checked before anything runs: a path that is a file, or lies under one, would
    fail only when the results are written, after the whole run (and lose them)."""
    if out is None:
        return
    path = Path(out)
    for place in (path, *path.parents):
        if place.exists():
            if not place.is_dir():
                where = "" if place == path else f" ({place} is a file)"
                raise UsageError(f"--out {out}: not a folder{where}; results are written into a folder")
            break
    # Made and taken away again now, so that a place no folder can be made (/proc/x, a read-only
    # disk) is said before the run rather than after it, with the run's results lost (until
    # 2026-11-28), while a run refused for another reason leaves no empty folder behind.
    made = [place for place in (path, *path.parents) if not place.exists()]
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"--out {out}: cannot make the folder: {exc.strerror or exc}") from None
    for place in made:  # deepest first
        place.rmdir()


def cmd_run(args: argparse.Namespace) -> int:
    from ndnflow.protocols import ProtocolError
    from ndnflow.runner import run
    from ndnflow.scenario import Scenario

    _check_out_option(args.out)
    overrides = _run_overrides(args)
    read = Scenario.from_file(args.scenario)
    scenario = _overridden(read, args, overrides)
    try:
        results = run(scenario, progress=False if args.quiet else None)
    except ProtocolError as exc:  # a Python strategy or controller failed: its results are kept, as interrupted
        results = exc.results
    except ScenarioError as exc:
        if scenario is read or not str(exc).startswith(f"{read.source} (modified)"):
            raise
        # Built once: a mistake in the file itself came back with its line in that file; the
        # rest are the options'.
        raise _override_error(exc, read, args) from None
    sys.stdout.write(results.table(top=args.top))
    if args.details:
        sys.stdout.write("\n" + results.consumer_report())
    for warning in late_consumer_warnings(results.summary):
        _say(warning)
    if args.out is not None:
        written = results.save(args.out, format=args.format)
        if not args.no_plot:
            from ndnflow.plot import plot_results  # matplotlib: only to draw

            written += plot_results(results, args.out, title=Path(args.scenario).name)
        removed = _remove_earlier_outputs(Path(args.out), written)
        if not args.quiet:
            _say(f"wrote {len(written)} files to {args.out}: {', '.join(path.name for path in written)}")
            if removed:
                _say(f"removed {', '.join(removed)}: an earlier run's, which this run did not write")
    if results.interrupted:
        end_s = results.summary.get("simulation", {}).get("end_s")
        if results.stopped:
            _say(results.stopped)
        _say(f"interrupted: results cover the first {end_s} s of simulated time")
        return EXIT_INTERRUPTED
    return EXIT_OK



def _run_overrides(args: argparse.Namespace) -> Dict[str, Any]:
    """`run`'s --bin, --duration and --seed as [simulation] fields, checked before any file is read."""
    if args.top is not None and args.top < 1:
        raise UsageError(f"--top {args.top}: give at least 1")
    _check_seed_option(args.seed)
    return {key: value for key, value in (
        ("bin", None if args.bin is None else _duration_option(args.bin, "--bin")),
        ("duration", None if args.duration is None else _duration_option(args.duration)),
        ("seed", args.seed)) if value is not None}


def _overridden(scenario: Any, args: argparse.Namespace, simulation: Dict[str, Any]) -> Any:
    """`scenario` with `run`'s --set fields, then the `simulation` fields; not built here (a large
    scenario builds in seconds): `cmd_run` reports what its one build rejects against the options
    (`_override_error`), not against a line of a regenerated file the user never wrote."""
    if not args.set and not simulation:
        return scenario
    from ndnflow.scenario import Scenario
    from ndnflow.sweep_grid import GridError, parse_assignment, set_field

    doc = scenario.to_dict()
    for text in args.set or []:
        try:
            key, values = parse_assignment(text)
            if len(values) != 1:
                raise GridError(f"--set {text!r}: a run takes one value ({len(values)} given); 'ndnflow sweep' runs a grid")
            set_field(doc, key, values[0])
        except GridError as exc:
            message = str(exc)
            raise UsageError(message if message.startswith("--set") else f"--set {text}: {message}") from None
    doc.setdefault("simulation", {}).update(simulation)
    return scenario.with_document(doc)


def _override_error(exc: Exception, read: Any, args: argparse.Namespace) -> "UsageError":
    """What the build of the overridden scenario rejected, against the options that changed it."""
    given = [f"--set {text}" for text in args.set or []] + [
        f"{option} {value}" for option, value in (("--bin", args.bin), ("--duration", args.duration)) if value is not None]
    reason = re.sub(rf"^{re.escape(read.source)} \(modified\)(:\d+:\d+)?: ", "", str(exc))
    return UsageError(f"{', '.join(given)}: {reason}")


def _remove_earlier_outputs(out: Path, written: List[Path]) -> List[str]:
    """Delete the files `ndnflow run --out` writes that this run did not (e.g. the figures of an
    earlier run, now with --no-plot), so that a folder never mixes two runs; returns their names.
    Other files in the folder are the user's and stay."""
    from ndnflow.plot import FIGURES
    from ndnflow.results import SCENARIO_FILE, SUMMARY_FILE, TRACE_FILES

    kept = {path.name for path in written}
    removed = []
    drawn = [str(Path(name).with_suffix("." + fmt)) for fmt in figures.FORMATS for name in FIGURES]
    for name in (SUMMARY_FILE, *TRACE_FILES, SCENARIO_FILE, *drawn):
        if name not in kept and (out / name).is_file():
            (out / name).unlink()
            removed.append(name)
    return removed


def _remove_earlier_sweep_outputs(out: Path, written: List[Path]) -> List[str]:
    """Delete what `ndnflow sweep --out` writes that this sweep did not (an earlier, larger
    sweep's scenarios/point-*.toml, its sweep.png), as `run` does for its files: they were left,
    unnamed, beside the new ones until 2026-11-28. Other files are the user's and stay."""
    from ndnflow.sweeps import SCENARIOS_DIR

    kept = set(written)
    drawn = [out / f"sweep.{fmt}" for fmt in figures.FORMATS]
    candidates = [*drawn, *sorted((out / SCENARIOS_DIR).glob("point-*-seed-*.toml"))]
    removed = []
    for path in candidates:
        if path not in kept and path.is_file():
            path.unlink()
            removed.append(str(path.relative_to(out)))
    return removed


def cmd_sweep(args: argparse.Namespace) -> int:
    from ndnflow.experiments.seeds import SeedSpecError, parse_seeds
    from ndnflow.scenario import Scenario
    from ndnflow.sweep_grid import GridError, parse_assignment
    from ndnflow.sweeps import DEFAULT_METRICS, SweepError, UnknownMetric, sweep

    _check_out_option(args.out)
    if args.jobs is not None and args.jobs < 1:
        raise UsageError(f"--jobs {args.jobs}: give at least 1")
    if args.jobs is not None and args.scheduler is not None:
        raise UsageError("give --jobs or --scheduler, not both (the cluster decides how many run at once)")
    grid = {}
    for text in args.set or []:
        try:
            key, values = parse_assignment(text)
        except GridError as exc:
            raise UsageError(str(exc)) from None
        if key in grid:
            raise UsageError(f"--set {key}: given twice; list every value in one --set")
        grid[key] = values
    try:
        seeds = None if args.seeds is None else parse_seeds(args.seeds)
    except SeedSpecError as exc:
        raise UsageError(str(exc)) from None
    duration = None if args.duration is None else _duration_option(args.duration)
    scenario = Scenario.from_file(args.scenario)
    if duration is not None:
        scenario = scenario.with_duration(duration)
    patterns = args.metric or list(DEFAULT_METRICS)
    try:
        result = sweep(scenario, grid, seeds=seeds, jobs=args.jobs, progress=False if args.quiet else None,
                       scheduler=args.scheduler, metrics=args.metric)
    except UnknownMetric as exc:
        raise UsageError(f"--{exc}") from None
    except SweepError as exc:
        raise UsageError(str(exc)) from None
    sys.stdout.write(result.text(patterns))
    for warning in sweep_late_consumer_warnings(result.table.to_dict("records")):
        _say(warning)
    out = Path(args.out) if args.out is not None else None
    if out is not None:
        written = result.save(out)
        if not args.no_plot and len(result.table):
            from ndnflow.plot import MAX_SWEEP_PANELS, plot_sweep

            written += plot_sweep(result, out / "sweep.png", patterns)
            matched = len(result.metrics(patterns))
            if matched > MAX_SWEEP_PANELS and not args.quiet:
                _say(f"sweep.png draws the first {MAX_SWEEP_PANELS} of {matched} metrics (narrow them with --metric)")
        removed = _remove_earlier_sweep_outputs(out, written)
        if not args.quiet:
            _say(f"wrote {len(written)} files to {out}")
            if removed:
                _say(f"removed {', '.join(removed)}: an earlier sweep's, which this sweep did not write")
    if result.interrupted:
        _say(f"interrupted: {len(result.table)} of {len(result.runs)} runs done")
        return EXIT_INTERRUPTED
    return EXIT_OK


def cmd_bench(args: argparse.Namespace) -> int:
    from ndnflow.bench import bench_table, pin_to_cpu, run_bench

    _check_seed_option(args.seed)
    if args.repeat < 1:
        raise UsageError("--repeat must be at least 1")
    suite = args.suite or bool(args.case)
    if not suite:
        for option in ("short", "speed_only"):
            if getattr(args, option):
                raise UsageError(f"--{option.replace('_', '-')} goes with --suite or --case")
    if args.cpu is not None:
        try:
            pin_to_cpu(args.cpu)
        except ValueError as exc:
            raise UsageError(f"--cpu: {exc}") from None
    if suite:
        return _bench_suite(args)
    nodes = 100 if args.nodes is None else args.nodes
    consumers = 200 if args.consumers is None else args.consumers
    duration = _duration_option("60s" if args.duration is None else args.duration)
    if nodes < 2 or consumers < 1:
        raise UsageError("--nodes must be at least 2 and --consumers at least 1")
    from ndnflow.topology import MAX_NODES

    for option, value in (("--nodes", nodes), ("--consumers", consumers)):
        if value > MAX_NODES:  # checked before the grid is built: 10^20 ran out of memory building it
            raise UsageError(f"{option} {value}: at most {MAX_NODES:,}, as many as a generated network may have")
    result = run_bench(nodes, consumers, duration, args.seed, repeat=args.repeat)
    if args.json:
        print(json.dumps(result, sort_keys=True, indent=2))
    else:
        sys.stdout.write(bench_table(result))
    return EXIT_OK


def _bench_suite(args: argparse.Namespace) -> int:
    """`bench --suite` / `bench --case NAME`: each case in a child process (ndnflow.bench_suite)."""
    from ndnflow.bench_cases import CASES
    from ndnflow.bench_suite import SuiteError, run_suite, suite_table

    given = [option for option in ("nodes", "consumers", "duration") if getattr(args, option) is not None]
    if given:
        raise UsageError(f"--{given[0]} sets the grid bench's scenario; the suite's cases have their own")
    if args.suite and args.case:
        raise UsageError("give --suite (every case) or --case NAME, not both")
    names = list(CASES) if args.suite else args.case
    unknown = [name for name in names if name not in CASES]
    if unknown:
        raise UsageError(f"--case: unknown case {unknown[0]!r} (known: {', '.join(CASES)})")
    progress = None if args.json else (lambda name: print(f"running {name} ...", file=sys.stderr, flush=True))
    try:
        results = run_suite(names, short=args.short, seed=args.seed, repeat=args.repeat,
                            memory=not args.speed_only, progress=progress)
    except SuiteError as exc:
        _say(f"error: {_one_line(str(exc))}")
        return EXIT_INTERNAL
    if args.json:
        print(json.dumps(results, sort_keys=True, indent=2))
    else:
        sys.stdout.write(suite_table(results))
    return EXIT_OK


def cmd_import_ndnsim(args: argparse.Namespace) -> int:
    convert = _native.require("ndnsim_to_toml")
    path = Path(args.topology)
    text = convert(safe_io.read_text_file(path, "an ndnSIM topology"), str(path))
    text = text if text.endswith("\n") else text + "\n"
    if args.output is not None:
        Path(args.output).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return EXIT_OK


def cmd_reproduce(args: argparse.Namespace) -> int:
    from ndnflow import experiments
    from ndnflow.experiments import seeds as seed_sweep
    from ndnflow.experiments.common import wrap_line

    _check_out_option(args.out)
    if args.list:
        if args.experiment is not None or args.all or args.seed is not None or args.seeds is not None:
            raise UsageError("--list takes no experiment id, --all, --seed or --seeds")
        modules = list(experiments.catalog().values())
        id_width = max((len(m.ID) for m in modules), default=0)
        section_width = max((len(m.SECTION) for m in modules), default=0)
        for module in modules:
            print(f"{module.ID:<{id_width}}  {module.SECTION:<{section_width}}  {module.TITLE}")
        return EXIT_OK
    if args.all == (args.experiment is not None):
        raise UsageError("give one experiment id, --all or --list")
    if args.seed is not None and args.seeds is not None:
        raise UsageError("give --seed or --seeds, not both")
    _check_seed_option(args.seed)
    if args.jobs is not None and args.jobs < 1:
        raise UsageError(f"--jobs {args.jobs}: give at least 1")
    try:
        seeds = None if args.seeds is None else seed_sweep.parse_seeds(args.seeds)
    except seed_sweep.SeedSpecError as exc:
        raise UsageError(str(exc)) from None
    if args.all:
        modules = list(experiments.catalog().values())
    else:
        try:
            modules = [experiments.get(args.experiment)]
        except experiments.UnknownExperiment as exc:
            raise UsageError(str(exc)) from None
    progress = False if args.quiet else None
    outcomes: List[Any] = []  # a Report per experiment, or a SeedSweep with --seeds
    for module in modules:
        if args.out is None:
            out = Path("out") / module.ID
        else:
            out = Path(args.out) / module.ID if args.all else Path(args.out)
        if seeds is None:
            outcome = experiments.run_experiment(module, out, seed=args.seed, progress=progress, jobs=args.jobs)
            timing = f"{outcome.elapsed_s:.1f} s"
        else:
            try:
                outcome = seed_sweep.run_seeds(module, seeds, out, progress=progress, jobs=args.jobs)
            except seed_sweep.SeedsInterrupted as stop:
                sys.stdout.write(stop.sweep.table() + "\n")
                done = ", ".join(map(str, stop.sweep.seeds))
                _say(f"{module.ID}: interrupted; seeds {done} of {len(stop.asked)} finished, their table above "
                     f"and their {len(stop.sweep.files)} files in {out}")
                return EXIT_INTERRUPTED
            timing = f"{sum(report.elapsed_s for report in outcome.reports):.1f} s for {len(seeds)} seeds"
        outcomes.append(outcome)
        sys.stdout.write(outcome.table() + "\n")
        if not args.quiet:
            _say(f"{module.ID}: {timing}; wrote {len(outcome.files)} files to {out}")
    failed = [outcome.id for outcome in outcomes if not outcome.passed]
    for outcome in outcomes:
        print(outcome.summary_line())
    if len(outcomes) > 1:
        print(wrap_line(f"{len(failed)} of {len(outcomes)} experiments have failing checks: {', '.join(failed)}"
                        if failed else f"all {len(outcomes)} experiments pass"))
        print(wrap_line(checks_total_line(outcomes, seeds)))
    return EXIT_CHECKS_FAILED if failed else EXIT_OK


def checks_total_line(outcomes: List[Any], seeds: Optional[List[int]]) -> str:
    """The checks of every experiment together (information rows do not count). One run: "149 of
    180 checks pass with seed 1", and how many of those verdicts are that seed's alone (the
    catalog judges them on the median of seeds 1-4). With seeds: one count per seed and the count
    on the median ("149, 147 of 180 checks pass with seeds 1, 2; 148 on the median")."""
    per_seed = [sum(counts) for counts in zip(*(outcome.checks_passed() for outcome in outcomes))]
    if seeds is None:
        total = sum(len(outcome.checks) for outcome in outcomes)
        sensitive = sum(len(outcome.seed_sensitive()) for outcome in outcomes)
        seed = outcomes[0].seed if outcomes else None
        line = f"{per_seed[0] if per_seed else 0} of {total} checks pass with seed {seed}"
        return line + (f"; {sensitive} of these verdicts (~) rest on values that move with the seed: --seeds 1-4 "
                       "judges every check on the median (docs/experiments/README.md)" if sensitive else "")
    total = sum(len(outcome.checks()) for outcome in outcomes)
    median = sum(outcome.median_checks_passed() for outcome in outcomes)
    return (f"{', '.join(str(n) for n in per_seed)} of {total} checks pass with seeds "
            f"{', '.join(str(seed) for seed in seeds)}; {median} of {total} on the median")


# -------------------------------------------------------------------------------------- parser


def add_figures_option(command: argparse.ArgumentParser) -> None:
    """`--figures FORMATS`: the files every figure of the command is written as."""
    command.add_argument("--figures", metavar="FORMATS", default="png",
                         help="write each figure in these formats, comma-separated: png (default), pdf, svg; "
                              "e.g. png,pdf for a paper")


def _figure_formats(args: argparse.Namespace) -> Tuple[str, ...]:
    """The command's `--figures` (the setting as it is for a command without the option), checked
    before anything runs."""
    text = getattr(args, "figures", None)
    if text is None:
        return figures.current()
    try:
        return figures.parse(text)
    except figures.FormatError as exc:
        raise UsageError(f"--figures {exc}") from None


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="ndnflow", description="Fast packet-level NDN simulator.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    commands.required = True

    run = commands.add_parser("run", help="run a scenario file and print its results table")
    run.add_argument("scenario", metavar="SCENARIO.toml", help="scenario file")
    run.add_argument("--out", metavar="DIR", help="save results (summary.json, Parquet traces) and figures here")
    run.add_argument("--format", choices=("parquet", "csv", "both"), default="parquet",
                     help="with --out: write the traces as Parquet (default), CSV, or both")
    run.add_argument("--seed", type=int, help="override [simulation] seed")
    run.add_argument("--duration", metavar="TIME", help="override [simulation] duration, e.g. 10s or 500ms")
    run.add_argument("--bin", metavar="TIME", help="override [simulation] bin, the traces' time bin width, e.g. 10ms")
    run.add_argument("--set", action="append", metavar="KEY=VALUE",
                     help="override one field, as sweep's --set with one value, e.g. links[r,p].delay=10ms "
                          "(repeat for several fields)")
    run.add_argument("--top", type=int, metavar="N",
                     help="list only the N busiest link directions in the table (the files keep every link)")
    run.add_argument("--no-plot", action="store_true", help="with --out: save results but draw no figures")
    add_figures_option(run)
    run.add_argument("--details", action="store_true", help="also print ndnget-style statistics per consumer")
    run.add_argument("--quiet", action="store_true", help="no progress bar and no notes on stderr")
    run.set_defaults(handler=cmd_run)

    swp = commands.add_parser("sweep", help="run a scenario over a grid of parameter values and seeds")
    swp.add_argument("scenario", metavar="SCENARIO.toml", help="scenario file")
    swp.add_argument("--set", action="append", metavar="KEY=V1,V2,...",
                     help="values of one field, e.g. links[r,p].delay=10ms,20ms or consumers[0].cc.window=8,16 "
                          "(repeat for a grid over several fields; values are TOML, or words)")
    swp.add_argument("--seeds", metavar="LIST", help="run every point once per seed, e.g. 1-4 or 1,3,7 "
                     "(default: the scenario's seed)")
    swp.add_argument("--duration", metavar="TIME", help="override [simulation] duration, e.g. 10s")
    swp.add_argument("--metric", action="append", metavar="PATTERN",
                     help="columns of the printed table, glob patterns over the summary's numbers "
                          "(default consumers.*.goodput_bps; e.g. links.*.drops); the files have them all")
    swp.add_argument("--out", metavar="DIR", help="write sweep.csv, sweep.parquet, sweep.json, sweep.png and "
                     "each run's scenario (scenarios/) here")
    swp.add_argument("--jobs", type=int, metavar="N", help="runs at once (default: one per usable processor)")
    swp.add_argument("--scheduler", metavar="ADDRESS",
                     help="run on this Dask scheduler (e.g. tcp://10.0.0.1:8786) instead of this machine")
    swp.add_argument("--no-plot", action="store_true", help="with --out: write no figure")
    add_figures_option(swp)
    swp.add_argument("--quiet", action="store_true", help="no progress bar and no notes on stderr")
    swp.set_defaults(handler=cmd_sweep)

    cli_plot.add_parser(commands)

    bench = commands.add_parser("bench", help="measure the simulator's speed on a standard scenario, or on the suite")
    bench.add_argument("--nodes", type=int, help="routers in the grid (default 100)")
    bench.add_argument("--consumers", type=int, help="fixed-window consumers (default 200)")
    bench.add_argument("--duration", metavar="TIME", help="simulated time (default 60s)")
    bench.add_argument("--suite", action="store_true",
                       help="run every case of the benchmark suite, each in a process of its own "
                            "(docs/performance.md, 'The benchmark suite')")
    bench.add_argument("--case", action="append", metavar="NAME",
                       help="run this case of the suite (repeatable): grid, dumbbell, pcon-split, ptp-tree, "
                            "large, zipf-cache")
    bench.add_argument("--short", action="store_true",
                       help="with --suite/--case: run each case for a small fraction of its duration (checks it runs)")
    bench.add_argument("--speed-only", action="store_true",
                       help="with --suite/--case: skip the extra runs that measure memory per cached Data and "
                            "per trace row")
    bench.add_argument("--seed", type=int, default=1, help="seed of the scenario and the run (default 1)")
    bench.add_argument("--repeat", type=int, default=1, metavar="N",
                       help="run N times and report the median run, with the slowest and fastest (default 1)")
    bench.add_argument("--cpu", type=int, metavar="K",
                       help="run on processor K alone, as the speed target's 'one core' (Linux)")
    bench.add_argument("--json", action="store_true", help="print the measurements as JSON")
    bench.set_defaults(handler=cmd_bench)

    imp = commands.add_parser("import-ndnsim", help="convert an ndnSIM annotated topology to scenario TOML")
    imp.add_argument("topology", metavar="TOPO.txt", help="ndnSIM annotated topology file")
    imp.add_argument("-o", "--output", metavar="FILE", help="write the TOML here instead of stdout")
    imp.set_defaults(handler=cmd_import_ndnsim)

    cli_topology.add_parsers(commands)

    cli_net.add_parsers(commands)

    rep = commands.add_parser(
        "reproduce", help="re-run a paper's experiment and check its numbers (exit 1 if a check fails)")
    rep.add_argument("experiment", nargs="?", metavar="ID", help="experiment id, e.g. pcon-4.1 (see --list)")
    rep.add_argument("--out", metavar="DIR", help="write figures, results.json and results.csv here "
                     "(default out/ID; with --all, DIR/ID)")
    rep.add_argument("--list", action="store_true", help="list the experiments")
    rep.add_argument("--all", action="store_true", help="run every experiment")
    rep.add_argument("--seed", type=int, metavar="N", help="run with this seed instead of the experiment's (1)")
    rep.add_argument("--seeds", metavar="LIST",
                     help="run once per seed, e.g. 1-4 or 1,3,7: each run in DIR/seed-N, and a table of every "
                          "row across the seeds (DIR/seeds.csv, DIR/seeds.json)")
    rep.add_argument("--jobs", type=int, metavar="N",
                     help="run N of an experiment's simulations at once (default: one per usable processor); "
                          "the results do not depend on it")
    add_figures_option(rep)
    rep.add_argument("--quiet", action="store_true", help="no progress bar and no notes on stderr")
    rep.set_defaults(handler=cmd_reproduce)
    return parser


def _version() -> str:
    from ndnflow import __version__

    return __version__


# ---------------------------------------------------------------------------------------- main


def _os_error(exc: OSError) -> str:
    if exc.filename is not None and exc.strerror:
        return f"{exc.filename}: {exc.strerror}"
    return str(exc)


def _one_line(message: str) -> str:
    return " ".join(part.strip() for part in str(message).splitlines() if part.strip()) or "unknown error"


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Entry point of the `ndnflow` command; returns the exit status."""
    debug = bool(os.environ.get("NDNFLOW_DEBUG"))
    try:
        args = build_parser().parse_args(argv)
        formats = _figure_formats(args)
        # The formats hold for this command only: a caller's own setting comes back after it.
        with safe_io.sigterm_as_interrupt(), warnings.catch_warnings(), figures.writing(*formats):
            # SIGTERM stops a run as Ctrl-C does, keeping its results; a warning is one line.
            warnings.showwarning = lambda message, *_, **__: _say(f"warning: {_one_line(str(message))}")
            return args.handler(args)
    except SystemExit as exc:  # --help, --version
        return exc.code if isinstance(exc.code, int) else EXIT_OK
    except KeyboardInterrupt:
        _say("interrupted")
        return EXIT_INTERRUPTED
    except (UsageError, ScenarioError, safe_io.ResultsFileError) as exc:
        _say(f"error: {_one_line(str(exc))}")
        return EXIT_USAGE
    except OSError as exc:
        _say(f"error: {_one_line(_os_error(exc))}")
        return EXIT_USAGE
    except UnicodeDecodeError as exc:
        _say(f"error: input is not UTF-8 text ({exc.reason} at byte {exc.start})")
        return EXIT_USAGE
    except CoreUnavailableError as exc:
        _say(f"error: {_one_line(str(exc))}")
        return EXIT_INTERNAL
    except Exception as exc:
        if debug:
            raise
        _say(f"error: internal error: {type(exc).__name__}: {_one_line(str(exc))} (run with NDNFLOW_DEBUG=1 for a traceback)")
        return EXIT_INTERNAL


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
