"""Plain, immutable data produced by document ingestion.

Everything here is a frozen dataclass of builtin values so that the indexing code can persist it
without knowing how it was made. Sequences are tuples (hashable, immutable); character offsets
always index :attr:`ExtractedDocument.markdown`, so ``doc.markdown[c.char_start:c.char_end] ==
c.text`` holds for every chunk.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import astuple, dataclass, field
from typing import Any, Literal

SourceKind = Literal["txt", "md", "html", "pdf", "docx", "image"]
"""The kind of file a document was extracted from."""


@dataclass(frozen=True)
class PageSpan:
    """A page's character span in the extracted markdown.

    Attributes:
        page: 1-based page number.
        start: Offset of the page's first character in the markdown.
        end: Offset one past the page's last character.
    """

    page: int
    start: int
    end: int


@dataclass(frozen=True)
class ExtractedDocument:
    """A document converted to markdown, with page spans and provenance.

    Attributes:
        markdown: The document's text as markdown (headings, paragraphs, tables).
        title: A human-readable title (metadata, first heading, or the file name).
        source_kind: The detected kind of the source file.
        pages: Page spans in ``markdown`` (empty for formats without pages).
        ocr_used: True when any of the text came from OCR.
        warnings: One-line notes about lossy or guessed steps (encoding guesses, skipped pages).
        metadata: Format-specific extras (page count, author, detected encoding...).
    """

    markdown: str
    title: str
    source_kind: SourceKind
    pages: tuple[PageSpan, ...] = ()
    ocr_used: bool = False
    warnings: tuple[str, ...] = ()
    metadata: dict[str, Any] = field(default_factory=dict)

    def page_at(self, offset: int) -> int | None:
        """Return the page containing ``offset``.

        Args:
            offset: A character offset into :attr:`markdown`.

        Returns:
            The page whose span contains the offset; when the offset falls between spans, the
            last page starting before it; None when the document has no pages.
        """
        found: int | None = None
        for span in self.pages:
            if span.start <= offset < span.end:
                return span.page
            if span.start <= offset:
                found = span.page
        if found is None and self.pages:
            return self.pages[0].page
        return found


@dataclass(frozen=True)
class Chunk:
    """A span of a document's markdown: what child and parent chunks share.

    Attributes:
        id: Stable id derived from the document key and the character span.
        text: Exactly ``markdown[char_start:char_end]``.
        char_start: Start offset in the document markdown.
        char_end: End offset (exclusive) in the document markdown.
        page: The page containing ``char_start`` (None for documents without pages).
        heading_path: Headings in effect at ``char_start``, outermost first.
        token_count: Tokens in ``text`` under the embedding model's tokenizer.
        ordinal: 0-based position among the document's chunks of the same kind.
    """

    id: str
    text: str
    char_start: int
    char_end: int
    page: int | None
    heading_path: tuple[str, ...]
    token_count: int
    ordinal: int


@dataclass(frozen=True)
class ChildChunk(Chunk):
    """A small (~200 token) retrieval unit inside a parent chunk.

    Besides :class:`Chunk`'s attributes (``ordinal``: among all children of the document):

    Attributes:
        parent_id: Id of the enclosing :class:`ParentChunk`.
    """

    parent_id: str


@dataclass(frozen=True)
class ParentChunk(Chunk):
    """A large (~800-1000 token) context unit returned to the model after retrieval.

    Besides :class:`Chunk`'s attributes (``ordinal``: among the document's parents):

    Attributes:
        children: The child chunks inside this parent, in document order.
    """

    children: tuple[ChildChunk, ...] = ()


@dataclass(frozen=True)
class Entity:
    """A named entity, de-duplicated by its normalised key.

    Attributes:
        key: Normalised name (see :func:`disputatio.ingest.entities.normalize_entity_name`).
        name: The most frequent surface form, for display.
        label: Entity type (spaCy-style, e.g. ``PERSON``, ``ORG``, ``GPE``).
    """

    key: str
    name: str
    label: str


@dataclass(frozen=True)
class Mention:
    """One occurrence of an entity in a child chunk.

    Attributes:
        entity_key: The :attr:`Entity.key` mentioned.
        chunk_id: The :attr:`ChildChunk.id` containing the mention.
        start: Offset of the mention in the chunk's ``text``.
        end: End offset (exclusive) in the chunk's ``text``.
        text: The surface form, ``chunk.text[start:end]``.
    """

    entity_key: str
    chunk_id: str
    start: int
    end: int
    text: str


@dataclass(frozen=True)
class Relation:
    """A directed, typed, weighted edge between two entities.

    Attributes:
        source: Key of the source entity (the subject for verb relations).
        target: Key of the target entity.
        type: ``"co_occurs"`` (sorted endpoints) or a verb lemma such as ``"work"``.
        weight: How many times the relation was observed.
        evidence_chunk_id: Id of the first child chunk where it was observed.
    """

    source: str
    target: str
    type: str
    weight: int
    evidence_chunk_id: str


@dataclass(frozen=True)
class DocumentGraph:
    """One document's entity graph: what an extractor returns and every graph store writes.

    Attributes:
        entities: The entities found (unique by key when an extractor built them).
        mentions: Their occurrences in the document's child chunks.
        relations: Edges between them.
    """

    entities: tuple[Entity, ...] = ()
    mentions: tuple[Mention, ...] = ()
    relations: tuple[Relation, ...] = ()

    @classmethod
    def of(
        cls,
        entities: Iterable[Entity] = (),
        mentions: Iterable[Mention] = (),
        relations: Iterable[Relation] = (),
    ) -> DocumentGraph:
        """Build a graph from any iterables (lists, generators...)."""
        return cls(tuple(entities), tuple(mentions), tuple(relations))

    def linked(self) -> DocumentGraph:
        """The graph as stores keep it: what hangs on the entities it names.

        Returns:
            One entity per key (the last given; keys in order of first appearance), the
            mentions of those keys and the relations whose both ends are among them.
        """
        own = {e.key: e for e in self.entities}
        return DocumentGraph(
            tuple(own.values()),
            tuple(m for m in self.mentions if m.entity_key in own),
            tuple(r for r in self.relations if r.source in own and r.target in own),
        )

    def to_payload(self) -> dict[str, list[list[Any]]]:
        """The graph as JSON-ready lists: each item's fields in declaration order."""
        return {
            "entities": [list(astuple(e)) for e in self.entities],
            "mentions": [list(astuple(m)) for m in self.mentions],
            "relations": [list(astuple(r)) for r in self.relations],
        }

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> DocumentGraph:
        """Rebuild a graph from :meth:`to_payload`'s lists (a missing list is empty)."""
        return cls.of(
            (Entity(*e) for e in payload.get("entities", [])),
            (Mention(*m) for m in payload.get("mentions", [])),
            (Relation(*r) for r in payload.get("relations", [])),
        )
