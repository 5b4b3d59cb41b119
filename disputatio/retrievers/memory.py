"""The retrieval funnel over an in-process corpus: no database, same fusion and scoring.

For people embedding a retriever in their own agent::

    funnel = InMemoryFunnel.from_paths(["notes/"])
    result = funnel.search("Who founded the Radium Institute?")

:class:`InMemoryBackend` implements :class:`~disputatio.retrievers.funnel.FunnelBackend`, so
:func:`~disputatio.retrievers.funnel.run_funnel` plans, fuses (weighted RRF), expands children to
parents, reranks, refuses and trims exactly as for Postgres. The channels:

* lexical — BM25 (``rank_bm25.BM25Okapi``, one index per tenant so statistics never mix tenants)
  over each child's heading and text, tokenised by :func:`tokenize` (lowercase unaccented
  Unicode words minus the planner's stop words; no stemming, unlike the Postgres index whose
  text-search configuration follows each document's language). Only chunks
  containing at least one query term are candidates, as with ``tsv @@ query``.
* semantic — FAISS inner product over L2-normalised child embeddings (cosine, like pgvector):
  exact ``IndexFlatIP``, or HNSW (M=16, efConstruction=64, efSearch=max(40, 2k), as the
  Postgres index) from ``hnsw_min_size`` children on. A scope that excludes some children is
  searched exactly over the allowed rows.
* graph — an :class:`~disputatio.retrievers.graphstore.InMemoryGraphStore`: whole-key seeds,
  one hop over counted edges (``graph_neighbour_cap`` per seed), scored as the SQL channel
  (documented in :mod:`disputatio.retrievers.graphstore`).

Tenant, collection and tag filters are honoured by every channel; ``tenant=None`` in a backend
call means every tenant (the funnel itself always fills in its default tenant). Indexes catch up
lazily: the first search after an add rebuilds that tenant's BM25 index and appends the new
vectors to FAISS (rebuilding it once as HNSW when the corpus crosses ``hnsw_min_size``).
"""

from __future__ import annotations

import hashlib
import re
import threading
import unicodedata
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import Any, Literal

import faiss
import numpy as np
from langchain_core.embeddings import Embeddings
from rank_bm25 import BM25Okapi

from disputatio.errors import ConfigError, IngestError
from disputatio.ingest import EntityExtractor, OcrEngine, chunk_document, extract, sha256_file
from disputatio.ingest.entities import ExtractionResult
from disputatio.ingest.extract import EXTENSIONS
from disputatio.ingest.text_formats import first_heading, normalize_newlines
from disputatio.ingest.types import ExtractedDocument, ParentChunk
from disputatio.models.rerank import Reranker
from disputatio.retrievers.base import RetrievalFilters
from disputatio.retrievers.funnel import FunnelConfig, run_funnel
from disputatio.retrievers.graphstore import NEIGHBOUR_CAP, InMemoryGraphStore, top_k
from disputatio.retrievers.plan import STOPWORDS, QueryPlan, deterministic_plan, llm_plan
from disputatio.settings import Settings, get_settings
from disputatio.state.retrieval import RetrievalResult, Section

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
        graph: ExtractionResult,
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
        entities, mentions, relations = graph
        self.graph_store.write_document(tenant, section.document_id, entities, mentions, relations)

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


@dataclass(frozen=True)
class _Item:
    doc: ExtractedDocument
    sha256: str
    source: str
    tenant: str
    collection: str
    tags: tuple[str, ...]


class InMemoryFunnel:
    """A :class:`~disputatio.retrievers.base.CorpusRetriever` over documents held in memory.

    Documents go through the ingestion code (extraction, parent/child chunking, entity
    extraction, embeddings) and are kept in an :class:`InMemoryBackend`. Chunk ids are derived
    from ``tenant/sha256`` exactly as the Postgres ingestion derives them.

    Args:
        settings: Settings (default: process settings): chunk sizes, funnel knobs, models.
        embeddings: Embedding model (default: from settings).
        reranker: Reranker (default: from settings).
        entity_extractor: An ``EntityExtractor``; None = the one settings name, False = none.
        ocr: OCR engine for scanned PDFs and images (default: none).
        config: Funnel knobs (default: from settings).
        tenant: Tenant of added documents and of searches without one (default: settings).
        collection: Collection of added documents (default: settings); searches span all.
        tags: Tags of added documents.
        planner: Query planner (default: the LLM planner when settings ask for it, else the
            deterministic one).
        hnsw_min_size: Children from which the vector index is HNSW instead of exact.
    """

    def __init__(
        self,
        *,
        settings: Settings | None = None,
        embeddings: Embeddings | None = None,
        reranker: Reranker | None = None,
        entity_extractor: EntityExtractor | Literal[False] | None = None,
        ocr: OcrEngine | None = None,
        config: FunnelConfig | None = None,
        tenant: str | None = None,
        collection: str | None = None,
        tags: Sequence[str] = (),
        planner: Callable[[str], QueryPlan] | None = None,
        hnsw_min_size: int = 50_000,
    ) -> None:
        from disputatio.models import get_embeddings, get_reranker

        self.settings = settings or get_settings()
        self.embeddings = embeddings or get_embeddings(settings=self.settings)
        self.reranker = reranker or get_reranker(settings=self.settings)
        self._extractor = entity_extractor
        self.ocr = ocr
        self.config = config or FunnelConfig.from_settings(self.settings)
        self.tenant = tenant or self.settings.tenant
        self.collection = collection or self.settings.collection
        self.tags = tuple(tags)
        self.planner = planner
        self.backend = InMemoryBackend(
            hnsw_min_size=hnsw_min_size,
            neighbour_cap=self.settings.retrieval.graph_neighbour_cap,
        )
        self._documents: dict[tuple[str, str], str] = {}
        self._lock = threading.Lock()

    @classmethod
    def from_paths(
        cls,
        paths: Sequence[str | Path],
        *,
        embeddings: Embeddings | None = None,
        entity_extractor: EntityExtractor | Literal[False] | None = None,
        settings: Settings | None = None,
        tenant: str | None = None,
        collection: str | None = None,
        tags: Sequence[str] = (),
        **options: Any,
    ) -> InMemoryFunnel:
        """A funnel over files and folders (``options``: the other constructor arguments)."""
        funnel = cls(
            embeddings=embeddings, entity_extractor=entity_extractor, settings=settings,
            tenant=tenant, collection=collection, tags=tags, **options,
        )  # fmt: skip
        funnel.add_paths(paths)
        return funnel

    @classmethod
    def from_texts(
        cls,
        texts: Sequence[str] | Sequence[tuple[str, Mapping[str, Any]]],
        *,
        embeddings: Embeddings | None = None,
        entity_extractor: EntityExtractor | Literal[False] | None = None,
        settings: Settings | None = None,
        tenant: str | None = None,
        collection: str | None = None,
        tags: Sequence[str] = (),
        **options: Any,
    ) -> InMemoryFunnel:
        """A funnel over markdown texts, each optionally with metadata (see :meth:`add_texts`)."""
        funnel = cls(
            embeddings=embeddings, entity_extractor=entity_extractor, settings=settings,
            tenant=tenant, collection=collection, tags=tags, **options,
        )  # fmt: skip
        funnel.add_texts(texts)
        return funnel

    def add_paths(
        self,
        paths: Sequence[str | Path],
        *,
        tenant: str | None = None,
        collection: str | None = None,
        tags: Sequence[str] | None = None,
    ) -> list[str]:
        """Extract and add files; folders are walked (hidden files and READMEs skipped).

        Returns:
            One document id per file (an unchanged file already added keeps its id).

        Raises:
            IngestError: A file cannot be read or holds no text.
        """
        max_bytes = int(self.settings.ingest.max_file_mb * 2**20)
        items = []
        for path in _files(paths):
            doc = extract(path, ocr=self.ocr, max_bytes=max_bytes)
            source = str(path.resolve())
            items.append(self._item(doc, sha256_file(path), source, tenant, collection, tags))
        return self._add(items)

    def add_texts(
        self,
        texts: Sequence[str] | Sequence[tuple[str, Mapping[str, Any]]],
        *,
        tenant: str | None = None,
        collection: str | None = None,
        tags: Sequence[str] | None = None,
    ) -> list[str]:
        """Add texts, read as markdown (headings become heading paths).

        Each entry is a text or ``(text, metadata)``; metadata keys ``source``, ``title``,
        ``tenant``, ``collection`` and ``tags`` override the defaults; other keys are ignored.
        Ids hash the text's UTF-8 bytes, as ingesting the same bytes from a file would.

        Returns:
            One document id per text.
        """
        items = []
        for entry in texts:
            text, meta = (entry, {}) if isinstance(entry, str) else entry
            markdown = normalize_newlines(text)
            sha = hashlib.sha256(text.encode()).hexdigest()
            title = meta.get("title") or first_heading(markdown) or markdown.strip()[:60]
            doc = ExtractedDocument(markdown, str(title), "md", metadata=dict(meta))
            items.append(
                self._item(
                    doc,
                    sha,
                    str(meta.get("source") or f"text:{sha[:12]}"),
                    meta.get("tenant") or tenant,
                    meta.get("collection") or collection,
                    meta.get("tags", tags),
                )
            )
        return self._add(items)

    def add_documents(
        self,
        documents: Sequence[ExtractedDocument],
        *,
        sources: Sequence[str] | None = None,
        tenant: str | None = None,
        collection: str | None = None,
        tags: Sequence[str] | None = None,
    ) -> list[str]:
        """Add already extracted documents (ids hash their markdown).

        Returns:
            One document id per document.
        """
        items = []
        for i, doc in enumerate(documents):
            sha = hashlib.sha256(doc.markdown.encode()).hexdigest()
            source = sources[i] if sources else doc.title
            items.append(self._item(doc, sha, source, tenant, collection, tags))
        return self._add(items)

    def search(
        self,
        query: str,
        *,
        k: int | None = None,
        threshold: float | None = None,
        filters: RetrievalFilters | None = None,
    ) -> RetrievalResult:
        """Run the funnel for ``query`` (default scope: this funnel's tenant)."""
        scope = filters or RetrievalFilters(tenant=self.tenant)
        if scope.tenant is None:
            scope = replace(scope, tenant=self.tenant)
        return run_funnel(
            query, self.backend, self.embeddings, self.reranker, self.config, scope,
            k=k, threshold=threshold, planner=self.plan,
        )  # fmt: skip

    def plan(self, query: str) -> QueryPlan:
        """Plan the query (the given planner, the LLM planner if configured, or deterministic)."""
        if self.planner is not None:
            return self.planner(query)
        if self.settings.retrieval.planner == "llm":
            from disputatio.models import get_chat_model

            self.planner = partial(
                llm_plan, llm=get_chat_model(role="planner", settings=self.settings)
            )
            return self.planner(query)
        return deterministic_plan(query)

    @property
    def entity_extractor(self) -> EntityExtractor | None:
        """The entity extractor in use (built from settings on first use), or None."""
        if self._extractor is None:
            kind = self.settings.ingest.entity_extractor
            if kind == "none":
                self._extractor = False
            elif kind == "llm":
                from disputatio.ingest import LlmEntityExtractor
                from disputatio.models import get_chat_model

                llm = get_chat_model(role="extractor", settings=self.settings)
                self._extractor = LlmEntityExtractor(llm)
            else:
                from disputatio.ingest import SpacyEntityExtractor

                self._extractor = SpacyEntityExtractor()
        return self._extractor or None

    def _item(
        self,
        doc: ExtractedDocument,
        sha: str,
        source: str,
        tenant: str | None,
        collection: str | None,
        tags: Sequence[str] | None,
    ) -> _Item:
        return _Item(
            doc, sha, source, tenant or self.tenant, collection or self.collection,
            tuple(self.tags if tags is None else tags),
        )  # fmt: skip

    def _add(self, items: Sequence[_Item]) -> list[str]:
        cfg = self.settings.ingest
        ids: list[str] = []
        todo: list[tuple[_Item, str, list[ParentChunk]]] = []
        with self._lock:
            for item in items:
                known = self._documents.get((item.tenant, item.sha256))
                if known is None:
                    known = str(uuid.uuid5(uuid.NAMESPACE_URL, f"{item.tenant}/{item.sha256}"))
                    parents = chunk_document(
                        item.doc, doc_key=f"{item.tenant}/{item.sha256}",
                        parent_min_tokens=cfg.parent_min_tokens,
                        parent_max_tokens=cfg.parent_max_tokens,
                        child_tokens=cfg.child_tokens, child_overlap=cfg.child_overlap,
                    )  # fmt: skip
                    if not parents:
                        raise IngestError(f"{item.source}: no text to index")
                    todo.append((item, known, parents))
                    self._documents[(item.tenant, item.sha256)] = known
                ids.append(known)
            children = [c for _, _, parents in todo for p in parents for c in p.children]
            texts = [embedding_text(c.heading_path, c.text) for c in children]
            vectors = self.embeddings.embed_documents(texts) if texts else []
            by_id = {c.id: v for c, v in zip(children, vectors, strict=True)}
            extractor = self.entity_extractor
            for item, doc_id, parents in todo:
                kids = [c for p in parents for c in p.children]
                graph = extractor.extract(kids) if extractor is not None else ([], [], [])
                template = Section(
                    id="", document_id=doc_id, source=item.source, title=item.doc.title, text=""
                )
                self.backend.add(
                    tenant=item.tenant, collection=item.collection, tags=item.tags,
                    section=template, parents=parents, embeddings=by_id, graph=graph,
                )  # fmt: skip
        return ids


def _files(paths: Sequence[str | Path]) -> list[Path]:
    """Files under ``paths``, as the ingestion graph discovers them."""
    files: list[Path] = []
    for raw in paths:
        path = Path(raw).expanduser()
        if not path.is_dir():
            files.append(path)
            continue
        for child in sorted(path.rglob("*")):
            hidden = any(part.startswith(".") for part in child.relative_to(path).parts)
            wanted = child.suffix.lower() in EXTENSIONS and child.stem.upper() != "README"
            if child.is_file() and not hidden and wanted:
                files.append(child)
    return files
