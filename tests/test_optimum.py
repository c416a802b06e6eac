"""`ndnflow.optimum.max_flow`: every expected number is derived by hand in the comment above it.

The network comes from the compiled core (`_core.flow_network`): scenarios it rejects raise its
`ScenarioError`, with the field and the reason.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest

pytest.importorskip("networkx")

from ndnflow import Scenario, ScenarioError, _native  # noqa: E402
from ndnflow.optimum import MaxFlow, OptimumError, max_flow  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
if not _native.has("flow_network"):
    pytest.skip("the compiled core has no flow_network (run `maturin develop --release`)", allow_module_level=True)
MBPS = 1e6
KBPS = 1e3


def line(cr: str = "50Mbps", rp: str = "10Mbps") -> Scenario:
    """C - R - P, producer of /video on P, consumer of /video/a on C."""
    return (Scenario(duration="1s")
            .nodes("c", "r", "p")
            .link("c", "r", bandwidth=cr, delay="5ms")
            .link("r", "p", bandwidth=rp, delay="5ms")
            .producer("p", "/video")
            .consumer("c", "/video/a", window=8))


def test_line_is_limited_by_its_narrowest_link_in_the_data_direction():
    # Data go p->r (10 Mbit/s) then r->c (50 Mbit/s): min(10, 50) = 10 Mbit/s, and the only
    # saturated direction on the way is p->r. The Interest directions carry no Data: 0.
    result = max_flow(line())
    assert result.value_bps == 10 * MBPS
    assert result.bottlenecks == ["p->r"]
    assert result.link_flows == {"c->r": 0.0, "r->c": 10 * MBPS, "r->p": 0.0, "p->r": 10 * MBPS}


def test_line_bottleneck_moves_to_the_consumer_side():
    # Swapped: r->c is 10, p->r is 50 -> 10 Mbit/s, bottleneck r->c.
    result = max_flow(line(cr="10Mbps", rp="50Mbps"))
    assert result.value_bps == 10 * MBPS
    assert result.bottlenecks == ["r->c"]


def test_two_disjoint_paths_add_up():
    # c - a - p at 10 Mbit/s and c - b - p at 20 Mbit/s (all links of a path equal):
    # 10 + 20 = 30 Mbit/s; the two paths carry 10 and 20.
    sc = (Scenario(duration="1s").nodes("c", "a", "b", "p")
          .link("c", "a", bandwidth="10Mbps", delay="1ms").link("a", "p", bandwidth="10Mbps", delay="1ms")
          .link("c", "b", bandwidth="20Mbps", delay="1ms").link("b", "p", bandwidth="20Mbps", delay="1ms")
          .producer("p", "/x").consumer("c", "/x/1", window=1))
    result = max_flow(sc)
    assert result.value_bps == 30 * MBPS
    assert result.link_flows["a->c"] == 10 * MBPS
    assert result.link_flows["b->c"] == 20 * MBPS
    assert result.link_flows["p->a"] == 10 * MBPS and result.link_flows["p->b"] == 20 * MBPS
    # Nearest the consumer, both last links are full: a->c and b->c (in link order).
    assert result.bottlenecks == ["a->c", "b->c"]


def test_diamond_capped_by_a_shared_link():
    # p - s at 15 Mbit/s feeds two branches s - x - c (10) and s - y - c (10): the branches
    # could carry 20, the shared link s->... only 15 -> 15 Mbit/s, bottleneck p->s.
    sc = (Scenario(duration="1s").nodes("c", "x", "y", "s", "p")
          .link("c", "x", bandwidth="10Mbps", delay="1ms").link("x", "s", bandwidth="10Mbps", delay="1ms")
          .link("c", "y", bandwidth="10Mbps", delay="1ms").link("y", "s", bandwidth="10Mbps", delay="1ms")
          .link("s", "p", bandwidth="15Mbps", delay="1ms")
          .producer("p", "/x").consumer("c", "/x", window=1))
    result = max_flow(sc)
    assert result.value_bps == 15 * MBPS
    assert result.bottlenecks == ["p->s"]
    # Conservation at s: what enters from p leaves towards x and y.
    assert result.link_flows["s->x"] + result.link_flows["s->y"] == 15 * MBPS
    assert result.link_flows["s->x"] <= 10 * MBPS and result.link_flows["s->y"] <= 10 * MBPS


# PTP §6-F, Scenario 5 (Figure 24, Table I). The figure is lost; this topology is rebuilt from the
# text: links 2-1 1400 kbit/s, 3-2 400, 4-2 600, 8-2 400, every other link 200; Table I's used
# directions 2⇒1, 3⇒2, 4⇒2, 8⇒2, 7⇒3, 9⇒3, 7⇒4, 5⇒4, 11⇒4, 5⇒8, 6⇒8, 12⇒6, 11⇒5, 10⇒5, 10⇒7, 9⇒7;
# the redundant links 3-4 and 5-7; producers at the leaves 9, 10, 11, 12, consumer at 1.
PTP_S5_LINKS = [
    (2, 1, 1400), (3, 2, 400), (4, 2, 600), (8, 2, 400),
    (7, 3, 200), (9, 3, 200), (7, 4, 200), (5, 4, 200), (11, 4, 200), (5, 8, 200), (6, 8, 200),
    (12, 6, 200), (11, 5, 200), (10, 5, 200), (10, 7, 200), (9, 7, 200),
    (3, 4, 200), (5, 7, 200),  # redundant
]


def ptp_scenario_5() -> Scenario:
    sc = Scenario(duration="1s").nodes(*(str(n) for n in range(1, 13)))
    for a, b, kbps in PTP_S5_LINKS:
        sc.link(str(a), str(b), bandwidth=f"{kbps}Kbps", delay="20ms")
    for leaf in (9, 10, 11, 12):
        sc.producer(str(leaf), "/content")
    return sc.consumer("1", "/content/obj", window=1)


def test_ptp_scenario_5_max_flow_is_1400_kbps():
    # This reconstruction gives exactly the paper's 1400 kbit/s, by two cuts of 1400:
    # - the producers can send 9: 9⇒3 + 9⇒7 = 400, 10: 10⇒5 + 10⇒7 = 400, 11: 11⇒4 + 11⇒5 = 400,
    #   12: 12⇒6 = 200; in all 1400;
    # - node 1 has one link, 2-1 at 1400 (and 3⇒2 + 4⇒2 + 8⇒2 = 400 + 600 + 400 = 1400 too).
    # It is reached: into 3: 7⇒3 + 9⇒3 = 400 = 3⇒2; into 4: 7⇒4 + 5⇒4 + 11⇒4 = 600 = 4⇒2; into 8:
    # 5⇒8 + 6⇒8 = 400 = 8⇒2; 5 gets 11⇒5 + 10⇒5 = 400 and sends 5⇒4 + 5⇒8 = 400; 7 gets 10⇒7 + 9⇒7
    # = 400 and sends 7⇒3 + 7⇒4 = 400; 6 passes 12⇒6 = 200 on. The redundant links are not needed.
    result = max_flow(ptp_scenario_5())
    assert result.value_bps == 1400 * KBPS
    # Of the two minimum cuts the one nearest the consumer: the single link 2⇒1.
    assert result.bottlenecks == ["2->1"]
    assert result.link_flows["2->1"] == 1400 * KBPS
    # Every producer sends all its links can carry (the other minimum cut), whatever flow was found.
    out_of_leaves = sum(result.link_flows[f"{a}->{b}"] for a, b, _ in PTP_S5_LINKS if a in (9, 10, 11, 12))
    assert out_of_leaves == 1400 * KBPS
    # Table I: PTP measured 1350 kbit/s on 2⇒1, 1350 / 1400 = 96.4 %.
    assert round(result.utilization(1350 * KBPS) * 100, 1) == 96.4


def test_ptp_scenario_5_needs_no_redundant_link():
    # The flow derived above uses only Table I's 16 directions, so without the redundant links 3-4
    # and 5-7 the optimum stays 1400 kbit/s. Removing a used link instead loses its 200: without
    # 6-8 (12's only way out towards 8), the 200 from 12 cannot arrive -> 1200.
    def without(*pairs):
        doc = ptp_scenario_5().to_dict()
        doc["links"] = [link for link in doc["links"] if tuple(link["between"]) not in pairs]
        return max_flow(doc)

    assert without(("3", "4"), ("5", "7")).value_bps == 1400 * KBPS
    assert without(("6", "8")).value_bps == 1200 * KBPS


def test_ptp_scenario_5_flow_respects_capacities_and_conservation():
    result = max_flow(ptp_scenario_5())
    capacity = {}
    for a, b, kbps in PTP_S5_LINKS:
        capacity[f"{a}->{b}"] = capacity[f"{b}->{a}"] = kbps * KBPS
    assert set(result.link_flows) == set(capacity)
    assert all(0 <= result.link_flows[d] <= capacity[d] for d in capacity)
    for node in range(2, 9):  # routers: what comes in goes out
        inflow = sum(f for d, f in result.link_flows.items() if d.endswith(f"->{node}"))
        outflow = sum(f for d, f in result.link_flows.items() if d.startswith(f"{node}->"))
        assert inflow == outflow, node


def test_per_direction_overrides():
    # c - p, 10 Mbit/s on the link but reverse (p->c, the Data direction) overridden to 3 Mbit/s
    # -> 3 Mbit/s. Overriding forward (c->p) instead leaves the Data direction at 10.
    base = Scenario(duration="1s").nodes("c", "p").producer("p", "/x").consumer("c", "/x", window=1)
    assert max_flow(base.copy().link("c", "p", bandwidth="10Mbps", delay="1ms",
                                     reverse={"bandwidth": "3Mbps"})).value_bps == 3 * MBPS
    assert max_flow(base.copy().link("c", "p", bandwidth="10Mbps", delay="1ms",
                                     forward={"bandwidth": "3Mbps"})).value_bps == 10 * MBPS
    # Bandwidth only in forward and reverse (none on the link): p->c = 7 Mbit/s.
    only = base.copy().link("p", "c", delay="1ms", forward={"bandwidth": "7Mbps"}, reverse={"bandwidth": "1Mbps"})
    assert max_flow(only).value_bps == 7 * MBPS  # between = [p, c]: forward is p->c


def test_underlay_hop_limits_its_direction():
    # p->c at 10 Mbit/s tunnels through hops of 8 and 4 Mbit/s: min(10, 8, 4) = 4, and the narrowest
    # hop, p->c/u2, is the bottleneck; every element of the chain carries the 4.
    sc = (Scenario(duration="1s").nodes("c", "p")
          .link("p", "c", bandwidth="10Mbps", delay="1ms",
                forward={"underlay": [{"bandwidth": "8Mbps", "delay": "1ms"}, {"bandwidth": "4Mbps", "delay": "1ms"}]})
          .producer("p", "/x").consumer("c", "/x", window=1))
    result = max_flow(sc)
    assert result.value_bps == 4 * MBPS
    assert result.bottlenecks == ["p->c/u2"]
    assert result.link_flows["p->c"] == result.link_flows["p->c/u1"] == result.link_flows["p->c/u2"] == 4 * MBPS


def test_the_core_hands_over_the_network_as_plain_data():
    # The underlay scenario above as `_core.flow_network` gives it: links[0] is between p and c,
    # so its forward direction p->c comes first, 10 Mbit/s then hops of 8 and 4 Mbit/s, 1 ms each.
    sc = (Scenario(duration="1s").nodes("c", "p")
          .link("p", "c", bandwidth="10Mbps", delay="1ms",
                forward={"underlay": [{"bandwidth": "8Mbps", "delay": "1ms"}, {"bandwidth": "4Mbps", "delay": "2ms"}]})
          .producer("p", "/x").consumer("c", "/x/y", window=1))
    network = _native.core.flow_network(*sc.compiled())
    assert network["nodes"] == ["c", "p"]
    forward, reverse = network["directions"]
    assert (forward["src"], forward["dst"], forward["link"], forward["bottleneck"]) == ("p", "c", 0, "p->c/u2")
    assert forward["chain"] == [{"name": "p->c", "bandwidth_bps": 10_000_000, "delay_ns": 1_000_000},
                                {"name": "p->c/u1", "bandwidth_bps": 8_000_000, "delay_ns": 1_000_000},
                                {"name": "p->c/u2", "bandwidth_bps": 4_000_000, "delay_ns": 2_000_000}]
    assert reverse["chain"] == [{"name": "c->p", "bandwidth_bps": 10_000_000, "delay_ns": 1_000_000}]
    assert network["producers"] == [{"node": "p", "prefix": "/x"}]
    assert network["consumers"] == [{"id": "c", "node": "c", "name": "/x/y", "producers": [0]}]


def test_parallel_links_are_rejected_as_a_run_would_reject_them():
    # Two links between one pair, even in a hand-built document: the simulator's reader refuses
    # them, so the optimum is never computed over a network no run can have.
    doc = (Scenario(duration="1s").nodes("c", "p")
           .link("c", "p", bandwidth="3Mbps", delay="1ms").link("p", "c", bandwidth="5Mbps", delay="1ms")
           .producer("p", "/x").consumer("c", "/x", window=1)).to_dict()
    with pytest.raises(ScenarioError, match=r"links\[1\]\.between: duplicate link p - c"):
        max_flow(doc)


def test_producers_are_matched_on_name_components():
    # Producers: /a on p1 (1 Mbit/s), /ab on p2 (2), /a/b on p3 (4), /z on p4 (8), all joined to c.
    # "/a/b/c" is served by /a and /a/b (not /ab, not /z): 1 + 4 = 5 Mbit/s.
    sc = Scenario(duration="1s").nodes("c", "p1", "p2", "p3", "p4")
    for node, prefix, mbps in (("p1", "/a", 1), ("p2", "/ab", 2), ("p3", "/a/b", 4), ("p4", "/z", 8)):
        sc.link(node, "c", bandwidth=f"{mbps}Mbps", delay="1ms").producer(node, prefix)
    sc.consumer("c", "/a/b/c", window=1).consumer("c", "/ab", window=1).consumer("c", "/a", window=1)
    assert max_flow(sc, "c#0").value_bps == 5 * MBPS
    # "/ab": only /ab -> 2 Mbit/s. "/a": only /a (/a/b is longer than the name) -> 1 Mbit/s.
    assert max_flow(sc, "c#1").value_bps == 2 * MBPS
    assert max_flow(sc, 2).value_bps == 1 * MBPS


def test_consumer_ids_follow_the_simulator():
    # c runs two consumers ("c#0", "c#1"), d one ("d"); index 2 is d's.
    sc = (Scenario(duration="1s").nodes("c", "d", "p")
          .link("c", "p", bandwidth="1Mbps", delay="1ms").link("d", "p", bandwidth="2Mbps", delay="1ms")
          .producer("p", "/x")
          .consumer("c", "/x/1", window=1).consumer("d", "/x/2", window=1).consumer("c", "/x/3", window=1))
    assert max_flow(sc, "d").value_bps == 2 * MBPS
    assert max_flow(sc, 1).value_bps == 2 * MBPS
    assert max_flow(sc, "c#1").value_bps == 1 * MBPS
    with pytest.raises(OptimumError, match=r"unknown consumer 'c' \(known: c#0, d, c#1\)"):
        max_flow(sc, "c")


def test_errors_name_what_is_wrong():
    with pytest.raises(OptimumError, match="unknown consumer 'x'"):
        max_flow(line(), "x")
    with pytest.raises(OptimumError, match=r"no consumer #1: the scenario has 1 \(ids: c\)"):
        max_flow(line(), 1)
    with pytest.raises(OptimumError, match="no consumer #-1"):
        max_flow(line(), -1)
    other = line().consumer("r", "/music/a", window=1)
    with pytest.raises(ScenarioError, match=r"consumers\[1\]\.name: no producer serves /music/a \(producer prefixes: /video\)"):
        max_flow(other, "r")
    assert issubclass(OptimumError, ValueError)


def test_unreachable_consumer_gets_zero_not_an_error():
    # No link joins c to p: nothing can arrive, 0 bit/s, no bottleneck; utilization undefined.
    sc = (Scenario(duration="1s").nodes("c", "r", "p").link("c", "r", bandwidth="1Mbps", delay="1ms")
          .producer("p", "/x").consumer("c", "/x", window=1))
    result = max_flow(sc)
    assert result.value_bps == 0
    assert result.bottlenecks == []
    assert math.isnan(result.utilization(0.0))


def test_producer_on_the_consumer_node_is_unlimited():
    sc = line().producer("c", "/video/a")
    assert max_flow(sc).value_bps == math.inf


def test_utilization_arithmetic():
    # 7.5 / 10 = 0.75; 12 / 10 = 1.2 (measured above the optimum is reported, not clipped).
    result = MaxFlow(10 * MBPS)
    assert result.utilization(7.5 * MBPS) == pytest.approx(0.75)
    assert result.utilization(12 * MBPS) == pytest.approx(1.2)
    assert MaxFlow(math.inf).utilization(5.0) == 0.0


def test_bandwidth_units():
    # "1.5Mb/s" = 1 500 000, "2_000kbps" = 2 000 000, "1Gbps" = 1e9: the narrowest, 1.5 Mbit/s.
    sc = (Scenario(duration="1s").nodes("c", "r", "p")
          .link("c", "r", bandwidth="1Gbps", delay="1ms").link("r", "p", bandwidth="1.5Mb/s", delay="1ms",
                                                                 forward={"bandwidth": "2_000kbps"})
          .producer("p", "/x").consumer("c", "/x", window=1))
    assert max_flow(sc).value_bps == 1.5 * MBPS
    # The simulator's reader judges bandwidths, with the field and the reason.
    with pytest.raises(ScenarioError, match=r"links\[1\]\.bandwidth: invalid bandwidth \"10MBps\": byte rates"):
        max_flow(line(rp="10MBps"))
    with pytest.raises(ScenarioError, match=r"links\[0\]\.bandwidth: invalid bandwidth \"0Mbps\": bandwidth must be positive"):
        max_flow(line(cr="0Mbps"))
    # 1.0000001 bit/s is no whole number of bit/s: a run refuses it, and so does the optimum
    # (a Python copy of the parser used to truncate it to 1 bit/s).
    with pytest.raises(ScenarioError, match=r"links\[1\]\.bandwidth: invalid bandwidth \"1\.0000001bps\": not a whole number"):
        max_flow(line(rp="1.0000001bps"))


def test_reads_files_and_topology_files():
    # quickstart: Data from p cross p->r (10 Mbit/s) then r->c1 (100): 10 Mbit/s for c1 and c2.
    assert max_flow(ROOT / "examples" / "quickstart.toml", "c2").bottlenecks == ["p->r"]
    # grid: Node0 in a corner of the 1 Mbit/s 3x3 grid has two links -> 2 Mbit/s, both into Node0.
    result = max_flow(ROOT / "examples" / "grid.toml")
    assert result.value_bps == 2 * MBPS
    assert result.bottlenecks == ["Node1->Node0", "Node3->Node0"]
