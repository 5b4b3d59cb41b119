"""Replay the "unanswered" rules on the kept claims of every set's latest recorded answers.

For each one-part question matching ``--pattern`` (a regular expression), takes the claims the
latest project record of its id kept as supported and asks
:func:`disputatio.validators.asked.unanswered` whether they leave the question unanswered
(no model call). Prints each question with its kind, whether the record answered it right,
and whether the rule would now refuse it; used to check a new rule on the sets it was not
found on before adopting it (docs/grounding.md).

    .venv/bin/python benchmarks/grounding_unanswered.py --pattern "how old|what age|age limit"
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _run(path: Path) -> int:
    found = re.search(r"run(\d+)", path.name)
    return int(found.group(1)) if found else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pattern", required=True, help="questions to replay (regex, any case)")
    args = parser.parse_args()
    from disputatio.validators.asked import is_multipart, unanswered

    latest: dict[str, dict] = {}
    for path in sorted((ROOT / "docs" / "grounding").glob("records*.jsonl"), key=_run):
        if "bioasq" not in path.name:
            for line in path.read_text().splitlines():
                record = json.loads(line)
                if record.get("system") == "project":
                    latest[record["id"]] = record
    questions = {}
    for path in (ROOT / "disputatio" / "data" / "grounding").glob("questions*.jsonl"):
        for line in path.read_text().splitlines():
            q = json.loads(line)
            questions[q["id"]] = q
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
