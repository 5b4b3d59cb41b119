"""Every corpus search of the MedRAG, referee and RDC nodes is one run of the retrieval tool."""

from __future__ import annotations

from collections.abc import Iterator

from langchain_core.tracers.context import collect_runs
from langchain_core.tracers.schemas import Run

from disputatio.graphs.medrag_debate import MedragContext
from disputatio.nodes.medrag.context import resolve
from disputatio.nodes.referee.context import RefereeContext
from disputatio.nodes.referee.evidence import gather
from disputatio.state.retrieval import Section
from disputatio.testing import FakeRetriever
from disputatio.tools.retrieval import MAX_K, TOOL_NAME, search_corpus
from disputatio.tools.turn_search import retrieve

#: Enough sections on each topic the tests search for any ``k`` they ask.
CORPUS = [
    Section(id=f"{topic}-{i}", text=f"{topic} note {i}.")
    for topic in ("aspirin", "metformin", "pgvector", "faiss")
    for i in range(MAX_K + 8)
]


def recording() -> FakeRetriever:
    """A fake retriever over :data:`CORPUS` (3 sections unless asked); records every search."""
    return FakeRetriever(CORPUS, k=3)


def walk(runs: list[Run]) -> Iterator[Run]:
    for run in runs:
        yield run
        yield from walk(run.child_runs)


def tool_queries(runs: list[Run]) -> list[tuple[str, int]]:
    """The ``(query, k)`` of every retrieval tool run, in order."""
    found = [r for r in walk(runs) if r.run_type == "tool" and r.name == TOOL_NAME]
    return [(r.inputs["query"], r.inputs["k"]) for r in found]


def test_search_corpus_returns_the_retrievers_result_for_any_k() -> None:
    retriever = recording()
    for k in (1, MAX_K + 8):
        with collect_runs() as cb:
            result = search_corpus(retriever, "aspirin", k=k)
        assert len(result.sections) == k and retriever.calls[-1] == ("aspirin", k)
        assert tool_queries(cb.traced_runs) == [("aspirin", k)]


def test_a_medrag_turn_searches_through_the_tool() -> None:
    retriever = recording()
    ctx = MedragContext(retriever=retriever, k=4)
    with collect_runs() as cb:
        sections, log = retrieve(ctx, resolve(ctx), "What is metformin?", [])
    assert tool_queries(cb.traced_runs) == retriever.calls == [("What is metformin?", 4)]
    assert log["ids"] == [s.id for s in sections] and len(sections) == 4


def test_the_referees_evidence_is_searched_through_the_tool() -> None:
    retriever = recording()
    ctx = RefereeContext(retriever=retriever, k_per_query=2)
    with collect_runs() as cb:
        sections, limitations = gather(ctx, ["pgvector", "FAISS"])
    assert tool_queries(cb.traced_runs) == retriever.calls == [("pgvector", 2), ("FAISS", 2)]
    assert not limitations and len(sections) == 4
