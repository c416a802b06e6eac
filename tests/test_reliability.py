"""Nothing aborts, nothing is lost (issue 22): results under signals and failed writes, and the
error paths of bad input. Signal tests run the command in a subprocess and stop it with SIGINT or
SIGTERM once it reports that the run (or the sweep's second run) is under way."""

from __future__ import annotations

import errno
import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from ndnflow import ScenarioError, ScenarioWarning, results, safe_io, sweeps
from ndnflow.cli import main
from ndnflow.results import Results
from ndnflow.scenario import Scenario

ROOT = Path(__file__).resolve().parent.parent
QUICKSTART = ROOT / "examples" / "quickstart.toml"


def _long_quickstart(tmp_path: Path, duration: str) -> Path:
    path = tmp_path / "long.toml"
    path.write_text(QUICKSTART.read_text().replace('duration = "30s"', f'duration = "{duration}"'))
    return path


def _interactive_signals() -> None:
    """Ctrl-C's default action in the child, as a command typed at a terminal has it: a shell that
    starts the test suite in the background (`... &` without job control) makes it inherit SIGINT
    ignored, and Python then never turns SIGINT into KeyboardInterrupt."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _command(argv, hook: str) -> subprocess.Popen:
    """`ndnflow ARGV` in a subprocess, with `hook` (Python source) run first to make it print a line
    when it reaches the point the test waits for."""
    code = textwrap.dedent(hook) + f"\nimport sys\nfrom ndnflow.cli import main\nsys.exit(main({argv!r}))\n"
    env = dict(os.environ, PYTHONPATH=str(ROOT / "python"))
    return subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env, preexec_fn=_interactive_signals)


def _wait_for(proc: subprocess.Popen, marker: str, count: int = 1) -> None:
    seen = 0
    while seen < count:
        line = proc.stdout.readline()
        assert line, f"the command ended before printing {marker!r}: {proc.communicate()}"
        seen += marker in line


#: Prints "running" once the simulation has taken its first step.
RUN_STARTED = """
    import ndnflow.runner as runner
    _steps = runner._steps
    def steps(*args, **kwargs):
        for k, now in enumerate(_steps(*args, **kwargs)):
            if k == 1:
                print("running", flush=True)
            yield now
    runner._steps = steps
"""


def _no_temporary_files(directory: Path) -> bool:
    return not list(directory.rglob(".*.tmp"))


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_stopped_run_keeps_its_results_whole(real_core, tmp_path, signum):
    out = tmp_path / "out"
    proc = _command(["run", str(_long_quickstart(tmp_path, "2h")), "--out", str(out), "--no-plot", "--quiet"],
                    RUN_STARTED)
    _wait_for(proc, "running")
    proc.send_signal(signum)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "interrupted: results cover the first" in err
    summary = json.loads((out / "summary.json").read_text())
    assert summary["simulation"]["interrupted"] is True and summary["simulation"]["end_s"] < 7200
    # Both traces are complete Parquet files, and their rows add up to the summary.
    consumers = pq.read_table(out / "consumers.parquet").to_pandas()
    assert pq.read_table(out / "links.parquet").num_rows > 0
    sent = consumers.groupby("consumer")["interests"].sum()
    assert {c: int(n) for c, n in sent.items()} == {c: v["interests_sent"] for c, v in summary["consumers"].items()}
    assert (out / "scenario.toml").is_file() and _no_temporary_files(out)


#: Prints "run started" each time a sweep's run starts (the third: two have finished).
RUN_STARTED_IN_SWEEP = """
    import ndnflow.sweeps as sweeps
    _run_local = sweeps._run_local
    def run_local(*args, **kwargs):
        print("run started", flush=True)
        return _run_local(*args, **kwargs)
    sweeps._run_local = run_local
"""


def test_sigterm_during_a_sweep_keeps_every_finished_run(real_core, tmp_path):
    scenario = _long_quickstart(tmp_path, "2s")
    out = tmp_path / "sweep"
    proc = _command(["sweep", str(scenario), "--seeds", "1-50", "--jobs", "1", "--out", str(out), "--no-plot",
                     "--quiet"], RUN_STARTED_IN_SWEEP)
    _wait_for(proc, "run started", count=3)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    meta = json.loads((out / "sweep.json").read_text())
    table = pq.read_table(out / "sweep.parquet").to_pandas()
    assert meta["interrupted"] is True and meta["runs"] == 50
    assert 2 <= meta["completed"] == len(table) < 50
    assert len((out / "sweep.csv").read_text().splitlines()) == len(table) + 1
    assert _no_temporary_files(out)


# ----------------------------------------------------------------- signals while files are written


def _results() -> Results:
    summary = {"simulation": {"duration_s": 1.0, "end_s": 1.0}, "consumers": {}, "links": {}, "nodes": {}}
    return Results(summary, scenario_toml="[simulation]\nduration = \"1s\"\n")


def _signal_after_first_parquet(monkeypatch, module, signum=signal.SIGINT):
    """Make `module`'s first Parquet write send `signum` to this process once it has written."""
    write = module._write_parquet
    calls = []

    def write_then_signal(frame, path):
        write(frame, path)
        calls.append(path)
        if len(calls) == 1:
            os.kill(os.getpid(), signum)

    monkeypatch.setattr(module, "_write_parquet", write_then_signal)
    return calls


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_while_results_are_saved_waits_for_every_file(monkeypatch, tmp_path, signum):
    calls = _signal_after_first_parquet(monkeypatch, results, signum)
    with safe_io.sigterm_as_interrupt(), pytest.raises(KeyboardInterrupt):
        _results().save(tmp_path)
    # The stop took effect after the last file: both traces, the scenario and the summary.
    assert len(calls) == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "consumers.parquet", "links.parquet", "scenario.toml", "summary.json"]
    assert pq.read_table(tmp_path / "consumers.parquet").num_rows == 0
    assert json.loads((tmp_path / "summary.json").read_text())["simulation"]["end_s"] == 1.0


def test_a_signal_while_a_sweep_is_saved_waits_for_every_file(real_core, monkeypatch, tmp_path):
    scenario = Scenario.from_file(QUICKSTART).with_duration("500ms")
    result = sweeps.sweep(scenario, {}, seeds=[1, 2], jobs=1, progress=False)
    _signal_after_first_parquet(monkeypatch, sweeps)
    with pytest.raises(KeyboardInterrupt):
        result.save(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["scenarios", "sweep.csv", "sweep.json", "sweep.parquet"]
    assert len(list((tmp_path / "scenarios").iterdir())) == 2
    assert json.loads((tmp_path / "sweep.json").read_text())["completed"] == 2


# ------------------------------------------------------------------------------- failed writes


def _failing_write(error: OSError):
    def write(frame, path):
        Path(path).write_bytes(b"PAR1 half a file")
        raise error

    return write


def test_a_failed_write_leaves_the_previous_file_and_names_the_path(monkeypatch, tmp_path):
    _results().save(tmp_path)
    before = (tmp_path / "links.parquet").read_bytes()
    # A full disk: the error pyarrow raises has no file name.
    monkeypatch.setattr(results, "_write_parquet", _failing_write(OSError(errno.ENOSPC, "No space left on device")))
    with pytest.raises(OSError) as info:
        _results().save(tmp_path)
    assert info.value.errno == errno.ENOSPC and info.value.filename == str(tmp_path / "links.parquet")
    assert (tmp_path / "links.parquet").read_bytes() == before and _no_temporary_files(tmp_path)


def test_the_command_names_the_file_it_could_not_write(capsys, fake_core, monkeypatch, tmp_path):
    scenario = tmp_path / "s.toml"
    scenario.write_text('[simulation]\nduration = "1s"\n')
    monkeypatch.setattr(results, "_write_parquet", _failing_write(OSError(errno.ENOSPC, "No space left on device")))
    assert main(["run", str(scenario), "--out", str(tmp_path / "o"), "--no-plot", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err == f"error: {tmp_path / 'o' / 'links.parquet'}: No space left on device\n"


# --------------------------------------------------------------------------------- bad input


def test_deeply_nested_toml_is_a_scenario_error():
    text = "[simulation]\nx = " + "[" * 5000 + "]" * 5000 + "\n"
    with pytest.raises(ScenarioError, match=r"^deep\.toml: arrays or tables nested too deeply"):
        Scenario.from_toml(text, source="deep.toml")


def test_a_binary_file_is_named(capsys, tmp_path):
    path = tmp_path / "picture.png"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\xff\xfe")
    with pytest.raises(ScenarioError, match=f"^{path}: not a scenario: not UTF-8 text"):
        Scenario.from_file(path)
    assert main(["run", str(path)]) == 2
    assert capsys.readouterr().err.startswith(f"error: {path}: not a scenario: not UTF-8 text (invalid start byte")
    assert main(["import-ndnsim", str(path)]) == 2
    assert capsys.readouterr().err.startswith(f"error: {path}: not an ndnSIM topology: not UTF-8 text")


@pytest.mark.parametrize("command", ["run", "import-ndnsim", "import-rocketfuel"])
def test_a_device_or_a_folder_is_refused_before_it_is_read(capsys, tmp_path, command):
    # /dev/null reads as empty text, /dev/zero and a named pipe without end or a writer: each is
    # refused by what it is, before it is opened (a device read as text would say something else).
    what = {"run": "a scenario", "import-ndnsim": "an ndnSIM topology", "import-rocketfuel": "a Rocketfuel map"}[command]
    for path in ("/dev/null", str(tmp_path)):
        assert main([command, path]) == 2
        assert capsys.readouterr().err.strip() == f"error: {path}: not {what}: not a regular file"
    with pytest.raises(ScenarioError, match="^/dev/null: not a scenario: not a regular file$"):
        Scenario.from_file("/dev/null")


@pytest.mark.parametrize("queue", [10.5, "10", True])
def test_a_queue_that_is_neither_a_size_nor_a_table_is_named(queue):
    with pytest.raises(ScenarioError, match=f"link queue: {queue!r} is neither a number of packets"):
        Scenario().link("a", "b", "10Mbps", "1ms", queue=queue)


def test_a_consumer_no_route_serves_is_warned_about(real_core):
    scenario = (Scenario(duration="1s", routing="none").node("a").node("b")
                .link("a", "b", "10Mbps", "1ms").producer("b", "/p").consumer("a", "/p/x", cc={"algorithm": "aimd"}))
    with pytest.warns(ScenarioWarning, match=r"consumer a \(consumers\[0\]\) on a: no route leads from a"):
        scenario.build_simulation()


def test_the_command_prints_a_warning_in_one_line(capsys, real_core, tmp_path):
    path = tmp_path / "s.toml"
    path.write_text('[simulation]\nduration = "100ms"\nrouting = "none"\n[nodes]\na = {}\nb = {}\n'
                    '[[links]]\nbetween = ["a", "b"]\nbandwidth = "1Mbps"\ndelay = "1ms"\n'
                    '[[producers]]\nnode = "b"\nprefix = "/p"\n'
                    '[[consumers]]\nnode = "a"\nname = "/p/x"\ncc = { algorithm = "aimd" }\n')
    assert main(["run", str(path), "--quiet"]) == 0
    assert capsys.readouterr().err == (f"warning: {path}: consumer a (consumers[0]) on a: no route leads from a to a "
                                       "producer of /p/x; its Interests will go unanswered\n")
