"""The pcap captures of a run (``[trace] pcap``; docs/wire-format.md, "Captures").

The simulator writes each captured link direction into a buffered file as the run goes, in a
temporary folder this object owns (removed with it). `Results.save` then puts every file in the
results folder's ``captures/`` as the other result files are put there: under a temporary name,
renamed into place (`ndnflow.safe_io`), so an interrupted save leaves no torn capture.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional

from ndnflow import safe_io

#: The folder of a results folder that holds the captures.
CAPTURES_DIR = "captures"


class Captures:
    """Capture files by name ("r1-r2.pcap" for the direction r1->r2) and what each holds."""

    def __init__(self, files: Mapping[str, Path], stats: Optional[Mapping[str, Dict[str, int]]] = None,
                 owned: Optional[tempfile.TemporaryDirectory] = None) -> None:
        self.files: Dict[str, Path] = dict(files)
        self.stats: Dict[str, Dict[str, int]] = dict(stats or {})
        self._owned = owned  # the temporary folder the files live in while nobody saved them

    @classmethod
    def start(cls, simulation: Any) -> Optional["Captures"]:
        """Start the captures `simulation`'s scenario asks for; None when it asks for none."""
        names: List[str] = list(getattr(simulation, "capture_names", ()))
        if not names:
            return None
        owned = tempfile.TemporaryDirectory(prefix="ndnflow-captures-")
        simulation.start_captures(owned.name)
        return cls({name: Path(owned.name) / name for name in names}, owned=owned)

    def finish(self, simulation: Any) -> None:
        """Flush and close the files once the run is over."""
        self.stats = dict(zip(self.files, simulation.finish_captures()))

    @classmethod
    def load(cls, directory: Path) -> Optional["Captures"]:
        """The captures a results folder holds, if any."""
        folder = directory / CAPTURES_DIR
        files = sorted(folder.glob("*.pcap")) if folder.is_dir() else []
        return cls({path.name: path for path in files}) if files else None

    def save(self, directory: Path) -> List[Path]:
        """Copy every capture into ``directory/captures`` atomically; returns the paths."""
        folder = directory / CAPTURES_DIR
        folder.mkdir(parents=True, exist_ok=True)
        written = []
        for name, source in self.files.items():
            target = folder / name
            if target.resolve() != source.resolve():
                safe_io.write_with(target, lambda temporary, source=source: shutil.copyfile(source, temporary))
            written.append(target)
        return written


def remove_stale(directory: Path, keep: Optional[Captures]) -> None:
    """Remove the captures of another run from ``directory/captures``."""
    folder = directory / CAPTURES_DIR
    if not folder.is_dir():
        return
    kept = set(keep.files) if keep is not None else set()
    for path in folder.glob("*.pcap"):
        if path.name not in kept:
            path.unlink(missing_ok=True)
