"""The path trace of multipath consumers (`Results.paths`, `paths.parquet`): PTP §6 asks for each
consumer's paths "found, in use, failed, per-path rate and window over time"."""

from __future__ import annotations

import pandas as pd
import pytest

import ndnflow
from ndnflow import Results, Scenario


def ptp_diamond(duration="2s", bin=None):
    """c - r - {a, b} - p, every node a PTP router: PTP's consumer finds both paths."""
    sc = Scenario(duration=duration, seed=1, bin=bin)
    for node in ("c", "r", "a", "b", "p"):
        sc.node(node, ptp=True)
    for a, b in (("c", "r"), ("r", "a"), ("r", "b"), ("a", "p"), ("b", "p")):
        sc.link(a, b, bandwidth="10Mbps", delay="5ms")
    sc.producer("p", "/p")
    sc.consumer("c", "/p/obj", cc={"algorithm": "ptp"})
    return sc


def test_multipath_runs_save_their_path_trace(real_core, tmp_path):
    from ndnflow.results import PATH_COLUMNS

    results = ndnflow.run(ptp_diamond(), progress=False)
    paths = results.summary["consumers"]["c"]["paths"]
    assert len(paths) == 2
    # Per path, the rows' Data add up to the summary's count; dtypes are the schema's.
    assert results.paths.groupby("path")["data"].sum().tolist() == [p["data"] for p in paths]
    assert [str(results.paths[c].dtype) for c in PATH_COLUMNS] == list(PATH_COLUMNS.values())
    written = results.save(tmp_path)
    assert "paths.parquet" in [p.name for p in written]
    pd.testing.assert_frame_equal(Results.load(tmp_path).paths, results.paths)
    # A single-path run saved into the same folder leaves no stale path trace behind.
    line = Scenario(duration="1s", seed=1).node("c").node("p").link("c", "p", bandwidth="10Mbps", delay="5ms")
    single = ndnflow.run(line.producer("p", "/p").consumer("c", "/p/obj", window=4), progress=False)
    assert single.paths.empty
    single.save(tmp_path)
    assert not (tmp_path / "paths.parquet").exists()
    assert Results.load(tmp_path).paths.empty


def test_paths_figure_draws_each_paths_rate_over_whole_seconds(real_core, tmp_path):
    from ndnflow.plot import path_rates, plot_results

    # 4 s of the diamond in 100 ms bins: the rate panel sums each path's Data over spans of ten
    # bins and divides by the span, 1 s, so each span starts on a whole second and a path's rates
    # add up to its Data in the summary.
    results = ndnflow.run(ptp_diamond("4s", bin="100ms"), progress=False)
    assert "paths.png" in [p.name for p in plot_results(results, tmp_path / "a")]
    rates, span = path_rates(results)
    assert span == pytest.approx(1.0)
    assert sorted(set(rates["time_s"].round(9))) == [0.0, 1.0, 2.0, 3.0]
    summary = results.summary["consumers"]["c"]["paths"]
    per_path = rates.groupby("series")["data"].sum() * span
    # Each series is named by its path's nodes as summary.json reads them back: c - r - a or b - p.
    assert sorted("-".join(p["nodes"]) for p in summary) == ["p-a-r-c", "p-b-r-c"]
    names = {f"c path {k} ({'-'.join(p['nodes'])})": float(p["data"]) for k, p in enumerate(summary)}
    assert per_path.round(6).to_dict() == names
    # 3.5 s: the last span holds five bins, and its rate is their Data over 0.5 s.
    short = ndnflow.run(ptp_diamond("3.5s", bin="100ms"), progress=False)
    rates, _ = path_rates(short)
    last = rates[rates["time_s"].round(9) == 3.0].set_index("series")["data"]
    tail = short.paths[short.paths["time_s"] >= 3.0 - 1e-9].groupby("path")["data"].sum()
    label = {k: f"c path {k} ({'-'.join(p['nodes'])})" for k, p in enumerate(short.summary["consumers"]["c"]["paths"])}
    assert {name: round(v, 6) for name, v in last.items()} == {label[k]: d / 0.5 for k, d in tail.items()}
    line = Scenario(duration="1s", seed=1).node("c").node("p").link("c", "p", bandwidth="10Mbps", delay="5ms")
    single = ndnflow.run(line.producer("p", "/p").consumer("c", "/p/obj", window=4), progress=False)
    assert "paths.png" not in [p.name for p in plot_results(single, tmp_path / "b")]


def test_paths_figure_draws_a_window_only_while_its_path_is_in_use():
    from ndnflow.plot import path_windows

    # Path 0 in use for two bins, then idle with the window it had (12); path 1 idle, then in use.
    rows = [(0.0, "c", 0, 1, 10.0), (0.0, "c", 1, 0, 1.0), (1.0, "c", 0, 1, 12.0), (1.0, "c", 1, 0, 1.0),
            (2.0, "c", 0, 0, 12.0), (2.0, "c", 1, 1, 4.0), (3.0, "c", 0, 0, 12.0), (3.0, "c", 1, 1, 6.0)]
    paths = pd.DataFrame(rows, columns=["time_s", "consumer", "path", "in_use", "window"])
    paths["data"] = 5
    frame = path_windows(Results({"consumers": {}}, paths=paths))
    drawn = frame.pivot(index="time_s", columns="series", values="window")
    assert drawn["c path 0"].tolist()[:2] == [10.0, 12.0] and drawn["c path 0"].iloc[2:].isna().all()
    assert drawn["c path 1"].iloc[:2].isna().all() and drawn["c path 1"].tolist()[2:] == [4.0, 6.0]


def test_a_paths_label_has_its_nodes_unless_its_consumer_renumbers_them():
    from ndnflow.plot import path_label

    path = {"tags": [2, 1, 1, 0], "nodes": ["p", "a", "r", "c"]}
    assert path_label("c", 0, {"consumers": {"c": {"paths": [path]}}}) == "c path 0 (p-a-r-c)"
    # A catalog consumer may start each object afresh, its path 0 then another route each time.
    catalog = {"consumers": {"c": {"paths": [path], "catalog": {"objects": 3}}}}
    assert path_label("c", 0, catalog) == "c path 0"
    assert path_label("c", 5, {"consumers": {"c": {"paths": [path]}}}) == "c path 5"
