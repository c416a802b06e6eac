"""The file formats figures are written in: PNG by default, and PDF or SVG beside it, as a paper
needs them (`--figures png,pdf` on the command line, `ndnflow.figures.writing("pdf")` in Python).

Every figure of the package (`ndnflow run`'s, `plot`'s, `sweep`'s and each experiment's) goes
through `save`, which writes one file per chosen format, each under the figure's name with the
format's suffix, and returns them in the order the formats were given. The setting is the
process's, as matplotlib's own rcParams are: the command sets it once, before any figure.

Vector files are written so that the same figure gives the same bytes on every run, as the
results files do: no creation date in the PDF's or SVG's metadata, and SVG element ids salted
with a fixed string instead of a random one.
"""

from __future__ import annotations

from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any, Iterator, List, Sequence, Tuple

from ndnflow import safe_io

#: The formats `save` can write, in the order `--help` lists them.
FORMATS: Tuple[str, ...] = ("png", "pdf", "svg")
#: Raster resolution, dots per inch: the PNG's, and that of any raster part of a vector file.
DPI = 120
#: What each vector backend would otherwise stamp with the wall clock.
_NO_DATES = {"pdf": {"CreationDate": None}, "svg": {"Date": None}}
#: SVG ids are hashed from this salt (matplotlib's `svg.hashsalt`) rather than from a random one.
_SVG_SALT = "ndnflow"

_current: Tuple[str, ...] = ("png",)


class FormatError(ValueError):
    """A figure format that `save` cannot write."""


def parse(text: str) -> Tuple[str, ...]:
    """`"png,pdf"` as ("png", "pdf"): comma-separated, case-insensitive, each kept once in the
    order given. Raises FormatError naming the unknown one."""
    chosen: List[str] = []
    for word in (w.strip().lower() for w in text.split(",")):
        if not word:
            raise FormatError(f"{text!r}: an empty format; give e.g. png,pdf")
        if word not in FORMATS:
            raise FormatError(f"{text!r}: unknown format {word!r}; choose from {', '.join(FORMATS)}")
        if word not in chosen:
            chosen.append(word)
    return tuple(chosen)


def current() -> Tuple[str, ...]:
    """The formats `save` writes now."""
    return _current


def use(formats: Sequence[str]) -> None:
    """Write figures in `formats` from now on (each one of FORMATS, at least one)."""
    global _current
    chosen = parse(",".join(formats)) if formats else ()
    if not chosen:
        raise FormatError("no figure format given; choose from " + ", ".join(FORMATS))
    _current = chosen


@contextmanager
def writing(*formats: str) -> Iterator[Tuple[str, ...]]:
    """Within the block, figures are written in `formats`; the setting before comes back after."""
    before = _current
    use(formats)
    try:
        yield _current
    finally:
        _restore(before)


def _restore(formats: Tuple[str, ...]) -> None:
    global _current
    _current = formats


def save(figure: Any, path: Path) -> List[Path]:
    """Writes matplotlib `figure` once per current format at `path` with that format's suffix
    (`figure8.png` -> `figure8.png`, `figure8.pdf`); the paths written, in format order."""
    path = Path(path)
    written = []
    for fmt in _current:
        options: dict = {"dpi": DPI, "format": fmt}
        if fmt in _NO_DATES:
            options["metadata"] = _NO_DATES[fmt]
        target = path.with_suffix("." + fmt)
        if fmt == "svg":
            written.append(_save_svg(figure, target, options))
        else:
            written.append(safe_io.write_with(target, partial(figure.savefig, **options)))
    return written


def _save_svg(figure: Any, target: Path, options: dict) -> Path:
    import matplotlib

    with matplotlib.rc_context({"svg.hashsalt": _SVG_SALT}):
        return safe_io.write_with(target, partial(figure.savefig, **options))
