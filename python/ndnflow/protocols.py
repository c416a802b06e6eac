"""Protocols in Python: a forwarding strategy or a consumer controller written as a class, run in
any scenario by the Rust engine, which calls it with the same triggers as its own.

A strategy subclasses `Strategy` and has NFD's triggers (NFD daemon/fw/strategy.hpp, as
`ndnflow_core::fw::Strategy` has them); a controller subclasses `Controller` and has the window
controller's hooks (`ndnflow_core::app::cc::CongestionController`). docs/python-api.md, "Protocols
in Python", lists what each trigger is given and may return.

A scenario names one by a word ``"python:MODULE:CLASS"`` wherever it names a strategy (a node's
``strategy``, an entry of its ``strategies``) or a consumer's ``cc.algorithm``; the other keys of a
table form (``{ name = "python:m:C", beta = 0.5 }``) are the class's keyword arguments. In Python,
`Scenario.node(strategy=MyStrategy)` and `Scenario.consumer(cc=MyController)` write that word and
keep the class itself, so a class defined in a script or a test needs no importable module.

The Rust reader knows no Python: the words are replaced by a placeholder (best-route, a fixed
window of 1) in the text it reads, and the objects then replace the placeholders on the built
simulation, before it runs (`install`).
"""

from __future__ import annotations

import copy
import importlib
from typing import Any, Dict, List, Mapping, Optional, Tuple

from ndnflow._native import ScenarioError

PREFIX = "python:"
#: How the engine's `stopped` begins when a Python protocol failed (crates/ndnflow-py protocols).
PROTOCOL_FAILURE = "python "
#: What the Rust reader is given in place of a Python protocol; never run.
_STRATEGY_PLACEHOLDER = "best-route"
_CC_PLACEHOLDER = {"algorithm": "fixed-window", "window": 1}


def _core_class(name: str) -> Any:
    from ndnflow import _native

    return _native.require(name)


def __getattr__(name: str) -> Any:
    # The decisions and views are Rust classes of `_core`, loaded with it on first use.
    if name in ("Forward", "Nack", "Interest", "PitEntry", "InRecord", "OutRecord", "Face", "NextHop",
                "StrategyContext", "DataSample"):
        return _core_class(name)
    raise AttributeError(f"module 'ndnflow.protocols' has no attribute {name!r}")


class _Hooks:
    """The hooks a subclass defines: the engine calls only those (the others keep the Rust
    trait's defaults and cost nothing)."""

    _BASE: type

    def _overridden(self) -> List[str]:
        base = self._BASE
        return [name for name in vars(base) if not name.startswith("_")
                and callable(getattr(base, name)) and getattr(type(self), name) is not getattr(base, name)]


class Strategy(_Hooks):
    """A forwarding strategy. `after_receive_interest` is required; the other triggers default to
    NFD's behaviour when left out. `seed` is set before the run (a seed of the strategy's own, drawn
    from the scenario's: use it for any randomness, so that runs repeat)."""

    seed: int = 0

    def after_receive_interest(self, ctx: Any, in_face: int, entry: Any, nexthops: List[Any]) -> Any:
        """A new or retransmitted Interest whose Content Store lookup missed: return
        ``Forward([face, ...])``, ``Nack(reason)`` (to the downstream) or None (suppress). Either
        decision takes ``why="..."``, what the forwarding log says of it."""
        raise NotImplementedError(f"{type(self).__qualname__} must define after_receive_interest")

    def after_receive_nack(self, ctx: Any, in_face: int, reason: str, mark: int, entry: Any,
                           nexthops: List[Any]) -> Any:
        """A Nack from `in_face` (its out-record already marked Nacked): ``Forward([...])`` to try
        others, ``Nack(reason)`` to every downstream, or None (wait for the other upstreams).
        Default: NFD's processNack."""

    def after_receive_data(self, ctx: Any, entry: Any, in_face: int, flags: int, mark: int) -> Optional[int]:
        """Data from `in_face` satisfies `entry`: the link-header flags its copies take downstream,
        or None for the default (the path signals it came with)."""

    def before_satisfy_interest(self, ctx: Any, entry: Any, in_face: int) -> None:
        """Data from `in_face` is about to satisfy `entry`."""

    def after_content_store_hit(self, ctx: Any, entry: Any, in_face: int) -> None:
        """The Content Store answers the Interest of `entry` from `in_face`."""

    def on_interest_expired(self, ctx: Any, entry: Any) -> None:
        """`entry` expired unsatisfied."""

    def next_timer(self) -> Optional[int]:
        """When (ns) `on_timer` is next due, or None; read after every trigger."""

    def on_timer(self, ctx: Any) -> Optional[List[Tuple[Any, int]]]:
        """The timers due at ``ctx.now_ns``: a list of (Interest, face) to send (an Interest still
        pending in the PIT), or None."""

    def forwarding_shares(self, ctx: Any, prefix: str) -> Optional[Dict[int, float]]:
        """The forwarding percentages of the FIB prefix `prefix`, ``{face: fraction of 1}``, for a
        strategy that splits traffic; read with a forwarding log on only."""


Strategy._BASE = Strategy


class Controller(_Hooks):
    """A consumer's congestion controller. `window` (Interests allowed in flight, None for no
    window), `interval_ns` (least spacing between Interests, rate-based controllers) and `rto_ns`
    (a retransmission timeout of its own, None for the consumer's RFC 6298 timer) are read after
    every hook. `seed` as for `Strategy`."""

    seed: int = 0
    window: Optional[float] = None
    interval_ns: Optional[int] = None
    rto_ns: Optional[int] = None

    def on_interest_sent(self, now_ns: int, segment: int, retransmission: bool) -> None:
        """An Interest for `segment` left (called only when defined: it costs a call per Interest)."""

    def on_data(self, now_ns: int, sample: Any) -> None:
        """Data arrived: `sample` has its segment, rtt_ns (None if retransmitted), congestion_mark,
        highest_sent, in_flight and wire_size."""

    def on_timeout(self, now_ns: int, segment: int) -> None:
        """The Interest for `segment` timed out."""

    def on_nack(self, now_ns: int, segment: int, reason: str, marked: bool) -> None:
        """A Nack for `segment`: `reason` ("congestion", ...) and its congestion mark."""


Controller._BASE = Controller


class ProtocolError(RuntimeError):
    """A Python protocol raised (or returned what is not a decision) during a run. The message
    names the class, the trigger, the node or consumer, the simulated time and the traceback;
    `results` holds what the run computed until then."""

    def __init__(self, message: str, results: Any = None) -> None:
        super().__init__(message)
        self.results = results


def word(cls: type) -> str:
    """The scenario's word for `cls`: ``python:MODULE:QUALNAME``."""
    if not isinstance(cls, type):
        raise TypeError(f"a Python protocol is given as its class, not {cls!r}")
    return f"{PREFIX}{cls.__module__}:{cls.__qualname__}"


def _resolve(name: str, classes: Mapping[str, type], field: str) -> type:
    """The class a word names: one the scenario holds, else imported."""
    if name in classes:
        return classes[name]
    parts = name[len(PREFIX):].split(":")
    if len(parts) != 2 or not all(parts):
        raise ScenarioError(f"{field}: {name!r} is not python:MODULE:CLASS")
    try:
        found: Any = importlib.import_module(parts[0])
        for attr in parts[1].split("."):
            found = getattr(found, attr)
    except (ImportError, AttributeError) as exc:
        raise ScenarioError(f"{field}: cannot load {name!r}: {exc}") from None
    return found


def _split_word(value: Any) -> Tuple[Optional[str], Dict[str, Any]]:
    """(word, keyword arguments) of a strategy or cc value naming a Python class, else (None, {})."""
    if isinstance(value, str) and value.startswith(PREFIX):
        return value, {}
    if isinstance(value, Mapping):
        key = "name" if "name" in value else "algorithm"
        named = value.get(key)
        if isinstance(named, str) and named.startswith(PREFIX):
            return named, {k: v for k, v in value.items() if k != key}
    return None, {}


def _make(name: str, kwargs: Dict[str, Any], classes: Mapping[str, type], base: type, field: str) -> Any:
    cls = _resolve(name, classes, field)
    if not (isinstance(cls, type) and issubclass(cls, base)):
        raise ScenarioError(f"{field}: {name!r} is not a subclass of ndnflow.{base.__name__}")
    try:
        return cls(**kwargs)
    except TypeError as exc:
        raise ScenarioError(f"{field}: {name!r}: {exc}") from None
    except Exception as exc:  # the class's own __init__ failed: say whose, and keep the traceback
        raise ScenarioError(f"{field}: {name!r} raised {type(exc).__name__} when made: {exc}") from exc


def split(doc: Mapping[str, Any]) -> Tuple[Dict[str, Any], List[Tuple[str, Any, str, str, Dict[str, Any]]]]:
    """(the document with placeholders for the Rust reader, what to install): each install is
    (kind, node or consumer index, prefix or place, word, keyword arguments)."""
    # A table or array of the wrong type is passed on as it is: the Rust reader names it in its error.
    out = copy.deepcopy(dict(doc))
    installs: List[Tuple[str, Any, str, str, Dict[str, Any]]] = []
    nodes = out.get("nodes")
    for node, settings in nodes.items() if isinstance(nodes, dict) else ():
        if not isinstance(settings, dict):
            continue
        name, kwargs = _split_word(settings.get("strategy"))
        if name:
            installs.append(("strategy", node, "/", name, kwargs))
            settings["strategy"] = _STRATEGY_PLACEHOLDER
        strategies = settings.get("strategies")
        for prefix, value in strategies.items() if isinstance(strategies, dict) else ():
            name, kwargs = _split_word(value)
            if name:
                installs.append(("strategy", node, prefix, name, kwargs))
                strategies[prefix] = _STRATEGY_PLACEHOLDER
    consumers = out.get("consumers")
    for index, consumer in enumerate(consumers if isinstance(consumers, list) else ()):
        name, kwargs = _split_word(consumer.get("cc") if isinstance(consumer, dict) else None)
        if name:
            installs.append(("controller", index, f"of consumer {index} (node {consumer.get('node')})", name, kwargs))
            consumer["cc"] = dict(_CC_PLACEHOLDER)
    return out, installs


def install(simulation: Any, installs: List[Tuple[str, Any, str, str, Dict[str, Any]]],
            classes: Mapping[str, type]) -> None:
    """Puts a fresh instance of each Python protocol in place of its placeholder."""
    for kind, where, detail, name, kwargs in installs:
        if kind == "strategy":
            field = f"nodes.{where}.strategy" if detail == "/" else f"nodes.{where}.strategies.{detail}"
            simulation.set_python_strategy(where, detail, _make(name, kwargs, classes, Strategy, field))
        else:
            field = f"consumers[{where}].cc"
            simulation.set_python_controller(where, detail, _make(name, kwargs, classes, Controller, field))
