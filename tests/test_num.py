"""ndnflow.optimum.num: the NUM optimum of DPCCP §IV (eq. (1), log utility of eq. (12)), against cases
solved by hand."""

from __future__ import annotations

import math

import pytest

from ndnflow import Scenario
from ndnflow.optimum import duality_gap, num, num_paths
from ndnflow.optimum import OptimumError, max_flow


def test_two_flows_one_shared_link_and_one_private():
    # Flow 1 has a path over the shared link L1 (10) and one over its private L2 (4); flow 2 only
    # L1. L2 is flow 1's for free: x2 = 4. Then y1 = x1 + 4 and y2 = 10 - x1, and
    # d/dx1 [log(x1 + 4) + log(10 - x1)] = 0 gives x1 = 3: both flows 7. The prices: flow 2's path
    # costs 1 / y2 = 1/7 on L1; flow 1 uses both paths, so each costs 1 / y1 = 1/7 (eq. (11)).
    best = num({"L1": 10.0, "L2": 4.0}, {"f1": {"shared": {"L1": 1.0}, "private": {"L2": 1.0}}, "f2": {"only": {"L1": 1.0}}})
    assert best.flows == pytest.approx({"f1": 7.0, "f2": 7.0}, rel=1e-6)
    assert best.subflows == pytest.approx({("f1", "shared"): 3.0, ("f1", "private"): 4.0, ("f2", "only"): 7.0}, rel=1e-6)
    assert best.links == pytest.approx({"L1": 10.0, "L2": 4.0}, rel=1e-6)
    assert best.prices == pytest.approx({"L1": 1 / 7, "L2": 1 / 7}, rel=1e-4)
    assert best.utility == pytest.approx(2 * math.log(7.0))


def test_proportional_not_max_min_fairness():
    # Kelly's line: flow 0 crosses L1 and L2 (1 each), flows 1 and 2 one link each. Maximising
    # log x0 + 2 log(1 - x0) gives 1 / x0 = 2 / (1 - x0): x0 = 1/3, the others 2/3 (max-min
    # fairness would give everyone 1/2).
    best = num({"L1": 1.0, "L2": 1.0}, {"long": {"p": {"L1": 1.0, "L2": 1.0}}, "one": {"p": {"L1": 1.0}},
                                        "two": {"p": {"L2": 1.0}}})
    assert best.flows == pytest.approx({"long": 1 / 3, "one": 2 / 3, "two": 2 / 3}, rel=1e-6)


def test_weights_share_a_link_in_their_proportion():
    # One link of 6 shared by flows of weights 1 and 2: w_s / y_s equal at the optimum, y = 2 and 4.
    best = num({"L": 6e6}, {"a": {"p": {"L": 1.0}}, "b": {"p": {"L": 1.0}}}, weights={"b": 2.0})
    assert best.flows == pytest.approx({"a": 2e6, "b": 4e6}, rel=1e-6)


def test_a_cache_share_loosens_the_links_behind_it():
    # §IV-A, Figure 3: router B serves 40 % of the segments, so the sub-flow puts 1.0 of its rate
    # on B->A and 0.6 on C->B. With C->B at 3 the flow reaches 3 / 0.6 = 5 (B->A's 10 is not the
    # limit): y = 5, B->A carries 5 and C->B 3.
    best = num({"B->A": 10.0, "C->B": 3.0}, {"A": {"C-B-A": {"B->A": 1.0, "C->B": 0.6}}})
    assert best.flows["A"] == pytest.approx(5.0, rel=1e-6)
    assert best.links == pytest.approx({"B->A": 5.0, "C->B": 3.0}, rel=1e-6)


@pytest.mark.parametrize("capacities, routing, weights, message", [
    ({"L": 1.0}, {}, None, "no flows"),
    ({"L": 1.0}, {"f": {}}, None, "flow 'f' has no sub-flows"),
    ({"L": 1.0}, {"f": {"r": {}}}, None, "crosses no link"),
    ({"L": 1.0}, {"f": {"r": {"M": 1.0}}}, None, "link 'M' has no capacity"),
    ({"L": 1.0}, {"f": {"r": {"L": 1.5}}}, None, "share 1.5 of link 'L' is not in (0, 1]"),
    ({"L": 0.0}, {"f": {"r": {"L": 1.0}}}, None, "capacity 0.0 is not positive"),
    ({"L": 1.0}, {"f": {"r": {"L": 1.0}}}, {"g": 1.0}, "weight for unknown flow 'g'"),
    ({"L": 1.0}, {"f": {"r": {"L": 1.0}}}, {"f": -1.0}, "weight -1.0 is not positive"),
])
def test_bad_models_are_named(capacities, routing, weights, message):
    with pytest.raises(OptimumError) as info:
        num(capacities, routing, weights)
    assert message in str(info.value)


def diamond(consumers: int = 1) -> Scenario:
    """c - r - {a: 10, b: 5 Mbit/s} - p (p's links 100 Mbit/s, c's 100), `consumers` on c."""
    sc = Scenario(duration="1s", seed=1).nodes("c", "r", "a", "b", "p")
    for a, b, bw in (("c", "r", "100Mbps"), ("r", "a", "10Mbps"), ("r", "b", "5Mbps"), ("a", "p", "100Mbps"),
                     ("b", "p", "100Mbps")):
        sc.link(a, b, bandwidth=bw, delay="5ms")
    sc.producer("p", "/p")
    for k in range(consumers):
        sc.consumer("c", f"/p/{k}", window=10)
    return sc


def test_num_paths_on_a_diamond_reaches_the_max_flow(real_core):
    # One consumer: its two paths p-a-r-c and p-b-r-c fill a (10) and b (5), the max flow.
    capacities, routing = num_paths(diamond())
    assert sorted(routing["c"]) == ["p-a-r-c", "p-b-r-c"]
    assert routing["c"]["p-a-r-c"] == {"p->a": 1.0, "a->r": 1.0, "r->c": 1.0}
    best = num(capacities, routing)
    assert best.flows["c"] == pytest.approx(max_flow(diamond()).value_bps, rel=1e-6)
    assert best.flows["c"] == pytest.approx(15e6, rel=1e-6)


def test_num_paths_shares_between_consumers_of_one_node(real_core):
    # Two consumers on c with the same two paths: symmetric, so each gets half of 15 Mbit/s.
    capacities, routing = num_paths(diamond(consumers=2))
    best = num(capacities, routing)
    assert best.flows == pytest.approx({"c#0": 7.5e6, "c#1": 7.5e6}, rel=1e-5)


def test_duality_gap_by_hand():
    # One link of 1 shared by two flows of one path each (w = 1). At x = (0.5, 0.5) with price 2:
    # D = 2 (log(1 / 2) - 1) + 2 * 1 = 2 log 0.5 = the utility, gap 0. At x = (0.4, 0.4), the same
    # price: gap = 2 log 0.5 - 2 log 0.4 = 2 log 1.25 = 0.4463.
    import numpy as np

    A, B, c, w = np.array([[1.0, 1.0]]), np.eye(2), np.array([1.0]), np.array([1.0, 1.0])
    assert duality_gap(np.array([0.5, 0.5]), [2.0], A, B, c, w) == pytest.approx(0.0, abs=1e-12)
    assert duality_gap(np.array([0.4, 0.4]), [2.0], A, B, c, w) == pytest.approx(2 * math.log(1.25))
    assert duality_gap(np.array([0.5, 0.5]), [0.0], A, B, c, w) == math.inf  # a free path


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_num_on_abilene_with_fast_leaves_converges(real_core, seed):
    # dpccp-mp4's network: a 10 Mbit/s backbone, 100 Mbit/s leaves, 70-90 sub-flows. Scaled by the
    # largest capacity, SLSQP found its linearised constraints incompatible (seed 1) or stopped
    # short of the optimum (seed 2); at 1e-13 it stops on its line search, and the duality gap
    # certifies that stop. Chicago's two links (20 Mbit/s) are a cut between /Amazon's repository
    # and its four consumers.
    from ndnflow.experiments import dpccp_mp4

    capacities, routing = num_paths(dpccp_mp4.scenarios("1s", seed)["DPCCP"])
    best = num(capacities, routing)
    amazon = [c.leaf for c in dpccp_mp4.draw(seed) if c.prefix == "/Amazon"]
    assert 0 < sum(best.flows[leaf] for leaf in amazon) <= 20e6 * (1 + 1e-9)
    assert all(load <= capacities[link] * (1 + 1e-9) for link, load in best.links.items())
