"""Graph seeds from the query: the ingestion NER's entities first, then whole-key n-grams."""

from __future__ import annotations

import pytest

from disputatio.ingest.entities import normalize_entity_name
from disputatio.retrievers.plan import deterministic_plan, query_entities, with_query_entities
from disputatio.settings import load_settings

pytest.importorskip("spacy")

QUERY = "Was Marie Curie awarded the Nobel Prize in Stockholm for work on radium?"


def test_query_entities_come_from_the_ingestion_ner() -> None:
    from disputatio.ingest.spacy_entities import SpacyEntityExtractor
    from disputatio.ingest.types import ChildChunk

    settings = load_settings()
    keys = query_entities(QUERY, settings)
    assert "marie curie" in keys and "stockholm" in keys
    # the same keys ingestion would store for this text (same extractor, same normalisation)
    chunk = ChildChunk("c", QUERY, 0, len(QUERY), None, (), 0, 0, "p")
    stored = SpacyEntityExtractor(dependency_relations=False).extract([chunk]).entities
    assert set(keys) == {e.key for e in stored}
    assert all(k == normalize_entity_name(k) for k in keys)
    # no entity in the question: no NER seeds
    assert query_entities("is it raining today?", settings) == []


def test_ner_seeds_lead_and_whole_key_ngrams_follow() -> None:
    settings = load_settings()
    plan = deterministic_plan(QUERY)
    seeded = with_query_entities(plan, QUERY, settings)
    ner = query_entities(QUERY, settings)
    assert seeded.graph_seeds[: len(ner)] == ner
    assert set(plan.graph_seeds) <= set(seeded.graph_seeds)  # n-gram keys are kept
    assert len(seeded.graph_seeds) == len(set(seeded.graph_seeds))  # no duplicates
    assert seeded.keywords == plan.keywords  # only the graph seeds change


def test_other_extractors_give_no_query_ner() -> None:
    settings = load_settings(ingest={"entity_extractor": "llm"})
    assert query_entities(QUERY, settings) == []
    plan = deterministic_plan(QUERY)
    assert with_query_entities(plan, QUERY, settings) == plan
