"""Fusion and parent aggregation: hand-computed orders and scores."""

from __future__ import annotations

from pathlib import Path

import pytest

from disputatio.retrievers.funnel import FunnelConfig, fuse
from disputatio.retrievers.fusion import aggregate_parents, convex_fusion, trimmed, weighted_rrf
from disputatio.settings import load_settings


def test_convex_fusion_matches_hand_computed_scores() -> None:
    hits = {
        "lexical": [("a", 10.0), ("b", 6.0), ("c", 2.0)],  # normalised: a 1, b .5, c 0
        "semantic": [("c", 0.9), ("b", 0.8), ("d", 0.5)],  # normalised: c 1, b .75, d 0
    }
    fused = dict(convex_fusion(hits, {"lexical": 0.4, "semantic": 0.6}))
    # a: .4·1 = .4; b: .4·.5 + .6·.75 = .65; c: .4·0 + .6·1 = .6; d: 0
    assert fused == pytest.approx({"a": 0.4, "b": 0.65, "c": 0.6, "d": 0.0})
    assert [d for d, _ in convex_fusion(hits, {"lexical": 0.4, "semantic": 0.6})][:3] == [
        "b",
        "c",
        "a",
    ]


def test_convex_fusion_keeps_a_large_score_gap() -> None:
    # semantic is far more sure about x than lexical is about y: x wins (RRF would tie them)
    hits = {
        "semantic": [("x", 0.95), ("y", 0.30), ("z", 0.29)],
        "lexical": [("y", 5.0), ("x", 4.9), ("z", 0.0)],
    }
    convex = [d for d, _ in convex_fusion(hits, {"semantic": 0.5, "lexical": 0.5})]
    assert convex == ["x", "y", "z"]


def test_weighted_rrf_hand_computed() -> None:
    rankings = {"lexical": ["a", "b"], "semantic": ["b", "c"]}
    fused = weighted_rrf(rankings, {"semantic": 0.8, "lexical": 0.7}, 60)
    # a: .7/61; b: .7/62 + .8/61; c: .8/62; best possible 1.5/61
    assert [d for d, _ in fused] == ["b", "c", "a"]
    assert fused[0][1] == pytest.approx((0.7 / 62 + 0.8 / 61) / (1.5 / 61))


def test_parent_ranked_by_best_child_not_by_count_of_children() -> None:
    children = [("s1", 0.9), ("w1", 0.4), ("w2", 0.4), ("w3", 0.4), ("w4", 0.4)]
    parent_of = {"s1": "short", "w1": "long", "w2": "long", "w3": "long", "w4": "long"}
    ranked = aggregate_parents(children, parent_of, rest_share=0.1)
    # short: .9; long: .4 + min(.1·1.2, .1·.4) = .44 → short first (summing would give long 1.6)
    assert [p for p, _, _ in ranked] == ["short", "long"]
    assert ranked[1][1] == pytest.approx(0.44 / 0.9)
    assert ranked[1][2] == ["w1", "w2", "w3", "w4"]


def test_parent_rest_share_breaks_ties_between_equal_best_children() -> None:
    children = [("a1", 0.8), ("b1", 0.8), ("b2", 0.5)]
    ranked = aggregate_parents(children, {"a1": "A", "b1": "B", "b2": "B"}, rest_share=0.1)
    assert [p for p, _, _ in ranked] == ["B", "A"]
    only_best = aggregate_parents(children, {"a1": "A", "b1": "B", "b2": "B"}, rest_share=0.0)
    assert only_best[0][1] == only_best[1][1] == 1.0


def test_zero_weight_channel_is_left_out_of_the_fusion() -> None:
    cfg = FunnelConfig(fusion="convex").tuned(
        weights={"lexical": 1.0, "semantic": 1.0, "graph": 0.0}
    )
    fused = fuse({"lexical": [("a", 1.0)], "graph": [("g", 9.0)]}, cfg)
    assert [d for d, _ in fused] == ["a"]


def test_trimmed_puts_what_the_trim_cut_after_the_kept_down_to_low() -> None:
    """A low-relevance section atop a fusion-ordered list goes down, not out (down to low)."""
    scores = [0.3, 0.9, 0.1, 0.8, 0.45]
    assert trimmed(scores, 0.4) == [1, 3, 4]  # the plain trim
    assert trimmed(scores, 0.4, 0.2) == [1, 3, 4, 0]  # 0.1 is below low
    assert trimmed(scores, 0.4, 0.0) == [1, 3, 4, 0, 2]
    assert trimmed(scores, 0.4, 0.5) == [1, 3, 4]  # low above the cut: the plain trim


def test_deep_trim_alpha_reaches_the_funnel_from_the_settings(tmp_path: Path) -> None:
    settings = load_settings(home=tmp_path / "home", retrieval={"deep_trim_alpha": 0.2})
    assert FunnelConfig.from_settings(settings).deep_trim_alpha == 0.2
