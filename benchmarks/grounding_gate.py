"""The retrieval gate on every grounding question: best score against its own and a foreign corpus.

For each question file of ``disputatio/data/grounding`` (with its corpus), the in-memory funnel
(no model call) searches the question in its own corpus and in another one (the corpus three
places on in the sorted list, as a stand-in for a question about something else: it may still
share a topic). Prints, per threshold, the answerable questions (and answerable parts of
two-part ones) the gate would refuse, the near misses it would refuse, and the foreign
searches it would let through; ``--out`` keeps every score.

    .venv/bin/python benchmarks/grounding_gate.py --out /tmp/gate.jsonl
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

DATA = Path(__file__).resolve().parents[1] / "disputatio" / "data" / "grounding"
#: Each question file's corpus (the data set's manifest).
CORPUS: dict[str, str] = json.loads((DATA / "sets.json").read_text())
THRESHOLDS = (0.02, 0.05, 0.08, 0.1, 0.15, 0.2, 0.25)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, help="write every question's scores here (JSONL)")
    args = parser.parse_args()
    from disputatio.retrievers.memory import InMemoryFunnel

    corpora = sorted(set(CORPUS.values()))
    funnels = {c: InMemoryFunnel.from_paths([DATA / c]) for c in corpora}
    rows = []
    for name, corpus in CORPUS.items():
        foreign = corpora[(corpora.index(corpus) + 3) % len(corpora)]
        for q in map(json.loads, (DATA / name).read_text().splitlines()):
            for which, c in (("own", corpus), ("foreign", foreign)):
                best = funnels[c].search(q["question"]).best_score
                rows.append({"id": q["id"], "kind": q["kind"], "which": which, "best": best})
    if args.out:
        args.out.write_text("".join(json.dumps(r) + "\n" for r in rows))
    own = [r for r in rows if r["which"] == "own"]
    answerable = [r["best"] for r in own if r["kind"] != "unanswerable"]
    near = [r["best"] for r in own if r["kind"] == "unanswerable"]
    foreign_scores = [r["best"] for r in rows if r["which"] == "foreign"]
    print("| threshold | answerable refused | near misses refused | foreign searches passed |")
    print("|---|---|---|---|")
    for t in THRESHOLDS:
        print(
            f"| {t} | {sum(b < t for b in answerable)}/{len(answerable)} | "
            f"{sum(b < t for b in near)}/{len(near)} | "
            f"{sum(b >= t for b in foreign_scores)}/{len(foreign_scores)} |"
        )


if __name__ == "__main__":
    main()
