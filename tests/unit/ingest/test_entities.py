"""Entity extraction: normalisation, the spaCy extractor and the LLM extractor (fake model)."""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.runnables import Runnable, RunnableLambda

from disputatio.errors import ModelError
from disputatio.ingest.entities import (
    CO_OCCURS,
    EntityExtractor,
    normalize_entity_name,
    relation_type,
)
from disputatio.ingest.llm_entities import (
    ExtractedGraph,
    GraphEntity,
    GraphRelation,
    LlmEntityExtractor,
)
from disputatio.ingest.spacy_entities import SpacyEntityExtractor
from disputatio.ingest.types import ChildChunk, DocumentGraph


def _chunk(text: str, chunk_id: str = "c1", ordinal: int = 0) -> ChildChunk:
    return ChildChunk(
        id=chunk_id,
        text=text,
        char_start=0,
        char_end=len(text),
        page=None,
        heading_path=(),
        token_count=0,
        ordinal=ordinal,
        parent_id="p1",
    )


@pytest.mark.parametrize(
    ("name", "key"),
    [
        ("The University of Paris", "university of paris"),
        ("university  of paris.", "university of paris"),
        ("the UNIVERSITY of Paris", "university of paris"),
        ("Curie's", "curie"),
        ("Ｍarie　Curie", "marie curie"),  # full-width letters and space (NFKC)
        ("A Tale of Two Cities", "tale of two cities"),
        ("AT&T", "at t"),
        ("  ", ""),
    ],
)
def test_normalize_entity_name(name: str, key: str) -> None:
    assert normalize_entity_name(name) == key


def test_relation_type() -> None:
    assert relation_type("Works At") == "works_at"
    assert relation_type("...") == "related_to"


TEXT = (
    "Marie Curie worked at the University of Paris. "
    "Pierre Curie and Marie Curie lived in France. "
    "The University of Paris honoured Marie Curie in 1911."
)


def test_spacy_finds_entities_and_relations(spacy_extractor: SpacyEntityExtractor) -> None:
    assert isinstance(spacy_extractor, EntityExtractor)
    chunks = [_chunk(TEXT)]
    graph = spacy_extractor.extract(chunks)
    entities, mentions, relations = graph.entities, graph.mentions, graph.relations
    by_key = {e.key: e for e in entities}
    assert by_key["marie curie"].label == "PERSON"
    assert by_key["university of paris"].label == "ORG"
    assert by_key["university of paris"].name == "University of Paris"
    assert "france" in by_key
    # "the University of Paris" and "The University of Paris" are one entity, two mentions.
    # (The small spaCy model does not tag an all-lower-case "university of paris" at all; the
    # normalisation of that spelling is covered by test_normalize_entity_name.)
    uni = [m for m in mentions if m.entity_key == "university of paris"]
    assert len(uni) == 2
    for mention in mentions:
        assert chunks[0].text[mention.start : mention.end] == mention.text
        assert mention.chunk_id == "c1"
    marie = [m for m in mentions if m.entity_key == "marie curie"]
    assert len(marie) == 3

    edges = {(r.source, r.target, r.type): r for r in relations}
    # Co-occurrence: sorted endpoints; Marie Curie and the university share sentences 1 and 3.
    co = edges[("marie curie", "university of paris", CO_OCCURS)]
    assert co.weight == 2
    assert co.evidence_chunk_id == "c1"
    # Subject-verb-object: "Marie Curie worked at the University of Paris".
    work = edges[("marie curie", "university of paris", "work")]
    assert work.weight == 1


def test_spacy_aggregates_across_chunks(spacy_extractor: SpacyEntityExtractor) -> None:
    chunks = [
        _chunk("Marie Curie worked at the University of Paris.", "a", 0),
        _chunk("In 1911 Marie Curie was again at the University of Paris.", "b", 1),
    ]
    graph = spacy_extractor.extract(chunks)
    entities, mentions, relations = graph.entities, graph.mentions, graph.relations
    assert len([e for e in entities if e.key == "marie curie"]) == 1
    assert {m.chunk_id for m in mentions if m.entity_key == "marie curie"} == {"a", "b"}
    co = next(r for r in relations if r.type == CO_OCCURS and r.target == "university of paris")
    assert (co.source, co.weight, co.evidence_chunk_id) == ("marie curie", 2, "a")
    assert spacy_extractor.extract([]) == DocumentGraph()


def test_spacy_without_dependency_relations() -> None:
    extractor = SpacyEntityExtractor(dependency_relations=False)
    graph = extractor.extract([_chunk(TEXT)])
    assert {"marie curie", "university of paris"} <= {e.key for e in graph.entities}
    assert graph.relations and all(r.type == CO_OCCURS for r in graph.relations)
    assert "parser" not in extractor.nlp.pipe_names


class _FakeStructuredChatModel:
    """Just enough of a chat model: ``with_structured_output`` returns a canned Runnable."""

    def __init__(self, answers: dict[str, Any]) -> None:
        self.answers = answers
        self.calls: list[tuple[Any, str]] = []

    def with_structured_output(self, schema: Any, *, method: str) -> Runnable[Any, Any]:
        self.calls.append((schema, method))

        def answer(messages: list[Any]) -> Any:
            result = self.answers[messages[-1].content]
            if isinstance(result, Exception):
                raise result
            return result

        return RunnableLambda(answer)


def test_llm_extractor_with_fake_model() -> None:
    text_a = "Marie Curie worked at the University of Paris."
    text_b = "The University of Paris is in France."
    graph_a = ExtractedGraph(
        entities=[
            GraphEntity(name="Marie Curie", label="PERSON"),
            GraphEntity(name="University of Paris", label="ORG"),
            GraphEntity(name="Albert Einstein", label="PERSON"),  # not in the text: dropped
        ],
        relations=[
            GraphRelation(source="Marie Curie", target="University of Paris", relation="works at"),
            GraphRelation(source="Albert Einstein", target="Marie Curie", relation="knew"),
        ],
    )
    graph_b = {  # a plain dict answer is validated against the schema too
        "entities": [
            {"name": "the University of Paris", "label": "ORG"},
            {"name": "France", "label": "GPE"},
        ],
        "relations": [
            {"source": "University of Paris", "target": "France", "relation": "located in"}
        ],
    }
    model = _FakeStructuredChatModel({text_a: graph_a, text_b: graph_b})
    extractor = LlmEntityExtractor(model)  # type: ignore[arg-type]
    assert model.calls == [(ExtractedGraph, "json_schema")]
    chunks = [_chunk(text_a, "a", 0), _chunk(text_b, "b", 1)]
    graph = extractor.extract(chunks)
    entities, mentions, relations = graph.entities, graph.mentions, graph.relations
    assert {e.key: e.label for e in entities} == {
        "marie curie": "PERSON",
        "university of paris": "ORG",
        "france": "GPE",
    }
    for mention in mentions:
        chunk = chunks[0] if mention.chunk_id == "a" else chunks[1]
        assert chunk.text[mention.start : mention.end] == mention.text
    assert {(r.source, r.target, r.type, r.evidence_chunk_id) for r in relations} == {
        ("marie curie", "university of paris", "works_at", "a"),
        ("university of paris", "france", "located_in", "b"),
    }


def test_llm_extractor_wraps_model_failures() -> None:
    model = _FakeStructuredChatModel({"boom": RuntimeError("server down\nsecond line")})
    extractor = LlmEntityExtractor(model)  # type: ignore[arg-type]
    with pytest.raises(ModelError, match=r"failed: server down$"):
        extractor.extract([_chunk("boom")])
    bad = _FakeStructuredChatModel({"bad": {"entities": [{"name": "x", "label": "NOPE"}]}})
    with pytest.raises(ModelError, match="broke the schema"):
        LlmEntityExtractor(bad).extract([_chunk("bad")])  # type: ignore[arg-type]


def test_spacy_proper_noun_chunks_are_optional(spacy_extractor: SpacyEntityExtractor) -> None:
    from disputatio.ingest.spacy_entities import PROPER_NOUN_LABEL

    text = "Curie used the Geiger counter at Radium Institute."
    # The small model's NER misses the lone "Curie" here; the noun-chunk option recovers it.
    plain = spacy_extractor.extract([_chunk(text)]).entities
    assert "curie" not in {e.key for e in plain}
    extractor = SpacyEntityExtractor(proper_noun_chunks=True)
    extractor._nlp = spacy_extractor.nlp  # reuse the loaded pipeline (same configuration)
    graph = extractor.extract([_chunk(text)])
    curie = next(e for e in graph.entities if e.key == "curie")
    assert curie.label == PROPER_NOUN_LABEL
    assert any(m.entity_key == "curie" and m.text == "Curie" for m in graph.mentions)
