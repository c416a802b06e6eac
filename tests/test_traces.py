"""`Results`' traces: copied out of the core when first read, as the columns `results()` gives."""

from __future__ import annotations

import pandas as pd
import pytest

import ndnflow
from ndnflow import Results, Scenario


def test_results_copy_a_trace_from_the_core_when_first_read():
    calls = []

    class Traces:
        def table(self, name):
            calls.append(name)
            return {"time_s": [0.0, 0.1], "bytes": [3, 4]}

    results = Results.from_core({"summary": {"simulation": {"end_s": 0.2}}, "traces": Traces()})
    assert calls == [] and results.table()  # the summary's table reads no trace
    assert "links=2 rows, consumer rows=2" in repr(results) and calls == ["links", "consumers"]
    assert results.links is results.links and list(results.links["bytes"]) == [3, 4]
    assert list(results.paths["bytes"]) == [3, 4] and calls == ["links", "consumers", "paths"]


def test_real_traces_are_the_results_columns(quickstart):
    simulation = Scenario.from_file(quickstart).with_duration("300ms").build_simulation()
    simulation.run_until(simulation.duration_ns)
    raw, traces = simulation.results(), simulation.traces()
    for trace in ("links", "consumers", "paths", "objects", "interests", "faces", "nodes"):
        table = traces.table(trace)
        assert list(table) == list(raw[trace])
        for name, values in table.items():
            assert pd.Series(values).equals(pd.Series(raw[trace][name])), (trace, name)
    with pytest.raises(KeyError, match='no trace "link"; the traces are links, consumers, paths, objects, interests, faces, nodes'):
        traces.table("link")
    # The frame keeps the core's arrays as its columns: they are writable, as a copy was.
    results = ndnflow.run(Scenario.from_file(quickstart).with_duration("300ms"), progress=False)
    results.links.loc[0, "bytes"] = 5
    assert results.links["bytes"].iloc[0] == 5
