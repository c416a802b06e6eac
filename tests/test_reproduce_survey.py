"""The survey's scenarios in `ndnflow reproduce` (Thibaud et al., Sce1-Sce3): metric functions on
hand-made inputs whose values can be worked out by hand, one real run of survey-sce1 (about 2 s)
and a shortened Sce3 run."""

from __future__ import annotations

import json
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

import ndnflow
from ndnflow import experiments
from ndnflow.experiments import survey_common as sv
from ndnflow.experiments import survey_sce1, survey_sce2, survey_sce3

T = np.round(np.arange(0, 60, 0.1), 1)  # 0.1 s bins
MBPS_PER_DATA_PER_BIN = sv.CHUNK * 8 / 0.1 / 1e6  # one Data per 0.1 s bin: 0.672 Mbit/s


def fake(summary, links, consumers):
    return SimpleNamespace(summary=summary, links=pd.DataFrame(links), consumers=pd.DataFrame(consumers))


def column(value):
    return [float(value(t)) for t in T]


def link(name, **columns):
    out = {"link": [name] * len(T), "time_s": list(T)}
    for key, value in columns.items():
        out[key] = column(value)
    return out


def consumer(name, **columns):
    out = {"consumer": [name] * len(T), "time_s": list(T)}
    for key, value in columns.items():
        out[key] = column(value)
    return out


def concat(*tables):
    return {key: sum((t[key] for t in tables), []) for key in tables[0]}


# --------------------------------------------------------------------------------- survey-sce1


def test_sce1_fig3_and_both_paths_by_hand():
    # Path 1 drops one Data in the bin at 4.7 s; 74 Data per bin on path 1, 70 on path 2.
    links = concat(link("r3->r1", data=lambda t: 74, drops=lambda t: 1 if abs(t - 4.7) < 0.05 else 0,
                        throughput_bps=lambda t: 0.0, sojourn_ms=lambda t: 0.0, packets=lambda t: 0),
                   link("r2->r1", data=lambda t: 70, drops=lambda t: 0, throughput_bps=lambda t: 0.0,
                        sojourn_ms=lambda t: 0.0, packets=lambda t: 0))
    consumers = consumer("u1", window=lambda t: 65.0 if abs(t - 4.7) < 0.05 else 10.0, rtt_ms=lambda t: 91.0,
                         goodput_bps=lambda t: 0.0)
    summary = {"links": {"r3->r1": {"packets": 1000, "bytes": 8_459_000, "data": 1000},
                         "r2->r1": {"packets": 0, "bytes": 0, "data": 0}}}
    res = fake(summary, links, consumers)
    f3 = survey_sce1.fig3(res)
    assert f3["time_s"] == pytest.approx(4.7)
    assert f3["window"] == 65.0
    # Data of 8459 B: 0.67672 ms on U1-R1 (100 Mbit/s), so R1's RTT is 91 - 20 - 0.67672 =
    # 70.32328 ms; rate 50e6 / (8 x 8459) = 738.858 Data/s; C = 51.959 + 21 = 72.959.
    assert f3["capacity"] == pytest.approx(72.959, abs=1e-3)
    # The second before 4.7 s: 740 Data on path 1 (49.728 Mbit/s), 700 on path 2 (47.04).
    assert survey_sce1.both_paths_before_first_drop(res) == pytest.approx(49.728 + 47.04)
    assert sv.path2_share(res) == 0.0


# --------------------------------------------------------------------------------- survey-sce2


def sce2_run(u1=(56e6, 47e6), p2=(42, 35), u2=(17e6, 42e6), e1=30.0, e2=50.0):
    """U1's goodput before / after 10 s (until e1), path 2's Data per bin in the same two phases,
    U2's goodput while both run / alone (until e2)."""
    links = link("r2->r1", data=lambda t: p2[0] if t < 10 else (p2[1] if t < e1 else 0), drops=lambda t: 0)
    consumers = concat(
        consumer("u1", goodput_bps=lambda t: u1[0] if t < 10 else (u1[1] if t < e1 else 0.0)),
        consumer("u2", goodput_bps=lambda t: 0.0 if t < 10 else (u2[0] if t < e1 else (u2[1] if t < e2 else 0.0))))
    summary = {"consumers": {"u1": {"end_s": e1}, "u2": {"end_s": e2}}, "links": {}}
    return fake(summary, links, consumers)


def test_sce2_table_by_hand():
    t = survey_sce2.table(sce2_run())
    # U1 only: path 2 carries 42 x 0.672 = 28.224 Mbit/s of U1's 56, path 1 the other 27.776.
    assert t["U1 only"][:3] == pytest.approx((27.776, 28.224, 56.0))
    assert np.isnan(t["U1 only"][3])
    # Both: path 2 35 x 0.672 = 23.52 of 47; U2 17.
    assert t["U1 & U2"] == pytest.approx((23.48, 23.52, 47.0, 17.0))
    # U2 alone from U1's end (30 s) to its own (50 s): 42.
    assert np.isnan(t["U2 only"][2]) and t["U2 only"][3] == pytest.approx(42.0)


def test_sce2_metrics_verdicts():
    runs = {name: sce2_run() for name in survey_sce2.VARIANTS}
    # PCON-CS with DRF: U2 alone at 40 instead of Table V's 32.9 (+22 %): that row fails.
    runs[sv.variant("PCON-CS", "DRF")] = sce2_run(u2=(17e6, 40e6))
    got = {row.metric: row.verdict for row in survey_sce2.metrics(runs)}
    # The hand-made run is within 10 % of every ICP value of Table V.
    for metric in ("DRF, ICP: U1 path 1, U1 only", "DRF, ICP: U1 path 2, U1 only", "DRF, ICP: U1 total, U1 only",
                   "DRF, ICP: U1 path 1, U1 & U2", "DRF, ICP: U1 path 2, U1 & U2", "DRF, ICP: U1 total, U1 & U2",
                   "DRF, ICP: U2, U1 & U2", "DRF, ICP: U2, U2 only"):
        assert got[metric] == "pass", metric
    assert got["DRF, PCON-CS: U2, U2 only"] == "fail"
    # BR, ICP: U1 47 against 32.4 (+45 %) fails; U2 alone 42 against 41.3 passes.
    assert got["BR, ICP: U1 rate, U1 & U2"] == "fail"
    assert got["BR, ICP: U2 rate, U2 only"] == "pass"
    # PCON-FS: U1's path 1 (23.48) against U2 (17): 1.38, not 'alike' within 1.25.
    assert got["PCON-FS, ICP: U1 / U2 on the shared link (R3 -> R1)"] == "fail"


# --------------------------------------------------------------------------------- survey-sce3


def sce3_run(rates):
    summary = {"consumers": {c: {"goodput_bps": r * 1e6} for c, r in zip(survey_sce3.CONSUMERS, rates)}, "links": {}}
    return fake(summary, {"link": [], "time_s": []}, {"consumer": [], "time_s": []})


def test_sce3_metrics_by_hand():
    even = [88.0] * 9
    runs = {name: sce3_run(even) for name in survey_sce3.VARIANTS}
    runs[survey_sce3.variant("Sce3a", "PCON-CS", "PCON-FS")] = sce3_run([77.0] * 9)
    runs[survey_sce3.variant("Sce3a", "PCON-CS", "DRF")] = sce3_run([77.0] * 9)
    # Sce3b, PCON-CS + PCON-FS: the A flows at 30, the others at 74: mean 59.33, A / others far apart.
    skewed = [30.0] * 3 + [74.0] * 6
    runs[survey_sce3.variant("Sce3b", "PCON-CS", "PCON-FS")] = sce3_run(skewed)
    res = runs[survey_sce3.variant("Sce3b", "PCON-CS", "PCON-FS")]
    assert survey_sce3.rates(res).mean() == pytest.approx(59.3333, abs=1e-4)
    # Sample sd: deviations -29.33 (x3) and 14.67 (x6): sqrt((3 x 860.44 + 6 x 215.11) / 8) = 22.0.
    assert survey_sce3.spread(res) == pytest.approx(22.0, abs=0.01)
    got = {row.metric: row.verdict for row in survey_sce3.metrics(runs)}
    assert got["Sce3b, PCON-CS + PCON-FS: mean rate"] == "pass"  # 59.33 vs 59.15
    assert got["Sce3b, PCON-CS + PCON-FS: flows of A / the others"] == "pass"
    assert got["Sce3b: rate spread, ICP+PCON-FS / PCON-CS+PCON-FS / ICP+DRF / PCON-CS+DRF"] == "pass"
    assert got["Sce3a, ICP + PCON-FS: mean rate"] == "pass"  # 88 vs 88.38
    assert got["Sce3a, PCON-FS: ICP / PCON-CS mean rate"] == "pass"  # 88 > 77
    assert got["Sce3b, ICP + PCON-FS: mean rate"] == "fail"  # 88 vs 65.33


def test_sce3_core_payload_by_hand():
    # R2 -> R1 carries 70 Data per 0.1 s bin, R3 -> R1 80; the first consumer ends at 10 s (the
    # others at 20 s): 100 bins of 150 Data x 0.672 Mbit/s = 100.8 Mbit/s; the bins after 10 s
    # (0 Data here) do not count.
    links = concat(link("r2->r1", data=lambda t: 70 if t < 10 else 0),
                   link("r3->r1", data=lambda t: 80 if t < 10 else 0))
    ends = {c: {"end_s": 10.0 if c == "c4" else 20.0} for c in survey_sce3.CONSUMERS}
    res = fake({"consumers": ends, "links": {}}, links, {"consumer": [], "time_s": []})
    assert 150 * MBPS_PER_DATA_PER_BIN == pytest.approx(100.8)
    assert survey_sce3.core_payload_mbps(res) == pytest.approx(100.8)


# ---------------------------------------------------------------------------------- real runs


def test_survey_sce1_runs_and_reproduces_its_main_claims(tmp_path):
    report = experiments.run("survey-sce1", tmp_path, progress=False)
    got = {row.metric: row.verdict for row in report.rows}
    # "ICP + PCON-FS: U1 rate" is 73.9 against >= 73.2 at this seed (one loss decrease per burst;
    # 72.9 with ndnSIM's 1.5-RTT gate), and PCON-FS's random split moves it by a few Mbit/s from
    # seed to seed (docs/experiments/survey-sce1.md).
    for metric in ("ICP + PCON-FS: U1 rate", "ICP + BR: end-to-end delay",
                   "PCON-CS + BR: end-to-end delay", "PCON-CS + BR: sojourn at R3",
                   "BR, FPF: path 2 share, ICP / PCON-CS", "FPF / BR rate, ICP / PCON-CS",
                   "PCON-CS: drops with BR / FPF / PCON-FS", "ICP + FPF: U1 window at the first drop (Fig. 3)",
                   "ICP + FPF: R1's capacity at the first drop (Fig. 3)", "DRF: path 2 share, ICP / PCON-CS"):
        assert got[metric] == "pass", metric
    for name in ("results.json", "results.csv", "figure4_5.png", "table2.png", "scenarios/ICP_FPF.toml"):
        assert (tmp_path / name).exists(), name
    saved = json.loads((tmp_path / "results.json").read_text())
    assert saved["id"] == "survey-sce1" and len(saved["variants"]) == 8


def test_survey_sce2_runs_and_reproduces_table3(tmp_path):
    # Table III's five BR values, which B's 15 ms links were derived from (32.4 / 12.1 = 2.68 is
    # U2's RTT squared over U1's; docs/experiments/survey-sce2.md), and DRF's four U2 values.
    report = experiments.run("survey-sce2", tmp_path, progress=False)
    got = {row.metric: row.verdict for row in report.rows}
    for metric in ("BR, ICP: U1 rate, U1 & U2", "BR, ICP: U2 rate, U1 & U2", "BR, ICP: U2 rate, U2 only",
                   "BR, PCON-CS: U1 rate, U1 & U2", "BR, PCON-CS: U2 rate, U1 & U2",
                   "DRF, ICP: U2, U1 & U2", "DRF, ICP: U2, U2 only", "DRF, PCON-CS: U2, U1 & U2",
                   "DRF, PCON-CS: U2, U2 only"):
        assert got[metric] == "pass", metric
    assert 'delay = "15ms"' in (tmp_path / "scenarios" / "ICP_BR.toml").read_text()


def test_survey_sce3_topology_shortened():
    # 2000 segments per consumer: DRF at R1 splits A's three flows over R2 and R3, B's go via R2
    # only, C's via R3 only; every flow finishes.
    res = ndnflow.run(survey_sce3.scenario("Sce3a", "PCON-CS", "DRF", segments=2000))
    consumers = res.summary["consumers"]
    assert all(consumers[c]["finished"] for c in survey_sce3.CONSUMERS)
    links = res.summary["links"]
    a_data = links["pa2->r2"]["data"] + links["pa3->r3"]["data"]
    assert a_data == pytest.approx(3 * 2000, abs=30)  # a few retransmissions at most
    assert 0.4 <= links["pa2->r2"]["data"] / a_data <= 0.6
    assert links["pb->r2"]["data"] >= 3 * 2000 and links["pc->r3"]["data"] >= 3 * 2000


def test_survey_sce3_fig1x3_layout_shortened():
    # The layout tried and not used (Fig. 1 tripled): B's consumers behind R2 fetch from PB behind
    # R3, so B's Data cross R3 -> R1 and then R1 -> R2; C's the mirror image. 200 segments each.
    res = ndnflow.run(survey_sce3.scenario("Sce3a", "ICP", "DRF", segments=200, layout="fig1x3"))
    consumers = res.summary["consumers"]
    assert all(consumers[c]["finished"] for c in survey_sce3.CONSUMERS)
    links = res.summary["links"]
    assert links["r1->r2"]["data"] >= 3 * 200 and links["r1->r3"]["data"] >= 3 * 200
    assert links["pb->r3"]["data"] >= 3 * 200 and links["pc->r2"]["data"] >= 3 * 200
    assert "r1->c4" not in links and links["r2->c4"]["data"] >= 200
