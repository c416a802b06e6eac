"""A sweep's runs on a Dask cluster (dask.distributed): `pip install 'ndnflow[cluster]'`.

Each run travels as its scenario text and comes back as its summary, a small dict, so nothing of
the simulator crosses the network but a few kilobytes. Workers need ndnflow installed (the same
version, for the same results). dask-jobqueue's clusters (SLURM, PBS, ...) give a scheduler address
like any other.
"""

from __future__ import annotations

import hashlib
from typing import Any, Dict, List, Optional, Sequence

from tqdm import tqdm

from ndnflow.sweeps import SweepError, SweepRun, run_summary

#: How long to try reaching a scheduler before giving up (Dask's own default is 30 s).
CONNECT_TIMEOUT = "10s"


def _client(scheduler: Any) -> Any:
    """(client, whether we opened it): an address is connected to, a Client is used as it is."""
    try:
        from distributed import Client
    except ImportError:
        raise SweepError("a scheduler needs dask.distributed: pip install 'ndnflow[cluster]'") from None
    if isinstance(scheduler, Client):
        return scheduler, False
    if not isinstance(scheduler, str):
        raise SweepError(f"scheduler: give an address such as tcp://host:8786 or a distributed.Client, "
                         f"not {type(scheduler).__name__}")
    try:
        return Client(scheduler, timeout=CONNECT_TIMEOUT), True
    except (OSError, TimeoutError, ValueError) as exc:
        raise SweepError(f"cannot reach the Dask scheduler at {scheduler}: {exc}") from None


def run_on_cluster(scheduler: Any, runs: Sequence[SweepRun], bar: tqdm,
                   summaries: List[Optional[Dict[str, Any]]]) -> None:
    """Run every run on the cluster, filling `summaries` (in run order) as they come back and
    adding each run's simulated seconds to `bar` when it does. Ctrl-C cancels what is left."""
    from distributed import as_completed

    client, opened = _client(scheduler)
    futures = []
    try:
        index = {}
        for k, run in enumerate(runs):
            text, source, base_dir = run.scenario.compiled()
            future = client.submit(run_summary, text, source, base_dir, key=f"ndnflow-{k}-{_digest(text)}")
            futures.append(future)
            index[future.key] = k
        for future in as_completed(futures):
            k = index[future.key]
            try:
                summaries[k] = future.result()
            except Exception as exc:  # noqa: BLE001 - a worker's error, named by the run
                raise SweepError(f"{runs[k].label} failed on the cluster: {type(exc).__name__}: {exc}") from None
            bar.update(runs[k].duration_s)
    finally:
        client.cancel([future for future in futures if not future.done()])
        if opened:
            client.close()


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
