"""Schemas of the Tech Referee's ruling: axis scores, trade-offs and totals computed in code.

:class:`RulingDraft` (and :class:`FillDraft`, for re-asked cells) is what the referee model
writes; :class:`Ruling` the validated ruling with its weighted totals.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, Field

from disputatio.state.referee.types import (
    Confidence,
    Ids,
    Name,
    OneToTen,
    Short,
    Texts,
    _to_confidence,
    _truncate,
)


class AxisScore(BaseModel):
    """The referee's score (1-10) of one option on one axis, with what it rests on.

    In a :class:`Ruling`, ``evidence`` holds only ids of claims the cases hold (in their own
    spelling); a cell citing none is listed in ``Ruling.uncited_cells``.
    """

    option: Name
    axis: Name
    score: OneToTen
    rationale: Short = ""
    evidence: Ids = Field(
        default_factory=list,
        description='Ids of the claims in <cases> this score rests on, e.g. ["pgvector#1"].',
    )


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

    Checks of the scores (evidence, degenerate scores, no clear winner) are described in
    :mod:`disputatio.nodes.referee.soundness`.

    Attributes:
        totals: Weighted totals per option, computed in code.
        leader: The best weighted score among complete options (None on a tie).
        overridden_by: The user constraint that made the referee recommend another option
            than the leader (None when the recommendation follows the totals).
        missing_cells: ``"option / axis"`` cells still unscored after the re-asks.
        fill_rounds: How many times the referee was asked again for missing cells.
        uncited_cells: ``"option / axis"`` cells whose score cites no claim of the cases.
        rescored: Whether the referee was asked to score again because its scores were
            degenerate (weights copied as scores, or every option scored the same).
        degenerate: Why the scores are degenerate, when they still were after that; the ruling
            then recommends nothing (``recommendation`` is empty, confidence ``low``).
        no_clear_winner: The best complete options' weighted scores are tied or within the
            run's margin (``RefereeContext.tie_margin``); the ruling then recommends nothing
            unless a user constraint decides (``overridden_by``), with ``low`` confidence.
        unsupported_cells: ``"option / axis"`` cells whose evidence claims the claim checker
            found unsupported, every one of them (set when the run finalizes).
        unbacked: Why the ruling recommends nothing although the referee named an option:
            no score of that option rests on a supported claim (``""`` otherwise).
        rendered: The verdict as text with rendering keys (``_Poll{…}``, ``_Score{…}``,
            ``_Table{…}``; grammar in :mod:`disputatio.state.referee_keys`).
        keys: The same keys in their JSON form (``keys_json(rendered)``).
    """

    totals: list[OptionTotal] = Field(default_factory=list)
    leader: str | None = None
    overridden_by: str | None = None
    missing_cells: list[str] = Field(default_factory=list)
    fill_rounds: int = 0
    uncited_cells: list[str] = Field(default_factory=list)
    rescored: bool = False
    degenerate: str = ""
    no_clear_winner: bool = False
    unsupported_cells: list[str] = Field(default_factory=list)
    unbacked: str = ""
    rendered: str = ""
    keys: list[dict[str, Any]] = Field(default_factory=list)
