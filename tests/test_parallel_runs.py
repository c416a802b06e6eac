"""Several simulations at once (`runner.advance_all`, `common.run_variants(jobs=...)`): the same
results as one at a time, a bar that counts every run, and the first error stops the others."""

from __future__ import annotations

import time
import pandas as pd
import pytest

from ndnflow.experiments import common
from ndnflow.runner import STEPS, advance_all
from ndnflow.scenario import Scenario


class StepSim:
    """A stand-in for `_core.Simulation`: `duration_ns` in STEPS steps, each `pause` s of wall time;
    it finishes at `ends_at_ns` (an early end), or raises `error` on the `fail_on`-th step."""

    def __init__(self, duration_ns, pause=0.0, ends_at_ns=None, fail_on=None, error=RuntimeError("boom")):
        self.duration_ns, self.pause, self.now_ns, self.steps = duration_ns, pause, 0, 0
        self.ends_at_ns = duration_ns if ends_at_ns is None else ends_at_ns
        self.fail_on, self.error = fail_on, error

    @property
    def finished(self):
        return self.now_ns >= self.ends_at_ns

    def run_until(self, t_ns):
        self.steps += 1
        if self.steps == self.fail_on:
            raise self.error
        time.sleep(self.pause)
        self.now_ns = min(t_ns, self.ends_at_ns)
        return self.finished


class Bar:
    """What advance_all uses of a tqdm bar."""

    def __init__(self):
        self.n = 0.0

    def update(self, amount):
        self.n += amount


@pytest.mark.parametrize("jobs", [1, 2, 3])
def test_the_bar_counts_every_run_whole_even_one_that_ends_early(jobs):
    # 2 s + 3 s + a 4 s run whose consumers finish at 1 s: 9 simulated seconds more on the bar.
    runs = [StepSim(2_000_000_000), StepSim(3_000_000_000), StepSim(4_000_000_000, ends_at_ns=1_000_000_000)]
    bar = Bar()
    bar.n = 1.0  # what an earlier part of the same bar counted
    advance_all(runs, bar, jobs=jobs)
    assert bar.n == pytest.approx(10.0)
    assert [run.now_ns for run in runs] == [2_000_000_000, 3_000_000_000, 1_000_000_000]
    # 200 steps each, except the early one: 1 s of 4 s at 20 ms a step is 50 steps.
    assert [run.steps for run in runs] == [STEPS, STEPS, 50]


def test_the_first_error_stops_the_other_runs():
    slow = StepSim(1_000_000_000, pause=0.01)  # 200 steps of 10 ms: 2 s alone
    failing = StepSim(1_000_000_000, fail_on=3, error=ValueError("bad run"))
    started = time.perf_counter()
    with pytest.raises(ValueError, match="bad run"):
        advance_all([slow, failing], Bar(), jobs=2)
    assert slow.steps < STEPS // 2, "the slow run went on after the other failed"
    assert time.perf_counter() - started < 1.0


def test_an_interrupt_in_a_run_reaches_the_caller():
    slow = StepSim(1_000_000_000, pause=0.01)
    interrupted = StepSim(1_000_000_000, fail_on=2, error=KeyboardInterrupt())
    with pytest.raises(KeyboardInterrupt):
        advance_all([slow, interrupted], Bar(), jobs=2)
    assert slow.steps < STEPS // 2


def test_jobs_must_be_positive():
    with pytest.raises(ValueError, match="at least 1"):
        advance_all([StepSim(1)], Bar(), jobs=0)


def test_parallel_runs_give_the_results_of_runs_one_at_a_time(quickstart):
    # Three different runs (c2 starts at 10 s, so each carries both consumers), so that results
    # handed to the wrong variant would show.
    def variants():
        base = Scenario.from_file(quickstart)
        return {f"{seconds}s": base.with_duration(f"{seconds}s") for seconds in (11, 12, 13)}

    alone = common.run_variants(variants(), progress=False, jobs=1)
    together = common.run_variants(variants(), progress=False, jobs=3)
    assert list(together) == ["11s", "12s", "13s"]
    assert [res.summary["simulation"]["end_s"] for res in together.values()] == [11.0, 12.0, 13.0]
    for name in alone:
        assert together[name].summary == alone[name].summary
        pd.testing.assert_frame_equal(together[name].links, alone[name].links)
        pd.testing.assert_frame_equal(together[name].consumers, alone[name].consumers)
