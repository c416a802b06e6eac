"""`ndnflow bench --suite` (ndnflow.bench_suite): every case runs in its short mode and reports
positive figures; the memory-per-unit arithmetic and the variant files it runs."""

from __future__ import annotations

import json
import sys

import pytest

from ndnflow.bench_cases import CASES, dumbbell
from ndnflow.bench_suite import CaseFiles, per_unit
from ndnflow.cli import main

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib


def test_every_case_runs_in_short_mode_and_reports_positive_figures(real_core, capsys):
    assert main(["bench", "--suite", "--short", "--json"]) == 0
    results = json.loads(capsys.readouterr().out)
    assert sorted(results) == sorted(CASES)
    for name, r in results.items():
        case = CASES[name]
        assert r["simulated_s"] == pytest.approx(case.short_s), f"{name} stopped before its end"
        for figure in ("packet_hops_per_s", "events_per_s", "peak_kib", "bytes_per_trace_row"):
            assert r[figure] > 0, (name, figure, r[figure])
        # Only the dumbbell and the Zipf catalog have Content Stores.
        if name in ("dumbbell", "zipf-cache"):
            assert r["cached_data"] > 0 and r["bytes_per_cached_data"] > 0, (name, r)
        else:
            assert r["cached_data"] == 0 and r["bytes_per_cached_data"] is None, (name, r)
    # Rows = bins x (link directions + consumers). The grid's 100 nodes have 185 links (a 10 x 10
    # grid's 180 plus 100 / 20 diagonals) and 200 consumers, 0.3 s of 100 ms bins: 3 x 570. The
    # dumbbell's 5 links and 2 consumers over 40 s: 400 x 12.
    assert results["grid"]["trace_rows"] == 3 * (2 * 185 + 200)
    assert results["dumbbell"]["trace_rows"] == 400 * (2 * 5 + 2)


def test_per_unit_is_the_difference_of_peaks_over_the_difference_of_counts():
    # 3 MiB more for 2,048 more rows: 3 * 1024 * 1024 / 2048 = 1,536 bytes a row.
    more = {"peak_kib": 10 * 1024, "trace_rows": 4096}
    fewer = {"peak_kib": 7 * 1024, "trace_rows": 2048}
    assert per_unit(more, fewer, "trace_rows") == 1536.0
    assert per_unit(more, more, "trace_rows") is None


def test_variant_files_change_only_their_section(tmp_path):
    files = CaseFiles(CASES["dumbbell"], 40.0, 1, str(tmp_path))
    base = tomllib.loads(open(files.base(), encoding="utf-8").read())
    assert base == dumbbell(40.0, 1).to_dict()
    assert files.bin_ns() == 100_000_000  # the format's default: the dumbbell sets none
    narrow = tomllib.loads(open(files.narrow_bins(25_000_000), encoding="utf-8").read())
    assert narrow["simulation"]["bin"] == "25000000ns"
    assert {k: v for k, v in narrow.items() if k != "simulation"} == {k: v for k, v in base.items() if k != "simulation"}
    off = tomllib.loads(open(files.stores_off(), encoding="utf-8").read())
    assert all(settings["cs"] == {"policy": "off"} for settings in off["nodes"].values())
    assert {k: v for k, v in off.items() if k != "nodes"} == {k: v for k, v in base.items() if k != "nodes"}


def test_dumbbell_is_ndnsims_congestion_example():
    # ndnSIM's examples/ndn-congestion-topo-plugin.cpp on topologies/topo-6-node.txt.
    doc = dumbbell(4000.0).to_dict()
    links = {tuple(link["between"]): (link["bandwidth"], link["delay"], link["queue"]) for link in doc["links"]}
    assert links[("Rtr1", "Rtr2")] == ("1Mbps", "10ms", {"discipline": "droptail", "packets": 20})
    assert sorted(bw for bw, _, _ in links.values()) == ["10Mbps"] * 4 + ["1Mbps"]
    assert all(settings["cs"] == {"policy": "lru", "capacity": 10_000} for settings in doc["nodes"].values())
    assert [(c["node"], c["name"], c["cc"]) for c in doc["consumers"]] == [
        ("Src1", "/dst1", {"algorithm": "constant-rate", "rate": 100.0}),
        ("Src2", "/dst2", {"algorithm": "constant-rate", "rate": 100.0})]
    assert [(p["node"], p["prefix"], p["payload"]) for p in doc["producers"]] == [("Dst1", "/dst1", 1024),
                                                                                  ("Dst2", "/dst2", 1024)]
