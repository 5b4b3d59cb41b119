"""Replay the "unanswered" rules on the kept claims of every set's latest recorded answers.

For each one-part question matching ``--pattern`` (a regular expression), takes the claims the
project record of its id in its set's newest run (``grounding_joins.latest_records``) kept as
supported and asks :func:`disputatio.validators.asked.unanswered` whether they leave the
question unanswered (no model call). Prints each question with its kind, whether the record
answered it right, and whether the rule would now refuse it; used to check a new rule on the
sets it was not found on before adopting it (docs/grounding.md).

    .venv/bin/python benchmarks/grounding_unanswered.py --pattern "how old|what age|age limit"
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from grounding import DATA
from grounding_joins import latest_records


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pattern", required=True, help="questions to replay (regex, any case)")
    args = parser.parse_args()
    from disputatio.validators.asked import is_multipart, unanswered

    latest = {
        record["id"]: record
        for path in latest_records()
        for record in map(json.loads, path.read_text().splitlines())
        if record.get("system") == "project"
    }
    questions = {
        q["id"]: q
        for path in DATA.glob("questions*.jsonl")
        for q in map(json.loads, path.read_text().splitlines())
    }
    asked = re.compile(args.pattern, re.I)
    counts = {"right refused": 0, "near misses refused": 0, "replayed": 0}
    for qid, record in sorted(latest.items()):
        q = questions.get(qid)
        if q is None or not asked.search(q["question"]) or is_multipart(q["question"]):
            continue
        kept = [
            c["text"]
            for c in record.get("claims_detail") or []
            if c.get("factual") and c.get("verdict") == "supported" and not c.get("dropped")
        ]
        why = unanswered(q["question"], kept) if kept else ""
        right = bool(record["parts_right"])
        counts["replayed"] += 1
        counts["right refused"] += bool(why) and right
        counts["near misses refused"] += bool(why) and q["kind"] == "unanswerable"
        status = "refused" if record["refused"] else "answered"
        print(f"{qid} {q['kind']} {status}{' right' if right else ''} | {q['question'][:70]}")
        if why:
            print(f"    now refused: {why}")
    print(json.dumps(counts))


if __name__ == "__main__":
    main()
