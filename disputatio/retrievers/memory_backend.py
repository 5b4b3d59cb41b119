"""The in-memory funnel backend: BM25, FAISS and an in-memory entity graph, per tenant.

:class:`InMemoryBackend` implements :class:`~disputatio.retrievers.funnel.FunnelBackend` for
:class:`~disputatio.retrievers.memory.InMemoryFunnel`, whose module describes the channels.
"""

from __future__ import annotations

import re
import threading
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import faiss
import numpy as np
from rank_bm25 import BM25Okapi

from disputatio.errors import ConfigError
from disputatio.ingest.types import DocumentGraph, ParentChunk
from disputatio.retrievers.base import RetrievalFilters
from disputatio.retrievers.graphstore import NEIGHBOUR_CAP, InMemoryGraphStore, top_k
from disputatio.retrievers.plan import STOPWORDS
from disputatio.state.retrieval import Section

_WORD = re.compile(r"[^\W_][\w\-']*")


def _unaccent(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def tokenize(text: str) -> list[str]:
    """The lexical channel's analyser: lowercase, unaccented Unicode words minus stop words.

    Like Postgres' ``unaccent``, ``cláusulas`` matches ``clausulas``.
    """
    words = (w.strip("'-") for w in _WORD.findall(text.lower()))
    return [_unaccent(w) for w in words if w and w not in STOPWORDS]


def embedding_text(heading_path: Sequence[str], text: str) -> str:
    """A child as it is embedded and reranked: ``heading > path`` line, then the text."""
    return f"{' > '.join(heading_path)}\n{text}" if heading_path else text


@dataclass(frozen=True)
class _Child:
    id: str
    parent_id: str
    text: str  # with its heading line, as embedded
    tenant: str
    collection: str
    tags: frozenset[str]


class _Lexicon:
    """BM25 over one tenant's children, with postings to find the matching ones."""

    def __init__(self, positions: list[int], docs: list[list[str]]) -> None:
        self.positions = np.asarray(positions, dtype=np.int64)
        self.bm25 = BM25Okapi(docs) if any(docs) else None
        self.postings: dict[str, list[int]] = {}
        for local, words in enumerate(docs):
            for word in set(words):
                self.postings.setdefault(word, []).append(local)

    def search(self, terms: list[str], allowed: np.ndarray) -> list[tuple[int, float]]:
        if self.bm25 is None:
            return []
        local = sorted({i for t in terms for i in self.postings.get(t, [])})
        local = [i for i in local if allowed[self.positions[i]]]
        if not local:
            return []
        scores = self.bm25.get_batch_scores(terms, local)
        return [(int(self.positions[i]), float(s)) for i, s in zip(local, scores, strict=True)]


class InMemoryBackend:
    """The funnel's storage in process memory: BM25, FAISS and an entity graph. Thread-safe.

    Args:
        hnsw_min_size: From this many children on, the vector index is HNSW instead of exact.
        neighbour_cap: Graph channel: neighbours kept per seed entity.
    """

    def __init__(self, *, hnsw_min_size: int = 50_000, neighbour_cap: int = NEIGHBOUR_CAP) -> None:
        self.hnsw_min_size = hnsw_min_size
        self.neighbour_cap = neighbour_cap
        self.graph_store = InMemoryGraphStore()
        self._lock = threading.RLock()
        self._children: list[_Child] = []
        self._tokens: list[list[str]] = []
        self._pos: dict[str, int] = {}
        self._sections: dict[str, Section] = {}
        self._pending: list[np.ndarray] = []
        self._matrix = np.zeros((0, 0), dtype=np.float32)
        self._index: faiss.Index | None = None
        self._lexicons: dict[str, _Lexicon] = {}
        self._masks: dict[RetrievalFilters, np.ndarray] = {}

    def __len__(self) -> int:
        return len(self._children)

    def add(
        self,
        *,
        tenant: str,
        collection: str,
        tags: Sequence[str],
        section: Section,
        parents: Sequence[ParentChunk],
        embeddings: Mapping[str, Sequence[float]],
        graph: DocumentGraph,
    ) -> None:
        """Add one document's parents and children (``section`` carries its provenance)."""
        vectors = [
            np.asarray(embeddings[c.id], dtype=np.float32) for p in parents for c in p.children
        ]
        with self._lock:
            dim = self._matrix.shape[1] if len(self._matrix) else None
            dim = dim or (self._pending[0].shape[0] if self._pending else None)
            if dim is not None and any(v.shape != (dim,) for v in vectors):
                raise ConfigError(f"embedding dimension changed: the corpus holds {dim}-d vectors")
            for p in parents:
                self._sections[p.id] = section.model_copy(
                    update={
                        "id": p.id,
                        "page": p.page,
                        "heading_path": list(p.heading_path),
                        "text": p.text,
                    }
                )
                for c in p.children:
                    text = embedding_text(c.heading_path, c.text)
                    self._pos[c.id] = len(self._children)
                    self._children.append(
                        _Child(c.id, p.id, text, tenant, collection, frozenset(tags))
                    )
                    self._tokens.append(tokenize(text))
            self._pending.extend(vectors)
            self._lexicons.pop(tenant, None)
            self._masks.clear()
        self.graph_store.write_document(tenant, section.document_id, graph)

    # --- FunnelBackend ------------------------------------------------------------------------

    def lexical(
        self, keywords: Sequence[str], filters: RetrievalFilters, k: int
    ) -> list[tuple[str, float]]:
        """BM25 over children containing any keyword: ``(child_id, score)`` best first."""
        terms = list(dict.fromkeys(t for kw in keywords for t in tokenize(kw)))
        if not terms:
            return []
        with self._lock:  # snapshot; scoring runs outside the lock (children only grow)
            allowed = self._mask(filters)
            tenants = [filters.tenant] if filters.tenant is not None else self._tenants()
            lexicons = [self._lexicon(t) for t in tenants]
            children = self._children
        hits = [hit for lexicon in lexicons for hit in lexicon.search(terms, allowed)]
        return top_k(((children[i].id, s) for i, s in hits), k)

    def semantic(
        self, vector: Sequence[float], filters: RetrievalFilters, k: int
    ) -> list[tuple[str, float]]:
        """Cosine similarity over child embeddings: ``(child_id, score)`` best first."""
        query = np.asarray(vector, dtype=np.float32).reshape(1, -1)
        faiss.normalize_L2(query)
        with self._lock:  # FAISS releases the GIL; the lock keeps adds out of a search
            index = self._vector_index()
            allowed = self._mask(filters)
            n = len(self._children)
            if index is None or k <= 0 or not allowed.any():
                return []
            if allowed.all():
                params = (
                    faiss.SearchParametersHNSW(efSearch=max(40, 2 * k))  # type: ignore[attr-defined]
                    if n >= self.hnsw_min_size
                    else None
                )
                scores, rows = index.search(query, min(k, n), params=params)
                pairs = [
                    (int(r), float(s)) for r, s in zip(rows[0], scores[0], strict=True) if r >= 0
                ]
            else:
                rows = np.flatnonzero(allowed)
                sims = self._matrix[rows] @ query[0]
                best = np.argsort(-sims, kind="stable")[:k]
                pairs = [(int(rows[b]), float(sims[b])) for b in best]
            return top_k(((self._children[r].id, s) for r, s in pairs), k)

    def graph(
        self, seeds: Sequence[str], filters: RetrievalFilters, k: int, hops: int
    ) -> list[tuple[str, float]]:
        """Entity-graph walk from ``seeds``: ``(child_id, score)`` best first."""
        if not seeds:
            return []
        scores = self.graph_store.chunk_scores(
            filters.tenant, seeds, hops, neighbour_cap=self.neighbour_cap
        )
        with self._lock:
            allowed = self._mask(filters)
            pos = self._pos
        return top_k(((c, s) for c, s in scores.items() if c in pos and allowed[pos[c]]), k)

    def parents_of(self, child_ids: Sequence[str]) -> dict[str, str]:
        """Child id → parent id."""
        with self._lock:
            return {c: self._children[self._pos[c]].parent_id for c in child_ids if c in self._pos}

    def sections(self, parent_ids: Sequence[str]) -> dict[str, Section]:
        """Parent id → section (score unset)."""
        with self._lock:
            return {p: self._sections[p] for p in parent_ids if p in self._sections}

    def child_texts(self, child_ids: Sequence[str]) -> dict[str, str]:
        """Child id → text (with its heading, as embedded)."""
        with self._lock:
            return {c: self._children[self._pos[c]].text for c in child_ids if c in self._pos}

    def child_vectors(self, child_ids: Sequence[str]) -> dict[str, Sequence[float]]:
        """Child id → stored (L2-normalised) embedding."""
        with self._lock:
            self._vector_index()
            n = len(self._matrix)
            return {
                c: self._matrix[self._pos[c]]
                for c in child_ids
                if c in self._pos and self._pos[c] < n
            }

    # --- internals ----------------------------------------------------------------------------

    def _tenants(self) -> list[str]:
        return sorted({c.tenant for c in self._children})

    def _lexicon(self, tenant: str) -> _Lexicon:
        if tenant not in self._lexicons:
            positions = [i for i, c in enumerate(self._children) if c.tenant == tenant]
            self._lexicons[tenant] = _Lexicon(positions, [self._tokens[i] for i in positions])
        return self._lexicons[tenant]

    def _mask(self, filters: RetrievalFilters) -> np.ndarray:
        if filters not in self._masks:
            collections = set(filters.collections) if filters.collections else None
            tags = set(filters.tags or ())
            self._masks[filters] = np.fromiter(
                (
                    (filters.tenant is None or c.tenant == filters.tenant)
                    and (collections is None or c.collection in collections)
                    and tags <= c.tags
                    for c in self._children
                ),
                dtype=bool,
                count=len(self._children),
            )
        return self._masks[filters]

    def _vector_index(self) -> faiss.Index | None:
        """Bring the FAISS index up to date with the added children."""
        if self._pending:
            new = np.vstack(self._pending).astype(np.float32)
            faiss.normalize_L2(new)
            self._pending = []
            self._matrix = new if not len(self._matrix) else np.vstack([self._matrix, new])
            n, dim = self._matrix.shape
            hnsw = n >= self.hnsw_min_size
            if self._index is None or (hnsw and not isinstance(self._index, faiss.IndexHNSWFlat)):
                self._index = self._new_index(dim, hnsw)
                self._index.add(self._matrix)
            else:
                self._index.add(new)
        return self._index

    @staticmethod
    def _new_index(dim: int, hnsw: bool) -> faiss.Index:
        if not hnsw:
            return faiss.IndexFlatIP(dim)
        index = faiss.IndexHNSWFlat(dim, 16, faiss.METRIC_INNER_PRODUCT)
        index.hnsw.efConstruction = 64
        return index
