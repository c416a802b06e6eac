"""python-ndn applications, unchanged, through `ndnflow fwd` (issue 25, items 3 and 5).

python-ndn (PyPI, the pinned test dependency) finds its forwarder through NDN_CLIENT_TRANSPORT,
registers prefixes with NFD's rib/register command and reads NFD's status datasets. Each
application here is its own process, as a user would run it:

- the classic `ndn.app.NDNApp` registers with the signed-Interest v0.2 command form (timestamp,
  nonce, SignatureInfo and SignatureValue name components);
- `ndn.appv2.NDNApp` registers with a v0.3 signed Interest (ApplicationParameters and
  InterestSignatureInfo/Value, a ParametersSha256DigestComponent in the name);
- `pynfdc`, python-ndn's nfdc, makes a UDP face and a route, sets a strategy and reads the
  faces, routes, strategies and general status back.

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
    assert "200 OK" in _run(nfdc + ["rf", "257"], env)
    assert "FaceID=257" not in _run(nfdc + ["route"], env), "a destroyed face takes its routes"
