"""Copy the MIRAGE table of a regenerated report into docs/results.md (no model call).

The report (``disputatio eval report <run> -o docs/results/mirage``) writes the table, its
caption and its paired tests under ``## MIRAGE table``; docs/results.md shows the same text in
its MIRAGE section, followed by a hand-written reading ("What it shows, for this model …").
This replaces the copy in docs/results.md, from the caption ("Accuracy (%) with its 95%
Wilson …") up to that reading, with the report's, so the two cannot drift apart. The record
count above the table and the reading below it are written by hand.

    .venv/bin/disputatio eval report \\
        docs/results/runs/local-qwen2-5-coder-1-5b-kb-2e5a23e345d1 -o docs/results/mirage
    .venv/bin/python benchmarks/mirage_table.py
"""

from __future__ import annotations

import argparse
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: Where the copied text starts, in the report and in the doc.
START = "Accuracy (%) with its 95% Wilson interval on MIRAGE's test sets"
#: Where the copy ends in the doc: the hand-written reading that follows the table.
READING = "What it shows, for this model (not for debate"


def table_of(report: str) -> str:
    """The caption, the table and its paired tests, as the report writes them."""
    start = report.index(START)
    end = report.find("\n## ", start)
    return report[start : end if end >= 0 else len(report)].strip() + "\n\n"


def splice(doc: str, table: str) -> str:
    """``doc`` with its copy of the table replaced by ``table``.

    Raises:
        ValueError: The doc has no table to replace, or no reading after it.
    """
    start = doc.find(START)
    end = doc.find(READING, start)
    if start < 0 or end < 0:
        raise ValueError(f"the doc has no {START!r} … {READING!r} to replace")
    return doc[:start] + table + doc[end:]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--report", type=Path, default=ROOT / "docs/results/mirage/report.md")
    parser.add_argument("--doc", type=Path, default=ROOT / "docs/results.md")
    args = parser.parse_args()
    doc = args.doc.read_text()
    new = splice(doc, table_of(args.report.read_text()))
    if new == doc:
        print(f"{args.doc}: the table is as in {args.report}")
        return
    args.doc.write_text(new)
    print(f"{args.doc}: table replaced from {args.report}")


if __name__ == "__main__":
    main()
