"""Replay the hierarchical debate's part check on recorded leaf answers (no answering call).

For every ``hier`` record of the given grounding records files, the leaves' recorded answers
(the record's ``tree``) are checked again by :func:`~disputatio.nodes.debate.aggregate.
check_parts` as the code now stands, composed, and scored by :func:`grounding.score` against the
question's gold parts, beside the record as it was. The judge is the real model (``--model``).

What each leaf's workers were shown is rebuilt, not recorded: the seed search of its question
(``seed_k`` sections, as the workers ran it with no tool calls) plus any section its answer
cites. ``--variant`` says which sentences of a leaf's answer reach the check:

- ``code`` — ``own_answer`` as the code stands (2026-12-05: the verdict line and the cited
  sentences);
- ``all`` — every sentence, the uncited ones attributed by the checker like the quick path's.

    .venv/bin/python benchmarks/hier_replay.py docs/grounding/records_heldout19_hier_run30.jsonl \\
        --variant all
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from grounding import DATA, score
from grounding_hier import HIER_SETTINGS

_ID_RE = re.compile(r"\b[0-9a-f]{24}\b")


def _sets(records: Path) -> tuple[Path, Path]:
    """The question file and corpus of a ``records_heldoutN_hier_*.jsonl`` file."""
    match = re.search(r"records_(heldout\d*)_", records.name)
    if not match:
        raise SystemExit(f"{records.name}: not a held-out set's records")
    questions = f"questions_{match.group(1)}.jsonl"
    corpus = json.loads((DATA / "sets.json").read_text())[questions]
    return DATA / questions, DATA / corpus


def _whole(answer: str) -> str:
    """Every non-blank line of ``answer``: each sentence goes to the check."""
    return "\n".join(line for line in (answer or "").splitlines() if line.strip())


def _shown(funnel: Any, root: str, leaf: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The sections a leaf's workers saw, rebuilt: its seed search and the ids it cites."""
    from disputatio.tools.retrieval import search_corpus

    seed = search_corpus(funnel, leaf["question"], k=HIER_SETTINGS["seed_k"])
    shown = {} if seed.refused else {s.id: s.model_dump(mode="json") for s in seed.sections}
    cited = set(_ID_RE.findall(leaf["answer"] or "")) - set(shown)
    if cited:
        for query in (leaf["question"], root):
            for s in search_corpus(funnel, query, k=40).sections:
                if s.id in cited:
                    shown[s.id] = s.model_dump(mode="json")
    return shown


def replay(rec: dict[str, Any], q: dict[str, Any], funnel: Any, checker: Any) -> dict[str, Any]:
    """``rec``'s question scored on its leaves' answers checked and composed again."""
    from disputatio.nodes.debate import aggregate
    from disputatio.settings import get_settings

    grounding = get_settings().grounding
    tree = rec.get("tree") or []
    leaves = [n for n in tree if n["id"] != "root"]
    if not leaves:  # a flat root: nothing composed, nothing to replay
        return dict(rec)
    sections: dict[str, dict[str, Any]] = {}
    children = []
    for leaf in leaves:
        shown = _shown(funnel, q["question"], leaf)
        sections.update(shown)
        children.append({**leaf, "allowed_ids": list(shown), "status": "done"})
    checked = aggregate.check_parts(
        children,
        sections,
        checker,
        on_question=grounding.on_question,
        question_words=grounding.on_question_words,
        relevance_floor=grounding.relevance_floor if grounding.judge_relevance else 0.0,
    )
    answer = aggregate.compose(checked)
    claims = [c for child in checked for c in child["claims"]]
    return {**score(q, answer, claims, sections, 0), "answer": answer, "claims_detail": claims}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("records", type=Path, nargs="+")
    parser.add_argument("--variant", choices=("code", "all"), default="code")
    parser.add_argument("--model", default="local:qwen2.5-coder-1.5b", help="the judge")
    parser.add_argument("--out", type=Path, help="write the replayed records here (JSONL)")
    args = parser.parse_args()

    from disputatio.nodes.debate import aggregate
    from disputatio.nodes.rag.context import RagContext
    from disputatio.retrievers.memory import InMemoryFunnel

    if args.variant != "code":
        aggregate.own_answer = _whole  # type: ignore[assignment]
    totals = {"before": [0, 0], "after": [0, 0]}
    out_fh = args.out.open("a") if args.out else None
    for path in args.records:
        questions_file, corpus = _sets(path)
        questions = {q["id"]: q for q in map(json.loads, questions_file.read_text().splitlines())}
        funnel = InMemoryFunnel.from_paths([corpus])
        ctx = RagContext(retriever=funnel, models={"claim_judge": args.model})
        checker = ctx.support_checker()
        for line in path.read_text().splitlines():
            rec = json.loads(line)
            if rec["system"] != "hier":
                continue
            new = replay(rec, questions[rec["id"]], funnel, checker)
            for key, r in (("before", rec), ("after", new)):
                totals[key][0] += r["parts_right"]
                totals[key][1] += r["parts_answerable"]
            if out_fh:
                row = {"file": path.name, "id": rec["id"], "variant": args.variant, **new}
                out_fh.write(json.dumps(row, ensure_ascii=False) + "\n")
            mark = "" if new["parts_right"] == rec["parts_right"] else "  <- changed"
            print(
                f"{path.name} {rec['id']}: right {rec['parts_right']} -> {new['parts_right']}"
                f" of {rec['parts_answerable']}{mark}",
                flush=True,
            )
    for key, (right, of) in totals.items():
        print(f"{key}: {right}/{of} answerable parts right")


if __name__ == "__main__":
    main()
