"""The per-segment trace (``[trace] interests = true``, `Results.interests`, ``interests.parquet``:
ndnSIM's AppDelayTracer) and the RTT percentiles of the summary.

The identity the rows satisfy (docs/protocols/links.md, "Traces"): rows with an arrival are the
consumer's ``data_received``, rows without one its ``abandoned``, and the rows' retransmissions add
up to its ``retransmissions`` once no segment is left unsettled (``pending`` 0, finished): a
segment still outstanding or waiting to be resent at the end has no row yet.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import ndnflow
from ndnflow import Results, Scenario
from ndnflow.plot import plot_results


def line(window=30, queue=5, segments=2000):
    """c - p at 10 Mbit/s and 10 ms, a droptail queue of `queue` packets: a window of 30 over a
    bandwidth-delay product of about 24 packets of 1079 B overflows it, so segments are resent."""
    sc = Scenario(duration="10s", seed=1).nodes("c", "p")
    sc.link("c", "p", bandwidth="10Mbps", delay="10ms", queue=queue)
    sc.producer("p", "/p")
    return sc.consumer("c", "/p/obj", window=window, segments=segments).trace(interests=True)


def ptp_diamond():
    """c - r - {a, b} - p, every node a PTP router, the a - p link at 5 Mbit/s with a queue of 10:
    PTP's consumer spreads over both paths and loses some Interests on the narrow one."""
    sc = Scenario(duration="10s", seed=1)
    for node in ("c", "r", "a", "b", "p"):
        sc.node(node, ptp=True)
    for a, b in (("c", "r"), ("r", "a"), ("r", "b"), ("a", "p"), ("b", "p")):
        sc.link(a, b, bandwidth="5Mbps" if a == "a" else "10Mbps", delay="5ms", queue=10)
    sc.producer("p", "/p")
    return sc.consumer("c", "/p/obj", cc={"algorithm": "ptp"}, segments=500).trace(interests=True)


def check_identity(results: Results, consumer: str = "c") -> pd.DataFrame:
    c = results.summary["consumers"][consumer]
    rows = results.interests[results.interests["consumer"] == consumer]
    assert c["finished"] and c["pending"] == 0, "the identity is exact for a consumer with nothing unsettled"
    assert rows["arrival_s"].notna().sum() == c["data_received"]
    assert rows["arrival_s"].isna().sum() == c["abandoned"]
    # A row with Data says where it came from; the summary counts the stores' answers.
    assert rows["hops"].notna().sum() == c["data_received"]
    assert rows["from_cache"].sum() == c["data_from_cache"]
    assert rows["retransmissions"].sum() == c["retransmissions"] > 0
    answered = rows[rows["arrival_s"].notna()]
    # Full delay = last delay + the time between first and last send, which is 0 without resends.
    gap = answered["last_sent_s"] - answered["first_sent_s"]
    assert np.allclose(answered["full_delay_s"], answered["last_delay_s"] + gap, rtol=0, atol=1e-12)
    assert (gap[answered["retransmissions"] == 0] == 0).all()
    assert (gap[answered["retransmissions"] > 0] > 0).all()
    return rows


def test_rows_add_up_to_the_summary_on_a_lossy_line(real_core):
    results = ndnflow.run(line(), progress=False)
    rows = check_identity(results)
    assert rows["path"].isna().all(), "a single-path consumer has no path"
    assert sorted(rows["segment"]) == list(range(2000)), "one row per segment"


def test_rows_add_up_to_the_summary_for_a_ptp_consumer(real_core):
    results = ndnflow.run(ptp_diamond(), progress=False)
    rows = check_identity(results)
    # Paths as the consumer knows them: indices into its paths (summary and paths.parquet); a
    # segment whose last Interest was a probe has none.
    paths = results.summary["consumers"]["c"]["paths"]
    used = set(rows["path"].dropna().astype(int))
    assert used == set(range(len(paths))) and len(paths) == 2


def test_percentiles_are_those_of_the_rtt_samples_within_the_histogram_error(real_core):
    # The RTT samples are the last delays of the segments answered without a resend (Karn's
    # rule). The summary's percentiles come from a log-linear histogram whose buckets are 1/128
    # of an octave wide and which reports their midpoints: within 1/256 of the exact nearest-rank
    # percentile (numpy's "inverted_cdf").
    results = ndnflow.run(line(), progress=False)
    rows = results.interests
    samples = rows.loc[(rows["retransmissions"] == 0) & rows["arrival_s"].notna(), "last_delay_s"] * 1e3
    c = results.summary["consumers"]["c"]
    for p in (50, 95, 99):
        exact = float(np.percentile(samples, p, method="inverted_cdf"))
        assert c[f"rtt_p{p}_ms"] == pytest.approx(exact, rel=1 / 256), p
    assert c["rtt_p50_ms"] <= c["rtt_p95_ms"] <= c["rtt_p99_ms"] <= c["rtt_max_ms"]


def test_percentiles_are_in_the_summary_with_the_trace_off(real_core):
    sc = line()
    sc.trace(interests=False)
    results = ndnflow.run(sc, progress=False)
    assert results.interests.empty
    c = results.summary["consumers"]["c"]
    assert c["rtt_min_ms"] <= c["rtt_p50_ms"] <= c["rtt_p99_ms"] <= c["rtt_max_ms"]
    assert "RTT p50/p95/p99" in results.table()


def test_the_trace_is_saved_loaded_and_drawn(real_core, tmp_path):
    from ndnflow.results import INTEREST_COLUMNS

    results = ndnflow.run(line(segments=300), progress=False)
    assert [str(results.interests[c].dtype) for c in INTEREST_COLUMNS] == list(INTEREST_COLUMNS.values())
    written = {p.name for p in results.save(tmp_path)}
    assert "interests.parquet" in written
    pd.testing.assert_frame_equal(Results.load(tmp_path).interests, results.interests)
    figures = {p.name for p in plot_results(results, tmp_path)}
    assert "delay.png" in figures
    assert (tmp_path / "delay.png").stat().st_size > 10_000
    # Without the trace: no file (a stale one goes) and no delay figure.
    off = line(segments=300)
    off.trace(interests=False)
    plain = ndnflow.run(off, progress=False)
    assert "interests.parquet" not in {p.name for p in plain.save(tmp_path)}
    assert not (tmp_path / "interests.parquet").exists()
    assert "delay.png" not in {p.name for p in plot_results(plain, tmp_path / "off")}


def test_the_trace_key_round_trips_through_toml():
    sc = Scenario(duration="1s").trace(interests=True)
    text = sc.to_toml()
    assert "[trace]\ninterests = true" in text
    assert Scenario.from_toml(text).to_dict()["trace"] == {"interests": True}
