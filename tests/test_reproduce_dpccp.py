"""DPCCP §VII's experiments: the reconstructed topologies give the optima the pages derive, and
the metrics read synthetic traces as the pages say."""

from types import SimpleNamespace

import pandas as pd
import pytest

from ndnflow.experiments import dpccp_common as dc
from ndnflow.experiments import dpccp_mp1, dpccp_mp2, dpccp_mp3, dpccp_sp1, dpccp_sp3
from ndnflow.experiments import ptp_common as pc


def _links(rates, seconds=200, step=0.5):
    """A links trace: `rates` maps link -> function of time giving bits/s."""
    rows = [{"link": link, "time_s": k * step, "throughput_bps": f(k * step)}
            for link, f in rates.items() for k in range(int(seconds / step))]
    return SimpleNamespace(summary={}, consumers=None, links=pd.DataFrame(rows))


def test_every_solution_has_the_papers_settings():
    nodes, cc, _ = dc.SOLUTIONS["DPCCP"]
    assert nodes["ptp"] and cc == {"algorithm": "dpccp"}
    assert set(dc.SOLUTIONS) == {"DPCCP", "OMCC-RF", "PCON", "MIRCC"}
    # MIRCC: its rates at every link and node, on PTP's path switching (DPCCP §II).
    nodes, cc, links = dc.SOLUTIONS["MIRCC"]
    assert nodes == {"ptp": True, "mircc": True} and cc == {"algorithm": "mircc"}
    assert links["queue"]["discipline"] == "mircc"


def test_sp1_nearly_empty_is_one_data_transmission():
    # A Data of about 1,090 bytes takes 1,090 x 8 / 10^7 s = 0.872 ms at D-C (10 Mbit/s) and
    # 0.145 ms at C-B (60 Mbit/s); a mean sojourn of 1.744 ms at D-C is two of them.
    assert dpccp_sp1.DATA_TIME_MS["n4->n3"] == pytest.approx(0.872)
    assert dpccp_sp1.DATA_TIME_MS["n3->n2"] == pytest.approx(0.872 / 6)
    res = SimpleNamespace(links=pd.DataFrame([{"link": "n4->n3", "time_s": 0.0, "sojourn_ms": 1.744,
                                                "packets": 10}]))
    assert dpccp_sp1.queue_in_data_times(res, 0.4) == pytest.approx(2.0)


def test_mp1_bottleneck_is_d_c():
    # A alone: E-D + F-D = 40 Mbit/s of sources, but D-C carries 30.
    sc = dpccp_mp1.TOPOLOGY.scenario("DPCCP", "10s", 1, solutions=dc.SOLUTIONS)
    assert pc.optimum(sc, "n1").value_bps == 30e6


def test_mp1_num_optimum_splits_d_c_in_two():
    # Log utility, one 30 Mbit/s bottleneck shared by both flows (A's paths via E and F both
    # cross D-C): 15 each, whichever way A splits.
    best = dpccp_mp1.num_optimum_bps()
    assert best["n1"] == pytest.approx(15e6, rel=1e-4) and best["n2"] == pytest.approx(15e6, rel=1e-4)


def test_sp3_flow_one_alone_is_held_by_f_e():
    sc = dpccp_sp3.TOPOLOGY.scenario("DPCCP", "10s", 1, solutions=dc.SOLUTIONS)
    assert pc.optimum(sc, "n1").value_bps == 20e6


@pytest.mark.parametrize("module", [dpccp_mp2, dpccp_mp3])
def test_mp2_mp3_share_ptps_topologies(module):
    # The same max flows as PTP's Scenarios 1 and 2 (tree: 10 Mbit/s in both cases; diamond: 11 and 4).
    values = [pc.optimum(module.reference(case)).value_bps for case in module.CASES]
    assert values == ([10e6, 10e6] if module is dpccp_mp2 else [11e6, 4e6])


def test_drop_share_counts_each_data_once():
    # D sent 600 Data and C's cache answered 400; C's out_data (1000) also carries D's 600 and
    # must not count again: 5 drops in 1000 Data.
    nodes = {"n3": {"out_data": 1000, "cs_hits": 400}, "n4": {"out_data": 600}}
    links = {"n4->n3": {"drops": 3}, "n3->n2": {"drops": 2}}
    res = SimpleNamespace(summary={"nodes": nodes, "links": links}, consumers=None, links=None)
    assert dpccp_sp1.drop_share(res) == 5 / 1000


def test_split_ratio_reads_the_consumer_links_after_b_converged():
    # A at 18 Mbit/s, B at 12 over 70-100 s (B at 0 before 60 s does not count): 1.5.
    res = _links({"n3->n1": lambda t: 18e6, "n3->n2": lambda t: 12e6 if t >= 60 else 0.0}, seconds=100)
    assert dpccp_mp1.ratio(res) == 1.5


def test_convergence_time_is_the_first_second_near_the_share():
    # Flow 2 from 50 s ramps 1 Mbit/s per second: 13.5 (within 10 % of 15) at 63.5 s, so its
    # 1 s bin [63, 64) has mean 13.25 (no), [64, 65) 14.25 (yes): 14 s.
    res = _links({"n4->n2": lambda t: max(0.0, t - 50.0) * 1e6}, seconds=100)
    assert dpccp_sp3.convergence_s(res, "n2", 50.0, 15.0) == 14.0
    # Never near: infinite.
    assert dpccp_sp3.convergence_s(res, "n2", 50.0, 100.0) == float("inf")
