"""scripts/measured_tables.py: an experiment page's "## Measured" table rebuilt from a results.json
as `ndnflow reproduce` prints it, on a hand-made page and results folder (no simulation)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "measured_tables.py"
_spec = importlib.util.spec_from_file_location("measured_tables", SCRIPT)
measured_tables = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(measured_tables)

OLD_TABLE = "toy: an old table\nrate   9.1 Mbit/s  >= 8 Mbit/s: 90% of the best  pass\n"
HISTORY = "## Measured with the oracle (before; main 0000000; seed 1, 20 s, 1 s wall time)\n\n```\nold run\n```\n"
PAGE = ("# toy\n\nIntro.\n\n## Measured (seed 1, 20 s, 0.7 s wall time)\n\nA word before the block.\n\n"
        f"```\n{OLD_TABLE}```\n\nProse after: the rate is 9.1 Mbit/s.\n\n{HISTORY}")

RESULTS = {
    "id": "toy", "title": "A toy", "paper": "Nobody 2024", "section": "§1", "seed": 1, "duration": "20s",
    "passed": True, "checks": 1, "checks_passed": 1, "variants": {},
    "rows": [
        {"metric": "rate", "paper": "10 Mbit/s", "measured": 9.2975104, "unit": "Mbit/s",
         "tolerance": ">= 8 Mbit/s: 80 % of the link", "verdict": "pass", "kind": "check", "seed_sensitive": False},
        {"metric": "Setting: queue", "paper": None, "measured": [100, 20], "unit": "packets",
         "tolerance": "= 100: the page says why", "verdict": "fail", "kind": "info", "seed_sensitive": False},
    ],
}


def _folders(tmp_path: Path, page: str = PAGE):
    pages, results = tmp_path / "pages", tmp_path / "results"
    pages.mkdir()
    (results / "toy").mkdir(parents=True)
    (pages / "toy.md").write_text(page, encoding="utf-8")
    (pages / "other.md").write_text("# a page without a Measured heading\n", encoding="utf-8")
    (results / "toy" / "results.json").write_text(json.dumps(RESULTS), encoding="utf-8")
    return pages, results


def test_block_is_what_reproduce_prints(tmp_path):
    pages, results = _folders(tmp_path)
    assert measured_tables.main(["--results", str(results), "--pages", str(pages)]) == 0
    text = (pages / "toy.md").read_text(encoding="utf-8")
    # The wall time goes, the 20 s run duration stays ("20s" in results.json, written as the page did).
    assert "## Measured (seed 1, 20 s)\n\nA word before the block.\n\n```\ntoy: A toy [Nobody 2024 §1]\n" in text
    lines = text.splitlines()
    rate = next(line for line in lines if line.startswith("rate "))
    # 9.2975104 to 3 significant digits with its unit; only the tolerance's bound, before ": ".
    assert rate.split() == ["rate", "10", "Mbit/s", "9.3", "Mbit/s", ">=", "8", "Mbit/s", "pass"]
    setting = next(line for line in lines if line.startswith("Setting: queue"))
    # No paper value prints "-"; a list joins with " / " and takes no unit; an info row's verdict is bracketed.
    assert setting.split() == ["Setting:", "queue", "-", "100", "/", "20", "=", "100", "(fail)"]
    # The summary `reproduce` prints after the table: 1 check of 2 rows, the info row's failure not counted.
    assert "\n\ntoy: 1 of 1 checks pass (1 info rows)\n```\n\nProse after: the rate is 9.1 Mbit/s." in text
    assert OLD_TABLE not in text
    assert text.endswith(HISTORY)  # a later Measured heading is history: left as it was


def test_check_reports_drift_and_changes_nothing(tmp_path):
    pages, results = _folders(tmp_path)
    assert measured_tables.main(["--results", str(results), "--pages", str(pages), "--check"]) == 1
    assert (pages / "toy.md").read_text(encoding="utf-8") == PAGE
    measured_tables.main(["--results", str(results), "--pages", str(pages)])
    assert measured_tables.main(["--results", str(results), "--pages", str(pages), "--check"]) == 0


def test_heading_without_duration_gets_none(tmp_path):
    page = PAGE.replace("(seed 1, 20 s, 0.7 s wall time)", "(seed 1; MTU 1500, 120-frame queues)")
    pages, results = _folders(tmp_path, page)
    measured_tables.main(["--results", str(results), "--pages", str(pages)])
    assert "\n## Measured (seed 1)\n" in (pages / "toy.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("page, missing", [(PAGE.split("```")[0], "no fenced block"),
                                           ("# toy\n\nNo results yet.\n", "no '## Measured")])
def test_unusable_page_is_named(tmp_path, page, missing):
    with pytest.raises(measured_tables.PageError, match=missing):
        measured_tables.rebuild(page, measured_tables.report_from_json(RESULTS), "toy.md")


def test_missing_results_is_named(tmp_path, capsys):
    pages, results = _folders(tmp_path)
    (results / "toy" / "results.json").unlink()
    assert measured_tables.main(["--results", str(results), "--pages", str(pages)]) == 2
    assert "toy/results.json: missing" in capsys.readouterr().err
