"""Result files that are never half-written, and signals that wait until they are written.

* Every file is written under a temporary name in its own directory and renamed into place
  (``os.replace``, atomic on POSIX and Windows within one file system): a reader, or a run killed
  mid-write, sees the old file or the new one, never a truncated one (a Parquet file without its
  footer, a JSON file cut short).
* While results are saved, SIGINT and SIGTERM are held back (`signals_held`) and acted on once
  the files are complete, so a set of files is written whole; a folder's summary is written last,
  so a summary present means its traces are too.
* SIGTERM (what ``kill``, ``timeout`` and job schedulers send) is treated as Ctrl-C
  (`sigterm_as_interrupt`): the run stops at its next step and what was computed is kept.
* A failed write (a full disk, a read-only folder) is reported with the path it was for.

Signal handlers can be set in the main thread only; elsewhere these helpers hold nothing back and
files are still written atomically.
"""

from __future__ import annotations

import os
import signal
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator, List, Union

PathLike = Union[str, "os.PathLike[str]"]

#: Signals treated as a request to stop.
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


def _raise_interrupt(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt(signal.Signals(signum).name)


def _in_main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


@contextmanager
def sigterm_as_interrupt() -> Iterator[None]:
    """Within the block, SIGTERM raises KeyboardInterrupt as Ctrl-C does."""
    if not _in_main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _raise_interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


class _Held:
    """The stop signals that arrived while held back."""

    def __init__(self) -> None:
        self.caught: List[int] = []

    def __call__(self, signum: int, frame: Any) -> None:
        self.caught.append(signum)


@contextmanager
def signals_held(reraise: bool = True) -> Iterator[_Held]:
    """Hold SIGINT and SIGTERM back until the block ends, then raise KeyboardInterrupt if one came
    (with `reraise`; without, the caller reads the yielded object's `caught` and acts on it).

    Nested blocks hold for the outermost one.
    """
    current = signal.getsignal(signal.SIGINT) if _in_main_thread() else None
    if current is None or isinstance(current, _Held):
        yield current if isinstance(current, _Held) else _Held()
        return
    held = _Held()
    previous = {signum: signal.signal(signum, held) for signum in STOP_SIGNALS}
    try:
        yield held
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
    if held.caught and reraise:
        raise KeyboardInterrupt(signal.Signals(held.caught[0]).name)


def _temporary(path: Path) -> Path:
    return path.with_name(f".{path.name}.{os.getpid()}.tmp")


def write_with(path: PathLike, write: Callable[[Path], Any]) -> Path:
    """Call ``write(temporary_path)``, then rename the temporary file to `path`.

    On failure the temporary file is removed and the OSError names `path` (an error raised without
    a file name, as ENOSPC from a write is, gets it added).
    """
    path = Path(path)
    temporary = _temporary(path)
    try:
        write(temporary)
        os.replace(temporary, path)
    except OSError as exc:
        _remove(temporary)
        if exc.filename is None or exc.filename == str(temporary):
            raise OSError(exc.errno, exc.strerror or str(exc), str(path)) from exc
        raise
    except BaseException:
        _remove(temporary)
        raise
    return path


def write_text(path: PathLike, text: str) -> Path:
    """Write `text` to `path` atomically, as UTF-8 and with its line ends as they are."""
    return write_with(path, lambda temporary: temporary.write_bytes(text.encode("utf-8")))


def _remove(path: Path) -> None:
    try:
        path.unlink()
    except OSError:
        pass


class ResultsFileError(ValueError):
    """A file of a results folder that `Results.load` cannot read: the message names it and why
    (here, beside the other file helpers, so that the command line catches it without loading the
    results module)."""


#: Largest text file a reader takes (a scenario, an ndnSIM or Rocketfuel topology): the Rust
#: reader's bound for topology files, `MAX_TOPOLOGY_BYTES`. A 100,000-link topology is a few MB.
MAX_TEXT_BYTES = 256 << 20


class TextFileError(OSError):
    """A file a reader cannot take as text: the message names it, what it should be, and why."""


def read_text_file(path: PathLike, what: str) -> str:
    """The UTF-8 text of `path`, a regular file of at most `MAX_TEXT_BYTES`. A device, a pipe or a
    folder is refused before it is opened (opening a pipe waits for a writer; /dev/zero never
    ends); `what` says what it should be in the messages ("a scenario", "an ndnSIM topology")."""
    path = Path(path)
    if path.exists() and not path.is_file():
        raise TextFileError(f"{path}: not {what}: not a regular file")
    if path.exists() and path.stat().st_size > MAX_TEXT_BYTES:
        raise TextFileError(f"{path}: not {what}: larger than {MAX_TEXT_BYTES >> 20} MiB")
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise TextFileError(f"{path}: not {what}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
