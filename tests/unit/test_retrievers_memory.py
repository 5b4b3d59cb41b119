"""InMemoryFunnel: each channel, fusion, refusal, filters, over a tiny corpus with fake models."""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from pathlib import Path

import pytest

from disputatio.ingest import ChildChunk, DocumentGraph, chunk_document, extract, sha256_file
from disputatio.ingest.entities import CO_OCCURS, GraphAccumulator
from disputatio.models.rerank import NoReranker
from disputatio.retrievers.base import CorpusRetriever, RetrievalFilters
from disputatio.retrievers.fusion import weighted_rrf
from disputatio.retrievers.graphstore import InMemoryGraphStore
from disputatio.retrievers.memory import InMemoryFunnel
from disputatio.settings import Settings, load_settings
from disputatio.testing import FakeEmbeddings, ScriptedReranker


class Gazetteer:
    """Entity extractor that finds known names; names in one chunk co-occur."""

    def __init__(self, names: Sequence[str]) -> None:
        self.names = names

    def extract(self, chunks: list[ChildChunk]) -> DocumentGraph:
        graph = GraphAccumulator()
        for chunk in chunks:
            keys = []
            for name in self.names:
                start = chunk.text.find(name)
                if start >= 0:
                    keys.append(graph.add_mention(chunk, start, start + len(name), "ORG"))
            for a, b in itertools.combinations(sorted(k for k in keys if k), 2):
                graph.add_relation(a, b, CO_OCCURS, chunk.id)
        return graph.build()


TEXTS = {
    "radium": "# Radium\n\nMarie Curie worked at the University of Paris on radioactivity.",
    "hubble": "# Telescopes\n\nEdwin Hubble observed distant galaxies with a large telescope.",
    "bread": "# Bread\n\nSourdough fermentation uses wild yeast and lactobacilli.",
    "library": "# Campus\n\nThe University of Paris hosts an old library of manuscripts.",
}
NAMES = ["Marie Curie", "University of Paris", "Edwin Hubble"]


#: These tests check the wiring with hashing embeddings, whose cosines mean nothing: no refusal,
#: and the rank fusion the hand computations below assume.
RETRIEVAL = {
    "rerank_threshold": 0.0,
    "trim_alpha": 0.0,
    "fusion": "rrf",
    "channels": {"graph": {"weight": 1.0}, "semantic": {"weight": 0.8}, "lexical": {"weight": 0.7}},
}


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return load_settings(home=tmp_path / "home", retrieval=RETRIEVAL)


def make_funnel(
    settings: Settings, reranker: object | None = None, **kwargs: object
) -> InMemoryFunnel:
    return InMemoryFunnel(
        settings=settings,
        embeddings=FakeEmbeddings(size=1024),
        reranker=reranker or NoReranker(),  # type: ignore[arg-type]
        entity_extractor=Gazetteer(NAMES),
        **kwargs,  # type: ignore[arg-type]
    )


@pytest.fixture
def funnel(settings: Settings) -> InMemoryFunnel:
    f = make_funnel(settings)
    f.add_texts([(text, {"source": name}) for name, text in TEXTS.items()])
    return f


def child_of(funnel: InMemoryFunnel, source: str) -> str:
    """The single child chunk id of the document added from ``source``."""
    ids = [
        c.id
        for c in funnel.backend._children
        if funnel.backend.sections([c.parent_id])[c.parent_id].source == source
    ]
    assert len(ids) == 1
    return ids[0]


def scope(tenant: str = "default", **kwargs: tuple[str, ...]) -> RetrievalFilters:
    return RetrievalFilters(tenant=tenant, **kwargs)


def test_is_a_corpus_retriever(funnel: InMemoryFunnel) -> None:
    assert isinstance(funnel, CorpusRetriever)
    assert len(funnel.backend) == 4


def test_lexical_channel_finds_the_chunk_with_the_keyword(funnel: InMemoryFunnel) -> None:
    hits = funnel.backend.lexical(["sourdough", "nothing-here"], scope(), 10)
    assert [cid for cid, _ in hits] == [child_of(funnel, "bread")]
    assert funnel.backend.lexical(["the", "of"], scope(), 10) == []  # stop words only


def test_semantic_channel_ranks_the_closest_vector_first(funnel: InMemoryFunnel) -> None:
    vector = FakeEmbeddings(size=1024).embed_query("distant galaxies telescope")
    hits = funnel.backend.semantic(vector, scope(), 10)
    assert hits[0][0] == child_of(funnel, "hubble")
    assert len(hits) == 4 and hits[0][1] > hits[1][1]


def test_graph_channel_scores_like_the_sql(funnel: InMemoryFunnel) -> None:
    radium, library = child_of(funnel, "radium"), child_of(funnel, "library")
    seed = 1 / math.log(3)  # "marie curie": 1 / ln(2 + the 1 chunk naming it)
    assert funnel.backend.graph(["marie curie"], scope(), 10, 0) == [(radium, seed)]
    assert funnel.backend.graph(["curie"], scope(), 10, 0) == []  # whole keys only
    # one hop to "university of paris" (1 relation row, 2 chunks): 0.5 · seed · 1/2 / ln 4
    neighbour = 0.5 * seed * (1 / 2) / math.log(4)
    hits = dict(funnel.backend.graph(["marie curie"], scope(), 10, 1))
    assert hits == pytest.approx({radium: seed + neighbour, library: neighbour})
    assert funnel.backend.graph(["hubble telescope"], scope(), 10, 1) == []


def test_search_returns_the_section_found_by_the_channels(funnel: InMemoryFunnel) -> None:
    result = funnel.search("Where did Marie Curie work?")
    top = result.sections[0]
    assert not result.refused and top.source == "radium"
    assert set(top.channels) == {"lexical", "semantic", "graph"}
    assert "University of Paris" in top.text and top.heading_path == ["Radium"]
    assert set(result.trace.timings_ms) >= {"plan", "lexical", "semantic", "graph", "fuse"}


def test_refuses_below_the_threshold(tmp_path: Path) -> None:
    settings = load_settings(home=tmp_path / "home")  # default refusal threshold
    f = make_funnel(settings, reranker=ScriptedReranker([{}], default=0.05, repeat_last=True))
    f.add_texts(list(TEXTS.values()))
    refused = f.search("sourdough yeast")
    assert refused.refused and refused.sections == [] and refused.best_score == 0.05
    assert refused.threshold == settings.retrieval.rerank_threshold > 0.05
    kept = f.search("sourdough yeast", threshold=0.01)
    assert not kept.refused and kept.sections[0].source.startswith("text:")


def test_empty_corpus_refuses(tmp_path: Path) -> None:
    result = make_funnel(load_settings(home=tmp_path / "home")).search("anything at all")
    assert result.refused and result.best_score == 0.0


def test_fusion_order_is_weighted_rrf_of_the_channel_ranks(funnel: InMemoryFunnel) -> None:
    query = "Marie Curie radioactivity galaxies"
    plan = funnel.plan(query)
    cfg = funnel.config
    ranks = {
        "lexical": funnel.backend.lexical(plan.keywords, scope(), cfg.channels["lexical"].k),
        "semantic": funnel.backend.semantic(
            funnel.embeddings.embed_query(query), scope(), cfg.channels["semantic"].k
        ),
        "graph": funnel.backend.graph(
            plan.graph_seeds, scope(), cfg.channels["graph"].k, cfg.graph_hops
        ),
    }
    rankings = {name: [cid for cid, _ in hits] for name, hits in ranks.items()}
    # by hand: score(d) = Σ_channels w_c / (60 + rank_c(d)), ranks 1-based
    weights = {"graph": 1.0, "semantic": 0.8, "lexical": 0.7}
    hand: dict[str, float] = {}
    for name, ids in rankings.items():
        for rank, cid in enumerate(ids, start=1):
            hand[cid] = hand.get(cid, 0.0) + weights[name] / (60 + rank)
    expected = sorted(hand, key=lambda c: hand[c], reverse=True)
    assert [cid for cid, _ in weighted_rrf(rankings, weights, 60)] == expected
    # one child per parent and NoReranker: the sections keep the fused order
    result = funnel.search(query)
    assert [s.child_ids[0] for s in result.sections] == expected


@pytest.mark.parametrize("channel", ["lexical", "semantic", "graph"])
def test_every_channel_honours_filters(settings: Settings, channel: str) -> None:
    f = make_funnel(settings)
    text = "# Notes\n\nMarie Curie baked sourdough bread."
    f.add_texts([text], collection="a", tags=["x", "y"])
    f.add_texts([text + " Twice."], collection="b", tags=["x"])
    f.add_texts([text + " Elsewhere."], tenant="other")
    vector = f.embeddings.embed_query(text)

    def found(filters: RetrievalFilters) -> set[str]:
        b = f.backend
        hits = {
            "lexical": lambda: b.lexical(["sourdough"], filters, 10),
            "semantic": lambda: b.semantic(vector, filters, 10),
            "graph": lambda: b.graph(["marie curie"], filters, 10, 1),
        }[channel]()
        parents = b.parents_of([cid for cid, _ in hits])
        return {b.sections([p])[p].text.split("bread.")[1].strip() for p in parents.values()}

    assert found(scope()) == {"", "Twice."}
    assert found(scope(collections=("b",))) == {"Twice."}
    assert found(scope(tags=("x", "y"))) == {""}
    assert found(scope(tags=("z",))) == set()
    assert found(scope("other")) == {"Elsewhere."}
    assert found(RetrievalFilters(tenant=None)) == {"", "Twice.", "Elsewhere."}


def test_search_scope_defaults_to_the_funnel_tenant(settings: Settings) -> None:
    f = make_funnel(settings, tenant="acme")
    f.add_texts(["Sourdough starter notes."])
    f.add_texts(["Sourdough for another tenant."], tenant="other")
    assert [s.text for s in f.search("sourdough").sections] == ["Sourdough starter notes."]
    other = f.search("sourdough", filters=RetrievalFilters(tenant="other"))
    assert [s.text for s in other.sections] == ["Sourdough for another tenant."]


def test_hnsw_index_finds_the_same_chunk(settings: Settings) -> None:
    f = make_funnel(settings, hnsw_min_size=2)
    f.add_texts(list(TEXTS.values()))
    vector = f.embeddings.embed_query("wild yeast fermentation")
    top = f.backend.semantic(vector, scope(), 2)[0][0]
    assert "Sourdough" in f.backend.child_texts([top])[top]


def test_same_text_is_added_once(settings: Settings) -> None:
    f = make_funnel(settings)
    first = f.add_texts(["# A\n\nOne text."])
    again = f.add_texts(["# A\n\nOne text."])
    assert first == again and len(f.backend) == 1


def test_from_paths_uses_the_ingestion_ids(settings: Settings, tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    for name, text in TEXTS.items():
        (folder / f"{name}.md").write_text(text)
    (folder / "README.md").write_text("skipped")
    f = InMemoryFunnel.from_paths(
        [folder], settings=settings, embeddings=FakeEmbeddings(size=1024), reranker=NoReranker(),
        entity_extractor=False, collection="papers",
    )  # fmt: skip
    path = folder / "bread.md"
    parents = chunk_document(extract(path), doc_key=f"default/{sha256_file(path)}")
    child = parents[0].children[0].id
    assert f.backend.child_texts([child])[child].startswith("Bread\n")
    top = f.search("sourdough").sections[0]
    assert top.source == str(path.resolve()) and top.title == "Bread"
    assert len(f.backend) == 4  # the README was skipped


def test_graph_store_replaces_and_deletes_documents() -> None:
    store = InMemoryGraphStore()
    f = Gazetteer(NAMES)
    chunk = ChildChunk("c1", "Marie Curie at the University of Paris.", 0, 40, None, (), 9, 0, "p")
    graph = f.extract([chunk])
    store.write_document("t", "d1", graph)
    store.write_document("t", "d1", graph)  # idempotent
    assert store.expand("t", ["marie curie"], 0, 5) == [("c1", 1 / math.log(3))]
    assert store.expand("other", ["marie curie"], 0, 5) == []
    other = ChildChunk("c2", "Marie Curie again.", 0, 18, None, (), 4, 0, "p2")
    store.write_document("t", "d2", f.extract([other]))
    # two mentions of "marie curie" now: each chunk scores 1 / ln(2 + 2)
    assert dict(store.expand("t", ["marie curie"], 0, 5)) == {
        "c1": 1 / math.log(4), "c2": 1 / math.log(4)
    }  # fmt: skip
    store.delete_document("d1")
    assert store.expand("t", ["marie curie"], 2, 5) == [("c2", 1 / math.log(3))]
    store.delete_document("d2")
    assert store.expand("t", ["marie curie"], 2, 5) == []
    assert store.chunk_scores(None, ["paris"], 2) == {}


def test_graph_neighbours_are_capped_by_edge_count() -> None:
    store = InMemoryGraphStore()
    f = Gazetteer(NAMES)
    strong = ChildChunk("c1", "Marie Curie, University of Paris.", 0, 33, None, (), 6, 0, "p")
    again = ChildChunk("c2", "Marie Curie, University of Paris!", 0, 33, None, (), 6, 0, "p")
    weak = ChildChunk("c3", "Marie Curie met Edwin Hubble.", 0, 28, None, (), 6, 0, "p")
    for i, chunk in enumerate((strong, again, weak)):
        store.write_document("t", f"d{i}", f.extract([chunk]))
    seed = 1 / math.log(2 + 3)  # "marie curie" is named in 3 chunks
    # "university of paris" (2 relation rows) beats "edwin hubble" (1) for the single slot
    capped = dict(store.chunk_scores("t", ["marie curie"], 1, neighbour_cap=1))
    assert capped["c3"] == pytest.approx(seed)  # hubble was not kept: the seed alone
    both = dict(store.chunk_scores("t", ["marie curie"], 1, neighbour_cap=2))
    assert both["c3"] == pytest.approx(seed + 0.5 * seed * (1 / 2) / math.log(3))
    assert both["c1"] == pytest.approx(capped["c1"])  # paris was kept either way
    hubble_only = dict(store.chunk_scores("t", ["edwin hubble"], 0))
    assert set(hubble_only) == {"c3"}
