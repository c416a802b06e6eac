"""The `ndnflow` command: outputs, files written, and one-line errors with exit status 2."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ndnflow.cli import main

ROOT = Path(__file__).resolve().parent.parent

SCENARIO = '''[simulation]
duration = "1s"
seed = 3
bin = "100ms"

[[links]]
between = ["a", "b"]
bandwidth = "10Mbps"
delay = "5ms"
'''


@pytest.fixture
def scenario_file(tmp_path):
    path = tmp_path / "scenario.toml"
    path.write_text(SCENARIO)
    return path


def assert_one_line_error(capsys, code, expected_code=2, contains=""):
    out, err = capsys.readouterr()
    assert code == expected_code
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("error: ")
    assert "Traceback" not in err and out == ""
    assert contains in lines[0]
    return lines[0]


# ------------------------------------------------------------------------------- error paths


def test_missing_scenario_file(capsys, tmp_path):
    line = assert_one_line_error(capsys, main(["run", str(tmp_path / "nope.toml")]))
    assert "nope.toml" in line and "No such file" in line


def test_bad_toml(capsys, tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text("[simulation]\nduration = = 3\n")
    line = assert_one_line_error(capsys, main(["run", str(path)]))
    assert f"{path}:2:" in line


def test_scenario_error_from_core(capsys, fake_core, tmp_path):
    path = tmp_path / "s.toml"
    path.write_text("[simulation]\nseed = 1\n")
    assert_one_line_error(capsys, main(["run", str(path)]), contains=f"{path}:1:1: simulation.duration: missing")


@pytest.mark.parametrize("duration", ["ten", "10 parsecs", "-5s", "10"])
def test_bad_duration(capsys, fake_core, scenario_file, duration):
    assert_one_line_error(capsys, main(["run", str(scenario_file), f"--duration={duration}"]),
                          contains="--duration: invalid duration")


def test_bad_duration_is_reported_before_reading_the_file(capsys, tmp_path):
    assert_one_line_error(capsys, main(["run", str(tmp_path / "missing.toml"), "--duration", "soon"]),
                          contains="--duration")


@pytest.mark.parametrize(
    "argv, contains",
    [([], "required"), (["frobnicate"], "invalid choice"), (["run"], "required"),
     (["run", "x.toml", "--seed", "abc"], "invalid int value"), (["run", "x.toml", "--bogus"], "unrecognized"),
     # "expected one argument" alone until 2026-11-28: argparse takes "-1s" for an option.
     (["get", "/x", "--lifetime", "-1s"], "(for a value that starts with '-', write --lifetime=VALUE)"),
     (["bench", "--nodes", "1"], "--nodes"), (["bench", "--duration", "forever"], "--duration"),
     (["bench", "--repeat", "0"], "--repeat"), (["bench", "--cpu", "-1"], "--cpu"),
     (["bench", "--cpu", "99999"], "--cpu"), (["bench", "--suite", "--nodes", "5"], "--nodes"),
     (["bench", "--case", "nope"], "unknown case 'nope'"), (["bench", "--short"], "--short goes with"),
     (["bench", "--suite", "--case", "grid"], "not both"),
     # Built before it was checked until 2026-11-28: the grid grew until memory ran out.
     (["bench", "--nodes", str(10**20)], f"--nodes {10**20}: at most 200,000"),
     (["bench", "--consumers", "200001"], "--consumers 200001: at most 200,000")],
)
def test_bad_arguments(capsys, argv, contains):
    assert_one_line_error(capsys, main(argv), contains=contains)


def test_plot_of_missing_results(capsys, tmp_path):
    assert_one_line_error(capsys, main(["plot", str(tmp_path / "none")]), contains="no results folder")


def test_binary_scenario_file(capsys, tmp_path):
    path = tmp_path / "x.toml"
    path.write_bytes(b"\xff\xfe\x00garbage")
    assert_one_line_error(capsys, main(["run", str(path)]), contains="not UTF-8")


def test_internal_error_is_one_line_with_hint(capsys, monkeypatch, scenario_file):
    import ndnflow.runner

    def broken(*args, **kwargs):
        raise RuntimeError("boom\nsecond line")

    monkeypatch.setattr(ndnflow.runner, "run", broken)
    monkeypatch.delenv("NDNFLOW_DEBUG", raising=False)
    line = assert_one_line_error(capsys, main(["run", str(scenario_file)]), expected_code=1)
    assert line == "error: internal error: RuntimeError: boom second line (run with NDNFLOW_DEBUG=1 for a traceback)"
    monkeypatch.setenv("NDNFLOW_DEBUG", "1")
    with pytest.raises(RuntimeError):
        main(["run", str(scenario_file)])


def test_help_and_version_exit_zero(capsys):
    assert main(["--help"]) == 0
    assert "run" in capsys.readouterr().out
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.startswith("ndnflow ")


def test_console_script_module_has_no_traceback(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT / "python")}
    env.pop("NDNFLOW_DEBUG", None)
    proc = subprocess.run([sys.executable, "-m", "ndnflow.cli", "run", str(tmp_path / "missing.toml")],
                          capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and proc.stderr.startswith("error: ")


# ------------------------------------------------------------------------------------- run


def test_run_prints_table_only(capsys, fake_core, scenario_file, tmp_path):
    assert main(["run", str(scenario_file)]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("Run: simulated 1.000 s of 1.000 s, seed 3")
    assert "Consumers" in out and "a->b" in out and "b->a" not in out
    assert err == ""
    assert list(tmp_path.iterdir()) == [scenario_file]


def test_run_with_out_saves_results_and_figures(capsys, fake_core, scenario_file, tmp_path):
    out_dir = tmp_path / "out"
    assert main(["run", str(scenario_file), "--out", str(out_dir), "--seed", "9", "--duration", "500ms",
                 "--details"]) == 0
    out, err = capsys.readouterr()
    assert "seed 9" in out and "Consumer a: /p/x on node a" in out
    assert err.startswith(f"wrote 8 files to {out_dir}")
    names = sorted(path.name for path in out_dir.iterdir())
    assert names == ["consumers.parquet", "links.parquet", "overview.png", "queue.png", "scenario.toml",
                     "summary.json", "throughput.png", "window.png"]
    summary = json.loads((out_dir / "summary.json").read_text())
    assert summary["simulation"]["duration_s"] == 0.5 and summary["simulation"]["seed"] == 9
    simulation = fake_core.instances[-1]
    assert simulation.source == f"{scenario_file} (modified)"


def test_run_no_plot_quiet(capsys, fake_core, scenario_file, tmp_path):
    out_dir = tmp_path / "out"
    assert main(["run", str(scenario_file), "--out", str(out_dir), "--no-plot", "--quiet"]) == 0
    assert capsys.readouterr().err == ""
    assert not list(out_dir.glob("*.png")) and (out_dir / "summary.json").is_file()


def test_run_interrupted_keeps_results(capsys, fake_core, scenario_file, tmp_path):
    fake_core.interrupt_on_call = 51  # 1 s in 200 steps: 50 steps done = 0.25 s
    assert main(["run", str(scenario_file), "--out", str(tmp_path / "o"), "--no-plot"]) == 130
    out, err = capsys.readouterr()
    assert "(interrupted)" in out
    assert "interrupted: results cover the first 0.25 s" in err
    assert json.loads((tmp_path / "o" / "summary.json").read_text())["simulation"]["interrupted"] is True


def test_plot_command(capsys, fake_core, scenario_file, tmp_path):
    assert main(["run", str(scenario_file), "--out", str(tmp_path / "r"), "--no-plot", "--quiet"]) == 0
    capsys.readouterr()
    assert main(["plot", str(tmp_path / "r"), "--out", str(tmp_path / "figs")]) == 0
    printed = capsys.readouterr().out.split()
    assert [Path(p).name for p in printed] == ["throughput.png", "window.png", "queue.png", "overview.png"]
    assert all(Path(p).is_file() for p in printed)


def test_bench_json(capsys, fake_core):
    assert main(["bench", "--nodes", "16", "--consumers", "5", "--duration", "2s", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert set(result) == {"nodes", "consumers", "seed", "simulated_s", "setup_s", "wall_s", "packet_hops",
                           "packet_hops_per_s", "events", "events_per_s", "peak_memory_mib",
                           "runs_packet_hops_per_s"}
    assert result["runs_packet_hops_per_s"] == [result["packet_hops_per_s"]]
    assert result["simulated_s"] == 2.0 and result["nodes"] == 16


def test_bench_repeat_reports_the_median_run_on_the_processor_asked(capsys, fake_core):
    import os

    cpu = min(os.sched_getaffinity(0))
    before = os.sched_getaffinity(0)
    try:
        assert main(["bench", "--nodes", "9", "--consumers", "2", "--duration", "1s", "--repeat", "3",
                     "--cpu", str(cpu), "--json"]) == 0
        assert os.sched_getaffinity(0) == {cpu}
    finally:
        os.sched_setaffinity(0, before)
    result = json.loads(capsys.readouterr().out)
    runs = result["runs_packet_hops_per_s"]
    assert len(runs) == 3 and result["packet_hops_per_s"] == sorted(runs)[1]
    assert len(fake_core.instances) == 3, "each run builds its own simulation"
    assert main(["bench", "--nodes", "9", "--consumers", "2", "--duration", "1s", "--repeat", "2"]) == 0
    assert "2 runs, slowest - fastest" in capsys.readouterr().out


def test_bench_table(capsys, fake_core):
    assert main(["bench", "--nodes", "9", "--consumers", "2", "--duration", "1s"]) == 0
    out = capsys.readouterr().out
    assert "9 nodes, 2 consumers, seed 1" in out and "peak memory" in out


def test_import_ndnsim(capsys, fake_core, tmp_path):
    topo = tmp_path / "topo.txt"
    topo.write_text("router\na\nb\nlink\na b 10Mbps 1 1ms 10\n")
    assert main(["import-ndnsim", str(topo)]) == 0
    assert 'between = ["a", "b"]' in capsys.readouterr().out
    assert main(["import-ndnsim", str(topo), "-o", str(tmp_path / "t.toml")]) == 0
    assert (tmp_path / "t.toml").read_text().startswith("[nodes.a]")
    topo.write_text("nothing\n")
    assert_one_line_error(capsys, main(["import-ndnsim", str(topo)]), contains="no 'router' section")


# ------------------------------------------------------------------------------ real core


def test_real_quickstart_cli(capsys, quickstart, tmp_path):
    out_dir = tmp_path / "tmp"
    assert main(["run", str(quickstart), "--out", str(out_dir)]) == 0
    out = capsys.readouterr().out
    assert "Consumers" in out and "goodput Mbit/s" in out
    for name in ("summary.json", "links.parquet", "consumers.parquet", "overview.png"):
        assert (out_dir / name).is_file(), name
    summary = json.loads((out_dir / "summary.json").read_text())
    assert set(summary) >= {"simulation", "consumers", "links", "nodes"}


def test_real_bad_field_is_one_line(capsys, real_core, tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text('[simulation]\nduration = "1s"\n\n[nodes]\na = {}\nb = {}\n\n[[links]]\nbetween = ["a", "b"]\n'
                    'bandwidth = "fast"\ndelay = "1ms"\n')
    line = assert_one_line_error(capsys, main(["run", str(path)]))
    assert str(path) in line and "bandwidth" in line


#: What `ndnflow run` loads only when it needs it (issue 23, item 3): the data stack for traces
#: and files, matplotlib for figures, tqdm for a progress bar. Together they were about 1.8 s of a
#: 2.4 s quick start.
HEAVY_MODULES = ("numpy", "pandas", "pyarrow", "matplotlib", "tqdm")


def _heavy_modules_after(argv):
    """The HEAVY_MODULES loaded once `ndnflow` has run `argv` in a fresh interpreter."""
    import ndnflow

    code = ("import sys; from ndnflow.cli import main; rc = main(sys.argv[1:]); "
            f"print(rc, *sorted(m for m in {HEAVY_MODULES!r} if m in sys.modules))")
    env = {**os.environ, "PYTHONPATH": str(Path(ndnflow.__file__).resolve().parent.parent)}
    proc = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.splitlines()[-1].split()


def test_real_run_loads_what_it_needs_only(quickstart, tmp_path):
    # The table comes from the summary alone: no trace is copied into Python, no bar is drawn.
    assert _heavy_modules_after(["run", str(quickstart), "--duration", "1s", "--quiet"]) == ["0"]
    # The files need pandas and pyarrow (and numpy under them); without figures, no matplotlib.
    out = tmp_path / "out"
    assert _heavy_modules_after(["run", str(quickstart), "--duration", "1s", "--quiet", "--no-plot",
                                 "--out", str(out)]) == ["0", "numpy", "pandas", "pyarrow"]
    assert (out / "links.parquet").is_file() and not list(out.glob("*.png"))
