"""PCON §4.5 in `ndnflow reproduce`: the metric functions on hand-made inputs whose verdicts can be
worked out by hand, and one real run (about 2 s)."""

from __future__ import annotations

import json
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from ndnflow.cli import main
from ndnflow.experiments import pcon_4_5 as m

T = np.round(np.arange(0, 40, 0.1), 1)  # the experiment's 100 ms bins


def _series(value):
    return [float(value(t)) for t in T]


def _run(to_p1, window_c2=lambda t: 10.0, timeouts=0, goodput=lambda c, t: 5e6, drained_at=31.0, drop_at=5.5):
    """One synthetic run. R1 -> R2 carries a constant 200 Interests per bin (C3's flood, for the
    whole run so that the 5 ms lag correction cancels); R2 -> P1 carries those plus `to_p1(t)`.
    C1 sends 100 Interests per bin, C2 100 from 15 s. P1's queue holds 1000 packets until
    `drained_at` and drops one packet in the bin `drop_at`. Each consumer has `timeouts` timeouts
    in one bin during the flood (C1 at 8 s, C2 at 16 s)."""
    n = len(T)
    zero = [0.0] * n

    def link(name, interests, queue=zero, drops=zero):
        return {"link": [name] * n, "time_s": list(T), "interests": interests, "queue_packets": queue, "drops": drops}

    parts = [
        link("r1->r2", [200.0] * n),
        link("r2->p1", _series(lambda t: 200 + to_p1(t))),
        link("c1->r2", [100.0] * n),
        link("c2->r2", _series(lambda t: 100 if t >= 15 else 0)),
        link("p1->r2", zero, _series(lambda t: 1000 if 5 <= t < drained_at else 0),
             _series(lambda t: 1 if abs(t - drop_at) < 0.05 else 0)),
    ]
    links = {key: sum((p[key] for p in parts), []) for key in parts[0]}
    consumers = {"consumer": [], "time_s": [], "goodput_bps": [], "timeouts": [], "window": []}
    for c, start, at in (("c1", 0.0, 8.0), ("c2", 15.0, 16.0)):
        times = T[T >= start]
        consumers["consumer"] += [c] * len(times)
        consumers["time_s"] += list(times)
        consumers["goodput_bps"] += [goodput(c, t) for t in times]
        consumers["timeouts"] += [timeouts if abs(t - at) < 0.05 else 0 for t in times]
        consumers["window"] += [window_c2(t) if c == "c2" else 20.0 for t in times]
    return SimpleNamespace(summary={}, links=pd.DataFrame(links), consumers=pd.DataFrame(consumers))


def _pcon(disabled=7.0, back=32.0, taken_up=33.0):
    """PCON as the paper tells it: 50 Interests per bin to P1 until `disabled`, then one probe at
    10 s, then 100 per bin from `back`; C1 and C2 get 8 Mbit/s each before 30 s, nothing from
    30 s to `taken_up`, 10 Mbit/s each after."""
    to_p1 = lambda t: 50 if t < disabled else (1 if t == 10.0 else (100 if t >= back else 0))
    return _run(to_p1, goodput=lambda c, t: 8e6 if t < 30 else (10e6 if t >= taken_up else 0.0))


def _codel(per_100=4, window_max=2.0):
    """CODEL: `per_100` of every 100 Interests R2 receives go to P1 from 5 s to 30 s; one timeout
    each; C2's window alternates between 1 and `window_max`; 1 Mbit/s each."""
    to_p1 = lambda t: (per_100 * (2 if t >= 15 else 1)) if 5 <= t < 30 else 50
    return _run(to_p1, window_c2=lambda t: window_max if round(t * 10) % 2 else 1.0, timeouts=1,
                goodput=lambda c, t: 1e6)


def _verdicts(results):
    return {row.metric: row.verdict for row in m.metrics(results)}


def test_lag_correction_removes_the_flood_exactly():
    # C3's Interests cross R1 -> R2 5 ms (half a 10th of a bin) before R2 -> P1: 5 % of a bin's
    # count shows up one bin later there.
    res = SimpleNamespace(links=pd.DataFrame({
        "link": ["r1->r2"] * 4 + ["r2->p1"] * 4, "time_s": [0.0, 0.1, 0.2, 0.3] * 2,
        "interests": [0, 100, 100, 0, 0, 95, 100, 5]}))
    assert list(m.to_p1(res)) == pytest.approx([0, 0, 0, 0])


def test_pcon_4_5_metrics_by_hand_all_pass():
    results = {"PCON": _pcon(), "CODEL": _codel()}
    pcon = results["PCON"]
    assert m.disabled_at(pcon) == pytest.approx(7.0)  # the last bin with 50 to P1 is 6.9 s
    assert m.reenabled_at(pcon) == pytest.approx(32.0)
    assert m.drained_at(pcon) == pytest.approx(31.1)  # the 31.0 s bin ends with an empty queue
    # From 32.9 s the next second averages 9 x 20 / 10 = 18 Mbit/s, below two links' 18.88; from 33 s 20.
    assert m.taken_up_at(pcon, 32.0) == pytest.approx(33.0)
    # One probe among 8-30 s's 220 x 100 (C1) + 150 x 100 (C2) Interests; CODEL 4 of every 100.
    assert m.share_to_p1(pcon, 8.0, 30.0) == pytest.approx(1 / 37_000)
    assert m.share_to_p1(results["CODEL"], 7.0, 30.0) == pytest.approx(0.04)
    got = _verdicts(results)
    assert set(got.values()) == {"pass"}, got
    assert len(got) == 13


def test_pcon_4_5_metrics_by_hand_failures():
    # Disabled 1.2 s late (8-30 s still gets 2 x 50 + 1 of 37 000 Interests to P1, 0.27 %: a pass),
    # re-enabled 0.3 s before the queue drained (31.1 s) and 1.2 s early for "about 32", taken up
    # 2.5 s after; CODEL sends half of the traffic into the flood and C2's window reaches 5.
    results = {"PCON": _pcon(disabled=8.2, back=30.8, taken_up=33.3), "CODEL": _codel(per_100=50, window_max=5.0)}
    got = _verdicts(results)
    failed = {metric for metric, verdict in got.items() if verdict == "fail"}
    assert failed == {
        "PCON: interface to P1 disabled at",
        "PCON: interface to P1 re-enabled at",
        "PCON: re-enabled minus P1's queue drained",
        "PCON: C1 + C2 above two links' goodput, after re-enabling",
        "CODEL: share of /A, /B Interests to P1, 7-30 s",
        "CODEL: C2's largest window, 15-30 s",
    }, got


def test_pcon_4_5_end_to_end(real_core, tmp_path, capsys):
    out = tmp_path / "pcon-4.5"
    code = main(["reproduce", "pcon-4.5", "--out", str(out), "--quiet"])
    stdout, err = capsys.readouterr()
    data = json.loads((out / "results.json").read_text())
    assert code == (0 if data["passed"] else 1) and err == ""
    assert stdout.strip().split("\n\n")[-1].startswith("pcon-4.5: ")  # the summary, wrapped
    assert (out / "figure12.png").stat().st_size > 10_000 and len(list((out / "scenarios").glob("*.toml"))) == 2
    by_metric = {row["metric"]: row["verdict"] for row in data["rows"]}
    # What the section's argument rests on: the flood overflows P1's queue; PCON stops sending
    # into it for every prefix, a new one included, and loses nothing; 1-bit marks cannot, and
    # both consumers time out.
    for metric in ("C3 overflows P1's queue (first drop at, PCON / CODEL)",
                   "PCON: share of /A, /B Interests to P1, 8-30 s", "PCON: share to P1 in C2's first second (15-16 s)",
                   "PCON: timeouts C1 / C2, 7-30 s", "PCON: re-enabled minus P1's queue drained",
                   "CODEL: timeouts C1 / C2 during the flood", "PCON / CODEL: C1 + C2 goodput, 16-30 s"):
        assert by_metric[metric] == "pass", metric
