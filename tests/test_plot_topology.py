"""The network figure (issue 24, "Topologies"): each link's load is its busier direction's mean
throughput over its bit rate, and the figure is drawn only when the results carry their scenario."""

import pytest

import ndnflow
from ndnflow.plot import plot_results
from ndnflow.plot_topology import link_loads, _network

# c - r - p, 10 Mbit/s and 5 ms each way; a constant 100 Interests/s for 10 s in 100 ms bins.
CHAIN = """
[simulation]
duration = "10s"
[nodes]
c = {}
r = {}
p = {}
[[links]]
between = ["c", "r"]
bandwidth = "10Mbps"
delay = "5ms"
[[links]]
between = ["r", "p"]
bandwidth = "10Mbps"
delay = "5ms"
[[producers]]
node = "p"
prefix = "/p"
payload = 1024
[[consumers]]
node = "c"
name = "/p/o"
cc = { algorithm = "constant-rate", rate = 100.0 }
"""


@pytest.fixture(scope="module")
def chain():
    return ndnflow.run(ndnflow.Scenario.from_toml(CHAIN))


def test_a_links_load_is_its_data_directions_rate(chain):
    # The Data direction is the busier one: 100 Data/s of W bytes on the wire each, W read from
    # the summary, is 100 x 8 W bit/s of the 10 Mbit/s, about 0.086 for W near 1,080. Every
    # 100 ms bin carries 10 Data but the first (the first Data leaves p 10 ms after the first
    # Interest, 20 ms before r->c), so the mean over 100 bins is within 1 % of it.
    data = chain.summary["links"]["p->r"]
    wire = data["bytes"] / data["data"]
    loads = link_loads(chain, _network(chain))
    util, queue = loads[("p", "r")]
    assert util == pytest.approx(100 * 8 * wire / 10e6, rel=0.01)
    # 100 Data/s against 1,157 the link can carry: nothing waits at a bin's end.
    assert queue == 0.0
    assert set(loads) == {("c", "r"), ("p", "r")}


def test_the_figure_is_drawn_with_a_scenario_and_not_without(chain, tmp_path):
    written = [p.name for p in plot_results(chain, tmp_path / "with")]
    assert "topology.png" in written
    chain_without = ndnflow.Results(chain.summary, chain.links, chain.consumers)
    written = [p.name for p in plot_results(chain_without, tmp_path / "without")]
    assert "topology.png" not in written
    # Asked for by name, it says what is missing instead of failing.
    assert [p.name for p in plot_results(chain_without, tmp_path / "named", names=["topology.png"])] == ["topology.png"]
