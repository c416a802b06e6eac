"""`ndnflow serve` and `ndnflow get` as processes through `ndnflow fwd` (crates/ndnflow-net app/,
docs/real-network.md "ndnflow get and serve"): a file published and fetched byte for byte, the
segment's DigestSha256 checked here with hashlib, and bad input refused in one line, exit 2."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ndnflow.cli import main
from ndnflow.results import Results

ROOT = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "PYTHONPATH": str(ROOT / "python")}


def _ndnflow(*args: str, **kwargs) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "ndnflow.cli", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=ENV, **kwargs)


def _wait_for(path: Path, proc: subprocess.Popen) -> None:
    deadline = time.monotonic() + 60
    while not path.exists():
        assert proc.poll() is None, proc.communicate()[1]
        assert time.monotonic() < deadline, f"{path} never appeared"
        time.sleep(0.02)


def _var_number(buf: bytes, at: int) -> tuple[int, int]:
    """An NDN TLV var-number at `at`: (value, offset after it)."""
    first = buf[at]
    if first < 253:
        return first, at + 1
    width = {253: 2, 254: 4, 255: 8}[first]
    return int.from_bytes(buf[at + 1:at + 1 + width], "big"), at + 1 + width


def _elements(buf: bytes, start: int, end: int):
    """(type, element start, value start, value end) of each TLV element in buf[start:end]."""
    at = start
    while at < end:
        typ, after_type = _var_number(buf, at)
        length, value_at = _var_number(buf, after_type)
        yield typ, at, value_at, value_at + length
        at = value_at + length


def _read_element(sock: socket.socket) -> bytes:
    buf = b""
    while True:
        if len(buf) >= 2:
            try:
                _, after_type = _var_number(buf, 0)
                length, value_at = _var_number(buf, after_type)
            except (IndexError, KeyError):
                length, value_at = None, 0
            if length is not None and len(buf) >= value_at + length:
                return buf[:value_at + length]
        chunk = sock.recv(65536)
        assert chunk, "the forwarder closed the connection"
        buf += chunk


@pytest.fixture
def forwarder(tmp_path):
    """`ndnflow fwd` with the applications' socket app.sock (and a producer's socket with /p)."""
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
    proc = _ndnflow("fwd", str(config), text=True)
    try:
        _wait_for(tmp_path / "app.sock", proc)
        _wait_for(tmp_path / "producer.sock", proc)
        yield tmp_path
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=60)


def test_get_fetches_what_serve_publishes_and_the_digest_verifies(forwarder):
    tmp = forwarder
    content = bytes(i * 7 % 256 for i in range(100_000))
    (tmp / "file.bin").write_bytes(content)
    # serve registers /p/file with rib/register on the applications' socket, and says so once the
    # forwarder has answered.
    serve = _ndnflow("serve", "/p/file", str(tmp / "file.bin"), "--socket", str(tmp / "app.sock"), text=True)
    try:
        line = serve.stderr.readline()
        assert "published 13 Data packet(s), 100000 bytes, under /p/file/v=" in line, line
        assert "(registered on face " in line, line
        get = subprocess.run(
            [sys.executable, "-m", "ndnflow.cli", "get", "/p/file", "--socket", str(tmp / "app.sock"),
             "--cc", "aimd", "-o", str(tmp / "out.bin"), "--out", str(tmp / "result")],
            capture_output=True, text=True, env=ENV, timeout=120)
        assert get.returncode == 0, get.stderr
        assert (tmp / "out.bin").read_bytes() == content
        # 100,000 bytes in 8000-byte segments: 12 full and one of 4000, 13 segments.
        assert "Segments received: 13" in get.stderr
        assert "Transferred size: 100 kB" in get.stderr
        summary = json.loads((tmp / "result" / "summary.json").read_text())
        assert summary["get"]["complete"] and summary["get"]["segments"] == 13
        # The version came from serve's RDR metadata (one Interest) and names the segments.
        versioned = summary["get"]["version_discovery"]["versioned_name"]
        assert versioned == line.split(" under ")[1].split()[0] and summary["get"]["name"] == versioned
        assert summary["consumers"]["get"]["payload_bytes"] == 100_000
        # The files a simulated run writes for its consumers, read back as one: the per-bin rows add
        # up to the 13 Data, and each segment has its per-segment row.
        result = Results.load(tmp / "result")
        assert result.consumers["data"].sum() == 13
        assert set(result.consumers["consumer"]) == {"get"}
        assert sorted(result.interests["segment"]) == list(range(13))
        assert (result.interests["full_delay_s"] > 0).all()
        assert result.links.empty and result.paths.empty
        assert result.summary["simulation"]["end_s"] == summary["get"]["elapsed_s"]
        assert main(["plot", str(tmp / "result"), "--out", str(tmp / "plots")]) == 0
        assert (tmp / "plots" / "throughput.png").is_file() and (tmp / "plots" / "delay.png").is_file()

        # Segment 0 through the forwarder by hand, asked as ndnputchunks answers an Interest with
        # no version or segment (CanBePrefix): its DigestSha256 is the SHA-256 of the bytes from
        # the Name's first to SignatureInfo's last (NDN packet format v0.3, "Signature").
        consumer = socket.socket(socket.AF_UNIX)
        consumer.settimeout(30)
        consumer.connect(str(tmp / "app.sock"))
        # Name /p/file: "p" (3 bytes), "file" (6): 9; CanBePrefix (21 00), Nonce, lifetime 4000 ms.
        name = bytes.fromhex("0709" "080170" "080466696c65")
        interest_value = name + bytes.fromhex("2100" "0a0401020304" "0c020fa0")
        consumer.sendall(bytes([0x05, len(interest_value)]) + interest_value)
        data = _read_element(consumer)
        assert data[0] == 0x06
        _, value_at = _var_number(data, _var_number(data, 0)[1])
        fields = {typ: (start, v0, v1) for typ, start, v0, v1 in _elements(data, value_at, len(data))}
        name_start = fields[0x07][0]
        signed_end = fields[0x16][2]
        sig_start, sig_end = fields[0x17][1], fields[0x17][2]
        assert data[fields[0x16][1]:signed_end] == bytes.fromhex("1b0100"), "SignatureType 0, DigestSha256"
        assert data[sig_start:sig_end] == hashlib.sha256(data[name_start:signed_end]).digest()
        assert data[fields[0x15][1]:fields[0x15][2]] == content[:8000]
    finally:
        serve.send_signal(signal.SIGTERM)
        out, err = serve.communicate(timeout=60)
    assert serve.returncode == 0, err
    assert json.loads(out)["data_sent"] >= 13


def test_get_with_no_forwarder_at_the_socket_is_a_clear_error(tmp_path, capsys):
    assert main(["get", "/p/file", "--socket", str(tmp_path / "none.sock")]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: no forwarder at {tmp_path / 'none.sock'}"), err


def test_bad_names_and_options_are_refused_in_one_line_with_exit_2(tmp_path, capsys):
    assert main(["get", "no-slash", "--socket", str(tmp_path / "s.sock")]) == 2
    assert 'NAME "no-slash"' in capsys.readouterr().err
    assert main(["get", "/p", "--cc", "aimdd", "--socket", str(tmp_path / "s.sock")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: --cc: cc.algorithm: ") and err.count("\n") == 1, err
    assert main(["get", "/p", "--lifetime", "soon", "--socket", str(tmp_path / "s.sock")]) == 2
    assert capsys.readouterr().err.startswith("error: --lifetime: lifetime: ")
    assert main(["get", "/p", "--bin", "0s", "--socket", str(tmp_path / "s.sock")]) == 2
    assert capsys.readouterr().err.startswith("error: --bin 0s: must be longer than 0")
    assert main(["get", "/p", "--bin", "10", "--socket", str(tmp_path / "s.sock")]) == 2
    assert capsys.readouterr().err.startswith("error: --bin: ")
    # The bins close as the wall clock passes them: 1 ns bins grew a small fetch past 2.8 GB.
    assert main(["get", "/p", "--bin", "1ns", "--socket", str(tmp_path / "s.sock")]) == 2
    assert capsys.readouterr().err.startswith("error: --bin: at least 1ms for a fetch on real sockets")


def test_get_checks_where_it_writes_before_it_fetches(tmp_path, capsys):
    # -o a folder failed only once every segment had come, and the object was lost, until
    # 2026-11-28; --out a file likewise lost the results. With no forwarder at the socket, the
    # fetch would fail first: each error below is the option's own.
    sock = str(tmp_path / "none.sock")
    assert main(["get", "/p", "-o", str(tmp_path), "--socket", sock]) == 2
    assert capsys.readouterr().err == f"error: -o {tmp_path}: a folder; give the file to write the object to\n"
    assert main(["get", "/p", "-o", str(tmp_path / "no" / "f.bin"), "--socket", sock]) == 2
    assert capsys.readouterr().err == f"error: -o {tmp_path / 'no' / 'f.bin'}: {tmp_path / 'no'} is not a folder\n"
    (tmp_path / "file").write_text("x")
    assert main(["get", "/p", "--out", str(tmp_path / "file"), "--socket", sock]) == 2
    assert capsys.readouterr().err.startswith(f"error: --out {tmp_path / 'file'}: not a folder")


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_get_names_the_file_it_could_not_write(tmp_path, capsys, monkeypatch):
    # A write refused after the fetch ("[Errno 28] No space left on device") named no file until
    # 2026-11-28. The fetch is faked: the object is b"abc", the summary a complete fetch's.
    from ndnflow import cli_net

    summary = json.dumps({"get": {"complete": True}})
    monkeypatch.setattr(cli_net._native, "require", lambda name: lambda *a: (b"abc", "done", summary, {}))
    assert main(["get", "/p", "-q", "-o", "/dev/full", "--socket", str(tmp_path / "s.sock")]) == 1
    assert capsys.readouterr().err == "error: -o /dev/full: No space left on device; the object was not written\n"


@pytest.mark.parametrize("size", ["0", "-1", str(2**70)])
def test_serve_refuses_a_segment_size_it_cannot_hold(tmp_path, capsys, size):
    # -1 and 2^70 reached the core as "internal error: OverflowError" until 2026-11-28.
    data = tmp_path / "data.bin"
    data.write_bytes(b"x" * 100)
    assert main(["serve", "/p", str(data), "--socket", str(tmp_path / "s.sock"), "--segment-size", size]) == 2
    assert capsys.readouterr().err == f"error: --segment-size {size}: a segment holds from 1 to 4294967295 bytes\n"


def test_serve_refuses_a_key_name_without_a_key(tmp_path, capsys):
    data = tmp_path / "data.bin"
    data.write_bytes(b"x")
    assert main(["serve", "/p", str(data), "--socket", str(tmp_path / "s.sock"), "--key-name", "/p/KEY/x"]) == 2
    assert capsys.readouterr().err == "error: --key-name names the key given by --key; give --key FILE too\n"


def test_serve_with_a_missing_file_is_a_clear_error(tmp_path, capsys):
    assert main(["serve", "/p", str(tmp_path / "missing.bin"), "--socket", str(tmp_path / "s.sock")]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: cannot read {tmp_path / 'missing.bin'}"), err


def test_serve_with_a_bad_key_is_a_clear_error(tmp_path, capsys):
    (tmp_path / "file.bin").write_bytes(b"x")
    (tmp_path / "not-a-key.pem").write_text("hello\n")
    args = ["serve", "/p", str(tmp_path / "file.bin"), "--socket", str(tmp_path / "s.sock")]
    assert main(args + ["--key", str(tmp_path / "missing.pem")]) == 2
    assert capsys.readouterr().err.startswith(f"error: --key: cannot read {tmp_path / 'missing.pem'}")
    assert main(args + ["--key", str(tmp_path / "not-a-key.pem")]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: --key: {tmp_path / 'not-a-key.pem'}: not a P-256 private key in PEM"), err
    assert main(args + ["--key", str(tmp_path / "not-a-key.pem"), "--key-name", "no-slash"]) == 2
    assert capsys.readouterr().err.startswith('error: --key-name "no-slash": ')
