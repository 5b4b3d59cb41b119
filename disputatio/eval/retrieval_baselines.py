"""Plain peers the funnel must beat, on the same texts in the same run.

* ``bm25s``: BM25 (Lucene variant, k1 1.5, b 0.75) with English stopwords, no stemming;
* ``cosine``: exact cosine of the configured embedding model over every document (no index);
* ``bm25s+cosine RRF``: their weighted reciprocal-rank fusion (k 60, weights 0.7 / 0.8).

Document vectors are cached beside the evaluation's output (per model and text hash), so a
second run embeds only new texts.
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from langchain_core.embeddings import Embeddings

from disputatio.errors import ConfigError
from disputatio.eval.retrieval_metrics import rrf

#: Weights and k of the peers' RRF (lexical, vector), as in ../shared/REFERENCE.md.
RRF_WEIGHTS = (0.7, 0.8)
RRF_K = 60
#: Documents embedded per call while building the cache.
EMBED_BATCH = 64


class PlainPeers:
    """bm25s and exact cosine over a fixed list of documents.

    Args:
        ids: Document ids, in corpus order.
        texts: Their texts.
        embeddings: The embedding model (the funnel's).
        cache: ``.npz`` file for document vectors (None: no cache).
        depth: Ids each peer returns.
    """

    def __init__(
        self,
        ids: Sequence[str],
        texts: Sequence[str],
        embeddings: Embeddings,
        *,
        cache: Path | None = None,
        depth: int = 100,
    ) -> None:
        try:
            import bm25s

            logging.getLogger("bm25s").setLevel(logging.WARNING)  # it logs each index at DEBUG
        except ImportError as exc:
            raise ConfigError("the plain-peer baseline needs bm25s: run `make bench-deps`") from exc
        self.ids = list(ids)
        self.depth = min(depth, len(self.ids))
        self.embeddings = embeddings
        self._bm25s = bm25s
        self.bm25 = bm25s.BM25()
        tokens = bm25s.tokenize(list(texts), stopwords="en", show_progress=False)
        self.bm25.index(tokens, show_progress=False)
        self.matrix = _document_vectors(list(texts), embeddings, cache)

    def bm25_search(self, query: str) -> tuple[list[str], float]:
        """bm25s ranking of ``query`` and its time in ms."""
        t0 = time.perf_counter()
        tokens = self._bm25s.tokenize(
            [query], stopwords="en", return_ids=False, show_progress=False
        )
        if not tokens[0]:
            return [], (time.perf_counter() - t0) * 1000
        docs, scores = self.bm25.retrieve(tokens, k=self.depth, show_progress=False, n_threads=1)
        ranked = [self.ids[int(i)] for i, s in zip(docs[0], scores[0], strict=True) if s > 0]
        return ranked, (time.perf_counter() - t0) * 1000

    def cosine_search(self, query: str) -> tuple[list[str], float]:
        """Exact-cosine ranking of ``query`` (query embedding included) and its time in ms."""
        t0 = time.perf_counter()
        q = np.asarray(self.embeddings.embed_query(query), dtype=np.float32)
        q /= np.linalg.norm(q) or 1.0
        sims = self.matrix @ q
        top = np.argpartition(-sims, self.depth - 1)[: self.depth]
        top = top[np.argsort(-sims[top], kind="stable")]
        return [self.ids[int(i)] for i in top], (time.perf_counter() - t0) * 1000

    @staticmethod
    def fuse(bm25: Sequence[str], cosine: Sequence[str]) -> list[str]:
        """The peers' RRF."""
        return rrf([bm25, cosine], RRF_WEIGHTS, RRF_K)


def _document_vectors(texts: list[str], embeddings: Embeddings, cache: Path | None) -> np.ndarray:
    keys = [hashlib.sha1(t.encode("utf-8")).hexdigest() for t in texts]
    known: dict[str, np.ndarray] = {}
    if cache is not None and cache.is_file():
        with np.load(cache) as stored:
            known = dict(zip(stored["keys"].tolist(), stored["vectors"], strict=True))
    missing = [i for i, k in enumerate(keys) if k not in known]
    for start in range(0, len(missing), EMBED_BATCH):
        batch = missing[start : start + EMBED_BATCH]
        vectors = embeddings.embed_documents([texts[i] for i in batch])
        for i, vec in zip(batch, vectors, strict=True):
            known[keys[i]] = np.asarray(vec, dtype=np.float32)
    if missing and cache is not None:
        cache.parent.mkdir(parents=True, exist_ok=True)
        np.savez(cache, keys=np.array(list(known)), vectors=np.stack(list(known.values())))
    if not texts:
        return np.zeros((0, 1), dtype=np.float32)
    matrix = np.stack([known[k] for k in keys]).astype(np.float32)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return matrix / np.where(norms == 0, 1.0, norms)
