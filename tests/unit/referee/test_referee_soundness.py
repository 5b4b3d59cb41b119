"""The referee scores from evidence: cited cells, degenerate scores re-asked, no clear winner."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from langchain_core.messages import AIMessage
from langgraph.checkpoint.memory import InMemorySaver

from disputatio.graphs.referee import RefereeContext, build_graph
from disputatio.nodes.referee.scoring import build_ruling
from disputatio.nodes.referee.soundness import close_race, degenerate
from disputatio.state.referee import (
    Axis,
    AxisScore,
    Constraints,
    OptionSpec,
    OptionTotal,
    Plan,
    RefereeResult,
    RulingDraft,
)

from .referee_fakes import (
    AXIS_NAMES,
    advocate_reply,
    context,
    happy_models,
    plan_reply,
    ruling_reply,
)

#: The incident's axes: the referee copied these weights as both options' scores.
INCIDENT_AXES = [("latency", 10), ("operations", 10), ("cost", 5), ("ecosystem", 5)]
INCIDENT_NAMES = [a for a, _ in INCIDENT_AXES]


def _run(ctx: RefereeContext) -> RefereeResult:
    graph: Any = build_graph(max_attempts=1).compile(checkpointer=InMemorySaver())
    thread = {"configurable": {"thread_id": f"t-{uuid.uuid4()}"}}
    return RefereeResult.model_validate(
        graph.invoke({"query": "pgvector or FAISS?"}, thread, context=ctx)
    )


def _cell(o: str, a: str, score: int, evidence: list[str]) -> dict[str, Any]:
    return {"option": o, "axis": a, "score": score, "rationale": "why", "evidence": evidence}


#: A FAISS advocate whose every claim its section (fa-1) states: the claim check supports them.
FAISS_SUPPORTED = {
    "summary": "FAISS fits",
    "claims": [
        {
            "axis": a,
            "text": "FAISS is an in-memory library for fast similarity search on billions of "
            "vectors.",
            "citations": ["fa-1"],
        }
        for a in AXIS_NAMES
    ],
    "weaknesses": [],
}


# --- (a) every score cell carries the evidence it rests on --------------------------------------


def test_score_cells_keep_their_cited_claims_and_uncited_cells_are_flagged() -> None:
    reply = {
        "scores": [
            _cell("pgvector", "latency", 6, ["[PGVECTOR#1]", "pgvector#1", "made-up#9"]),
            _cell("pgvector", "operations", 9, ["pgvector#2", "faiss#2"]),
            _cell("FAISS", "latency", 9, ["faiss#1"]),
            _cell("FAISS", "operations", 4, []),
        ],
        "recommendation": "FAISS",
        "confidence": "high",
    }
    models = happy_models(referee=[reply], advocate_faiss=[FAISS_SUPPORTED])
    result = _run(context(models))
    ruling = result.ruling
    assert ruling is not None and result.status == "ok"
    cells = {(s.option, s.axis): s for s in ruling.scores}
    # ids in the claims' own spelling, each once; an id no case holds is dropped
    assert cells[("pgvector", "latency")].evidence == ["pgvector#1"]
    assert cells[("pgvector", "operations")].evidence == ["pgvector#2", "faiss#2"]
    assert cells[("FAISS", "latency")].evidence == ["faiss#1"]
    assert cells[("pgvector", "latency")].rationale == "why"
    assert ruling.uncited_cells == ["FAISS / operations"]
    assert any("1 of 4 scores cite no evidence: FAISS / operations" in c for c in ruling.caveats)
    assert any("made-up#9" in c for c in ruling.caveats)
    assert ruling.confidence == "medium"  # a score resting on nothing caps "high"
    # the referee was shown the claim ids and asked to cite them per score
    prompt = models["referee"].prompts[0]
    assert "[pgvector#1] (latency)" in str(prompt[1].content)
    assert "ids of the claims in <cases>" in str(prompt[0].content)


def test_a_ruling_whose_cells_all_cite_claims_keeps_its_confidence() -> None:
    reply = ruling_reply({}, "FAISS", confidence="high")
    reply["scores"] = [
        _cell("pgvector", "latency", 6, ["pgvector#1"]),
        _cell("pgvector", "operations", 9, ["pgvector#2"]),
        _cell("FAISS", "latency", 9, ["faiss#1"]),
        _cell("FAISS", "operations", 4, ["faiss#2"]),
    ]
    ruling = _run(context(happy_models(referee=[reply], advocate_faiss=[FAISS_SUPPORTED]))).ruling
    assert ruling is not None
    assert ruling.uncited_cells == [] and ruling.confidence == "high"
    assert ruling.recommendation == "FAISS" and not ruling.unbacked


# --- (b) degenerate scores: asked again once, then reported -----------------------------------


def _incident_models(*referee: Any) -> dict[str, Any]:
    return happy_models(
        planner=[plan_reply(["pgvector", "FAISS"], INCIDENT_AXES)],
        advocate_pgvector=[advocate_reply("pgvector", "pg-1", INCIDENT_NAMES)],
        advocate_faiss=[advocate_reply("FAISS", "fa-1", INCIDENT_NAMES)],
        referee=list(referee),
    )


COPIED = {(o, a): w for o in ("pgvector", "FAISS") for a, w in INCIDENT_AXES}


def test_weights_copied_as_scores_are_sent_back_once_with_the_reason() -> None:
    """The incident: both options scored 10/10/5/5 (the weights), tied at 8.33, "high"."""
    rescored = {
        ("pgvector", "latency"): 6,
        ("pgvector", "operations"): 9,
        ("pgvector", "cost"): 9,
        ("pgvector", "ecosystem"): 8,
        ("FAISS", "latency"): 9,
        ("FAISS", "operations"): 4,
        ("FAISS", "cost"): 7,
        ("FAISS", "ecosystem"): 7,
    }
    models = _incident_models(
        ruling_reply(COPIED, "pgvector", confidence="high"),
        ruling_reply(rescored, "pgvector", confidence="medium"),
    )
    ruling = _run(context(models, max_fill_rounds=0)).ruling
    assert ruling is not None and models["referee"].calls == 2
    second = models["referee"].prompts[1]
    note = str(second[-1].content)
    assert note.startswith("Your scores are degenerate:")
    assert "pgvector, FAISS scored exactly the axis weights (10/10/5/5)" in note
    assert "every option got the same scores (10/10/5/5)" in note
    # it sees its own scores so far, after the original prompt
    assert isinstance(second[-2], AIMessage) and '"score":10' in str(second[-2].content)
    assert [str(m.content) for m in second[:2]] == [
        str(m.content) for m in models["referee"].prompts[0]
    ]
    # the new scores are the ruling's: pgvector (60+90+45+40)/30 = 7.83, FAISS 6.67
    assert {(s.option, s.axis): s.score for s in ruling.scores} == rescored
    assert ruling.rescored and ruling.degenerate == ""
    assert ruling.recommendation == "pgvector" and ruling.leader == "pgvector"


def test_scores_still_degenerate_are_reported_not_recommended() -> None:
    models = _incident_models(
        ruling_reply(COPIED, "pgvector", confidence="high"),
        ruling_reply(COPIED, "pgvector", confidence="high"),
    )
    result = _run(context(models, max_fill_rounds=0))
    ruling = result.ruling
    assert ruling is not None and models["referee"].calls == 2
    assert result.usage["referee"]["calls"] == 2
    assert ruling.rescored and "scored exactly the axis weights" in ruling.degenerate
    assert ruling.recommendation == "" and ruling.confidence == "low"
    assert ruling.caveats[0].startswith("No verdict: the scores are degenerate even when asked")
    assert ruling.rendered.startswith("No verdict: the scores are degenerate")
    assert "Recommendation:" not in ruling.rendered


def test_a_re_scoring_without_a_valid_reply_leaves_the_degenerate_scores_reported() -> None:
    models = _incident_models(ruling_reply(COPIED, "pgvector", confidence="high"), "no JSON here")
    result = _run(context(models, max_fill_rounds=0))
    ruling = result.ruling
    assert result.status == "ok" and ruling is not None and models["referee"].calls == 2
    assert result.usage["referee"]["calls"] == 2  # the failed attempt is counted
    assert ruling.rescored and ruling.degenerate and ruling.recommendation == ""


def test_sound_scores_are_not_sent_back() -> None:
    models = happy_models()
    ruling = _run(context(models)).ruling
    assert ruling is not None and models["referee"].calls == 1 and not ruling.rescored


def _plan(axes: list[tuple[str, int]], *options: str, **constraints: Any) -> Plan:
    return Plan(
        query="q",
        options=[OptionSpec(name=o) for o in options],
        axes=[Axis(name=n, weight=w) for n, w in axes],
        constraints=Constraints(**constraints),
    )


def test_degenerate_detection() -> None:
    plan = _plan([("latency", 8), ("ops", 3)], "A", "B")
    assert degenerate(plan, {("A", "latency"): 8, ("A", "ops"): 3}) == (
        "A scored exactly the axis weights (8/3)"
    )
    same = {("A", "latency"): 6, ("A", "ops"): 6, ("B", "latency"): 6, ("B", "ops"): 6}
    assert degenerate(plan, same) == "every option got the same scores (6/6)"
    assert degenerate(plan, same | {("B", "ops"): 7}) is None
    # an option not scored yet: no "same scores" verdict over half the grid
    assert degenerate(plan, {("A", "latency"): 6, ("A", "ops"): 6}) is None
    # one axis: equal scores (or the weight) are only a tie
    one = _plan([("latency", 8)], "A", "B")
    assert degenerate(one, {("A", "latency"): 8, ("B", "latency"): 8}) is None


# --- (c) totals within the margin: no clear winner -------------------------------------------

AXES3 = [("latency", 7), ("cost", 2), ("ops", 1)]


def _scores(option: str, *values: int) -> list[AxisScore]:
    return [
        AxisScore(option=option, axis=a, score=v, evidence=[f"{option}#1"])
        for (a, _), v in zip(AXES3, values, strict=True)
    ]


def test_totals_within_the_margin_are_no_clear_winner() -> None:
    # A: (56 + 6 + 10) / 10 = 7.2; B: (56 + 4 + 9) / 10 = 6.9
    draft = RulingDraft(
        scores=_scores("A", 8, 3, 10) + _scores("B", 8, 2, 9),
        recommendation="A",
        confidence="high",
    )
    ruling = build_ruling(_plan(AXES3, "A", "B"), draft)
    assert ruling.leader == "A"  # still the best total, reported
    assert ruling.no_clear_winner and ruling.recommendation == ""
    assert ruling.confidence == "low"
    assert ruling.caveats[0] == "No clear winner: A 7.20, B 6.90 within 0.5 points."
    assert ruling.rendered.startswith("No clear winner on the weighted scores (confidence: low)")
    # a smaller margin separates them
    clear = build_ruling(_plan(AXES3, "A", "B"), draft, margin=0.2)
    assert not clear.no_clear_winner and clear.recommendation == "A"
    assert clear.confidence == "high"


def test_a_tie_is_no_clear_winner_whatever_the_referee_recommends() -> None:
    """Equal totals from different scores (not degenerate): A 56+8+8 = 72 = B 56+6+10."""
    draft = RulingDraft(
        scores=_scores("A", 8, 4, 8) + _scores("B", 8, 3, 10),
        recommendation="B",
        confidence="high",
    )
    ruling = build_ruling(_plan(AXES3, "A", "B"), draft, margin=0.0)
    assert ruling.leader is None and not ruling.degenerate
    assert ruling.no_clear_winner and ruling.recommendation == ""
    assert ruling.confidence == "low"
    assert ruling.caveats[0] == "No clear winner: A 7.20, B 7.20 tied."


def test_a_user_constraint_can_decide_a_close_race_with_low_confidence() -> None:
    plan = _plan(AXES3, "A", "B", avoid=["vendor lock-in"])
    draft = RulingDraft(
        scores=_scores("A", 8, 3, 10) + _scores("B", 8, 2, 9),
        recommendation="B",
        override_constraint="A means vendor lock-in",
        confidence="high",
    )
    ruling = build_ruling(plan, draft)
    assert ruling.no_clear_winner and ruling.recommendation == "B"
    assert ruling.overridden_by == "avoid: vendor lock-in" and ruling.confidence == "low"
    assert ruling.caveats[0].startswith("No clear winner: A 7.20, B 6.90 within 0.5 points; B")


def test_close_race_only_counts_complete_options() -> None:
    totals = [
        OptionTotal(
            option="A", weighted_sum=72, weighted_score=7.2, scored_weight=10, complete=True
        ),
        OptionTotal(
            option="B", weighted_sum=50, weighted_score=7.1, scored_weight=7, complete=False
        ),
        OptionTotal(
            option="C", weighted_sum=60, weighted_score=6.0, scored_weight=10, complete=True
        ),
    ]
    assert close_race(totals, 0.5) == []
    assert [t.option for t in close_race(totals, 1.2)] == ["A", "C"]


def test_the_runs_tie_margin_reaches_the_ruling() -> None:
    """Happy path totals: FAISS 84/11 = 7.64, pgvector 75/11 = 6.82 (0.82 apart)."""
    default = _run(context(happy_models())).ruling
    assert default is not None and default.recommendation == "FAISS"
    assert not default.no_clear_winner
    wide = _run(context(happy_models(), tie_margin=1.0)).ruling
    assert wide is not None and wide.no_clear_winner and wide.recommendation == ""
    assert wide.confidence == "low" and "within 1 points" in wide.caveats[0]


def test_a_negative_tie_margin_is_an_invalid_request() -> None:
    result = _run(context(happy_models(), tie_margin=-0.1))
    assert result.ruling is None and result.errors[-1].code == "INVALID_REQUEST"
    assert "tie_margin" in result.errors[-1].message


@pytest.mark.parametrize("margin", [0.0, 0.5])
def test_a_clear_winner_is_still_recommended(margin: float) -> None:
    draft = RulingDraft(
        scores=_scores("A", 9, 9, 9) + _scores("B", 1, 1, 1), recommendation="A", confidence="high"
    )
    ruling = build_ruling(_plan(AXES3, "A", "B"), draft, margin=margin)
    assert ruling.recommendation == "A" and ruling.confidence == "high"
    assert not ruling.no_clear_winner and ruling.rendered.startswith("Recommendation: A")
