"""Rebuilds the "## Measured" tables of the experiment pages (docs/experiments/ID.md) from the
results.json files of a `ndnflow reproduce --all` folder, so that each page shows what
`ndnflow reproduce ID` prints today. It runs no simulation:

    ndnflow reproduce --all --out DIR --quiet
    python scripts/measured_tables.py --results DIR           # rewrite the pages
    python scripts/measured_tables.py --results DIR --check   # exit 1 if a page differs

For each page with a "## Measured ..." heading, the first fenced block under that heading becomes
the experiment's table (`Report.table()`) followed by the line `reproduce` prints after it
(`Report.summary_line()`), both rebuilt from the rows saved in DIR/ID/results.json; the heading
becomes "## Measured[ words before the parenthesis] (seed N[, duration])", the duration kept only
where the heading had one. A later "## Measured" heading on the same page (pcon-4.6's run with the
loss oracle) is a historical record and is left as it is.

What results.json cannot give back: a scalar measurement saved as null was either None (printed
"-") or NaN (printed "-" and the row's unit); it is rebuilt as "-" and reported on stderr.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any, Dict, List, Optional

from ndnflow.experiments.common import RESULTS_JSON, Report, Row

ROOT = Path(__file__).resolve().parent.parent
PAGES = ROOT / "docs" / "experiments"

HEADING = re.compile(r"^## Measured(?P<words>[^(\n]*?) ?\((?P<inside>[^\n]*)\)[ \t]*$", re.MULTILINE)
FENCE = "```"
#: A duration as a page's heading writes it ("20 s", "1.5 min"), not a wall time ("0.7 s wall time").
DURATION = re.compile(r"^\d+(\.\d+)? ?(ms|s|min|h)$")


class PageError(Exception):
    """A page or results folder this script cannot rebuild from; the message names which."""


def report_from_json(data: Dict[str, Any]) -> Report:
    """The Report `reproduce` printed, rebuilt from its results.json (rows, no variant results)."""
    rows = []
    for row in data["rows"]:
        if row["measured"] is None and row["unit"]:
            print(f"note: {data['id']}: '{row['metric']}' was saved as null: shown as '-' (reproduce prints "
                  f"'- {row['unit']}' when the value was NaN)", file=sys.stderr)
        rows.append(Row(row["metric"], row["paper"], row["measured"], row["tolerance"], row["verdict"] == "pass",
                        row["unit"], row["kind"], seed_sensitive=row["seed_sensitive"]))
    return Report(data["id"], data["title"], data["paper"], data["section"], rows,
                  seed=data["seed"], duration=data["duration"])


def printed_block(report: Report) -> str:
    """What `ndnflow reproduce ID` prints for one experiment: the table, a blank line, its summary."""
    return f"{report.table()}\n{report.summary_line()}\n"


def heading(words: str, inside: str, report: Report) -> str:
    """The new heading: the seed, and the run's duration where the old heading gave one."""
    parts = [f"seed {report.seed}"]
    if any(DURATION.match(part.strip()) for part in re.split(r"[,;]", inside)):
        parts.append(re.sub(r"^([\d.]+)\s*", r"\1 ", str(report.duration)))
    return f"## Measured{words} ({', '.join(parts)})"


def rebuild(page: str, report: Report, name: str = "page") -> str:
    """`page` with its first "## Measured" heading and the fenced block under it rebuilt."""
    match = HEADING.search(page)
    if match is None:
        raise PageError(f"{name}: no '## Measured (...)' heading")
    section_end = page.find("\n## ", match.end())
    section_end = len(page) if section_end < 0 else section_end
    opening = page.find(f"\n{FENCE}\n", match.end(), section_end)
    closing = page.find(f"\n{FENCE}\n", opening + 1, section_end + 1) if opening >= 0 else -1
    if opening < 0 or closing < 0:
        raise PageError(f"{name}: no fenced block under '{match.group(0)}'")
    new_heading = heading(match.group("words"), match.group("inside"), report)
    body_start = opening + len(FENCE) + 2
    return (page[:match.start()] + new_heading + page[match.end():body_start] + printed_block(report)
            + page[closing + 1:])


def load_report(results: Path, experiment: str) -> Report:
    path = results / experiment / RESULTS_JSON
    try:
        return report_from_json(json.loads(path.read_text(encoding="utf-8")))
    except FileNotFoundError:
        raise PageError(f"{path}: missing (run 'ndnflow reproduce --all --out {results}')") from None
    except (ValueError, KeyError) as exc:
        raise PageError(f"{path}: not a results.json written by 'ndnflow reproduce' ({exc})") from None


def refresh(results: Path, pages: Path = PAGES, check: bool = False) -> List[Path]:
    """Rebuild (or with `check` only compare) every page of `pages` that has a Measured heading;
    returns the pages that differed."""
    differing = []
    for path in sorted(pages.glob("*.md")):
        text = path.read_text(encoding="utf-8")
        if not HEADING.search(text):
            continue
        new = rebuild(text, load_report(results, path.stem), str(path))
        if new != text:
            differing.append(path)
            if not check:
                path.write_text(new, encoding="utf-8")
    return differing


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--results", required=True, type=Path, metavar="DIR",
                        help="a folder written by 'ndnflow reproduce --all --out DIR'")
    parser.add_argument("--pages", type=Path, default=PAGES, metavar="DIR",
                        help="the experiment pages (default: docs/experiments)")
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 if a page differs")
    args = parser.parse_args(argv)
    try:
        differing = refresh(args.results, args.pages, args.check)
    except PageError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    for path in differing:
        print(f"{path}: {'differs from' if args.check else 'rebuilt from'} {args.results}")
    return 1 if args.check and differing else 0


if __name__ == "__main__":
    sys.exit(main())
