"""Ranking metrics with binary relevance (pure functions).

A ranking is a sequence of document ids, best first, without duplicates (see
:func:`dedupe`); ``relevant`` is the set of ids that answer the query.

* recall@k = |relevant ∩ top k| / |relevant|
* nDCG@k = DCG@k / IDCG@k with gain 1 for a relevant id, discount 1/log2(rank + 1), and
  IDCG@k the DCG of min(k, |relevant|) relevant ids at the top
* reciprocal rank = 1 / rank of the first relevant id (0 when none is ranked); MRR is its mean
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Sequence

import numpy as np


def dedupe(ids: Iterable[str]) -> list[str]:
    """The ids in order, each kept at its first (best) position."""
    return list(dict.fromkeys(ids))


def recall_at(ranking: Sequence[str], relevant: Collection[str], k: int) -> float:
    """Share of ``relevant`` found in the first ``k`` ids (0 when nothing is relevant)."""
    if not relevant:
        return 0.0
    return len(set(ranking[:k]) & set(relevant)) / len(relevant)


def ndcg_at(ranking: Sequence[str], relevant: Collection[str], k: int) -> float:
    """Binary-gain nDCG of the first ``k`` ids (0 when nothing is relevant)."""
    if not relevant:
        return 0.0
    rel = set(relevant)
    dcg = sum(1.0 / math.log2(i + 2) for i, doc in enumerate(ranking[:k]) if doc in rel)
    ideal = sum(1.0 / math.log2(i + 2) for i in range(min(k, len(rel))))
    return dcg / ideal


def reciprocal_rank(ranking: Sequence[str], relevant: Collection[str]) -> float:
    """1 / rank of the first relevant id, 0 when none is ranked."""
    rel = set(relevant)
    for i, doc in enumerate(ranking):
        if doc in rel:
            return 1.0 / (i + 1)
    return 0.0


def quality(
    rankings: Sequence[Sequence[str]], relevants: Sequence[Collection[str]]
) -> dict[str, float]:
    """Mean recall@10, recall@32, nDCG@10 and MRR over queries (``n`` = query count)."""
    pairs = list(zip(rankings, relevants, strict=True))
    if not pairs:
        return {"n": 0, "recall@10": 0.0, "recall@32": 0.0, "ndcg@10": 0.0, "mrr": 0.0}
    return {
        "n": len(pairs),
        "recall@10": float(np.mean([recall_at(r, g, 10) for r, g in pairs])),
        "recall@32": float(np.mean([recall_at(r, g, 32) for r, g in pairs])),
        "ndcg@10": float(np.mean([ndcg_at(r, g, 10) for r, g in pairs])),
        "mrr": float(np.mean([reciprocal_rank(r, g) for r, g in pairs])),
    }


def percentiles(values_ms: Sequence[float]) -> dict[str, float | None]:
    """p50 and p95 of latencies (milliseconds), None when there are none."""
    if not values_ms:
        return {"p50_ms": None, "p95_ms": None}
    return {
        "p50_ms": float(np.percentile(values_ms, 50)),
        "p95_ms": float(np.percentile(values_ms, 95)),
    }


def rrf(rankings: Sequence[Sequence[str]], weights: Sequence[float], k: int = 60) -> list[str]:
    """Weighted reciprocal-rank fusion: score(d) = Σ w / (k + rank), rank from 1."""
    scores: dict[str, float] = {}
    for ranking, weight in zip(rankings, weights, strict=True):
        for i, doc in enumerate(ranking):
            scores[doc] = scores.get(doc, 0.0) + weight / (k + i + 1)
    return sorted(scores, key=lambda d: -scores[d])
