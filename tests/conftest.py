"""Shared fixtures: a small stand-in for `_core.Simulation`, and a marker for the real one.

`fake_core` replaces the compiled core seen by ndnflow (`ndnflow._native.core`) with `FakeCore`, so
the Python front (runner, results, CLI) can be tested without the Rust simulator. `real_core` skips
a test, with the reason, while the compiled core has no `Simulation`.
"""

from __future__ import annotations

import importlib.util
import math
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

ROOT = Path(__file__).resolve().parent.parent
if importlib.util.find_spec("ndnflow") is None:
    # Not installed (neither `pip install .` nor `maturin develop`): test the source tree's pure-Python
    # parts; the tests that need the compiled core then skip.
    sys.path.insert(0, str(ROOT / "python"))

from ndnflow import _native, units  # noqa: E402

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

QUICKSTART = ROOT / "examples" / "quickstart.toml"


class FakeSimulation:
    """Enough of `_core.Simulation` for the Python front: parses the TOML, advances a clock, and
    reports deterministic traces (link a->b carries 1 Mbit/s; b->a carries nothing)."""

    #: Raise KeyboardInterrupt in the n-th call of run_until (1-based); None never.
    interrupt_on_call = None
    instances = []

    def __init__(self, text, source="<scenario>", base_dir=None, progress=None):
        try:
            self.doc = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise _native.ScenarioError(f"{source}:1:1: {exc}") from None
        simulation = self.doc.get("simulation", {})
        if "duration" not in simulation:
            raise _native.ScenarioError(f"{source}:1:1: simulation.duration: missing")
        self.source = source
        self.base_dir = base_dir
        self.duration_ns = round(units.parse_duration(simulation["duration"]) * 1e9)
        self.bin_ns = round(units.parse_duration(simulation.get("bin", "100ms")) * 1e9)
        self.seed = simulation.get("seed", 0)
        self.now_ns = 0
        self.calls = 0
        FakeSimulation.instances.append(self)

    @property
    def finished(self):
        return self.now_ns >= self.duration_ns

    def run_until(self, t_ns):
        self.calls += 1
        if self.interrupt_on_call is not None and self.calls == self.interrupt_on_call:
            raise KeyboardInterrupt
        self.now_ns = max(self.now_ns, min(int(t_ns), self.duration_ns))
        return self.finished

    def _bins(self):
        return [k * self.bin_ns / 1e9 for k in range(math.ceil(self.now_ns / self.bin_ns))]

    def results(self):
        end_s = self.now_ns / 1e9
        bins = self._bins()
        per_bin_bytes = int(1e6 / 8 * self.bin_ns / 1e9)
        # Columns come in the order the rows below give them, which is the schema's (test_api
        # checks the frames against `LINK_COLUMNS` and `CONSUMER_COLUMNS`, read from the real core).
        links = {}
        for src, dst, scale in (("a", "b", 1), ("b", "a", 0)):
            for k, t in enumerate(bins):
                row = dict(time_s=t, link=f"{src}->{dst}", src=src, dst=dst, bytes=per_bin_bytes * scale,
                           packets=10 * scale, interests=0, data=10 * scale, nacks=0, drops=0, marks=k % 2 * scale,
                           losses=0, throughput_bps=1e6 * scale,
                           queue_packets=(k % 5) * scale, queue_bytes=(k % 5) * 1100 * scale,
                           sojourn_ms=(0.5 * k if scale else float("nan")))
                for key, value in row.items():
                    links.setdefault(key, []).append(value)
        consumers = {}
        for k, t in enumerate(bins):
            row = dict(time_s=t, consumer="a", node="a", goodput_bps=0.9e6, data=10, interests=10,
                       retransmissions=k % 3 == 0, timeouts=0, nacks=0, losses=0, marks=k % 2, window=8.0 + k % 4,
                       rtt_ms=(20.0 + k) if k else float("nan"))
            for key, value in row.items():
                consumers.setdefault(key, []).append(int(value) if isinstance(value, bool) else value)
        n = len(bins)
        summary = {
            "simulation": {"duration_s": self.duration_ns / 1e9, "seed": self.seed, "end_s": end_s,
                           "events": 100 * n, "packet_hops": 40 * n},
            "consumers": {"a": {"node": "a", "name": "/p/x", "goodput_bps": 0.9e6, "interests_sent": 10 * n,
                                "data_received": 10 * n, "timeouts": 0, "nacks": 0, "losses": 0,
                                "retransmissions": len(range(0, n, 3)), "marks": n // 2, "rtt_min_ms": 20.0,
                                "rtt_avg_ms": 25.5, "rtt_max_ms": float(20 + n), "start_s": 0.0, "end_s": end_s,
                                "finished": False, "segments": 10 * n}},
            "links": {"a->b": {"bytes": per_bin_bytes * n, "packets": 10 * n, "drops": 0, "marks": n // 2,
                               "losses": 0, "interests": 0, "data": 10 * n, "nacks": 0},
                      "b->a": {"bytes": 0, "packets": 0, "drops": 0, "marks": 0, "losses": 0, "interests": 0,
                               "data": 0, "nacks": 0}},
            "nodes": {"a": {"cs_hits": 0, "cs_misses": 0, "pit_aggregated": 0},
                      "b": {"cs_hits": 0, "cs_misses": 0, "pit_aggregated": 0}},
        }
        return {"summary": summary, "links": links, "consumers": consumers}

    def summary(self):
        return self.results()["summary"]


def fake_ndnsim_to_toml(text, source):
    if "router" not in text:
        raise _native.ScenarioError(f"{source}:1:1: topology: no 'router' section")
    return '[nodes.a]\n\n[[links]]\nbetween = ["a", "b"]\nbandwidth = "10Mbps"\ndelay = "1ms"\n'


@pytest.fixture
def fake_core(monkeypatch):
    """Replace the compiled core with `FakeSimulation`; yields the FakeSimulation class."""
    FakeSimulation.instances = []
    monkeypatch.setattr(FakeSimulation, "interrupt_on_call", None)
    fake = SimpleNamespace(Simulation=FakeSimulation, ScenarioError=_native.ScenarioError,
                           ndnsim_to_toml=fake_ndnsim_to_toml, __version__="0.0.0+fake")
    monkeypatch.setattr(_native, "core", fake)
    return FakeSimulation


@pytest.fixture
def real_core():
    """The compiled core with its Simulation; skips the test while the extension lacks it."""
    if not _native.has("Simulation"):
        pytest.skip("ndnflow._core.Simulation is not built yet (run `maturin develop --release`)")
    return _native.core


@pytest.fixture
def quickstart(real_core):
    if not QUICKSTART.is_file():
        pytest.fail(f"{QUICKSTART} is missing")
    return QUICKSTART
