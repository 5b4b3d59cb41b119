"""Right drafts lost: answerable parts the quick path's draft had and its checked answer has not.

For every line of a candidates file (``set records questions corpus ids``, the latest records
of each question set), counts the answerable parts found in a project record's ``draft`` but
not in its ``answer``, and the reasons of the claims set aside there (docs/grounding.md, "One
repair of a refused draft").

    .venv/bin/python benchmarks/grounding_lost.py docs/grounding/experiments/repair_candidates.txt
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from grounding import DATA, part_found

RECORDS = DATA.parents[2] / "docs" / "grounding"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("candidates", type=Path)
    args = parser.parse_args()
    lost = 0
    reasons: Counter[str] = Counter()
    for line in args.candidates.read_text().splitlines():
        _, records, questions = line.split()[:3]
        asked = {q["id"]: q for q in map(json.loads, (DATA / f"{questions}.jsonl").open()) if q}
        for rec in map(json.loads, (RECORDS / f"{records}.jsonl").open()):
            if rec["system"] != "project" or not rec.get("draft"):
                continue
            for part in asked[rec["id"]]["parts"]:
                kept = part_found(part, rec["answer"])
                if part["answer"] and part_found(part, rec["draft"]) and not kept:
                    lost += 1
                    dropped = {c["reason"] for c in rec["claims_detail"] if c.get("dropped")}
                    reasons.update(dropped)
                    print(f"{rec['id']}: {rec['draft'][:100]!r}")
    print(f"{lost} answerable parts in the draft and not in the answer; claims set aside for:")
    for reason, n in reasons.most_common():
        print(f"  {n:3d}  {reason[:90]}")


if __name__ == "__main__":
    main()
