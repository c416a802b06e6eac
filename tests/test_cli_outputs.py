"""What `ndnflow run` and `ndnflow sweep` leave in their output folder and say on stderr, beyond
the tables (issue 21: a reused `--out`, consumers that start after the end of the run)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

import pandas as pd
import pytest

from ndnflow.cli import main
from ndnflow.report import late_consumer_warnings, sweep_late_consumer_warnings


def test_rerun_into_the_same_out_leaves_no_figures_of_the_earlier_run(capsys, quickstart, tmp_path):
    out = tmp_path / "out"
    assert main(["run", str(quickstart), "--duration", "1s", "--out", str(out), "--quiet"]) == 0
    assert (out / "overview.png").is_file()
    (out / "notes.txt").write_text("the user's own file")
    capsys.readouterr()
    assert main(["run", str(quickstart), "--duration", "1s", "--out", str(out), "--no-plot"]) == 0
    left = sorted(path.name for path in out.iterdir())
    assert left == ["consumers.parquet", "links.parquet", "notes.txt", "scenario.toml", "summary.json"]
    err = capsys.readouterr().err
    assert "removed throughput.png, window.png, queue.png, overview.png, topology.png: an earlier run's" in err


@pytest.mark.parametrize("command", [["run", "{q}", "--duration", "1s"], ["sweep", "{q}", "--set", "seed=1,2"],
                                     ["reproduce", "pcon-4.1"]])
@pytest.mark.parametrize("under", [False, True])
def test_an_out_that_is_a_file_is_refused_before_anything_runs(capsys, quickstart, tmp_path, command, under):
    # Until 2026-11-28 `run` ran to its end, printed its table, and only then failed with
    # "afile: File exists", its results lost; sweep and reproduce failed on "afile/scenarios".
    afile = tmp_path / "afile"
    afile.write_text("the user's own file")
    out = afile / "x" if under else afile
    argv = [part.replace("{q}", str(quickstart)) for part in command] + ["--out", str(out), "--quiet"]
    assert main(argv) == 2
    captured = capsys.readouterr()
    where = f" ({afile} is a file)" if under else ""
    assert captured.out == "" and captured.err == f"error: --out {out}: not a folder{where}; results are written into a folder\n"
    assert afile.read_text() == "the user's own file"


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="needs /proc, where no folder can be made")
@pytest.mark.parametrize("command", [["run", "{q}", "--duration", "1s"], ["sweep", "{q}", "--set", "seed=1,2"]])
def test_an_out_where_no_folder_can_be_made_is_refused_before_anything_runs(capsys, quickstart, command):
    # Until 2026-11-28 both ran, printed their table, then failed with "No such file or directory".
    argv = [part.replace("{q}", str(quickstart)) for part in command] + ["--out", "/proc/ndnflow-x", "--quiet"]
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == "error: --out /proc/ndnflow-x: cannot make the folder: No such file or directory\n"


def test_consumer_starting_at_the_end_of_the_run_is_warned_of(capsys, quickstart):
    # quickstart's c2 starts at 10 s: a 10-second run ends as it would start, an 11-second one
    # gives it a second.
    assert main(["run", str(quickstart), "--duration", "10s", "--quiet"]) == 0
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["warning: consumer c2 starts at 10.000 s, at or after the end of the run (10.000 s): it sends "
                   "nothing and its goodput of 0 is not a measurement"]
    assert main(["run", str(quickstart), "--duration", "11s", "--quiet"]) == 0
    assert "warning" not in capsys.readouterr().err


def test_late_start_warnings_from_a_summary():
    summary = {"simulation": {"duration_s": 5.0},
               "consumers": {"c10": {"start_s": 7.5}, "c2": {"start_s": 5.0}, "c1": {"start_s": 4.999}}}
    warnings = late_consumer_warnings(summary)
    assert [line.split()[2] for line in warnings] == ["c2", "c10"]  # natural order; c1 starts in time


def test_late_start_warnings_from_sweep_rows():
    # Two points x two seeds; c2 starts at 10 s, the runs last 10 s at point 0 and 20 s at point 1.
    rows = [{"point": point, "seed": seed, "simulation.duration_s": duration, "consumers.c1.start_s": 0.0,
             "consumers.c2.start_s": 10.0}
            for point, duration in ((0, 10.0), (1, 20.0)) for seed in (1, 2)]
    assert sweep_late_consumer_warnings(rows) == [
        "warning: consumer c2 starts at or after the end of the run in 2 of 4 runs (first: point 0, seed 1): it sends "
        "nothing there and its goodput of 0 is not a measurement"]
    assert sweep_late_consumer_warnings(rows[2:]) == []


@pytest.mark.parametrize("duration", ["10", "10m", "1e3s", "-5s", ""])
def test_duration_option_has_the_scenario_files_rule_and_message(capsys, real_core, tmp_path, duration):
    # The reader's message after "simulation.duration: " is the option's after "--duration: ".
    path = tmp_path / "s.toml"
    path.write_text(f'[simulation]\nduration = "{duration}"\n')
    assert main(["run", str(path)]) == 2
    from_file = capsys.readouterr().err.strip()
    assert main(["run", str(path), f"--duration={duration}"]) == 2
    from_option = capsys.readouterr().err.strip()
    prefix = f"error: {path}:2:12: simulation.duration: "
    assert from_file.startswith(prefix)
    assert from_option == "error: --duration: " + from_file[len(prefix):]


@pytest.mark.parametrize("argv, message", [
    (["--seed", "-1"], "error: --seed -1: a seed is an integer from 0 to 18446744073709551615"),
    (["--seed", str(2**64)], f"error: --seed {2**64}: a seed is an integer from 0 to 18446744073709551615"),
    (["--duration", "0s"], "error: --duration 0s: must be longer than 0"),
])
def test_overrides_out_of_range_name_the_option(capsys, real_core, quickstart, argv, message):
    # Not "quickstart.toml (modified):3:8": the user wrote an option, not that line.
    assert main(["run", str(quickstart), *argv]) == 2
    assert capsys.readouterr().err.strip() == message


def test_duplicate_key_is_named(capsys, tmp_path):
    path = tmp_path / "s.toml"
    path.write_text('[simulation]\nduration = "1s"\nduration = "2s"\n')
    assert main(["run", str(path)]) == 2
    # tomllib reports the end of line 3 (column 16) and says only "Cannot overwrite a value".
    assert capsys.readouterr().err.strip() == (
        f"error: {path}:3:16: simulation.duration: given twice (a key appears once per table) (invalid TOML)")


def test_help_imports_neither_pandas_nor_matplotlib():
    # A fresh interpreter: this one has them loaded already. They took ~1 s of `ndnflow --help`.
    import ndnflow

    code = ("import sys, ndnflow.cli; ndnflow.cli.main(['--help']); "
            "print(sorted(m for m in ('pandas', 'matplotlib', 'networkx') if m in sys.modules))")
    env = {**os.environ, "PYTHONPATH": str(Path(ndnflow.__file__).resolve().parent.parent)}
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip().splitlines()[-1] == "[]"


def test_public_names_load_on_first_use():
    import ndnflow

    assert ndnflow.Scenario.__name__ == "Scenario" and callable(ndnflow.run) and callable(ndnflow.sweep)
    assert ndnflow.optimum.max_flow is not None and ndnflow.ScenarioError is not None
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        ndnflow.nope  # noqa: B018


def test_top_lists_the_busiest_link_directions(capsys, quickstart):
    # p->r carries the Data of both consumers, r->c1 those of c1 (30 s against c2's 20 s); the
    # Interest directions carry ~1/20 of their bytes. So the two busiest are p->r and r->c1.
    assert main(["run", str(quickstart), "--quiet", "--top", "2"]) == 0
    out = capsys.readouterr().out.split("Links (directions with traffic)\n")[1].splitlines()
    assert [line.split()[0] for line in out[2:4]] == ["p->r", "r->c1"]
    assert out[4] == "(2 busiest of 6 directions with traffic; the files have them all)"


def test_set_and_bin_override_one_run(capsys, quickstart, tmp_path):
    out = tmp_path / "out"
    argv = ["run", str(quickstart), "--quiet", "--no-plot", "--out", str(out), "--set", "links[r,p].delay=1ms",
            "--bin", "1s", "--duration", "3s"]
    assert main(argv) == 0
    scenario = tomllib.loads((out / "scenario.toml").read_text())
    assert scenario["links"][2]["delay"] == "1ms" and scenario["simulation"]["bin"] == "1s"
    # 3 s in 1 s bins: times 0, 1, 2 for each consumer.
    consumers = pd.read_parquet(out / "consumers.parquet")
    assert sorted(consumers[consumers["consumer"] == "c1"]["time_s"]) == [0.0, 1.0, 2.0]


@pytest.mark.parametrize("argv, message", [
    (["--set", "links[r,p].delay=1ms,2ms"],
     "error: --set 'links[r,p].delay=1ms,2ms': a run takes one value (2 given); 'ndnflow sweep' runs a grid"),
    (["--set", "links[r,p].delay=1"],
     'error: --set links[r,p].delay=1: links[2].delay: expected a duration string such as "5ms", found integer 1'),
    (["--set", "links[r,q].delay=1ms"],
     "error: --set links[r,q].delay=1ms: key 'links[r,q].delay': links has no entry between 'r' and 'q'"),
    (["--bin", "0s"], "error: --bin 0s: must be longer than 0"),
    (["--top", "0"], "error: --top 0: give at least 1"),
])
def test_run_overrides_report_the_option(capsys, real_core, quickstart, argv, message):
    assert main(["run", str(quickstart), *argv]) == 2
    assert capsys.readouterr().err.strip() == message


def test_plot_of_a_reproduce_folder_runs_each_variant_again(capsys, quickstart, tmp_path):
    # What `ndnflow reproduce` leaves: results.json and scenarios/VARIANT.toml, no traces.
    (tmp_path / "scenarios").mkdir()
    (tmp_path / "results.json").write_text("{}")
    text = quickstart.read_text().replace('duration = "30s"', 'duration = "1s"')
    for variant in ("A", "B"):
        (tmp_path / "scenarios" / f"{variant}.toml").write_text(text)
    assert main(["plot", str(tmp_path), "--quiet"]) == 0
    printed = capsys.readouterr().out.split()
    assert printed == [str(tmp_path / "plots" / variant / name) for variant in ("A", "B")
                       for name in ("throughput.png", "window.png", "queue.png", "overview.png", "topology.png")]


def test_plot_of_a_seeds_folder_draws_each_seed(capsys, quickstart, tmp_path):
    # What `reproduce --seeds 1,2` leaves: seeds.json and a reproduce folder per seed (seed 2 with
    # two variants). Each seed's variants are drawn under plots/seed-N; a stray seed-x is no seed.
    (tmp_path / "seeds.json").write_text("{}")
    (tmp_path / "seed-x").mkdir()
    text = quickstart.read_text().replace('duration = "30s"', 'duration = "1s"')
    for seed, variants in ((2, ("A", "B")), (1, ("A",))):
        (tmp_path / f"seed-{seed}" / "scenarios").mkdir(parents=True)
        (tmp_path / f"seed-{seed}" / "results.json").write_text("{}")
        for variant in variants:
            (tmp_path / f"seed-{seed}" / "scenarios" / f"{variant}.toml").write_text(text)
    assert main(["plot", str(tmp_path), "--quiet"]) == 0
    printed = capsys.readouterr().out.split()
    assert printed == [str(tmp_path / "plots" / run / variant / name)
                       for run, variant in (("seed-1", "A"), ("seed-2", "A"), ("seed-2", "B"))
                       for name in ("throughput.png", "window.png", "queue.png", "overview.png", "topology.png")]


def test_plot_of_an_all_folder_draws_each_experiment(capsys, quickstart, tmp_path):
    # What `reproduce --all` leaves: a reproduce folder per experiment (x with one variant, y with
    # --seeds 1 and one variant), and the catalog's own files, which are not experiments.
    (tmp_path / "catalog.json").write_text("{}")
    (tmp_path / "notes").mkdir()
    text = quickstart.read_text().replace('duration = "30s"', 'duration = "1s"')
    for run in (tmp_path / "x", tmp_path / "y" / "seed-1"):
        (run / "scenarios").mkdir(parents=True)
        (run / "results.json").write_text("{}")
        (run / "scenarios" / "A.toml").write_text(text)
    (tmp_path / "y" / "seeds.json").write_text("{}")
    assert main(["plot", str(tmp_path), "--quiet"]) == 0
    printed = capsys.readouterr().out.split()
    assert printed == [str(tmp_path / "plots" / where / "A" / name)
                       for where in ("x", "y/seed-1")
                       for name in ("throughput.png", "window.png", "queue.png", "overview.png", "topology.png")]


def test_plot_of_a_seeds_folder_without_runs_says_so(capsys, tmp_path):
    (tmp_path / "seeds.json").write_text("{}")
    assert main(["plot", str(tmp_path), "--quiet"]) == 2
    assert "without its seed-N folders" in capsys.readouterr().err


def test_figures_are_headed_by_the_scenario_name(capsys, monkeypatch, quickstart, tmp_path):
    from matplotlib.figure import Figure

    from ndnflow import plot

    titles = []
    monkeypatch.setattr(Figure, "suptitle", lambda self, text, **kwargs: titles.append(text))
    assert main(["run", str(quickstart), "--duration", "1s", "--quiet", "--out", str(tmp_path)]) == 0
    # Every figure but the optional ones (objects.png, delay.png, paths.png), which only runs with
    # a catalog consumer, the per-segment trace or a multipath consumer get.
    assert titles == ["quickstart.toml"] * (len(plot.FIGURES) - len(plot.OPTIONAL_FIGURES))
    # The overview shows goodput: a fixed-window consumer's window is a flat line.
    assert plot.draw_goodput in plot.FIGURES["overview.png"] and plot.draw_window not in plot.FIGURES["overview.png"]


def _fake_sweep(metrics):
    """What plot_sweep reads of a SweepResults: two points of one key, one seed."""
    means = pd.DataFrame({"links[r,p].delay": ["10ms", "20ms"],
                          **{name: values for name, values in metrics.items()},
                          **{f"{name}.std": [float("nan")] * 2 for name in metrics}})
    return SimpleNamespace(mean=lambda patterns: means, metrics=lambda patterns: list(metrics),
                           keys=["links[r,p].delay"], seeds=[1], source="s.toml")


def test_sweep_figure_axes_start_at_zero_and_say_what_was_left_out():
    from ndnflow.plot import MAX_SWEEP_PANELS, sweep_figure

    metrics = {"consumers.c1.goodput_bps": [4.6e6, 4.9e6], "links.r->p.drops": [0, 0],
               **{f"links.l{k}.packets": [k, k + 1] for k in range(6)}}
    figure = sweep_figure(_fake_sweep(metrics), ["*"])
    axes = figure.axes
    assert len(axes) == MAX_SWEEP_PANELS == 6
    assert axes[0].get_ylim()[0] == 0  # goodput: 4.6 and 4.9 Mbit/s, from 0
    assert axes[1].get_ylim() == (0, 1)  # drops: 0 in every run
    assert axes[0].get_title().endswith("the first 6 of 8 metrics; the files have them all")
