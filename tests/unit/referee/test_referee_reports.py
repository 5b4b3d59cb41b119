"""Markdown report and PNG chart of a referee result."""

from __future__ import annotations

from pathlib import Path

import pytest

from disputatio.nodes.referee.scoring import build_ruling
from disputatio.reports import render_referee_markdown, render_score_chart, write_referee_report
from disputatio.state.referee import (
    Axis,
    AxisScore,
    ErrorCode,
    OptionSpec,
    PhaseError,
    Plan,
    RefereeResult,
    RulingDraft,
)

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def _result() -> RefereeResult:
    plan = Plan(
        query="pgvector or FAISS | for search?",
        options=[OptionSpec(name="pgvector"), OptionSpec(name="FAISS")],
        axes=[Axis(name="latency", weight=8), Axis(name="operations", weight=3)],
    )
    scores = {("pgvector", "latency"): 6, ("pgvector", "operations"): 9, ("FAISS", "latency"): 9}
    draft = RulingDraft(
        scores=[
            AxisScore(option=o, axis=a, score=s, rationale="r") for (o, a), s in scores.items()
        ],
        recommendation="FAISS",
        confidence="medium",
        trade_offs=[{"if_matters": "operations", "choose": "pgvector"}],  # type: ignore[list-item]
    )
    return RefereeResult(
        query=plan.query,
        status="ok",
        completed_phases=["plan", "advocacy", "cross_examination", "verdict"],
        plan=plan,
        ruling=build_ruling(plan, draft),
        usage={
            "referee": {
                "role": "referee",
                "calls": 1,
                "input_tokens": 10,
                "output_tokens": 5,
                "latency_ms": 1500.0,
            }
        },
    )


def test_markdown_has_the_comparison_table_and_scores() -> None:
    text = render_referee_markdown(_result())
    assert "| Axis | Weight | pgvector | FAISS |" in text
    assert "| latency | 8 | 6 | 9 |" in text
    assert "| operations | 3 | 9 | – |" in text  # FAISS was not scored on operations
    # pgvector: (8*6 + 3*9) / 11 = 75 / 11 = 6.82; FAISS partial: 8*9 / 8 = 9.00
    assert "**6.82**" in text and "**9.00** (partial)" in text
    assert "If operations matters, choose **pgvector**" in text
    assert "| referee | referee | 1 | 10 | 5 | 1.5 |" in text


def test_markdown_of_a_partial_result_shows_the_error() -> None:
    r = _result().model_copy(
        update={
            "status": "partial",
            "ruling": None,
            "completed_phases": ["plan"],
            "error": PhaseError(
                code=ErrorCode.AGENT_FAILED, message="boom", agent="advocate-faiss"
            ),
        }
    )
    text = render_referee_markdown(r.model_dump(mode="json"))
    assert "**AGENT_FAILED**: boom" in text
    assert "| latency | 8 | – | – |" in text


def test_chart_is_a_png(tmp_path: Path) -> None:
    path = render_score_chart(_result(), tmp_path / "sub" / "chart.png")
    data = path.read_bytes()
    assert data.startswith(PNG_MAGIC) and len(data) > 1000


def test_chart_needs_a_ruling(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="no ruling"):
        render_score_chart(_result().model_copy(update={"ruling": None}), tmp_path / "c.png")


def test_write_report(tmp_path: Path) -> None:
    md, chart = write_referee_report(_result(), tmp_path)
    assert chart is not None and chart.read_bytes().startswith(PNG_MAGIC)
    assert "![Scores](chart.png)" in md.read_text(encoding="utf-8")
    md2, chart2 = write_referee_report(
        _result().model_copy(update={"ruling": None}), tmp_path / "p"
    )
    assert chart2 is None and md2.exists()
