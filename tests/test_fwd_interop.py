"""python-ndn applications, unchanged, through `ndnflow fwd` (issue 25, items 3 and 5).

python-ndn (PyPI, the pinned test dependency) finds its forwarder through NDN_CLIENT_TRANSPORT,
registers prefixes with NFD's rib/register command and reads NFD's status datasets. Each
application here is its own process, as a user would run it:

- the classic `ndn.app.NDNApp` registers with the signed-Interest v0.2 command form (timestamp,
  nonce, SignatureInfo and SignatureValue name components);
- `ndn.appv2.NDNApp` registers with a v0.3 signed Interest (ApplicationParameters and
  InterestSignatureInfo/Value, a ParametersSha256DigestComponent in the name);
- `pynfdc`, python-ndn's nfdc, makes a UDP face and a route, sets a strategy and reads the
  faces, routes, strategies and general status back, inspects a face and removes one by its URI
  (both with faces/query);
- python-ndn's `CsInfo` model reads cs/info, and its `make_command_v2` sends cs/config and
  cs/erase (pynfdc has no command for them);
- python-ndn's own RDR tools (`python -m ndn.bin.tools putchunks` and `catchunks`) meet
  `ndnflow get` and `ndnflow serve`: each side reads the other's version discovery (RDR
  metadata) and segments.

The applications use python-ndn's digest-only keychain (`KeychainDigest`), so that no key store
needs to exist under HOME; the forwarder checks no signature either way (docs/real-network.md).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

pytest.importorskip("ndn", reason="python-ndn is a test dependency (requirements-dev.lock)")

ROOT = Path(__file__).resolve().parent.parent

PRODUCER_V1 = """
from ndn.app import NDNApp
from ndn.encoding import Name
from ndn.security import KeychainDigest
app = NDNApp(keychain=KeychainDigest())

@app.route('/demo')
def on_interest(name, param, app_param):
    app.put_data(name, content=b'v1:' + Name.to_str(name).encode(), freshness_period=1000)

async def ready():
    print('registered', flush=True)

app.run_forever(after_start=ready())
"""

PRODUCER_V2 = """
from ndn.appv2 import NDNApp
from ndn.encoding import Name
from ndn.security import DigestSha256Signer
app = NDNApp()

@app.route('/demo2')
def on_interest(name, app_param, reply, context):
    reply(app.make_data(name, b'v2:' + Name.to_str(name).encode(), DigestSha256Signer(), freshness_period=1000))

async def ready():
    print('registered', flush=True)

app.run_forever(after_start=ready())
"""

#: Fetches each name in argv with the classic API, prints "name content" per line. python-ndn's
#: default Data validator checks DigestSha256 signatures, so a Data that arrives verified.
CONSUMER = """
import sys
from ndn.app import NDNApp
from ndn.encoding import Name
from ndn.security import KeychainDigest
app = NDNApp(keychain=KeychainDigest())

async def fetch():
    try:
        for n in sys.argv[1:]:
            name, _, content = await app.express_interest(n, must_be_fresh=True, lifetime=2000)
            print(Name.to_str(name), bytes(content).decode(), flush=True)
    finally:
        app.shutdown()

app.run_forever(after_start=fetch())
"""

#: Reads cs/info with pynfdc's own dataset fetcher and prints CsInfo's five fields. python-ndn's
#: `CsInfo` model is the record's inside; NFD's dataset is the whole record (TLV 0x80, ndn-cxx
#: CsInfo::wireEncode), so the script wraps the model in it.
CS_INFO = """
from ndn.appv2 import NDNApp
from ndn.app_support.nfd_mgmt import CsInfo
from ndn.bin.nfdc.utils import express_interest
from ndn.encoding import ModelField, TlvModel
app = NDNApp()

class CsInfoRecord(TlvModel):
    info = ModelField(0x80, CsInfo)

async def main():
    try:
        info = CsInfoRecord.parse(await express_interest(app, "/localhost/nfd/cs/info")).info
        print(info.capacity, info.flags, info.n_cs_entries, info.n_hits, info.n_misses)
    finally:
        app.shutdown()

app.run_forever(main())
"""


#: cs/config (Capacity 100, serving off: Flags 0, Mask 2) then cs/erase under /nothing, with
#: python-ndn's command maker and response parser; prints each reply's status and body fields.
CS_COMMANDS = """
from ndn.appv2 import NDNApp
from ndn.app_support.nfd_mgmt import make_command_v2, parse_response
from ndn.bin.nfdc.utils import express_interest
app = NDNApp()

async def main():
    try:
        r = parse_response(await express_interest(app, make_command_v2("cs", "config", capacity=100, flags=0, mask=2)))
        print(r["status_code"], r["capacity"], r["flags"])
        r = parse_response(await express_interest(app, make_command_v2("cs", "erase", name="/nothing", count=5)))
        print(r["status_code"], r["count"])
    finally:
        app.shutdown()

app.run_forever(main())
"""


@pytest.fixture
def fwd(tmp_path):
    """A running `ndnflow fwd` with a UDP socket on a free loopback port and its application socket
    in tmp_path; yields (environment for applications, the UDP port); stops it with SIGTERM and
    checks it exited cleanly."""
    sock = tmp_path / "nfd.sock"
    config = tmp_path / "fwd.toml"
    config.write_text(f'[listen]\nudp = "127.0.0.1:0"\ntcp = "127.0.0.1:0"\nunix = "{sock}"\n')
    env = {**os.environ, "PYTHONPATH": str(ROOT / "python")}
    proc = subprocess.Popen([sys.executable, "-m", "ndnflow.cli", "fwd", str(config)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)
    deadline = time.monotonic() + 60
    while not sock.exists():
        assert proc.poll() is None, proc.communicate()[1]
        assert time.monotonic() < deadline, "the daemon never listened"
        time.sleep(0.02)
    app_env = {**os.environ, "NDN_CLIENT_TRANSPORT": f"unix://{sock}", "HOME": str(tmp_path)}
    state = {"env": app_env, "report": None}
    try:
        yield state
    finally:
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=60)
        assert proc.returncode == 0, err
        state["report"] = json.loads(out)


def _script(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return path


def _start_producer(tmp_path, env, name, text) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, str(_script(tmp_path, name, text))], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)
    line = proc.stdout.readline()
    assert line == "registered\n", proc.communicate(timeout=10)[1] if proc.poll() is not None else line
    return proc


def _run(args, env, timeout=30) -> str:
    done = subprocess.run(args, capture_output=True, text=True, env=env, timeout=timeout)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_python_ndn_producers_register_and_a_consumer_fetches_through_ndnflow_fwd(fwd, tmp_path):
    env = fwd["env"]
    v1 = _start_producer(tmp_path, env, "producer_v1.py", PRODUCER_V1)
    v2 = _start_producer(tmp_path, env, "producer_v2.py", PRODUCER_V2)
    try:
        consumer = _script(tmp_path, "consumer.py", CONSUMER)
        out = _run([sys.executable, str(consumer), "/demo/a", "/demo2/b"], env)
        assert out.splitlines() == ["/demo/a v1:/demo/a", "/demo2/b v2:/demo2/b"]
        # The RIB lists both registrations, each on its producer's face, origin 0 (app), cost 0.
        routes = _run([sys.executable, "-m", "ndn.bin.nfdc", "route"], env)
        assert "/demo\n" in routes and "/demo2\n" in routes, routes
        # Two Interests, each a miss in the empty store, each Data cached: capacity 65,536 (the
        # daemon's default), flags 3 (admit and serve), 2 entries, 0 hits, 2 misses.
        cs = _run([sys.executable, str(_script(tmp_path, "cs_info.py", CS_INFO))], env)
        assert cs.split() == ["65536", "3", "2", "0", "2"], cs
    finally:
        v1.terminate()
        v2.terminate()
        v1.communicate(timeout=10)
        v2.communicate(timeout=10)


def test_pynfdc_makes_a_face_and_a_route_sets_a_strategy_and_reads_them_back(fwd):
    env = fwd["env"]
    nfdc = [sys.executable, "-m", "ndn.bin.nfdc"]
    assert "200 OK" in _run(nfdc + ["nf", "udp4://127.0.0.1:9"], env)
    faces = _run(nfdc + ["face"], env)
    # The first pynfdc's own connection was the daemon's first face (NFD FaceId 256, closed since);
    # the UDP face it made is the second, 257.
    assert "257    udp4://127.0.0.1:9" in faces, faces
    assert "200 OK" in _run(nfdc + ["nr", "/x", "257"], env)
    assert "FaceID=257" in _run(nfdc + ["route"], env)
    assert "200 OK" in _run(nfdc + ["ss", "/x", "/localhost/nfd/strategy/multicast/v=4"], env)
    strategies = _run(nfdc + ["strategy"], env)
    assert "/x\n\t/localhost/nfd/strategy/multicast" in strategies, strategies
    status = _run(nfdc + ["status"], env)
    assert "ndnflow" in status and "nFibEntries\t1" in status.replace(" ", ""), status
    # `face 257` asks faces/query with a filter of FaceId 257 (a signed v0.3 Interest).
    face = _run(nfdc + ["face", "257"], env)
    assert "Face ID\t257" in face and "Remote URI\tudp4://127.0.0.1:9" in face, face
    assert "No face is found" in _run(nfdc + ["face", "999"], env)
    assert "200 OK" in _run(nfdc + ["rf", "257"], env)
    assert "FaceID=257" not in _run(nfdc + ["route"], env), "a destroyed face takes its routes"
    # `rf URI` finds the face with faces/query (filter: Uri) and destroys it by its FaceId.
    assert "200 OK" in _run(nfdc + ["nf", "udp4://127.0.0.1:10"], env)
    removed = _run(nfdc + ["rf", "udp4://127.0.0.1:10"], env)
    assert "Removing face 2" in removed and "200 OK" in removed, removed
    assert "udp4://127.0.0.1:10" not in _run(nfdc + ["face"], env)


#: Fetches the certificate by the key's name (argv[1]) as a validator following a KeyLocator
#: would (CanBePrefix), builds python-ndn's ECDSA checker from it, and fetches argv[2] with it;
#: then argv[2] again with a checker of another key, which must refuse it.
ECDSA_CONSUMER = """
import sys
from Cryptodome.PublicKey import ECC
from ndn.app import NDNApp, ValidationFailure
from ndn.app_support.security_v2 import parse_certificate
from ndn.encoding import Name
from ndn.security import KeychainDigest
from ndn.security.validator.known_key_validator import EccChecker
app = NDNApp(keychain=KeychainDigest())

async def accept(name, sig):
    return True

async def fetch():
    try:
        key_name, segment = sys.argv[1], sys.argv[2]
        _, _, _, cert = await app.express_interest(key_name, can_be_prefix=True, lifetime=2000,
                                                   need_raw_packet=True, validator=accept)
        parsed = parse_certificate(cert)
        validity = parsed.signature_info.validity_period
        print('certificate', Name.to_str(parsed.name), parsed.meta_info.content_type,
              bytes(validity.not_before).decode(), flush=True)
        checker = EccChecker.from_cert(cert)
        # The certificate is signed by its own key.
        await app.express_interest(Name.to_str(parsed.name), lifetime=2000, validator=checker)
        name, _, content = await app.express_interest(segment, lifetime=2000, validator=checker)
        print('verified', Name.to_str(name), len(content), flush=True)
        other = ECC.generate(curve='P-256').public_key().export_key(format='DER')
        try:
            await app.express_interest(segment, lifetime=2000, validator=EccChecker.from_key(key_name, other))
            print('accepted by another key', flush=True)
        except ValidationFailure:
            print('refused by another key', flush=True)
    finally:
        app.shutdown()

app.run_forever(after_start=fetch())
"""


def test_serve_with_an_ecdsa_key_is_verified_by_python_ndn(fwd, tmp_path):
    from Cryptodome.PublicKey import ECC

    env = fwd["env"]
    key = ECC.generate(curve="P-256")
    (tmp_path / "key.pem").write_text(key.export_key(format="PEM"))  # PKCS#8, "BEGIN PRIVATE KEY"
    (tmp_path / "file.bin").write_bytes(bytes(range(256)) * 40)  # 10,240 bytes: two segments of 8000
    sock = env["NDN_CLIENT_TRANSPORT"].removeprefix("unix://")
    serve = subprocess.Popen([sys.executable, "-m", "ndnflow.cli", "serve", "/signed/file/v=7", str(tmp_path / "file.bin"),
                              "--socket", sock, "--key", str(tmp_path / "key.pem")],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env={**os.environ, "PYTHONPATH": str(ROOT / "python")})
    try:
        assert "published 2 Data packet(s)" in serve.stderr.readline()
        line = serve.stderr.readline()
        assert line.startswith("ndnflow serve: signed with ECDSA; certificate /signed/file/KEY/"), line
        # PREFIX/KEY/<key-id>/self/v=<version>, PREFIX without the segments' version (v=7): the
        # key's name is the certificate's less two components.
        key_name = "/".join(line.split("certificate ")[1].strip().split("/")[:-2])
        consumer = _script(tmp_path, "ecdsa_consumer.py", ECDSA_CONSUMER)
        out = _run([sys.executable, str(consumer), key_name, "/signed/file/v=7/seg=1"], env).splitlines()
        assert out[0].startswith(f"certificate {key_name}/self/"), out
        # ContentType KEY (2), NotBefore today as YYYYMMDDThhmmss.
        assert out[0].split()[2] == "2" and len(out[0].split()[3]) == 15 and out[0].split()[3][8] == "T", out
        assert out[1:] == ["verified /signed/file/v=7/seg=1 2240", "refused by another key"], out
        # ndnflow get checks the same signatures with the public key alone (as `openssl pkey
        # -pubout` writes it), and refuses them as digests: the first segment ends the fetch.
        (tmp_path / "pub.pem").write_text(key.public_key().export_key(format="PEM"))
        get = [sys.executable, "-m", "ndnflow.cli", "get", "/signed/file", "--socket", sock, "-o", str(tmp_path / "out")]
        done = subprocess.run(get + ["--verify", str(tmp_path / "pub.pem")], capture_output=True, text=True,
                              env=_ndnflow_env(), timeout=60)
        assert done.returncode == 0 and f"Signatures verified: 2 (ECDSA ({tmp_path / 'pub.pem'}))" in done.stderr, \
            done.stderr
        assert (tmp_path / "out").read_bytes() == (tmp_path / "file.bin").read_bytes()
        get[4] = "/signed/file/v=7"  # the version given: no discovery, the segments are the first Data
        done = subprocess.run(get + ["--verify", "digest"], capture_output=True, text=True, env=_ndnflow_env(),
                              timeout=60)
        assert done.returncode == 1 and "does not verify as DigestSha256; nothing written" in done.stderr, done.stderr
    finally:
        serve.send_signal(signal.SIGTERM)
        serve.communicate(timeout=60)


def test_python_ndn_sets_the_content_store_and_erases_from_it(fwd, tmp_path):
    # Capacity 100, admit on and serve off: Flags 1 back. Nothing is stored under /nothing: Count 0.
    out = _run([sys.executable, str(_script(tmp_path, "cs_commands.py", CS_COMMANDS))], fwd["env"])
    assert out.splitlines() == ["200 100 1", "200 0"]
    out = _run([sys.executable, str(_script(tmp_path, "cs_info.py", CS_INFO))], fwd["env"])
    # CsInfo: capacity, flags, entries, hits, misses.
    assert out.split() == ["100", "1", "0", "0", "0"]


def _ndnflow_env():
    return {**os.environ, "PYTHONPATH": str(ROOT / "python")}


def _routed(env, prefix: str, proc: subprocess.Popen) -> None:
    """Waits until the daemon's RIB lists `prefix` (a python-ndn producer registers it after it
    starts serving), or fails with the producer's output if it exits first."""
    deadline = time.monotonic() + 30
    while f"{prefix}\n" not in _run([sys.executable, "-m", "ndn.bin.nfdc", "route"], env):
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, f"{prefix} was never registered"
        time.sleep(0.1)


def test_ndnflow_get_discovers_and_fetches_what_python_ndn_putchunks_publishes(fwd, tmp_path):
    # python-ndn's own RDR producer (`ndn.bin.tools putchunks`): segments of 8000 bytes under
    # /pyobj/v=<ms>, metadata at /pyobj/32=metadata. 20,000 bytes: segments of 8000, 8000, 4000.
    env = fwd["env"]
    content = bytes(i * 13 % 251 for i in range(20_000))
    (tmp_path / "obj.bin").write_bytes(content)
    producer = subprocess.Popen([sys.executable, "-m", "ndn.bin.tools", "putchunks", "/pyobj", str(tmp_path / "obj.bin")],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        _routed(env, "/pyobj", producer)
        sock = env["NDN_CLIENT_TRANSPORT"].removeprefix("unix://")
        get = subprocess.run([sys.executable, "-m", "ndnflow.cli", "get", "/pyobj", "--socket", sock, "--cc", "aimd",
                              "-o", str(tmp_path / "out.bin"), "--out", str(tmp_path / "result")],
                             capture_output=True, text=True, env=_ndnflow_env(), timeout=60)
        assert get.returncode == 0, get.stderr
        assert (tmp_path / "out.bin").read_bytes() == content
        assert "Segments received: 3" in get.stderr, get.stderr
        found = json.loads((tmp_path / "result" / "summary.json").read_text())["get"]["version_discovery"]
        # The version is the producer's publication time in ms: after 2023-11 (1.7e12 ms).
        name, version = found["versioned_name"].rsplit("/v=", 1)
        assert name == "/pyobj" and int(version) > 1_700_000_000_000 and found["interests"] == 1, found
        assert f"Version discovered: /pyobj/v={version} (1 Interest(s)" in get.stderr
    finally:
        producer.terminate()
        producer.communicate(timeout=10)


def test_python_ndn_catchunks_fetches_what_ndnflow_serve_publishes_by_its_metadata(fwd, tmp_path):
    # python-ndn's RDR consumer (`ndn.bin.tools catchunks`), given the metadata name, reads the
    # versioned name from ndnflow serve's metadata and fetches its segments until FinalBlockId.
    env = fwd["env"]
    content = bytes(i * 7 % 256 for i in range(20_000))
    (tmp_path / "file.bin").write_bytes(content)
    sock = env["NDN_CLIENT_TRANSPORT"].removeprefix("unix://")
    serve = subprocess.Popen([sys.executable, "-m", "ndnflow.cli", "serve", "/obj", str(tmp_path / "file.bin"),
                              "--socket", sock], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env=_ndnflow_env())
    try:
        assert "published 3 Data packet(s), 20000 bytes, under /obj/v=" in serve.stderr.readline()
        out = _run([sys.executable, "-m", "ndn.bin.tools", "catchunks", "/obj/32=metadata",
                    "-o", str(tmp_path / "out.bin")], env)
        assert "Segment Count: 3  Content size: 20000" in out, out
        assert (tmp_path / "out.bin").read_bytes() == content
    finally:
        serve.send_signal(signal.SIGTERM)
        serve.communicate(timeout=60)
