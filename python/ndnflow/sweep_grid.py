"""The grid of a sweep: which field of a scenario each key names, and the values it takes.

A key is a path into the scenario document, in the names the scenario file uses:

    simulation.duration            a field of a table
    nodes.r.cs.capacity            a node by name
    links[2].delay                 the third [[links]] entry (0-based)
    links[r,p].queue.packets       the link between r and p (either order)
    consumers[0].cc.window         the first [[consumers]] entry

Fields joined by ``+`` take the same value together: ``links[a,r].delay+links[b,r].delay`` moves
both links' delays in one column of the grid.

Setting a field that the entry does not have yet adds it (a link without `queue` gets one); the
scenario reader then checks the result as it checks a file, unknown fields included.

Values on the command line are TOML values (``10``, ``0.5``, ``"best-route"``, ``{ discipline =
"codel", packets = 100 }``), and a word that is not one (``15ms``, ``pcon``) is taken as a string.
"""

from __future__ import annotations

import copy
import itertools
import re
import sys
from typing import Any, Dict, List, Mapping, Sequence, Tuple, Union

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

#: One step of a key: a table field, a list index, or the link between two nodes.
Step = Union[str, int, Tuple[str, str]]

_NAME = r"[A-Za-z0-9_-]+"
_STEP = re.compile(rf"\.({_NAME})|\[\s*(-?\d+)\s*\]|\[\s*({_NAME})\s*,\s*({_NAME})\s*\]")
_FIRST = re.compile(_NAME)


class GridError(ValueError):
    """A sweep key or value that cannot be applied to the scenario; the message names it."""


def parse_key(key: str) -> List[Step]:
    """``"links[r,p].queue.packets"`` -> ``["links", ("r", "p"), "queue", "packets"]``."""
    first = _FIRST.match(key)
    if first is None:
        raise GridError(f"key {key!r}: expected a field name first, e.g. links[0].delay or simulation.duration")
    steps: List[Step] = [first.group(0)]
    at = first.end()
    while at < len(key):
        match = _STEP.match(key, at)
        if match is None:
            raise GridError(f"key {key!r}: cannot read {key[at:]!r} (expected .field, [index] or [node,node])")
        field, index, a, b = match.groups()
        steps.append(field if field is not None else int(index) if index is not None else (a, b))
        at = match.end()
    return steps


def _step_text(steps: Sequence[Step]) -> str:
    text = ""
    for step in steps:
        if isinstance(step, str):
            text += ("." if text else "") + step
        elif isinstance(step, int):
            text += f"[{step}]"
        else:
            text += f"[{step[0]},{step[1]}]"
    return text


def _child(container: Any, step: Step, path: Sequence[Step], key: str) -> Tuple[Any, Union[str, int]]:
    """The container's slot that `step` names, as (container, index-or-field)."""
    where = _step_text(path) or "the scenario"
    if isinstance(step, str):
        if not isinstance(container, dict):
            raise GridError(f"key {key!r}: {where} is a list; pick an entry with [index] before .{step}")
        return container, step
    if not isinstance(container, list):
        kind = "a table" if isinstance(container, dict) else "a value"
        raise GridError(f"key {key!r}: {where} is {kind}, not a list of entries; {_step_text([step])} needs a list")
    if isinstance(step, int):
        if not -len(container) <= step < len(container):
            raise GridError(f"key {key!r}: {where} has {len(container)} entries, so [{step}] is out of range")
        return container, step
    wanted = set(step)
    found = [k for k, entry in enumerate(container)
             if isinstance(entry, dict) and isinstance(entry.get("between"), list) and set(entry["between"]) == wanted]
    if not found:
        raise GridError(f"key {key!r}: {where} has no entry between {step[0]!r} and {step[1]!r}")
    if len(found) > 1:
        raise GridError(f"key {key!r}: {where} has {len(found)} entries between {step[0]!r} and {step[1]!r} "
                        f"(entries {', '.join(str(k) for k in found)}); pick one with [index]")
    return container, found[0]


def fields(key: str) -> List[str]:
    """The fields a key sets: ``"a.x + b.y"`` -> ``["a.x", "b.y"]``."""
    return [part.strip() for part in key.split("+")]


def set_field(doc: Dict[str, Any], key: str, value: Any) -> None:
    """Set the field (or the ``+``-joined fields) that `key` names in the scenario document `doc`
    (in place); tables on the way that do not exist yet are added."""
    for field in fields(key):
        _set_one(doc, field, value)


def _set_one(doc: Dict[str, Any], key: str, value: Any) -> None:
    steps = parse_key(key)
    container: Any = doc
    for depth, step in enumerate(steps):
        container, slot = _child(container, step, steps[:depth], key)
        if depth == 1 and steps[0] == "nodes" and isinstance(slot, str) and slot not in container \
                and "topology" not in doc:
            # A node is declared in the file (or comes from its [topology] file, whose names this
            # document does not list): a mistyped name would add a node of its own, alone.
            raise GridError(f"key {key!r}: the scenario has no node {slot!r}")
        if depth == len(steps) - 1:
            # A section of the file ([simulation], [[links]], ...) is a table or a list: a value in its
            # place would reach the reader as a document it cannot read. (A field deeper down may
            # change kind: a strategy is a name or a table.)
            held = container.get(slot) if depth == 0 else None
            if isinstance(held, (dict, list)) and not isinstance(value, type(held)):
                kind = "table" if isinstance(held, dict) else "list"
                raise GridError(f"key {key!r}: {_step_text(steps)} is a {kind}; set one of its fields, not {value!r}")
            container[slot] = copy.deepcopy(value)
            return
        if isinstance(slot, str) and slot not in container:
            if isinstance(steps[depth + 1], str):
                container[slot] = {}
            else:
                raise GridError(f"key {key!r}: the scenario has no {_step_text(steps[: depth + 1])}")
        nxt = container[slot]
        if not isinstance(nxt, (dict, list)):
            raise GridError(f"key {key!r}: {_step_text(steps[: depth + 1])} is a value ({nxt!r}), not a table")
        container = nxt


def parse_value(text: str) -> Any:
    """A TOML value (``10``, ``0.5``, ``true``, ``"x"``, ``[1, 2]``, ``{ a = 1 }``), or the stripped
    text itself when it is not one (``15ms``, ``pcon``)."""
    text = text.strip()
    if not text:
        raise GridError("empty value")
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        return text


def split_values(text: str) -> List[str]:
    """Split "a,b,c" at the commas that are not inside brackets, braces or quotes."""
    parts, depth, quote, start = [], 0, "", 0
    for at, char in enumerate(text):
        if quote:
            if char == quote:
                quote = ""
        elif char in "\"'":
            quote = char
        elif char in "[{":
            depth += 1
        elif char in "]}":
            depth -= 1
        elif char == "," and depth == 0:
            parts.append(text[start:at])
            start = at + 1
    parts.append(text[start:])
    return parts


def parse_assignment(text: str) -> Tuple[str, List[Any]]:
    """``"links[r,p].delay=10ms,15ms"`` -> ``("links[r,p].delay", ["10ms", "15ms"])``."""
    key, equals, values = text.partition("=")
    key = key.strip()
    if not equals or not key:
        raise GridError(f"--set {text!r}: expected KEY=VALUE[,VALUE...], e.g. links[0].delay=10ms,20ms")
    for field in fields(key):
        parse_key(field)
    try:
        return key, [parse_value(value) for value in split_values(values)]
    except GridError as exc:
        raise GridError(f"--set {text!r}: {exc}") from None


def check_grid(grid: Mapping[str, Sequence[Any]]) -> Dict[str, List[Any]]:
    """The grid as {key: [values]}; every key parsed, every list non-empty, no field named twice."""
    checked: Dict[str, List[Any]] = {}
    seen: Dict[str, str] = {}
    for key, values in grid.items():
        if isinstance(values, (str, bytes)) or not isinstance(values, Sequence):
            raise GridError(f"key {key!r}: give a list of values, not {values!r}")
        if not values:
            raise GridError(f"key {key!r}: no values")
        for field in fields(key):
            canonical = _step_text(parse_key(field))
            if canonical == "simulation.seed":
                raise GridError(f"key {key!r}: give the seeds as seeds (--seeds on the command line), "
                                "which every point is run with")
            if canonical in seen:
                raise GridError(f"keys {seen[canonical]!r} and {key!r} both set {canonical}")
            seen[canonical] = key
        checked[key] = list(values)
    return checked


def resolved(doc: Dict[str, Any], field: str) -> Tuple[Any, ...]:
    """The slots `field` reaches in `doc`, with a link named by its nodes as its index and a
    negative index counted from the end, so that two spellings of one field compare equal
    (``links[c1,r].delay`` and ``links[0].delay``). Past a table the document does not hold
    yet, the rest is the key's own steps; a key that cannot be applied is left to `set_field`
    to report."""
    steps = parse_key(field)
    out: List[Any] = []
    container: Any = doc
    for depth, step in enumerate(steps):
        try:
            holder, slot = _child(container, step, steps[:depth], field)
        except GridError:
            return tuple(out) + tuple(steps[depth:])
        if isinstance(slot, int) and slot < 0:
            slot += len(holder)
        out.append(slot)
        inside = holder.get(slot) if isinstance(holder, dict) else holder[slot]
        if not isinstance(inside, (dict, list)):
            return tuple(out) + tuple(steps[depth + 1:])
        container = inside
    return tuple(out)


def check_overlaps(doc: Dict[str, Any], grid: Mapping[str, Sequence[Any]]) -> None:
    """Refuses two keys that set one field, or a table and a field inside it, however they are
    spelt: the later key's value won, while the table showed both (until 2026-11-28)."""
    seen: List[Tuple[Tuple[Any, ...], str, str]] = []
    for key in grid:
        for field in fields(key):
            path = resolved(doc, field)
            for other_path, other_key, other_field in seen:
                shorter = min(len(path), len(other_path))
                if path[:shorter] == other_path[:shorter]:
                    what = (f"both set {field}" if len(path) == len(other_path)
                            else f"overlap: {other_field if len(other_path) < len(path) else field} "
                                 f"holds {field if len(other_path) < len(path) else other_field}")
                    raise GridError(f"keys {other_key!r} and {key!r} {what}; give the field once")
            seen.append((path, key, field))


def count_points(grid: Mapping[str, Sequence[Any]]) -> int:
    """How many points the grid has, without listing them."""
    count = 1
    for values in grid.values():
        count *= len(values)
    return count


def points(grid: Mapping[str, Sequence[Any]]) -> List[Dict[str, Any]]:
    """Every combination of the grid's values, the last key varying fastest."""
    keys = list(grid)
    return [dict(zip(keys, combination)) for combination in itertools.product(*(grid[key] for key in keys))]


def value_text(value: Any) -> str:
    """A value as the command line would give it (strings bare)."""
    if hasattr(value, "item") and not isinstance(value, (str, dict, list)):
        value = value.item()  # a numpy scalar from a DataFrame
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value) if not isinstance(value, (dict, list)) else str(value)
