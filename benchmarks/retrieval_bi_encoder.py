"""Exact-cosine retrieval of BioASQ with two bi-encoders, alone and fused with the funnel's BM25.

Compares `local:all-MiniLM-L6-v2` (384-d, the default) with `local:all-mpnet-base-v2` (768-d) on
the whole BioASQ set (13,540 gold snippets, 1,181 questions) per split of
`disputatio eval retrieval` (hash of the question id; calibration 356, test 825):

* **exact cosine** of each model over every snippet (no index); with `--stored mpnet` the
  snippet vectors are those the ingestion pipeline stored in `--lexical-home` (saves embedding
  the corpus twice; only `--sample` snippets are embedded, to time the bare model);
* with `--lexical-home HOME` (a home where `disputatio eval retrieval` ingested the set): the
  funnel's own BM25 channel (`PostgresBackend.lexical`, the settings of the environment, k 100)
  fused with each model's top 100 by the funnel's `convex_fusion` at document level, for a
  grid of lexical weights (choose on calibration, read test once).

Vectors are computed through the product's `get_embeddings` (the same model strings the
settings take) in chunks of 512 texts, each saved as a `.npy` under `--cache` (default
`/tmp/bienc`), so an interrupted run resumes; each chunk's wall time and the load average are
logged in `timing.jsonl` beside them (passages/s of the bare model). Run it under the heavy-run
lock:

    flock /tmp/disputatio-heavy.lock .venv/bin/python benchmarks/retrieval_bi_encoder.py \
        [--models minilm mpnet] [--lexical-home /tmp/dh-mpnet --tenant bioasq] [--stored mpnet]
        [--out F.json]

(`DISPUTATIO_MODELS__EMBEDDING_DIM` must match the database of `--lexical-home`.)
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import time
from pathlib import Path

import numpy as np

MODELS = {
    "minilm": ("local:all-MiniLM-L6-v2", 384),
    "mpnet": ("local:all-mpnet-base-v2", 768),
    # MiniLM on ONNX Runtime (models/embeddings_onnx.py): the float export, and int8 weights
    "minilm-onnx": ("onnx:all-MiniLM-L6-v2", 384),
    "minilm-int8": ("onnx-int8:all-MiniLM-L6-v2", 384),
}
CHUNK = 512
DEPTH = 100
LEXICAL_WEIGHTS = (0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55)


def embed_cached(slug: str, texts: list[str], kind: str, cache: Path, home: Path) -> np.ndarray:
    """Vectors of ``texts`` with model ``slug``, chunk by chunk, resumable (models under home)."""
    from disputatio.models.embeddings import get_embeddings
    from disputatio.settings import load_settings

    spec, dim = MODELS[slug]
    folder = cache / slug
    folder.mkdir(parents=True, exist_ok=True)
    model = None
    parts = []
    for start in range(0, len(texts), CHUNK):
        path = folder / f"{kind}-{start:05d}.npy"
        batch = texts[start : start + CHUNK]
        if path.is_file():
            parts.append(np.load(path))
            continue
        if model is None:
            settings = load_settings(home=home, models={"embeddings": spec, "embedding_dim": dim})
            model = get_embeddings(settings=settings)
            model.embed_documents(["warm up"])  # load the weights outside the timing
        load = os.getloadavg()[0]
        t0 = time.perf_counter()
        vectors = np.asarray(model.embed_documents(batch), dtype=np.float32)
        seconds = time.perf_counter() - t0
        np.save(path, vectors)
        with (folder / "timing.jsonl").open("a") as fh:
            row = {"kind": kind, "start": start, "n": len(batch), "s": seconds, "load1": load}
            fh.write(json.dumps(row) + "\n")
        print(f"{slug} {kind} {start + len(batch)}/{len(texts)}: {len(batch) / seconds:.1f}/s")
        parts.append(vectors)
    matrix = np.concatenate(parts)
    return matrix / np.linalg.norm(matrix, axis=1, keepdims=True)


def throughput(slug: str, cache: Path) -> dict[str, float]:
    """Passages/s of the bare model over the logged document chunks."""
    path = cache / slug / "timing.jsonl"
    if not path.is_file():
        return {}
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    docs = [r for r in rows if r["kind"] == "docs"]
    if not docs:
        return {}
    n, s = sum(r["n"] for r in docs), sum(r["s"] for r in docs)
    loads = [r["load1"] for r in docs]
    return {"passages_per_s": n / s, "seconds": s, "load1_min": min(loads), "load1_max": max(loads)}


def _backend(home: str):
    os.environ["DISPUTATIO_HOME"] = home
    from disputatio.retrievers.postgres import PostgresBackend
    from disputatio.settings import get_settings

    get_settings.cache_clear()
    return PostgresBackend(get_settings())


def _labels(backend, tenant: str) -> dict[str, str]:
    from disputatio.eval.retrieval_data import label_of

    with backend.pool.connection() as conn:
        rows = conn.execute(
            "select c.id::text, d.source_uri from child_chunks c"
            " join documents d on d.id = c.document_id where c.tenant = %s",
            (tenant,),
        ).fetchall()
    return {r[0]: label_of(r[1]) for r in rows}


def lexical_runs(home: str, tenant: str, queries: list, cache: Path) -> list[list[tuple]]:
    """The funnel's BM25 channel per query, mapped to (document id, best chunk score)."""
    path = cache / f"lexical-{tenant}-{Path(home).name}.pkl"
    if path.is_file():
        with path.open("rb") as fh:
            return pickle.load(fh)
    from disputatio.retrievers.base import RetrievalFilters
    from disputatio.retrievers.plan import deterministic_plan

    backend = _backend(home)
    label = _labels(backend, tenant)
    filters = RetrievalFilters(tenant=tenant)
    runs = []
    for q in queries:
        hits = backend.lexical(deterministic_plan(q.query).keywords, filters, DEPTH)
        best: dict[str, float] = {}
        for chunk, score in hits:
            doc = label[str(chunk)]
            best[doc] = max(best.get(doc, float("-inf")), score)
        runs.append(sorted(best.items(), key=lambda p: p[1], reverse=True))
    with path.open("wb") as fh:
        pickle.dump(runs, fh)
    return runs


def stored_vectors(home: str, tenant: str) -> tuple[list[str], np.ndarray]:
    """Document id of each stored child chunk and its stored (ingested) vector."""
    backend = _backend(home)
    label = _labels(backend, tenant)
    with backend.pool.connection() as conn:
        rows = conn.execute(
            "select id::text, embedding from child_chunks where tenant = %s order by id",
            (tenant,),
        ).fetchall()
    matrix = np.stack([np.asarray(r[1], dtype=np.float32) for r in rows])
    return [label[r[0]] for r in rows], matrix / np.linalg.norm(matrix, axis=1, keepdims=True)


def top_documents(sims: np.ndarray, row_docs: list[str]) -> list[list[tuple[str, float]]]:
    """Per query, the best DEPTH documents by their best row (chunk) cosine."""
    out = []
    for row in sims:
        order = np.argsort(-row, kind="stable")
        best: dict[str, float] = {}
        for j in order:
            doc = row_docs[j]
            if doc not in best:
                best[doc] = float(row[j])
                if len(best) == DEPTH:
                    break
        out.append(list(best.items()))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", nargs="+", default=["minilm", "mpnet"], choices=list(MODELS))
    parser.add_argument("--cache", type=Path, default=Path("/tmp/bienc"))
    parser.add_argument("--lexical-home", default=None)
    parser.add_argument(
        "--home",
        type=Path,
        default=Path(os.environ.get("DISPUTATIO_HOME", "/tmp/bienc/home")),
        help="home whose models/ folder holds the unpacked packaged models",
    )
    parser.add_argument("--tenant", default="bioasq")
    parser.add_argument(
        "--stored",
        nargs="*",
        default=[],
        choices=list(MODELS),
        help="models whose document vectors are read from --lexical-home's database (as the "
        "pipeline stored them) instead of embedded again; --sample snippets are embedded for "
        "the bare model's passages/s",
    )
    parser.add_argument("--sample", type=int, default=1024)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    args.cache.mkdir(parents=True, exist_ok=True)
    if args.stored and not args.lexical_home:
        parser.error("--stored reads the vectors of --lexical-home's database: give --lexical-home")

    from disputatio.eval.retrieval_data import bioasq_set, split_of
    from disputatio.eval.retrieval_metrics import quality
    from disputatio.retrievers.fusion import convex_fusion

    data = bioasq_set()
    doc_ids = list(data.documents)
    texts = [data.documents[d] for d in doc_ids]
    queries = data.queries
    splits = {
        s: [i for i, q in enumerate(queries) if split_of(q.id) == s]
        for s in ("calibration", "test")
    }
    relevant = [q.relevant for q in queries]
    lexical = (
        lexical_runs(args.lexical_home, args.tenant, queries, args.cache)
        if args.lexical_home
        else None
    )
    results: dict[str, dict] = {"load1_end": None, "rankings": {}, "throughput": {}}
    rankings: dict[str, list[list[str]]] = {}
    for slug in args.models:
        doc_vecs = embed_cached(slug, texts, "docs", args.cache, args.home)
        query_vecs = embed_cached(
            slug, [q.query for q in queries], "queries", args.cache, args.home
        )
        sims = query_vecs @ doc_vecs.T
        top = np.argsort(-sims, axis=1, kind="stable")[:, :DEPTH]
        cosine = [[(doc_ids[j], float(sims[i, j])) for j in row] for i, row in enumerate(top)]
        rankings[f"{slug} exact cosine"] = [[d for d, _ in hits] for hits in cosine]
        results["throughput"][slug] = throughput(slug, args.cache)
        if lexical is not None:
            for w in LEXICAL_WEIGHTS:
                fused = [
                    [
                        d
                        for d, _ in convex_fusion(
                            {"lexical": lex, "semantic": cos}, {"lexical": w, "semantic": 1 - w}
                        )
                    ]
                    for lex, cos in zip(lexical, cosine, strict=True)
                ]
                rankings[f"BM25 + {slug} convex lexical {w:.2f}"] = fused
    if lexical is not None:
        rankings["funnel BM25 alone"] = [[d for d, _ in lex] for lex in lexical]
    for name, ranked in rankings.items():
        results["rankings"][name] = {
            split: quality([ranked[i] for i in idx], [relevant[i] for i in idx])
            for split, idx in splits.items()
        }
    results["load1_end"] = os.getloadavg()[0]
    print(f"{'ranking':44s} {'calibration nDCG@10 / R@32':>28s} {'test nDCG@10 / R@32':>22s}")
    for name, by_split in results["rankings"].items():
        c, t = by_split["calibration"], by_split["test"]
        print(
            f"{name:44s} {c['ndcg@10']:.3f} / {c['recall@32']:.3f}{'':14s}"
            f"{t['ndcg@10']:.3f} / {t['recall@32']:.3f}"
        )
    for slug, tp in results["throughput"].items():
        if tp:
            loads = f"load {tp['load1_min']:.1f}-{tp['load1_max']:.1f}"
            print(f"{slug}: {tp['passages_per_s']:.1f} passages/s ({loads})")
    if args.out:
        args.out.write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
