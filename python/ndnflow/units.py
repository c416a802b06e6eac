"""Unit strings for durations and bandwidths.

The scenario format writes quantities as strings with a unit ("5ms", "100Mbps"); Rust parses and
validates them. The Python front also accepts plain numbers in SI base units (seconds, bit/s) and
turns them into such strings, written without exponent so that every reader understands them.
"""

from __future__ import annotations

import math
import re
from decimal import Decimal
from numbers import Real
from typing import Union

from ndnflow import _native
from ndnflow._native import ScenarioError

Quantity = Union[str, int, float]

# Seconds per unit: only for the stand-in rule below, while the compiled core is not built.
_DURATION_UNITS = {"ns": 1e-9, "us": 1e-6, "µs": 1e-6, "μs": 1e-6, "ms": 1e-3, "s": 1.0, "min": 60.0, "h": 3600.0}
_DURATION_RE = re.compile(r"^\s*([0-9]+(?:\.[0-9]*)?|\.[0-9]+)\s*([a-zµμ]*)\s*$")

#: The scenario file's duration rule (`ndnflow_sim::scenario::units::parse_duration`): taken
#: when this module is imported, so that a test's stand-in core does not replace it.
_CORE_PARSE_DURATION = getattr(_native.core, "parse_duration", None)
#: And its bandwidth rule (`ndnflow_sim::scenario::units::parse_bandwidth`), for options too.
_CORE_PARSE_BANDWIDTH = getattr(_native.core, "parse_bandwidth", None)


_BANDWIDTH_PREFIXES = ((10**12, "T"), (10**9, "G"), (10**6, "M"), (10**3, "K"))


def _decimal(value: float) -> Decimal:
    """The shortest decimal that reads back as `value` (5e-06 -> 0.000005, 0.1 -> 0.1)."""
    return Decimal(int(value)) if float(value).is_integer() else Decimal(repr(float(value)))


def _plain(number: Decimal) -> str:
    """Decimal text without exponent or trailing zeros: 0.000005, 1.5, 30."""
    text = format(number, "f")
    return text.rstrip("0").rstrip(".") if "." in text else text


def _number(value: Quantity, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, Real):
        raise TypeError(f"{what} must be a string with a unit or a number, not {type(value).__name__}")
    number = float(value)
    if not math.isfinite(number):
        raise ScenarioError(f"{what}: {value!r} is not a finite number")
    return number


def duration(value: Quantity, what: str = "duration") -> str:
    """A duration as the scenario format writes it: strings pass unchanged, numbers are seconds.

    >>> duration(0.005), duration(30), duration("5ms")
    ('0.005s', '30s', '5ms')
    """
    if isinstance(value, str):
        return value
    return f"{_plain(_decimal(_number(value, what)))}s"


def bandwidth(value: Quantity, what: str = "bandwidth") -> str:
    """A bandwidth as the scenario format writes it: strings pass unchanged, numbers are bit/s,
    written exactly with the largest prefix that keeps them at least 1.

    >>> bandwidth(10e6), bandwidth(1.5e6), bandwidth(64_000), bandwidth(300), bandwidth("10Mbps")
    ('10Mbps', '1.5Mbps', '64Kbps', '300bps', '10Mbps')
    """
    if isinstance(value, str):
        return value
    number = _decimal(_number(value, what))
    for factor, prefix in _BANDWIDTH_PREFIXES:
        if abs(number) >= factor:
            return f"{_plain(number / factor)}{prefix}bps"
    return f"{_plain(number)}bps"


def parse_duration(text: Quantity) -> float:
    """Seconds in a duration such as "10s", "250ms" or "1.5min"; a number is seconds already.

    For command-line options: a string follows the rule of a scenario file's durations, with the
    same messages (a number needs a unit, "10m" is ambiguous, ...), so that `--duration` and
    `duration = ...` accept the same texts; raises ValueError with the reader's message.
    """
    if not isinstance(text, str):
        return _number(text, "duration")
    if _CORE_PARSE_DURATION is not None:
        return _CORE_PARSE_DURATION(text) / 1e9
    return _parse_duration_without_core(text)


def _parse_duration_without_core(text: str) -> float:
    # The same rule, less thoroughly worded, for a source tree whose extension is not built.
    match = _DURATION_RE.match(text)
    unit = match.group(2) if match else None
    if match is None or unit not in _DURATION_UNITS and not (unit == "" and float(match.group(1)) == 0):
        raise ValueError(f"invalid duration {text!r}: expected a number with a unit ({', '.join(_DURATION_UNITS)}), e.g. \"5ms\"")
    return float(match.group(1)) * _DURATION_UNITS.get(unit, 1.0)


def parse_bandwidth(text: str) -> int:
    """Bits per second in a bandwidth such as "10Mbps", by the rule and with the messages of a
    scenario file's bandwidths (for command-line options); raises ValueError with the reader's
    message. Without the compiled core (a source tree not built yet) the text is left to the
    scenario's reader, and 0 is returned."""
    if _CORE_PARSE_BANDWIDTH is None:
        return 0
    return int(_CORE_PARSE_BANDWIDTH(text))


def normalize_duration(text: str) -> str:
    """`text` checked as by `parse_duration`, without its surrounding blanks: the scenario file
    then reads the very number and unit that were given ("0.3ms" stays exact)."""
    parse_duration(text)
    return text.strip()
