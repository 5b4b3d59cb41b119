"""Cross-document batching changes nothing: the same graphs as one document at a time."""

from __future__ import annotations

import pytest

from disputatio.ingest import ChildChunk, DocumentGraph
from disputatio.ingest.spacy_entities import SpacyEntityExtractor

TEXTS = [
    ["Marie Curie worked at the University of Paris.", "Pierre Curie met her in Paris."],
    ["Louis Pasteur taught in Lille. Pasteur later moved to Paris."],
    ["Nothing named here at all."],
    ["Angela Merkel visited Microsoft in Seattle.", "The World Health Organization met."],
]


def _groups() -> list[list[ChildChunk]]:
    groups = []
    for d, texts in enumerate(TEXTS):
        groups.append(
            [
                ChildChunk(f"d{d}c{i}", t, 0, len(t), None, (), len(t.split()), i, f"d{d}p")
                for i, t in enumerate(texts)
            ]
        )
    return groups


@pytest.fixture(scope="module")
def ner_only() -> SpacyEntityExtractor:
    return SpacyEntityExtractor(dependency_relations=False)


def test_batch_equals_one_document_at_a_time(
    spacy_extractor: SpacyEntityExtractor, ner_only: SpacyEntityExtractor
) -> None:
    groups = _groups()
    for extractor in (spacy_extractor, ner_only):
        batched = extractor.extract_batch(groups)
        assert batched == [extractor.extract(g) for g in groups]
        assert batched[2] == DocumentGraph()
        assert {m.chunk_id for m in batched[0].mentions} <= {"d0c0", "d0c1"}  # no bleed across docs


def test_ner_only_pipeline_finds_the_same_mentions(
    spacy_extractor: SpacyEntityExtractor, ner_only: SpacyEntityExtractor
) -> None:
    assert "parser" not in ner_only.nlp.pipe_names
    assert "tagger" not in ner_only.nlp.pipe_names
    groups = _groups()
    full = spacy_extractor.extract_batch(groups)
    fast = ner_only.extract_batch(groups)
    for a, b in zip(full, fast, strict=True):
        assert a.entities == b.entities and a.mentions == b.mentions
        # co-occurrence edges survive; only verb (SVO) edges need the parser
        co = {(r.source, r.target) for r in a.relations if r.type == "co_occurs"}
        assert co == {(r.source, r.target) for r in b.relations if r.type == "co_occurs"}
        assert all(r.type == "co_occurs" for r in b.relations)
