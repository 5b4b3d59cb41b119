"""Right drafts lost: answerable parts the quick path's draft had and its checked answer has not.

For every line of a candidates file (``set records questions corpus ids``, the latest records
of each question set), counts the answerable parts found in a project record's ``draft`` but
not in its ``answer``, and the reasons of the claims set aside there (docs/grounding.md, "One
repair of a refused draft").

    .venv/bin/python benchmarks/grounding_lost.py docs/grounding/experiments/repair_candidates.txt

``--sets`` reads every question set's latest records instead (``grounding_replay.LATEST``) and
prints, per set, the answerable parts the plain chain's answer states, the project's draft
states, and its checked answer states (not refused), and how many of the draft's the check lost.

    .venv/bin/python benchmarks/grounding_lost.py --sets

``--why 20 21 …`` tells, for each lost part of those held-out sets, why the check lost it as
the code now stands: the draft is re-checked (the in-memory funnel over the set's corpus, no
answering call) with a judge that says yes to everything: a part kept then is lost to the
model judges (the claim judge or the relevance judge) or to a rule fixed since the run;
otherwise the guard's reason on the windows holding the part's gold sentence is printed, or
that the sentence was not shown.

    .venv/bin/python benchmarks/grounding_lost.py --why 20 21 22 23 24 25 26 27 28
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

RECORDS = DATA.parents[2] / "docs" / "grounding"


def per_set() -> None:
    """The plain chain's, the draft's and the checked answer's right parts, set by set."""
    from grounding_replay import LATEST

    print("| set | records | plain chain | project draft | project answer | lost by the check |")
    print("|---|---|---|---|---|---|")
    total = Counter[str]()
    for questions, records in LATEST.items():
        asked = {q["id"]: q for q in map(json.loads, (DATA / questions).open()) if q}
        found = Counter[str]()
        for rec in map(json.loads, (RECORDS / records).open()):
            for part in (p for p in asked[rec["id"]]["parts"] if p["answer"]):
                right = part_found(part, rec["answer"]) and not rec["refused"]
                if rec["system"] == "plain":
                    found["plain"] += right
                    continue
                drafted = part_found(part, rec.get("draft") or rec["answer"])
                found["draft"] += drafted
                found["answer"] += right
                found["lost"] += drafted and not right
        total.update(found)
        name = questions.removesuffix(".jsonl").removeprefix("questions_") or "questions"
        print(
            f"| {name} | {records} | {found['plain']} | {found['draft']} | {found['answer']} "
            f"| {found['lost']} |"
        )
    print(f"| all | | {total['plain']} | {total['draft']} | {total['answer']} | {total['lost']} |")


def _lost(questions: str) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(project record, part) for each answerable part of ``questions`` lost by the check."""
    from grounding_replay import LATEST

    asked = {q["id"]: q for q in map(json.loads, (DATA / questions).open()) if q}
    out = []
    for rec in map(json.loads, (RECORDS / LATEST[questions]).open()):
        for part in asked[rec["id"]]["parts"] if rec["system"] == "project" else []:
            right = part_found(part, rec["answer"]) and not rec["refused"]
            if part["answer"] and part_found(part, rec.get("draft") or "") and not right:
                out.append((rec, part))
    return out


def why(numbers: list[str]) -> None:
    """Why each lost part of the held-out sets ``numbers`` is lost as the code now stands."""
    from disputatio.graphs.rag import graph
    from disputatio.nodes.rag.context import RagContext
    from disputatio.retrievers.memory import InMemoryFunnel
    from disputatio.testing import ScriptedChatModel
    from disputatio.validators.guards import guard
    from disputatio.validators.windows import Windows

    sets = json.loads((DATA / "sets.json").read_text())
    kinds = Counter[str]()
    for n in numbers:
        questions = f"questions_heldout{n}.jsonl"
        asked = {q["id"]: q for q in map(json.loads, (DATA / questions).open()) if q}
        lost = _lost(questions)
        funnel = InMemoryFunnel.from_paths([DATA / sets[questions]]) if lost else None
        for rec, part in lost:
            models = {
                "answerer": ScriptedChatModel(script=[rec["draft"]], repeat_last=True),
                "claim_judge": ScriptedChatModel(script=["yes"], repeat_last=True),
            }
            out = graph.invoke(
                {"question": asked[rec["id"]]["question"]},
                context=RagContext(retriever=funnel, models=models),
            )
            shown = {s["id"]: s for s in out["sections"]}
            gold = (part.get("evidence") or [""])[0]
            claims = [c for c in out["claims"] if part_found(part, c["text"])]
            windows = Windows(shown)
            if not any(gold and gold in s["text"] for s in shown.values()):
                kind, detail = "gold sentence not shown", ""
            elif not claims:
                kind, detail = "no claim states it", ""
            elif claims[0]["verdict"] == "supported":
                kind, detail = "kept when the judges say yes", claims[0]["text"]
            else:
                reasons = [
                    guard(claims[0]["text"], read, windows.contexts[sid][k])
                    for sid, wins in windows.items.items()
                    for k, (a, b, read) in enumerate(wins)
                    if gold[:40] in windows.texts[sid][a:b]
                ]
                kind = "guard" if all(reasons) else "score"
                detail = f"{claims[0]['text']} | {reasons[0] if reasons else ''}"
            kinds[kind] += 1
            print(f"{rec['id']}: {kind}: {detail[:160]}", flush=True)
    print(", ".join(f"{kind}: {n}" for kind, n in kinds.most_common()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("candidates", type=Path, nargs="?")
    parser.add_argument("--sets", action="store_true", help="every set's latest records")
    parser.add_argument("--why", nargs="+", metavar="N", help="held-out set numbers")
    args = parser.parse_args()
    if args.why:
        why(args.why)
        return
    if args.sets or args.candidates is None:
        per_set()
        return
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
