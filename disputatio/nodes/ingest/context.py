"""Run context of the ingestion graph: which components extract, embed and store.

The spaCy entity extractor built from settings is loaded once per process and shared by every
run (:func:`shared_spacy_extractor`): a run given no context (a worker's batch, ``disputatio
ingest``) builds a fresh :class:`IngestContext` in every node, and each batch used to load the
spaCy pipeline again (~0.5 s of CPU, beside the embedding model).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

from disputatio.settings import Settings, get_settings

_spacy_lock = threading.Lock()
_spacy_extractors: dict[bool, SharedExtractor] = {}


class SharedExtractor:
    """An entity extractor shared by threads: one call at a time.

    spaCy's ``Language`` is not documented as safe to run from several threads at once (its
    string store grows while it runs), so calls are serialised; on the few cores an ingestion
    worker has, two pipelines at once would only contend anyway.

    Args:
        inner: The extractor (``extract`` and ``extract_batch``).
    """

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self._lock = threading.Lock()

    def extract(self, chunks: list[Any]) -> Any:
        """The inner extractor's ``extract``, under the lock."""
        with self._lock:
            return self.inner.extract(chunks)

    def extract_batch(self, groups: list[list[Any]]) -> list[Any]:
        """The inner extractor's ``extract_batch``, under the lock."""
        with self._lock:
            return list(self.inner.extract_batch(groups))


def shared_spacy_extractor(dependency_relations: bool) -> SharedExtractor:
    """The process's spaCy extractor for ``dependency_relations`` (built on first use).

    Its pipeline loads on the first extraction, once per process.
    """
    with _spacy_lock:
        if dependency_relations not in _spacy_extractors:
            from disputatio.ingest import SpacyEntityExtractor

            _spacy_extractors[dependency_relations] = SharedExtractor(
                SpacyEntityExtractor(dependency_relations=dependency_relations, batch_size=256)
            )
        return _spacy_extractors[dependency_relations]


@dataclass
class IngestContext:
    """Components of an ingestion run (each ``None`` = built from settings).

    Attributes:
        settings: Settings (default: process settings).
        embeddings: LangChain ``Embeddings``.
        entity_extractor: An ``EntityExtractor`` (``False`` disables entity extraction).
        ocr: An ``OcrEngine`` or a LangChain ``BaseBlobParser`` (one Document per page;
            ``False`` disables OCR).
        graph_store: Extra graph store (e.g. Neo4j), fed through the outbox that each
            document's transaction writes (``False`` disables it; ``None`` = from settings:
            Neo4j when ``NEO4J_URI`` is set). Postgres is always written inside the document
            transaction.
    """

    settings: Any = None
    embeddings: Any = None
    entity_extractor: Any = None
    ocr: Any = None
    graph_store: Any = None

    def get_settings(self) -> Settings:
        """Settings in force."""
        return self.settings if isinstance(self.settings, Settings) else get_settings()

    def get_embeddings(self) -> Any:
        """The embedding model."""
        if self.embeddings is None:
            from disputatio.models import get_embeddings

            self.embeddings = get_embeddings(settings=self.get_settings())
        return self.embeddings

    def get_entity_extractor(self) -> Any:
        """The entity extractor, or None when disabled."""
        if self.entity_extractor is False:
            return None
        if self.entity_extractor is None:
            kind = self.get_settings().ingest.entity_extractor
            if kind == "none":
                return None
            if kind == "llm":
                from disputatio.ingest import LlmEntityExtractor
                from disputatio.models import get_chat_model

                self.entity_extractor = LlmEntityExtractor(
                    get_chat_model(role="extractor", settings=self.get_settings())
                )
            else:
                self.entity_extractor = shared_spacy_extractor(
                    self.get_settings().ingest.dependency_relations
                )
        return self.entity_extractor

    def get_graph_store(self) -> Any:
        """The extra graph store fed by the outbox, or None."""
        if self.graph_store is False:
            return None
        if self.graph_store is None:
            from disputatio.retrievers.graphstore import graph_store_from_settings

            self.graph_store = graph_store_from_settings(self.get_settings()) or False
            return self.graph_store or None
        return self.graph_store

    def get_ocr(self) -> Any:
        """The OCR engine, or None when disabled."""
        if self.ocr is False:
            return None
        if self.ocr is None:
            spec = self.get_settings().ingest.ocr
            if spec == "none":
                return None
            if spec.startswith("remote:"):
                from disputatio.ingest import RemoteVisionOcr

                model, _, base_url = spec.removeprefix("remote:").rpartition("@")
                self.ocr = RemoteVisionOcr(base_url=base_url, model=model)
            else:
                from disputatio.ingest import RapidOcrEngine

                self.ocr = RapidOcrEngine()
        return self.ocr
