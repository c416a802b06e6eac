"""NFD's ASF strategy from Python (docs/protocols/forwarder.md, section asf): its parameters take
NFD's hyphenated names in a strategy table, a probing interval under NFD's 1 s minimum is refused
naming the field, and with a single next hop (nothing to probe, nothing to rank) it forwards as
best-route does, retransmissions included."""

from __future__ import annotations

import pytest

import ndnflow
from ndnflow import Scenario, ScenarioError

from conftest import ROOT


def quickstart(strategy, queue_packets=None):
    doc = Scenario.from_file(ROOT / "examples" / "quickstart.toml").to_dict()
    doc["nodes"]["r"] = {**doc["nodes"].get("r", {}), "strategy": strategy}
    if queue_packets is not None:
        doc["links"][2]["queue"]["packets"] = queue_packets
    return Scenario().with_document(doc)


@pytest.mark.parametrize("queue_packets", [None, 10])
def test_asf_on_one_path_forwards_as_best_route(real_core, queue_packets):
    asf = {"name": "asf", "probing-interval": "1s", "max-timeouts": 2}
    a = ndnflow.run(quickstart(asf, queue_packets), progress=False)
    b = ndnflow.run(quickstart("best-route", queue_packets), progress=False)
    for table in ("links", "consumers"):
        assert getattr(a, table).equals(getattr(b, table)), table
    if queue_packets:
        assert a.summary["consumers"]["c1"]["retransmissions"] > 0


def test_a_probing_interval_below_one_second_is_refused(real_core):
    with pytest.raises(ScenarioError, match="probing-interval.*at least 1s"):
        ndnflow.run(quickstart({"name": "asf", "probing-interval": "500ms"}), progress=False)
