"""Every Rust test file is compiled and run.

Each crate builds one integration-test binary, `tests/all.rs`, whose modules are the files of its
`tests/` directory (`autotests = false` in its Cargo.toml: a binary per file cost most of the suite's
build time, docs/performance.md). Cargo then ignores a file that nobody names, so a new test file
that is not a `mod` line in `all.rs` (or a `[[test]]` of its own) would never run, silently.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

try:
    import tomllib
except ImportError:  # Python < 3.11: pyproject.toml's tomli
    import tomli as tomllib

CRATES = Path(__file__).resolve().parent.parent / "crates"


def crates_with_tests() -> list[Path]:
    return sorted(c for c in CRATES.iterdir() if (c / "tests").is_dir())


def unreached(crate: Path) -> list[str]:
    """The files of `crate`'s tests/ directory that no test target compiles."""
    manifest = tomllib.loads((crate / "Cargo.toml").read_text())
    targets = {Path(t["path"]).name for t in manifest.get("test", [])}
    modules = set(re.findall(r"^mod (\w+);", (crate / "tests" / "all.rs").read_text(), re.MULTILINE))
    files = sorted(p for p in (crate / "tests").glob("*.rs"))
    return [p.name for p in files if p.name not in targets and p.stem not in modules]


@pytest.mark.parametrize("crate", crates_with_tests(), ids=lambda c: c.name)
def test_every_test_file_belongs_to_a_test_target(crate: Path) -> None:
    manifest = tomllib.loads((crate / "Cargo.toml").read_text())
    assert manifest["package"].get("autotests") is False
    assert {"name": "all", "path": "tests/all.rs"} in manifest.get("test", [])
    assert unreached(crate) == []


def test_a_file_left_out_is_found(tmp_path: Path) -> None:
    crate = tmp_path / "toy"
    (crate / "tests").mkdir(parents=True)
    (crate / "Cargo.toml").write_text('[package]\nname = "toy"\nautotests = false\n\n'
                                      '[[test]]\nname = "all"\npath = "tests/all.rs"\n\n'
                                      '[[test]]\nname = "alone"\npath = "tests/alone.rs"\n')
    (crate / "tests" / "all.rs").write_text("mod common;\n\nmod listed;\n")
    for name in ("listed", "alone", "forgotten"):
        (crate / "tests" / f"{name}.rs").write_text("#[test]\nfn t() {}\n")
    # all.rs is a target; listed is a module of it; alone has a target of its own.
    assert unreached(crate) == ["forgotten.rs"]
