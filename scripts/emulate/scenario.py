"""The part of a scenario file the emulation check builds (scripts/emulate/emulate.py): its
nodes, links, producers and consumers, scaled in time, with the simulator's hop-count routes, and
written back as a scenario file for the simulated run. Any other key is an error naming it."""

from __future__ import annotations

import json
import re
import tomllib
from collections import deque
from pathlib import Path

LINK_KEYS = {"between", "bandwidth", "delay", "queue"}
PRODUCER_KEYS = {"node", "prefix", "payload"}
#: A scenario consumer's keys that `ndnflow get` takes as options (cli.GET_CONSUMER_OPTIONS).
GET_KEYS = {"cc", "lifetime", "max_retries", "rto", "in_flight", "send_jitter"}
CONSUMER_KEYS = {"node", "name", "start"} | GET_KEYS


class EmulationError(Exception):
    pass


# ------------------------------------------------------------------------------------ TOML text


def toml_value(v) -> str:
    """A value as inline TOML (the subset scenario files use)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v)  # a JSON string is a TOML basic string
    if isinstance(v, list):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{json.dumps(k)} = {toml_value(x)}" for k, x in v.items()) + " }"
    raise EmulationError(f"cannot write {v!r} as TOML")


def seconds(text: str) -> float:
    m = re.fullmatch(r"\s*([0-9.]+)\s*(ms|s|us)\s*", text)
    if not m:
        raise EmulationError(f"{text!r}: expected a duration such as \"30s\" or \"5ms\"")
    return float(m.group(1)) * {"s": 1.0, "ms": 1e-3, "us": 1e-6}[m.group(2)]


def bits_per_second(text: str) -> float:
    m = re.fullmatch(r"\s*([0-9.]+)\s*(Gbps|Mbps|kbps|bps)\s*", text)
    if not m:
        raise EmulationError(f"{text!r}: expected a bandwidth such as \"10Mbps\"")
    return float(m.group(1)) * {"Gbps": 1e9, "Mbps": 1e6, "kbps": 1e3, "bps": 1.0}[m.group(2)]


def duration_text(s: float) -> str:
    return f"{round(s * 1000)}ms"


# ------------------------------------------------------------------------------------ scenario


class Scenario:
    """The subset of a scenario file the emulation builds (errors name the key)."""

    def __init__(self, path: Path, scale: float):
        raw = tomllib.loads(path.read_text())
        unknown = set(raw) - {"simulation", "nodes", "links", "producers", "consumers"}
        if unknown:
            raise EmulationError(f"{path}: {sorted(unknown)}: not emulated (links, nodes, producers, consumers only)")
        sim = raw.get("simulation", {})
        self.duration = seconds(sim.get("duration", "10s")) * scale
        self.seed = sim.get("seed", 1)
        self.nodes: dict[str, dict] = dict(raw.get("nodes", {}))
        self.links = raw.get("links", [])
        for i, link in enumerate(self.links):
            self._only(link, LINK_KEYS, f"links[{i}]")
            for end in link["between"]:
                self.nodes.setdefault(end, {})
        self.producers = raw.get("producers", [])
        for i, p in enumerate(self.producers):
            self._only(p, PRODUCER_KEYS, f"producers[{i}]")
        self.consumers = raw.get("consumers", [])
        for i, c in enumerate(self.consumers):
            self._only(c, CONSUMER_KEYS, f"consumers[{i}]")
            c["start_s"] = seconds(c.get("start", "0s")) * scale
        self.ids = self._consumer_ids()

    @staticmethod
    def _only(table: dict, keys: set[str], where: str) -> None:
        extra = set(table) - keys
        if extra:
            raise EmulationError(f"{where}: {sorted(extra)}: not emulated (keys taken: {sorted(keys)})")

    def _consumer_ids(self) -> list[str]:
        """The simulator's consumer ids: the node's name when it runs one consumer, else node#k."""
        per_node: dict[str, int] = {}
        for c in self.consumers:
            per_node[c["node"]] = per_node.get(c["node"], 0) + 1
        ids, seen = [], {}
        for c in self.consumers:
            k = seen.get(c["node"], 0)
            seen[c["node"]] = k + 1
            ids.append(c["node"] if per_node[c["node"]] == 1 else f"{c['node']}#{k}")
        return ids

    def scaled_text(self, duration: float | None = None) -> str:
        """The scenario as simulated: durations scaled, as a TOML file."""
        lines = ["[simulation]", f"duration = {toml_value(duration_text(duration or self.duration))}",
                 f"seed = {self.seed}", "", "[nodes]"]
        lines += [f"{json.dumps(n)} = {toml_value(a)}" for n, a in self.nodes.items()]
        for section, items in (("links", self.links), ("producers", self.producers)):
            for item in items:
                lines += ["", f"[[{section}]]"] + [f"{k} = {toml_value(v)}" for k, v in item.items()]
        for c in self.consumers:
            lines += ["", "[[consumers]]"]
            lines += [f"{k} = {toml_value(v)}" for k, v in c.items() if k not in ("start", "start_s")]
            lines.append(f"start = {toml_value(duration_text(c['start_s']))}")
        return "\n".join(lines) + "\n"

    def neighbours(self, node: str) -> list[tuple[str, int]]:
        """(neighbour, link index) in link order: the order faces are made, in both runs."""
        out = []
        for i, link in enumerate(self.links):
            a, b = link["between"]
            if node == a:
                out.append((b, i))
            elif node == b:
                out.append((a, i))
        return out

    def split_neighbours(self, node: str) -> list[str]:
        """The neighbours `node` has a route through: the paths its strategy splits over."""
        routed = {v for _, v, _ in self.routes(node)}
        return [v for v, _ in self.neighbours(node) if v in routed]

    def hops(self, source: str, target: str, without: str) -> int | None:
        """Hop count from source to target in the graph without node `without` (None: no path)."""
        dist = {source: 0}
        todo = deque([source])
        while todo:
            u = todo.popleft()
            if u == target:
                return dist[u]
            for v, _ in self.neighbours(u):
                if v != without and v not in dist:
                    dist[v] = dist[u] + 1
                    todo.append(v)
        return None

    def routes(self, node: str) -> list[tuple[str, str, int]]:
        """(prefix, neighbour, cost): the simulator's hop-count routes of `node` (routing.rs
        `routes_to`: through each neighbour, 1 + its distance to the producer without `node`),
        the cheapest per (prefix, neighbour) over producers of the same prefix."""
        best: dict[tuple[str, str], int] = {}
        for p in self.producers:
            if p["node"] == node:
                continue
            for v, _ in self.neighbours(node):
                d = 0 if v == p["node"] else self.hops(v, p["node"], without=node)
                if d is not None:
                    key = (p["prefix"], v)
                    best[key] = min(best.get(key, d + 1), d + 1)
        return [(prefix, v, cost) for (prefix, v), cost in best.items()]
