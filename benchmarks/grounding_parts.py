"""Per-part "not found" of the quick path, replayed on recorded claims (no model call).

For every two-part question of the given grounding records files (the project's answers, the
last record per question), the recorded claims are put through
:func:`disputatio.validators.parts.mark_unanswered_parts` as the quick path now does after its
claim check, and the parts said unanswered (by the marks or by the writer's own "not found"
sentence) are compared with the gold: an unanswerable
part said (wanted), an answerable part said although the answer has it right (wrong), and
one said where the answer has it wrong (no harm: nothing right was there). Answers that
answer nothing (the whole question refused) and questions read as one part are counted apart.

    .venv/bin/python benchmarks/grounding_parts.py docs/grounding/records_heldout7_run12.jsonl \\
        docs/grounding/records_heldout8_run13.jsonl -v
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from grounding import DATA, part_found


def replay(q: dict[str, Any], rec: dict[str, Any]) -> tuple[str, list[tuple[str, str]]]:
    """``(outcome, [(what, part)])`` of one two-part question's recorded answer."""
    from disputatio.state.claims import Claim, ClaimReport
    from disputatio.validators.parts import NOT_FOUND_PART, claim_parts, mark_unanswered_parts
    from disputatio.validators.questions import question_parts

    parts = question_parts(q["question"])
    if len(parts) != len(q["parts"]):
        return "read as one part", []
    marked = NOT_FOUND_PART.split("{")[0]  # a record made with the marks: replay without them
    claims = [
        Claim.model_validate(c) for c in rec["claims_detail"] if not c["text"].startswith(marked)
    ]
    answer = "\n".join(x for x in rec["answer"].splitlines() if not x.startswith(marked))
    report = ClaimReport(answer=answer, claims=claims, not_found=bool(rec.get("not_found")))
    if report.not_found:
        return "whole question refused", []
    mark_unanswered_parts(q["question"], report)
    said_at: set[int] = set()  # the marks, and the writer's own "not found" sentences
    for claim in report.claims:
        if claim.verdict == "not_found" and not claim.dropped:
            said_at |= claim_parts(claim.text, parts, refusal=True)
    found = []
    for i, (asked, gold) in enumerate(zip(parts, q["parts"], strict=True)):
        said = i in said_at
        if gold["answer"] is None:
            found.append(("unanswerable, said" if said else "unanswerable, not said", asked))
        elif said:
            right = part_found(gold, rec["answer"])
            found.append(("answered right, said" if right else "answered wrong, said", asked))
        else:
            found.append(("answerable, not said", asked))
    return "marked", found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("records", type=Path, nargs="+")
    parser.add_argument("-v", "--verbose", action="store_true", help="list every part said")
    args = parser.parse_args()
    questions = {
        q["id"]: q
        for f in sorted(DATA.glob("questions*.jsonl"))
        for q in map(json.loads, f.read_text().splitlines())
    }
    latest: dict[str, dict[str, Any]] = {}
    for path in args.records:
        for line in path.read_text().splitlines():
            rec = json.loads(line)
            if rec["system"] == "project" and rec["kind"] == "multipart":
                latest[rec["id"]] = rec
    counts: Counter[str] = Counter()
    for qid, rec in sorted(latest.items()):
        outcome, found = replay(questions[qid], rec)
        counts[outcome] += 1
        for what, asked in found:
            counts[what] += 1
            if args.verbose and (what.endswith(", said") or what == "unanswerable, not said"):
                print(f"{qid} {what}: {asked}")
    print(json.dumps(dict(sorted(counts.items())), indent=1))


if __name__ == "__main__":
    main()
