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
    .venv/bin/python benchmarks/grounding_recheck.py --sets /tmp/recheck-head
    .venv/bin/python benchmarks/grounding_recheck.py --compare /tmp/recheck-base /tmp/recheck-head

``--model yes`` re-checks with a judge that says yes to everything (no model call, minutes
for every set): run at two commits and compared, it finds the answers a change of the guards
or scores can touch, to re-check those with the real judge (``--only``).
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
    claim_judge: Any = judge
    if judge == "yes":  # no model: what the guards and scores alone let through
        claim_judge = ScriptedChatModel(script=["yes"], repeat_last=True, name="yes judge")
    models: dict[str, Any] = {"answerer": answerer, "claim_judge": claim_judge}
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
    parser.add_argument("records", type=Path, nargs="?")
    parser.add_argument("--questions", type=Path, help="the records' question file")
    parser.add_argument(
        "--bioasq",
        type=int,
        default=0,
        help="the records are a --bioasq N run: rebuild its questions and snippet corpus",
    )
    parser.add_argument("--bioasq-corpus", type=int, default=150)
    parser.add_argument("--corpus", type=Path, default=DATA / "corpus")
    parser.add_argument(
        "--model",
        default="local:qwen2.5-coder-1.5b",
        help="the judge ('yes': a scripted judge saying yes to everything, no model)",
    )
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
    parser.add_argument(
        "--sets",
        type=Path,
        metavar="DIR",
        help="re-check every set's latest records (grounding_replay.LATEST) into DIR (resumable)",
    )
    parser.add_argument(
        "--compare",
        nargs=2,
        type=Path,
        metavar=("BEFORE", "AFTER"),
        help="compare two --sets directories answer by answer",
    )
    parser.add_argument(
        "--set-files",
        help="with --sets: only these question files (comma-separated, e.g. "
        "questions_heldout20.jsonl,questions_heldout21.jsonl)",
    )
    args = parser.parse_args()
    if args.repair:
        os.environ["DISPUTATIO_GROUNDING__REPAIR"] = "true"
    if args.checker_set:
        _try_checker(dict(item.split("=", 1) for item in args.checker_set))

    from disputatio.retrievers.memory import InMemoryFunnel

    only = set(args.only.split(",")) if args.only else None
    if args.compare:
        compare(*args.compare)
        return
    if args.sets:
        chosen = args.set_files.split(",") if args.set_files else None
        _recheck_sets(args.sets, args.model, args.repair, only, chosen)
        return
    if args.records is None:
        parser.error("give a records file, or --sets DIR")
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
    repairer = args.model if args.repair else None
    changed = _recheck_records(old, questions, funnel, args.model, repairer, only, args.out)
    print(f"{changed} of {sum(r['system'] == 'project' for r in old)} answers changed")


def _recheck_records(
    old: list[dict[str, Any]],
    questions: dict[str, dict[str, Any]],
    funnel: Any,
    judge: str,
    repairer: str | None,
    only: set[str] | None,
    out: Path | None,
) -> int:
    """Re-check the project records of ``old``; print and count those whose outcome changes."""
    changed = 0
    out_fh = out.open("w") if out else None
    for rec in old:
        if rec["system"] != "project":
            if out_fh:
                out_fh.write(json.dumps(rec, ensure_ascii=False) + "\n")
            continue
        q = questions[rec["id"]]
        if only is not None and rec["id"] not in only:
            continue
        if rec.get("draft") is None:  # refused by retrieval: nothing was drafted
            new = dict(rec)
        else:
            new = recheck(q, rec["draft"], funnel, judge, repairer)
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
    return changed


def _recheck_sets(
    out_dir: Path,
    judge: str,
    repair: bool,
    only: set[str] | None,
    chosen: list[str] | None = None,
) -> None:
    """Re-check every question set's latest records on its corpus, one file each in ``out_dir``.

    Resumable: a set whose file is already in ``out_dir`` is skipped (a file is written whole,
    under a temporary name first). Two commits are compared by running this twice
    (``PYTHONPATH=<worktree of the commit>``) and diffing the two directories' records.
    """
    from grounding_replay import LATEST, RECORDS

    from disputatio.retrievers.memory import InMemoryFunnel

    corpora = json.loads((DATA / "sets.json").read_text())
    out_dir.mkdir(parents=True, exist_ok=True)
    for qf, records in LATEST.items():
        target = out_dir / records
        if target.exists() or (chosen is not None and qf not in chosen):
            continue
        lines = (DATA / qf).read_text().splitlines()
        questions = {q["id"]: q for q in map(json.loads, lines) if q}
        funnel = InMemoryFunnel.from_paths([DATA / corpora[qf]])
        old = [json.loads(x) for x in (RECORDS / records).read_text().splitlines() if x]
        partial = target.with_suffix(".partial")
        print(f"== {qf} ({records})", flush=True)
        changed = _recheck_records(
            old, questions, funnel, judge, judge if repair else None, only, partial
        )
        partial.rename(target)
        print(f"{changed} of {sum(r['system'] == 'project' for r in old)} answers changed")


def compare(before: Path, after: Path) -> None:
    """Print the answers whose outcome differs between two ``--sets`` directories, and totals.

    Only the sets both directories hold complete are compared.
    """
    keys = ("refused", "parts_right", "claims_supported")
    totals = {"before": [0, 0, 0], "after": [0, 0, 0]}
    changed = answers = 0
    for path in sorted(before.glob("*.jsonl")):
        other = after / path.name
        if not other.exists():
            continue
        pairs: dict[str, list[dict[str, Any]]] = {}
        for f in (path, other):
            for line in f.read_text().splitlines():
                rec = json.loads(line)
                if rec["system"] == "project":
                    pairs.setdefault(rec["id"], []).append(rec)
        for qid, recs in sorted(pairs.items()):
            if len(recs) != 2:
                continue
            answers += 1
            was, now = (tuple(int(r[k]) for k in keys) for r in recs)
            for name, got in (("before", was), ("after", now)):
                totals[name] = [a + b for a, b in zip(totals[name], got, strict=True)]
            if was != now:
                changed += 1
                print(
                    f"{path.name} {qid} ({recs[0]['kind']}): refused/right/supported {was} -> {now}"
                )
    print(f"{changed} of {answers} answers changed")
    for name, (refused, right, supported) in totals.items():
        print(f"{name}: refused {refused}, parts right {right}, claims supported {supported}")


if __name__ == "__main__":
    main()
