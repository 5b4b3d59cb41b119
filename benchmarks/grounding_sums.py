"""Totals no sentence states: answerable parts whose answer is a sum, and what became of them.

A question such as "How much will three 45-minute one-to-one lessons come to?" is answered by
a total (45.00 GBP) that no sentence of the documents states: the documents give the price of
one lesson. For every question set's latest records (``grounding_replay.LATEST``), this lists
the answerable parts with a number in their answer that their gold evidence does not hold, and
for each whether the project's draft held the answer (or an alias), whether the checked answer
got the part right, and whether it was refused (docs/grounding.md, "Set 41's findings").

    .venv/bin/python benchmarks/grounding_sums.py
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from grounding import DATA
from grounding_replay import LATEST

RECORDS = DATA.parents[2] / "docs" / "grounding"
_NUMBER_RE = re.compile(r"\d+(?:\.\d+)?")


def _load(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.open(encoding="utf-8") if line.strip()]


def sums() -> list[tuple[str, str, bool, bool, bool]]:
    """``(id, answer, draft holds it, answer right, refused)`` for each part that is a sum."""
    out = []
    for questions, records in LATEST.items():
        project = {r["id"]: r for r in _load(RECORDS / records) if r["system"] == "project"}
        for question in _load(DATA / questions):
            record = project.get(question["id"])
            if record is None or question["kind"] != "answerable":
                continue
            part = question["parts"][0]
            answer = part.get("answer") or ""
            numbers = _NUMBER_RE.findall(answer)
            evidence = " ".join(part.get("evidence") or [])
            if not numbers or all(n in evidence for n in numbers):
                continue
            draft = (record.get("draft") or "").casefold()
            held = any(a and a.casefold() in draft for a in [answer, *part.get("aliases", [])])
            right = record["parts_right"] > 0
            out.append((question["id"], answer, held, right, bool(record["refused"])))
    return out


def main() -> None:
    """Print each sum and the counts by (draft holds it, answer right, refused)."""
    found = sums()
    for row in found:
        print(*row, sep="\t")
    counts = Counter((held, right, refused) for _, _, held, right, refused in found)
    print(f"{len(found)} parts whose answer no gold sentence states")
    for (held, right, refused), n in sorted(counts.items()):
        print(f"  draft holds it {held!s:5}  right {right!s:5}  refused {refused!s:5}  {n}")


if __name__ == "__main__":
    main()
