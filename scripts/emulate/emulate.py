#!/usr/bin/env python3
"""The emulation check (issue 25): a scenario's topology as Linux network namespaces joined by veth
pairs, one real-time forwarder (`ndnflow-fwd`) per node, `ndnflow serve` for each producer and
`ndnflow get` for each consumer, compared with the simulated run of the same scenario.

Usage (as root; `scripts/emulate/run` wraps this with a trap that removes the namespaces):

    scripts/emulate/emulate.py examples/quickstart.toml [--scale 0.2] [--json OUT.json]
    scripts/emulate/emulate.py scripts/emulate/pcon-two-paths.toml --split r

Each link of the scenario is a veth pair with 10.<link>.0.1 and .2. Each node's daemon has one
UDP face per link, and the link's propagation `delay` comes from netem on the veth where the
kernel has netem, and from the daemon's shaped face (`delay`, docs/real-network.md "Shaped faces")
where it has not. The rate and the queue are, with `--shaping daemon` (the default), the daemon's
face, shaped as the link's direction is in the simulator (`bandwidth`, `queue`); with `--shaping
kernel`, the kernel's: a tbf qdisc on each veth end at the link's bit rate, whose byte limit holds
the queue's packets as full-size Ethernet frames (`tbf_args`). The kernel's queue cannot mark, so
`kernel` is for scenarios whose consumers react to loss alone. docs/real-network.md "Emulation"
says why the daemon's is the default.

What it reads of a scenario (`scenario.py`: the subset the quick start and the PCON variant use;
anything else is an error naming the key): [simulation] duration, seed; [nodes] attributes (the daemon's
[forwarder] table, the same keys); [[links]] between, bandwidth, delay, queue; [[producers]] node,
prefix, payload; [[consumers]] node, name, start and the consumer keys `ndnflow get` takes.
Routes are the simulator's hop-count routes (ndnflow-sim routing.rs: every neighbour that leads
to the producer without coming back, at its hop count), written as each daemon's [[routes]].

`--scale F` multiplies the duration and every start by F (the scaled scenario is also the one
simulated). `--split NODE` also reports, for the second half of the run, the share of the Data
that NODE received from each neighbour (the daemon's counters at half time, SIGUSR1, and at the
end; the simulated run's link counters of a full and a half-length run).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from scenario import GET_KEYS, EmulationError, Scenario, bits_per_second, duration_text, seconds, toml_value

ROOT = Path(__file__).resolve().parent.parent.parent
FWD = ROOT / "target" / "release" / "ndnflow-fwd"
RUN = ROOT / "target" / "release" / "examples" / "run"
ENV = {**os.environ, "PYTHONPATH": str(ROOT / "python")}

#: How much longer than its active time at the producer's fastest link a served file lasts.
FILE_MARGIN = 1.5

#: A full Ethernet frame on a veth (1500 bytes of IP and a 14-byte header): the unit a tbf's
#: byte limit counts a simulated queue's packets in, and the least burst that lets one through.
FRAME_BYTES = 1514

#: tbf's bucket at least: one full frame and a margin for tc's rounding (1514 is stored as 1513).
TBF_BURST = 1600

#: The timer tick assumed when the kernel's configuration cannot be read: the smallest CONFIG_HZ
#: Linux offers, so that the bucket is never below what tc-tbf(8) asks (`kernel_hz`).
LOWEST_HZ = 100

#: With `--shaping kernel` and no netem, the daemon's face holds the delay at this multiple of the
#: link's rate, so that its own serialisation is 1 % of the link's (the kernel's tbf is the rate).
DELAY_FACE_SPEEDUP = 100

#: A scenario link's queue when it gives none: drop-tail of 100 packets (docs/scenario-format.md).
DEFAULT_QUEUE_PACKETS = 100


# ------------------------------------------------------------------------------------ network


def sh(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    r = subprocess.run(args, capture_output=True, text=True)
    if check and r.returncode != 0:
        raise EmulationError(f"{' '.join(args)}: {r.stderr.strip() or r.returncode}")
    return r


class Network:
    """The namespaces and veth pairs of one run; `close` removes them (deleting a namespace
    deletes its veth ends)."""

    def __init__(self, run_id: str, scenario: Scenario, shaping: str = "daemon"):
        self.run_id = run_id
        self.scenario = scenario
        self.ns = {node: f"{run_id}-{node}" for node in scenario.nodes}
        self.made: list[str] = []
        self.netem = False
        self.shaping = shaping

    def build(self, want_netem: str) -> None:
        for name in self.ns.values():
            sh("ip", "netns", "add", name)
            self.made.append(name)
            sh("ip", "-n", name, "link", "set", "lo", "up")
        for i, link in enumerate(self.scenario.links):
            a, b = link["between"]
            # Made directly in the two namespaces: no name is ever taken in the caller's.
            sh("ip", "-n", self.ns[a], "link", "add", "name", f"e{i}", "type", "veth", "peer", "name", f"e{i}",
               "netns", self.ns[b])
            for end, host in ((a, 1), (b, 2)):
                sh("ip", "-n", self.ns[end], "addr", "add", f"{self.addr(i, host)}/24", "dev", f"e{i}")
                sh("ip", "-n", self.ns[end], "link", "set", f"e{i}", "up")
        if want_netem != "never":
            self.netem = self._try_netem()
            if want_netem == "always" and not self.netem:
                raise EmulationError("--netem always: this kernel has no netem qdisc")
        if self.shaping == "kernel":
            if self.netem:
                # tbf would go under netem as its child qdisc; not written: this machine has no
                # netem to try it on.
                raise EmulationError("--shaping kernel with netem is not written: add --netem never")
            hz = kernel_hz()
            for i, link in enumerate(self.scenario.links):
                for end in link["between"]:
                    sh("ip", "netns", "exec", self.ns[end], "tc", "qdisc", "add", "dev", f"e{i}", "root",
                       *tbf_args(link, hz))

    def _try_netem(self) -> bool:
        """netem's delay on every veth end, if the kernel has netem; False (and nothing left) if not."""
        for i, link in enumerate(self.scenario.links):
            delay_ms = seconds(link["delay"]) * 1000
            for end in link["between"]:
                r = sh("ip", "netns", "exec", self.ns[end], "tc", "qdisc", "add", "dev", f"e{i}", "root", "netem",
                       "delay", f"{delay_ms}ms", "limit", "100000", check=False)
                if r.returncode != 0:
                    if i == 0 and end == link["between"][0]:
                        return False  # no netem: the daemons hold the delay instead
                    raise EmulationError(f"netem on e{i}: {r.stderr.strip()}")
        return True

    @staticmethod
    def addr(link: int, host: int) -> str:
        if link > 250:
            raise EmulationError("more than 250 links")
        return f"10.{link + 1}.0.{host}"

    def peer_addr(self, node: str, link: int) -> str:
        a, _ = self.scenario.links[link]["between"]
        return self.addr(link, 2 if node == a else 1)

    def close(self) -> None:
        for name in reversed(self.made):
            sh("ip", "netns", "del", name, check=False)
        self.made.clear()


# ------------------------------------------------------------------------------------ daemons


def kernel_hz() -> int:
    """The kernel's CONFIG_HZ (250 on the machine these figures come from), from /proc/config.gz or
    /boot/config-<release>; LOWEST_HZ when neither says."""
    import gzip

    release = os.uname().release
    for path, opener in ((Path("/proc/config.gz"), gzip.open), (Path(f"/boot/config-{release}"), open)):
        try:
            with opener(path, "rt") as f:
                for line in f:
                    if line.startswith("CONFIG_HZ="):
                        return int(line.split("=", 1)[1])
        except (OSError, ValueError):
            continue
    return LOWEST_HZ


def tbf_args(link: dict, hz: int) -> list[str]:
    """tbf at the link's bit rate, its byte limit the link's queue in full frames, its bucket at
    least rate / `hz` bytes (tc-tbf(8): a smaller bucket cannot hold a tick's tokens, and the rate
    is not reached). The kernel counts each frame whole (NDN packet, UDP, IP and Ethernet headers:
    42 bytes more than the simulator's link counts), and bytes where the simulator counts packets:
    a queue of Data frames of about 1,143 bytes holds about 1.3 times the simulator's packets
    before it drops."""
    queue = link.get("queue", {})
    if queue.get("discipline", "droptail") != "droptail":
        raise EmulationError(f"--shaping kernel: a {queue['discipline']} queue is the daemon's alone (tbf is "
                             "drop-tail): use --shaping daemon")
    packets = int(queue.get("packets", DEFAULT_QUEUE_PACKETS))
    rate = bits_per_second(link["bandwidth"])
    burst = max(TBF_BURST, round(rate / 8 / hz))
    return ["tbf", "rate", f"{round(rate)}bit", "burst", str(burst),
            "limit", str(packets * FRAME_BYTES)]


def daemon_config(s: Scenario, net: Network, node: str, sock: Path) -> str:
    attrs = dict(s.nodes[node])
    # A scenario node has no Content Store unless it asks; a daemon has NFD's unless told.
    attrs.setdefault("cs", {"policy": "off"})
    lines = [f"seed = {s.seed}", "", "[listen]", 'udp = "0.0.0.0:6363"', "tcp = false",
             f"unix = {toml_value(str(sock))}", "", "[forwarder]"]
    lines += [f"{k} = {toml_value(v)}" for k, v in attrs.items()]
    for v, i in s.neighbours(node):
        link = s.links[i]
        lines += ["", "[[faces]]", f"name = {toml_value(v)}", f"udp = {toml_value(net.peer_addr(node, i) + ':6363')}"]
        if net.shaping == "kernel":
            # The kernel's tbf is the rate and the queue; the face only holds the delay.
            if not net.netem:
                fast = bits_per_second(link["bandwidth"]) * DELAY_FACE_SPEEDUP
                lines += [f"bandwidth = {toml_value(f'{round(fast)}bps')}", f"delay = {toml_value(link['delay'])}"]
            continue
        lines.append(f"bandwidth = {toml_value(link['bandwidth'])}")
        if "queue" in link:
            lines.append(f"queue = {toml_value(link['queue'])}")
        if not net.netem:
            lines.append(f"delay = {toml_value(link['delay'])}")
    for prefix, v, cost in s.routes(node):
        lines += ["", "[[routes]]", f"prefix = {toml_value(prefix)}", f"nexthop = {toml_value(v)}", f"cost = {cost}"]
    return "\n".join(lines) + "\n"


class Processes:
    """Every process of a run; `close` ends those still running (SIGTERM, then SIGKILL)."""

    def __init__(self):
        self.running: list[subprocess.Popen] = []

    def start(self, ns: str, args: list[str], out: Path, err: Path) -> subprocess.Popen:
        p = subprocess.Popen(["ip", "netns", "exec", ns, *args], stdout=out.open("wb"), stderr=err.open("wb"),
                             env=ENV)
        self.running.append(p)
        return p

    def stop(self, p: subprocess.Popen, timeout: float = 10) -> int:
        if p.poll() is None:
            p.send_signal(signal.SIGTERM)
        try:
            return p.wait(timeout)
        except subprocess.TimeoutExpired:
            p.kill()
            return p.wait()

    def close(self) -> None:
        for p in reversed(self.running):
            if p.poll() is None:
                self.stop(p, 5)


def wait_for(cond, what: str, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > deadline:
            raise EmulationError(f"timed out waiting for {what}")
        time.sleep(0.05)


def face_data_in(report: dict) -> dict[str, int]:
    """Data received per named face, from a daemon's report."""
    return {f["name"]: f["in_data"] for f in report["faces"] if f.get("name")}


def last_json(text: str) -> dict:
    """The last JSON document of a stream of them (SIGUSR1 prints one a signal)."""
    docs, depth, start = [], 0, None
    for i, ch in enumerate(text):
        if ch == "{":
            if depth == 0:
                start = i
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0 and start is not None:
                docs.append(text[start:i + 1])
    for doc in reversed(docs):
        try:
            return json.loads(doc)
        except json.JSONDecodeError:
            continue
    raise EmulationError("no report in the daemon's output")


def has_report(text: str) -> bool:
    try:
        last_json(text)
        return True
    except EmulationError:
        return False


def emulate(s: Scenario, net: Network, work: Path, split: str | None) -> dict:
    """Runs the scenario in the namespaces; each consumer's `get` summary row, and with `split`,
    the Data that node received from each neighbour in the second half."""
    procs = Processes()
    try:
        # The real-time processes share the CPUs: a machine busy with other work delays them
        # (measured: goodput ratios from 0.98 down to 0.88 with two compilers on both cores).
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
        run = Emulation(s, net, work, procs)
        run.start_daemons()
        run.start_serves()
        t0 = time.monotonic()
        gets = run.start_gets(t0)
        half = run.counts_at(split, t0 + s.duration / 2) if split else None
        for g in gets.values():
            g.wait(s.duration + 60)
        return {**run.collect(gets, split, half), "load": load}
    finally:
        procs.close()


class Emulation:
    """The processes of one emulated run and where their files go."""

    def __init__(self, s: Scenario, net: Network, work: Path, procs: Processes):
        self.s, self.net, self.work, self.procs = s, net, work, procs
        self.sock = {node: work / f"{node}.sock" for node in s.nodes}
        self.daemons: dict[str, subprocess.Popen] = {}

    def start_daemons(self) -> None:
        for node in self.s.nodes:
            cfg = self.work / f"{node}.toml"
            cfg.write_text(daemon_config(self.s, self.net, node, self.sock[node]))
            self.daemons[node] = self.procs.start(self.net.ns[node], [str(FWD), str(cfg)], self.work / f"{node}.json",
                                                  self.work / f"{node}.err")
        for node, d in self.daemons.items():
            wait_for(lambda n=node, d=d: self.sock[n].exists() or d.poll() is not None, f"{node}'s daemon")
            if d.poll() is not None:
                raise EmulationError(f"{node}'s daemon: {(self.work / f'{node}.err').read_text().strip()}")

    def start_serves(self) -> None:
        """Each consumer's object at each producer whose prefix covers it, as a file long enough
        not to end before the run does; returns once every `serve` has registered."""
        serves = []
        for k, p in enumerate(self.s.producers):
            fastest = max(bits_per_second(self.s.links[i]["bandwidth"]) for _, i in self.s.neighbours(p["node"]))
            payload = int(p.get("payload", 1024))
            for j, c in enumerate(self.s.consumers):
                if not (c["name"] + "/").startswith(p["prefix"].rstrip("/") + "/"):
                    continue
                active = self.s.duration - c["start_s"]
                obj = self.object_file(j, int(fastest * active / 8 / max(payload, 1) * FILE_MARGIN) + 1, payload)
                # Replicas of one object publish one version (serve, as ndnputchunks, takes a
                # PREFIX ending in v=N as the version): a discovery answered by either producer
                # then names segments both serve. With each its own time, the other's Nacks.
                versioned = f"{c['name'].rstrip('/')}/v=1"
                args = [sys.executable, "-m", "ndnflow.cli", "serve", versioned, str(obj), "--socket",
                        str(self.sock[p["node"]]), "--segment-size", str(payload)]
                err = self.work / f"serve-{k}-{j}.err"
                serves.append((self.procs.start(self.net.ns[p["node"]], args, self.work / f"serve-{k}-{j}.json", err),
                               err))
        for proc, err in serves:
            # serve's start-up line comes once its rib/register has been answered.
            wait_for(lambda e=err, q=proc: e.stat().st_size > 0 or q.poll() is not None, "serve's registration")
            if proc.poll() is not None:
                raise EmulationError(f"serve: {err.read_text().strip()}")

    def object_file(self, j: int, segments: int, payload: int) -> Path:
        obj = self.work / f"object-{j}.bin"
        if not obj.exists():
            with obj.open("wb") as f:
                f.truncate(segments * payload)  # sparse: zeros, written by nobody
        return obj

    def start_gets(self, t0: float) -> dict[int, subprocess.Popen]:
        """Each consumer's `get`, `start` seconds after t0, stopping at the run's end."""
        gets = {}
        for j, c in sorted(enumerate(self.s.consumers), key=lambda jc: jc[1]["start_s"]):
            time.sleep(max(0.0, t0 + c["start_s"] - time.monotonic()))
            args = [sys.executable, "-m", "ndnflow.cli", "get", c["name"], "--socket", str(self.sock[c["node"]]),
                    "--stop", duration_text(self.s.duration - c["start_s"]), "--seed", str(self.s.seed * 1000 + j),
                    "--out", str(self.work / f"get-{j}"), "-o", os.devnull]
            for key in sorted(GET_KEYS & set(c)):
                args += [f"--{key.replace('_', '-')}", c[key] if isinstance(c[key], str) else toml_value(c[key])]
            gets[j] = self.procs.start(self.net.ns[c["node"]], args, self.work / f"get-{j}.out",
                                       self.work / f"get-{j}.err")
        return gets

    def counts_at(self, node: str, at: float) -> dict[str, int]:
        """Data `node` has received per face by `at` (its daemon's report on SIGUSR1)."""
        time.sleep(max(0.0, at - time.monotonic()))
        self.daemons[node].send_signal(signal.SIGUSR1)
        err = self.work / f"{node}.err"
        wait_for(lambda: has_report(err.read_text()), "the half-time report")
        return face_data_in(last_json(err.read_text()))

    def collect(self, gets: dict[int, subprocess.Popen], split: str | None, half: dict | None) -> dict:
        result: dict = {"consumers": {}, "netem": self.net.netem, "shaping": self.net.shaping}
        for j in gets:
            summary = self.work / f"get-{j}" / "summary.json"
            if not summary.exists():
                why = (self.work / f"get-{j}.err").read_text().strip()
                raise EmulationError(f"get for {self.s.consumers[j]['name']}: {why}")
            result["consumers"][self.s.ids[j]] = json.loads(summary.read_text())["consumers"]["get"]
        for d in self.daemons.values():
            self.procs.stop(d)
        reports = {node: json.loads((self.work / f"{node}.json").read_text()) for node in self.s.nodes}
        if split:
            end = face_data_in(reports[split])
            result["split"] = {v: end.get(v, 0) - half.get(v, 0) for v in self.s.split_neighbours(split)}
        result["daemons"] = reports
        return result


# ------------------------------------------------------------------------------------ simulation


def simulate(s: Scenario, work: Path, split: str | None) -> dict:
    def run(duration: float) -> dict:
        f = work / f"scenario-{round(duration * 1000)}ms.toml"
        f.write_text(s.scaled_text(duration))
        r = subprocess.run([str(RUN), str(f)], capture_output=True, text=True)
        if r.returncode != 0:
            raise EmulationError(f"simulated run: {r.stderr.strip()}")
        return json.loads(r.stdout[r.stdout.index("{"):r.stdout.rindex("}") + 1])

    full = run(s.duration)
    result = {"consumers": {i: full["consumers"][i] for i in s.ids}}
    if split:
        # The second half: the full run's counts less a half-length run's (the same seed runs the
        # same events up to half time).
        half = run(s.duration / 2)
        into = {v: f"{v}->{split}" for v in s.split_neighbours(split)}
        result["split"] = {v: full["links"][d]["data"] - half["links"][d]["data"] for v, d in into.items()}
    return result


# ------------------------------------------------------------------------------------ report


def shares(counts: dict[str, int]) -> dict[str, float]:
    total = sum(counts.values())
    return {k: (100.0 * n / total if total else 0.0) for k, n in counts.items()}


def compare(s: Scenario, sim: dict, emu: dict, split: str | None) -> dict:
    rows = {}
    for cid in s.ids:
        g_sim = sim["consumers"][cid]["goodput_bps"]
        g_emu = emu["consumers"][cid]["goodput_bps"]
        rows[cid] = {"simulated_bps": g_sim, "emulated_bps": g_emu, "ratio": g_emu / g_sim if g_sim else None}
    out = {"duration_s": s.duration, "netem": emu["netem"], "shaping": emu["shaping"], "load": emu.get("load"),
           "goodput": rows,
           "goodput_within_10pct": all(r["ratio"] is not None and abs(r["ratio"] - 1) <= 0.10 for r in rows.values())}
    if split:
        sim_sh, emu_sh = shares(sim["split"]), shares(emu["split"])
        out["split"] = {v: {"simulated_pct": sim_sh[v], "emulated_pct": emu_sh[v], "simulated_data": sim["split"][v],
                            "emulated_data": emu["split"][v]} for v in sim_sh}
        out["split_within_5_points"] = all(abs(sim_sh[v] - emu_sh[v]) <= 5 for v in sim_sh)
    return out


def print_report(c: dict, split: str | None) -> None:
    rate = "the kernel's tbf" if c["shaping"] == "kernel" else "the daemons' shaped faces"
    print(f"duration {c['duration_s']:g} s; rate and queue by {rate}; "
          f"propagation delay by {'netem' if c['netem'] else 'the daemons'}; "
          f"load average {'-' if c['load'] is None else round(c['load'], 2)} before, {os.cpu_count()} CPUs")
    print(f"{'consumer':<10} {'simulated Mbit/s':>17} {'emulated Mbit/s':>16} {'ratio':>7}")
    for cid, r in c["goodput"].items():
        ratio = f"{r['ratio']:.3f}" if r["ratio"] is not None else "-"
        print(f"{cid:<10} {r['simulated_bps'] / 1e6:>17.3f} {r['emulated_bps'] / 1e6:>16.3f} {ratio:>7}")
    print(f"goodput within 10 %: {'yes' if c['goodput_within_10pct'] else 'NO'}")
    if split:
        print(f"split at {split}, second half (share of the Data {split} received from each neighbour):")
        for v, r in c["split"].items():
            print(f"  from {v:<8} simulated {r['simulated_pct']:5.1f} %   emulated {r['emulated_pct']:5.1f} %   "
                  f"difference {r['emulated_pct'] - r['simulated_pct']:+.1f} points")
        print(f"split within 5 points: {'yes' if c['split_within_5_points'] else 'NO'}")


def preflight() -> None:
    if os.geteuid() != 0:
        raise EmulationError("needs root (ip netns add)")
    for tool in ("ip", "tc"):
        if shutil.which(tool) is None:
            raise EmulationError(f"needs iproute2's {tool}")
    for binary in (FWD, RUN):
        if not binary.exists():
            raise EmulationError(f"{binary} is missing: cargo build --release --workspace --examples")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("scenario", type=Path)
    ap.add_argument("--scale", type=float, default=1.0, help="multiply the duration and the starts (default 1)")
    ap.add_argument("--split", metavar="NODE", help="report the share of Data NODE receives from each neighbour")
    ap.add_argument("--netem", choices=("auto", "always", "never"), default="auto",
                    help="propagation delay by netem if the kernel has it (auto), or insist, or never")
    ap.add_argument("--shaping", choices=("daemon", "kernel"), default="daemon",
                    help="the links' rate and queue: the daemons' shaped faces (default) or a tbf qdisc per veth")
    ap.add_argument("--id", default=f"ndnemu{os.getpid()}", help="namespace name prefix (unique per run)")
    ap.add_argument("--json", type=Path, help="write the comparison here")
    ap.add_argument("--keep", type=Path, help="keep the run's files (configs, reports) in this directory")
    a = ap.parse_args(argv)
    # SIGTERM ends the run as an error does: the finally blocks stop the processes and remove
    # the namespaces.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    try:
        preflight()
        if a.scale <= 0:
            raise EmulationError("--scale must be positive")
        s = Scenario(a.scenario, a.scale)
        if a.split and a.split not in s.nodes:
            raise EmulationError(f"--split {a.split}: no such node")
        work = Path(tempfile.mkdtemp(prefix=f"{a.id}-"))
        net = Network(a.id, s, a.shaping)
        try:
            net.build(a.netem)
            sim = simulate(s, work, a.split)
            emu = emulate(s, net, work, a.split)
        finally:
            net.close()
            if a.keep:
                shutil.copytree(work, a.keep, dirs_exist_ok=True)
            shutil.rmtree(work, ignore_errors=True)
        c = compare(s, sim, emu, a.split)
        print_report(c, a.split)
        if a.json:
            a.json.write_text(json.dumps(c, indent=2) + "\n")
        ok = c["goodput_within_10pct"] and c.get("split_within_5_points", True)
        return 0 if ok else 1
    except (EmulationError, KeyError, OSError) as exc:
        print(f"emulate: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
