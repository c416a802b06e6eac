"""ndnflow: a fast packet-level NDN simulator (Rust core) with a Python front.

    >>> import ndnflow
    >>> results = ndnflow.run("examples/quickstart.toml")      # doctest: +SKIP
    >>> results.consumers.groupby("consumer").goodput_bps.mean()  # doctest: +SKIP
"""

from __future__ import annotations

from ndnflow._native import ScenarioError
from ndnflow.plot import plot_results
from ndnflow.results import Results
from ndnflow.runner import load_scenario, run
from ndnflow.scenario import Scenario


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

__all__ = ["Scenario", "Results", "load_scenario", "run", "ScenarioError", "plot_results", "__version__"]
