"""The Rocketfuel map reader (issue 24, "Topologies"), as ndnSIM's RocketfuelMapReader: roles,
components, backbone chaining and link classes, each derived by hand on small maps."""

import math

import networkx as nx
import pytest

from ndnflow import rocketfuel as rf
from ndnflow.cli import main

# Two backbone triangles (10-11-12 and 13-14-15) with a gateway each on 10 and 13 and a shared
# gateway 23 between 12 and 15; clients of degree 1 hang off the gateways. A radius-1 line, a
# separate pair and a line that is not a map line are all left out.
MAP = """\
10 @X bb (3) -> <11> <12> <20> =a r0
11 @X bb (2) -> <10> <12> =b r0
12 @X bb (3) -> <10> <11> <23> =c r0
13 @X bb (3) -> <14> <15> <21> =d r0
14 @X bb (2) -> <13> <15> =e r0
15 @X bb (3) -> <13> <14> <23> =f r0
20 @X (3) -> <10> <30> <31> =g r0
21 @X (2) -> <13> <32> =h r0
23 @X (3) -> <12> <15> <33> =i r0
30 @X (1) -> <20> =j r0
31 @X (1) -> <20> =k r0
32 @X (1) -> <21> =l r0
33 @X (1) -> <23> =m r0
50 @X (1) -> <10> =n r1
90 @Y (1) -> <91> =z r0
this is not a map line
"""


@pytest.fixture()
def map_file(tmp_path):
    path = tmp_path / "as.cch"
    path.write_text(MAP)
    return path


def test_radius_zero_lines_make_the_graph():
    nodes, links = rf.parse(MAP)
    # 15 routers mentioned at radius 0 (10-15, 20, 21, 23, 30-33, 90, 91); 50's line is radius 1.
    assert len(nodes) == 15 and "50" not in nodes
    # Links, each once: 3 + 3 (triangles) + 1 + 1 (gateways 20, 21) + 2 (gateway 23) + 4 clients + 1 (90-91).
    assert len(links) == 15


def test_roles_follow_the_degrees(map_file):
    # Degree 1: 30, 31, 32, 33 are clients; their neighbours 20, 21, 23 gateways (degree 3, 2
    # and 3, none below min(1, 3) + 1 = 2, so no backbone passes on). Degree 2: 11, 14 and 21
    # become clients too (21 was a gateway: the client rule comes later and wins, as in ndnSIM);
    # their neighbours without a role (10, 12, 13, 15) become gateways, each of degree 3, not
    # below min(2, 3) + 1 = 3. Nothing is left for the backbone.
    g = rf.read(map_file, rf.RocketfuelParams(client_degrees=2), seed=1)
    roles = {v.split("-", 1)[1]: d["role"] for v, d in g.nodes(data=True)}
    assert roles == {
        "10": "gw", "12": "gw", "13": "gw", "15": "gw", "20": "gw", "23": "gw",
        "11": "leaf", "14": "leaf", "21": "leaf", "30": "leaf", "31": "leaf", "33": "leaf",
    }
    # Of the big component's 14 links only 21-32 is of no allowed class (client-client) and
    # goes; 32, left alone, leaves with it (the largest component is kept again).
    assert g.number_of_edges() == 13 and "leaf-32" not in g


def test_backbones_are_chained_and_links_get_their_class(map_file):
    # Clients of degree 1 only: 30-33 clients, 20, 21, 23 gateways, the two triangles backbone
    # in two components, which one random link joins: 14 links + 1.
    g = rf.read(map_file, rf.RocketfuelParams(client_degrees=1), seed=3)
    backbone = g.subgraph([v for v, d in g.nodes(data=True) if d["role"] == "bb"])
    assert backbone.number_of_nodes() == 6 and nx.is_connected(backbone)
    assert g.number_of_edges() == 15
    # Every link within its class's bounds; metric and queue from its bandwidth (ndnSIM's rules).
    bounds = {"b2b": (40e6, 100e6), "b2g": (10e6, 20e6), "g2c": (1e6, 3e6)}
    for a, b, d in g.edges(data=True):
        kinds = {g.nodes[a]["role"], g.nodes[b]["role"]}
        cls = "b2b" if kinds == {"bb"} else "g2c" if "leaf" in kinds else "b2g"
        bw = int(d["bandwidth"][:-3])
        assert bounds[cls][0] <= bw <= bounds[cls][1], (a, b, d)
        assert d["metric"] == max(1, int(100e6 / bw))
        assert d["queue"] == math.ceil(0.25 * bw / 8 / 1100)
    # Without chaining, the two triangles stay apart: 14 links.
    apart = rf.read(map_file, rf.RocketfuelParams(client_degrees=1), seed=3, connect_backbones=False)
    assert apart.number_of_edges() == 14


def test_fixed_bounds_give_the_hand_computed_queue(map_file):
    # 100 Mbit/s backbone links: metric 1, queue ceil(0.25 x 1e8 / 8 / 1100) = ceil(2840.9) = 2841;
    # 1 Mbit/s client links: metric 100, queue ceil(28.41) = 29.
    params = rf.RocketfuelParams(client_degrees=1, b2b_bandwidth_bps=(100e6, 100e6), g2c_bandwidth_bps=(1e6, 1e6))
    g = rf.read(map_file, params, seed=1)
    assert g.edges["bb-10", "bb-11"]["metric"] == 1 and g.edges["bb-10", "bb-11"]["queue"] == 2841
    assert g.edges["gw-20", "leaf-30"]["metric"] == 100 and g.edges["gw-20", "leaf-30"]["queue"] == 29


def test_the_same_seed_gives_the_same_network(map_file):
    text = lambda seed: sorted(rf.read(map_file, seed=seed).edges(data="bandwidth"))
    assert text(5) == text(5) and text(5) != text(6)


def test_cli_writes_a_scenario_and_refuses_a_non_map(map_file, tmp_path, capsys):
    out = tmp_path / "as.toml"
    assert main(["import-rocketfuel", str(map_file), "--client-degrees", "1", "-o", str(out)]) == 0
    assert out.read_text().count("between") == 15
    other = tmp_path / "notes.txt"
    other.write_text("hello\n")
    assert main(["import-rocketfuel", str(other)]) == 2
    assert "no router with a neighbour at radius 0" in capsys.readouterr().err


def test_a_negative_client_degree_is_refused(map_file, capsys):
    assert main(["import-rocketfuel", str(map_file), "--client-degrees", "-1"]) == 2
    assert capsys.readouterr().err.strip() == ("error: --client-degrees: routers of degree 1..D are clients; D must be "
                                               "0 or more, got -1")


def test_a_client_degree_above_every_router_s_is_the_largest_there_is(map_file, tmp_path):
    # Degrees above the map's largest find no router: D = 10^20 looped over them without end until
    # 2026-11-28, and now writes what the map's largest degree writes.
    largest = max(degree for _, degree in rf.read(map_file, seed=1, keep_one_component=False).degree)
    texts = []
    for degrees in (str(largest), str(10**20)):
        out = tmp_path / f"as{len(texts)}.toml"
        assert main(["import-rocketfuel", str(map_file), "--client-degrees", degrees, "-o", str(out)]) == 0
        texts.append(out.read_text())
    assert texts[0] == texts[1]

