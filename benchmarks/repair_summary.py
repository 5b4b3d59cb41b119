"""What one repair of a refused draft (``grounding.repair``) changed, on re-checked records.

Reads the records ``benchmarks/grounding_recheck.py --repair --only IDS`` wrote for the drafts
the checker refused (one file per set, or one file with a ``set`` field per record) and the
records they re-checked; prints, by kind of question, the repairs asked, the answers they
turned from refusals into answers (a repaired one-part answer stands only when the judge's
relevance reaches ``--floor``, the ``grounding.repair_floor``), the parts gained, and the
repair call's seconds (docs/grounding.md, "One repair of a refused draft").

    .venv/bin/python benchmarks/repair_summary.py \\
        docs/grounding/experiments/repair_afresh_sets1_13.jsonl \\
        --candidates docs/grounding/experiments/repair_candidates.txt --floor 0.5
"""

from __future__ import annotations

import argparse
import statistics
from collections import Counter
from pathlib import Path
from typing import Any

from disputatio.eval.datasets import read_jsonl

GROUNDING = Path(__file__).resolve().parent.parent / "docs" / "grounding"


def summary(
    repaired: list[dict[str, Any]], before: dict[tuple[str, str], dict], floor: float
) -> tuple[Counter[str], list[dict[str, Any]], list[float]]:
    """Counts by kind, the answers the repair made, and the repair calls' seconds."""
    counts: Counter[str] = Counter()
    made: list[dict[str, Any]] = []
    seconds: list[float] = []
    for rec in repaired:
        if rec.get("repaired") is None:
            continue
        kind = rec["kind"]
        counts[f"asked {kind}"] += 1
        if "repair_s" in rec:
            seconds.append(rec["repair_s"])
        rel = rec.get("relevance")
        if rec["refused"] or (rel is not None and rel < floor):
            continue
        old = before[(rec["set"], rec["id"])]
        counts[f"answered {kind}"] += 1
        counts[f"parts gained {kind}"] += rec["parts_right"] - old["parts_right"]
        made.append(rec)
    return counts, made, seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("repaired", type=Path, help="re-checked records with a 'set' field")
    parser.add_argument(
        "--candidates",
        type=Path,
        required=True,
        help="lines 'set records questions corpus ids' (the re-checked runs)",
    )
    parser.add_argument("--floor", type=float, default=0.5, help="grounding.repair_floor")
    args = parser.parse_args()
    before: dict[tuple[str, str], dict] = {}
    for line in args.candidates.read_text().splitlines():
        name, records = line.split()[:2]
        for rec in read_jsonl(GROUNDING / f"{records}.jsonl"):
            if rec["system"] == "project":
                before[(name, rec["id"])] = rec
    counts, made, seconds = summary(list(read_jsonl(args.repaired)), before, args.floor)
    for key in sorted(counts):
        print(f"{key}: {counts[key]}")
    for rec in made:
        print(f"  {rec['set']} {rec['id']} ({rec['kind']}, relevance {rec.get('relevance')}): "
              f"{rec['answer'][:100]}")  # fmt: skip
    if seconds:
        print(f"repair call: n={len(seconds)}, median {statistics.median(seconds):.1f} s, "
              f"mean {statistics.mean(seconds):.1f} s")  # fmt: skip


if __name__ == "__main__":
    main()
