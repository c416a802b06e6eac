"""PTP §6's experiments: the reconstructed topologies give the max flows derived by hand, and the
metrics read synthetic traces as the pages say."""

from types import SimpleNamespace

import pandas as pd
import pytest

from ndnflow.experiments import ptp_common as pc
from ndnflow.experiments import ptp_s1, ptp_s2, ptp_s3, ptp_s4, ptp_s5


def test_mesh_max_flow_is_table_one():
    # Into #2: 3-2 (400) + 4-2 (600) + 8-2 (400) = 1400 = 2-1. Each is fed exactly: #3 by 7-3 and
    # 9-3, #4 by 7-4, 5-4, 11-4, #8 by 5-8 and 6-8 (200 each), and #5, #7 each get 400 from
    # 10, 11 and 9, 10; so the redundant links 3-4 and 5-7 carry nothing.
    best = pc.optimum(ptp_s5.MESH.scenario("PTP", "10s", 1))
    assert best.value_bps == 1.4e6
    for link, kbps, _ in ptp_s5.TABLE1[1:]:
        assert best.link_flows[link] == {"n3->n2": 4e5, "n4->n2": 6e5, "n8->n2": 4e5}.get(link, 2e5)
    assert all(best.link_flows.get(link, 0.0) == 0.0 for link in ptp_s5.REDUNDANT)


@pytest.mark.parametrize("case, mbps", [("Case I", 1 + 2 + 3 + 4), ("Case II", 4 * 2.5)])
def test_tree_max_flow_is_the_sum_of_the_leaves(case, mbps):
    assert pc.optimum(ptp_s1.tree(case).scenario("PTP", "10s", 1)).value_bps == mbps * 1e6


@pytest.mark.parametrize("case, mbps", [("Case I", 11), ("Case II", 4)])
def test_diamond_max_flow(case, mbps):
    # Case I: into #6, 4-6 (4, fed by 2-4 = 1 and 3-4 = 3) + 5-6 (7, fed by 2-5 = 6 and 3-5 = 1).
    # Case II: every inner link 2, so the cut {4-6, 5-6} = 4.
    assert pc.optimum(ptp_s2.diamond(case).scenario("PTP", "10s", 1)).value_bps == mbps * 1e6


def test_the_diamond_routes_only_the_texts_four_paths(real_core):
    import ndnflow

    # §6-C: "4 joint paths (1-2-3-4-6-7, 1-2-3-5-6-7, 1-2-4-6-7 and 1-2-5-6-7)". Their hops, each
    # costed by the links left to #7 along them: 2 -> 3 four (2-3-4-6-7), 2 -> 4 and 2 -> 5 three.
    scenario = ptp_s2.diamond("Case I").scenario("PTP", "5s", 1)
    doc = scenario.to_dict()
    assert doc["simulation"]["routing"] == "none"
    hops = {(r["node"], r["nexthop"]): r["cost"] for r in doc["routes"]}
    assert hops == {("n1", "n2"): 4, ("n2", "n3"): 4, ("n2", "n4"): 3, ("n2", "n5"): 3, ("n3", "n4"): 3,
                    ("n3", "n5"): 3, ("n4", "n6"): 2, ("n5", "n6"): 2, ("n6", "n7"): 1}
    # PTP's probes, drawn over those next hops, find the four paths and no other.
    paths = ndnflow.run(scenario, progress=False).summary["consumers"]["n1"]["paths"]
    assert len(paths) == 4 and len({tuple(p["tags"]) for p in paths}) == 4


def _consumers(rates):
    return pd.DataFrame([{"consumer": c, "time_s": float(t), "goodput_bps": r, "data": 0}
                         for c, r in rates.items() for t in range(60)])


def test_fairness_share_reads_the_goodputs_after_warmup():
    res = SimpleNamespace(summary={}, links=None, consumers=_consumers({"n1": 3e6, "n2": 1e6}))
    assert ptp_s3.multi_share(res) == 75.0


def test_cache_phases_end_at_the_bin_of_the_2000th_data():
    # #1 gets 100 Data per bin from 20 s: the 2000th arrives in the bin starting at 39 s.
    rows = [{"consumer": "n1", "time_s": float(t), "data": 100 if t >= 20 else 0, "goodput_bps": 0.0}
            for t in range(50)]
    res = SimpleNamespace(summary={}, links=None, consumers=pd.DataFrame(rows))
    assert ptp_s4.phases(res) == ((21.0, 39.0), (41.0, float("inf")))


def test_cache_precondition_consumer_five_is_done_before_twenty_seconds():
    from ndnflow.experiments import common
    res = common.run_variants(ptp_s4.scenarios(duration="20s"), progress=False)["PTP"]
    five = res.summary["consumers"]["n5"]
    assert five["finished"] and five["data_received"] == ptp_s4.CACHED and five["end_s"] < ptp_s4.START_S
