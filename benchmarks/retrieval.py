"""Scale benchmark: the Postgres funnel beside LangChain's ``EnsembleRetriever`` at 100k+ chunks.

    DISPUTATIO_HOME=/tmp/dh-bioasq disputatio eval retrieval --no-rerank   # once: the source
    python benchmarks/retrieval.py --source-home /tmp/dh-bioasq --sizes 100000 --queries 100 \
        --out docs/benchmarks_retrieval.md
    # 1M, resumable across sessions (blocks of 100k chunks, each committed on its own):
    python benchmarks/retrieval.py --sizes 100000,1000000 --home /tmp/dh-scale --resume

What it does, in a fresh DISPUTATIO_HOME under /tmp (its own embedded Postgres):

1. Reads the BioASQ snippets that ``disputatio eval retrieval`` ingested through the real
   pipeline (``--source-home``, tenant ``bioasq``): each child's text, its stored MiniLM vector
   and its spaCy entity mentions.
2. COPYs them into the benchmark database (one document per snippet, as ingested), then grows the
   corpus to each size with synthetic chunks (COPY, not ingestion): each one splices the first
   half of one real snippet onto the second half of another (real vocabulary, real entity
   mentions at their offsets), with the normalised mean of their two vectors plus Gaussian noise
   as its embedding, so synthetic chunks sit among real queries' neighbours instead of nowhere
   (five children to a synthetic document, one parent). Co-occurrence relations come from the
   mentions. Synthetic chunks go in by blocks (``--block``, each one transaction, so
   ``--resume`` continues a killed load); the HNSW index is built once per size; the BM25
   index is kept by its triggers.
3. Asks the same BioASQ questions (test split, relevant = their own snippets) of the funnel with
   no model reranker (``NoReranker``: fusion order) and of a LangChain ``EnsembleRetriever``
   (``BM25Retriever`` + ``PGVector``, weights 0.5/0.5, each k 32) over the same child texts
   and vectors: latency p50/p95 (query embedding included in both) and recall@8, recall@32,
   nDCG@10, MRR at document level.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import shutil
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
from retrieval_corpus import (
    INDEX_MEMORY,
    TENANT,
    build_index,
    copy_bulk,
    has_index,
    load_source,
    real_rows,
    stored_children,
    synthetic_rows,
)

from disputatio.eval.retrieval_data import LabelledQuery, bioasq_set, label_of, select
from disputatio.eval.retrieval_metrics import dedupe, ndcg_at, recall_at, reciprocal_rank
from disputatio.retrievers.base import RetrievalFilters
from disputatio.settings import Settings, load_settings

# --- the two retrievers ------------------------------------------------------------------------


def scores(ranking: list[str], relevant: frozenset[str]) -> dict[str, float]:
    """Document-level quality of one ranking."""
    return {
        "recall@8": recall_at(ranking, relevant, 8),
        "recall@32": recall_at(ranking, relevant, 32),
        "ndcg@10": ndcg_at(ranking, relevant, 10),
        "mrr": reciprocal_rank(ranking, relevant),
    }


def run_funnel(settings: Settings, queries: list[LabelledQuery]) -> dict[str, Any]:
    """The Postgres funnel without a model reranker (fusion order)."""
    from disputatio.models.rerank import NoReranker
    from disputatio.retrievers.postgres import PostgresFunnel

    scope = RetrievalFilters(tenant=TENANT)
    funnel = PostgresFunnel(settings=settings, default_filters=scope, reranker=NoReranker())
    labels = _labels(settings)
    for q in queries[:3]:  # warm-up: models, pool, caches
        funnel.search(q.query, k=32)
    wall: list[float] = []
    stages: dict[str, list[float]] = {}
    rows, failed = [], 0
    for q in queries:
        t0 = time.perf_counter()
        result = funnel.search(q.query, k=32)
        wall.append((time.perf_counter() - t0) * 1000)
        for stage, ms in result.trace.timings_ms.items():
            stages.setdefault(stage, []).append(ms)
        failed += len(result.trace.failed_channels)
        ranking = dedupe(labels.get(s.document_id, "") for s in result.sections)
        rows.append(scores(ranking, q.relevant))
    return {"wall": wall, "stages": stages, "quality": _mean(rows), "failed_channels": failed}


def run_ensemble(settings: Settings, queries: list[LabelledQuery]) -> dict[str, Any]:
    """LangChain EnsembleRetriever(BM25Retriever + PGVector) over the same children."""
    from langchain_classic.retrievers import EnsembleRetriever
    from langchain_community.retrievers import BM25Retriever
    from langchain_postgres import PGVector

    from disputatio.models import get_embeddings
    from disputatio.storage.db import connect, database_url

    t0 = time.perf_counter()
    labels = _labels(settings)
    with connect(settings) as conn:
        rows = conn.execute(
            "SELECT id, document_id, text FROM child_chunks WHERE tenant = %s", (TENANT,)
        ).fetchall()
    bm25 = BM25Retriever.from_texts(
        [r[2] for r in rows], metadatas=[{"doc": labels.get(str(r[1]), "")} for r in rows]
    )
    bm25.k = 32
    url = database_url(settings).replace("postgresql://", "postgresql+psycopg://", 1)
    store = PGVector(
        embeddings=get_embeddings(settings=settings), connection=url, collection_name="bench",
        embedding_length=settings.models.embedding_dim, pre_delete_collection=True,
    )  # fmt: skip
    with connect(settings) as conn:
        conn.execute(f"SET maintenance_work_mem = '{INDEX_MEMORY}'")
        conn.execute("SET max_parallel_maintenance_workers = 1")
        conn.execute("DROP INDEX IF EXISTS langchain_pg_embedding_hnsw")
        conn.execute(
            "INSERT INTO langchain_pg_embedding (id, collection_id, embedding, document, cmetadata)"
            " SELECT c.id, (SELECT uuid FROM langchain_pg_collection WHERE name = 'bench'),"
            " c.embedding, c.text, jsonb_build_object('doc', c.document_id::text)"
            " FROM child_chunks c WHERE c.tenant = %s",
            (TENANT,),
        )
        conn.execute(
            "CREATE INDEX langchain_pg_embedding_hnsw ON langchain_pg_embedding"
            " USING hnsw (embedding vector_cosine_ops) WITH (m = 16, ef_construction = 64)"
        )
        conn.execute("ANALYZE langchain_pg_embedding")
    ensemble = EnsembleRetriever(
        retrievers=[bm25, store.as_retriever(search_kwargs={"k": 32})], weights=[0.5, 0.5]
    )
    build_s = time.perf_counter() - t0
    for q in queries[:3]:
        ensemble.invoke(q.query)
    wall, out = [], []
    for q in queries:
        t1 = time.perf_counter()
        docs = ensemble.invoke(q.query)
        wall.append((time.perf_counter() - t1) * 1000)
        ranking = dedupe(labels.get(d.metadata["doc"], d.metadata["doc"]) for d in docs)
        out.append(scores(ranking, q.relevant))
    return {"wall": wall, "quality": _mean(out), "build_s": build_s}


def _labels(settings: Settings) -> dict[str, str]:
    from disputatio.storage.db import connect

    with connect(settings) as conn:
        rows = conn.execute(
            "SELECT id, source_uri FROM documents WHERE tenant = %s", (TENANT,)
        ).fetchall()
    return {str(r[0]): label_of(r[1]) for r in rows}


def _mean(rows: list[dict[str, float]]) -> dict[str, float]:
    return {k: float(np.mean([r[k] for r in rows])) for k in rows[0]} if rows else {}


# --- report ------------------------------------------------------------------------------------


def pct(values: list[float], q: float) -> float:
    return float(np.percentile(values, q)) if values else float("nan")


def report(meta: dict[str, Any], runs: list[dict[str, Any]]) -> str:
    out = [
        "# Retrieval benchmark at scale",
        "",
        f"Command: `{meta['command']}`",
        "",
        f"Run {meta['date']} on {meta['machine']}; load average (1 min) at start"
        f" {meta['load_start']:.1f} (each size gives the load during its queries). Source:"
        f" {meta['real']} BioASQ snippets ingested by `disputatio eval retrieval` (their stored"
        f" MiniLM vectors and spaCy mentions); {meta['queries']} BioASQ questions of the test"
        f" split whose snippets are all in the source; synthetic noise σ {meta['noise']}.",
        f"Funnel: settings' defaults with `NoReranker` (no model reranker; fusion order),"
        f" `search(k=32)`. Embeddings `{meta['embeddings']}`.",
        "",
    ]
    for run in runs:
        f, b = run["funnel"], run["ensemble"]
        out += [
            f"## {run['children']:,} child chunks",
            "",
            f"COPY of {run['copied']:,} chunks (BM25 triggers, entities, relations, HNSW rebuild):"
            f" {run['copy_s']:.0f} s. Ensemble build (BM25Retriever in memory + PGVector load +"
            f" HNSW): {b['build_s']:.0f} s. Load average during the queries: {run['load']:.1f}.",
            "",
            "| retriever | p50 ms | p95 ms | recall@8 | recall@32 | nDCG@10 | MRR |",
            "|---|---|---|---|---|---|---|",
        ]
        for name, r in (("funnel (no model reranker)", f), ("LangChain EnsembleRetriever", b)):
            q = r["quality"]
            out.append(
                f"| {name} | {pct(r['wall'], 50):.1f} | {pct(r['wall'], 95):.1f} |"
                f" {q['recall@8']:.3f} | {q['recall@32']:.3f} | {q['ndcg@10']:.3f} |"
                f" {q['mrr']:.3f} |"
            )
        out += ["", "Funnel stages (trace `timings_ms`):", "", "| stage | p50 ms | p95 ms |",
                "|---|---|---|"]  # fmt: skip
        for stage, values in f["stages"].items():
            out.append(f"| {stage} | {pct(values, 50):.1f} | {pct(values, 95):.1f} |")
        if f["failed_channels"]:
            out.append(f"\nChannels dropped (deadline or error): {f['failed_channels']}.")
        out.append("")
    return "\n".join([*out, "## Notes", "", *NOTES, ""])


NOTES = [
    "- Relevance is document-level: a question's relevant documents are its own BioASQ gold"
    " snippets; a synthetic chunk is never counted relevant, although half of its text comes"
    " from a real snippet (a hard distractor for both retrievers alike).",
    "- The funnel runs with its configured defaults and `NoReranker`; `search(k=32)` returns at"
    " most 32 sections. The ensemble returns the union of its two retrievers' 32 children, in"
    " RRF order; both rankings are mapped to documents and de-duplicated before scoring.",
    "- Both retrievers embed the query with the same local MiniLM model inside the timed call.",
    "- `BM25Retriever` (rank_bm25) scores every document in Python for each query and holds the"
    " corpus in memory; `PGVector` uses an HNSW index with the same parameters as the funnel's"
    " (m 16, ef_construction 64) and default `hnsw.ef_search` (40).",
]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source-home", type=Path, default=Path("/tmp/dh-bioasq"))
    parser.add_argument("--sizes", default="100000", help="corpus sizes (child chunks)")
    parser.add_argument("--queries", type=int, default=100)
    parser.add_argument("--noise", type=float, default=0.02, help="σ of the vector noise")
    parser.add_argument("--out", type=Path, default=Path("docs/benchmarks_retrieval.md"))
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--home", type=Path, default=None, help="DISPUTATIO_HOME (under /tmp)")
    parser.add_argument("--keep", action="store_true", help="keep the home folder afterwards")
    parser.add_argument("--no-ensemble", action="store_true", help="skip the LangChain peer")
    parser.add_argument(
        "--resume", action="store_true",
        help="keep what --home already holds and only add the missing chunks (with --keep)",
    )  # fmt: skip
    parser.add_argument("--block", type=int, default=100_000, help="chunks per COPY block")
    args = parser.parse_args(argv)
    sizes = sorted(int(s) for s in args.sizes.split(","))
    units = load_source(args.source_home)
    have = {u.label for u in units}
    labelled = bioasq_set()
    queries = [q for q in select(labelled.queries, "test") if q.relevant <= have][: args.queries]
    home = args.home or Path(f"/tmp/disputatio-bench-{os.getpid()}")
    if not args.resume:
        shutil.rmtree(home, ignore_errors=True)
    settings = load_settings(home=home)
    meta: dict[str, Any] = {
        "command": "python benchmarks/retrieval.py " + " ".join(argv or sys.argv[1:]),
        "date": dt.datetime.now().strftime("%Y-%m-%d %H:%M"),
        "machine": f"{platform.machine()}, {os.cpu_count()} CPUs",
        "load_start": os.getloadavg()[0], "embeddings": settings.models.embeddings,
        "real": len(units), "queries": len(queries), "noise": args.noise,
    }  # fmt: skip
    runs: list[dict[str, Any]] = []
    try:
        count, synthetic = stored_children(settings) if args.resume else (0, 0)
        if count == 0:
            copy_s = copy_bulk(settings, real_rows(units))
            count = len(units)
            print(f"real snippets copied: {count} in {copy_s:.0f} s", flush=True)
        for size in sizes:
            t_copy, grow = 0.0, max(0, size - count)
            while count < size:  # blocks of --block chunks, each its own transaction
                n = min(args.block, size - count)
                block = synthetic_rows(units, n, args.seed * 1_000_003 + synthetic, args.noise)
                t_copy += copy_bulk(settings, block, index=False)
                count, synthetic = count + n, synthetic + n
                print(f"size {size}: {count:,} children stored", flush=True)
            if grow or not has_index(settings):
                t_copy += build_index(settings)
            print(f"size {size}: copied {grow} in {t_copy:.0f} s", flush=True)
            load = os.getloadavg()[0]
            run: dict[str, Any] = {"children": count, "copied": grow, "copy_s": t_copy}
            run["funnel"] = run_funnel(settings, queries)
            run["funnel"]["settings"] = settings.retrieval.model_dump()
            print("funnel", json.dumps(run["funnel"]["quality"]), flush=True)
            run["ensemble"] = (
                {"wall": [], "quality": dict.fromkeys(run["funnel"]["quality"], float("nan")),
                 "build_s": 0.0} if args.no_ensemble else run_ensemble(settings, queries)
            )  # fmt: skip
            run["load"] = (load + os.getloadavg()[0]) / 2
            runs.append(run)
            args.out.write_text(report(meta, runs))
            print(f"size {size} done", flush=True)
    finally:
        from disputatio.storage.db import close_pools
        from disputatio.storage.server import EmbeddedPostgres

        close_pools()
        EmbeddedPostgres(home).stop()
        if not (args.keep or args.resume):
            shutil.rmtree(home, ignore_errors=True)
    print(report(meta, runs))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
