"""Re-check recorded quick-path drafts with the code as it now stands (no answering call).

For every project answer of a grounding records file, runs the quick path again on the same
question and corpus with the recorded draft as the answerer's reply (a scripted model), so
retrieval, the claim check, the relevance rules and refusal are today's while the draft is the
one the model wrote then; the judge is the real model (``--model``). Prints the answers whose
outcome changes and, with ``--out``, writes the re-scored records (the shape of
``benchmarks/grounding.py``'s, ``"system": "project"``) for ``grounding.py --report``.

Used to measure a checker change on the answers of runs it was not found on, before a new run
(docs/grounding.md). A draft the model would write differently under a changed prompt is not
re-written: this measures the checks, not the answerer.

    .venv/bin/python benchmarks/grounding_recheck.py docs/grounding/records_heldout7_run12.jsonl \\
        --corpus disputatio/data/grounding/corpus_sports \\
        --questions disputatio/data/grounding/questions_heldout7.jsonl --out /tmp/recheck7.jsonl
    .venv/bin/python benchmarks/grounding_recheck.py docs/grounding/records_bioasq_run18.jsonl \\
        --bioasq 40 --out /tmp/recheck_bioasq.jsonl
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from grounding import DATA, bioasq, project_record


def recheck(
    q: dict[str, Any], draft: str, funnel: Any, judge: str, repairer: str | None = None
) -> dict[str, Any]:
    """The quick path's record for ``q`` with ``draft`` as the answerer's reply.

    With ``repairer``, a repair the quick path asks for (``grounding.repair``) is asked of
    that model, live.
    """
    from disputatio.graphs.rag import graph
    from disputatio.nodes.rag.context import RagContext
    from disputatio.testing import ScriptedChatModel

    answerer = ScriptedChatModel(script=[draft], repeat_last=True, name="recorded draft")
    models: dict[str, Any] = {"answerer": answerer, "claim_judge": judge}
    if repairer:
        models["repairer"] = repairer
    ctx = RagContext(retriever=funnel, models=models)
    out = graph.invoke({"question": q["question"]}, context=ctx)
    return project_record(q, {**out, "draft": draft}, wall_s=0.0, check_s=0.0)


def _try_checker(values: dict[str, str]) -> None:
    """Set attributes of every claim checker the quick path builds (an experiment only)."""
    import disputatio.nodes.context as node_context

    built = node_context.default_checker

    def patched(*args: Any, **kwargs: Any) -> Any:
        checker = built(*args, **kwargs)
        for name, raw in values.items():
            if not hasattr(checker, name):
                raise SystemExit(f"the checker has no attribute {name!r}")
            setattr(checker, name, None if raw == "none" else float(raw))
        return checker

    node_context.default_checker = patched  # type: ignore[assignment]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("records", type=Path)
    parser.add_argument("--questions", type=Path, help="the records' question file")
    parser.add_argument(
        "--bioasq",
        type=int,
        default=0,
        help="the records are a --bioasq N run: rebuild its questions and snippet corpus",
    )
    parser.add_argument("--bioasq-corpus", type=int, default=150)
    parser.add_argument("--corpus", type=Path, default=DATA / "corpus")
    parser.add_argument("--model", default="local:qwen2.5-coder-1.5b", help="the judge")
    parser.add_argument("--out", type=Path, help="write the re-scored records here")
    parser.add_argument(
        "--checker-set",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="an attribute of the claim checker to try (e.g. veto=0.3; 'none' for None)",
    )
    parser.add_argument(
        "--repair",
        action="store_true",
        help="with grounding.repair on: a refused draft is repaired by --model, live",
    )
    parser.add_argument("--only", help="re-check only these question ids (comma-separated)")
    args = parser.parse_args()
    if args.repair:
        os.environ["DISPUTATIO_GROUNDING__REPAIR"] = "true"
    if args.checker_set:
        _try_checker(dict(item.split("=", 1) for item in args.checker_set))

    from disputatio.retrievers.memory import InMemoryFunnel

    if args.bioasq:
        asked, snippets = bioasq(args.bioasq, args.bioasq_corpus)
        questions = {q["id"]: q for q in asked}
        funnel = InMemoryFunnel()
        funnel.add_texts(snippets)
    elif args.questions:
        lines = args.questions.read_text().splitlines()
        questions = {q["id"]: q for q in map(json.loads, lines) if q}
        funnel = InMemoryFunnel.from_paths([args.corpus])
    else:
        parser.error("give --questions (with --corpus) or --bioasq N")
    old = [json.loads(x) for x in args.records.read_text().splitlines() if x]
    changed = 0
    out_fh = args.out.open("w") if args.out else None
    for rec in old:
        if rec["system"] != "project":
            if out_fh:
                out_fh.write(json.dumps(rec, ensure_ascii=False) + "\n")
            continue
        q = questions[rec["id"]]
        if args.only and rec["id"] not in args.only.split(","):
            continue
        if rec.get("draft") is None:  # refused by retrieval: nothing was drafted
            new = dict(rec)
        else:
            new = recheck(q, rec["draft"], funnel, args.model, args.model if args.repair else None)
            new.update(id=q["id"], system="project", kind=q["kind"], split=q["split"])
            new.update(model=rec.get("model"), wall_s=rec["wall_s"], check_s=rec["check_s"])
        if out_fh:
            out_fh.write(json.dumps(new, ensure_ascii=False) + "\n")
        before = (rec["refused"], rec["parts_right"], rec["claims_supported"])
        after = (new["refused"], new["parts_right"], new["claims_supported"])
        if before != after:
            changed += 1
            print(f"{rec['id']} ({rec['kind']}): refused/right/supported {before} -> {after}")
            print(f"   was: {rec['answer'][:160]}")
            print(f"   now: {new['answer'][:160]}")
    if out_fh:
        out_fh.close()
    print(f"{changed} of {sum(r['system'] == 'project' for r in old)} answers changed")


if __name__ == "__main__":
    main()
