"""`ndnflow reproduce`: the catalog, its command line, the experiments' metric functions on small
hand-made inputs, and real runs of PCON 4.1 and 4.2 (about a second each). PCON 4.3 and 4.4 are
tested in test_reproduce_pcon.py."""

from __future__ import annotations

import json
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from ndnflow import experiments
from ndnflow.cli import main
from ndnflow.experiments import common, pcon_4_1, pcon_4_2

IDS = ("pcon-4.1", "pcon-4.2", "pcon-4.3", "pcon-4.4-split", "pcon-4.4-table1", "pcon-4.5", "pcon-4.6",
       "survey-sce1", "survey-sce2", "survey-sce3", "ptp-s1", "ptp-s2", "ptp-s3", "ptp-s4", "ptp-s5",
       "dpccp-sp1", "dpccp-sp2", "dpccp-sp3", "dpccp-mp1", "dpccp-mp2", "dpccp-mp3", "dpccp-mp4",
       "smic-bottleneck1", "smic-bottleneck2", "smic-tree", "smic-competition")
#: The experiments whose full run this file checks end to end.
END_TO_END = ("pcon-4.1", "pcon-4.2")


def fake_results(summary, links=None, consumers=None):
    """The three attributes the metric functions read."""
    return SimpleNamespace(summary=summary, links=pd.DataFrame(links or {"link": [], "time_s": []}),
                           consumers=pd.DataFrame(consumers or {"consumer": [], "time_s": []}))


def verdicts(rows):
    return {row.metric: row.verdict for row in rows}


# --------------------------------------------------------------------------- command line


def test_list_names_every_experiment(capsys):
    assert main(["reproduce", "--list"]) == 0
    out, err = capsys.readouterr()
    for experiment_id in IDS:
        assert experiment_id in out
    assert "§4.1" in out and "§4.2" in out and "§4.3" in out and "§4.4" in out and err == ""


def test_unknown_id_is_one_line_and_exit_2(capsys, tmp_path):
    assert main(["reproduce", "pcon-9.9", "--out", str(tmp_path / "x")]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "Traceback" not in err
    assert err.strip().splitlines() == [
        f"error: unknown experiment 'pcon-9.9' (known: {', '.join(IDS)})"]
    assert not (tmp_path / "x").exists()


@pytest.mark.parametrize("argv", [["reproduce"], ["reproduce", "--all", "pcon-4.1"], ["reproduce", "--list", "--all"],
                                  ["reproduce", "pcon-4.1", "--jobs", "0"]])
def test_usage_errors_exit_2(capsys, argv):
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1 and err.startswith("error: ")


def test_catalog_modules_declare_what_the_runner_needs():
    modules = experiments.catalog()
    assert tuple(modules) == IDS
    for module in modules.values():
        for name in ("ID", "TITLE", "PAPER", "SECTION", "DURATION", "scenarios", "metrics", "figures"):
            assert hasattr(module, name), (module.__name__, name)
    with pytest.raises(experiments.UnknownExperiment):
        experiments.get("nope")


# ---------------------------------------------------------------------- pcon-4.1 by hand


def _run_41(goodput, drops, timeouts, retx, queue, sojourn):
    bins = len(queue)
    summary = {"consumers": {"c": {"goodput_bps": goodput, "timeouts": timeouts, "retransmissions": retx}},
               "links": {"p->r": {"drops": drops}, "r->p": {"drops": 0}}, "nodes": {}}
    links = {"link": ["p->r"] * bins, "time_s": [0.1 * i for i in range(bins)], "queue_packets": queue,
             "sojourn_ms": [sojourn] * bins, "packets": [10] * bins}
    return fake_results(summary, links)


def test_pcon_4_1_metrics_by_hand():
    base = {
        "FIFO": _run_41(9.0e6, 5, 5, 5, [50, 100, 90, 100], 80.0),
        "CODEL_Drop": _run_41(8.5e6, 3, 3, 3, [10, 40, 10, 0], 5.0),   # 8.5 >= 0.9 * 9.0 = 8.1
        "PCON": _run_41(7.0e6, 0, 0, 0, [5, 30, 5, 0], 3.0),          # 7.0 < 8.1: fails
        "FIFO_1000": _run_41(8.8e6, 0, 9, 9, [300, 400, 300, 300], 240.0),   # 240 / 80 = 3 >= 2
        "CODEL_Drop_1000": _run_41(8.5e6, 3, 3, 3, [10, 40, 10, 0], 5.0),   # no change
        "PCON_1000": _run_41(7.7e6, 0, 0, 0, [5, 30, 5, 0], 3.0),          # +10%: fails
    }
    got = verdicts(pcon_4_1.metrics(base))
    assert got == {
        "FIFO goodput": "pass",
        "CODEL_Drop goodput": "pass",
        "PCON goodput": "fail",
        "FIFO max bottleneck queue": "pass",
        "FIFO drops / timeouts / retransmissions": "pass",
        "CODEL_Drop max bottleneck queue": "pass",
        "CODEL_Drop mean bottleneck queue": "pass",          # mean 15 <= 20
        "PCON max bottleneck queue": "pass",
        "PCON mean bottleneck queue": "pass",
        "CODEL_Drop drops": "pass",
        "PCON drops / timeouts / retransmissions": "pass",
        "CODEL_Drop goodput change, 100 -> 1000 packets": "pass",
        "PCON goodput change, 100 -> 1000 packets": "fail",
        "FIFO queuing delay, 1000 / 100 packets": "pass",
    }
    # A PCON run that lost a packet, and a FIFO queue that never filled.
    base["PCON"] = _run_41(9.0e6, 1, 1, 1, [5, 100, 5, 0], 3.0)
    base["FIFO"] = _run_41(9.0e6, 0, 0, 0, [50, 99, 90, 99], 80.0)
    got = verdicts(pcon_4_1.metrics(base))
    assert got["PCON drops / timeouts / retransmissions"] == "fail"
    assert got["PCON max bottleneck queue"] == "fail"
    assert got["FIFO max bottleneck queue"] == "fail"
    assert got["FIFO drops / timeouts / retransmissions"] == "fail"


# ---------------------------------------------------------------------- pcon-4.2 by hand


def _run_42(timeouts_at=None, retx=0, drops=0, rtt_max=200.0):
    """0.5 s bins over 10 s. C1 gets 100 Data per bin; C2 starts at 5 s with 400 per bin at
    40 Mbit/s and a window of 50 until bin 13, then 100 per bin: received(C2) + window >= received(C1)
    first at bin 13 (400 * 4 + 50 >= 100 * 14), so the cache is exhausted at its end, 7.0 s."""
    times = [0.5 * i for i in range(20)]
    c2_data = [0] * 10 + [400] * 4 + [100] * 6
    timeouts = [0] * 20
    if timeouts_at is not None:
        timeouts[timeouts_at] = 3
    consumers = {
        "consumer": ["c1"] * 20 + ["c2"] * 20, "time_s": times * 2,
        "data": [100] * 20 + c2_data, "window": [20.0] * 20 + [np.nan] * 10 + [50.0] * 10,
        "goodput_bps": [0.9e6] * 20 + [0.0] * 10 + [40e6] * 4 + [0.9e6] * 6,
        "timeouts": [0] * 20 + timeouts, "retransmissions": [0] * 40, "rtt_ms": [80.0] * 40,
    }
    links = {"link": ["p->r"] * 20, "time_s": times, "throughput_bps": [9.5e6] * 20}
    per = {"timeouts": 0 if timeouts_at is None else 3, "retransmissions": retx, "rtt_max_ms": rtt_max, "nacks": 0}
    summary = {"consumers": {"c1": dict(per), "c2": dict(per)}, "links": {"p->r": {"drops": drops, "losses": 0}},
               "nodes": {"r": {"pit_expired": 0}}}
    return fake_results(summary, links, consumers)


def test_pcon_4_2_metrics_by_hand():
    results = {"PCON": _run_42(), "TCP_timer": _run_42(timeouts_at=15, retx=4, drops=7),
               "TCP_timer_marks": _run_42(timeouts_at=14, retx=2)}
    assert pcon_4_2.cache_exhausted_s(results["PCON"]) == pytest.approx(7.0)
    got = verdicts(pcon_4_2.metrics(results))
    assert set(got.values()) == {"pass"}, got
    rows = {row.metric: row for row in pcon_4_2.metrics(results)}
    assert rows["PCON: min RTO - RTT"].measured == pytest.approx(800.0)  # 1 s fixed RTO - 200 ms
    assert rows["TCP_timer_marks: first timeout after cache exhausted"].measured == pytest.approx(0.0)
    assert rows["TCP_timer_marks: Interests with RTO < RTT"].measured == 6

    # PCON retransmitting, an RTT above PCON's RTO, and a "drop-free" run that dropped.
    results = {"PCON": _run_42(retx=1, rtt_max=1200.0), "TCP_timer": _run_42(),
               "TCP_timer_marks": _run_42(timeouts_at=14, retx=2, drops=1)}
    got = verdicts(pcon_4_2.metrics(results))
    assert got["PCON: timeouts / retransmissions (C1, C2)"] == "fail"
    assert got["PCON: min RTO - RTT"] == "fail"
    assert got["TCP_timer: retransmissions"] == "fail"
    assert got["TCP_timer_marks: drops, losses, expiries, Nacks"] == "fail"
    assert got["TCP_timer_marks: unnecessary retransmissions"] == "fail"  # not exact with a drop


def test_replayed_rto_follows_rfc6298():
    rows = pd.DataFrame({"rtt_ms": [100.0, np.nan, 100.0, np.nan], "data": [1, 0, 1, 0], "timeouts": [0, 0, 0, 2]})
    # The RTO in force in each bin: initial 1 s; after 100 ms, 300 ms; after another, 250 ms
    # (consumer.md's example); the last bin's backoff would act on the next one.
    assert list(pcon_4_2.replayed_rto_ms(rows, None)) == pytest.approx([1000.0, 300.0, 300.0, 250.0])
    rows = pd.DataFrame({"rtt_ms": [10.0], "data": [1], "timeouts": [0]})
    fixed = {"initial": 1.0, "min": 1.0, "max": 1.0}
    assert list(pcon_4_2.replayed_rto_ms(pd.concat([rows, rows]), fixed)) == [1000.0, 1000.0]


def test_rows_and_report_files(tmp_path):
    rows = [common.at_least("a", "1", 2.0, 1.0, "why"), common.all_zero("b", None, [0, 1], "why"),
            common.above("c", None, float("nan"), 0, "a missing value fails")]
    assert [r.verdict for r in rows] == ["pass", "fail", "fail"]
    report = common.Report("x-1", "T", "P", "§1", rows)
    assert not report.passed and report.summary_line() == "x-1: 1 of 3 checks pass; failed: b; c"
    # A long list of failed rows wraps within 120 columns, continuation lines indented.
    long = common.Report("x-2", "T", "P", "§1", [common.all_zero(f"utilization of link n{k}->n{k + 1}", None, [1], "")
                                                 for k in range(12)])
    lines = long.summary_line().splitlines()
    assert len(lines) > 1 and all(len(line) <= 120 for line in lines) and lines[1].startswith("  ")
    assert " ".join(line.strip() for line in lines).endswith("utilization of link n11->n12")
    written = common.write_report(report, tmp_path)
    data = json.loads((tmp_path / "results.json").read_text())
    assert [r["verdict"] for r in data["rows"]] == ["pass", "fail", "fail"] and data["passed"] is False
    assert (tmp_path / "results.csv").read_text().splitlines()[0] == "metric,paper,measured,unit,tolerance,verdict,kind"
    assert len(written) == 2


def test_an_info_row_does_not_count():
    # Three rows: "a" passes (2 >= 1), "b" fails ([0, 1] not all 0), "c" fails (0 > 0 is false).
    # As information, "b" leaves the count: 1 of 2 checks pass, and only "c" is named as failing;
    # making "c" information too leaves 1 of 1, and the experiment passes.
    rows = [common.at_least("a", "1", 2.0, 1.0, "why"), common.all_zero("b", None, [0, 1], "why"),
            common.above("c", None, 0.0, 0, "why")]
    report = common.Report("x-1", "T", "P", "§1", common.classify(rows, info_rows=("b",)))
    assert report.summary_line() == "x-1: 1 of 2 checks pass (1 info rows); failed: c"
    assert [r["kind"] for r in report.to_dict()["rows"]] == ["check", "info", "check"]
    assert (report.to_dict()["checks"], report.to_dict()["checks_passed"]) == (2, 1)
    lines = [line.split() for line in report.table().splitlines() if line[:2] in ("a ", "b ", "c ")]
    verdicts = {cells[0]: cells[-1] for cells in lines}
    assert verdicts == {"a": "pass", "b": "(fail)", "c": "fail"}
    assert common.Report("x-1", "T", "P", "§1", common.classify(rows, info_rows=("b", "c"))).passed
    with pytest.raises(KeyError, match="INFO_ROWS names metrics that no row has"):
        common.classify(rows, info_rows=("typo",))


# ------------------------------------------------------------------------------- real runs


@pytest.mark.parametrize("experiment_id", END_TO_END)
def test_reproduce_end_to_end(real_core, tmp_path, capsys, experiment_id):
    out = tmp_path / experiment_id
    code = main(["reproduce", experiment_id, "--out", str(out), "--quiet"])
    stdout, err = capsys.readouterr()
    data = json.loads((out / "results.json").read_text())
    assert code == (0 if data["passed"] else 1)
    assert err == ""
    assert stdout.splitlines()[0].startswith(f"{experiment_id}: ")
    assert stdout.strip().splitlines()[-1].startswith(f"{experiment_id}: ")
    figure = {"pcon-4.1": "figure3.png", "pcon-4.2": "figure6.png"}[experiment_id]
    assert (out / figure).stat().st_size > 10_000 and (out / "results.csv").is_file()
    by_metric = {row["metric"]: row["verdict"] for row in data["rows"]}
    # The qualitative outcome the paper's argument rests on.
    if experiment_id == "pcon-4.1":
        for metric in ("FIFO max bottleneck queue", "FIFO drops / timeouts / retransmissions",
                       "PCON max bottleneck queue", "CODEL_Drop drops", "PCON drops / timeouts / retransmissions"):
            assert by_metric[metric] == "pass", metric
    else:
        for metric in ("PCON: timeouts / retransmissions (C1, C2)", "PCON: min RTO - RTT",
                       "TCP_timer_marks: unnecessary retransmissions"):
            assert by_metric[metric] == "pass", metric


def test_same_seed_same_numbers_and_shorter_runs(real_core):
    first = experiments.run("pcon-4.1", duration="5s", progress=False)
    again = experiments.run("pcon-4.1", duration="5s", progress=False)
    assert first.to_dict() == again.to_dict()
    assert first.duration == "5s"
    assert first.results["PCON"].summary["simulation"]["duration_s"] == 5.0


def test_printed_table_fits_120_columns_and_keeps_reasons_in_the_files():
    long = "a metric named at length, as the PCON and PTP rows are, " * 2
    tolerance = ">= 3 bursts (> 1 s apart), each shorter than half the gap: the paper's Figure 14 (read off)"
    rows = [common.Row(long, "periodic bursts of timeouts, seen in the figure", [5.0, 12.25, 17.5], tolerance, True)]
    report = common.Report("x-1", "A title " * 12, "Paper", "§4.6", rows)
    lines = report.table().splitlines()
    assert max(len(line) for line in lines) <= 120
    # The reason goes; the bound, with its ": "-free parentheses, stays (wrapped over lines).
    text = " ".join(lines)
    assert "Figure 14" not in text and ">= 3 bursts" in text
    assert report.to_dict()["rows"][0]["tolerance"] == tolerance


@pytest.mark.parametrize("tolerance, bound", [
    ("<= 5 ms: CoDel's target, r3 included", "<= 5 ms"),
    ("all 0: exact: losses come back as Nacks", "all 0"),
    ("PTP above every other solution (values: the paper's Figure 7): read off", "PTP above every other solution (values: the paper's Figure 7)"),
    ("PCON's > Ideal's", "PCON's > Ideal's"),
])
def test_tolerance_bound_is_the_text_before_the_reason(tolerance, bound):
    assert common.tolerance_bound(tolerance) == bound
