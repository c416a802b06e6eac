"""The walkthrough of docs/real-network.md ("Walkthrough: a three-node PCON network on one
machine"), run as a user runs it: the three configuration files of examples/real-network, three
`ndnflow fwd` processes, `ndnflow serve` at C and `ndnflow get --cc pcon` at A, each a process.

The files are used as they are written, but for their directory (/tmp/ndnflow-chain becomes the
test's own) and their UDP ports (6363-6365 become three free ones), so that the test runs beside
another run of itself or an NFD on 6363.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples" / "real-network"
ENV = {**os.environ, "PYTHONPATH": str(ROOT / "python")}
PORTS = ("6363", "6364", "6365")


def _free_udp_ports(n: int) -> list[str]:
    socks = [socket.socket(socket.AF_INET, socket.SOCK_DGRAM) for _ in range(n)]
    try:
        for s in socks:
            s.bind(("127.0.0.1", 0))
        return [str(s.getsockname()[1]) for s in socks]
    finally:
        for s in socks:
            s.close()


def _ndnflow(*args: str, **kw) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "ndnflow.cli", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=ENV, **kw)


def test_the_three_node_pcon_walkthrough_runs_as_written(tmp_path):
    ports = _free_udp_ports(3)
    daemons = {}
    try:
        for node in ("c", "b", "a"):  # the order the walkthrough starts them in
            text = (EXAMPLES / f"{node}.toml").read_text().replace("/tmp/ndnflow-chain", str(tmp_path))
            for old, new in zip(PORTS, ports):
                text = text.replace(f"127.0.0.1:{old}", f"127.0.0.1:{new}")
            (tmp_path / f"{node}.toml").write_text(text)
            daemons[node] = _ndnflow("fwd", str(tmp_path / f"{node}.toml"))
        deadline = time.monotonic() + 60
        while not all((tmp_path / f"{node}.sock").exists() for node in daemons):
            for node, d in daemons.items():
                assert d.poll() is None, (node, d.communicate()[1])
            assert time.monotonic() < deadline, "the daemons never listened"
            time.sleep(0.05)
        content = os.urandom(300_000)
        (tmp_path / "file.bin").write_bytes(content)
        serve = _ndnflow("serve", "/p/file", str(tmp_path / "file.bin"), "--socket", str(tmp_path / "c.sock"),
                         "--segment-size", "1000", text=True)
        try:
            line = serve.stderr.readline()
            assert "published 300 Data packet(s), 300000 bytes, under /p/file/v=" in line, line
            get = subprocess.run([sys.executable, "-m", "ndnflow.cli", "get", "/p/file", "--socket",
                                  str(tmp_path / "a.sock"), "--cc", "pcon", "-o", str(tmp_path / "copy.bin"),
                                  "--out", str(tmp_path / "result")], capture_output=True, text=True, env=ENV,
                                 timeout=120)
        finally:
            serve.send_signal(signal.SIGTERM)
            serve.communicate(timeout=60)
        assert get.returncode == 0, get.stderr
        assert (tmp_path / "copy.bin").read_bytes() == content
        summary = json.loads((tmp_path / "result" / "summary.json").read_text())["get"]
    finally:
        reports = {}
        for node, d in daemons.items():
            d.send_signal(signal.SIGTERM)
            out, err = d.communicate(timeout=60)
            assert d.returncode == 0, (node, err)
            reports[node] = json.loads(out)
    # 300 segments of 1,000 bytes (a Data about 1,070 bytes on the wire) through B's 2 Mbit/s face:
    # at least 299 x 1,070 x 8 / 2e6 = 1.28 s, so the goodput is at most 1.87 Mbit/s (the face's
    # rate less the headers). PCON's consumer keeps the face busy: measured 1.28-1.29 s in
    # tests/chain.rs, the same chain in one process; 1.0 Mbit/s is half of that, for a loaded machine.
    assert summary["complete"] and summary["segments"] == 300
    assert 1.0e6 < summary["goodput_bps"] < 1.9e6, summary["goodput_bps"]
    # B's queue marked, the marks reached the consumer through A, and its window fell on them.
    face_a = next(f for f in reports["b"]["faces"] if f.get("name") == "a")
    marked = face_a["link"]["marked"]
    assert marked > 0, face_a
    assert 0 < summary["congestion_marks"] <= marked, (summary["congestion_marks"], marked)
    assert 0 < summary["mark_window_decreases"] <= summary["congestion_marks"]
