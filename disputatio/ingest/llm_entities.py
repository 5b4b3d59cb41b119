"""Entity and relation extraction with a chat model's structured output.

Each child chunk is sent to ``chat_model.with_structured_output(ExtractedGraph,
method="json_schema")``. Entities the model names but that do not occur in the chunk text are
dropped (a guard against invented entities); every occurrence of a kept entity becomes a mention;
relations are kept when both endpoints were kept.
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any, Literal

from langchain_core.messages import HumanMessage, SystemMessage
from pydantic import BaseModel, Field, ValidationError

from disputatio.errors import ModelError
from disputatio.ingest.entities import (
    GraphAccumulator,
    normalize_entity_name,
    relation_type,
)
from disputatio.ingest.types import ChildChunk, DocumentGraph
from disputatio.ingest.util import one_line

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel, LanguageModelInput

logger = logging.getLogger(__name__)

EntityLabel = Literal[
    "PERSON",
    "ORG",
    "GPE",
    "LOC",
    "FAC",
    "NORP",
    "PRODUCT",
    "EVENT",
    "WORK_OF_ART",
    "LAW",
    "CONCEPT",
    "OTHER",
]

ENTITY_EXTRACTION_PROMPT = (
    "You extract a knowledge graph from a passage of a document.\n"
    "List the named entities (people, organisations, places, products, events, works, laws, "
    "groups, and key technical concepts) exactly as they are written in the passage, each with "
    "one label. Then list relations between those entities that the passage states, each as "
    "source, target and a short lower-case verb phrase (e.g. 'works at', 'founded', "
    "'located in'). Use only the passage; do not add outside knowledge. Return empty lists when "
    "there is nothing to extract."
)
"""System prompt for :class:`LlmEntityExtractor` (the passage follows as the user message)."""


class GraphEntity(BaseModel):
    """An entity named in the passage."""

    name: str = Field(description="The entity exactly as written in the passage.")
    label: EntityLabel = Field(description="The entity type.")


class GraphRelation(BaseModel):
    """A relation stated in the passage between two listed entities."""

    source: str = Field(description="Name of the source entity, as listed in entities.")
    target: str = Field(description="Name of the target entity, as listed in entities.")
    relation: str = Field(description="Short lower-case verb phrase, e.g. 'works at'.")


class ExtractedGraph(BaseModel):
    """Entities and relations extracted from one passage."""

    entities: list[GraphEntity] = Field(default_factory=list)
    relations: list[GraphRelation] = Field(default_factory=list)


def _occurrences(text: str, name: str) -> list[tuple[int, int]]:
    pattern = re.compile(r"(?<!\w)" + re.escape(name.strip()) + r"(?!\w)", re.IGNORECASE)
    return [(m.start(), m.end()) for m in pattern.finditer(text)] if name.strip() else []


class LlmEntityExtractor:
    """Entity extraction by a LangChain chat model with JSON-schema structured output.

    Args:
        chat_model: Any langchain-core ``BaseChatModel`` supporting structured output.
        prompt: The system prompt.
        max_concurrency: Chunks sent to the model at once.
    """

    def __init__(
        self,
        chat_model: BaseChatModel,
        *,
        prompt: str = ENTITY_EXTRACTION_PROMPT,
        max_concurrency: int = 4,
    ) -> None:
        self.prompt = prompt
        self.max_concurrency = max_concurrency
        self._runnable = chat_model.with_structured_output(ExtractedGraph, method="json_schema")

    def _ask(self, chunks: list[ChildChunk]) -> list[ExtractedGraph]:
        inputs: list[LanguageModelInput] = [
            [SystemMessage(content=self.prompt), HumanMessage(content=chunk.text)]
            for chunk in chunks
        ]
        try:
            answers: list[Any] = self._runnable.batch(
                inputs, config={"max_concurrency": self.max_concurrency}
            )
        except Exception as exc:
            raise ModelError(
                f"entity extraction by the chat model failed: {one_line(exc)}"
            ) from exc
        graphs = []
        for answer in answers:
            if isinstance(answer, ExtractedGraph):
                graphs.append(answer)
            elif answer is None:
                graphs.append(ExtractedGraph())
            else:
                try:
                    graphs.append(ExtractedGraph.model_validate(answer))
                except ValidationError as exc:
                    raise ModelError("entity extraction: the chat model broke the schema") from exc
        return graphs

    def extract(self, chunks: list[ChildChunk]) -> DocumentGraph:
        """Extract entities, mentions and relations from child chunks.

        Args:
            chunks: Child chunks; mention offsets refer to each chunk's ``text``.

        Returns:
            The chunks' graph.

        Raises:
            ModelError: The chat model failed or answered outside the schema.
        """
        graph = GraphAccumulator()
        if not chunks:
            return graph.build()
        for chunk, answer in zip(chunks, self._ask(chunks), strict=True):
            kept: set[str] = set()
            for entity in answer.entities:
                key = normalize_entity_name(entity.name)
                spans = _occurrences(chunk.text, entity.name)
                if not key or not spans:
                    logger.debug("dropping entity %r: not in chunk %s", entity.name, chunk.id)
                    continue
                for start, end in spans:
                    graph.add_mention(chunk, start, end, entity.label, key=key)
                kept.add(key)
            for rel in answer.relations:
                source = normalize_entity_name(rel.source)
                target = normalize_entity_name(rel.target)
                if source in kept and target in kept:
                    graph.add_relation(source, target, relation_type(rel.relation), chunk.id)
        return graph.build()
