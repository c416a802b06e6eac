"""ndnflow: a fast packet-level NDN simulator (Rust core) with a Python front.

    >>> import ndnflow
    >>> results = ndnflow.run("examples/quickstart.toml")      # doctest: +SKIP
    >>> results.consumers.groupby("consumer").goodput_bps.mean()  # doctest: +SKIP
"""

from __future__ import annotations

from typing import Any

from ndnflow import optimum  # max_flow for "measured / optimum"; networkx loads on first use
from ndnflow._native import ScenarioError, ScenarioWarning
from ndnflow.results import Results
from ndnflow.runner import load_scenario, run
from ndnflow.scenario import Scenario
from ndnflow.sweeps import SweepResults, sweep


def __getattr__(name: str) -> Any:
    # matplotlib is imported when a figure is drawn, not with the package: it takes most of
    # `import ndnflow`'s time and memory, which `ndnflow bench`, `--help` and scripting without
    # figures need not pay.
    if name == "plot_results":
        from ndnflow.plot import plot_results

        return plot_results
    raise AttributeError(f"module 'ndnflow' has no attribute {name!r}")


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
    "Scenario", "Results", "SweepResults", "load_scenario", "run", "sweep", "optimum", "ScenarioError", "ScenarioWarning", "plot_results", "__version__",
]
