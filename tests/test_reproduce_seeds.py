"""`ndnflow reproduce --seed N` and `--seeds LIST`: the seed list parser, the seed matrix on
hand-made reports, and real sweeps whose per-seed files must equal single runs with that seed."""

from __future__ import annotations

import json
import re
import tracemalloc

import pytest

from ndnflow.cli import checks_total_line, main
from ndnflow.experiments import common
from ndnflow.experiments.seeds import MAX_SEEDS, SeedSpecError, SeedSweep, parse_seeds

FAST = "pcon-4.4-table1"  # under a second per seed


# ------------------------------------------------------------------------------- parsing


@pytest.mark.parametrize("text, seeds", [("1-4", [1, 2, 3, 4]), ("1,3,7", [1, 3, 7]), ("1-3,9", [1, 2, 3, 9]),
                                         (" 2 ", [2]), ("0", [0]), ("5-5", [5]), ("7,2", [7, 2])])
def test_seed_lists(text, seeds):
    assert parse_seeds(text) == seeds


@pytest.mark.parametrize("text, says", [("", "empty item"), ("1,,2", "empty item"), ("4-1", "runs backwards"),
                                        ("1,1", "seed 1 is given twice"), ("1-3,2", "seed 2 is given twice"),
                                        ("a", "'a' is not a seed"), ("-1", "'-1' is negative"),
                                        ("1-", "range '1-' has no end"), ("1--3", "'-3' is not a seed"), ("1.5", "'1.5' is not a seed"),
                                        (f"0-{MAX_SEEDS}", f"more than {MAX_SEEDS} seeds")])
def test_bad_seed_lists_name_the_item(text, says):
    with pytest.raises(SeedSpecError) as info:
        parse_seeds(text)
    assert says in str(info.value) and repr(text) in str(info.value)


@pytest.mark.parametrize("text", ["1-100000000", "0-4000000000", "1-50,60-10000000", "0-99,200-200,300-300"])
def test_the_seed_cap_is_checked_before_a_range_is_expanded(text):
    # The "--seeds 1-100000000" took 20 s and 4 GB before it was refused: a list of 10^8
    # ints is 800 MB of pointers alone. Checked first, the refusal allocates next to nothing.
    tracemalloc.start()
    try:
        with pytest.raises(SeedSpecError, match=f"more than {MAX_SEEDS} seeds"):
            parse_seeds(text)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 100_000


@pytest.mark.parametrize("argv, says", [
    (["reproduce", FAST, "--seed", "1", "--seeds", "1-2"], "--seed or --seeds, not both"),
    (["reproduce", FAST, "--seeds", "3-1"], "runs backwards"),
    (["reproduce", FAST, "--seed", "-2"], "--seed -2: a seed is an integer from 0 to 18446744073709551615"),
    # Above 2^64 - 1 the scenario's reader refused it, naming a line of the experiment's scenario.
    (["reproduce", FAST, "--seed", str(2**64)], f"--seed {2**64}: a seed is an integer from 0 to"),
    (["reproduce", FAST, "--seeds", f"1,{2**64}"], f"{2**64} is above the largest seed, {2**64 - 1} (2^64 - 1)"),
    (["reproduce", "--list", "--seeds", "1-2"], "--list takes no"),
])
def test_seed_usage_errors_exit_2_before_running(capsys, tmp_path, argv, says):
    assert main(argv + ["--out", str(tmp_path / "x")]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1 and says in err
    assert not (tmp_path / "x").exists()


# ---------------------------------------------------------------------- matrix by hand


def _report(seed, a, b):
    """Two rows: "a" passes when a >= 1, "b" when b >= 1."""
    rows = [common.at_least("a", "1", a, 1.0, "why"), common.at_least("b", None, b, 1.0, "why")]
    return common.Report("x-1", "T", "P", "§1", rows, seed=seed)


def test_sweep_counts_each_row_across_seeds():
    sweep = SeedSweep("x-1", [1, 2, 3], [_report(1, 2.0, 0.0), _report(2, 0.5, 0.0), _report(3, 3.0, 0.0)])
    assert sweep.metrics() == ["a", "b"]
    assert (sweep.passes("a"), sweep.passes("b")) == (2, 0)
    assert not sweep.passed
    # Seeds 1 and 3 pass "a" only, seed 2 nothing; "b" fails with all three.
    # On the median: a's 2.0 (of 2.0, 0.5, 3.0) passes, b's 0.0 does not.
    assert sweep.summary_line() == ("x-1, seeds 1-3: 1, 0, 1 of 2 checks pass; on the median 1 of 2; "
                                    "failed with every seed: b")
    lines = sweep.table().splitlines()
    assert lines[0] == "x-1 over seeds 1-3: T [P §1]"
    row_a = next(line for line in lines if line.startswith("a "))
    assert re.split(r"\s{2,}", row_a.strip()) == ["a", "1", "2", "0.5 *", "3", "2", "2/3"]
    assert lines[-1].startswith("* the row fails its check with that seed, or on the median")
    data = sweep.to_dict()
    assert data["checks_passed"] == {"1": 1, "2": 0, "3": 1}
    assert data["rows"][0] == {"metric": "a", "passes": 2, "measured": {"1": 2.0, "2": 0.5, "3": 3.0},
                               "verdict": {"1": "pass", "2": "fail", "3": "pass"}, "kind": "check",
                               "median": 2.0, "median_verdict": "pass"}
    assert (data["checks"], data["median_checks_passed"]) == (2, 1)


def test_sweep_of_passing_seeds_passes_and_names_no_row():
    sweep = SeedSweep("x-1", [4, 9], [_report(4, 1.0, 1.0), _report(9, 5.0, 2.0)])
    assert sweep.passed and sweep.summary_line() == "x-1, seeds 4,9: 2, 2 of 2 checks pass; on the median 2 of 2"


def test_all_experiments_total_sums_checks_per_seed():
    # Two experiments of two rows each. Single runs: 1 + 2 rows pass. Seeds 1 and 2: x-1 passes 1
    # then 0 rows, x-2 passes 2 then 1 (a fails at 0.5), so 3 and 1 of 4.
    single = [_report(1, 2.0, 0.0), _report(1, 1.0, 1.0)]
    assert checks_total_line(single, None) == "3 of 4 checks pass with seed 1"
    sweeps = [SeedSweep("x-1", [1, 2], [_report(1, 2.0, 0.0), _report(2, 0.5, 0.0)]),
              SeedSweep("x-2", [1, 2], [_report(1, 1.0, 1.0), _report(2, 0.5, 1.0)])]
    # Medians: x-1's a 1.25 passes, b 0 fails; x-2's a 0.75 fails, b 1 passes: 2 of 4.
    assert checks_total_line(sweeps, [1, 2]) == "3, 1 of 4 checks pass with seeds 1, 2; 2 of 4 on the median"


def test_a_seed_sensitive_row_is_judged_on_the_median_and_info_rows_do_not_count():
    # "a" passes with seeds 1 and 3 (2.0, 3.0) and fails with seed 2 (0.5): the median 2.0 passes.
    # "b" as information: 0.0 fails with every seed and still counts nowhere.
    def report(seed, a):
        rows = [common.at_least("a", "1", a, 1.0, "why"), common.at_least("b", None, 0.0, 1.0, "why")]
        return common.Report("x-1", "T", "P", "§1", common.classify(rows, ("b",), ("a",)), seed=seed)

    single = report(1, 2.0)
    assert single.summary_line() == "x-1: 1 of 1 checks pass (1 info rows, 1 seed-sensitive (~))"
    assert checks_total_line([single], None).startswith("1 of 1 checks pass with seed 1; 1 of these verdicts (~) rest on")
    sweep = SeedSweep("x-1", [1, 2, 3], [report(1, 2.0), report(2, 0.5), report(3, 3.0)])
    assert sweep.checks() == ["a"] and sweep.median("a") == 2.0 and sweep.median_checks_passed() == 1
    # Medians of lists go item by item; a value missing in most seeds has no median.
    from ndnflow.experiments.seeds import median_of
    assert median_of([[1, 10], [3, 30], [2, 20]], 3) == [2.0, 20.0]
    assert median_of([None, None, 4.0], 3) is None


# ------------------------------------------------------------------------------ real runs


def test_seed_sweep_files_equal_single_runs_with_those_seeds(real_core, tmp_path, capsys):
    code = main(["reproduce", FAST, "--seeds", "1,2", "--out", str(tmp_path / "sweep"), "--quiet"])
    stdout, err = capsys.readouterr()
    assert err == ""
    sweep = json.loads((tmp_path / "sweep" / "seeds.json").read_text())
    assert sweep["seeds"] == [1, 2] and code == (0 if sweep["passed"] else 1)
    # The default run is seed 1; --seed 2 is the sweep's second run; byte for byte.
    assert main(["reproduce", FAST, "--out", str(tmp_path / "one"), "--quiet"]) in (0, 1)
    assert main(["reproduce", FAST, "--seed", "2", "--out", str(tmp_path / "two"), "--quiet"]) in (0, 1)
    capsys.readouterr()
    for seed, single in ((1, "one"), (2, "two")):
        swept = (tmp_path / "sweep" / f"seed-{seed}" / "results.json").read_bytes()
        assert swept == (tmp_path / single / "results.json").read_bytes()
        data = json.loads(swept)
        assert data["seed"] == seed
        passed = sum(1 for row in data["rows"] if row["kind"] == "check" and row["verdict"] == "pass")
        assert sweep["checks_passed"][str(seed)] == passed
    # Different seeds, different runs: ICP's CF draws its next hops at random.
    assert (tmp_path / "one" / "results.json").read_bytes() != (tmp_path / "two" / "results.json").read_bytes()
    # The printed matrix: one column per seed, and the summary line counts what the files say.
    assert f"{FAST} over seeds 1,2:" in stdout
    # (the summary is the last paragraph; a long one wraps onto indented lines)
    last = [line for line in stdout.strip().splitlines() if not line.startswith("  ")][-1]
    assert last.startswith(f"{FAST}, seeds 1,2: {sweep['checks_passed']['1']}, {sweep['checks_passed']['2']} of ")
    lines = (tmp_path / "sweep" / "seeds.csv").read_text().splitlines()
    assert lines[0] == "metric,paper,seed,measured,unit,tolerance,verdict"
    assert len(lines) == 1 + 2 * len(sweep["rows"])


def test_ctrl_c_after_some_seeds_keeps_their_table_and_files(monkeypatch, tmp_path, capsys):
    # Only the finished seed-N folders were left, with no table, seeds.json or word of them, until
    # 2026-11-28. The runs are faked: seeds 1 and 2 finish, Ctrl-C lands during seed 3.
    from ndnflow.experiments import seeds as seed_sweep

    def fake_run(module, out, *, duration=None, seed=None, progress=None, jobs=None):
        if seed == 3:
            raise KeyboardInterrupt
        return _report(seed, 2.0, 0.0)

    monkeypatch.setattr(seed_sweep, "run_experiment", fake_run)
    assert main(["reproduce", FAST, "--seeds", "1-4", "--out", str(tmp_path / "s"), "--quiet"]) == 130
    captured = capsys.readouterr()
    assert captured.out.startswith(f"{FAST} over seeds 1,2: ")
    assert captured.err.startswith(f"{FAST}: interrupted; seeds 1, 2 of 4 finished, their table above")
    assert json.loads((tmp_path / "s" / "seeds.json").read_text())["seeds"] == [1, 2]
