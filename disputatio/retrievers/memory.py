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
import threading
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, Literal

from langchain_core.embeddings import Embeddings

from disputatio.errors import IngestError
from disputatio.ingest import EntityExtractor, OcrInput, chunk_document, extract, sha256_file
from disputatio.ingest.extract import EXTENSIONS
from disputatio.ingest.text_formats import first_heading, normalize_newlines
from disputatio.ingest.types import DocumentGraph, ExtractedDocument, ParentChunk
from disputatio.models.rerank import Reranker
from disputatio.retrievers.base import RetrievalFilters
from disputatio.retrievers.funnel import FunnelConfig
from disputatio.retrievers.funnel_search import FunnelSearch
from disputatio.retrievers.memory_backend import InMemoryBackend, embedding_text, tokenize
from disputatio.retrievers.plan import QueryPlan, deterministic_plan, llm_plan
from disputatio.settings import Settings, get_settings
from disputatio.state.retrieval import Section

__all__ = ["InMemoryBackend", "InMemoryFunnel", "embedding_text", "tokenize"]


@dataclass(frozen=True)
class _Item:
    doc: ExtractedDocument
    sha256: str
    source: str
    tenant: str
    collection: str
    tags: tuple[str, ...]


class InMemoryFunnel(FunnelSearch):
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
        ocr: OcrInput | None = None,
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
        self.tenant = self.settings.run_tenant(tenant)
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
    def from_paths(cls, paths: Sequence[str | Path], **options: Any) -> InMemoryFunnel:
        """A funnel over files and folders (``options``: the constructor's keyword arguments)."""
        funnel = cls(**options)
        funnel.add_paths(paths)
        return funnel

    @classmethod
    def from_texts(
        cls, texts: Sequence[str] | Sequence[tuple[str, Mapping[str, Any]]], **options: Any
    ) -> InMemoryFunnel:
        """A funnel over markdown texts, each optionally with metadata (see :meth:`add_texts`).

        ``options`` are the constructor's keyword arguments.
        """
        funnel = cls(**options)
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

    @property
    def default_filters(self) -> RetrievalFilters:
        """The scope of a search that passes none: this funnel's tenant."""
        return RetrievalFilters(tenant=self.tenant)

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
                        child_close_tokens=cfg.child_close_tokens,
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
                graph = extractor.extract(kids) if extractor is not None else DocumentGraph()
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
