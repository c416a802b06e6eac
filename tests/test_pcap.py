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
from typing import Dict, List, Sequence

import pytest

from ndnflow import _core
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


def dissect(capture: Path, fields: Sequence[str] = FIELDS) -> List[Dict[str, str]]:
    """Every frame of `capture` as {field: value} through the Lua dissector (repeated fields
    joined by ',')."""
    command = [tshark(), "-r", str(capture), "-X", f"lua_script:{DISSECTOR}", "-T", "fields",
               "-E", "separator=\t", "-E", "occurrence=a", "-E", "aggregator=,"]
    for field in fields:
        command += ["-e", field]
    out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    return [dict(zip(fields, line.split("\t"))) for line in out.splitlines()]


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


# ------------------------------------------------------------------ every field, from hand-built frames


def tlv(typ: int, value: bytes = b"") -> bytes:
    def var(n: int) -> bytes:
        return bytes([n]) if n < 253 else b"\xfd" + n.to_bytes(2, "big")
    return var(typ) + var(len(value)) + value


def nonneg(n: int) -> bytes:
    width = next(w for w in (1, 2, 4, 8) if n < 1 << (8 * w))
    return n.to_bytes(width, "big")


def pcap_file(frames: Sequence[bytes]) -> bytes:
    """A microsecond pcap of raw IPv4 (link type 101) + UDP 6363 records, checksums 0."""
    out = bytearray((0xA1B2C3D4).to_bytes(4, "little") + (2).to_bytes(2, "little") + (4).to_bytes(2, "little")
                    + bytes(8) + (65535).to_bytes(4, "little") + (101).to_bytes(4, "little"))
    for k, frame in enumerate(frames):
        length = 28 + len(frame)
        ip = bytes([0x45, 0]) + length.to_bytes(2, "big") + bytes(4) + bytes([64, 17, 0, 0, 10, 0, 0, 1, 10, 0, 0, 2])
        udp = (6363).to_bytes(2, "big") * 2 + (8 + len(frame)).to_bytes(2, "big") + bytes(2)
        out += k.to_bytes(4, "little") + bytes(4) + length.to_bytes(4, "little") * 2 + ip + udp + frame
    return bytes(out)


def test_every_field_of_the_wire_format_is_dissected(tmp_path):
    """One Interest and one Data carrying every field docs/wire-format.md lists, encoded by the
    codec (network packets) and by hand (the LpPackets, from the TLV numbers there)."""
    interest = _core.encode_interest("/a/seg=300", 0x01020304, lifetime_ms=2000, can_be_prefix=True,
                                     must_be_fresh=True, hop_limit=7)
    data = _core.encode_data("/a/seg=300", b"x" * 100, freshness_ms=4000, final_block_id=999, content_type=0)
    eight = (0xABCD).to_bytes(8, "big")
    interest_lp = tlv(100, tlv(81, (5).to_bytes(8, "big")) + tlv(82, nonneg(0)) + tlv(83, nonneg(1))
                      + tlv(800, tlv(801, nonneg(150))) + tlv(844, b"") + tlv(860, eight) + tlv(80, interest))
    announcement = tlv(7, tlv(8, b"a")) + tlv(109, nonneg(3_600_000))
    data_lp = tlv(100, tlv(832, nonneg(1)) + tlv(836, (11).to_bytes(8, "big")) + tlv(836, (12).to_bytes(8, "big"))
                  + tlv(840, (13).to_bytes(8, "big")) + tlv(848, announcement) + tlv(856, nonneg(3)) + tlv(864, eight)
                  + tlv(868, tlv(872, nonneg(4)) + tlv(872, nonneg(17))) + tlv(876, nonneg(0x0321))
                  + tlv(880, (10**7).to_bytes(8, "big")) + tlv(884, (5 * 10**6).to_bytes(8, "big"))
                  + tlv(80, data))
    path = tmp_path / "fields.pcap"
    path.write_bytes(pcap_file([interest_lp, data_lp]))
    fields = ("ndnflow.packet", "ndnflow.name", "ndnflow.name.segment", "ndnflow.nonce", "ndnflow.lifetime",
              "ndnflow.can_be_prefix", "ndnflow.must_be_fresh", "ndnflow.hop_limit", "ndnflow.lp.sequence",
              "ndnflow.lp.frag_index", "ndnflow.lp.frag_count", "ndnflow.lp.nack_reason", "ndnflow.lp.path_id",
              "ndnflow.lp.congestion_mark", "ndnflow.lp.ack", "ndnflow.lp.tx_sequence", "ndnflow.lp.hop_count",
              "ndnflow.lp.trajectory_id", "ndnflow.lp.tag", "ndnflow.lp.flags", "ndnflow.lp.mircc_rate",
              "ndnflow.lp.mircc_rate2", "ndnflow.lp.announced_prefix", "ndnflow.lp.expiration_period",
              "ndnflow.content_type", "ndnflow.freshness_period",
              "ndnflow.final_block_id", "ndnflow.content_length", "ndnflow.signature_type", "ndnflow.malformed")
    nack, datum = dissect(path, fields)
    assert {k: v for k, v in nack.items() if v} == {
        "ndnflow.packet": "Nack", "ndnflow.name": "/a/seg=300", "ndnflow.name.segment": "300",
        "ndnflow.nonce": "0x01020304", "ndnflow.lifetime": "2000", "ndnflow.can_be_prefix": "1",
        "ndnflow.must_be_fresh": "1", "ndnflow.hop_limit": "7", "ndnflow.lp.sequence": "5",
        "ndnflow.lp.frag_index": "0", "ndnflow.lp.frag_count": "1", "ndnflow.lp.nack_reason": "150",
        "ndnflow.lp.path_id": "0x000000000000abcd",
    }
    # The Info column is `_ws.col.Info` up to Wireshark 4.0, `_ws.col.info` from 4.2.
    info = [frame["_ws.col.Info"] or frame["_ws.col.info"] for frame in dissect(path, ("_ws.col.Info", "_ws.col.info"))]
    assert "NonDiscovery" in info[0] and "announces /a" in info[1], info
    assert {k: v for k, v in datum.items() if v} == {
        "ndnflow.packet": "Data", "ndnflow.name": "/a/seg=300", "ndnflow.name.segment": "300",
        "ndnflow.lp.congestion_mark": "1", "ndnflow.lp.ack": "11,12", "ndnflow.lp.tx_sequence": "13",
        "ndnflow.lp.hop_count": "3", "ndnflow.lp.trajectory_id": "0x000000000000abcd", "ndnflow.lp.tag": "4,17",
        "ndnflow.lp.flags": "0x0000000000000321", "ndnflow.lp.mircc_rate": "10000000",
        "ndnflow.lp.mircc_rate2": "5000000", "ndnflow.lp.announced_prefix": "/a",
        "ndnflow.lp.expiration_period": "3600000", "ndnflow.content_type": "0", "ndnflow.freshness_period": "4000",
        "ndnflow.final_block_id": "seg=999", "ndnflow.content_length": "100", "ndnflow.signature_type": "0",
    }
