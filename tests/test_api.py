"""The Python API: Results files, tables, run() (fake and real core), plots and the bench scenario.

The Scenario builder and units are tested in test_scenario_builder.py."""

from __future__ import annotations

import json
import re

import numpy as np
import pandas as pd
import pytest

import ndnflow
from ndnflow import Results, Scenario, ScenarioError
from ndnflow.report import bit_rate, natural_key, render
from ndnflow.results import CONSUMER_COLUMNS, LINK_COLUMNS


# ---------------------------------------------------------------------------------- results


def fake_results(fake_core, duration="1s", **kwargs):
    return ndnflow.run(Scenario(duration=duration, bin="100ms", seed=5).link("a", "b", "1Mbps", "1ms"),
                       progress=False, **kwargs)


def test_results_frames_have_plain_dtypes(fake_core):
    results = fake_results(fake_core)
    assert list(results.links.columns) == list(LINK_COLUMNS)
    assert list(results.consumers.columns) == list(CONSUMER_COLUMNS)
    for frame, schema in ((results.links, LINK_COLUMNS), (results.consumers, CONSUMER_COLUMNS)):
        for column, dtype in schema.items():
            assert str(frame[column].dtype) == dtype, column
    assert len(results.links) == 20 and len(results.consumers) == 10
    assert np.isnan(results.consumers["rtt_ms"].iloc[0])


def test_results_save_load_round_trip(fake_core, tmp_path):
    results = fake_results(fake_core)
    written = results.save(tmp_path / "out")
    assert sorted(path.name for path in written) == ["consumers.parquet", "links.parquet", "scenario.toml",
                                                       "summary.json"]
    loaded = Results.load(tmp_path / "out")
    assert loaded.summary == results.summary
    pd.testing.assert_frame_equal(loaded.links, results.links)
    pd.testing.assert_frame_equal(loaded.consumers, results.consumers)
    assert loaded.scenario_toml == results.scenario_toml
    assert loaded.interrupted is False


def test_saved_files_are_byte_deterministic(fake_core, tmp_path):
    first = fake_results(fake_core)
    second = fake_results(fake_core)
    first.save(tmp_path / "one")
    second.save(tmp_path / "two")
    first.save(tmp_path / "three")
    for name in ("summary.json", "links.parquet", "consumers.parquet"):
        one = (tmp_path / "one" / name).read_bytes()
        assert one == (tmp_path / "two" / name).read_bytes() == (tmp_path / "three" / name).read_bytes(), name
    # ...and a loaded copy saves to the same bytes again.
    Results.load(tmp_path / "one").save(tmp_path / "four")
    for name in ("summary.json", "links.parquet", "consumers.parquet"):
        assert (tmp_path / "one" / name).read_bytes() == (tmp_path / "four" / name).read_bytes(), name


def test_summary_json_is_sorted_indented_and_strict(tmp_path):
    summary = {"simulation": {"seed": 1, "end_s": 1.0, "duration_s": 1.0}, "consumers": {
        "c": {"rtt_avg_ms": float("nan"), "goodput_bps": np.float64(2.0), "data_received": np.int64(3)}}}
    Results(summary).save(tmp_path)
    text = (tmp_path / "summary.json").read_text()
    assert text.endswith("}\n")
    assert text == json.dumps(json.loads(text), sort_keys=True, indent=2) + "\n"
    assert json.loads(text)["consumers"]["c"] == {"rtt_avg_ms": None, "goodput_bps": 2.0, "data_received": 3}
    assert "NaN" not in text


def test_empty_results_have_schema_columns(tmp_path):
    results = Results({"simulation": {}})
    assert list(results.links.columns) == list(LINK_COLUMNS) and results.links.empty
    results.save(tmp_path)
    loaded = Results.load(tmp_path)
    assert list(loaded.consumers.columns) == list(CONSUMER_COLUMNS)
    assert str(loaded.consumers["consumer"].dtype) == "str"


def test_load_missing_folder_or_files(tmp_path):
    with pytest.raises(FileNotFoundError, match="no results folder"):
        Results.load(tmp_path / "nope")
    (tmp_path / "summary.json").write_text("{}\n")
    with pytest.raises(FileNotFoundError, match=r"missing links\.parquet \(or \.csv\), consumers\.parquet \(or \.csv\)"):
        Results.load(tmp_path)


# ------------------------------------------------------------------------------------- runs


def test_run_steps_to_the_end(fake_core):
    results = fake_results(fake_core, duration="2s")
    simulation = fake_core.instances[-1]
    assert simulation.now_ns == 2_000_000_000
    assert simulation.calls == 200
    assert results.interrupted is False
    assert results.summary["simulation"]["end_s"] == 2.0
    assert "interrupted" not in results.summary["simulation"]


def test_run_keeps_results_when_interrupted(fake_core, tmp_path):
    fake_core.interrupt_on_call = 101  # half way
    results = fake_results(fake_core, duration="2s")
    assert results.interrupted is True
    assert results.summary["simulation"]["end_s"] == 1.0
    assert results.links["time_s"].max() == pytest.approx(0.9)
    results.save(tmp_path)
    assert Results.load(tmp_path).interrupted is True


def test_run_from_path_uses_original_text(fake_core, tmp_path):
    path = tmp_path / "s.toml"
    path.write_text('[simulation]\nduration = "300ms"\nseed = 4\n')
    results = ndnflow.run(path, progress=False)
    simulation = fake_core.instances[-1]
    assert (simulation.source, simulation.base_dir) == (str(path), str(tmp_path))
    assert results.summary["simulation"]["seed"] == 4
    assert results.scenario_toml == path.read_text()


def test_modified_file_scenario_is_checked_as_written_first(fake_core, tmp_path):
    path = tmp_path / "s.toml"
    path.write_text('[simulation]\nseed = 4\n')  # no duration: the fake reports it
    with pytest.raises(ScenarioError, match="^" + re.escape(f"{path}:1:1: simulation.duration")):
        ndnflow.load_scenario(path).with_seed(5).validate()
    # With a duration added the changed scenario is valid, and it is built once (issue 22 item
    # 3): the file as written is read again only to place a mistake of the changed scenario.
    fake_core.instances = []
    ndnflow.load_scenario(path).with_duration("1s").validate()
    assert [sim.duration_ns for sim in fake_core.instances] == [1_000_000_000]


def test_run_rejects_other_types():
    with pytest.raises(TypeError, match="Scenario or the path"):
        ndnflow.run(42)


def test_validate_without_simulation_says_how_to_build(monkeypatch):
    from ndnflow import _native

    monkeypatch.setattr(_native, "core", None)
    with pytest.raises(_native.CoreUnavailableError, match="maturin develop"):
        Scenario(duration="1s").validate()


# ----------------------------------------------------------------------------------- tables


def test_render_aligns_columns():
    assert render(["name", "value"], [["a", "1"], ["long name", "12.50"]]) == (
        "name       value\n"
        "---------  -----\n"
        "a              1\n"
        "long name  12.50"
    )


def test_bit_rate_scales_like_ndnget():
    assert [bit_rate(x) for x in (999, 812_400, 9_876_543, 2.5e9, None, float("nan"))] == [
        "999 bit/s", "812.4 kbit/s", "9.877 Mbit/s", "2.5 Gbit/s", "-", "-"]


def test_natural_key_orders_numbers():
    assert sorted(["node#10", "node#2", "node#1"], key=natural_key) == ["node#1", "node#2", "node#10"]


SUMMARY = {
    "simulation": {"duration_s": 10.0, "seed": 3, "end_s": 8.0, "events": 123456, "packet_hops": 7890},
    "consumers": {
        "node#10": {"node": "node", "name": "/p/b", "goodput_bps": 1.5e6, "interests_sent": 200, "data_received": 190,
                    "timeouts": 10, "nacks": 0, "retransmissions": 10, "marks": 4, "rtt_min_ms": 20.0,
                    "rtt_avg_ms": 31.256, "rtt_max_ms": 80.5, "start_s": 0.0, "end_s": 8.0, "finished": True,
                    "payload_bytes": 194560, "rtt_p50_ms": 25.0, "rtt_p95_ms": 60.125, "rtt_p99_ms": 79.0},
        "node#2": {"node": "node", "name": "/p/a", "goodput_bps": 9876543.0, "interests_sent": 1000,
                   "data_received": 1000, "timeouts": 0, "nacks": 2, "retransmissions": 0, "marks": 0,
                   "rtt_min_ms": None, "rtt_avg_ms": None, "rtt_max_ms": None, "start_s": 1.0, "end_s": 8.0,
                   "finished": False, "segments": 1000},
    },
    "links": {"a->b": {"bytes": 10_000_000, "packets": 9000, "drops": 3, "marks": 4},
              "b->a": {"bytes": 0, "packets": 0, "drops": 0, "marks": 0}},
}


def test_table_lists_consumers_and_busy_links():
    table = Results(SUMMARY).table()
    assert table == (
        "Run: simulated 8.000 s of 10.000 s, seed 3, 123,456 events, 7,890 packet-hops\n"
        "\n"
        "Consumers\n"
        "consumer  goodput Mbit/s  data  interests  retx  timeouts  nacks  RTT avg ms  RTT p50/p95/p99 ms\n"
        "--------  --------------  ----  ---------  ----  --------  -----  ----------  ------------------\n"
        "node#2             9.877  1000       1000     0         0      2           -               -/-/-\n"
        "node#10            1.500   190        200    10        10      0       31.26   25.00/60.12/79.00\n"
        "\n"
        "Links (directions with traffic)\n"
        "link  throughput Mbit/s  packets  drops  marks\n"
        "----  -----------------  -------  -----  -----\n"
        "a->b             10.000     9000      3      4\n"
    )


def test_table_lists_the_paths_in_use_of_multipath_consumers():
    # node#10 as a multipath consumer: two paths in use (the first with a SMIC set of 2, the
    # second as a MIRCC secondary sub-flow), one idle and one failed, which the line under the
    # table counts. The first has a PTP bandwidth measure (bits per second, shown in Mbit/s).
    paths = [
        {"tags": [2, 1, 0], "state": "in-use", "window": 12.25, "srtt_ms": 41.5, "data": 120, "timeouts": 1,
         "sharing": 2, "bandwidth_bps": 953_694.9},
        {"tags": [3], "state": "idle", "window": 1.0, "srtt_ms": None, "data": 0, "timeouts": 0},
        {"tags": [1, 1, 0], "state": "secondary", "window": 8.0, "srtt_ms": None, "data": 70, "timeouts": 0},
        {"tags": [4, 0], "state": "failed", "window": 1.0, "srtt_ms": 50.0, "data": 3, "timeouts": 2},
    ]
    summary = {**SUMMARY, "consumers": {**SUMMARY["consumers"],
                                        "node#10": {**SUMMARY["consumers"]["node#10"], "paths": paths}}}
    table = Results(summary).table()
    assert table.endswith(
        "Paths in use at the end (multipath consumers)\n"
        "consumer  path  state      route  data  window  SRTT ms  timeouts  sharing  bandwidth Mbit/s\n"
        "--------  ----  ---------  -----  ----  ------  -------  --------  -------  ----------------\n"
        "node#10      0  in-use     2 1 0   120    12.2    41.50         1        2             0.954\n"
        "node#10      2  secondary  1 1 0    70     8.0        -         0        -                 -\n"
        "(node#10: 2 more known, not in use: 1 failed, 1 idle)\n"
    )
    assert "Paths" not in Results(SUMMARY).table()
    # Without a PTP bandwidth measure on any path (MPTCP, SMIC, ...), no such column.
    unmeasured = [{k: v for k, v in p.items() if k != "bandwidth_bps"} for p in paths]
    summary["consumers"]["node#10"]["paths"] = unmeasured
    header = Results(summary).table().split("Paths in use at the end (multipath consumers)\n")[1].splitlines()[0]
    assert header.split() == ["consumer", "path", "state", "route", "data", "window", "SRTT", "ms", "timeouts",
                              "sharing"]


def test_consumer_report_is_ndnget_like():
    report = Results(SUMMARY).consumer_report("node#10")
    assert report == (
        "Consumer node#10: /p/b on node node\n"
        "  active:            0.000 s to 8.000 s, finished\n"
        "  segments received: 190\n"
        "  transferred:       194.560 kB\n"
        "  goodput:           1.5 Mbit/s\n"
        "  congestion marks:  4\n"
        "  timeouts:          10\n"
        "  nacks:             0\n"
        "  retransmissions:   10 (5.0% of Interests)\n"
        "  RTT min/avg/max:   20.000/31.256/80.500 ms\n"
        "  RTT p50/p95/p99:   25.000/60.125/79.000 ms\n"
    )
    everything = Results(SUMMARY).consumer_report()
    assert everything.index("Consumer node#2") < everything.index("Consumer node#10")
    assert "RTT min/avg/max:   -/-/- ms" in everything
    with pytest.raises(KeyError, match="no consumer 'x'"):
        Results(SUMMARY).consumer_report("x")


def test_table_of_interrupted_run_says_so():
    summary = {**SUMMARY, "simulation": {**SUMMARY["simulation"], "interrupted": True}}
    assert Results(summary).table().splitlines()[0].endswith("(interrupted)")


def test_table_top_takes_at_least_one_link():
    assert Results(SUMMARY).table(top=1)
    for top in (0, -1, 1.5):
        with pytest.raises(ValueError, match="top: give at least 1 link"):
            Results(SUMMARY).table(top=top)


# ------------------------------------------------------------------------------------ plots


def test_plot_results_writes_readable_pngs(fake_core, tmp_path):
    from ndnflow.plot import _active_links

    results = fake_results(fake_core)
    assert _active_links(results) == ["a->b"]  # b->a never carried traffic
    paths = ndnflow.plot_results(results, tmp_path / "fig")
    assert [path.name for path in paths] == ["throughput.png", "window.png", "queue.png", "overview.png"]
    for path in paths:
        assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    with pytest.raises(ValueError, match="unknown figure"):
        ndnflow.plot_results(results, tmp_path, names=["nope.png"])
    # One name as a string is that figure, not its letters ("unknown figure(s) o, v, e, ...").
    assert [path.name for path in ndnflow.plot_results(results, tmp_path / "one", names="queue.png")] == ["queue.png"]
    with pytest.raises(ValueError, match=r"unknown figure\(s\) overview; known"):
        ndnflow.plot_results(results, tmp_path, names="overview")


def test_plot_results_of_empty_results(tmp_path):
    paths = ndnflow.plot_results(Results({"simulation": {}}), tmp_path)
    assert all(path.stat().st_size > 0 for path in paths)


# ------------------------------------------------------------------------------------ bench


def test_bench_scenario_is_deterministic_and_connected():
    from ndnflow.bench import bench_scenario, grid_edges
    import random

    one = bench_scenario(100, 200, "60s", seed=1)
    assert one == bench_scenario(100, 200, "60s", seed=1)
    assert one != bench_scenario(100, 200, "60s", seed=2)
    doc = one.to_dict()
    assert len(doc["nodes"]) == 100 and len(doc["consumers"]) == 200
    assert len({p["node"] for p in doc["producers"]}) == 10
    assert len(doc["links"]) == 180 + 5  # 10x10 grid + 100/20 diagonals
    assert all(8 <= c["cc"]["window"] <= 32 for c in doc["consumers"])
    prefixes = {p["prefix"] for p in doc["producers"]}
    assert all("/" + c["name"].split("/")[1] in prefixes for c in doc["consumers"])
    for nodes in (2, 7, 23, 100):
        edges = grid_edges(nodes, random.Random(0))
        reached, frontier = {0}, [0]
        while frontier:
            here = frontier.pop()
            for a, b in edges:
                for x, y in ((a, b), (b, a)):
                    if x == here and y not in reached:
                        reached.add(y)
                        frontier.append(y)
        assert reached == set(range(nodes)), nodes


def test_run_bench_with_fake_core(fake_core):
    from ndnflow.bench import bench_table, run_bench

    result = run_bench(nodes=9, consumers=3, duration="1s", seed=1)
    assert result["packet_hops"] == 400 and result["events"] == 1000
    assert result["simulated_s"] == 1.0 and result["peak_memory_mib"] > 0
    assert "packet-hops per wall second" in bench_table(result)


def test_bench_repeats_stop_at_ctrl_c_and_keep_what_was_measured(fake_core, monkeypatch):
    from ndnflow.bench import run_bench

    monkeypatch.setattr(fake_core, "interrupt_on_call", 2)
    result = run_bench(nodes=9, consumers=3, duration="1s", seed=1, repeat=3)
    assert len(result["runs_packet_hops_per_s"]) == 1 and len(fake_core.instances) == 1
    assert 0 < result["simulated_s"] < 1.0


# ------------------------------------------------------------------------------ real core


def test_real_summary_is_the_results_summary_without_the_series(quickstart):
    simulation = ndnflow.load_scenario(quickstart).with_duration("3s").build_simulation()
    simulation.run_until(2_000_000_000)
    summary = simulation.summary()
    assert summary == simulation.results()["summary"]
    assert summary["simulation"]["end_s"] == 2.0 and summary["simulation"]["packet_hops"] > 0


def test_trace_columns_are_the_cores_schema(quickstart):
    # The column lists are read from Rust's schema, not written again in Python...
    schema = ndnflow._native.core.trace_schema()
    assert LINK_COLUMNS == {c["name"]: c["dtype"] for c in schema["links"]}
    assert CONSUMER_COLUMNS == {c["name"]: c["dtype"] for c in schema["consumers"]}
    assert list(LINK_COLUMNS)[:4] == ["time_s", "link", "src", "dst"] and LINK_COLUMNS["bytes"] == "int64"
    assert all(c["meaning"] for c in schema["links"] + schema["consumers"])
    # ...and the core's raw columns come in the schema's order with its types: numpy arrays for
    # numbers, lists of str for labels.
    simulation = Scenario.from_file(quickstart).with_duration("300ms").build_simulation()
    simulation.run_until(simulation.duration_ns)
    raw = simulation.results()
    for trace, columns in (("links", LINK_COLUMNS), ("consumers", CONSUMER_COLUMNS)):
        assert list(raw[trace]) == list(columns)
        for name, dtype in columns.items():
            values = raw[trace][name]
            if dtype == "str":
                assert isinstance(values, list) and all(isinstance(v, str) for v in values), name
            else:
                assert str(values.dtype) == dtype, name
    # quickstart has 3 links, 6 directions; 300 ms in 100 ms bins: 3 rows each.
    assert len(raw["links"]["time_s"]) == 18 and raw["links"]["link"][:2] == ["c1->r", "r->c1"]


def test_real_quickstart_run(quickstart, tmp_path):
    results = ndnflow.run(quickstart, progress=False)
    summary = results.summary
    assert set(summary) >= {"simulation", "consumers", "links", "nodes"}
    assert set(summary["simulation"]) >= {"duration_s", "seed", "end_s", "events", "packet_hops"}
    assert summary["consumers"], "quickstart has consumers"
    # The contract also lists "segments"; the core reports "payload_bytes" (bytes received) instead.
    consumer_keys = {"node", "name", "goodput_bps", "interests_sent", "data_received", "timeouts", "nacks",
                     "retransmissions", "marks", "rtt_min_ms", "rtt_avg_ms", "rtt_max_ms", "start_s", "end_s",
                     "finished"}
    for consumer in summary["consumers"].values():
        assert set(consumer) >= consumer_keys
    link_keys = {"bytes", "packets", "drops", "marks", "losses", "interests", "data", "nacks"}
    for link in summary["links"].values():
        assert set(link) >= link_keys
    assert list(results.links.columns)[: len(LINK_COLUMNS)] == list(LINK_COLUMNS)
    assert list(results.consumers.columns)[: len(CONSUMER_COLUMNS)] == list(CONSUMER_COLUMNS)
    assert results.links["bytes"].sum() > 0
    results.save(tmp_path / "a")
    ndnflow.run(quickstart, progress=False).save(tmp_path / "b")
    for name in ("summary.json", "links.parquet", "consumers.parquet"):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes(), name


def test_real_builder_scenario_runs(real_core):
    scenario = (
        Scenario(duration="2s", seed=1, bin="100ms")
        .nodes("c", "r", "p")
        .link("c", "r", bandwidth=10e6, delay=0.005, queue=50)
        .link("r", "p", bandwidth="10Mbps", delay="5ms")
        .producer("p", "/p")
        .consumer("c", "/p/x", window=8)
    )
    scenario.validate()
    results = ndnflow.run(scenario, progress=False)
    consumer = results.summary["consumers"]["c"]
    assert consumer["data_received"] > 0
    assert 0 < consumer["goodput_bps"] <= 10e6
    assert results.summary["simulation"]["end_s"] == pytest.approx(2.0)


def test_real_validation_error_names_the_field(real_core):
    scenario = Scenario(duration="2s").nodes("c", "r").link("c", "r", bandwidth="fast", delay="5ms")
    with pytest.raises(ScenarioError, match="bandwidth"):
        scenario.validate()


def test_a_byte_limited_content_store_round_trips_and_runs(real_core):
    # As crates/ndnflow-sim/tests/engine.rs: c2 fetches at 10 s the 1000 segments c1 fetched.
    # r's store weighs a Data by its payload (SMIC §5), so 1000 x 1024 bytes hold all of them
    # (1000 hits) and 1023 bytes none of them (0 hits, every segment crosses r-p twice).
    def two_fetches(cs):
        scenario = (
            Scenario(duration="20s")
            .nodes("c1", "c2", "p")
            .node("r", cs=cs)
            .link("c1", "r", bandwidth="100Mbps", delay="5ms")
            .link("c2", "r", bandwidth="100Mbps", delay="5ms")
            .link("r", "p", bandwidth="10Mbps", delay="20ms")
            .producer("p", "/video", payload=1024)
            .consumer("c1", "/video/a", window=10, segments=1000)
            .consumer("c2", "/video/a", window=10, segments=1000, start="10s")
        )
        assert Scenario.from_toml(scenario.to_toml()) == scenario
        return ndnflow.run(scenario, progress=False).summary

    full = two_fetches({"policy": "lru", "bytes": 1_024_000})
    assert (full["nodes"]["r"]["cs_hits"], full["links"]["p->r"]["data"]) == (1000, 1000)
    tiny = two_fetches({"bytes": "1023B"})
    assert (tiny["nodes"]["r"]["cs_hits"], tiny["links"]["p->r"]["data"]) == (0, 2000)
    garbage = Scenario(duration="1s").nodes("c").node("r", cs={"bytes": "lots"})
    with pytest.raises(ScenarioError, match=r"nodes\.r\.cs\.bytes: invalid size \"lots\""):
        garbage.link("c", "r", bandwidth="1Mbps", delay="1ms").validate()


def test_nfd_marking_round_trips_and_runs():
    # The hand-derived run of crates/ndnflow-sim/tests/nfd_marking.rs: 1000 Interests/s overload a
    # 4 Mbit/s Data direction; NFD's marker (threshold 65 536 B) marks from 121 ms on its
    # 100 ms / sqrt(n) schedule, 7 marks by 0.5 s (offsets 0, 100, 171, 229, 279, 324, 364 ms).
    scenario = (
        Scenario(duration="0.5s", bin="1ms")
        .nodes("c", "p")
        .link("c", "p", bandwidth="100Mbps", delay="1ms", queue={"discipline": "droptail", "bytes": "10MB"},
              marking={"scheme": "nfd", "interval": 0.1}, reverse={"bandwidth": "4Mbps", "marking": "nfd"})
        .producer("p", "/p", payload=1000)
        .consumer("c", "/p", rate=1000)
    )
    link = scenario.to_dict()["links"][0]
    assert link["marking"] == {"scheme": "nfd", "interval": "0.1s"}
    assert link["reverse"]["marking"] == "nfd"
    again = Scenario.from_toml(scenario.to_toml())
    assert again == scenario
    summary = ndnflow.run(again, progress=False).summary
    assert summary["links"]["p->c"]["marks"] == 7
    assert summary["links"]["c->p"]["marks"] == 0
    off = Scenario.from_dict(scenario.to_dict())
    off._doc["links"][0]["reverse"]["marking"] = "none"
    assert ndnflow.run(off, progress=False).summary["links"]["p->c"]["marks"] == 0
    bad = scenario.copy().link("c", "x", bandwidth="1Mbps", delay="1ms", marking="codel")
    with pytest.raises(ScenarioError, match=r'links\[1\]\.marking: unknown value "codel"'):
        bad.nodes("x").validate()


def test_import_leaves_matplotlib_until_a_figure_is_drawn():
    import subprocess
    import sys

    code = ("import sys, ndnflow; before = 'matplotlib' in sys.modules; f = ndnflow.plot_results; "
            "print(before, 'matplotlib' in sys.modules, f.__name__)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    # Reaching the function does not load matplotlib either: drawing does (plot.py imports it then).
    assert out.split() == ["False", "False", "plot_results"]
    with pytest.raises(AttributeError, match="no attribute 'plot_result'"):
        ndnflow.plot_result  # noqa: B018 - a misspelt name still fails


def test_a_mircc_link_reports_its_rates_in_the_summary():
    # 100 Interests/s of 1024-byte Data (about 0.86 Mbit/s) on a 10 Mbit/s mircc link: far below
    # its target 0.95 x 10 Mbit/s, where both rates start and stay (docs/protocols/mircc.md); one
    # update per 10 ms interval closed by a packet, the last Data leaving p at about 0.99 s.
    s = (
        Scenario(duration="1s", seed=1)
        .nodes("p", "c")
        .node("r", mircc=True)
        .link("p", "r", bandwidth="10Mbps", delay="1ms", queue={"discipline": "mircc"})
        .link("r", "c", bandwidth="100Mbps", delay="1ms")
        .producer("p", "/p")
        .consumer("c", "/p/x", rate=100.0)
    )
    links = ndnflow.run(s, progress=False).summary["links"]
    m = links["p->r"]["mircc"]
    assert (m["rate_bps"], m["rate2_bps"]) == (9_500_000, 9_500_000)
    assert m["stamped"] == links["p->r"]["data"] > 90
    assert 95 <= m["updates"] <= 100
    # The queue is the link's, so the Interests' direction has one too: it never stamps.
    assert links["r->p"]["mircc"]["stamped"] == 0 < links["r->p"]["interests"]
    assert "mircc" not in links["r->c"]
