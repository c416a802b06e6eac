"""Access to the compiled Rust core, `ndnflow._core`.

Everything that talks to Rust goes through this module, so that the pure-Python parts (the scenario
builder, saved results, plots) keep working when the extension is missing or incomplete, and so that
tests can swap in a stand-in by patching `_native.core`.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any, Optional

try:
    from ndnflow import _core as core  # type: ignore[attr-defined]
except ImportError as exc:  # pragma: no cover - depends on how the package was installed
    core: Optional[ModuleType] = None  # type: ignore[no-redef]
    _IMPORT_ERROR: Optional[ImportError] = exc
else:
    _IMPORT_ERROR = None


class _FallbackScenarioError(ValueError):
    """Stand-in for `_core.ScenarioError` while the extension does not provide it."""


#: The one exception class for invalid scenarios, raised by Rust and by the Python front alike.
ScenarioError: type = getattr(core, "ScenarioError", None) or _FallbackScenarioError


class ScenarioWarning(UserWarning):
    """A scenario that runs but probably does not do what was meant (a consumer no route serves)."""


class CoreUnavailableError(RuntimeError):
    """The compiled core is missing or lacks a needed entry point."""


def require(name: str) -> Any:
    """Return `_core.<name>`, or raise a clear error saying how to build the extension."""
    if core is None:
        raise CoreUnavailableError(
            f"the compiled core ndnflow._core is not available ({_IMPORT_ERROR}); "
            "build it with `maturin develop --release`"
        )
    try:
        return getattr(core, name)
    except AttributeError:
        raise CoreUnavailableError(
            f"this build of ndnflow._core has no {name!r}; rebuild it with `maturin develop --release`"
        ) from None


def has(name: str) -> bool:
    """True when the compiled core provides `name`."""
    return core is not None and hasattr(core, name)


def version() -> Optional[str]:
    return getattr(core, "__version__", None)
