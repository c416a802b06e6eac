"""`ndnflow fwd`: the real-time daemon (crates/ndnflow-net, docs/real-network.md) run by the Python
command. A consumer and a producer on its Unix sockets exchange hand-written packets, SIGTERM stops
it with its counters printed as JSON, and a bad configuration is a one-line error."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from ndnflow.cli import main

ROOT = Path(__file__).resolve().parent.parent

#: Name /p/x as a TLV: Name (7), two GenericNameComponents (8) "p" and "x".
NAME_P_X = bytes.fromhex("0706" "080170" "080178")


def _interest(nonce: int) -> bytes:
    """Interest /p/x with this nonce and InterestLifetime 4000 ms (0x0FA0), written by hand."""
    value = NAME_P_X + bytes([0x0A, 0x04]) + nonce.to_bytes(4, "big") + bytes.fromhex("0c020fa0")
    return bytes([0x05, len(value)]) + value


#: Data /p/x with Content "hi", DigestSha256 SignatureInfo (type 0) and a 32-byte SignatureValue
#: of zeros: 2 + 8 + 4 + 5 + 34 = 53 bytes.
DATA_BODY = NAME_P_X + b"\x15\x02hi" + bytes.fromhex("16031b0100") + b"\x17\x20" + bytes(32)
DATA_P_X = bytes([0x06, len(DATA_BODY)]) + DATA_BODY


def _read_exactly(sock: socket.socket, n: int) -> bytes:
    out = b""
    while len(out) < n:
        chunk = sock.recv(n - len(out))
        assert chunk, "the daemon closed the connection"
        out += chunk
    return out


def _read_element(sock: socket.socket) -> bytes:
    """One TLV element whose type and length take one byte each (all this test exchanges)."""
    header = _read_exactly(sock, 2)
    assert header[1] < 253, header
    return header + _read_exactly(sock, header[1])


def _wait_for(path: Path, proc: subprocess.Popen) -> None:
    deadline = time.monotonic() + 60
    while not path.exists():
        assert proc.poll() is None, proc.communicate()[1]
        assert time.monotonic() < deadline, f"{path} never appeared"
        time.sleep(0.02)


def test_fwd_forwards_between_local_applications_and_stops_on_sigterm(tmp_path):
    config = tmp_path / "fwd.toml"
    config.write_text(f'''
[listen]
udp = false
tcp = false
unix = "{tmp_path}/app.sock"

[[faces]]
name = "producer"
unix = "{tmp_path}/producer.sock"

[[routes]]
prefix = "/p"
nexthop = "producer"
''')
    env = {**os.environ, "PYTHONPATH": str(ROOT / "python")}
    proc = subprocess.Popen([sys.executable, "-m", "ndnflow.cli", "fwd", str(config)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)
    try:
        _wait_for(tmp_path / "producer.sock", proc)
        _wait_for(tmp_path / "app.sock", proc)
        producer = socket.socket(socket.AF_UNIX)
        producer.settimeout(30)
        producer.connect(str(tmp_path / "producer.sock"))
        consumer = socket.socket(socket.AF_UNIX)
        consumer.settimeout(30)
        consumer.connect(str(tmp_path / "app.sock"))
        # The two connections are accepted by two listeners, in either order: until the
        # producer's face (and its route) exists, the Interest meets no route and comes back as a
        # Nack (an LpPacket, type 100 = 0x64). Ask again with another nonce until it goes through.
        attempts = 0
        while True:
            attempts += 1
            consumer.sendall(_interest(attempts))
            producer.settimeout(0.2)
            try:
                received = _read_element(producer)
                break
            except socket.timeout:
                assert _read_element(consumer)[0] == 0x64, "no route: a Nack"
        producer.settimeout(30)
        assert received == _interest(attempts), "the producer reads the consumer's bytes unchanged"
        producer.sendall(DATA_P_X)
        assert _read_element(consumer) == DATA_P_X
    finally:
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert "listening on udp off, tcp off, unix" in err
    report = json.loads(out)
    # Every attempt came in; only the last was forwarded (the others had no route), and its Data
    # came back.
    fw = report["forwarder"]
    assert (fw["in_interests"], fw["out_interests"], fw["in_data"], fw["out_data"]) == (attempts, 1, 1, 1)
    assert fw["no_route"] == attempts - 1
    producer_face = next(f for f in report["faces"] if f["name"] == "producer")
    assert (producer_face["out_interests"], producer_face["in_data"], producer_face["in_bytes"]) == (1, 1, 53)
    assert not (tmp_path / "app.sock").exists(), "the daemon removes its sockets when it stops"


def test_fwd_refuses_a_bad_configuration_in_one_line(tmp_path, capsys):
    config = tmp_path / "bad.toml"
    config.write_text('[[routes]]\nprefix = "/p"\nnexthop = "nowhere"\n')
    assert main(["fwd", str(config)]) == 2
    err = capsys.readouterr().err
    assert err == f'error: {config}:3: routes[0].nexthop: unknown face "nowhere" (the file has no [[faces]])\n'
