"""DocumentGraph: the one value for a document's graph that extractors return and stores take."""

from __future__ import annotations

import dataclasses
import json

import pytest

from disputatio.ingest.types import DocumentGraph, Entity, Mention, Relation

ALICE = Entity("alice", "Alice", "PERSON")
ACME = Entity("acme", "ACME", "ORG")
GRAPH = DocumentGraph.of(
    [ALICE, ACME, Entity("alice", "ALICE", "ORG")],  # a repeated key: the last one counts
    [
        Mention("alice", "c1", 0, 5, "Alice"),
        Mention("bob", "c1", 10, 13, "Bob"),  # no entity "bob"
        Mention("acme", "c2", 0, 4, "ACME"),
    ],
    [
        Relation("alice", "acme", "work", 2, "c1"),
        Relation("alice", "bob", "co_occurs", 1, "c1"),  # one end unknown
        Relation("bob", "acme", "co_occurs", 1, "c2"),
    ],
)


def test_linked_keeps_what_hangs_on_named_entities() -> None:
    linked = GRAPH.linked()
    assert [e.key for e in linked.entities] == ["alice", "acme"]  # unique, first-seen order
    assert linked.entities[0] == Entity("alice", "ALICE", "ORG")
    keys = {e.key for e in linked.entities}
    assert [m.entity_key for m in linked.mentions] == ["alice", "acme"]
    assert all(r.source in keys and r.target in keys for r in linked.relations)
    assert linked.relations == (Relation("alice", "acme", "work", 2, "c1"),)
    assert linked.linked() == linked  # idempotent
    assert DocumentGraph().linked() == DocumentGraph()


def test_payload_round_trips_through_json() -> None:
    payload = json.loads(json.dumps(GRAPH.to_payload()))
    assert DocumentGraph.from_payload(payload) == GRAPH
    assert payload["mentions"][0] == ["alice", "c1", 0, 5, "Alice"]  # fields in order
    assert DocumentGraph.from_payload({}) == DocumentGraph()


def test_of_accepts_any_iterables_and_the_value_is_frozen() -> None:
    graph = DocumentGraph.of(iter([ALICE]), (m for m in GRAPH.mentions[:1]))
    assert graph.entities == (ALICE,) and graph.relations == ()
    assert hash(graph) == hash(DocumentGraph((ALICE,), GRAPH.mentions[:1]))
    with pytest.raises(dataclasses.FrozenInstanceError):
        graph.entities = ()  # type: ignore[misc]
