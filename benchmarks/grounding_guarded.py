"""Which guard stands between a right draft and its answer sentence (no model call).

For every question set's latest records (``grounding_replay.LATEST``), takes the one-part
answerable questions the project refused although its draft stated the gold answer, runs
retrieval again, and scores each factual claim of the draft against the windows of the
sentences the question's gold evidence is in (the hybrid checker, no judge). Prints the best
such window's score and, where a guard rejects it, the guard's reason: what a right draft lost
to a rule, as against the judge or a score under the floor (docs/grounding.md).

    .venv/bin/python benchmarks/grounding_guarded.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from grounding import DATA, all_found
from grounding_replay import LATEST, RECORDS


def _right_refused(qf: str) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(question, record) of the set's answerable questions refused with a right draft."""
    if qf not in LATEST:  # a set with no run yet
        return []
    asked = {q["id"]: q for q in map(json.loads, (DATA / qf).read_text().splitlines())}
    out = []
    for line in (RECORDS / LATEST[qf]).read_text().splitlines():
        rec = json.loads(line)
        if rec["system"] != "project" or rec["kind"] != "answerable" or not rec["refused"]:
            continue
        q = asked[rec["id"]]
        if rec.get("draft") and all_found(q, rec["draft"]):
            out.append((q, rec))
    return out


def main() -> None:
    from disputatio.retrievers.memory import InMemoryFunnel
    from disputatio.validators.support import HybridSupport
    from disputatio.validators.windows import Windows

    sets = json.loads((DATA / "sets.json").read_text())
    for qf, corpus in sets.items():
        cases = _right_refused(qf)
        if not cases:
            continue
        funnel = InMemoryFunnel.from_paths([DATA / corpus])
        checker = HybridSupport(funnel.embeddings.embed_documents)
        for q, rec in cases:
            shown = {s.id: s.model_dump() for s in funnel.search(q["question"]).sections}
            windows = Windows(shown)
            gold = [e[:40] for p in q["parts"] for e in p.get("evidence") or []]
            drafted = rec["claims_detail"]
            for claim in (c for c in drafted if c["factual"] and c["verdict"] != "not_found"):
                best: tuple[float, str, str] | None = None
                for sid in shown:
                    wins = [w for w in windows.items[sid] if any(g in w[2] for g in gold)]
                    scores = checker.score_many(
                        claim["text"], [w[2] for w in wins], [windows.context[sid]] * len(wins)
                    )
                    for win, s in zip(wins, scores, strict=True):
                        if best is None or s.score > best[0]:
                            best = (s.score, s.reason, win[2])
                if best is None:
                    print(f"{rec['id']} | the gold sentence is not shown | {claim['text'][:70]}")
                    continue
                print(f"{rec['id']} {best[0]:.2f} | {best[1][:70] or '(no guard)'} | "
                      f"{claim['text'][:70]} || {best[2][:80]!r}")  # fmt: skip


if __name__ == "__main__":
    main()
