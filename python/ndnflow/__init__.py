"""ndnflow: a fast packet-level NDN simulator (Rust core) with a Python front.

    >>> import ndnflow
    >>> results = ndnflow.run("examples/quickstart.toml")      # doctest: +SKIP
    >>> results.consumers.groupby("consumer").goodput_bps.mean()  # doctest: +SKIP
"""

from __future__ import annotations

import importlib
from typing import Any

# Where each public name lives. They load on first use (PEP 562), not with the package: pandas and
# matplotlib take most of `import ndnflow`'s time, which `ndnflow --help`, `ndnflow bench` and a
# script that uses a part of the package need not pay.
_PUBLIC = {
    "Scenario": "ndnflow.scenario",
    "Results": "ndnflow.results",
    "SweepResults": "ndnflow.sweeps",
    "load_scenario": "ndnflow.runner",
    "run": "ndnflow.runner",
    "sweep": "ndnflow.sweeps",
    "ScenarioError": "ndnflow._native",
    "ScenarioWarning": "ndnflow._native",
    "plot_results": "ndnflow.plot",
    "Strategy": "ndnflow.protocols",
    "Controller": "ndnflow.protocols",
    "Forward": "ndnflow.protocols",
    "Nack": "ndnflow.protocols",
    "ProtocolError": "ndnflow.protocols",
}


def __getattr__(name: str) -> Any:
    if name == "optimum":  # max_flow for "measured / optimum"; networkx loads on first use
        return importlib.import_module("ndnflow.optimum")
    if name not in _PUBLIC:
        raise AttributeError(f"module 'ndnflow' has no attribute {name!r}")
    value = getattr(importlib.import_module(_PUBLIC[name]), name)
    globals()[name] = value
    return value


def _version() -> str:
    from ndnflow import _native

    if _native.version():
        return str(_native.version())
    try:
        from importlib.metadata import PackageNotFoundError, version

        return version("ndnflow")
    except PackageNotFoundError:  # running from a source tree that was never installed
        return "0+unknown"


__version__ = _version()

__all__ = [
    "Scenario", "Results", "SweepResults", "load_scenario", "run", "sweep", "optimum", "ScenarioError", "ScenarioWarning", "plot_results",
    "Strategy", "Controller", "Forward", "Nack", "ProtocolError",
    "__version__",
]
