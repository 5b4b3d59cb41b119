"""Document processing for ingestion: extraction, OCR, chunking and entity extraction.

Pure Python, no database: :func:`extract` turns a file into an :class:`ExtractedDocument`,
:func:`chunk_document` cuts it into parent/child chunks, and an :class:`EntityExtractor` finds
entities, mentions and relations in the children (a :class:`DocumentGraph`). The indexing
code persists the results.
"""

from disputatio.ingest.chunking import chunk_document
from disputatio.ingest.entities import EntityExtractor, normalize_entity_name
from disputatio.ingest.extract import extract, sha256_file
from disputatio.ingest.llm_entities import LlmEntityExtractor
from disputatio.ingest.ocr import OcrEngine, RapidOcrEngine, RemoteVisionOcr
from disputatio.ingest.ocr_parser import OcrBlobParser, OcrInput
from disputatio.ingest.spacy_entities import SpacyEntityExtractor
from disputatio.ingest.tokens import count_tokens
from disputatio.ingest.types import (
    ChildChunk,
    DocumentGraph,
    Entity,
    ExtractedDocument,
    Mention,
    PageSpan,
    ParentChunk,
    Relation,
)

__all__ = [
    "ChildChunk",
    "DocumentGraph",
    "Entity",
    "EntityExtractor",
    "ExtractedDocument",
    "LlmEntityExtractor",
    "Mention",
    "OcrBlobParser",
    "OcrEngine",
    "OcrInput",
    "PageSpan",
    "ParentChunk",
    "RapidOcrEngine",
    "Relation",
    "RemoteVisionOcr",
    "SpacyEntityExtractor",
    "chunk_document",
    "count_tokens",
    "extract",
    "normalize_entity_name",
    "sha256_file",
]
