"""`Scenario`: build, read and write the document that a scenario TOML file holds.

The builder only assembles the document; whether it makes sense is decided by Rust when the
scenario is validated or run (`Scenario.validate()`, `ndnflow.run`), so that the TOML reader and the
Python front cannot drift apart.
"""

from __future__ import annotations

import copy
import os
import warnings
import re
import sys
from pathlib import Path
from typing import Any, Callable, Dict, Mapping, Optional, Sequence, Tuple, Union

from ndnflow import _native, _toml, protocols, safe_io, units
from ndnflow._native import ScenarioError, ScenarioWarning

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

PathLike = Union[str, "os.PathLike[str]"]
Quantity = units.Quantity

#: Order of the sections in a written document; list sections are arrays of tables.
_SECTIONS = ("simulation", "topology", "nodes", "links", "producers", "consumers", "routes", "events", "trace")
_LIST_SECTIONS = ("links", "producers", "consumers", "routes", "events")
_TOML_POSITION = re.compile(r"\s*\(at line (\d+), column (\d+)\)\s*$")


def _without_none(**fields: Any) -> Dict[str, Any]:
    return {key: value for key, value in fields.items() if value is not None}


def _table(value: Mapping[str, Any], what: str, example: str) -> Dict[str, Any]:
    """A copy of the table argument `what`, or a `ScenarioError` naming it when it is not a
    table (`dict("lru")` said "dictionary update sequence element #0 has length 1")."""
    if not isinstance(value, Mapping):
        raise ScenarioError(f"{what}: expected a table such as {example}, got {value!r}")
    return dict(value)


def _queue(queue: Union[None, int, Mapping[str, Any]]) -> Optional[Dict[str, Any]]:
    """A queue table; an int is shorthand for a drop-tail queue of that many packets."""
    if queue is None:
        return None
    if isinstance(queue, int) and not isinstance(queue, bool):
        return {"discipline": "droptail", "packets": queue}
    if not isinstance(queue, Mapping):
        raise ScenarioError(f"link queue: {queue!r} is neither a number of packets (an integer) nor a table "
                            f"such as {{'discipline': 'codel', 'packets': 100}}")
    table = dict(queue)
    for key in ("target", "interval"):
        if key in table:
            table[key] = units.duration(table[key], f"queue.{key}")
    return table


def _marking(marking: Union[None, str, Mapping[str, Any]], what: str) -> Union[None, str, Dict[str, Any]]:
    """NFD's congestion marker: "nfd", "none", or a table (``{"scheme": "nfd", "threshold":
    "64KiB", "interval": "100ms"}``); a numeric interval is seconds."""
    if marking is None or isinstance(marking, str):
        return marking
    table = _table(marking, what, "{'scheme': 'nfd', 'interval': '100ms'} or \"nfd\"")
    if "interval" in table:
        table["interval"] = units.duration(table["interval"], f"{what}.interval")
    return table


def _direction(spec: Optional[Mapping[str, Any]], what: str) -> Optional[Dict[str, Any]]:
    """Per-direction overrides of a link (`forward` = a->b, `reverse` = b->a)."""
    if spec is None:
        return None
    table = _table(spec, what, "{'bandwidth': '5Mbps', 'delay': '10ms'}")
    if "bandwidth" in table:
        table["bandwidth"] = units.bandwidth(table["bandwidth"], f"{what}.bandwidth")
    if "delay" in table:
        table["delay"] = units.duration(table["delay"], f"{what}.delay")
    if "queue" in table:
        table["queue"] = _queue(table["queue"])
    if "marking" in table:
        table["marking"] = _marking(table["marking"], f"{what}.marking")
    return table


def _rto(rto: Optional[Mapping[str, Any]]) -> Optional[Dict[str, Any]]:
    if rto is None:
        return None
    table = _table(rto, "rto", "{'min': '200ms', 'max': '60s'}")
    for key in ("initial", "min", "max", "check"):
        if key in table:
            table[key] = units.duration(table[key], f"rto.{key}")
    return table


def _cc(cc: Optional[Mapping[str, Any]], window: Optional[int], rate: Optional[float]) -> Optional[Dict[str, Any]]:
    given = [name for name, value in (("cc", cc), ("window", window), ("rate", rate)) if value is not None]
    if len(given) > 1:
        raise TypeError(f"give only one of cc=, window=, rate= (got {', '.join(given)})")
    if window is not None:
        return {"algorithm": "fixed-window", "window": window}
    if rate is not None:
        return {"algorithm": "constant-rate", "rate": rate}
    return _table(cc, "cc", "{'algorithm': 'aimd'}") if cc is not None else None


_KEY_ASSIGNMENT = re.compile(r"^\s*([^=#\[]+?)\s*=")
_TABLE_HEADER = re.compile(r"^\s*\[\[?\s*([^\]]+?)\s*\]\]?")


def _duplicate_key(text: str, line: int) -> Optional[str]:
    """The dotted key assigned on `line` (1-based) of `text`, under the table header above it:
    tomllib's "Cannot overwrite a value" names neither."""
    lines = text.splitlines()
    if not 1 <= line <= len(lines):
        return None
    assignment = _KEY_ASSIGNMENT.match(lines[line - 1])
    if assignment is None:
        return None
    key = assignment.group(1).strip()
    for above in reversed(lines[: line - 1]):
        header = _TABLE_HEADER.match(above)
        if header:
            return f"{header.group(1)}.{key}"
    return key


def _decode_error(exc: Exception, source: str, text: str = "") -> ScenarioError:
    """A TOML syntax error in the same `file:line:col: reason` shape as the errors from Rust."""
    message = str(exc)
    match = _TOML_POSITION.search(message)
    if match:
        reason = message[: match.start()]
        key = _duplicate_key(text, int(match.group(1))) if reason == "Cannot overwrite a value" else None
        if key is not None:
            reason = f"{key}: given twice (a key appears once per table)"
        message = f"{source}:{match.group(1)}:{match.group(2)}: {reason}"
    else:
        message = f"{source}: {message}"
    return ScenarioError(f"{message} (invalid TOML)")


class Scenario:
    """A simulation scenario: the same document as a scenario TOML file, built in Python.

    Every builder method returns the scenario itself, so calls chain::

        sc = (Scenario(duration="10s", seed=1)
              .nodes("c", "r", "p")
              .link("c", "r", bandwidth="10Mbps", delay="5ms")
              .link("r", "p", bandwidth="10Mbps", delay="5ms")
              .producer("p", "/video")
              .consumer("c", "/video/a", window=8))

    Durations and bandwidths are strings with a unit ("5ms", "10Mbps") or numbers in SI base units
    (seconds, bit/s), which are written as "0.005s" and "10000000bps".
    """

    def __init__(
        self,
        duration: Optional[Quantity] = None,
        seed: Optional[int] = None,
        bin: Optional[Quantity] = None,
        routing: Optional[str] = None,
        **simulation: Any,
    ) -> None:
        self._doc: Dict[str, Any] = {}
        self._source = "<scenario>"
        self._base_dir: Optional[str] = None
        self._origin_text: Optional[str] = None  # text this scenario was read from, if any
        self._modified = False
        # Python protocol classes by their scenario word ("python:module:Class"), for classes given
        # as objects (ndnflow.protocols).
        self._python: Dict[str, type] = {}
        section = _without_none(
            duration=None if duration is None else units.duration(duration, "simulation.duration"),
            seed=seed,
            bin=None if bin is None else units.duration(bin, "simulation.bin"),
            routing=routing,
            **simulation,
        )
        if section:
            self._doc["simulation"] = section

    # ----------------------------------------------------------------------------------- reading

    @classmethod
    def from_dict(cls, doc: Mapping[str, Any], source: str = "<scenario>", base_dir: Optional[PathLike] = None) -> "Scenario":
        """A scenario holding a copy of `doc` (the structure `tomllib` gives for a scenario file)."""
        doc = _table(doc, f"{source}: the scenario", "{'simulation': {'duration': '10s'}}")
        return cls._holding(copy.deepcopy(doc), source, base_dir)

    @classmethod
    def _holding(cls, doc: Dict[str, Any], source: str, base_dir: Optional[PathLike]) -> "Scenario":
        """A scenario that owns `doc` itself (no copy: nobody else holds it)."""
        scenario = cls()
        scenario._doc = doc
        scenario._source = source
        scenario._base_dir = None if base_dir is None else os.fspath(base_dir)
        return scenario

    @classmethod
    def from_toml(cls, text: str, source: str = "<scenario>", base_dir: Optional[PathLike] = None) -> "Scenario":
        """Read a scenario from TOML text; `source` names it in error messages.

        Only the TOML syntax is checked here; the scenario itself is checked by `validate()`/`run`.
        `base_dir` is where relative paths in the scenario (`[topology] ndnsim`) are resolved.
        """
        try:
            # The parsed document is this scenario's alone: no copy (a 20,000-link file's copy took
            # longer than parsing it).
            scenario = cls._holding(tomllib.loads(text), source, base_dir)
        except tomllib.TOMLDecodeError as exc:
            raise _decode_error(exc, source, text) from None
        except RecursionError:
            # Python's TOML reader recurses once per level of nested arrays and inline tables.
            raise ScenarioError(f"{source}: arrays or tables nested too deeply to read (invalid scenario)") from None
        scenario._origin_text = text
        return scenario

    @classmethod
    def from_file(cls, path: PathLike) -> "Scenario":
        """Read a scenario file; relative paths inside it are resolved from the file's folder."""
        path = Path(path)
        try:
            text = safe_io.read_text_file(path, "a scenario")
        except safe_io.TextFileError as exc:
            raise ScenarioError(str(exc)) from None
        # A byte-order mark, as some Windows editors write: the engine's reader skips it, and
        # Python's TOML reader called it an "Invalid statement" at 1:1.
        text = text.removeprefix("\ufeff")
        return cls.from_toml(text, source=str(path), base_dir=path.parent)

    # ------------------------------------------------------------------------------------ writing

    def to_dict(self) -> Dict[str, Any]:
        """A deep copy of the document, sections in their usual order."""
        ordered = {key: self._doc[key] for key in _SECTIONS if key in self._doc}
        ordered.update({key: value for key, value in self._doc.items() if key not in ordered})
        return copy.deepcopy(ordered)

    def to_toml(self) -> str:
        """The document as TOML text, one line per field (reads back to the same document)."""
        return _toml.dumps(self.to_dict())

    def save(self, path: PathLike) -> Path:
        """Write `to_toml()` to `path`."""
        return safe_io.write_text(path, self.to_toml())

    # ----------------------------------------------------------------------------------- building

    def _changed(self) -> "Scenario":
        self._modified = True
        return self

    def _append(self, section: str, entry: Dict[str, Any]) -> "Scenario":
        self._doc.setdefault(section, []).append(entry)
        return self._changed()

    def _protocol(self, value: Any) -> Any:
        """A Python protocol class as its scenario word (kept, to be found again); else `value`."""
        if not isinstance(value, type):
            return value
        word = protocols.word(value)
        self._python[word] = value
        return word

    def node(self, name: str, cs: Union[None, int, Mapping[str, Any]] = None, strategy: Any = None, **extra: Any) -> "Scenario":
        """Declare node `name` or update its settings.

        `cs` is a table such as ``{"policy": "lru", "capacity": 1000}`` (a limit in Data packets),
        ``{"policy": "lru", "bytes": "100MiB"}`` (in payload bytes: an int or a size string), or
        both limits, or an int (the capacity);
        `strategy` is the forwarding strategy for "/" (e.g. "best-route", "multicast"), or a
        subclass of `ndnflow.Strategy`; so is each value of `strategies={"/prefix": ...}`.
        """
        if not isinstance(name, str):
            raise ScenarioError(f"node name: expected text such as \"r1\", got {name!r}")
        if isinstance(cs, int) and not isinstance(cs, bool):
            cs = {"capacity": cs}
        cs = None if cs is None else _table(cs, f"nodes.{name}.cs", "{'policy': 'lru', 'capacity': 1000} or 1000")
        strategy = self._protocol(strategy)
        if "strategies" in extra:
            table = _table(extra["strategies"], f"nodes.{name}.strategies", "{'/video': 'multicast'}")
            extra["strategies"] = {prefix: self._protocol(v) for prefix, v in table.items()}
        settings = self._doc.setdefault("nodes", {}).setdefault(name, {})
        settings.update(_without_none(cs=cs, strategy=strategy, **extra))
        return self._changed()

    def nodes(self, *names: str) -> "Scenario":
        """Declare several nodes with default settings: ``.nodes("c", "r", "p")``."""
        for name in names:
            self.node(name)
        return self

    def topology(self, ndnsim: PathLike) -> "Scenario":
        """Take nodes and links from an ndnSIM annotated topology file (relative to the base folder)."""
        if not isinstance(ndnsim, (str, os.PathLike)):
            raise ScenarioError(f"topology.ndnsim: expected a file's path such as \"topo.txt\", got {ndnsim!r}")
        self._doc["topology"] = {"ndnsim": os.fspath(ndnsim)}
        return self._changed()

    def link(
        self,
        a: str,
        b: str,
        bandwidth: Optional[Quantity] = None,
        delay: Optional[Quantity] = None,
        queue: Union[None, int, Mapping[str, Any]] = None,
        loss: Optional[Mapping[str, Any]] = None,
        metric: Optional[int] = None,
        marking: Union[None, str, Mapping[str, Any]] = None,
        forward: Optional[Mapping[str, Any]] = None,
        reverse: Optional[Mapping[str, Any]] = None,
        **extra: Any,
    ) -> "Scenario":
        """A full-duplex link between `a` and `b`.

        `queue` is a table (``{"discipline": "codel", "packets": 100, "mode": "mark"}``) or an int, a
        drop-tail queue of that many packets. `marking` is NFD's send-queue congestion marker:
        ``"nfd"`` (NFD's defaults) or ``{"scheme": "nfd", "threshold": "64KiB", "interval":
        "100ms"}``. `forward` (a->b) and `reverse` (b->a) override bandwidth, delay, queue, loss
        or marking in one direction (``"none"`` switches a link's marker off there).
        """
        entry = {"between": [a, b]}
        entry.update(
            _without_none(
                bandwidth=None if bandwidth is None else units.bandwidth(bandwidth, "link bandwidth"),
                delay=None if delay is None else units.duration(delay, "link delay"),
                queue=_queue(queue),
                loss=None if loss is None else _table(loss, "link loss", "{'model': 'bernoulli', 'p': 0.01}"),
                metric=metric,
                marking=_marking(marking, "link marking"),
                forward=_direction(forward, "forward"),
                reverse=_direction(reverse, "reverse"),
                **extra,
            )
        )
        return self._append("links", entry)

    def producer(
        self,
        node: str,
        prefix: str,
        payload: Optional[int] = 1024,
        segments: Optional[int] = None,
        freshness: Optional[Quantity] = None,
        **extra: Any,
    ) -> "Scenario":
        """A producer on `node` answering every Interest under `prefix` with `payload`-byte Data."""
        entry = _without_none(
            node=node,
            prefix=prefix,
            payload=payload,
            segments=segments,
            freshness=None if freshness is None else units.duration(freshness, "producer freshness"),
            **extra,
        )
        return self._append("producers", entry)

    def consumer(
        self,
        node: str,
        name: str,
        cc: Optional[Mapping[str, Any]] = None,
        start: Optional[Quantity] = None,
        stop: Optional[Quantity] = None,
        segments: Optional[int] = None,
        lifetime: Optional[Quantity] = None,
        max_retries: Optional[int] = None,
        rto: Optional[Mapping[str, Any]] = None,
        *,
        window: Optional[int] = None,
        rate: Optional[float] = None,
        **extra: Any,
    ) -> "Scenario":
        """A consumer on `node` fetching the segments of object `name`.

        The congestion control is `cc` (``{"algorithm": "fixed-window", "window": 8}``, or a subclass
        of `ndnflow.Controller`), or in short `window=8` (fixed window) or `rate=100.0` (constant
        rate, Interests per second).
        """
        if isinstance(cc, type):
            cc = {"algorithm": self._protocol(cc)}
        entry = _without_none(
            node=node,
            name=name,
            start=None if start is None else units.duration(start, "consumer start"),
            stop=None if stop is None else units.duration(stop, "consumer stop"),
            segments=segments,
            lifetime=None if lifetime is None else units.duration(lifetime, "consumer lifetime"),
            max_retries=max_retries,
            rto=_rto(rto),
            cc=_cc(cc, window, rate),
            **extra,
        )
        return self._append("consumers", entry)

    def route(self, node: str, prefix: str, nexthop: str, cost: Optional[int] = None, **extra: Any) -> "Scenario":
        """A static FIB entry on `node`: Interests under `prefix` may go to neighbour `nexthop`."""
        return self._append("routes", _without_none(node=node, prefix=prefix, nexthop=nexthop, cost=cost, **extra))

    def event(
        self,
        at: Quantity,
        link: Tuple[str, str],
        direction: Optional[str] = None,
        bandwidth: Optional[Quantity] = None,
        down: bool = False,
        up: bool = False,
        **extra: Any,
    ) -> "Scenario":
        """A scheduled change of `link` (a pair of node names) at time `at`: new bandwidth, down or up."""
        entry = _without_none(
            at=units.duration(at, "event at"),
            link=list(link),
            direction=direction,
            bandwidth=None if bandwidth is None else units.bandwidth(bandwidth, "event bandwidth"),
            down=True if down else None,
            up=True if up else None,
            **extra,
        )
        return self._append("events", entry)

    def trace(
        self, interests: Optional[bool] = None, faces: Optional[bool] = None, nodes: Optional[bool] = None, **extra: Any
    ) -> "Scenario":
        """Turn optional traces on or off (``[trace]``, docs/scenario-format.md): ``interests``
        (one row per segment each consumer got Data for or gave up, `Results.interests`),
        ``faces`` (per-face counters over time, `Results.faces`), ``nodes`` (per-node Content
        Store and PIT counters, `Results.nodes`); `extra` for the table's other keys, such as
        ``pcap=["r1->r2", "r2-r3"]`` (pcap captures of the direction r1->r2 and of both directions
        of the link r2-r3). Keys left at None are not written, and keep their value."""
        extra = {key: list(value) if key == "pcap" else value for key, value in extra.items()}
        self._doc.setdefault("trace", {}).update(_without_none(interests=interests, faces=faces, nodes=nodes, **extra))
        return self._changed()

    def forwarding_log(
        self,
        nodes: Optional[Sequence[str]] = None,
        prefix: Optional[str] = None,
        level: Optional[str] = None,
        max_records: Optional[int] = None,
    ) -> "Scenario":
        """The forwarding log (``[trace] forwarding``): NFD's pipeline steps and strategy decisions
        at `nodes` (every node by default) for names under `prefix` ("/"), queue drops and marks,
        and with ``level="trace"`` every packet a queue takes and sends; at most `max_records`
        rows (100000). Written as forwarding.log and forwarding.parquet."""
        table = _without_none(nodes=None if nodes is None else list(nodes), prefix=prefix, level=level,
                              max_records=max_records)
        return self.trace(forwarding=table)

    # ---------------------------------------------------------------------------------- variants

    def _with_simulation(self, **fields: Any) -> "Scenario":
        other = copy.deepcopy(self)
        other._doc.setdefault("simulation", {}).update(fields)
        return other._changed()

    def with_seed(self, seed: int) -> "Scenario":
        """A copy with another seed: an integer from 0 to 2^64 - 1, as `simulation.seed` takes
        (1.5, True or "7" are refused, not rounded or read)."""
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= 2**64 - 1:
            raise ScenarioError(f"simulation.seed: with_seed takes an integer from 0 to {2**64 - 1}, got {seed!r}")
        return self._with_simulation(seed=seed)

    def with_duration(self, duration: Quantity) -> "Scenario":
        """A copy with another duration ("10s", or seconds as a number)."""
        return self._with_simulation(duration=units.duration(duration, "simulation.duration"))

    def copy(self) -> "Scenario":
        return copy.deepcopy(self)

    def with_document(self, doc: Mapping[str, Any]) -> "Scenario":
        """A copy holding `doc` (as `to_dict` gives it, edited), still known as read from this
        scenario's file: a mistake already in the file keeps its position there."""
        other = copy.deepcopy(self)
        other._doc = copy.deepcopy(dict(doc))
        return other._changed() if other._doc != self._doc else other

    # -------------------------------------------------------------------------------- inspection

    @property
    def source(self) -> str:
        """Name of the scenario in error messages (file path, or "<scenario>")."""
        return self._source

    @property
    def base_dir(self) -> Optional[str]:
        return self._base_dir

    @property
    def seed(self) -> Optional[int]:
        return self._doc.get("simulation", {}).get("seed")

    @property
    def duration(self) -> Optional[str]:
        return self._doc.get("simulation", {}).get("duration")

    def compiled(self) -> Tuple[str, str, Optional[str]]:
        """(text, source, base_dir) for `_core.Simulation`.

        A scenario read from TOML and left unchanged is handed over as its original text, so that
        error positions point into the user's file.
        """
        if self._origin_text is not None and not self._modified:
            return self._origin_text, self._source, self._base_dir
        source = self._source if self._origin_text is None else f"{self._source} (modified)"
        return self.to_toml(), source, self._base_dir

    def build_simulation(self, compiled: Optional[Tuple[str, str, Optional[str]]] = None,
                         progress: Optional[Callable[[int, int], None]] = None) -> Any:
        """A fresh `_core.Simulation` for this scenario; raises `ScenarioError` if it is invalid.

        Built once (issue 22 item 3): a changed scenario read from a file is checked against that
        file only when it fails, so that a mistake already in the user's file is reported with
        positions in the file rather than in the regenerated text. `compiled` is `compiled()`'s
        value when the caller has it already (regenerating a large scenario's text takes seconds);
        `progress(done, total)` hears how far building the network is."""
        simulation_class = _native.require("Simulation")
        rust_doc, installs = protocols.split(self._doc)
        if installs:
            # The Rust reader is given placeholders for the Python protocols, which then replace them.
            text, base_dir = _toml.dumps(rust_doc), self._base_dir
            source = f"{self._source} (Python protocols as placeholders)"
        else:
            text, source, base_dir = self.compiled() if compiled is None else compiled
        try:
            if progress is None:
                simulation = simulation_class(text, source, base_dir)
            else:
                simulation = simulation_class(text, source, base_dir, progress=progress)
        except ScenarioError:
            if self._origin_text is not None and self._modified:
                try:
                    simulation_class(self._origin_text, self._source, self._base_dir)
                except ScenarioError as in_file:
                    raise in_file from None
            raise
        if installs:
            protocols.install(simulation, installs, self._python)
        for message in getattr(simulation, "warnings", ()):
            warnings.warn(ScenarioWarning(f"{source}: {message}"), stacklevel=2)
        return simulation

    def validate(self) -> "Scenario":
        """Check the scenario with the Rust reader; raises `ScenarioError` naming the problem."""
        self.build_simulation()
        return self

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Scenario):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        counts = ", ".join(
            f"{section}={len(self._doc[section])}" for section in ("nodes",) + _LIST_SECTIONS if self._doc.get(section)
        )
        simulation = ", ".join(f"{key}={value!r}" for key, value in self._doc.get("simulation", {}).items())
        inner = ", ".join(part for part in (simulation, counts) if part)
        return f"Scenario({inner})"

