"""A results folder that is not what `Results.save` wrote: `Results.load` and `ndnflow plot` name
the file and what is wrong with it, instead of failing inside pandas or the figures."""

from __future__ import annotations

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
