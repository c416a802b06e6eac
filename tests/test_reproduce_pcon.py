"""PCON §4.3 and §4.4 in `ndnflow reproduce`: each experiment's metric functions on hand-made inputs
whose verdicts can be worked out by hand, and one real run of each (a few seconds in all)."""

from __future__ import annotations

import json
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from ndnflow import experiments
from ndnflow.cli import main
from ndnflow.experiments import common, pcon_4_3, pcon_4_4_split, pcon_4_4_table1


def fake(summary, links, consumers):
    return SimpleNamespace(summary=summary, links=pd.DataFrame(links), consumers=pd.DataFrame(consumers))


def verdicts(rows):
    return {row.metric: row.verdict for row in rows}


def series(times, value):
    """A column: `value(t)` for each bin start t."""
    return [float(value(t)) for t in times]


# ------------------------------------------------------------------------- pcon-4.3 by hand

T43 = np.round(np.arange(0, 25, 0.1), 1)  # 0.1 s bins, as the metrics rebin to


def _run_43(rtt_max=4000.0, small=100, large=5000, normal_at=12.0, full_at=18.0, drop_at=None,
            mark_at=20.0, queue_tail=5.0, c1_during=0.1e6, cross_data=11_502, losses=0):
    """One synthetic run that serves every scenario's metrics.

    P->R carries `small`-byte Data before 5 s and `large`-byte Data after (100 per bin); its sojourn
    is 2000 ms from 5 s until `normal_at`, then 0; its throughput 10 Mbit/s until 15 s, 1 Mbit/s
    until `full_at`, 9.5 Mbit/s after. R->P drops one packet in the bin `drop_at` and holds
    `queue_tail` packets from 14 to 15 s. C1's RTT is 80 ms, rising by 30 ms per second from 5 s;
    it gets one mark in the bin `mark_at`."""
    n = len(T43)
    pr = {"link": ["p->r"] * n, "time_s": list(T43), "data": [100] * n,
          "bytes": series(T43, lambda t: 100 * (small if t < 5 else large)),
          "sojourn_ms": series(T43, lambda t: 2000.0 if 5 <= t < normal_at else 0.0),
          "throughput_bps": series(T43, lambda t: 10e6 if t < 15 else (1e6 if t < full_at else 9.5e6)),
          "queue_packets": [0] * n, "drops": [0] * n}
    rp = {"link": ["r->p"] * n, "time_s": list(T43), "data": [0] * n, "bytes": [0] * n, "sojourn_ms": [0.0] * n,
          "throughput_bps": [0.0] * n, "queue_packets": series(T43, lambda t: queue_tail if 14 <= t < 15 else 0),
          "drops": series(T43, lambda t: 1 if drop_at is not None and abs(t - drop_at) < 0.05 else 0)}
    links = {key: pr[key] + rp[key] for key in pr}
    consumers = {"consumer": ["c1"] * n, "time_s": list(T43), "data": [10] * n,
                 "rtt_ms": series(T43, lambda t: 80.0 + (30.0 * (t - 5) if t >= 5 else 0.0)),
                 "goodput_bps": series(T43, lambda t: c1_during if 5 <= t < 15 else 5e6),
                 "marks": series(T43, lambda t: 1 if abs(t - mark_at) < 0.05 else 0)}
    summary = {"consumers": {"c1": {"rtt_max_ms": rtt_max, "rtt_min_ms": 80.0, "timeouts": losses,
                                    "retransmissions": losses}},
               "links": {"p->r": {"drops": 0}, "r->p": {"drops": 0 if drop_at is None else 1},
                         "r->c2": {"data": cross_data}}}
    return fake(summary, links, consumers)


def test_pcon_4_3_metrics_by_hand():
    results = {"Payload": _run_43(), "Cross_Same": _run_43(rtt_max=300.0),
               "Cross_Opp_1": _run_43(drop_at=14.0, queue_tail=900.0), "Cross_Opp_2": _run_43(mark_at=7.0)}
    assert pcon_4_3.queue_normal_s(results["Payload"]) == pytest.approx(12.0)
    assert pcon_4_3.full_bandwidth_s(results["Payload"]) == pytest.approx(18.0)
    assert pcon_4_3.first_drop_s(results["Cross_Opp_1"], "r->p") == pytest.approx(14.0)
    rows = pcon_4_3.metrics(results)
    got = verdicts(rows)
    assert set(got.values()) == {"pass"}, got
    by = {row.metric: row for row in rows}
    # 4 s / (5000 / 100 x 80 ms) = 1; 11502 Data of 1065 B in 10 s over 10 Mbit/s = 98 %; 300 / 4000 ms.
    assert by["Payload: peak RTT / (Data size ratio x base RTT)"].measured == pytest.approx(1.0)
    assert by["Cross_Same: cross-traffic load on R-P"].measured == pytest.approx(98.0, abs=0.01)
    assert by["Cross_Same: peak RTT / Payload's"].measured == pytest.approx(0.075)
    # C1's RTT per second from 5 to 14 s: 80 + 30 (t - 5) averaged over each second.
    rising = by["Cross_Opp_1: C1 RTT per second until the loss"].measured
    assert rising == [round(80 + 30 * (k + 0.45)) for k in range(9)]

    # Our measured Payload (2.27 s, 31.7x larger Data), a queue that drains at 7.4 s, no overflow in
    # Cross_Opp_1 (and a mark at 6 s), and a queue left in Cross_Opp_2.
    results = {"Payload": _run_43(rtt_max=2270.0, small=160, large=5070, normal_at=7.4),
               "Cross_Same": _run_43(rtt_max=500.0, c1_during=1e6, losses=1),
               "Cross_Opp_1": _run_43(drop_at=None, mark_at=6.0), "Cross_Opp_2": _run_43(queue_tail=500.0, mark_at=7.0)}
    got = verdicts(pcon_4_3.metrics(results))
    assert {k for k, v in got.items() if v == "fail"} == {
        "Payload: peak RTT",                                   # 2.27 s, not 3 to 5 s
        "Payload: queue back to normal at",                    # 7.4 s, not 11 to 13 s
        "Cross_Same: peak RTT",                                # 500 ms > 450 ms
        "Cross_Same: C1 goodput during / before cross traffic",  # 1 / 5 = 0.2 > 0.1
        "Cross_Same: drops / timeouts / retransmissions",
        "Cross_Opp_1: R->P queue overflows (first drop at)",   # no drop: NaN
        "Cross_Opp_1: C1 marks before the first loss",         # the mark at 6 s (up to 15 s without a loss)
        "Cross_Opp_2: R->P queue in the last second of cross traffic",  # 500 > 100 packets
    }
    # 2.27 s / (5070 / 160 x 80 ms) = 0.895: the model row still passes.
    assert got["Payload: peak RTT / (Data size ratio x base RTT)"] == "pass"


# --------------------------------------------------------------------- pcon-4.4-split by hand


def _run_split(shares, goodput_mbps):
    """10 s in 1 s bins; the second half (5 to 10 s) carries `shares` Data per bin from P1, P2, P3;
    the first half carries the opposite order, which the metrics must ignore."""
    times = list(range(10))
    links = {"link": [], "time_s": [], "data": []}
    for k, p in enumerate(pcon_4_4_split.PATHS):
        links["link"] += [f"{p}->r2"] * 10
        links["time_s"] += times
        links["data"] += [shares[2 - k]] * 5 + [shares[k]] * 5
    consumers = {"consumer": ["c"] * 10, "time_s": times, "goodput_bps": [0.0] * 5 + [goodput_mbps * 1e6] * 5}
    return fake({"simulation": {"duration_s": 10.0}}, links, consumers)


def test_pcon_4_4_split_metrics_by_hand():
    runs = {
        "Equal_PI": ((34, 33, 33), 15), "Equal_CF": ((33, 33, 34), 17), "Equal_PCON": ((33, 34, 33), 23),
        "Diff_Delay_PI": ((8, 16, 76), 12), "Diff_Delay_CF": ((17, 26, 57), 16),
        "Diff_Delay_PCON": ((35, 33, 32), 18),            # 18 / 16 = 1.125 >= 1.1
        "Diff_BW_PI": ((54, 36, 10), 9), "Diff_BW_CF": ((41, 38, 21), 6),   # CF: 41 is 13 points off 54
        "Diff_BW_PCON": ((72, 22, 6), 15),               # 15 / 9 = 1.67
    }
    results = {name: _run_split(*args) for name, args in runs.items()}
    assert pcon_4_4_split.split(results["Diff_BW_PI"]) == pytest.approx([54.0, 36.0, 10.0])
    got = verdicts(pcon_4_4_split.metrics(results))
    assert {k for k, v in got.items() if v == "fail"} == {"Diff_BW: CF share of the 22.5 Mbit/s path (P1)"}, got

    # PCON stuck on P1 in Diff_Delay (our default shift-back), PI's split better than CF's, and a
    # PCON no faster than CF.
    results["Diff_Delay_PCON"] = _run_split((98, 1, 1), 9)
    results["Diff_Delay_PI"] = _run_split((20, 30, 50), 12)  # 50 >= 38.3; distance 16.7 < CF's 23.7
    got = verdicts(pcon_4_4_split.metrics(results))
    assert got["Diff_Delay: PCON split P1/P2/P3"] == "fail"
    assert got["Diff_Delay: CF / PI distance from 33/33/33"] == "fail"
    assert got["Diff_Delay: PCON goodput / best of PI, CF"] == "fail"   # 9 / 16
    assert got["Diff_Delay: PI share of the 10 ms path (P3)"] == "pass"


# -------------------------------------------------------------------- pcon-4.4-table1 by hand


def _run_table1(rtts, rates, sojourn, first_mark=3, p4_from=1):
    """Bins of 1 s over 30 s; from 5 s each consumer has its Table 1 RTT and rate, with Data per bin
    proportional to the rate (so the per-Data "All" RTT is Table 1's); before 5 s nothing counts."""
    times = list(range(30))
    consumers = {key: [] for key in ("consumer", "time_s", "rtt_ms", "data", "goodput_bps", "marks")}
    for c, rtt, rate in zip(pcon_4_4_table1.CONSUMERS, rtts, rates):
        consumers["consumer"] += [c] * 30
        consumers["time_s"] += times
        consumers["rtt_ms"] += [500.0] * 5 + [rtt] * 25
        consumers["data"] += [1] * 5 + [int(round(rate * 100))] * 25
        consumers["goodput_bps"] += [0.0] * 5 + [rate * 1e6] * 25
        consumers["marks"] += [1 if t == first_mark else 0 for t in times]
    links = {key: [] for key in ("link", "time_s", "sojourn_ms", "packets", "throughput_bps")}
    for link, delay in sojourn.items():
        links["link"] += [link] * 30
        links["time_s"] += times
        links["sojourn_ms"] += [delay] * 30
        links["packets"] += [100] * 30
        links["throughput_bps"] += [2e6 if (link == "p4->r1" and t >= p4_from) else 0.0 for t in times]
    return fake({}, links, consumers)


def test_pcon_4_4_table1_metrics_by_hand():
    quiet = {"r2->r1": 0.1, "r1->c5": 0.0}
    icp = _run_table1(pcon_4_4_table1.TABLE1["ICP"]["rtt"], pcon_4_4_table1.TABLE1["ICP"]["rate"],
                      dict({"p1->r2": 0.1, "p2->r2": 1.0, "p3->r2": 1.0, "p4->r1": 20.0}, **quiet), p4_from=2)
    pcon = _run_table1(pcon_4_4_table1.TABLE1["PCON"]["rtt"], pcon_4_4_table1.TABLE1["PCON"]["rate"],
                       dict({"p1->r2": 3.0, "p2->r2": 4.0, "p3->r2": 4.0, "p4->r1": 4.0}, **quiet), p4_from=4)
    # The per-Data mean of Table 1's RTTs, weighted by its rates, is Table 1's "All": 78.08 and 79.23.
    assert pcon_4_4_table1.consumer_rtt_ms(icp) == pytest.approx(78.08, abs=0.05)
    assert pcon_4_4_table1.consumer_rtt_ms(pcon) == pytest.approx(79.23, abs=0.05)
    rows = pcon_4_4_table1.metrics({"ICP": icp, "PCON": pcon})
    got = verdicts(rows)
    assert set(got.values()) == {"pass"}, got
    assert {r.metric: r for r in rows}["PCON: throughput ratio C5/C1"].measured == pytest.approx(20.52 / 5.53)

    # PCON's C5 25 % slower, its queue all at P4, its first mark at 4 s, and P4 in use before ICP's.
    rates = list(pcon_4_4_table1.TABLE1["PCON"]["rate"][:5])
    rates[4] *= 0.75                                    # 15.39 Mbit/s
    pcon = _run_table1(pcon_4_4_table1.TABLE1["PCON"]["rtt"], rates,
                       dict({"p1->r2": 0.5, "p2->r2": 0.5, "p3->r2": 0.5, "p4->r1": 20.0}, **quiet), first_mark=4,
                       p4_from=1)
    got = verdicts(pcon_4_4_table1.metrics({"ICP": icp, "PCON": pcon}))
    assert {k for k, v in got.items() if v == "fail"} == {
        "PCON: C5 rate",                            # -25 %
        "PCON: throughput ratio C5/C1",             # 15.39 / 5.53 = 2.78, -25 %
        "PCON: queuing delay P1 / P2 / P3 / P4",    # 0.5 ms is not > 1 ms
        "PCON: first congestion mark at a consumer",  # |4 - 2.5| > 1 s
        "P4 carries >= 1 Mbit/s from, ICP / PCON",  # ICP 2 s, PCON 1 s
    }, got
    # Still inside: "All" rate 49.7 / 5 = 9.94 (-9.3 %), PCON / ICP 49.7 / 36.04 = 1.38.


# ------------------------------------------------------------------------------- real runs


def test_pcon_4_3_end_to_end(real_core, tmp_path, capsys):
    out = tmp_path / "pcon-4.3"
    code = main(["reproduce", "pcon-4.3", "--out", str(out), "--quiet"])
    stdout, err = capsys.readouterr()
    data = json.loads((out / "results.json").read_text())
    assert code == (0 if data["passed"] else 1) and err == ""
    assert stdout.strip().splitlines()[-1].startswith("pcon-4.3: ")
    assert (out / "figure7.png").stat().st_size > 10_000 and len(list((out / "scenarios").glob("*.toml"))) == 4
    by_metric = {row["metric"]: row["verdict"] for row in data["rows"]}
    # What the section's argument rests on: no loss with marks and long timers, a Data-size-driven
    # delay, and Interest-path congestion seen only through PIT marking.
    for metric in ("Payload: peak RTT / (Data size ratio x base RTT)", "Payload: drops / timeouts / retransmissions",
                   "Cross_Same: drops / timeouts / retransmissions",
                   "Cross_Opp_1: R->P queue overflows (first drop at)",
                   "Cross_Opp_1: C1 marks before the first loss", "Cross_Opp_1: C1 RTT per second until the loss",
                   "Cross_Opp_2: drops / timeouts / retransmissions", "Cross_Opp_2: C1 marks during cross traffic",
                   "Cross_Opp_2: R->P queue in the last second of cross traffic"):
        assert by_metric[metric] == "pass", metric


def test_pcon_4_4_split_shortened(real_core, tmp_path):
    # 30 s instead of 120 s: PCON has settled in Equal and Diff_BW (Diff_Delay needs ~80 s).
    report = experiments.run("pcon-4.4-split", tmp_path, duration="30s", progress=False)
    assert report.results["Equal_PCON"].summary["simulation"]["duration_s"] == 30.0
    assert (tmp_path / "figure8.png").stat().st_size > 10_000
    got = verdicts(report.rows)
    for metric in ("Equal: PCON split P1/P2/P3", "Diff_BW: PCON split P1/P2/P3", "Equal: PI split P1/P2/P3",
                   "Diff_Delay: PI share of the 10 ms path (P3)", "Diff_BW: PCON goodput / best of PI, CF"):
        assert got[metric] == "pass", metric


def test_pcon_4_4_table1_end_to_end(real_core, tmp_path):
    report = experiments.run("pcon-4.4-table1", tmp_path, progress=False)
    assert (tmp_path / "figure11.png").stat().st_size > 10_000
    got = verdicts(report.rows)
    for metric in ("ICP: All rate", "ICP: C1 RTT", "PCON: C1 RTT", "PCON / ICP total rate",
                   "ICP: queuing delay P1 / P2 / P3 / P4", "PCON: queuing delay P1 / P2 / P3 / P4",
                   "R2->R1, R1->C5 queuing delay (ICP, PCON)", "PCON: first congestion mark at a consumer"):
        assert got[metric] == "pass", metric
    # What RAAQM's per-route samples are for: each consumer's ICP RTT within 10 % of Table 1 and
    # below its PCON RTT, as in Table 1. Over one RTT range for all four paths, C5's RTT was 11 % high
    # (a 26 ms queue at P4) and only 2 consumers had the shorter ICP RTT.
    for consumer in range(1, 6):
        assert got[f"ICP: C{consumer} RTT"] == "pass", consumer
    assert got["ICP RTT < PCON RTT, consumers"] == "pass"
    assert (tmp_path / "scenarios" / "ICP.toml").read_text().count("route_labels = true") == 11
    assert "route_labels" not in (tmp_path / "scenarios" / "PCON.toml").read_text()
    # Neither variant loses a packet: RAAQM's delay-based decreases keep the drop-tail queue at P4 short
    # of its 1000 packets.
    assert [common.all_drops(res) for res in report.results.values()] == [0, 0]
