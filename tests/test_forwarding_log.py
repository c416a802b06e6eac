"""The forwarding log (`[trace] forwarding`, docs/protocols/forwarder.md "Forwarding log") as the
Python front writes it: `forwarding.parquet` and `forwarding.log`, one line per row, and the
builder's key read back. The steps themselves are checked in
crates/ndnflow-sim/tests/forwarding_log.rs."""

from __future__ import annotations

import pandas as pd

import ndnflow
from ndnflow import Results, Scenario


def chain():
    """c --10 Mbit/s, 10 ms-- r --10 Mbit/s, 10 ms-- p; c fetches /a/x, 3 segments, one at a time."""
    sc = Scenario(duration="1s", seed=1).nodes("c", "r", "p")
    sc.link("c", "r", bandwidth="10Mbps", delay="10ms").link("r", "p", bandwidth="10Mbps", delay="10ms")
    return sc.producer("p", "/a").consumer("c", "/a/x", segments=3, window=1)


def test_the_builder_writes_the_key_and_reads_it_back():
    sc = chain().forwarding_log(nodes=["r"], prefix="/a", level="trace", max_records=10)
    text = sc.to_toml()
    assert '[trace]\nforwarding = { nodes = ["r"], prefix = "/a", level = "trace", max_records = 10 }' in text
    assert Scenario.from_toml(text).to_dict()["trace"] == sc.to_dict()["trace"]


def test_the_log_is_saved_as_text_and_parquet_and_loaded_back(real_core, tmp_path):
    results = ndnflow.run(chain().forwarding_log(nodes=["r"]), progress=False)
    log = results.forwarding
    # At r, per segment: in, CS miss, decision, out, Data in, finalize, Data out (7 x 3).
    assert len(log) == 21
    assert results.summary["simulation"]["forwarding_log"] == {"records": 21, "dropped": 0, "max_records": 100000}
    written = [p.name for p in results.save(tmp_path)]
    assert "forwarding.parquet" in written and "forwarding.log" in written
    lines = (tmp_path / "forwarding.log").read_text().splitlines()
    assert len(lines) == 21
    # 10 ms + 23 bytes at 10 Mbit/s (the Rust test derives it); the nonce is c's.
    nonce = log["nonce"][0]
    assert lines[0] == f"0.010018400 r onIncomingInterest in=c name=/a/x/seg=0 nonce={nonce}"
    assert lines[3] == f"0.010018400 r onOutgoingInterest out=p name=/a/x/seg=0 nonce={nonce}"
    assert lines[5] == "0.030902400 r onInterestFinalize name=/a/x/seg=0 satisfied by data"
    pd.testing.assert_frame_equal(Results.load(tmp_path).forwarding, log)


def test_the_log_written_in_pieces_is_the_same_text(real_core, tmp_path, monkeypatch):
    from ndnflow import results as results_module

    whole = ndnflow.run(chain().forwarding_log(nodes=["r"]), progress=False)
    whole.forwarding  # built: written in one piece
    whole.save(tmp_path / "whole")
    monkeypatch.setattr(results_module, "PIECE_ROWS", 4)  # 21 rows: pieces of 4, the last of 1
    streamed = ndnflow.run(chain().forwarding_log(nodes=["r"]), progress=False)
    streamed.save(tmp_path / "pieces")
    assert "forwarding" not in streamed._frames
    log = (tmp_path / "pieces" / "forwarding.log").read_text()
    assert log == (tmp_path / "whole" / "forwarding.log").read_text() and len(log.splitlines()) == 21


def test_without_the_key_no_log_is_written_and_a_stale_one_goes(real_core, tmp_path):
    ndnflow.run(chain().forwarding_log(nodes=["r"]), progress=False).save(tmp_path)
    plain = ndnflow.run(chain(), progress=False)
    assert plain.forwarding.empty
    assert "forwarding_log" not in plain.summary["simulation"]
    plain.save(tmp_path)
    assert not (tmp_path / "forwarding.parquet").exists()
    assert not (tmp_path / "forwarding.log").exists()


class SaysWhy(ndnflow.Strategy):
    """The lowest-cost next hop other than the incoming face, saying so, with all of the prefix's
    traffic on it: the log's reason and percentages from a Python strategy."""

    def __init__(self):
        self.used = None

    def after_receive_interest(self, ctx, in_face, entry, nexthops):
        hops = [hop.face for hop in nexthops if hop.face != in_face]
        if not hops:
            return ndnflow.Nack("no-route", why="only the incoming face")
        self.used = hops[0]
        return ndnflow.Forward([hops[0]], why="lowest cost, not back")

    def forwarding_shares(self, ctx, prefix):
        return None if self.used is None else {self.used: 1.0}


def test_a_python_strategy_says_why_and_gives_its_percentages(real_core):
    results = ndnflow.run(chain().node("r", strategy=SaysWhy).forwarding_log(nodes=["r"]), progress=False)
    log = results.forwarding
    decisions = log[log["event"] == "afterReceiveInterest"]["detail"].tolist()
    # One decision per segment, each forwarded to face 1 (r's faces: 0 to c, 1 to p).
    assert decisions == ["strategy=python forward to 1: lowest cost, not back"] * 3
    # The percentages are logged when they change: once, after the first decision (100 % on p),
    # so 7 records per segment and that one. The FIB prefix is the producer's, /a.
    shares = log[log["event"] == "forwardingPercentages"]
    assert shares["detail"].tolist() == ["p=100.00%"] and shares["name"].tolist() == ["/a"]
    assert len(log) == 22
