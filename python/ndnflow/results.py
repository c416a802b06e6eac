"""`Results`: what a run produced, as a summary dict and pandas DataFrames; saved as files.

On disk a result folder holds ``summary.json`` (sorted keys, two-space indent), ``links.parquet``
and ``consumers.parquet`` (``paths``, ``objects``, ``interests``, ``faces``, ``nodes`` and ``forwarding``
too when the run has rows for them) (zstd, no pandas metadata, so the same data always gives the same
bytes), or the same traces as ``.csv`` files (`TRACE_FORMATS`: header row, no index, floats in
their shortest round-trip form, NaN as an empty field), and, when known, ``scenario.toml``, the
scenario that produced them; ``captures/*.pcap`` when the scenario captures link directions
(`ndnflow.captures`); ``forwarding.log`` beside ``forwarding``'s trace (the forwarding log as
text, one line per row).

numpy, pandas and pyarrow load when a trace is first read or a file written, not with this module:
`ndnflow run` without `--out` prints the summary's table and needs none of them (issue 23, item 3).
"""

from __future__ import annotations

import json
import math
import os
import sys
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Dict, Iterable, Iterator, List, Mapping, Optional, Sequence, Union

from ndnflow import _native, safe_io
from ndnflow.captures import Captures, remove_stale
from ndnflow.report import consumer_reports, results_table
from ndnflow.safe_io import ResultsFileError

if TYPE_CHECKING:
    import pandas as pd

PathLike = Union[str, "os.PathLike[str]"]

SUMMARY_FILE = "summary.json"
LINKS_FILE = "links.parquet"
CONSUMERS_FILE = "consumers.parquet"
PATHS_FILE = "paths.parquet"
OBJECTS_FILE = "objects.parquet"
INTERESTS_FILE = "interests.parquet"
FORWARDING_FILE = "forwarding.parquet"
FORWARDING_LOG_FILE = "forwarding.log"
SCENARIO_FILE = "scenario.toml"

#: The traces, in the order they are written; links and consumers always, the others when they
#: have rows.
TRACES = ("links", "consumers", "paths", "objects", "interests", "faces", "nodes", "forwarding")
_ALWAYS_WRITTEN = ("links", "consumers")

#: `save`'s formats: the file extensions each writes.
TRACE_FORMATS: Dict[str, Sequence[str]] = {"parquet": ("parquet",), "csv": ("csv",), "both": ("parquet", "csv")}

#: Every trace file a result folder may hold, in either format.
TRACE_FILES = tuple(f"{trace}.{ext}" for trace in TRACES for ext in ("parquet", "csv")) + ("forwarding.log",)


def _trace_columns(trace: str) -> Dict[str, str]:
    """Column -> dtype of one trace, in order, as the simulator defines it (`_core.trace_schema`,
    from `ndnflow_sim::trace_schema`). Without the compiled core there is no schema: frames then
    keep the columns and types they were given or saved with."""
    if not _native.has("trace_schema"):
        return {}
    return {column["name"]: column["dtype"] for column in _native.core.trace_schema()[trace]}


#: Column -> dtype of the per-bin link trace (one row per direction and time bin).
LINK_COLUMNS: Dict[str, str] = _trace_columns("links")

#: Column -> dtype of the per-bin consumer trace (one row per consumer and time bin).
CONSUMER_COLUMNS: Dict[str, str] = _trace_columns("consumers")

#: Column -> dtype of the per-bin path trace of multipath consumers (one row per path and time bin).
PATH_COLUMNS: Dict[str, str] = _trace_columns("paths")

#: Column -> dtype of the per-object table of catalog consumers (one row per object requested).
OBJECT_COLUMNS: Dict[str, str] = _trace_columns("objects")

#: Column -> dtype of the per-segment trace (``[trace] interests = true``: one row per segment a
#: consumer got Data for or gave up, ndnSIM's AppDelayTracer).
INTEREST_COLUMNS: Dict[str, str] = _trace_columns("interests")

#: Column -> dtype of the per-face counters (`[trace] faces = true`; one row per face and time bin).
FACE_COLUMNS: Dict[str, str] = _trace_columns("faces")

#: Column -> dtype of the per-node counters (`[trace] nodes = true`; one row per node and time bin).
NODE_COLUMNS: Dict[str, str] = _trace_columns("nodes")

#: Column -> dtype of the forwarding log (`[trace] forwarding`: one row per pipeline step, strategy
#: decision or queue event, in the order they ran).
FORWARDING_COLUMNS: Dict[str, str] = _trace_columns("forwarding")


def _series(values: Any, dtype: Optional[str], adopt: bool = False) -> pd.Series:
    """A column with a plain dtype: int64 (float64 if it has gaps), float64 or str. With `adopt`,
    an array of that dtype becomes the column itself instead of a copy."""
    import numpy as np
    import pandas as pd

    if dtype == "str":
        return pd.Series(values, dtype="str")
    if dtype == "int64":
        array = np.asarray(values)
        if array.dtype.kind == "f":
            # Floats where counts belong: whole numbers, and gaps (NaN) make it a float64 column.
            # 1.5 read as 1, and a gap as -2^63 with numpy's warning alone, until 2026-11-28.
            known = array[~np.isnan(array)]
            if not np.all(np.isfinite(known)) or not np.all(known == np.round(known)):
                raise ValueError("a column of counts holds a value that is not a whole number")
            if len(known) < len(array):
                return pd.Series(array.astype("float64"), copy=not adopt)
        try:
            return pd.Series(np.asarray(values, dtype="int64"), copy=not adopt)
        except (TypeError, ValueError):
            return pd.Series(np.asarray(values, dtype="float64"), copy=not adopt)
    if dtype == "float64":
        return pd.Series(np.asarray(values, dtype="float64"), copy=not adopt)
    series = pd.Series(values)
    return series.astype("str") if series.dtype == object else series


def to_frame(columns: Union[Mapping[str, Sequence[Any]], pd.DataFrame, None], schema: Mapping[str, str],
             adopt: bool = False) -> pd.DataFrame:
    """A DataFrame from columnar data, known columns first and with their schema dtype.

    Columns the schema does not know are kept after the known ones; an empty input gives an empty
    frame with the schema's columns. `adopt`: the columns are fresh arrays nobody else holds (the
    core's), which the frame keeps as they are: a trace's rows are the biggest memory of a run,
    and each copy (pandas copies arrays given to its constructors) would double them.
    """
    import pandas as pd

    if columns is None or (not isinstance(columns, pd.DataFrame) and len(columns) == 0):
        return pd.DataFrame({name: _series([], dtype) for name, dtype in schema.items()})
    names = [name for name in schema if name in columns] + [name for name in columns if name not in schema]
    frame = pd.DataFrame({name: _series(_values(columns[name]), schema.get(name), adopt) for name in names},
                         copy=not adopt)
    return frame.reset_index(drop=True)


def _values(column: Any) -> Any:
    return column.to_numpy() if hasattr(column, "to_numpy") else column


def json_ready(value: Any) -> Any:
    """`value` with NaN/inf floats replaced by None, numpy scalars by Python ones, tuples by lists."""
    if isinstance(value, Mapping):
        return {str(key): json_ready(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_ready(item) for item in value]
    # Without numpy loaded no value can be a numpy scalar (a summary read from JSON has none).
    np = sys.modules.get("numpy")
    if np is not None and isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


#: Rows per piece when a trace is written straight from the core (`_CoreTrace.pieces`): each
#: piece is one Parquet row group. A piece held while it is written is a fixed transient (its
#: columns, its Arrow table, the writer's pages: a few MB at this size), so the bytes a run holds
#: per trace row are the engine's log alone, whatever the trace's length. A trace of at most this
#: many rows is one piece, and its file the same bytes as before pieces. 8,192: the sizes
#: tried, with their memory and file sizes, are in docs/performance.md ("Trace rows").
PIECE_ROWS = 1 << 13

#: A trace to write: one DataFrame, or its rows in order as DataFrames (or, for Parquet, as
#: Arrow tables of the schema a DataFrame of the trace converts to).
Frames = Union["pd.DataFrame", Iterable[Any]]


def _pieces(frames: Frames) -> Iterable[Any]:
    import pandas as pd

    return [frames] if isinstance(frames, pd.DataFrame) else frames


def _arrow_table(frame: Any) -> Any:
    import pandas as pd
    import pyarrow as pa

    if not isinstance(frame, pd.DataFrame):
        return frame
    return pa.Table.from_pandas(frame, preserve_index=False).replace_schema_metadata(None)


def _write_parquet(frames: Frames, path: Path) -> None:
    # No pandas metadata, and a row group per `PIECE_ROWS` rows however the rows come (one
    # DataFrame or pieces from the core): the bytes then depend on the data alone (and the
    # pyarrow version).
    import pyarrow.parquet as pq

    writer = None
    try:
        for frame in _pieces(frames):
            table = _arrow_table(frame)
            if writer is None:
                writer = pq.ParquetWriter(path, table.schema, compression="zstd")
            writer.write_table(table, row_group_size=PIECE_ROWS)
    finally:
        if writer is not None:
            writer.close()


def _read_parquet(path: Path, schema: Mapping[str, str]) -> pd.DataFrame:
    import pyarrow.parquet as pq

    return to_frame(pq.read_table(path).to_pandas(), schema)


def _write_csv(frames: Frames, path: Path) -> None:
    # pandas writes a float as Python's repr does, the shortest text that reads back to the same
    # bits; NaN as an empty field (what R's read.csv and gnuplot's `set datafile missing ""` take).
    with open(path, "w", encoding="utf-8", newline="") as file:
        for k, frame in enumerate(_pieces(frames)):
            frame.to_csv(file, index=False, header=k == 0, na_rep="", lineterminator="\n")


def _read_csv(path: Path, schema: Mapping[str, str]) -> pd.DataFrame:
    import pandas as pd

    # Labels stay text even when one reads "NaN" or is empty; only float columns have missing values.
    labels = {name: str for name, dtype in schema.items() if dtype == "str"}
    floats = {name: [""] for name, dtype in schema.items() if dtype == "float64"}
    frame = pd.read_csv(path, dtype=labels, keep_default_na=False, na_values=floats)
    return to_frame(frame, schema)


_READERS = {"parquet": _read_parquet, "csv": _read_csv}


def _writer(ext: str) -> Callable[[pd.DataFrame, Path], None]:
    # Looked up at each call, not kept in a table: a test (or a user) that swaps the module's
    # writer, to make a write fail, reaches every save.
    return _write_parquet if ext == "parquet" else _write_csv


def _trace_file(directory: Path, trace: str) -> Optional[Path]:
    """The file holding `trace` in `directory`, Parquet first; None when there is none."""
    for ext in ("parquet", "csv"):
        path = directory / f"{trace}.{ext}"
        if path.is_file():
            return path
    return None


def _read_trace(path: Optional[Path], schema: Mapping[str, str]) -> Optional[pd.DataFrame]:
    if path is None:
        return None
    try:
        frame = _READERS[path.suffix[1:]](path, schema)
    except (KeyError, ValueError, TypeError, OverflowError, OSError) as exc:  # not Parquet or CSV, or odd columns
        raise ResultsFileError(f"{path}: not a trace as ndnflow writes it ({_first_line(exc)})") from exc
    # The time and the labels every reader selects rows by; a number column an older ndnflow did
    # not write yet may be missing.
    needed = [name for name, dtype in schema.items() if name == "time_s" or dtype == "str"]
    missing = [name for name in needed if name not in frame.columns]
    if missing:
        raise ResultsFileError(f"{path}: not a trace as ndnflow writes it (no column {', '.join(missing)})")
    return frame


def _first_line(exc: BaseException) -> str:
    return next((line.strip() for line in str(exc).splitlines() if line.strip()), type(exc).__name__)


def _read_summary(path: Path) -> Dict[str, Any]:
    """summary.json, checked to be what `save` writes: a JSON object of the run's totals."""
    try:
        summary = json.loads(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError as exc:
        raise ResultsFileError(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from exc
    except json.JSONDecodeError as exc:
        raise ResultsFileError(f"{path}: not JSON ({exc.msg} at line {exc.lineno}, column {exc.colno})") from exc
    except RecursionError:
        raise ResultsFileError(f"{path}: not a run's summary (arrays or objects nested too deeply)") from None
    keys = ("simulation", "consumers", "links", "nodes")
    if not isinstance(summary, dict) or not all(isinstance(summary.get(k, {}), dict) for k in keys):
        raise ResultsFileError(f"{path}: not a run's summary (a JSON object whose {', '.join(keys)} are tables)")
    # Each consumer, link and node is a table of its numbers: `consumers.c1 = 5` was read, and
    # table() failed on it with an AttributeError, until 2026-11-28.
    for key in ("consumers", "links", "nodes"):
        odd = next((name for name, entry in summary.get(key, {}).items() if not isinstance(entry, dict)), None)
        if odd is not None:
            raise ResultsFileError(f"{path}: not a run's summary ({key}.{odd} is not a table)")
    return summary


def _read_scenario(path: Path) -> Optional[str]:
    """The scenario.toml a run wrote beside its results (its text; None without one)."""
    if not path.is_file():
        return None
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise ResultsFileError(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from exc


def forwarding_log_text(frame: pd.DataFrame) -> str:
    """The forwarding log as text, one line per row, in NFD's log shape:
    ``<time s, 9 decimals> <node> <event> in=<face> out=<face> name=<name> nonce=<n> <detail>``,
    each ``key=`` part left out where the row has no value."""
    lines = []
    for row in frame.itertuples(index=False):
        words = [f"{row.time_s:.9f}", row.node, row.event]
        words += [f"{key}={value}" for key, value in (("in", row.face_in), ("out", row.face_out),
                                                      ("name", row.name), ("nonce", row.nonce)) if value]
        if row.detail:
            words.append(row.detail)
        lines.append(" ".join(words))
    return "\n".join(lines) + "\n"


def _write_forwarding_log(frames: Frames, path: Path) -> None:
    with open(path, "wb") as file:
        for frame in _pieces(frames):
            file.write(forwarding_log_text(frame).encode("utf-8"))


class _CoreTrace:
    """One trace of a run, still in the core (`_core.Traces`): read whole as columns when called,
    or written a piece at a time (`pieces`) without being held whole."""

    def __init__(self, traces: Any, name: str) -> None:
        self.traces, self.name = traces, name

    def __call__(self) -> Mapping[str, Sequence[Any]]:
        return self.traces.table(self.name)

    def rows(self) -> int:
        return self.traces.rows(self.name)

    def pieces(self, schema: Mapping[str, str], ext: str) -> Iterator[Any]:
        """The trace's rows, `PIECE_ROWS` at a time: Arrow tables for Parquet, DataFrames for CSV."""
        piece = _arrow_columns if ext == "parquet" else partial(to_frame, adopt=True)
        for columns in self.traces.chunks(self.name, PIECE_ROWS):
            yield piece(columns, schema)


def _arrow_columns(columns: Mapping[str, Any], schema: Mapping[str, str]) -> Any:
    """The core's columns as the Arrow table their DataFrame would convert to (labels as
    large_string, NaN as null, as `pa.Table.from_pandas` makes them), without the DataFrame and
    the copies pandas makes on the way."""
    import pyarrow as pa

    arrays = [pa.array(columns[name], type=pa.large_string()) if dtype == "str" else pa.array(columns[name], from_pandas=True)
              for name, dtype in schema.items()]
    return pa.Table.from_arrays(arrays, names=list(schema))


#: What a trace is made from: columns, a frame, nothing, or a call that returns columns (the
#: core's traces, copied out of Rust on first use).
TraceSource = Union[Mapping[str, Sequence[Any]], "pd.DataFrame", None, Callable[[], Mapping[str, Sequence[Any]]]]


class _Trace:
    """A trace of `Results` as a DataFrame, built from its source the first time it is read: a
    run whose traces nobody reads (`ndnflow run` without `--out`) never loads pandas or numpy."""

    def __init__(self, schema: Mapping[str, str]) -> None:
        self.schema = schema
        self.name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, results: Optional["Results"], owner: type) -> Any:
        if results is None:
            return self
        frames = results._frames
        if self.name not in frames:
            source = results._sources[self.name]
            fresh = callable(source)  # the core's columns, new arrays
            frames[self.name] = to_frame(source() if fresh else source, self.schema, adopt=fresh)
            del results._sources[self.name]  # once built: a copy cut short by Ctrl-C can be read again
        return frames[self.name]

    def __set__(self, results: "Results", source: TraceSource) -> None:
        results._frames.pop(self.name, None)
        results._sources[self.name] = source


#: Each trace's schema, by name.
SCHEMAS: Dict[str, Mapping[str, str]] = {
    "links": LINK_COLUMNS, "consumers": CONSUMER_COLUMNS, "paths": PATH_COLUMNS, "objects": OBJECT_COLUMNS,
    "interests": INTEREST_COLUMNS, "faces": FACE_COLUMNS, "nodes": NODE_COLUMNS, "forwarding": FORWARDING_COLUMNS,
}


class Results:
    """Results of one run.

    Attributes:
        summary: totals of the run, JSON-ready (``simulation``, ``consumers``, ``links``, ``nodes``).
        links: per link direction and time bin (see `LINK_COLUMNS`).
        consumers: per consumer and time bin (see `CONSUMER_COLUMNS`).
        paths: per path of a multipath consumer (PTP, MPTCP) and time bin (see `PATH_COLUMNS`);
            empty when the run has none.
        objects: per object a catalog consumer requested, with its start and end (see
            `OBJECT_COLUMNS`); empty when the run has no catalog consumer.
        interests: per segment a consumer got Data for or gave up, with its send and arrival
            times and delays (see `INTEREST_COLUMNS`); empty unless the scenario has
            ``[trace] interests = true``.
        faces: per face of every node and time bin, its packet counters (see `FACE_COLUMNS`);
            empty unless the scenario has ``[trace] faces = true``.
        nodes: per node and time bin, its Content Store, PIT and forwarding counters (see
            `NODE_COLUMNS`); empty unless the scenario has ``[trace] nodes = true``.
        forwarding: the forwarding log, one row per pipeline step, strategy decision or queue
            event (see `FORWARDING_COLUMNS`); empty unless the scenario has ``[trace] forwarding``.
        interrupted: True when the run was stopped before its end (Ctrl-C, the memory watch, or
            a refused allocation: see `stopped`); everything computed until then is kept.
        scenario_toml: the scenario text that produced the results, when known.
    """

    links = _Trace(LINK_COLUMNS)
    consumers = _Trace(CONSUMER_COLUMNS)
    paths = _Trace(PATH_COLUMNS)
    objects = _Trace(OBJECT_COLUMNS)
    interests = _Trace(INTEREST_COLUMNS)
    faces = _Trace(FACE_COLUMNS)
    nodes = _Trace(NODE_COLUMNS)
    forwarding = _Trace(FORWARDING_COLUMNS)

    def __init__(
        self,
        summary: Mapping[str, Any],
        links: TraceSource = None,
        consumers: TraceSource = None,
        *,
        paths: TraceSource = None,
        objects: TraceSource = None,
        interests: TraceSource = None,
        faces: TraceSource = None,
        nodes: TraceSource = None,
        forwarding: TraceSource = None,
        interrupted: bool = False,
        scenario_toml: Optional[str] = None,
    ) -> None:
        self.summary: Dict[str, Any] = json_ready(dict(summary))
        self._sources: Dict[str, TraceSource] = {}
        self._frames: Dict[str, pd.DataFrame] = {}
        self.links = links
        self.consumers = consumers
        self.paths = paths
        self.objects = objects
        self.interests = interests
        self.faces = faces
        self.nodes = nodes
        self.forwarding = forwarding
        simulation = self.summary.get("simulation", {})
        self.interrupted = bool(interrupted or simulation.get("interrupted", False) or simulation.get("stopped"))
        if self.interrupted:
            self.summary.setdefault("simulation", {})["interrupted"] = True
        self.scenario_toml = scenario_toml
        #: The run's pcap captures (`[trace] pcap`), None when it made none.
        self.captures: Optional[Captures] = None

    @property
    def stopped(self) -> Optional[str]:
        """Why the run stopped before its end when the memory watch stopped it (its held memory
        passed `[simulation] memory_limit`) or the allocator refused a container's growth, else
        None."""
        return self.summary.get("simulation", {}).get("stopped")

    @classmethod
    def from_core(cls, raw: Mapping[str, Any], *, interrupted: bool = False, scenario_toml: Optional[str] = None) -> "Results":
        """Results from the dict that `_core.Simulation.results()` returns, or from {"summary": ...,
        "traces": `_core.Simulation.traces()`}, whose tables are copied out when first read."""
        traces = raw.get("traces")
        if traces is None:
            sources = {name: raw.get(name) for name in TRACES}
        else:
            sources = {name: _CoreTrace(traces, name) for name in TRACES}
        return cls(raw["summary"], sources["links"], sources["consumers"], paths=sources["paths"],
                   objects=sources["objects"], interests=sources["interests"], faces=sources["faces"], nodes=sources["nodes"],
                   forwarding=sources["forwarding"],
                   interrupted=interrupted, scenario_toml=scenario_toml)

    # -------------------------------------------------------------------------------- files

    def save(self, directory: PathLike, format: str = "parquet") -> List[Path]:
        """Write the result files into `directory` (created if needed); returns their paths.

        `format`: the traces as ``"parquet"`` (the default), ``"csv"``, or ``"both"``. A trace
        file of this name that the run did not write (a trace without rows, the other format) is
        removed, so that a folder never mixes two runs. Each file is written atomically and
        `summary.json` last; Ctrl-C or SIGTERM meanwhile takes effect (KeyboardInterrupt) once
        every file is written (see `ndnflow.safe_io`).
        """
        if format not in TRACE_FORMATS:
            raise ValueError(f"format {format!r}: expected one of {', '.join(map(repr, TRACE_FORMATS))}")
        directory = Path(directory)
        directory.mkdir(parents=True, exist_ok=True)
        written = [directory / SUMMARY_FILE]
        with safe_io.signals_held():
            for trace in TRACES:
                written += self._save_trace(directory, trace, TRACE_FORMATS[format])
            log = self._frames_to_write("forwarding")
            if log is not None:
                written.append(safe_io.write_with(directory / FORWARDING_LOG_FILE, partial(_write_forwarding_log, log("csv"))))
            else:
                (directory / FORWARDING_LOG_FILE).unlink(missing_ok=True)
            if self.scenario_toml is not None:
                written.append(safe_io.write_text(directory / SCENARIO_FILE, self.scenario_toml))
            if self.captures is not None:
                written.extend(self.captures.save(directory))
            remove_stale(directory, self.captures)
            safe_io.write_text(written[0], json.dumps(self.summary, sort_keys=True, indent=2) + "\n")
        return written

    def _save_trace(self, directory: Path, trace: str, extensions: Sequence[str]) -> List[Path]:
        """One trace in each format of `extensions`; stale files of its name go."""
        frames = self._frames_to_write(trace)
        if frames is None and trace in _ALWAYS_WRITTEN:
            frames = lambda ext: getattr(self, trace)  # no row: the columns alone  # noqa: E731
        written = []
        for ext in ("parquet", "csv"):
            path = directory / f"{trace}.{ext}"
            if frames is not None and ext in extensions:
                written.append(safe_io.write_with(path, partial(_writer(ext), frames(ext))))
            else:
                path.unlink(missing_ok=True)
        return written

    def _frames_to_write(self, trace: str) -> Optional[Callable[[str], Frames]]:
        """What gives `trace`'s rows to a writer: its DataFrame, or, while the trace is still in
        the core, its pieces straight from there, so that it is never held whole (in Python or in
        columns); None when it has no row."""
        source = self._sources.get(trace)
        if isinstance(source, _CoreTrace):
            schema = SCHEMAS[trace]
            return partial(source.pieces, schema) if source.rows() else None
        frame = getattr(self, trace)
        return (lambda ext: frame) if len(frame) else None

    @classmethod
    def load(cls, directory: PathLike) -> "Results":
        """Read results written by `save`, in either format (Parquet where both are present)."""
        directory = Path(directory)
        if not directory.is_dir():
            raise FileNotFoundError(f"no results folder {str(directory)!r}")
        found = {trace: _trace_file(directory, trace) for trace in TRACES}
        missing = [SUMMARY_FILE] if not (directory / SUMMARY_FILE).is_file() else []
        missing += [f"{trace}.parquet (or .csv)" for trace in _ALWAYS_WRITTEN if found[trace] is None]
        if missing:
            raise FileNotFoundError(f"{directory} is not a results folder: missing {', '.join(missing)}")
        summary = _read_summary(directory / SUMMARY_FILE)
        scenario_path = directory / SCENARIO_FILE
        frames = {trace: _read_trace(path, SCHEMAS[trace]) for trace, path in found.items()}
        results = cls(
            summary,
            frames["links"],
            frames["consumers"],
            paths=frames["paths"],
            objects=frames["objects"],
            interests=frames["interests"],
            faces=frames["faces"],
            nodes=frames["nodes"],
            forwarding=frames["forwarding"],
            scenario_toml=_read_scenario(scenario_path),
        )
        results.captures = Captures.load(directory)
        return results

    # ------------------------------------------------------------------------------ reports

    def table(self, top: Optional[int] = None) -> str:
        """Per-consumer and per-link totals as a text table; `top`: the busiest links only (at
        least 1, as `run --top`)."""
        if top is not None and (not isinstance(top, int) or isinstance(top, bool) or top < 1):
            raise ValueError(f"top: give at least 1 link, got {top!r}")
        return results_table(self.summary, top)

    def consumer_report(self, consumer: Optional[str] = None) -> str:
        """ndnget-style end-of-run statistics for one consumer id, or for all of them."""
        return consumer_reports(self.summary, consumer)

    def __repr__(self) -> str:
        simulation = self.summary.get("simulation", {})
        state = ", interrupted" if self.interrupted else ""
        return (
            f"Results(end_s={simulation.get('end_s')}, consumers={len(self.summary.get('consumers', {}))}, "
            f"links={len(self.links)} rows, consumer rows={len(self.consumers)}{state})"
        )
