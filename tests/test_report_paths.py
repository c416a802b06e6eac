"""The run table's paths section (`ndnflow.report.paths_table`): the nodes column, read from
summary.json's `nodes` of each path where the simulator could read a tag stack back."""

from __future__ import annotations

from ndnflow.report import paths_table


def test_a_nodes_column_shows_each_tag_stack_read_back():
    # The tree's two PTP paths (crates/ndnflow-sim/tests/ptp.rs reads them back by hand), and a
    # third in use whose stack the simulator could not read (no nodes): a dash.
    paths = [
        {"tags": [2, 1, 1, 0], "nodes": ["p", "a", "r", "c"], "state": "in-use", "window": 20.0, "srtt_ms": 30.5,
         "data": 900, "timeouts": 0},
        {"tags": [2, 1, 2, 0], "nodes": ["p", "b", "r", "c"], "state": "in-use", "window": 10.0, "srtt_ms": 30.5,
         "data": 450, "timeouts": 1},
        {"tags": [7], "state": "in-use", "window": 1.0, "srtt_ms": None, "data": 0, "timeouts": 0},
    ]
    table = paths_table({"consumers": {"c": {"paths": paths}}})
    assert table == (
        "consumer  path  state   route    nodes    data  window  SRTT ms  timeouts  sharing\n"
        "--------  ----  ------  -------  -------  ----  ------  -------  --------  -------\n"
        "c            0  in-use  2 1 1 0  p-a-r-c   900    20.0    30.50         0        -\n"
        "c            1  in-use  2 1 2 0  p-b-r-c   450    10.0    30.50         1        -\n"
        "c            2  in-use  7        -           0     1.0        -         0        -"
    )


def test_without_nodes_on_any_path_there_is_no_nodes_column():
    # SMIC's path ids are not a tag stack, so summary.json gives them no nodes.
    paths = [{"tags": [0, 1, 3, 7], "state": "in-use", "window": 3.0, "srtt_ms": 20.0, "data": 10, "timeouts": 0,
              "sharing": 1}]
    header = paths_table({"consumers": {"m": {"paths": paths}}}).splitlines()[0]
    assert header.split() == ["consumer", "path", "state", "route", "data", "window", "SRTT", "ms", "timeouts",
                              "sharing"]
