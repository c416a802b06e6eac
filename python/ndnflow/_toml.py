"""TOML text for scenario documents, laid out the way people write them by hand.

tomli-w writes valid but sprawling TOML (`between = [` over four lines, `[nodes.r.cs]` sub-tables).
Scenario files read better with one line per field and inline tables::

    [nodes]
    r = { cs = { policy = "lru", capacity = 1000 } }

    [[links]]
    between = ["c", "r"]
    queue = { discipline = "droptail", packets = 100 }

Scalars (string escaping, floats) are still formatted by tomli-w, and `dumps` checks its output by
reading it back, falling back to plain tomli-w output if the two ever disagree.
"""

from __future__ import annotations

import datetime
import re
import sys
from typing import Any, List, Mapping

import tomli_w

from ndnflow._native import ScenarioError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")


def _key(key: str) -> str:
    return key if _BARE_KEY.match(key) else _scalar(key)


def _scalar(value: Any) -> str:
    return tomli_w.dumps({"v": value})[len("v = ") : -1]


def inline(value: Any) -> str:
    """`value` as a one-line TOML value (nested tables and arrays inline)."""
    if isinstance(value, Mapping):
        if not value:
            return "{}"
        return "{ " + ", ".join(f"{_key(k)} = {inline(v)}" for k, v in value.items()) + " }"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(inline(item) for item in value) + "]"
    return _scalar(value)


def _table_lines(table: Mapping[str, Any]) -> List[str]:
    return [f"{_key(key)} = {inline(value)}" for key, value in table.items()]


def _is_array_of_tables(value: Any) -> bool:
    return isinstance(value, (list, tuple)) and bool(value) and all(isinstance(item, Mapping) for item in value)


def _layout(doc: Mapping[str, Any]) -> str:
    top = {key: value for key, value in doc.items() if not isinstance(value, Mapping) and not _is_array_of_tables(value)}
    blocks = ["\n".join(_table_lines(top))] if top else []
    for key, value in doc.items():
        if key in top:
            continue
        if isinstance(value, Mapping):
            blocks.append("\n".join([f"[{_key(key)}]", *_table_lines(value)]))
        else:
            blocks.extend("\n".join([f"[[{_key(key)}]]", *_table_lines(item)]) for item in value)
    return "\n\n".join(blocks) + "\n" if blocks else ""


_SCALARS = (str, bool, int, float, datetime.date, datetime.time)


def _field(path: str, key: Any) -> str:
    return f"{path}[{key}]" if isinstance(key, int) else (f"{path}.{key}" if path else str(key))


def check(value: Any, path: str = "") -> None:
    """Raises `ScenarioError` naming the first value of the document TOML has no form for (None,
    bytes, a set, an object, a key that is not a string), rather than tomli-w's TypeError, which
    names no field."""
    if isinstance(value, Mapping):
        for key, item in value.items():
            if not isinstance(key, str):
                raise ScenarioError(f"{path or 'the document'}: key {key!r} is not a string; TOML keys are text")
            check(item, _field(path, key))
    elif isinstance(value, (list, tuple)):
        for index, item in enumerate(value):
            check(item, _field(path, index))
    elif not isinstance(value, _SCALARS):
        hint = "; leave the key out for its default" if value is None else ""
        raise ScenarioError(f"{path}: {value!r} ({type(value).__name__}) has no TOML form{hint}")


def dumps(doc: Mapping[str, Any]) -> str:
    """TOML text for `doc`; `tomllib.loads(dumps(doc)) == doc` for every document TOML can hold
    (`check` names the value of one it cannot)."""
    try:
        text = _layout(doc)
    except TypeError:  # checked only then: walking a large document costs as much as writing it
        check(doc)
        raise
    try:
        if tomllib.loads(text) == doc:
            return text
    except tomllib.TOMLDecodeError:
        pass
    return tomli_w.dumps(doc)  # pragma: no cover - only for documents the layout cannot express
