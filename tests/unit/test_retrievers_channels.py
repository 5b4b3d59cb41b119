"""Channels are data: a toy channel is one spec plus its backend query, and the funnel fuses it.

The toy "title" channel matches the query's keywords against document titles on the in-memory
backend. Also: the settings' per-channel mapping (an unknown name refused; the deprecated
``weight_graph``/``k_*`` inputs folded into it) and ``FunnelConfig``'s one channel mapping.
"""

from __future__ import annotations

import dataclasses
import json
import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from disputatio.errors import ConfigError
from disputatio.eval.retrieval import deeper
from disputatio.eval.retrieval_report import config_row
from disputatio.models.rerank import NoReranker
from disputatio.nodes.rag.context import RagContext
from disputatio.retrievers.base import RetrievalFilters
from disputatio.retrievers.channels import BUILTIN_CHANNELS, ChannelQuery, ChannelSpec
from disputatio.retrievers.funnel import FunnelConfig
from disputatio.retrievers.graphstore import top_k
from disputatio.retrievers.memory import InMemoryBackend, InMemoryFunnel, tokenize
from disputatio.settings import Settings, load_settings
from disputatio.settings.retrieval import DEPRECATED_CHANNEL_FIELDS
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
    knobs = {"rerank_threshold": 0.0, "trim_alpha": 0.0}
    off = load_settings(home=tmp_path, retrieval={**knobs, "channels": {"title": {"weight": 0}}})
    config = with_title(off)
    assert config.channels["title"].weight == 0.0 and "title" not in config.active_channels
    result = make_funnel(off, config).search(QUERY)
    assert "title" not in result.trace.channels_used and "title" not in result.trace.timings_ms
    plain_settings = load_settings(home=tmp_path, retrieval=knobs)
    plain = make_funnel(plain_settings, FunnelConfig.from_settings(plain_settings)).search(QUERY)
    assert result.ids == plain.ids  # the same as a funnel without the channel


def test_settings_tune_any_channel_by_name(tmp_path: Path) -> None:
    retrieval = {"channels": {"title": {"k": 3, "weight": 0.7}, "graph": {"weight": 0.1}}}
    settings = load_settings(home=tmp_path, retrieval=retrieval)
    config = with_title(settings)
    assert (config.channels["title"].k, config.channels["title"].weight) == (3, 0.7)
    assert config.channels["graph"].weight == 0.1 and config.weights["graph"] == 0.1
    assert list(config.channels) == ["lexical", "semantic", "graph", "title"]


def test_a_channel_name_the_funnel_lacks_is_refused_naming_it_and_its_channels(
    tmp_path: Path,
) -> None:
    typo = load_settings(home=tmp_path, retrieval={"channels": {"grahp": {"weight": 0.1}}})
    with pytest.raises(ConfigError) as refused:
        FunnelConfig.from_settings(typo)
    message = str(refused.value)
    assert "'grahp'" in message and "lexical, semantic, graph" in message
    # a channel of another funnel too: only the funnel that has it takes its settings
    titled = load_settings(home=tmp_path, retrieval={"channels": {"title": {"weight": 0.7}}})
    with pytest.raises(ConfigError, match="'title'"):
        FunnelConfig.from_settings(titled)
    assert with_title(titled).channels["title"].weight == 0.7
    with pytest.raises(ConfigError, match=r"'title'.*lexical, semantic, graph"):
        FunnelConfig().tuned(weights={"title": 1.0})


def test_deprecated_channel_settings_are_folded_into_the_mapping(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("DISPUTATIO_RETRIEVAL__WEIGHT_GRAPH", "0.1")
    with caplog.at_level(logging.WARNING, logger="disputatio.settings.retrieval"):
        r = load_settings(home=tmp_path, retrieval={"k_lexical": 7}).retrieval
    assert r.channels["graph"].weight == 0.1 and r.channels["lexical"].k == 7
    assert r.weight_for("semantic") == 0.55 and r.channels["semantic"].k == 100  # defaults
    assert "deprecated" in caplog.text and "channels.graph.weight" in caplog.text
    assert not any(hasattr(r, old) for old in DEPRECATED_CHANNEL_FIELDS)  # inputs, not fields
    monkeypatch.delenv("DISPUTATIO_RETRIEVAL__WEIGHT_GRAPH")
    cfg = FunnelConfig.from_settings(load_settings(home=tmp_path, retrieval={"weight_graph": 0.3}))
    assert cfg.channels["graph"].weight == 0.3 and "graph" in cfg.active_channels
    both = {"weight_graph": 0.3, "channels": {"graph": {"weight": 0.3, "k": 9}}}
    agreed = load_settings(home=tmp_path, retrieval=both).retrieval.channels["graph"]
    assert (agreed.k, agreed.weight) == (9, 0.3)
    with pytest.raises(ConfigError, match="disagree"):
        load_settings(
            home=tmp_path, retrieval={"weight_graph": 0.2, "channels": {"graph": {"weight": 0.3}}}
        )


def test_the_funnel_config_has_one_channel_mapping() -> None:
    assert not {"k_lexical", "k_semantic", "k_graph", "weights"} & {
        f.name for f in dataclasses.fields(FunnelConfig)
    }
    cfg = FunnelConfig()
    assert {n: (s.k, s.weight) for n, s in cfg.channels.items()} == {
        "lexical": (100, 0.45),
        "semantic": (100, 0.55),
        "graph": (50, 0.0),
    }
    assert cfg.weights == {"lexical": 0.45, "semantic": 0.55, "graph": 0.0}  # read from it
    assert cfg.active_channels == ["lexical", "semantic"]
    only = cfg.tuned(weights={"semantic": 0.0})
    assert only.active_channels == ["lexical"] and only.channels["lexical"].weight == 0.45
    assert cfg.channels["semantic"].weight == 0.55  # a copy: the original is untouched
    swapped = dataclasses.replace(
        cfg, channels={"title": TITLE, "lexical": cfg.channels["lexical"]}
    )
    assert swapped.active_channels == ["title", "lexical"]
    assert swapped.weights == {"title": 2.0, "lexical": 0.45}


def test_the_settings_defaults_are_the_builtin_channels(tmp_path: Path) -> None:
    from_settings = FunnelConfig.from_settings(load_settings(home=tmp_path)).channels
    assert {n: (s.k, s.weight) for n, s in from_settings.items()} == {
        n: (s.k, s.weight) for n, s in BUILTIN_CHANNELS.items()
    }


def test_the_retrieval_evaluation_deepens_and_records_every_channel() -> None:
    cfg = FunnelConfig(rerank_candidates=24).tuned(k={"graph": 10})
    deep = deeper(cfg, 64)
    assert {n: s.k for n, s in deep.channels.items()} == {
        "lexical": 100,
        "semantic": 100,
        "graph": 64,
    }
    assert deep.rerank_candidates == 64 and deep.weights == cfg.weights
    row = config_row(deep)
    assert row["channels"]["graph"] == {"k": 64, "weight": 0.0}
    assert row["rerank_candidates"] == 64 and "k_graph" not in row
    json.dumps(row)  # the results file takes it as it is
