"""Child chunk size, measured in one run: BioASQ ranking and the grounding corpora's gate.

The child chunk is the funnel's retrieval unit (a section's relevance is its best child's
cosine) and the gate's (``retrieval.rerank_threshold`` is compared with that relevance). For
each ``--children`` setting (``TOKENS:OVERLAP``: paragraphs packed up to TOKENS, the chunking
before 2026-12-02; ``TOKENS:OVERLAP:CLOSE``: ``ingest.child_close_tokens`` CLOSE, 0 being one
child per paragraph) this builds the in-memory funnel (no model
call; the same embeddings, lexical and graph channels as the Postgres one) over

* BioASQ's snippets (``--limit-docs``; the questions whose gold snippets all lie among them,
  ``--split``) and reports recall@10/@32, nDCG@10 and MRR of ``search(q, k=32)``, and how
  many gold snippets the answerer's own search (``k_final``, trimmed, gated) keeps;
* every grounding question file with its corpus (``disputatio/data/grounding``) and reports,
  per threshold, the answerable questions and near misses the gate refuses and the foreign
  searches it lets through (as ``benchmarks/grounding_gate.py``), and for each answerable
  part whether a section the answerer's search keeps (gate aside) holds its evidence.

Question files can be limited to a split of the grounding sets (``--sets``), so that a
threshold is chosen on some and checked on the others::

    .venv/bin/python benchmarks/child_size.py --children 200:20,200:20:0 --limit-docs 0 \\
        --out /tmp/child_size.json
"""

from __future__ import annotations

import argparse
import json
import re
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parents[1] / "disputatio" / "data" / "grounding"
CORPUS: dict[str, str] = json.loads((DATA / "sets.json").read_text())
THRESHOLDS = (0.02, 0.05, 0.08, 0.1, 0.12, 0.15, 0.2, 0.25)
_MARKUP = re.compile(r"[*_`#|>\[\]]+")


def norm(text: str) -> str:
    """Lower-cased text without markdown marks and with single spaces (for evidence matching)."""
    return " ".join(_MARKUP.sub(" ", text).lower().split())


def settings_for(spec: str) -> Any:
    """The process settings with the child chunking of ``TOKENS:OVERLAP[:CLOSE]`` in them."""
    from disputatio.settings import get_settings

    tokens, overlap, *close = (int(x) for x in spec.split(":"))
    update = {"child_tokens": tokens, "child_overlap": overlap}
    update["child_close_tokens"] = close[0] if close else tokens  # packed
    base = get_settings()
    ingest = base.ingest.model_copy(update=update)
    return base.model_copy(update={"ingest": ingest})


def bioasq(settings: Any, embeddings: Any, limit_docs: int | None, split: str) -> dict[str, Any]:
    """Ranking quality of the public and the answerer's search on BioASQ snippets."""
    from disputatio.eval.retrieval_data import bioasq_set, select
    from disputatio.eval.retrieval_metrics import ndcg_at, quality
    from disputatio.retrievers.memory import InMemoryFunnel

    labelled = bioasq_set(limit_docs=limit_docs)
    queries = select(labelled.queries, split)  # type: ignore[arg-type]
    start = time.perf_counter()
    funnel = InMemoryFunnel.from_texts(
        [(text, {"source": sid}) for sid, text in labelled.documents.items()],
        settings=settings,
        embeddings=embeddings,
    )
    ingest_s = time.perf_counter() - start
    rankings, relevants, kept_gold, best = [], [], 0, []
    for q in queries:
        ranking = [s.source for s in funnel.search(q.query, k=32).sections]
        rankings.append(ranking)
        relevants.append(q.relevant)
        answer = funnel.search(q.query, threshold=0.0)  # the gate is applied below
        best.append(answer.best_score)
        kept_gold += len({s.source for s in answer.sections} & q.relevant)
    out = quality(rankings, relevants)
    out.update(
        snippets=len(labelled.documents),
        ingest_s=round(ingest_s, 1),
        gate_refused={str(t): sum(b < t for b in best) for t in THRESHOLDS},
        answerer_gold_kept=kept_gold,
        gold=sum(len(r) for r in relevants),
        per_query={
            q.id: round(ndcg_at(r, q.relevant, 10), 4)
            for q, r in zip(queries, rankings, strict=True)
        },
    )
    return out


def grounding(settings: Any, embeddings: Any, sets: Sequence[str]) -> dict[str, Any]:
    """Gate table and evidence kept by the answerer's search over the grounding question files."""
    from disputatio.retrievers.memory import InMemoryFunnel

    corpora = sorted(set(CORPUS.values()))
    funnels = {
        c: InMemoryFunnel.from_paths([DATA / c], settings=settings, embeddings=embeddings)
        for c in corpora
    }
    rows: list[dict[str, Any]] = []
    parts = found = 0
    missed: list[str] = []
    for name in sets:
        corpus = CORPUS[name]
        foreign = corpora[(corpora.index(corpus) + 3) % len(corpora)]
        for q in map(json.loads, (DATA / name).read_text().splitlines()):
            result = funnels[corpus].search(q["question"], threshold=0.0)  # gate applied below
            best = result.best_score
            rows.append({"id": q["id"], "kind": q["kind"], "which": "own", "best": best})
            shown = " ".join(norm(s.text) for s in result.sections)
            for part in q["parts"]:
                if part["evidence"]:
                    parts += 1
                    hit = all(norm(e) in shown for e in part["evidence"])
                    found += hit
                    missed += [] if hit else [q["id"]]
            other = funnels[foreign].search(q["question"]).best_score
            rows.append({"id": q["id"], "kind": q["kind"], "which": "foreign", "best": other})
    own = [r for r in rows if r["which"] == "own"]
    answerable = [r["best"] for r in own if r["kind"] != "unanswerable"]
    near = [r["best"] for r in own if r["kind"] == "unanswerable"]
    alien = [r["best"] for r in rows if r["which"] == "foreign"]
    gate = {
        str(t): {
            "answerable_refused": sum(b < t for b in answerable),
            "near_refused": sum(b < t for b in near),
            "foreign_passed": sum(b >= t for b in alien),
        }
        for t in THRESHOLDS
    }
    return {
        "answerable": len(answerable),
        "near": len(near),
        "foreign": len(alien),
        "gate": gate,
        "evidence_parts": parts,
        "evidence_shown": found,
        "evidence_missed": missed,
        "rows": rows,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--children", default="200:20,200:20:0", help="TOKENS:OVERLAP[:CLOSE],… (see above)"
    )
    parser.add_argument("--limit-docs", type=int, default=3000, help="BioASQ snippets (0: all)")
    parser.add_argument("--split", default="all", help="BioASQ split: calibration, test, all")
    parser.add_argument("--sets", default="", help="grounding question files (default: all)")
    parser.add_argument("--no-bioasq", action="store_true", help="skip the BioASQ ranking")
    parser.add_argument("--out", type=Path, help="write everything here (JSON)")
    args = parser.parse_args()
    from disputatio.models import get_embeddings

    sets = [s for s in args.sets.split(",") if s] or list(CORPUS)
    results: dict[str, Any] = {}
    for spec in args.children.split(","):
        settings = settings_for(spec)
        embeddings = get_embeddings(settings=settings)
        entry: dict[str, Any] = {"grounding": grounding(settings, embeddings, sets)}
        if not args.no_bioasq:
            entry["bioasq"] = bioasq(settings, embeddings, args.limit_docs or None, args.split)
        results[spec] = entry
        report(spec, entry)
    if args.out:
        args.out.write_text(json.dumps(results, indent=1))


def gate_table(g: dict[str, Any]) -> str:
    """The gate's Markdown table of :func:`grounding`'s result, one row per threshold."""
    lines = [
        "| threshold | answerable refused | near misses refused | foreign searches passed |",
        "|---|---|---|---|",
    ]
    for t, row in g["gate"].items():
        lines.append(
            f"| {t} | {row['answerable_refused']}/{g['answerable']} | "
            f"{row['near_refused']}/{g['near']} | {row['foreign_passed']}/{g['foreign']} |"
        )
    return "\n".join(lines)


def report(spec: str, entry: dict[str, Any]) -> None:
    """Print one setting's tables."""
    g = entry["grounding"]
    print(f"\n## children {spec}")
    print(
        f"answerable parts whose evidence is in the answerer's sections (gate aside): "
        f"{g['evidence_shown']}/{g['evidence_parts']} (missed: {' '.join(g['evidence_missed'])})"
    )
    print(gate_table(g))
    if "bioasq" in entry:
        b = {k: v for k, v in entry["bioasq"].items() if k != "per_query"}
        print("BioASQ:", json.dumps(b))


if __name__ == "__main__":
    main()
