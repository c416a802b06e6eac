"""The catalog consumer's per-object table (`Results.objects`, `objects.parquet`) and its
completion-time CDF (issue 20's workload, SMIC §5)."""

from __future__ import annotations

import pandas as pd

import ndnflow
from ndnflow import Results, Scenario


def line(duration="1s"):
    """c --10 Mbit/s, 10 ms-- p; objects of 100 segments of 1024 B, all requested at once."""
    sc = Scenario(duration=duration, seed=1).node("c").node("p").link("c", "p", bandwidth="10Mbps", delay="10ms")
    sc.producer("p", "/cat", segments=100)
    return sc.consumer("c", "/cat", segments=100, window=200, catalog={"objects": 9, "alpha": 1.0})


def test_objects_are_a_table_saved_and_loaded_with_the_schema_dtypes(real_core, tmp_path):
    from ndnflow.results import OBJECT_COLUMNS

    results = ndnflow.run(line(), progress=False)
    objects = results.objects
    assert [str(objects[c].dtype) for c in OBJECT_COLUMNS] == list(OBJECT_COLUMNS.values())
    # 1 s / 106.7456 ms per object (crates/ndnflow-sim/tests/catalog.rs derives it): nine done.
    done = objects[objects["end_s"].notna()]
    assert len(done) == 9 and len(objects) == 10
    assert ((done["end_s"] - done["start_s"]) - 0.1067456).abs().max() < 1e-6
    catalog = results.summary["consumers"]["c"]["catalog"]
    assert catalog["objects_completed"] == 9
    assert objects["bytes"].sum() == results.summary["consumers"]["c"]["payload_bytes"]
    written = [p.name for p in results.save(tmp_path)]
    assert "objects.parquet" in written
    pd.testing.assert_frame_equal(Results.load(tmp_path).objects, objects)
    # A run without a catalog consumer leaves no stale table behind.
    plain = Scenario(duration="1s", seed=1).node("c").node("p").link("c", "p", bandwidth="10Mbps", delay="5ms")
    single = ndnflow.run(plain.producer("p", "/p").consumer("c", "/p/obj", window=4), progress=False)
    assert single.objects.empty
    single.save(tmp_path)
    assert not (tmp_path / "objects.parquet").exists()
    assert Results.load(tmp_path).objects.empty


def test_the_overview_draws_the_completion_time_cdf_only_for_catalog_runs(real_core, tmp_path):
    from ndnflow.plot import _panels, draw_completion_cdf, plot_results

    results = ndnflow.run(line(), progress=False)
    assert draw_completion_cdf in _panels("overview.png", results)
    assert "objects.png" in [p.name for p in plot_results(results, tmp_path / "a")]
    plain = Results(results.summary, results.links, results.consumers)
    assert draw_completion_cdf not in _panels("overview.png", plain)
    assert "objects.png" not in [p.name for p in plot_results(plain, tmp_path / "b")]


def test_a_multipath_catalog_consumer_counts_the_paths_of_each_object(real_core):
    """c - r - {a, b} - p with PTP: the first object of 200 segments comes over both paths."""
    sc = Scenario(duration="1s", seed=1)
    for node in ("c", "r", "a", "b", "p"):
        sc.node(node, ptp=True)
    for a, b in (("c", "r"), ("r", "a"), ("r", "b"), ("a", "p"), ("b", "p")):
        sc.link(a, b, bandwidth="10Mbps", delay="5ms")
    sc.producer("p", "/cat", segments=200)
    sc.consumer("c", "/cat", segments=200, cc={"algorithm": "ptp"}, catalog={"objects": 100, "alpha": 1.0})
    results = ndnflow.run(sc, progress=False)
    first = results.objects.iloc[0]
    assert first["end_s"] > 0 and first["bytes"] == 200 * 1024
    # Both paths delivered some of its Data (the summary's per-path counts are all non-zero).
    assert [p["data"] > 0 for p in results.summary["consumers"]["c"]["paths"]] == [True, True]
    assert first["paths"] == 2
