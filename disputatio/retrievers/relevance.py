"""The rerank stage: calibrated relevance from stored vectors, optional model reranking.

Every candidate section gets a *relevance* in [0, 1]: ``sigmoid(a · cos + b)`` of the best
cosine between the query vector (the one the semantic channel computed) and the stored vectors
of its matched children — no stored text is embedded again. ``(a, b)`` are fitted by
``disputatio calibrate`` on labelled queries (Platt scaling), so a refusal threshold of 0.5
means "probably relevant".

Then the reranker decides the order:

* a stored-vector reranker (``local:*``) or :class:`~disputatio.models.rerank.NoReranker`
  orders by ``blend · relevance + (1 − blend) · fusion score`` (``blend = 0``: fusion order);
* a model reranker (``remote:…``, ``cross-encoder:…``) scores the children's text; its scores
  (Platt-calibrated when ``cfg.rerank_platt`` is set) become the section scores and the order.
  If it fails, the fusion order and the stored-vector relevance stand, and the trace says so.
"""

from __future__ import annotations

import logging
import math
import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
from langchain_core.embeddings import Embeddings

from disputatio.models.rerank import Reranker
from disputatio.state.retrieval import RetrievalTrace, Section

if TYPE_CHECKING:
    from disputatio.retrievers.funnel import FunnelBackend, FunnelConfig

logger = logging.getLogger(__name__)

_CACHE_SIZE = 256
_cache: OrderedDict[tuple[int, str], tuple[Embeddings, list[float]]] = OrderedDict()
_cache_lock = threading.Lock()


def query_vector(embeddings: Embeddings, text: str) -> list[float]:
    """``embeddings.embed_query(text)``, remembered for the last few queries.

    The semantic channel and the rerank stage of one search share the vector this way.
    """
    key = (id(embeddings), text)
    with _cache_lock:
        hit = _cache.get(key)
        if hit is not None and hit[0] is embeddings:
            _cache.move_to_end(key)
            return hit[1]
    vector = [float(x) for x in embeddings.embed_query(text)]
    with _cache_lock:
        _cache[key] = (embeddings, vector)
        while len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)
    return vector


def cached_vector(text: str) -> list[float] | None:
    """The vector :func:`query_vector` computed last for ``text`` (any model), if any."""
    with _cache_lock:
        for (_, cached_text), (_, vector) in reversed(_cache.items()):
            if cached_text == text:
                return vector
    return None


def platt(score: float, params: tuple[float, float] | None) -> float:
    """``sigmoid(a · score + b)`` (``params = (a, b)``); the score itself when ``None``."""
    if params is None:
        return score
    a, b = params
    z = a * score + b
    return 1.0 / (1.0 + math.exp(-z)) if z > -60 else 0.0


def child_cosines(
    backend: FunnelBackend, vector: Sequence[float], child_ids: Sequence[str]
) -> dict[str, float]:
    """Cosine between the query vector and each child's stored vector."""
    stored = backend.child_vectors(child_ids)
    if not stored:
        return {}
    ids = list(stored)
    matrix = np.asarray([np.asarray(stored[c], dtype=np.float32) for c in ids])
    q = np.asarray(vector, dtype=np.float32)
    norms = np.linalg.norm(matrix, axis=1) * (np.linalg.norm(q) or 1.0)
    sims = matrix @ q / np.where(norms == 0, 1.0, norms)
    return {c: float(s) for c, s in zip(ids, sims, strict=True)}


def rerank_sections(
    backend: FunnelBackend,
    reranker: Reranker,
    query: str,
    sections: Sequence[Section],
    cfg: FunnelConfig,
    embeddings: Embeddings | None = None,
    trace: RetrievalTrace | None = None,
) -> list[Section]:
    """Score (and maybe reorder) the fused sections; see the module docstring.

    Args:
        backend: Storage (stored child vectors and texts).
        reranker: The reranker.
        query: The query as asked.
        sections: Fused sections, best first.
        cfg: Funnel knobs.
        embeddings: The embedding model of the semantic channel (its query vector is reused);
            ``None`` = reuse the vector the semantic channel computed for ``query``, if any.
        trace: Trace to record rerank scores and a fallback in.

    Returns:
        Sections with ``score`` = calibrated relevance in [0, 1], in the final order.
    """
    if not sections:
        return []
    trace = trace if trace is not None else RetrievalTrace()
    picks = {s.id: s.child_ids[: cfg.children_per_parent] for s in sections}
    cosines: dict[str, float] = {}
    try:
        vector = query_vector(embeddings, query) if embeddings is not None else cached_vector(query)
        if vector is not None:
            cosines = child_cosines(backend, vector, [c for ids in picks.values() for c in ids])
    except Exception as exc:  # no relevance: scores 0, and the trace says why
        logger.warning("stored-vector relevance failed for %r (%s)", query, exc)
        trace.failed_channels["relevance"] = f"{type(exc).__name__}: {exc}".splitlines()[0]
    relevance = {
        sid: platt(max((cosines[c] for c in ids if c in cosines), default=0.0), cfg.relevance_platt)
        for sid, ids in picks.items()
    }
    fusion = {s.id: s.score for s in sections}
    scores = relevance
    blend = float(getattr(reranker, "blend", 1.0))
    if not getattr(reranker, "uses_stored_vectors", False):
        try:
            scores = _model_scores(backend, reranker, query, picks, cfg)
        except Exception as exc:  # the fusion order stands; the trace says why
            logger.warning("reranker failed for %r (%s); keeping the fusion order", query, exc)
            trace.failed_channels["rerank"] = f"{type(exc).__name__}: {exc}".splitlines()[0]
            trace.extra["rerank_fallback"] = "fusion order"
            blend = 0.0
    order = sorted(
        sections,
        key=lambda s: blend * scores.get(s.id, 0.0) + (1 - blend) * fusion[s.id],
        reverse=True,
    )
    out = [s.model_copy(update={"score": scores.get(s.id, 0.0)}) for s in order]
    trace.rerank_scores = {s.id: round(s.score, 4) for s in out}
    return out


def _model_scores(
    backend: FunnelBackend,
    reranker: Reranker,
    query: str,
    picks: dict[str, list[str]],
    cfg: FunnelConfig,
) -> dict[str, float]:
    """Best model score of each section's matched children (children fit small windows)."""
    texts = backend.child_texts([c for ids in picks.values() for c in ids])
    pairs = [(sid, cid) for sid, ids in picks.items() for cid in ids if cid in texts]
    raw = reranker.score(query, [texts[cid] for _, cid in pairs]) if pairs else []
    best: dict[str, float] = {}
    for (sid, _), score in zip(pairs, raw, strict=True):
        value = platt(float(score), cfg.rerank_platt)
        best[sid] = max(best.get(sid, 0.0), value)
    return best


def describe(reranker: Any) -> str:
    """A short name of a reranker for traces and calibration records."""
    return str(getattr(reranker, "name", type(reranker).__name__))
