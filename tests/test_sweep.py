"""`ndnflow.sweep` and `ndnflow sweep`: a grid of parameter values and seeds over one scenario.

The numbers come from a line the test can work out by hand: one fixed-window consumer, 1000-byte
Data, two 100 Mbit/s links of 5 ms. The link is never full, so the goodput is the window over the
RTT: w x 8000 bit / (20 ms + the few tens of microseconds of transmission), i.e. 0.4 Mbit/s per
Interest of window at 5 ms per link, and half that at 10 ms.
"""

from __future__ import annotations

import json
import re

import pytest

import ndnflow
from ndnflow import sweeps
from ndnflow.cli import main
from ndnflow.sweep_grid import GridError, check_grid, parse_assignment, parse_key, points, set_field, split_values
from ndnflow.sweeps import SweepError

LINE = """
[simulation]
duration = "4s"
seed = 1

[nodes]
c = {}
r = {}
p = {}

[[links]]
between = ["c", "r"]
bandwidth = "100Mbps"
delay = "5ms"

[[links]]
between = ["r", "p"]
bandwidth = "100Mbps"
delay = "5ms"

[[producers]]
node = "p"
prefix = "/x"
payload = 1000

[[consumers]]
node = "c"
name = "/x/obj"
cc = { algorithm = "fixed-window", window = 1 }
"""


@pytest.fixture
def line_file(tmp_path):
    path = tmp_path / "line.toml"
    path.write_text(LINE)
    return path


def lossy(seed_loss: float = 0.02) -> ndnflow.Scenario:
    """The line with random loss on r -> c and an AIMD consumer: its goodput depends on the seed."""
    scenario = ndnflow.Scenario.from_toml(LINE)
    doc = scenario.to_dict()
    doc["links"][0]["loss"] = {"model": "bernoulli", "p": seed_loss}
    doc["consumers"][0]["cc"] = {"algorithm": "aimd"}
    return ndnflow.Scenario.from_dict(doc)


# ------------------------------------------------------------------------------------ grid keys


def test_keys_are_read_as_steps_into_the_document():
    assert parse_key("simulation.duration") == ["simulation", "duration"]
    assert parse_key("links[2].queue.packets") == ["links", 2, "queue", "packets"]
    assert parse_key("links[r-1, p].delay") == ["links", ("r-1", "p"), "delay"]
    assert parse_key("nodes.r.cs.capacity") == ["nodes", "r", "cs", "capacity"]
    for bad in ("", ".x", "links[", "links[r,p", "links[1]x", "a..b"):
        with pytest.raises(GridError):
            parse_key(bad)


def test_values_are_toml_or_words_and_commas_inside_tables_do_not_split():
    key, values = parse_assignment('links[0].queue={ discipline = "codel", packets = 100 },50,"a,b",15ms,0.5,true')
    assert key == "links[0].queue"
    assert values == [{"discipline": "codel", "packets": 100}, 50, "a,b", "15ms", 0.5, True]
    assert split_values("[1, 2],3") == ["[1, 2]", "3"]
    with pytest.raises(GridError, match="empty value"):
        parse_assignment("links[0].delay=1ms,,2ms")


def test_set_field_finds_links_by_their_ends_and_adds_missing_tables():
    doc = ndnflow.Scenario.from_toml(LINE).to_dict()
    set_field(doc, "links[p,r].delay", "7ms")
    set_field(doc, "links[0].queue.packets", 30)
    set_field(doc, "nodes.r.cs.capacity", 100)
    assert doc["links"][1]["delay"] == "7ms" and doc["links"][0]["delay"] == "5ms"
    assert doc["links"][0]["queue"] == {"packets": 30}
    assert doc["nodes"]["r"] == {"cs": {"capacity": 100}}


@pytest.mark.parametrize(
    "key, message",
    [
        ("links[5].delay", "links has 2 entries, so \\[5\\] is out of range"),
        ("links[c,p].delay", "no entry between 'c' and 'p'"),
        ("links.delay", "links is a list; pick an entry"),
        ("nodes[0].cs", "nodes is a table, not a list"),
        ("routes[0].cost", "the scenario has no routes"),
        ("simulation.duration.x", "simulation.duration is a value"),
        # A mistyped node would add a node of its own, linked to nothing.
        ("nodes.rr.cs.capacity", "the scenario has no node 'rr'"),
        ("nodes.rr", "the scenario has no node 'rr'"),
        # A section of the file takes fields, not a value.
        ("simulation", "simulation is a table; set one of its fields, not 1"),
        ("links", "links is a list; set one of its fields, not 1"),
    ],
)
def test_keys_that_name_nothing_are_refused_with_the_reason(key, message):
    doc = ndnflow.Scenario.from_toml(LINE).to_dict()
    with pytest.raises(GridError, match=message):
        set_field(doc, key, 1)


def test_a_node_of_a_topology_file_may_be_set_by_name():
    # Its nodes are not in the document's [nodes]: the key adds the table, which the reader merges
    # with the file's node of that name (a name the file lacks, the reader adds as a node alone:
    # with a [topology] file, --set cannot tell a mistyped name).
    doc = {"simulation": {"duration": "1s"}, "topology": {"ndnsim": "topo.txt"}, "nodes": {}}
    set_field(doc, "nodes.r2.cs.capacity", 10)
    assert doc["nodes"] == {"r2": {"cs": {"capacity": 10}}}


def test_a_field_named_twice_or_the_seed_or_no_values_is_refused():
    with pytest.raises(GridError, match=r"both set links\[0\]\.delay"):
        check_grid({"links[0].delay": ["1ms"], "links[ 0 ].delay": ["2ms"]})
    with pytest.raises(GridError, match=r"both set links\[1\]\.delay"):
        check_grid({"links[0].delay+links[1].delay": ["1ms"], "links[1].delay": ["2ms"]})
    with pytest.raises(GridError, match="seeds"):
        check_grid({"simulation.seed": [1, 2]})
    with pytest.raises(GridError, match="no values"):
        check_grid({"links[0].delay": []})
    with pytest.raises(GridError, match="list of values"):
        check_grid({"links[0].delay": "5ms"})


def test_fields_joined_by_plus_take_the_same_value():
    doc = ndnflow.Scenario.from_toml(LINE).to_dict()
    set_field(doc, "links[c,r].delay + links[r,p].delay", "9ms")
    assert [link["delay"] for link in doc["links"]] == ["9ms", "9ms"]
    with pytest.raises(GridError, match="links has 2 entries"):
        set_field(doc, "links[0].delay+links[7].delay", "1ms")


def test_points_are_every_combination_with_the_last_key_fastest():
    grid = {"a": [1, 2], "b": ["x", "y", "z"]}
    assert points(grid) == [{"a": a, "b": b} for a in (1, 2) for b in ("x", "y", "z")]


# ------------------------------------------------------------------------------------ sweeping


def test_both_links_slower_together_halve_the_rate(line_file):
    result = ndnflow.sweep(line_file, {"links[c,r].delay+links[r,p].delay": ["5ms", "10ms"]}, progress=False)
    fast, slow = result.table["consumers.c.goodput_bps"]
    assert fast == pytest.approx(8000 / 0.020, rel=0.02)  # window 1 over a 20 ms RTT
    assert slow == pytest.approx(8000 / 0.040, rel=0.02)  # and over 40 ms


def test_each_point_gets_its_own_values(line_file):
    result = ndnflow.sweep(line_file, {"links[c,r].delay": ["5ms", "10ms"], "consumers[0].cc.window": [1, 2, 4]},
                           progress=False)
    table = result.table
    assert list(table.columns[:4]) == ["point", "links[c,r].delay", "consumers[0].cc.window", "seed"]
    assert list(table["point"]) == [0, 1, 2, 3, 4, 5]
    assert list(table["consumers[0].cc.window"]) == [1, 2, 4, 1, 2, 4]
    for _, row in table.iterrows():
        one_way_s = 0.005 + (0.005 if row["links[c,r].delay"] == "5ms" else 0.010)
        expected_bps = row["consumers[0].cc.window"] * 8000 / (2 * one_way_s)
        assert row["consumers.c.goodput_bps"] == pytest.approx(expected_bps, rel=0.02)


def test_a_run_of_the_sweep_is_the_run_of_its_scenario():
    scenario = lossy()
    result = ndnflow.sweep(scenario, {"consumers[0].cc.algorithm": ["aimd", "bic"]}, seeds=[1, 2], progress=False)
    assert len(result.table) == 4 and list(result.table["seed"]) == [1, 2, 1, 2]
    for (_, row), run in zip(result.table.iterrows(), result.runs):
        alone = ndnflow.run(run.scenario, progress=False).summary
        assert row["simulation.seed"] == run.seed
        assert row["consumers.c.goodput_bps"] == alone["consumers"]["c"]["goodput_bps"]
        assert row["links.r->c.losses"] == alone["links"]["r->c"]["losses"]
    rates = result.table["consumers.c.goodput_bps"]
    assert rates[0] != rates[1], "the seed must matter here, or this test checks nothing"


def test_the_mean_over_seeds_is_the_mean_and_sample_deviation_of_the_rows():
    result = ndnflow.sweep(lossy(), {"links[c,r].bandwidth": ["100Mbps"]}, seeds=[1, 2, 3], progress=False)
    rates = list(result.table["consumers.c.goodput_bps"])
    mean = sum(rates) / 3
    sample_sd = (sum((rate - mean) ** 2 for rate in rates) / 2) ** 0.5
    row = result.mean().iloc[0]
    assert row["runs"] == 3
    assert row["consumers.c.goodput_bps"] == pytest.approx(mean)
    assert row["consumers.c.goodput_bps.std"] == pytest.approx(sample_sd)
    assert f"{mean / 1e6:.4g} ± {sample_sd / 1e6:.2g}" in result.text()


def test_results_and_files_do_not_depend_on_jobs(tmp_path):
    grid = {"consumers[0].cc.beta": [0.5, 0.8], "links[r,p].delay": ["5ms", "15ms"]}
    one = ndnflow.sweep(lossy(), grid, seeds=[1, 2], jobs=1, progress=False)
    two = ndnflow.sweep(lossy(), grid, seeds=[1, 2], jobs=2, progress=False)
    assert one.table.equals(two.table)
    one.save(tmp_path / "one")
    two.save(tmp_path / "two")
    for name in ("sweep.csv", "sweep.parquet", "sweep.json", "scenarios/point-003-seed-2.toml"):
        assert (tmp_path / "one" / name).read_bytes() == (tmp_path / "two" / name).read_bytes(), name
    meta = json.loads((tmp_path / "one" / "sweep.json").read_text())
    assert meta["grid"] == [{"key": key, "values": values} for key, values in grid.items()]
    assert (meta["runs"], meta["completed"], meta["interrupted"]) == (8, 8, False)


def test_a_saved_scenario_reruns_to_the_same_numbers(tmp_path, line_file):
    result = ndnflow.sweep(line_file, {"consumers[0].cc.window": [3]}, progress=False)
    result.save(tmp_path)
    again = ndnflow.run(tmp_path / "scenarios" / "point-000-seed-1.toml", progress=False).summary
    assert again["consumers"]["c"]["goodput_bps"] == result.table["consumers.c.goodput_bps"][0]


def test_a_bad_point_is_named_before_anything_runs(line_file, monkeypatch):
    started = []
    monkeypatch.setattr(sweeps, "_run_local", lambda run, slot: started.append(run))
    with pytest.raises(SweepError, match=r"point 1 \(links\[c,r\]\.delay=soon, seed 1\): links\[0\]\.delay: invalid duration"):
        ndnflow.sweep(line_file, {"links[c,r].delay": ["5ms", "soon"]}, progress=False)
    assert started == []


@pytest.mark.parametrize("grid, message", [
    # One field spelt two ways: the later key's value ran while the table showed both.
    ({"links[0].delay": ["1ms"], "links[c,r].delay": ["9ms"]},
     "keys 'links[0].delay' and 'links[c,r].delay' both set links[c,r].delay"),
    ({"links[-1].delay": ["1ms"], "links[1].delay": ["9ms"]}, "both set links[1].delay"),
    ({"consumers[0].cc": [{"algorithm": "aimd"}], "consumers[0].cc.window": [2]},
     "overlap: consumers[0].cc holds consumers[0].cc.window"),
    # 1,000 x 1,000 x 1,000 points were listed before anything printed, 13.7 GB and counting.
    ({"links[0].delay": [f"{i}ms" for i in range(1, 1001)], "links[1].delay": [f"{i}ms" for i in range(1, 1001)],
      "consumers[0].cc.window": list(range(1, 1001))},
     "the sweep asks for 1000000000 runs (1000 x 1000 x 1000 values x 1 seeds), more than the 100000"),
])
def test_a_grid_that_cannot_run_as_asked_is_refused_before_anything_runs(line_file, monkeypatch, grid, message):
    # Each was taken until 2026-11-28.
    started = []
    monkeypatch.setattr(sweeps, "_run_local", lambda run, slot: started.append(run))
    with pytest.raises(SweepError, match=re.escape(message)):
        ndnflow.sweep(line_file, grid, progress=False)
    assert started == []


@pytest.mark.parametrize("kwargs, error, message", [
    # seeds=[1.5] and [True] ran seed 1, "12" ran seeds 1 and 2, [1, 1] ran twice, until 2026-11-28.
    ({"seeds": [1.5]}, SweepError, "seeds: 1.5 is not an integer from 0 to 18446744073709551615"),
    ({"seeds": [True]}, SweepError, "seeds: True is not an integer"),
    ({"seeds": "12"}, SweepError, "seeds: expected a list of integers, such as [1, 2, 3], got '12'"),
    ({"seeds": [1, 1]}, SweepError, "seeds: 1 given more than once"),
    ({"jobs": 1.5}, ValueError, "jobs must be a whole number of at least 1, not 1.5"),
    ({"jobs": "2"}, ValueError, "jobs must be a whole number of at least 1, not '2'"),
])
def test_the_api_takes_seeds_and_jobs_as_the_command_line_does(line_file, kwargs, error, message):
    with pytest.raises(error, match=re.escape(message)):
        ndnflow.sweep(line_file, {"consumers[0].cc.window": [1]}, progress=False, **kwargs)


def test_numpy_integers_are_seeds(line_file, monkeypatch):
    import numpy as np

    monkeypatch.setattr(sweeps, "_run_local", lambda run, slot: None)
    result = ndnflow.sweep(line_file, {"consumers[0].cc.window": [1]}, seeds=np.arange(1, 3), progress=False)
    assert result.seeds == [1, 2] and all(type(seed) is int for seed in result.seeds)


@pytest.mark.parametrize("grid", [None, ["links[0].delay"], {1: ["1ms"]}])
def test_a_grid_that_is_no_table_of_keys_is_named(line_file, grid):
    # AttributeError "'NoneType' object has no attribute 'items'" until 2026-11-28.
    with pytest.raises(SweepError, match=re.escape("the grid: expected a table of keys (text) to lists of values")):
        ndnflow.sweep(line_file, grid, progress=False)


def test_a_metric_that_matches_nothing_is_refused_before_anything_runs(line_file, monkeypatch):
    started = []
    monkeypatch.setattr(sweeps, "_run_local", lambda run, slot: started.append(run))
    with pytest.raises(SweepError, match="'consumers.c.goodput' matches no number"):
        ndnflow.sweep(line_file, {"consumers[0].cc.window": [1]}, metrics="consumers.c.goodput", progress=False)
    assert started == []
    # A number that exists only once the run has data (no RTT before the first sample) is known too.
    ndnflow.sweep(line_file, {"consumers[0].cc.window": [1]}, metrics=["consumers.*.rtt_avg_ms"], progress=False)
    assert len(started) == 1


def test_ctrl_c_keeps_the_runs_that_were_done(line_file, monkeypatch):
    real = sweeps._run_local

    def third_is_interrupted(run, slot):
        if run.point == 2:
            raise KeyboardInterrupt
        return real(run, slot)

    monkeypatch.setattr(sweeps, "_run_local", third_is_interrupted)
    result = ndnflow.sweep(line_file, {"consumers[0].cc.window": [1, 2, 3, 4]}, jobs=1, progress=False)
    assert result.interrupted
    assert list(result.table["consumers[0].cc.window"]) == [1, 2]
    assert "2 of 4 runs" in repr(result)


def test_on_a_dask_cluster_the_results_are_the_same():
    distributed = pytest.importorskip("distributed")
    grid = {"consumers[0].cc.beta": [0.5, 0.8]}
    local = ndnflow.sweep(lossy(), grid, seeds=[1, 2], progress=False)
    with distributed.LocalCluster(n_workers=2, processes=False, dashboard_address=":0") as cluster:
        remote = ndnflow.sweep(lossy(), grid, seeds=[1, 2], scheduler=cluster.scheduler_address, progress=False)
        with distributed.Client(cluster) as client:
            via_client = ndnflow.sweep(lossy(), grid, seeds=[1, 2], scheduler=client, progress=False)
    assert remote.table.equals(local.table)
    assert via_client.table.equals(local.table)


# ----------------------------------------------------------------------------------------- CLI


def test_the_command_prints_a_row_per_point_and_writes_the_files(tmp_path, line_file, capsys):
    out = tmp_path / "out"
    status = main(["sweep", str(line_file), "--set", "consumers[0].cc.window=1,2", "--out", str(out), "--quiet"])
    printed = capsys.readouterr().out.splitlines()
    assert status == 0
    assert printed[0].split() == ["consumers[0].cc.window", "seed", "c.goodput", "[Mbit/s]"]
    assert [line.split()[:2] for line in printed[2:]] == [["1", "1"], ["2", "1"]]  # window, seed as given
    goodputs = [float(line.split()[-1]) for line in printed[2:]]
    assert goodputs == pytest.approx([0.4, 0.8], rel=0.02)
    names = sorted(path.name for path in out.iterdir())
    assert names == ["scenarios", "sweep.csv", "sweep.json", "sweep.parquet", "sweep.png"]
    assert len(list((out / "scenarios").iterdir())) == 2


def test_the_command_stops_on_ctrl_c_with_status_130_and_keeps_what_was_done(tmp_path, line_file, monkeypatch, capsys):
    real = sweeps._run_local
    monkeypatch.setattr(sweeps, "_run_local",
                        lambda run, slot: (_ for _ in ()).throw(KeyboardInterrupt) if run.point == 1 else real(run, slot))
    status = main(["sweep", str(line_file), "--set", "consumers[0].cc.window=1,2", "--out", str(tmp_path), "--jobs", "1"])
    assert status == 130
    assert "interrupted: 1 of 2 runs done" in capsys.readouterr().err
    assert json.loads((tmp_path / "sweep.json").read_text())["completed"] == 1


@pytest.mark.parametrize(
    "args, message",
    [
        (["--set", "links[9].delay=1ms"], "links has 2 entries"),
        (["--set", "consumers[0].cc.windw=2"], 'unknown field "windw"'),
        (["--set", "links[0].delay=1ms", "--set", "links[0].delay=2ms"], "given twice"),
        (["--set", "nothing"], "expected KEY=VALUE"),
        (["--seeds", "4-1"], "runs backwards"),
        (["--jobs", "0"], "give at least 1"),
        (["--jobs", "2", "--scheduler", "tcp://127.0.0.1:1"], "--jobs or --scheduler"),
        (["--scheduler", "nowhere"], "cannot reach the Dask scheduler at nowhere"),
        (["--metric", "links.*.drops", "--metric", "links.*.nonsense"], "--metric 'links.*.nonsense' matches no number"),
        (["--duration", "soon"], "--duration"),
    ],
)
def test_the_command_refuses_bad_input_with_status_2(line_file, capsys, args, message):
    assert main(["sweep", str(line_file), *args, "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and message in err


def test_metrics_take_one_pattern_or_several(line_file):
    result = ndnflow.sweep(line_file, {"consumers[0].cc.window": [1]}, progress=False)
    assert result.metrics("consumers.*.goodput_bps") == ["consumers.c.goodput_bps"]
    assert result.metrics(["links.c->r.packets", "links.r->c.packets"]) == ["links.c->r.packets", "links.r->c.packets"]
    assert result.metrics("nothing.*") == []


def test_the_figure_places_a_word_at_the_same_x_on_every_line():
    import pandas as pd

    from ndnflow.plot import _sweep_x

    every = pd.Series(["10ms", "20ms", "40ms", "10ms", "20ms"])  # the second line was cut short
    x, ticks = _sweep_x(every[3:], every)
    assert ticks == ["10ms", "20ms", "40ms"] and list(x) == [0.0, 1.0]
    numbers, none = _sweep_x(pd.Series([8, 16]), pd.Series([8, 16, 32]))
    assert none is None and list(numbers) == [8.0, 16.0]


def test_the_command_removes_what_an_earlier_sweep_wrote_there_and_names_it(tmp_path, line_file, capsys):
    # A 3-point sweep then a 1-point one into the same folder left point-001 and point-002 beside
    # the new files, unnamed, until 2026-11-28. The user's own files stay.
    out = tmp_path / "sweep"
    assert main(["sweep", str(line_file), "--set", "links[0].delay=1ms,2ms,3ms", "--out", str(out), "--no-plot"]) == 0
    (out / "notes.txt").write_text("mine")
    capsys.readouterr()
    assert main(["sweep", str(line_file), "--set", "links[0].delay=1ms", "--out", str(out), "--no-plot"]) == 0
    assert sorted(p.name for p in (out / "scenarios").iterdir()) == ["point-000-seed-1.toml"]
    assert (out / "notes.txt").read_text() == "mine"
    assert ("removed scenarios/point-001-seed-1.toml, scenarios/point-002-seed-1.toml: an earlier sweep's"
            in capsys.readouterr().err)
