"""Weighted totals and the ruling's checks (computed in code, not by the model)."""

from __future__ import annotations

import pytest

from disputatio.nodes.referee.scoring import (
    AmbiguousOptionError,
    Cells,
    build_ruling,
    compute_totals,
    leader,
    match_option,
    named_constraint,
)
from disputatio.state.referee import Axis, AxisScore, Constraints, OptionSpec, Plan, RulingDraft

AXES = [Axis(name="latency", weight=7), Axis(name="cost", weight=2), Axis(name="ops", weight=1)]


def _plan(*options: str) -> Plan:
    return Plan(query="q", options=[OptionSpec(name=o) for o in options], axes=AXES)


def _scores(option: str, *values: int) -> list[AxisScore]:
    return [
        AxisScore(option=option, axis=a.name, score=v) for a, v in zip(AXES, values, strict=False)
    ]


def test_weighted_totals_by_hand() -> None:
    scores = _scores("A", 8, 3, 10) + _scores("B", 5, 10, 10)
    totals = {t.option: t for t in compute_totals(AXES, ["A", "B"], scores)}
    # A: 7*8 + 2*3 + 1*10 = 56 + 6 + 10 = 72; B: 7*5 + 2*10 + 1*10 = 35 + 20 + 10 = 65
    assert (totals["A"].weighted_sum, totals["B"].weighted_sum) == (72, 65)
    assert totals["A"].weighted_score == pytest.approx(72 / 10)
    assert totals["A"].complete and totals["A"].scored_weight == 10


def test_missing_cells_make_a_partial_total_and_no_leader_among_incomplete() -> None:
    totals = compute_totals(AXES, ["A", "B"], _scores("A", 8, 3) + _scores("B", 5, 10, 10))
    a = totals[0]
    # A only has latency and cost: (7*8 + 2*3) / (7 + 2) = 62 / 9
    assert not a.complete and a.weighted_score == pytest.approx(62 / 9)
    assert leader(totals) == "B"


def test_ties_have_no_leader() -> None:
    totals = compute_totals(AXES, ["A", "B"], _scores("A", 5, 5, 5) + _scores("B", 5, 5, 5))
    assert leader(totals) is None


def test_scores_out_of_range_are_clamped() -> None:
    assert AxisScore(option="A", axis="cost", score=14).score == 10
    assert AxisScore.model_validate({"option": "A", "axis": "cost", "score": 0}).score == 1
    # confidence is high/medium/low; numbers (0-1 or percent) are bucketed
    assert RulingDraft.model_validate({"confidence": 85}).confidence == "high"
    assert RulingDraft.model_validate({"confidence": 0.5}).confidence == "medium"
    assert RulingDraft.model_validate({"confidence": "LOW"}).confidence == "low"


def test_ruling_canonicalizes_names_and_adds_caveats() -> None:
    draft = RulingDraft(
        scores=[
            AxisScore(option="faiss", axis="Latency", score=9),
            AxisScore(option="FAISS", axis="latency", score=1),  # duplicate: first wins
            AxisScore(option="Milvus", axis="cost", score=9),  # not an option: dropped
            *_scores("pgvector", 6, 6, 6),
        ],
        recommendation="pgvector",
    )
    ruling = build_ruling(_plan("pgvector", "FAISS"), draft)
    assert {(s.option, s.axis) for s in ruling.scores} >= {("FAISS", "latency")}
    assert all(s.option != "Milvus" for s in ruling.scores)
    assert ruling.leader == "pgvector"  # FAISS is incomplete
    assert any("FAISS" in c and "partial" in c for c in ruling.caveats)


def test_recommendation_outside_the_options_falls_back_to_the_leader() -> None:
    draft = RulingDraft(scores=_scores("A", 9, 9, 9) + _scores("B", 1, 1, 1), recommendation="Z")
    ruling = build_ruling(_plan("A", "B"), draft)
    assert ruling.recommendation == "A"
    assert any("'Z'" in c for c in ruling.caveats)


def test_recommendation_against_the_totals_without_a_constraint_follows_the_totals() -> None:
    draft = RulingDraft(scores=_scores("A", 9, 9, 9) + _scores("B", 1, 1, 1), recommendation="b")
    ruling = build_ruling(_plan("A", "B"), draft)
    assert ruling.leader == "A" and ruling.recommendation == "A"
    assert ruling.overridden_by is None
    assert any("without naming a user constraint" in c for c in ruling.caveats)


def test_recommendation_against_the_totals_naming_a_user_constraint_is_kept() -> None:
    plan = _plan("A", "B").model_copy(
        update={"constraints": Constraints(avoid=["vendor lock-in"], budget="under $100")}
    )
    draft = RulingDraft(
        scores=_scores("A", 9, 9, 9) + _scores("B", 1, 1, 1),
        recommendation="B",
        override_constraint="A means vendor lock-in",
        confidence="high",
    )
    ruling = build_ruling(plan, draft)
    assert ruling.recommendation == "B" and ruling.overridden_by == "avoid: vendor lock-in"
    assert ruling.confidence == "medium"  # an override caps the confidence
    # a constraint the user never set does not count
    draft.override_constraint = "must run on GPUs"
    assert build_ruling(plan, draft).recommendation == "A"


def test_a_filler_word_names_no_constraint() -> None:
    """Only content words name a constraint: "in" is no reference to "vendor lock-in"."""
    lines = ["avoid: vendor lock-in", "budget: up to 100 USD"]
    for filler in ("in", "to", "the", "a", "in the", "none"):
        assert named_constraint(filler, lines) is None, filler
    assert named_constraint("lock-in", lines) == "avoid: vendor lock-in"
    assert named_constraint("the budget", lines) == "budget: up to 100 USD"
    assert named_constraint("B avoids the vendor lock-in of A", lines) == "avoid: vendor lock-in"
    plan = _plan("A", "B").model_copy(update={"constraints": Constraints(avoid=["vendor lock-in"])})
    draft = RulingDraft(
        scores=_scores("A", 9, 9, 9) + _scores("B", 1, 1, 1),
        recommendation="B",
        override_constraint="in",
    )
    ruling = build_ruling(plan, draft)
    assert ruling.recommendation == "A" and ruling.overridden_by is None


def test_match_option() -> None:
    assert match_option("Neo4J", ["pgvector", "Neo4j"]) == "Neo4j"
    assert match_option("faiss-cpu", ["pgvector", "FAISS"]) == "FAISS"
    assert match_option("Milvus", ["pgvector", "FAISS"]) is None
    assert match_option("pg vector", ["pgvector", "FAISS"]) == "pgvector"


def test_match_option_whole_words_before_substrings() -> None:
    """The issue's three cases: exact, then whole-word, then best overlap (never substrings)."""
    assert match_option("Preact JS", ["React", "Preact"]) == "Preact"
    assert match_option("MongoDB Atlas", ["Go", "MongoDB"]) == "MongoDB"
    assert match_option("Google Cloud Run", ["Go", "MongoDB"]) is None
    assert match_option("React Native app", ["React", "React Native"]) == "React Native"
    assert match_option("Postgres", ["PostgreSQL", "FAISS"]) == "PostgreSQL"  # best overlap


def test_ambiguous_option_names_are_errors() -> None:
    with pytest.raises(AmbiguousOptionError) as info:
        match_option("pgvector or FAISS", ["pgvector", "FAISS"])
    assert set(info.value.candidates) == {"pgvector", "FAISS"}


def test_ambiguous_cells_are_reported_not_credited() -> None:
    draft = RulingDraft(scores=[AxisScore(option="A or B", axis="latency", score=9)])
    cells = Cells()
    cells.add(_plan("A", "B"), draft.scores)
    assert cells.scores == {} and cells.ambiguous == {"A or B": ["A", "B"]}
    ruling = build_ruling(_plan("A", "B"), draft, cells)
    assert any("ambiguous" in c for c in ruling.caveats) and ruling.confidence == "low"


def test_a_trade_off_the_scores_contradict_is_dropped_and_said() -> None:
    """The demo corpus: "if cost matters, choose serology" with both options scored 1 on cost."""
    draft = RulingDraft(
        scores=_scores("A", 8, 3, 10) + _scores("B", 5, 3, 9),
        recommendation="A",
        trade_offs=[
            {"if_matters": "cost", "choose": "B"},  # tied at 3: dropped
            {"if_matters": "ops", "choose": "B"},  # B scores 9 against 10: dropped
            {"if_matters": "latency", "choose": "a"},  # A scores best: kept, plan's spelling
            {"if_matters": "the team's habits", "choose": "B"},  # no axis: kept
        ],
    )
    ruling = build_ruling(_plan("A", "B"), draft)
    assert [(t.if_matters, t.choose) for t in ruling.trade_offs] == [
        ("latency", "A"),
        ("the team's habits", "B"),
    ]
    dropped = [c for c in ruling.caveats if c.startswith("Dropped the trade-off")]
    assert len(dropped) == 2 and "B does not score best on cost" in dropped[0]
