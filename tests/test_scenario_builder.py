"""The Python API's Scenario builder and units: what the builder writes, what it refuses and how it
names it, and the TOML round trip."""

from __future__ import annotations

import math
import re

import pytest

import ndnflow
from ndnflow import Scenario, ScenarioError, units

def dumbbell(**simulation):
    simulation = {"duration": "2s", "seed": 7, "bin": "100ms", **simulation}
    return (
        Scenario(**simulation)
        .node("r", cs={"policy": "lru", "capacity": 100}, strategy="best-route")
        .link("a", "r", bandwidth=10e6, delay=0.005, queue=50)
        .link("r", "b", bandwidth="10Mbps", delay="5ms",
              queue={"discipline": "codel", "packets": 100, "target": 0.005, "interval": "100ms", "mode": "mark"},
              forward={"bandwidth": 5e6, "delay": 0.01})
        .producer("b", "/p", freshness=1)
        .consumer("a", "/p/x", window=8, start=0.5, lifetime=2, rto={"initial": 1, "min": 0.2})
        .consumer("a", "/p/y", rate=100.0, stop="1.5s")
        .route("a", "/p", "r", cost=1)
        .event(1, ("r", "b"), bandwidth=2e6)
        .event("1.5s", ("a", "r"), direction="forward", down=True)
    )


# ------------------------------------------------------------------------------------ units


@pytest.mark.parametrize(
    "value, expected",
    [(0.005, "0.005s"), (30, "30s"), (30.0, "30s"), (1e-6, "0.000001s"), (2.5e-9, "0.0000000025s"),
     (120.25, "120.25s"), ("5ms", "5ms"), (0, "0s")],
)
def test_duration_numbers_become_seconds(value, expected):
    assert units.duration(value) == expected


@pytest.mark.parametrize(
    "value, expected",
    [(10e6, "10Mbps"), (1_000_000_000, "1Gbps"), (1.5e6, "1.5Mbps"), (123_456_789, "123.456789Mbps"),
     (64_000, "64Kbps"), (999, "999bps"), (1.5, "1.5bps"), (2.5e12, "2.5Tbps"), ("100Mbps", "100Mbps")],
)
def test_bandwidth_numbers_become_bit_per_second(value, expected):
    assert units.bandwidth(value) == expected


def test_units_doctests():
    import doctest

    assert doctest.testmod(units).failed == 0


def test_units_reject_bools_and_non_finite_numbers():
    with pytest.raises(TypeError):
        units.duration(True)
    with pytest.raises(TypeError):
        units.bandwidth([1])
    with pytest.raises(ScenarioError, match="not a finite number"):
        units.duration(math.inf)
    with pytest.raises(ScenarioError):
        units.bandwidth(float("nan"))


@pytest.mark.parametrize("text, seconds", [("10s", 10.0), ("250ms", 0.25), ("1.5min", 90.0), ("0", 0.0),
                                           ("100us", 1e-4), ("3h", 10800.0), (" 7 s ", 7.0)])
def test_parse_duration(text, seconds):
    assert units.parse_duration(text) == pytest.approx(seconds)


@pytest.mark.parametrize("text, written", [(" 250 ms ", "250 ms"), ("0.3ms", "0.3ms"), ("1.5min", "1.5min")])
def test_normalize_duration_keeps_the_number_as_written(text, written):
    assert units.normalize_duration(text) == written


@pytest.mark.parametrize("text", ["ten", "10 parsecs", "-1s", "1e3s", "2", "10m"])
def test_parse_duration_rejects_garbage(text):
    # "2" and "10m" as a scenario file rejects them: a number needs a unit, "m" is ambiguous.
    with pytest.raises(ValueError, match="invalid duration"):
        units.parse_duration(text)


# ---------------------------------------------------------------------------------- builder


def test_builder_writes_units_and_sections():
    doc = dumbbell().to_dict()
    assert list(doc) == ["simulation", "nodes", "links", "producers", "consumers", "routes", "events"]
    assert doc["simulation"] == {"duration": "2s", "seed": 7, "bin": "100ms"}
    assert doc["nodes"] == {"r": {"cs": {"policy": "lru", "capacity": 100}, "strategy": "best-route"}}
    first, second = doc["links"]
    assert first == {"between": ["a", "r"], "bandwidth": "10Mbps", "delay": "0.005s",
                     "queue": {"discipline": "droptail", "packets": 50}}
    assert second["queue"] == {"discipline": "codel", "packets": 100, "target": "0.005s", "interval": "100ms",
                               "mode": "mark"}
    assert second["forward"] == {"bandwidth": "5Mbps", "delay": "0.01s"}
    assert doc["producers"] == [{"node": "b", "prefix": "/p", "payload": 1024, "freshness": "1s"}]
    fixed, rate = doc["consumers"]
    assert fixed == {"node": "a", "name": "/p/x", "start": "0.5s", "lifetime": "2s",
                     "rto": {"initial": "1s", "min": "0.2s"}, "cc": {"algorithm": "fixed-window", "window": 8}}
    assert rate["cc"] == {"algorithm": "constant-rate", "rate": 100.0}
    assert rate["stop"] == "1.5s"
    assert doc["routes"] == [{"node": "a", "prefix": "/p", "nexthop": "r", "cost": 1}]
    assert doc["events"] == [
        {"at": "1s", "link": ["r", "b"], "bandwidth": "2Mbps"},
        {"at": "1.5s", "link": ["a", "r"], "direction": "forward", "down": True},
    ]


def test_to_toml_from_toml_round_trip():
    scenario = dumbbell()
    text = scenario.to_toml()
    again = Scenario.from_toml(text, source="x.toml")
    assert again == scenario
    assert again.to_dict() == scenario.to_dict()
    assert again.to_toml() == text
    assert again.source == "x.toml"


def test_to_toml_is_one_line_per_field():
    text = dumbbell().to_toml()
    assert text.startswith('[simulation]\nduration = "2s"\nseed = 7\nbin = "100ms"\n\n[nodes]\n')
    assert 'r = { cs = { policy = "lru", capacity = 100 }, strategy = "best-route" }\n' in text
    assert '[[links]]\nbetween = ["a", "r"]\nbandwidth = "10Mbps"\ndelay = "0.005s"\n' in text
    assert 'queue = { discipline = "droptail", packets = 50 }\n' in text


@pytest.mark.parametrize(
    "doc",
    [
        {},
        {"nodes": {"a b": {}, "x.y": {"cs": {"capacity": 1}}, "ünï": {}}},
        {"title": 'quote " back \\ slash\ttab\x7f del', "simulation": {"seed": 1, "ratio": 0.1, "on": True}},
        {"links": [{"between": ["a", "b"], "extra": [{"k": 1}, {"k": [1.5, -2]}], "empty": [], "e": {}}]},
        {"events": [], "routes": [{"node": "a"}], "nested": {"deep": {"deeper": {"x": "y"}}}},
    ],
)
def test_toml_writer_round_trips(doc):
    from ndnflow import _toml
    from ndnflow.scenario import tomllib

    assert tomllib.loads(_toml._layout(doc)) == doc  # the layout itself, not the tomli-w fallback
    assert _toml.dumps(doc) == _toml._layout(doc)


def test_to_dict_is_a_copy():
    scenario = dumbbell()
    doc = scenario.to_dict()
    doc["links"].clear()
    assert len(scenario.to_dict()["links"]) == 2


def test_node_updates_merge_and_cs_shorthand():
    scenario = Scenario().node("r", strategy="multicast").nodes("a", "r").node("r", cs=500)
    assert scenario.to_dict()["nodes"] == {"r": {"strategy": "multicast", "cs": {"capacity": 500}}, "a": {}}


def test_consumer_takes_one_congestion_control_only():
    with pytest.raises(TypeError, match="only one of"):
        Scenario().consumer("a", "/p", window=8, rate=10.0)
    explicit = Scenario().consumer("a", "/p", cc={"algorithm": "fixed-window", "window": 4})
    assert explicit.to_dict()["consumers"][0]["cc"] == {"algorithm": "fixed-window", "window": 4}


def test_with_seed_and_duration_copy():
    base = dumbbell()
    other = base.with_seed(99).with_duration(10)
    assert (other.seed, other.duration) == (99, "10s")
    assert (base.seed, base.duration) == (7, "2s")
    assert other.to_dict()["links"] == base.to_dict()["links"]


@pytest.mark.parametrize("seed", [1.5, True, "7", -1, 2**64, None])
def test_with_seed_refuses_what_the_seed_field_refuses(seed):
    # int(seed) read 1.5 as 1, True as 1 and "7" as 7 until 2026-11-28; the reader refuses them.
    with pytest.raises(ScenarioError, match="simulation.seed: with_seed takes an integer from 0 to"):
        dumbbell().with_seed(seed)
    assert dumbbell().with_seed(2**64 - 1).seed == 2**64 - 1


@pytest.mark.parametrize("where, value, says", [
    (("links", 0, "delay"), None, "links[0].delay: None (NoneType) has no TOML form; leave the key out for its default"),
    (("links", 0, "between"), {"c", "r"}, "links[0].between: "),
    (("nodes", "r"), b"x", "nodes.r: b'x' (bytes) has no TOML form"),
])
def test_a_value_toml_cannot_hold_is_named(where, value, says):
    # tomli-w's "Object of type 'NoneType' is not TOML serializable" named no field until 2026-11-28.
    doc = dumbbell().to_dict()
    place = doc
    for key in where[:-1]:
        place = place[key]
    place[where[-1]] = value
    with pytest.raises(ScenarioError) as info:
        Scenario.from_dict(doc).to_toml()
    assert str(info.value).startswith(says)
    doc = dumbbell().to_dict()
    doc[1] = 2
    with pytest.raises(ScenarioError, match="the document: key 1 is not a string"):
        Scenario.from_dict(doc).to_toml()


@pytest.mark.parametrize("build, says", [
    (lambda s: s.link("a", "b", loss=0.1), "link loss: expected a table"),
    (lambda s: s.link("a", "b", marking=5), "link marking: expected a table"),
    (lambda s: s.link("a", "b", forward="x"), "forward: expected a table"),
    (lambda s: s.node("c", cs="lru"), "nodes.c.cs: expected a table"),
    (lambda s: s.node("c", strategies="multicast"), "nodes.c.strategies: expected a table"),
    (lambda s: s.consumer("a", "/p", cc="aimd"), "cc: expected a table such as {'algorithm': 'aimd'}, got 'aimd'"),
    (lambda s: s.consumer("a", "/p", rto=0.5), "rto: expected a table"),
    (lambda s: s.node(5), "node name: expected text"),
    (lambda s: s.topology(5), 'topology.ndnsim: expected a file\'s path such as "topo.txt", got 5'),
])
def test_a_builder_argument_of_the_wrong_kind_is_named(build, says):
    # dict("lru") said "dictionary update sequence element #0 has length 1; 2 is required" and
    # node(5) was taken, to fail in run, until 2026-11-28. Nothing is added by a refused call.
    scenario = Scenario()
    with pytest.raises(ScenarioError, match=re.escape(says)):
        build(scenario)
    assert scenario.to_dict() == Scenario().to_dict()


def test_from_dict_names_a_document_that_is_not_a_table():
    # "'NoneType' object is not iterable" until 2026-11-28.
    with pytest.raises(ScenarioError, match=re.escape("s.toml: the scenario: expected a table such as")):
        Scenario.from_dict(None, source="s.toml")


def test_a_file_with_a_byte_order_mark_reads_as_without(tmp_path):
    text = dumbbell().to_toml()
    (tmp_path / "bom.toml").write_text("\ufeff" + text, encoding="utf-8")
    assert Scenario.from_file(tmp_path / "bom.toml").to_dict() == Scenario.from_toml(text).to_dict()


def test_from_file_keeps_base_dir_and_original_text(tmp_path):
    path = tmp_path / "s.toml"
    text = '# my scenario\n[simulation]\nduration = "1s"\n\n[topology]\nndnsim = "topo.txt"\n'
    path.write_text(text)
    scenario = ndnflow.load_scenario(path)
    assert scenario.base_dir == str(tmp_path)
    assert scenario.compiled() == (text, str(path), str(tmp_path))
    changed = scenario.with_seed(3)
    changed_text, source, base_dir = changed.compiled()
    assert source == f"{path} (modified)" and base_dir == str(tmp_path)
    assert 'seed = 3' in changed_text and 'ndnsim = "topo.txt"' in changed_text


def test_from_toml_syntax_error_names_position():
    with pytest.raises(ScenarioError) as info:
        Scenario.from_toml('[simulation]\nduration = \n', source="bad.toml")
    message = str(info.value)
    assert message.startswith("bad.toml:2:")
    assert "invalid TOML" in message and "\n" not in message


def test_repr_counts_sections():
    assert repr(dumbbell()) == ("Scenario(duration='2s', seed=7, bin='100ms', nodes=1, links=2, producers=1, "
                                "consumers=2, routes=1, events=2)")
