"""Run context of the ingestion graph: which components extract, embed and store."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from disputatio.settings import Settings, get_settings


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
                from disputatio.ingest import SpacyEntityExtractor

                self.entity_extractor = SpacyEntityExtractor(
                    dependency_relations=self.get_settings().ingest.dependency_relations,
                    batch_size=256,
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
