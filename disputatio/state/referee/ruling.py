"""Schemas of the Tech Referee's ruling: axis scores, trade-offs and totals computed in code.

:class:`RulingDraft` (and :class:`FillDraft`, for re-asked cells) is what the referee model
writes; :class:`Ruling` the validated ruling with its weighted totals.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, Field

from disputatio.state.referee.types import (
    Confidence,
    Name,
    OneToTen,
    Short,
    Texts,
    _to_confidence,
    _truncate,
)


class AxisScore(BaseModel):
    """The referee's score (1-10) of one option on one axis."""

    option: Name
    axis: Name
    score: OneToTen
    rationale: Short = ""


class TradeOff(BaseModel):
    """``If <if_matters> matters, choose <choose>``."""

    if_matters: Short
    choose: Name
    because: Short = ""


class RulingDraft(BaseModel):
    """Structured output of the referee model (no totals: those are computed in code)."""

    scores: Annotated[list[AxisScore], _truncate(30), Field(max_length=30)] = Field(
        default_factory=list
    )
    trade_offs: Annotated[list[TradeOff], _truncate(4), Field(max_length=4)] = Field(
        default_factory=list
    )
    recommendation: Name = ""
    override_constraint: Short = Field(
        default="",
        description="Only when recommending an option whose weighted total is not the best: "
        "the user constraint that overrides the totals.",
    )
    confidence: Annotated[Confidence, BeforeValidator(_to_confidence)] = "medium"
    caveats: Texts = Field(default_factory=list)


class FillDraft(BaseModel):
    """Structured output of the referee when asked again for missing or ambiguous cells."""

    scores: Annotated[list[AxisScore], _truncate(30), Field(max_length=30)] = Field(
        default_factory=list
    )


class OptionTotal(BaseModel):
    """Weighted total of one option, computed in code from the axis weights.

    ``weighted_sum = Σ weight·score`` over the scored axes and
    ``weighted_score = weighted_sum / Σ weight`` (a score on the same 1-10 scale).
    """

    option: str
    weighted_sum: float
    weighted_score: float
    scored_weight: int
    complete: bool


class Ruling(RulingDraft):
    """The validated ruling: scores, trade-offs, recommendation, caveats and code totals.

    Attributes:
        totals: Weighted totals per option, computed in code.
        leader: The best weighted score among complete options (None on a tie).
        overridden_by: The user constraint that made the referee recommend another option
            than the leader (None when the recommendation follows the totals).
        missing_cells: ``"option / axis"`` cells still unscored after the re-asks.
        fill_rounds: How many times the referee was asked again for missing cells.
        rendered: The verdict as text with rendering keys (``_Poll{…}``, ``_Score{…}``,
            ``_Table{…}``; grammar in :mod:`disputatio.state.referee_keys`).
        keys: The same keys in their JSON form (``keys_json(rendered)``).
    """

    totals: list[OptionTotal] = Field(default_factory=list)
    leader: str | None = None
    overridden_by: str | None = None
    missing_cells: list[str] = Field(default_factory=list)
    fill_rounds: int = 0
    rendered: str = ""
    keys: list[dict[str, Any]] = Field(default_factory=list)
