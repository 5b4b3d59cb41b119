"""After ``disputatio calibrate``, a search deeper than ``k_final`` also gets the deep trim.

The calibrated (conformal) threshold is a precision setting for the answerer; a deeper search
(the public ``search(k=32)``) gets, after that list, the sections scoring at least
``calibrated_deep_trim_alpha · s_max`` on the same calibrated scores, and nothing below
that cut.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from disputatio.models.rerank import NoReranker
from disputatio.retrievers.funnel import FunnelConfig
from disputatio.retrievers.memory import InMemoryFunnel
from disputatio.settings import load_settings
from disputatio.testing import FakeEmbeddings

QUERY = "pancreas secretes insulin"
TEXTS = (
    [f"The pancreas secretes insulin into the blood, note {i}." for i in range(3)]
    + [f"Kettles boil water for tea and pancreas soup, story {i}." for i in range(3)]
    + [f"Trains leave the station at noon, timetable {i}." for i in range(3)]
)


def _funnel(tmp_path: Path) -> InMemoryFunnel:
    """An in-memory RRF funnel (``k_final`` 4) that never refuses, on fake embeddings."""
    settings = load_settings(
        home=tmp_path / "home",
        retrieval={"fusion": "rrf", "rerank_threshold": -1.0, "k_final": 4},
    )
    funnel = InMemoryFunnel(
        settings=settings,
        embeddings=FakeEmbeddings(size=256),
        reranker=NoReranker(),
        entity_extractor=False,
    )
    funnel.add_texts(TEXTS)
    return funnel


def test_calibrated_deep_search_returns_the_sections_above_the_lower_cut(tmp_path: Path) -> None:
    funnel = _funnel(tmp_path)
    calibrated = funnel.config
    # every section, in the funnel's order, with the scores the trims cut on
    funnel.config = dataclasses.replace(calibrated, trim_alpha=0.0, deep_trim_alpha=None)
    ranked = [(s.id, s.score) for s in funnel.search(QUERY, k=len(TEXTS)).sections]
    levels = sorted({score for _, score in ranked}, reverse=True)
    assert len(levels) >= 4, "the corpus must give distinct score levels to cut between"
    cut = (levels[1] + levels[2]) / 2  # the calibrated threshold: the top two levels kept
    low = (levels[2] + levels[3]) / 2  # the lower cut: one more level for a deep search
    funnel.config = dataclasses.replace(
        calibrated, calibrated_threshold=cut, calibrated_deep_trim_alpha=low / levels[0]
    )

    precise = [i for i, score in ranked if score >= cut]
    between = [i for i, score in ranked if low <= score < cut]
    assert precise and between and len(precise) + len(between) < len(ranked)
    deep = funnel.search(QUERY, k=len(TEXTS))
    assert [s.id for s in deep.sections] == precise + between  # nothing below the lower cut
    assert deep.trace.extra["deep_trim_threshold"] == low
    # the answerer's depth keeps the calibrated list alone
    assert [s.id for s in funnel.search(QUERY).sections] == precise[:4]


def test_no_deep_trim_keeps_the_calibrated_list_at_every_depth(tmp_path: Path) -> None:
    funnel = _funnel(tmp_path)
    funnel.config = dataclasses.replace(
        funnel.config, calibrated_threshold=0.5, calibrated_deep_trim_alpha=None
    )
    deep = funnel.search(QUERY, k=len(TEXTS))
    assert deep.sections and all(s.score >= 0.5 for s in deep.sections)
    assert "deep_trim_threshold" not in deep.trace.extra


def test_the_calibrated_deep_trim_comes_from_its_own_setting(tmp_path: Path) -> None:
    settings = load_settings(home=tmp_path / "home", retrieval={"calibrated_deep_trim_alpha": 0.3})
    cfg = FunnelConfig.from_settings(settings)
    assert (cfg.calibrated_deep_trim_alpha, cfg.deep_trim_alpha) == (0.3, 0.1)
    funnel = _funnel(tmp_path)
    funnel.config = dataclasses.replace(
        funnel.config, calibrated_threshold=0.99, calibrated_deep_trim_alpha=0.0
    )
    every = funnel.search(QUERY, k=len(TEXTS)).sections
    assert len(every) == len(TEXTS)  # 0: the whole reranked list after the (empty) calibrated one
