"""The `ndnflow reproduce` catalog: experiments that re-run a paper's evaluation and check its claims.

Each experiment is one module of this package (listed in `MODULES`) that declares ``ID``,
``TITLE``, ``PAPER``, ``SECTION`` and the functions `common.run_experiment` calls; see
docs/experiments/README.md.

    >>> from ndnflow import experiments
    >>> [e.ID for e in experiments.catalog().values()]        # doctest: +SKIP
    ['pcon-4.1', 'pcon-4.2', 'pcon-4.3', 'pcon-4.4-split', 'pcon-4.4-table1', 'pcon-4.5']
    >>> report = experiments.run("pcon-4.1", "out/pcon-4.1")  # doctest: +SKIP
    >>> print(report.table())                                  # doctest: +SKIP
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any, Dict, Optional

from ndnflow.experiments.common import Report, Row, run_experiment

#: Experiment modules, in catalog order.
MODULES = ("pcon_4_1", "pcon_4_2", "pcon_4_3", "pcon_4_4_split", "pcon_4_4_table1", "pcon_4_5", "pcon_4_6",
           "survey_sce1", "survey_sce2", "survey_sce3", "ptp_s1", "ptp_s2", "ptp_s3", "ptp_s4", "ptp_s5",
           "dpccp_sp1", "dpccp_sp2", "dpccp_sp3", "dpccp_mp1", "dpccp_mp2", "dpccp_mp3", "dpccp_mp4",
           "smic_bottleneck1", "smic_bottleneck2", "smic_tree", "smic_competition")


class UnknownExperiment(KeyError):
    """An id that no experiment module declares."""

    def __str__(self) -> str:
        return f"unknown experiment {self.args[0]!r} (known: {', '.join(catalog())})"


def catalog() -> Dict[str, ModuleType]:
    """Experiment id -> module, in catalog order."""
    modules = [importlib.import_module(f"{__name__}.{name}") for name in MODULES]
    return {module.ID: module for module in modules}


def get(experiment_id: str) -> ModuleType:
    modules = catalog()
    if experiment_id not in modules:
        raise UnknownExperiment(experiment_id)
    return modules[experiment_id]


def run(experiment_id: str, out_dir: Optional[Any] = None, **options: Any) -> Report:
    """Run one experiment by id; `options` are `run_experiment`'s (duration, seed, progress, jobs)."""
    return run_experiment(get(experiment_id), out_dir, **options)


__all__ = ["MODULES", "Report", "Row", "UnknownExperiment", "catalog", "get", "run", "run_experiment"]
