"""A results folder that is not what `Results.save` wrote: `Results.load` and `ndnflow plot` name
the file and what is wrong with it, instead of failing inside pandas or the figures."""

from __future__ import annotations

import re

import pytest

import ndnflow
from ndnflow import Results, Scenario
from ndnflow.cli import main
from ndnflow.safe_io import ResultsFileError


@pytest.fixture
def saved(real_core, tmp_path):
    line = Scenario(duration="1s", seed=1).node("c").node("p").link("c", "p", bandwidth="10Mbps", delay="5ms")
    results = ndnflow.run(line.producer("p", "/p").consumer("c", "/p/obj", window=4), progress=False)
    results.save(tmp_path / "run")
    return tmp_path / "run"


@pytest.mark.parametrize("text, why", [
    ("", "not JSON (Expecting value at line 1, column 1)"),
    ("[1]", "not a run's summary (a JSON object whose simulation, consumers, links, nodes are tables)"),
    ('{"simulation": {}, "consumers": []}', "not a run's summary"),
])
def test_a_summary_that_is_not_one_is_named(saved, text, why):
    (saved / "summary.json").write_text(text, encoding="utf-8")
    with pytest.raises(ResultsFileError, match="summary.json: " + why.replace("(", r"\(").replace(")", r"\)")):
        Results.load(saved)


def test_a_summary_that_is_not_utf8_is_named(saved):
    (saved / "summary.json").write_bytes(b"\xff{}")
    with pytest.raises(ResultsFileError, match=r"summary.json: not UTF-8 text \(invalid start byte at byte 0\)"):
        Results.load(saved)


def test_a_trace_without_its_time_and_labels_is_named(saved):
    import pandas as pd

    # A Parquet file, but of another table: the links trace's time and labels are not there.
    pd.DataFrame({"x": [1, 2]}).to_parquet(saved / "links.parquet")
    with pytest.raises(ResultsFileError, match=r"links.parquet: not a trace as ndnflow writes it \(no column "
                                               r"time_s, link, src, dst\)"):
        Results.load(saved)


def test_a_trace_that_is_not_parquet_is_named(saved):
    (saved / "consumers.parquet").write_bytes(b"not parquet at all")
    with pytest.raises(ResultsFileError, match="consumers.parquet: not a trace as ndnflow writes it"):
        Results.load(saved)


def test_plot_on_a_broken_folder_says_which_file_in_one_line(saved, tmp_path, capsys):
    (saved / "summary.json").write_text("{", encoding="utf-8")
    assert main(["plot", str(saved), "--out", str(tmp_path / "figs")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"error: {saved / 'summary.json'}: not JSON (Expecting property name enclosed in double quotes "
                   "at line 1, column 2)"]


# Each case below was read, or failed inside pandas, numpy or json, until 2026-11-28.
@pytest.mark.parametrize("text, why", [
    ('{"consumers": {"c": 5}}', "not a run's summary (consumers.c is not a table)"),
    ("[" * 100_000 + "]" * 100_000, "not a run's summary (arrays or objects nested too deeply)"),
])
def test_a_summary_whose_entries_are_not_tables_is_named(saved, text, why):
    (saved / "summary.json").write_text(text, encoding="utf-8")
    with pytest.raises(ResultsFileError, match="summary.json: " + re.escape(why)):
        Results.load(saved)


def test_a_scenario_that_is_not_utf8_is_named(saved):
    (saved / "scenario.toml").write_bytes(b"\xff")
    with pytest.raises(ResultsFileError, match=r"scenario.toml: not UTF-8 text \(invalid start byte at byte 0\)"):
        Results.load(saved)


@pytest.mark.parametrize("value, why", [
    ("1.5", "a column of counts holds a value that is not a whole number"),
    ("99999999999999999999999", "Python int too large to convert to C long"),
])
def test_a_count_that_is_no_count_is_named(saved, value, why):
    results = Results.load(saved)
    results.save(saved.parent / "csv", format="csv")
    path = saved.parent / "csv" / "links.csv"
    lines = path.read_text(encoding="utf-8").splitlines()
    header = lines[0].split(",")
    cells = lines[1].split(",")
    cells[header.index("packets")] = value
    path.write_text("\n".join([lines[0], ",".join(cells), *lines[2:]]) + "\n", encoding="utf-8")
    with pytest.raises(ResultsFileError, match=re.escape(f"links.csv: not a trace as ndnflow writes it ({why})")):
        Results.load(saved.parent / "csv")


def test_gaps_in_a_column_of_counts_read_as_gaps(saved):
    import pandas as pd

    # A Parquet column of counts with no values was read as -2^63 each.
    frame = pd.read_parquet(saved / "links.parquet")
    frame["packets"] = pd.array([None] * len(frame), dtype="Int64")
    frame.to_parquet(saved / "links.parquet")
    assert Results.load(saved).links["packets"].isna().all()


def test_plot_names_the_figure_and_the_column_a_trace_lacks(saved, tmp_path, capsys):
    import pandas as pd

    frame = pd.read_parquet(saved / "links.parquet").drop(columns=["throughput_bps"])
    frame.to_parquet(saved / "links.parquet")
    assert main(["plot", str(saved), "--out", str(tmp_path / "figs")]) == 2
    assert capsys.readouterr().err == ("error: throughput.png: the results have no 'throughput_bps' column to draw it "
                                       "from (a trace written by an older ndnflow, or edited)\n")


def test_plot_says_when_the_topology_there_is_an_earlier_drawing(saved, capsys):
    # A topology.png that could not be drawn now was left without a word, as if drawn from these
    # results, until 2026-11-28. Here the scenario.toml is not TOML.
    (saved / "scenario.toml").write_text("not = [toml", encoding="utf-8")
    (saved / "topology.png").write_bytes(b"an earlier drawing")
    assert main(["plot", str(saved)]) == 0
    assert capsys.readouterr().err == (f"note: {saved / 'topology.png'} was not drawn now (the results' scenario.toml "
                                       "is missing, unreadable or over 300 nodes); the file there is an earlier drawing\n")
    assert (saved / "topology.png").read_bytes() == b"an earlier drawing"
