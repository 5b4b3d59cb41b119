"""What a perfect claim checker could do with the answerer's drafts (no model call).

The target "answerable questions wrongly refused ≤ 10%" (issue #23) measures the answerer as
well as the checker: a draft that states a wrong value must be refused (or shown wrong), so no
checker refuses fewer answerable questions than the answerer gets wrong. For every question
set's latest records (``benchmarks/grounding_replay.py``'s ``LATEST``) this counts, per set,
the one-part answerable questions whose draft does not state every gold answer (no draft: the
retrieval gate refused), the project's refusals of them, and the plain chain's answers that are
not right and its refusals.

    .venv/bin/python benchmarks/grounding_bound.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from grounding import DATA, all_found
from grounding_replay import LATEST, RECORDS


def main() -> None:
    sets = json.loads((DATA / "sets.json").read_text())
    head = ["set", "answerable", "drafts not right (bound)", "project refused"]
    head += ["plain not right", "plain refused"]
    print("| " + " | ".join(head) + " |\n" + "|---" * len(head) + "|")
    total = [0] * 5
    over = 0
    for qf in (qf for qf in sets if qf in LATEST):  # a set with no run yet has no records
        asked = {q["id"]: q for q in map(json.loads, (DATA / qf).read_text().splitlines())}
        recs = [json.loads(line) for line in (RECORDS / LATEST[qf]).read_text().splitlines()]
        mine = [r for r in recs if r["system"] == "project" and r["kind"] == "answerable"]
        plain = [r for r in recs if r["system"] == "plain" and r["kind"] == "answerable"]
        row = [
            len(mine),
            sum(not all_found(asked[r["id"]], r.get("draft") or "") for r in mine),
            sum(bool(r["refused"]) for r in mine),
            sum(not all_found(asked[r["id"]], r["answer"]) for r in plain),
            sum(bool(r["refused"]) for r in plain),
        ]
        over += row[1] > 0.1 * row[0]
        total = [a + b for a, b in zip(total, row, strict=True)]
        name = qf.removeprefix("questions").removesuffix(".jsonl").strip("_") or "test"
        print(f"| {name} | " + " | ".join(map(str, row)) + " |")
    print("| all | " + " | ".join(map(str, total)) + " |")
    print(f"\nsets where the bound alone is over 10% of answerable questions: {over}/{len(sets)}")


if __name__ == "__main__":
    main()
