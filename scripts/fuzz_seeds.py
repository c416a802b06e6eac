"""Writes the seed corpus of the codec's mutation fuzz (crates/ndnflow-core/tests/codec_fuzz.rs):
packets as python-ndn (PyPI `python-ndn`, the test extra) encodes them, one hex string per line,
each after a comment saying what it is. The corpus is committed, so the fuzz runs without
python-ndn; re-run this script to regenerate it:

    python scripts/fuzz_seeds.py > crates/ndnflow-core/tests/fuzz/seeds.hex
"""

from __future__ import annotations

import sys
from typing import Iterator, Tuple

from ndn.encoding import Component, InterestParam, MetaInfo, Name, make_data, make_interest
from ndn.encoding.ndnlp_v2 import LpPacket, LpPacketValue, NackReason, make_network_nack
from ndn.security import DigestSha256Signer


def interests() -> Iterator[Tuple[str, bytes]]:
    yield "Interest /video/a/seg=3, nonce, lifetime", bytes(make_interest(
        "/video/a/" + Component.to_str(Component.from_segment(3)),
        InterestParam(nonce=0x12345678, lifetime=2000)))
    yield "Interest /a, CanBePrefix, MustBeFresh, HopLimit", bytes(make_interest(
        "/a", InterestParam(can_be_prefix=True, must_be_fresh=True, nonce=1, lifetime=4000, hop_limit=32)))
    yield "Interest with ApplicationParameters (a ParametersSha256Digest component)", bytes(make_interest(
        "/app/params", InterestParam(nonce=7, lifetime=1000), app_param=b"\x01\x02\x03\x04"))
    yield "Interest, typed components (version, timestamp, sequence number)", bytes(make_interest(
        [Component.from_str("p"), Component.from_version(5), Component.from_timestamp(1_700_000_000),
         Component.from_sequence_num(9)], InterestParam(nonce=3, lifetime=500)))
    yield "Interest, a long name of 40 components", bytes(make_interest(
        "/" + "/".join(f"c{k}" for k in range(40)), InterestParam(nonce=11, lifetime=4000)))
    yield "Interest, signed (InterestSignatureInfo, DigestSha256)", bytes(make_interest(
        "/signed", InterestParam(nonce=5, lifetime=4000), app_param=b"x", signer=DigestSha256Signer()))


def data() -> Iterator[Tuple[str, bytes]]:
    signer = DigestSha256Signer()
    yield "Data /video/a/seg=3, 16 bytes, DigestSha256", bytes(make_data(
        "/video/a/" + Component.to_str(Component.from_segment(3)), None, bytes(range(16)), signer))
    yield "Data with MetaInfo (ContentType, FreshnessPeriod, FinalBlockId)", bytes(make_data(
        "/a/b", MetaInfo(content_type=0, freshness_period=1000, final_block_id=Component.from_segment(9)),
        b"payload", signer))
    yield "Data, 1024 zero bytes of payload", bytes(make_data("/p/seg=1", None, bytes(1024), signer))
    yield "Data, empty content", bytes(make_data("/empty", None, b"", signer))


def lp_frames() -> Iterator[Tuple[str, bytes]]:
    interest = bytes(make_interest("/n", InterestParam(nonce=9, lifetime=4000)))
    yield "LpPacket: Nack(Congestion) around an Interest", bytes(make_network_nack(interest, NackReason.CONGESTION))
    yield "LpPacket: Nack(NoRoute)", bytes(make_network_nack(interest, NackReason.NO_ROUTE))
    pkt = LpPacket()
    pkt.lp_packet = LpPacketValue()
    pkt.lp_packet.congestion_mark = 1
    pkt.lp_packet.fragment = bytes(make_data("/m", None, b"marked", DigestSha256Signer()))
    yield "LpPacket: CongestionMark = 1 and a Data", bytes(pkt.encode())


def main() -> None:
    out = sys.stdout
    out.write("# Seed corpus of the codec fuzz, written by scripts/fuzz_seeds.py with python-ndn.\n")
    for what, wire in (*interests(), *data(), *lp_frames()):
        out.write(f"# {what}\n{wire.hex()}\n")


if __name__ == "__main__":
    main()
