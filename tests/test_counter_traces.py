"""`[trace] faces` and `nodes` from Python (`Results.faces`, `Results.nodes`), and the traces as CSV
(`Results.save(format=...)`, `ndnflow run --format`)."""

from __future__ import annotations

import math

import pandas as pd
import pytest

import ndnflow
from ndnflow import Results, Scenario
from ndnflow.cli import main
from ndnflow.results import FACE_COLUMNS, NODE_COLUMNS


def chain() -> Scenario:
    """c - r - p, a store on r; c fetches ten segments, then (from 1 s) the same ten again."""
    s = Scenario(duration="3s", bin="500ms").nodes("c", "p").node("r", cs={"capacity": 100})
    s.link("c", "r", bandwidth="10Mbps", delay="10ms").link("r", "p", bandwidth="10Mbps", delay="10ms")
    s.producer("p", "/p", payload=100)
    s.consumer("c", "/p/o", segments=10, cc={"algorithm": "fixed-window", "window": 4})
    s.consumer("c", "/p/o", segments=10, start="1s", cc={"algorithm": "fixed-window", "window": 4})
    return s


def test_the_trace_key_round_trips_through_toml():
    s = chain().trace(faces=True, nodes=False)
    assert "[trace]\nfaces = true\nnodes = false\n" in s.to_toml()
    assert Scenario.from_toml(s.to_toml()).to_dict() == s.to_dict()


def test_faces_and_nodes_hold_the_routers_counts(real_core):
    results = ndnflow.run(chain().trace(faces=True, nodes=True), progress=False)
    faces, nodes = results.faces, results.nodes
    assert list(faces.columns) == list(FACE_COLUMNS) and list(nodes.columns) == list(NODE_COLUMNS)
    totals = faces.groupby(["node", "face"])[["in_interests", "out_data", "satisfied"]].sum()
    # r receives both consumers' twenty Interests from c and answers each; the second ten from
    # its store, so only ten reach p.
    assert totals.loc[("r", "c")].tolist() == [20, 20, 20]
    assert totals.loc[("p", "r")].tolist() == [10, 10, 10]
    at_r = nodes[nodes["node"] == "r"]
    assert at_r[["cs_hits", "cs_misses"]].sum().tolist() == [10, 10]
    # A node on its own: c runs two applications, numbered in file order.
    assert sorted(faces.loc[faces["node"] == "c", "face"].unique()) == ["app#0", "app#1", "r"]


def test_without_the_key_the_traces_are_empty_and_not_written(real_core, tmp_path):
    results = ndnflow.run(chain(), progress=False)
    assert results.faces.empty and list(results.faces.columns) == list(FACE_COLUMNS)
    results.save(tmp_path)
    assert not (tmp_path / "faces.parquet").exists() and not (tmp_path / "nodes.parquet").exists()


def test_csv_reads_back_to_the_same_frames(real_core, tmp_path):
    results = ndnflow.run(chain().trace(faces=True, nodes=True), progress=False)
    written = results.save(tmp_path, format="csv")
    names = sorted(path.name for path in written)
    assert names == ["consumers.csv", "faces.csv", "links.csv", "nodes.csv", "scenario.toml", "summary.json"]
    loaded = Results.load(tmp_path)
    for trace in ("links", "consumers", "faces", "nodes"):
        pd.testing.assert_frame_equal(getattr(loaded, trace), getattr(results, trace), check_exact=True)
    # Floats keep every bit, NaN (a bin without RTT samples) included: an empty field.
    assert loaded.consumers["rtt_ms"].isna().any()
    header = (tmp_path / "links.csv").read_text().splitlines()[0]
    assert header.split(",") == list(results.links.columns)


def test_csv_floats_round_trip_and_labels_stay_text(tmp_path):
    third, tiny = 1 / 3, 5e-324
    frame = {"time_s": [0.1, third], "link": ["NaN", ""], "src": ["a", "b"], "dst": ["b", "a"],
             "bytes": [1, 2], "throughput_bps": [tiny, float("nan")]}
    Results({"simulation": {}}, frame, None).save(tmp_path, format="csv")
    links = Results.load(tmp_path).links
    assert links["time_s"].tolist() == [0.1, third] and links["throughput_bps"][0] == tiny
    assert math.isnan(links["throughput_bps"][1])
    assert links["link"].tolist() == ["NaN", ""]  # a label is never read as a missing value


def test_both_formats_and_a_switch_leave_no_stale_file(real_core, tmp_path):
    results = ndnflow.run(chain().trace(nodes=True), progress=False)
    results.save(tmp_path, format="both")
    assert (tmp_path / "nodes.csv").is_file() and (tmp_path / "nodes.parquet").is_file()
    results.save(tmp_path)  # Parquet alone: the CSV files of the earlier save go
    assert not list(tmp_path.glob("*.csv"))
    with pytest.raises(ValueError, match="format 'xlsx'"):
        results.save(tmp_path, format="xlsx")


def test_run_format_csv_writes_csv_traces(real_core, tmp_path):
    scenario = tmp_path / "chain.toml"
    chain().trace(faces=True).save(scenario)
    out = tmp_path / "out"
    assert main(["run", str(scenario), "--out", str(out), "--format", "csv", "--no-plot", "--quiet"]) == 0
    assert sorted(p.name for p in out.glob("*.csv")) == ["consumers.csv", "faces.csv", "links.csv"]
    assert not list(out.glob("*.parquet"))
    assert Results.load(out).faces["in_interests"].sum() > 0
