"""Channels are data: a toy channel is one spec plus its backend query, and the funnel fuses it.

The toy "title" channel matches the query's keywords against document titles on the in-memory
backend. Also: the settings' per-channel mapping and its aliases (``weight_graph``, ``k_*``),
and the ``FunnelConfig`` aliases other callers still use.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from disputatio.errors import ConfigError
from disputatio.models.rerank import NoReranker
from disputatio.nodes.rag.context import RagContext
from disputatio.retrievers.base import RetrievalFilters
from disputatio.retrievers.channels import BUILTIN_CHANNELS, ChannelQuery, ChannelSpec
from disputatio.retrievers.funnel import FunnelConfig
from disputatio.retrievers.graphstore import top_k
from disputatio.retrievers.memory import InMemoryBackend, InMemoryFunnel, tokenize
from disputatio.settings import Settings, load_settings
from disputatio.testing import FakeEmbeddings


class TitleBackend(InMemoryBackend):
    """The in-memory backend plus the toy channel's query."""

    def titles(
        self, keywords: Sequence[str], filters: RetrievalFilters, k: int
    ) -> list[tuple[str, float]]:
        """Children of documents whose title shares words with ``keywords``: shared count."""
        words = {t for kw in keywords for t in tokenize(kw)}
        with self._lock:
            allowed = self._mask(filters)
            scored = [
                (c.id, float(len(words & set(tokenize(self._sections[c.parent_id].title or "")))))
                for i, c in enumerate(self._children)
                if allowed[i]
            ]
        return top_k(((cid, s) for cid, s in scored if s > 0), k)


def titles(backend: Any, q: ChannelQuery) -> list[tuple[str, float]]:
    return backend.titles(q.plan.keywords, q.filters, q.k)


#: The whole toy channel: its spec (the query is TitleBackend.titles).
TITLE = ChannelSpec(titles, k=10, weight=2.0)

DOCS = [
    # the title alone says "brewing": no channel but the title channel finds it
    ("# Notes\n\nYeast turns sugar into alcohol and carbon dioxide.", "Brewing"),
    ("# Kettles\n\nA kettle for brewing beer at home holds twenty litres.", "Kettles"),
    ("# Bread\n\nSourdough rises with wild yeast.", "Bread"),
]
QUERY = "brewing beer"


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    # no refusal, no trim: the fused order shows
    return load_settings(home=tmp_path, retrieval={"rerank_threshold": 0.0, "trim_alpha": 0.0})


def make_funnel(settings: Settings, config: FunnelConfig) -> InMemoryFunnel:
    funnel = InMemoryFunnel(
        settings=settings,
        embeddings=FakeEmbeddings(),
        reranker=NoReranker(),
        entity_extractor=False,
        config=config,
    )
    funnel.backend = TitleBackend()
    funnel.add_texts([(text, {"title": title, "source": title}) for text, title in DOCS])
    return funnel


def with_title(settings: Settings) -> FunnelConfig:
    return FunnelConfig.from_settings(settings, channels={**BUILTIN_CHANNELS, "title": TITLE})


def test_a_registered_channel_is_fused_and_changes_the_ranking(settings: Settings) -> None:
    plain = make_funnel(settings, FunnelConfig.from_settings(settings)).search(QUERY)
    assert plain.sections[0].source == "Kettles"  # BM25 and the vectors see the body only
    assert plain.trace.channels_used == ["lexical", "semantic"]

    titled = make_funnel(settings, with_title(settings)).search(QUERY)
    assert titled.trace.channels_used == ["lexical", "semantic", "title"]
    assert titled.trace.channels["title"] == 1
    top = titled.sections[0]
    assert top.source == "Brewing" and "title" in top.channels
    assert [s.source for s in titled.sections] != [s.source for s in plain.sections]


def test_the_rag_graph_runs_a_registered_channel_too(settings: Settings) -> None:
    from disputatio.graphs.rag import graph

    funnel = make_funnel(settings, with_title(settings))
    out = graph.invoke(
        {"question": QUERY}, context=RagContext(retriever=funnel, settings=settings, answer=False)
    )
    assert {"lexical", "semantic", "title"} <= set(out["timings_ms"])
    assert out["sections"][0]["source"] == "Brewing" and "title" in out["sections"][0]["channels"]


def test_a_weight_of_zero_turns_the_channel_off(tmp_path: Path) -> None:
    retrieval = {"rerank_threshold": 0.0, "trim_alpha": 0.0, "channels": {"title": {"weight": 0}}}
    off = load_settings(home=tmp_path, retrieval=retrieval)
    config = with_title(off)
    assert config.channels["title"].weight == 0.0 and "title" not in config.active_channels
    result = make_funnel(off, config).search(QUERY)
    assert "title" not in result.trace.channels_used and "title" not in result.trace.timings_ms
    plain = make_funnel(off, FunnelConfig.from_settings(off)).search(QUERY)
    assert result.ids == plain.ids  # the same as a funnel without the channel


def test_settings_tune_any_channel_by_name(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    retrieval = {"channels": {"title": {"k": 3, "weight": 0.7}, "graph": {"weight": 0.1}}}
    settings = load_settings(home=tmp_path, retrieval=retrieval)
    config = with_title(settings)
    assert (config.channels["title"].k, config.channels["title"].weight) == (3, 0.7)
    assert config.channels["graph"].weight == 0.1 and config.weights["graph"] == 0.1
    assert list(config.channels) == ["lexical", "semantic", "graph", "title"]
    assert not caplog.records
    # a funnel without the channel runs its own, and says what it ignored
    plain = FunnelConfig.from_settings(settings)
    assert list(plain.channels) == ["lexical", "semantic", "graph"]
    assert "'title'" in caplog.text and "ignored" in caplog.text


def test_settings_aliases_and_the_channel_mapping_agree(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DISPUTATIO_RETRIEVAL__WEIGHT_GRAPH", "0.1")
    r = load_settings(home=tmp_path, retrieval={"k_lexical": 7}).retrieval
    assert r.channels["graph"].weight == 0.1 and r.weight_graph == 0.1
    assert r.channels["lexical"].k == 7 and r.k_lexical == 7
    assert r.weight_for("semantic") == r.weight_semantic == 0.55  # untouched defaults
    monkeypatch.delenv("DISPUTATIO_RETRIEVAL__WEIGHT_GRAPH")
    mapped = load_settings(home=tmp_path, retrieval={"channels": {"graph": {"k": 9}}}).retrieval
    assert (mapped.k_graph, mapped.weight_graph) == (9, 0.0)  # the alias reads the mapping
    cfg = FunnelConfig.from_settings(load_settings(home=tmp_path, retrieval={"weight_graph": 0.3}))
    assert cfg.channels["graph"].weight == 0.3 and "graph" in cfg.active_channels
    with pytest.raises(ConfigError, match="disagree"):
        load_settings(
            home=tmp_path, retrieval={"weight_graph": 0.2, "channels": {"graph": {"weight": 0.3}}}
        )


def test_funnel_config_aliases_read_and_write_the_channels() -> None:
    cfg = FunnelConfig()
    assert (cfg.k_lexical, cfg.k_semantic, cfg.k_graph) == (100, 100, 50)
    assert cfg.weights == {"lexical": 0.45, "semantic": 0.55, "graph": 0.0}
    assert cfg.active_channels == ["lexical", "semantic"]
    only = FunnelConfig(weights={"lexical": 1.0, "semantic": 0.0, "graph": 0.0})
    assert only.active_channels == ["lexical"] and only.channels["lexical"].weight == 1.0
    # what the retrieval evaluation does: deeper channels, and the knobs in its report
    deeper = dataclasses.replace(cfg, k_lexical=300, k_graph=max(cfg.k_graph, 10))
    assert deeper.channels["lexical"].k == 300 and deeper.k_lexical == 300
    assert (deeper.k_semantic, deeper.k_graph) == (100, 50)
    report = dataclasses.asdict(deeper)
    assert (report["k_lexical"], report["k_semantic"], report["k_graph"]) == (300, 100, 50)
    assert report["weights"] == cfg.weights
    swapped = cfg.with_channels({"title": TITLE, "lexical": BUILTIN_CHANNELS["lexical"]})
    assert swapped.active_channels == ["title", "lexical"] and swapped.k_semantic == 0
    assert swapped.weights == {"title": 2.0, "lexical": 0.45}
