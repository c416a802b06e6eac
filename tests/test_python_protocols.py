"""Protocols in Python (docs/python-api.md): a Python port of best-route and of AIMD gives the Rust
ones' results row for row; a Python protocol that fails stops the run with a clear error."""

from __future__ import annotations

import json
import re
import sys

import pytest

import ndnflow
from ndnflow import Forward, Nack, ProtocolError, Scenario, ScenarioError, _toml

from conftest import ROOT

sys.path.insert(0, str(ROOT / "examples"))
from python_controller import Aimd  # noqa: E402
from python_strategy import BestRoute  # noqa: E402


def quickstart(queue_packets=None):
    """The quick start; with `queue_packets` its bottleneck queue r->p shrunk from 100 so that
    Interests are dropped there (two windows of 40 no longer fit), which makes consumers time
    out and retransmit: the paths of best-route and AIMD a lossless run never takes."""
    scenario = Scenario.from_file(ROOT / "examples" / "quickstart.toml")
    if queue_packets is None:
        return scenario
    doc = scenario.to_dict()
    doc["links"][2]["queue"]["packets"] = queue_packets
    return scenario.with_document(doc)


def with_strategy(scenario, strategy):
    for node in ("c1", "c2", "r", "p"):
        scenario = scenario.node(node, strategy=strategy)
    return scenario


def with_cc(scenario, cc):
    doc = scenario.to_dict()
    for consumer in doc["consumers"]:
        consumer["cc"] = {"algorithm": cc}
    return scenario.with_document(doc)


def assert_same_rows(a, b):
    for table in ("links", "consumers"):
        assert getattr(a, table).equals(getattr(b, table)), table
    for key in ("events", "packet_hops", "end_s"):
        assert a.summary["simulation"][key] == b.summary["simulation"][key], key


@pytest.mark.parametrize("queue_packets", [None, 10])
def test_python_best_route_gives_the_rust_results(real_core, queue_packets):
    rust = ndnflow.run(quickstart(queue_packets), progress=False)
    python = ndnflow.run(with_strategy(quickstart(queue_packets), BestRoute), progress=False)
    assert_same_rows(rust, python)
    if queue_packets:
        assert rust.summary["consumers"]["c1"]["retransmissions"] > 0


@pytest.mark.parametrize("queue_packets", [None, 10])
def test_python_aimd_gives_the_rust_results(real_core, queue_packets):
    rust = ndnflow.run(with_cc(quickstart(queue_packets), "aimd"), progress=False)
    python = ndnflow.run(with_cc(quickstart(queue_packets), ndnflow.protocols.word(Aimd)), progress=False)
    assert_same_rows(rust, python)
    if queue_packets:
        assert rust.summary["consumers"]["c1"]["timeouts"] > 0


def test_a_port_that_differs_is_seen(real_core):
    """The comparison can fail: best-route without retransmission suppression forwards every
    retransmission at once, which changes what the lossy run does."""

    class NoSuppression(BestRoute):
        @staticmethod
        def retransmission(now_ns, entry):
            pending = any(o.nack is None and o.expiry_ns > now_ns for o in entry.out_records)
            return "forward" if pending else "new"

    rust = ndnflow.run(quickstart(10), progress=False)
    python = ndnflow.run(with_strategy(quickstart(10), NoSuppression), progress=False)
    assert not rust.links.equals(python.links)


def test_consumer_builder_takes_a_controller_class(real_core):
    scenario = (Scenario(duration="1s", seed=1).nodes("c", "p").link("c", "p", bandwidth="10Mbps", delay="5ms")
                .producer("p", "/x").consumer("c", "/x/a", cc=Aimd))
    assert scenario.to_dict()["consumers"][0]["cc"] == {"algorithm": "python:python_controller:Aimd"}
    # Slow start from 1 on a lossless 10 ms path: after 0.5 s the window has grown far past 1.
    results = ndnflow.run(scenario, progress=False)
    assert results.consumers.window.max() > 10


class Raises(ndnflow.Strategy):
    """Forwards like best-route's first choice, and raises on the 100th Interest it sees."""

    def __init__(self):
        self.seen = 0

    def after_receive_interest(self, ctx, in_face, entry, nexthops):
        self.seen += 1
        if self.seen == 100:
            raise KeyError(entry.interest.name)
        return Forward([nexthops[0].face])


def test_an_exception_stops_the_run_with_where_and_the_traceback(real_core):
    with pytest.raises(ProtocolError) as caught:
        ndnflow.run(quickstart().node("r", strategy=Raises), progress=False)
    message = str(caught.value)
    assert message.startswith("python strategy Raises at node r, after_receive_interest at t = "), message
    assert "Traceback (most recent call last)" in message and "KeyError: '/video/a/seg=" in message
    assert "raise KeyError(entry.interest.name)" in message
    # What was computed is kept, up to the instant of the exception, which the message names.
    results = caught.value.results
    stopped_at = float(re.search(r"at t = ([0-9.]+)s", message).group(1))
    assert results.interrupted and results.summary["simulation"]["end_s"] == pytest.approx(stopped_at, abs=1e-6)
    assert 0 < stopped_at < 30 and len(results.consumers) > 0


class ReturnsText(ndnflow.Strategy):
    def after_receive_interest(self, ctx, in_face, entry, nexthops):
        return "face 1"


class ForwardsNowhere(ndnflow.Strategy):
    def after_receive_interest(self, ctx, in_face, entry, nexthops):
        return Forward([99])


class NegativeWindow(ndnflow.Controller):
    window = 1.0

    def on_data(self, now_ns, sample):
        self.window = -1.0


class ForwardsTwice(ndnflow.Strategy):
    def after_receive_interest(self, ctx, in_face, entry, nexthops):
        return Forward([nexthops[0].face, nexthops[0].face])


class ForwardsToMinusOne(ndnflow.Strategy):
    def after_receive_interest(self, ctx, in_face, entry, nexthops):
        return Forward([-1])


class TimerAgainNow(BestRoute):
    """Its timer is due at 0 ns whatever the time: it fires at 0 and asks for 0 again."""

    def next_timer(self):
        return 0

    def on_timer(self, ctx):
        return None


class SharesOfNoFace(BestRoute):
    def forwarding_shares(self, ctx, prefix):
        return {999: 0.5}


class SharesBelowZero(BestRoute):
    def forwarding_shares(self, ctx, prefix):
        return {2: -3.0}


class InfiniteWindow(ndnflow.Controller):
    window = 1.0

    def on_data(self, now_ns, sample):
        self.window = float("inf")


class NegativeInterval(ndnflow.Controller):
    window = 1.0

    def on_data(self, now_ns, sample):
        self.interval_ns = -1


# Each of the last six ran until 2026-11-28: a face named twice sent every Interest twice upstream,
# -1 was an OverflowError naming no face, a timer due again at the instant it fired ran until the
# stall guard blamed consumers, shares of a face the node lacks or below 0 went into the log, an
# infinite window flooded until the memory watch, and -1 ns was "can't convert negative int".
@pytest.mark.parametrize("scenario, expected", [
    (lambda: quickstart().node("r", strategy=ReturnsText),
     "after_receive_interest returned 'face 1'; a strategy returns Forward([faces]), Nack(reason) or None"),
    (lambda: quickstart().node("r", strategy=ForwardsNowhere),
     "Forward names face 99, which node r does not have (its faces are 0..3)"),
    (lambda: with_cc(quickstart(), ndnflow.protocols.word(NegativeWindow)),
     "python controller NegativeWindow of consumer 0 (node c1), on_data at t = "),
    (lambda: quickstart().node("r", strategy=ForwardsTwice), "Forward names face 2 more than once"),
    (lambda: quickstart().node("r", strategy=ForwardsToMinusOne), "ValueError: Forward: -1 is no face id (0 or more)"),
    (lambda: quickstart().node("r", strategy=TimerAgainNow),
     "next_timer at t = 0.000000s: ValueError: next_timer returned 0 ns, when on_timer ran (0 ns): the next timer is "
     "due after it"),
    (lambda: quickstart().node("r", strategy=SharesOfNoFace).forwarding_log(),
     "forwarding_shares at t = 0.005002s: ValueError: a share names face 999, which node r does not have"),
    (lambda: quickstart().node("r", strategy=SharesBelowZero).forwarding_log(),
     "ValueError: face 2's share is -3, not a fraction from 0 to 1"),
    (lambda: with_cc(quickstart(), ndnflow.protocols.word(InfiniteWindow)),
     "ValueError: window must be a finite number of Interests >= 0 or None, not inf"),
    (lambda: with_cc(quickstart(), ndnflow.protocols.word(NegativeInterval)),
     "ValueError: interval_ns must be a whole number of nanoseconds >= 0 or None, not -1"),
])
def test_what_is_not_a_decision_stops_the_run_naming_it(real_core, scenario, expected):
    with pytest.raises(ProtocolError, match=re.escape(expected)):
        ndnflow.run(scenario(), progress=False)


class WindowTrue(ndnflow.Controller):
    window = True


def test_a_window_of_true_is_refused(real_core):
    # Taken as a window of 1 until 2026-11-28.
    with pytest.raises(ScenarioError, match=re.escape("ValueError: window must be a number of Interests or None, not True")):
        ndnflow.run(with_cc(quickstart(), ndnflow.protocols.word(WindowTrue)), progress=False)


class NoWindowNoRate(ndnflow.Controller):
    """The base class's defaults: neither a window nor an interval."""


def test_a_controller_without_window_or_interval_is_refused_before_the_run(real_core):
    # It sent without bound until the memory watch stopped it, 4.4 GiB later, until 2026-11-28.
    with pytest.raises(ScenarioError, match=re.escape(
            "python controller NoWindowNoRate of consumer 0 (node c1), its window, interval_ns and rto_ns as the "
            "run starts at t = 0.000000s: ValueError: window and interval_ns are both None")):
        ndnflow.run(with_cc(quickstart(), ndnflow.protocols.word(NoWindowNoRate)), progress=False)


class InterruptedInAHook(BestRoute):
    def after_receive_interest(self, ctx, in_face, entry, nexthops):
        if ctx.now_ns > 1_000_000_000:
            raise KeyboardInterrupt  # as Ctrl-C does when it lands while the hook runs
        return super().after_receive_interest(ctx, in_face, entry, nexthops)


def test_ctrl_c_inside_a_hook_interrupts_the_run_without_blaming_the_class(real_core):
    # It was a ProtocolError carrying the KeyboardInterrupt's traceback until 2026-11-28.
    results = ndnflow.run(quickstart().node("r", strategy=InterruptedInAHook), progress=False)
    assert results.interrupted
    assert results.stopped.startswith("interrupted (Ctrl-C) during python strategy InterruptedInAHook at node r, "
                                      "after_receive_interest at t = 1.")


def test_a_word_naming_no_class_is_a_scenario_error(real_core):
    scenario = quickstart().node("r", strategy="python:python_strategy:NoSuchStrategy")
    with pytest.raises(ScenarioError, match=r"nodes\.r\.strategy: cannot load 'python:python_strategy:NoSuchStrategy'"):
        ndnflow.run(scenario, progress=False)
    with pytest.raises(ScenarioError, match=r"nodes\.r\.strategy: 'python:python_controller:Aimd' is not a subclass "
                                            r"of ndnflow\.Strategy"):
        ndnflow.run(quickstart().node("r", strategy="python:python_controller:Aimd"), progress=False)


class FailsWhenMade(ndnflow.Controller):
    def __init__(self):
        raise ValueError("no such mode")


def test_a_class_that_fails_when_made_is_a_scenario_error_naming_it(real_core):
    # Its own exception, said in one line with the field and the class, where it was an internal
    # error on the command line.
    with pytest.raises(ScenarioError, match=re.escape(
            f"consumers[0].cc: '{ndnflow.protocols.word(FailsWhenMade)}' raised ValueError when made: no such mode")):
        ndnflow.run(with_cc(quickstart(), ndnflow.protocols.word(FailsWhenMade)), progress=False)


@pytest.mark.parametrize("path, value, where", [
    (("consumers",), 1.5, r"consumers: expected an array of tables, found float"),
    (("nodes",), "inf", r"nodes: expected a table"),
    (("nodes", "r", "strategies"), "multicast", r"nodes\.r\.strategies: expected a table"),
])
def test_tables_of_the_wrong_type_are_scenario_errors_naming_them(real_core, path, value, where):
    """The Python protocols' pass over the document (protocols.split) read `nodes`, a node's
    `strategies` and `consumers` before the reader checked their types, and a string or number
    there ended in an AttributeError or TypeError ("internal error" on the command line)."""
    doc = _toml.tomllib.loads((ROOT / "examples" / "quickstart.toml").read_text())
    table = doc
    for key in path[:-1]:
        table = table[key]
    table[path[-1]] = value
    with pytest.raises(ScenarioError, match=where):
        ndnflow.run(Scenario.from_toml(_toml.dumps(doc)), progress=False)


def test_a_toml_scenario_names_an_importable_class_with_arguments(real_core):
    """``cc = { algorithm = "python:MODULE:CLASS", ... }``: the other keys are the class's
    arguments. beta = 1.0 never shrinks the window, so the lossy run's windows differ from AIMD's."""
    text = (ROOT / "examples" / "quickstart.toml").read_text()
    text = text.replace('cc   = { algorithm = "fixed-window", window = 40 }',
                        'cc   = { algorithm = "python:python_controller:Aimd", beta = 1.0 }')
    results = ndnflow.run(Scenario.from_toml(text), progress=False)
    # Never decreased: the window only grows, so it never falls from one bin to the next.
    c1 = results.consumers[results.consumers.consumer == "c1"].window
    assert (c1.diff().dropna() >= 0).all() and c1.iloc[-1] > 40


def test_nack_reason_is_checked(real_core):
    with pytest.raises(ValueError, match='Nack reason "later": not one of'):
        Nack("later")


class Delays(BestRoute):
    """Holds every new Interest 10 ms at the router through the strategy timer, then sends it where
    best-route would."""

    DELAY_NS = 10_000_000

    def __init__(self):
        self.held = []  # (due_ns, interest, face), in arrival order

    def after_receive_interest(self, ctx, in_face, entry, nexthops):
        decision = super().after_receive_interest(ctx, in_face, entry, nexthops)
        if isinstance(decision, Forward) and not entry.out_records:
            self.held.append((ctx.now_ns + self.DELAY_NS, entry.interest, decision.faces[0]))
            return None
        return decision

    def next_timer(self):
        return self.held[0][0] if self.held else None

    def on_timer(self, ctx):
        due = [(interest, face) for at, interest, face in self.held if at <= ctx.now_ns]
        self.held = [h for h in self.held if h[0] > ctx.now_ns]
        return due


def test_a_timer_sends_what_the_strategy_held(real_core):
    """The quick start's shortest RTT is its unloaded path's: 2 x (5 + 20) ms of propagation plus
    transmissions. Held 10 ms at r each way up, every Interest's RTT grows by exactly 10 ms, the
    shortest one too."""
    rust = ndnflow.run(quickstart(), progress=False).summary["consumers"]["c1"]
    held = ndnflow.run(quickstart().node("r", strategy=Delays), progress=False).summary["consumers"]["c1"]
    assert held["rtt_min_ms"] == pytest.approx(rust["rtt_min_ms"] + 10.0, abs=1e-6)
    assert held["data_received"] > 0


class RefusesAll(ndnflow.Strategy):
    def after_receive_interest(self, ctx, in_face, entry, nexthops):
        return Nack("no-route")


def test_a_nack_decision_reaches_the_consumer(real_core):
    summary = ndnflow.run(quickstart().node("r", strategy=RefusesAll).with_duration("1s"),
                          progress=False).summary["consumers"]["c1"]
    assert summary["data_received"] == 0 and summary["nacks"] > 0


def test_ndnflow_run_keeps_the_results_of_a_failed_protocol(real_core, tmp_path, monkeypatch):
    from ndnflow import cli

    (tmp_path / "brokenmod.py").write_text(
        "import ndnflow\n"
        "class Broken(ndnflow.Strategy):\n"
        "    def after_receive_interest(self, ctx, in_face, entry, nexthops):\n"
        "        return 1 / 0\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    text = (ROOT / "examples" / "quickstart.toml").read_text()
    text = text.replace('r  = { cs = { policy = "lru", capacity = 10000 } }',
                        'r  = { cs = { policy = "lru", capacity = 10000 }, strategy = "python:brokenmod:Broken" }')
    (tmp_path / "q.toml").write_text(text)
    status = cli.main(["run", str(tmp_path / "q.toml"), "--out", str(tmp_path / "out"), "--quiet", "--no-plot"])
    assert status == cli.EXIT_INTERRUPTED
    stopped = json.loads((tmp_path / "out" / "summary.json").read_text())["simulation"]["stopped"]
    # The first Interest reaches r after c1->r's 5 ms and its transmission: the failure is there.
    assert stopped.startswith("python strategy Broken at node r, after_receive_interest at t = 0.005")
    assert "ZeroDivisionError: division by zero" in stopped
