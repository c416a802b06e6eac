"""`ndnflow plot`: the figures of saved results, of a `reproduce` folder (each variant run again
from its scenario for its traces), of a `reproduce --seeds` folder and of a `reproduce --all` one.
Kept apart from cli.py, which holds the commands that run scenarios."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, List

EXIT_OK = 0


def _usage_error(message: str) -> Exception:
    from ndnflow.cli import UsageError

    return UsageError(message)


def _say(message: str) -> None:
    from ndnflow.cli import _say as say

    say(message)


def add_parser(commands: Any) -> None:
    plot = commands.add_parser("plot", help="draw the figures of saved results")
    plot.add_argument("results", metavar="DIR",
                      help="folder written by 'ndnflow run --out', or by 'ndnflow reproduce' (each variant is run "
                           "again from DIR/scenarios for its traces, figures in DIR/plots/VARIANT), or by "
                           "'ndnflow reproduce --seeds' (each seed's variants, figures in DIR/plots/seed-N/VARIANT), "
                           "or by 'ndnflow reproduce --all' (each experiment's, figures in DIR/plots/EXPERIMENT/...)")
    plot.add_argument("--out", metavar="DIR", help="write the figures here instead of into DIR (DIR/plots)")
    plot.add_argument("--quiet", action="store_true", help="no progress bar and no notes on stderr")
    from ndnflow.cli import add_figures_option

    add_figures_option(plot)
    plot.set_defaults(handler=cmd_plot)


def cmd_plot(args: argparse.Namespace) -> int:
    from ndnflow.plot import plot_results
    from ndnflow.results import Results

    folder = Path(args.results)
    out = Path(args.out) if args.out is not None else folder / "plots"
    if _plot_reproduced(folder, out, args.quiet):
        return EXIT_OK
    experiments = _reproduced_experiments(folder)
    if experiments:
        # `reproduce --all`: a folder per experiment, each drawn under plots/EXPERIMENT.
        for experiment in experiments:
            _plot_reproduced(experiment, out / experiment.name, args.quiet)
        return EXIT_OK
    if (folder / "seeds.json").is_file():
        raise _usage_error(f"{folder}: a 'reproduce --seeds' folder without its seed-N folders: nothing to draw")
    results = Results.load(folder)
    drawn = plot_results(results, args.out if args.out is not None else args.results, title=str(folder))
    for path in drawn:
        print(path)
    stale = Path(args.out if args.out is not None else args.results) / "topology.png"
    if stale.exists() and stale not in drawn:
        from ndnflow.plot_topology import MAX_NODES

        # It was left without a word until 2026-11-28, as if drawn from these results.
        print(f"note: {stale} was not drawn now (the results' scenario.toml is missing, unreadable or over "
              f"{MAX_NODES} nodes); the file there is an earlier drawing", file=sys.stderr)
    return EXIT_OK


def _plot_reproduced(folder: Path, out: Path, quiet: bool) -> bool:
    """Draws a folder `ndnflow reproduce` wrote (one experiment, with `--seeds` or without) into
    `out`; False when `folder` is not one."""
    runs = _seed_runs(folder)
    if runs:
        # `reproduce --seeds`: each seed's folder is a `reproduce` folder of its own.
        for run_dir in runs:
            _plot_variants(_reproduce_variants(run_dir), out / run_dir.name, quiet)
        return True
    variants = _reproduce_variants(folder)
    if variants:
        _plot_variants(variants, out, quiet)
    return bool(variants)


def _reproduced_experiments(folder: Path) -> List[Path]:
    """The experiment folders of a folder written by `ndnflow reproduce --all`, by name; otherwise
    nothing."""
    from ndnflow.results import SUMMARY_FILE

    if (folder / SUMMARY_FILE).is_file() or not folder.is_dir():
        return []
    return sorted(d for d in folder.iterdir() if d.is_dir() and (_seed_runs(d) or _reproduce_variants(d)))


def _reproduce_variants(folder: Path) -> List[Path]:
    """The scenario of every variant when `folder` was written by `ndnflow reproduce` (it keeps
    results.json and scenarios/*.toml, not the runs' traces); otherwise nothing."""
    from ndnflow.experiments.common import RESULTS_JSON
    from ndnflow.results import SUMMARY_FILE

    if (folder / SUMMARY_FILE).is_file() or not (folder / RESULTS_JSON).is_file():
        return []
    return sorted((folder / "scenarios").glob("*.toml"))


def _seed_runs(folder: Path) -> List[Path]:
    """The seed-N folders of a folder written by `ndnflow reproduce --seeds` (it holds seeds.json),
    in seed order; otherwise nothing."""
    from ndnflow.experiments.seeds import SEEDS_JSON

    if not (folder / SEEDS_JSON).is_file():
        return []
    runs = [d for d in folder.glob("seed-*") if d.is_dir() and d.name[len("seed-"):].isdigit()]
    return sorted((d for d in runs if _reproduce_variants(d)), key=lambda d: int(d.name[len("seed-"):]))


def _plot_variants(scenarios: List[Path], out: Path, quiet: bool) -> int:
    """Run each variant's scenario again (the same seed gives the same run) and draw its figures
    into out/VARIANT/."""
    from ndnflow.plot import plot_results
    from ndnflow.runner import run

    for path in scenarios:
        if not quiet:
            _say(f"{path.stem}: running {path} again for its traces")
        run_dir = path.parent.parent
        # A seed's run is named with its experiment: "pcon-4.1 seed-2: PCON".
        name = f"{run_dir.parent.name} {run_dir.name}" if run_dir.name.startswith("seed-") else run_dir.name
        title = f"{name}: {path.stem}"
        for written in plot_results(run(path, progress=False if quiet else None), out / path.stem, title=title):
            print(written)
    return EXIT_OK
