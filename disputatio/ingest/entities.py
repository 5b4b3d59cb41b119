"""Entity and relation extraction: the protocol, name normalisation and graph accumulation.

Concrete extractors live in :mod:`disputatio.ingest.spacy_entities` (fast, local, spaCy NER plus
co-occurrence and subject-verb-object patterns) and :mod:`disputatio.ingest.llm_entities` (a chat
model with structured output). Both report :class:`Entity` objects de-duplicated by
:func:`normalize_entity_name`, one :class:`Mention` per occurrence and weighted
:class:`Relation` edges.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from disputatio.ingest.types import ChildChunk, DocumentGraph, Entity, Mention, Relation

CO_OCCURS = "co_occurs"
"""Relation type for two entities mentioned in the same sentence (endpoints sorted)."""

ENTITY_LABELS = frozenset(
    {"PERSON", "ORG", "GPE", "PRODUCT", "EVENT", "WORK_OF_ART", "LAW", "NORP", "FAC", "LOC"}
)
"""spaCy entity labels worth keeping (dates, numbers and quantities are dropped)."""

_ARTICLES = frozenset({"the", "a", "an"})
_POSSESSIVE = re.compile(r"['\u2019\u02bc]s\b")
_LEADING_ARTICLE = re.compile(r"^(?:the|a|an)\s+", re.IGNORECASE)


@runtime_checkable
class EntityExtractor(Protocol):
    """Anything that finds entities, their mentions and relations in child chunks."""

    def extract(self, chunks: list[ChildChunk]) -> DocumentGraph:
        """Extract entities, mentions and relations.

        Args:
            chunks: Child chunks, usually all children of one document.

        Returns:
            The chunks' graph; entities are unique by key.
        """
        ...


def normalize_entity_name(name: str) -> str:
    """Normalise an entity name into a de-duplication key.

    NFKC-normalises and case-folds, drops possessive ``'s``, turns punctuation and symbols into
    spaces, drops leading articles and collapses whitespace: ``"The University of Paris"`` and
    ``"university  of paris."`` both become ``"university of paris"``.

    Args:
        name: A surface form.

    Returns:
        The key ("" when nothing is left).
    """
    text = unicodedata.normalize("NFKC", name).casefold()
    text = _POSSESSIVE.sub("", text)
    text = "".join(" " if unicodedata.category(ch)[0] in "PS" else ch for ch in text)
    words = text.split()
    while words and words[0] in _ARTICLES:
        words.pop(0)
    return " ".join(words)


def display_name(surface: str) -> str:
    """Return a surface form cleaned for display (whitespace collapsed, leading article dropped)."""
    text = " ".join(unicodedata.normalize("NFKC", surface).split())
    stripped = _LEADING_ARTICLE.sub("", text)
    return stripped or text


def relation_type(text: str) -> str:
    """Normalise a relation name: lower case, words joined by ``_`` (e.g. ``"works_at"``)."""
    words = normalize_entity_name(text).split()
    return "_".join(words) or "related_to"


@dataclass
class _Edge:
    weight: int
    evidence_chunk_id: str


@dataclass
class GraphAccumulator:
    """Collects mentions and relations, then emits de-duplicated entities and weighted edges."""

    labels: dict[str, Counter[str]] = field(default_factory=dict)
    names: dict[str, Counter[str]] = field(default_factory=dict)
    mentions: list[Mention] = field(default_factory=list)
    edges: dict[tuple[str, str, str], _Edge] = field(default_factory=dict)

    def add_mention(
        self, chunk: ChildChunk, start: int, end: int, label: str, *, key: str | None = None
    ) -> str | None:
        """Record that ``chunk.text[start:end]`` mentions an entity.

        Args:
            chunk: The child chunk.
            start: Mention start in ``chunk.text``.
            end: Mention end (exclusive) in ``chunk.text``.
            label: Entity type for this occurrence.
            key: The entity key; computed from the surface form when None.

        Returns:
            The entity key, or None when the surface form normalises to nothing.
        """
        surface = chunk.text[start:end]
        key = key if key is not None else normalize_entity_name(surface)
        if not key:
            return None
        self.labels.setdefault(key, Counter())[label] += 1
        self.names.setdefault(key, Counter())[display_name(surface)] += 1
        self.mentions.append(Mention(key, chunk.id, start, end, surface))
        return key

    def add_relation(self, source: str, target: str, kind: str, chunk_id: str) -> None:
        """Count one observation of ``source -kind-> target`` (co-occurrence is undirected)."""
        if source == target:
            return
        if kind == CO_OCCURS and target < source:
            source, target = target, source
        edge = self.edges.setdefault((source, target, kind), _Edge(0, chunk_id))
        edge.weight += 1

    def build(self) -> DocumentGraph:
        """Return the graph collected so far; entities sorted by key."""
        entities = [
            Entity(key=key, name=_top(self.names[key]), label=_top(self.labels[key]))
            for key in sorted(self.labels)
        ]
        relations = [
            Relation(source, target, kind, edge.weight, edge.evidence_chunk_id)
            for (source, target, kind), edge in self.edges.items()
        ]
        return DocumentGraph.of(entities, self.mentions, relations)


def _top(counter: Counter[str]) -> str:
    """Most common value; ties broken alphabetically for determinism."""
    return min(counter.items(), key=lambda item: (-item[1], item[0]))[0]
