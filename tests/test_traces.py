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


def test_a_trace_read_in_pieces_is_the_whole_table(quickstart):
    # 300 ms at 100 ms bins: 3 bins x 6 link directions = 18 link rows; pieces of 5 rows give
    # 5, 5, 5 and 3 (ceil(18 / 5) = 4 pieces), and the last piece is followed by none.
    simulation = Scenario.from_file(quickstart).with_duration("300ms").build_simulation()
    simulation.run_until(simulation.duration_ns)
    traces = simulation.traces()
    assert traces.rows("links") == 18
    pieces = list(traces.chunks("links", 5))
    assert [len(piece["time_s"]) for piece in pieces] == [5, 5, 5, 3]
    whole = traces.table("links")
    for name, values in whole.items():
        joined = [value for piece in pieces for value in piece[name]]
        assert pd.Series(joined).equals(pd.Series(values)), name
    assert traces.rows("consumers") == sum(len(piece["time_s"]) for piece in traces.chunks("consumers", 2))
    with pytest.raises(ValueError, match="at least one row"):
        traces.chunks("links", 0)
    with pytest.raises(KeyError, match='no trace "link"'):
        traces.chunks("link", 5)


@pytest.mark.parametrize("format", ["parquet", "csv"])
def test_saved_traces_are_written_in_pieces_and_read_back_whole(quickstart, monkeypatch, tmp_path, format):
    from ndnflow import results as results_module

    scenario = Scenario.from_file(quickstart).with_duration("300ms")
    monkeypatch.setattr(results_module, "PIECE_ROWS", 5)
    whole = ndnflow.run(scenario, progress=False)
    expected = {trace: getattr(whole, trace) for trace in ("links", "consumers")}  # built, not streamed
    whole.save(tmp_path / "whole", format=format)
    streamed = ndnflow.run(scenario, progress=False)
    streamed.save(tmp_path / "pieces", format=format)
    # Written without building the DataFrames: a trace is never held whole.
    assert streamed._frames == {}
    loaded = Results.load(tmp_path / "pieces")
    for trace, frame in expected.items():
        assert loaded.__getattribute__(trace).equals(frame), trace
    # The same bytes whether the rows came whole or in pieces: a row group per PIECE_ROWS rows
    # either way (18 link rows: 4 row groups of 5, 5, 5 and 3).
    for name in (f"links.{format}", f"consumers.{format}"):
        assert (tmp_path / "pieces" / name).read_bytes() == (tmp_path / "whole" / name).read_bytes()
    if format == "parquet":
        import pyarrow.parquet as pq

        assert pq.ParquetFile(tmp_path / "pieces" / "links.parquet").metadata.num_row_groups == 4
