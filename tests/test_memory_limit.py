"""The memory limit (issue 22 item 1): a scenario that cannot fit is refused before it runs, naming
the field that asks for too much; a run that outgrows the limit stops with what it computed.
The Rust tests (crates/ndnflow-sim/src/memory_tests.rs) work the byte counts out by hand; these
check that the user meets them as one-line errors and as interrupted results."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ndnflow import Scenario, run
from ndnflow.cli import EXIT_INTERRUPTED, main

ROOT = Path(__file__).resolve().parent.parent


def test_a_rate_that_cannot_fit_is_refused_at_once(capsys, quickstart, tmp_path):
    # The quick start with a constant rate of 10^12 Interests/s aborted after a minute at
    # 7-9 GB: now a one-line error naming the field, before anything runs.
    text = quickstart.read_text().replace('cc   = { algorithm = "fixed-window", window = 40 }',
                                          'cc   = { algorithm = "constant-rate", rate = 1e12 }', 1)
    path = tmp_path / "huge.toml"
    path.write_text(text)
    started = time.monotonic()
    code = main(["run", str(path), "--out", str(tmp_path / "out")])
    assert time.monotonic() - started < 10
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    line = err.strip()
    assert line.startswith(f"error: {path}:") and "consumers[0].cc.rate" in line, line
    assert "memory limit of 4.0 GiB" in line and "Traceback" not in err
    assert not (tmp_path / "out").exists()


def test_a_run_past_the_limit_stops_and_keeps_its_results(real_core, tmp_path):
    # AIMD's window is the network's to bound: the estimate (about 162 kB) fits 200 kB, the run
    # outgrows it (memory_tests.rs works out where) and stops before its 10 s.
    sc = Scenario(duration="10s", memory_limit="200KB")
    sc.node("c")
    sc.node("p")
    sc.link("c", "p", bandwidth="10Mbps", delay="10ms")
    sc.producer("p", "/a")
    sc.consumer("c", "/a", cc={"algorithm": "aimd"})
    results = run(sc, progress=False)
    assert results.interrupted
    assert results.stopped is not None and "above the memory limit" in results.stopped
    end_s = results.summary["simulation"]["end_s"]
    assert 0 < end_s < 10
    assert len(results.consumers) > 0 and results.consumers["time_s"].max() <= end_s
    results.save(tmp_path / "out")
    assert (tmp_path / "out" / "summary.json").is_file()


RLIMIT_SCENARIO = '''[simulation]
duration = "2s"
memory_limit = "100GiB"

[nodes]
c = {}
p = {}

[[links]]
between = ["c", "p"]
bandwidth = "100Gbps"
delay = "1s"

[[producers]]
node = "p"
prefix = "/a"

[[consumers]]
node = "c"
name = "/a"
cc = { algorithm = "constant-rate", rate = 1e8 }
'''


def run_the_flood_under(tmp_path: Path, limit_mib: int) -> tuple[subprocess.CompletedProcess, dict, Path]:
    """`ndnflow run --out` of RLIMIT_SCENARIO in a child whose address space is limited to
    `limit_mib` MiB: its exit, its summary (which it must have written) and its folder. The
    child's end is checked to be the interrupted one, with its reason on stderr."""
    import resource

    path = tmp_path / "huge.toml"
    path.write_text(RLIMIT_SCENARIO)
    limit = limit_mib << 20

    def bound() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    env = dict(os.environ, PYTHONPATH=str(ROOT / "python"), OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    out = tmp_path / "out"
    proc = subprocess.run([sys.executable, "-m", "ndnflow.cli", "run", str(path), "--out", str(out), "--no-plot"],
                          preexec_fn=bound, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == EXIT_INTERRUPTED, (proc.returncode, proc.stderr[-2000:])
    assert "out of memory: the allocator refused" in proc.stderr, proc.stderr
    summary = json.loads((out / "summary.json").read_text())
    assert summary["simulation"]["stopped"].startswith("stopped at ")
    assert (out / "consumers.parquet").is_file() and (out / "links.parquet").is_file()
    return proc, summary, out


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_AS bounds the address space on Linux")
def test_an_allocation_the_system_refuses_ends_the_run_with_its_results(real_core, tmp_path):
    # 10^8 Interests/s over a 1 s link, with the memory limit raised past what the process may
    # have: nothing returns, every Interest is a new PIT entry at c, and the PIT's slots double
    # (2^21 slots of 128 B = 256 MiB, then 512 MiB) until the address space limit refuses one.
    # Before, that aborted the process (SIGABRT, "memory allocation of N bytes failed").
    # 1.5 GiB: about 0.6 GiB above what the interpreter and its libraries map.
    proc, summary, _ = run_the_flood_under(tmp_path, 1536)
    assert "node c's PIT" in proc.stderr, proc.stderr
    assert 0 < summary["simulation"]["end_s"] < 2


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_AS bounds the address space on Linux")
@pytest.mark.parametrize("limit_mib", [950, 1000, 1050])
def test_a_small_allocation_the_system_refuses_ends_the_run_too(real_core, tmp_path, limit_mib):
    # The same flood under tighter address-space limits. Which allocation the system refuses
    # first depends on where the allocator's arenas meet the limit: a guarded table's doubling
    # (the test above), or a packet or a name of a few dozen bytes, which nothing guards. On the
    # development machine, before the memory reserve (ndnflow_core::reserve), 950 and 1,000 MiB
    # aborted the process ("memory allocation of 92 bytes failed", SIGABRT) and 1,050 stopped on
    # the consumer's table; now every limit from 600 MiB to 1.6 GiB ends the run with its results
    # (docs/performance.md, "Memory"). Whichever allocation fails, the run must end that way.
    run_the_flood_under(tmp_path, limit_mib)
