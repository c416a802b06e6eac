"""pcap captures (`[trace] pcap`, docs/wire-format.md "Captures") read back by tshark through the
repository's Lua dissector: every frame dissects as NDN, and what the frames hold is what the run
counted on the direction.

tshark is a Debian package (`apt-get install tshark`); without it these tests skip, except in CI
(`CI` set), where they fail: .ci/run installs it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import Dict, List

import pytest

from ndnflow.results import Results
from ndnflow.runner import run
from ndnflow.scenario import Scenario

ROOT = Path(__file__).resolve().parent.parent
DISSECTOR = ROOT / "tools" / "wireshark" / "ndnflow-ndn.lua"
FIELDS = (
    "frame.time_epoch", "frame.len", "ndnflow.packet", "ndnflow.name", "ndnflow.name.segment",
    "ndnflow.lp.congestion_mark", "ndnflow.lp.nack_reason", "ndnflow.lp.frag_index",
    "ndnflow.lp.frag_count", "ndnflow.malformed",
)
KINDS = {"Interest", "Data", "Nack", "IDLE", "Fragment", "Fragment of Data"}

# c --(100 Mbit/s, 1 ms, 2 % loss, PCON's link loss detection: Sequence, TxSequence, Acks, IDLE
# packets, Nacks for what the wireless link lost)-- r --(10 Mbit/s, 10 ms, PCON's marking queue,
# MTU 1500: every 4,000-byte Data leaves p in three NDNLPv2 fragments, some marked)-- p.
SCENARIO = """
[simulation]
duration = "2s"
seed = 3

[nodes]
c = {}
r = { strategy = "pcon" }
p = {}

[[links]]
between = ["c", "r"]
bandwidth = "100Mbps"
delay = "1ms"
loss_detection = "wireless"
loss = { model = "bernoulli", p = 0.02 }

[[links]]
between = ["r", "p"]
bandwidth = "10Mbps"
delay = "10ms"
mtu = 1500
queue = { discipline = "pcon", packets = 1000 }

[[producers]]
node = "p"
prefix = "/data"
payload = 4000

[[consumers]]
node = "c"
name = "/data/movie"
cc = { algorithm = "pcon" }

[trace]
pcap = ["c-r", "p->r"]
"""


def tshark() -> str:
    path = shutil.which("tshark")
    if path is None:
        if os.environ.get("CI"):
            pytest.fail("tshark is missing: CI must install it (.ci/run does)")
        pytest.skip("tshark is not installed (Debian: apt-get install tshark)")
    return path


def dissect(capture: Path) -> List[Dict[str, str]]:
    """Every frame of `capture` as {field: value} through the Lua dissector (repeated fields
    joined by ',')."""
    command = [tshark(), "-r", str(capture), "-X", f"lua_script:{DISSECTOR}", "-T", "fields",
               "-E", "separator=\t", "-E", "occurrence=a", "-E", "aggregator=,"]
    for field in FIELDS:
        command += ["-e", field]
    out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    return [dict(zip(FIELDS, line.split("\t"))) for line in out.splitlines()]


def check_every_frame_is_ndn(frames: List[Dict[str, str]]) -> None:
    bad = [(i + 1, f["ndnflow.packet"]) for i, f in enumerate(frames)
           if f["ndnflow.packet"] not in KINDS or f["ndnflow.malformed"]]
    assert not bad, f"frames not dissected as NDN (number, what): {bad[:5]}"


@pytest.fixture(scope="module")
def captured(tmp_path_factory) -> Results:
    tshark()
    results = run(Scenario.from_toml(SCENARIO), progress=False)
    out = tmp_path_factory.mktemp("pcap")
    results.save(out)
    return Results.load(out)


def of_kind(frames, *kinds):
    return [f for f in frames if f["ndnflow.packet"] in kinds]


def test_one_file_per_direction_and_one_frame_per_packet_sent(captured):
    files = captured.captures.files
    assert sorted(files) == ["c-r.pcap", "p-r.pcap", "r-c.pcap"]
    for name, direction in (("c-r.pcap", "c->r"), ("r-c.pcap", "r->c"), ("p-r.pcap", "p->r")):
        frames = dissect(files[name])
        check_every_frame_is_ndn(frames)
        link = captured.summary["links"][direction]
        assert len(frames) == link["packets"] == captured.summary["captures"][name]["frames"]
        # Lost frames were transmitted: they are in the capture, as in `packets`.
        assert link["losses"] > 0 or direction == "p->r"
        times = [float(f["frame.time_epoch"]) for f in frames]
        assert times == sorted(times)


def test_interests_names_and_segments_are_those_the_consumer_sent(captured):
    frames = dissect(captured.captures.files["c-r.pcap"])
    link = captured.summary["links"]["c->r"]
    consumer = captured.summary["consumers"]["c"]
    interests = of_kind(frames, "Interest")
    assert len(interests) == link["interests"] == consumer["interests_sent"]
    assert len(of_kind(frames, "IDLE")) == link["lp_idle"]
    for f in interests:
        assert f["ndnflow.name"] == f"/data/movie/seg={f['ndnflow.name.segment']}"
    # Each retransmission repeats a segment sent before; the others are new: 0, 1, 2, ...
    segments = {int(f["ndnflow.name.segment"]) for f in interests}
    assert len(segments) == consumer["interests_sent"] - consumer["retransmissions"]
    assert segments == set(range(len(segments)))
    # The consumer starts at 0 s and sends at once: the first Interest is stamped 0.
    assert float(interests[0]["frame.time_epoch"]) == 0.0
    # Bytes: each record is IPv4 (20) + UDP (8) + the frame, whose bytes the link counted.
    assert sum(int(f["frame.len"]) - 28 for f in frames) == link["bytes"]


def test_data_and_nacks_down_the_lossy_link(captured):
    frames = dissect(captured.captures.files["r-c.pcap"])
    link = captured.summary["links"]["r->c"]
    assert len(of_kind(frames, "Data")) == link["data"]
    nacks = of_kind(frames, "Nack")
    # What the link gave up on comes back as Nack(Congestion) (reason 50), unmarked on a wireless link.
    assert len(nacks) == link["nacks"] > 0
    assert {f["ndnflow.lp.nack_reason"] for f in nacks} == {"50"}
    assert len(of_kind(frames, "IDLE")) == link["lp_idle"]
    assert sum(int(f["frame.len"]) - 28 for f in frames) == link["bytes"]


def test_fragments_and_marks_where_the_queue_marked(captured):
    frames = dissect(captured.captures.files["p-r.pcap"])
    link = captured.summary["links"]["p->r"]
    assert link["drops"] == 0  # so every packet's fragment 0 is a Data the link counted as sent
    # 4,076-byte Data at MTU 1500: 1,488 usable, 1,438 per fragment, so 1,438 + 1,438 + 1,200.
    assert {f["ndnflow.lp.frag_count"] for f in frames} == {"3"}
    firsts = [f for f in frames if f["ndnflow.lp.frag_index"] == "0"]
    assert len(firsts) == link["data"]
    assert all(f["ndnflow.packet"] == "Fragment of Data" and f["ndnflow.name"].startswith("/data/movie/seg=")
               for f in firsts)
    # The producer marks nothing: every mark on the direction is one its queue set.
    marked = [f for f in frames if f["ndnflow.lp.congestion_mark"] == "1"]
    assert len(marked) == link["marks"] > 0


def test_a_wrong_length_is_caught(captured, tmp_path):
    source = captured.captures.files["c-r.pcap"].read_bytes()
    # The first record's NDN bytes start after the global header (24), the record header (16),
    # IPv4 (20) and UDP (8); byte 1 is the outer TLV-LENGTH.
    broken = bytearray(source)
    broken[24 + 16 + 28 + 1] += 1
    path = tmp_path / "broken.pcap"
    path.write_bytes(bytes(broken))
    with pytest.raises(AssertionError, match="not dissected as NDN"):
        check_every_frame_is_ndn(dissect(path))


def test_the_builder_writes_the_trace_table():
    scenario = Scenario.from_toml(SCENARIO)
    built = Scenario.from_toml(scenario.to_toml())
    assert built.to_dict()["trace"] == {"pcap": ["c-r", "p->r"]}
    assert Scenario().trace(pcap=("a->b",)).to_dict()["trace"] == {"pcap": ["a->b"]}
