"""Schemas of the Tech Referee's advocacy and cross-examination phases.

The ``*Draft`` classes are what the advocate and cross-examiner models write; :class:`Brief`
and :class:`CrossExamination` are their outputs once the citations are checked in code.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, Field

from disputatio.state.referee.plan import SourceRef
from disputatio.state.referee.types import Ids, Name, Short, Texts, Verdict, _truncate


class Claim(BaseModel):
    """A factual claim about an option on one axis, with the section ids backing it."""

    axis: Name
    text: Annotated[str, _truncate(200), Field(max_length=200)]
    citations: Ids = Field(default_factory=list)


class ConstraintNote(BaseModel):
    """How an option fares against one constraint."""

    constraint: Short
    assessment: Short
    citations: Ids = Field(default_factory=list)


class AdvocateDraft(BaseModel):
    """Structured output of an advocate model when the plan has no constraints."""

    summary: Short = ""
    claims: Annotated[list[Claim], _truncate(8), Field(max_length=8)] = Field(default_factory=list)
    weaknesses: Texts = Field(default_factory=list)


class ConstrainedAdvocateDraft(AdvocateDraft):
    """Structured output of an advocate model when the plan has constraints."""

    constraints: Annotated[list[ConstraintNote], _truncate(6), Field(max_length=6)] = Field(
        default_factory=list
    )


class BriefClaim(Claim):
    """A claim as kept in a brief: an id, and only citations of sections the agent saw."""

    id: str
    cited: bool = False


class Brief(BaseModel):
    """An advocate's case for its option, with citations checked in code.

    ``sources`` lists the ids of every section the advocate saw, ``evidence`` the sections its
    claims and notes cite (with their documents), ``limitations`` the searches that failed.
    """

    option: str
    agent: str
    summary: str = ""
    claims: list[BriefClaim] = Field(default_factory=list)
    constraints: list[ConstraintNote] = Field(default_factory=list)
    weaknesses: list[str] = Field(default_factory=list)
    missing_axes: list[str] = Field(default_factory=list)
    invalid_citations: list[str] = Field(default_factory=list)
    sources: list[str] = Field(default_factory=list)
    evidence: list[SourceRef] = Field(default_factory=list)
    limitations: list[str] = Field(default_factory=list)


class ClaimCheck(BaseModel):
    """A cross-examiner's verdict on one opponent claim (by claim id)."""

    claim_id: Name
    verdict: Verdict = "unverifiable"
    rationale: Short = ""
    citations: Ids = Field(default_factory=list)


class ExaminerDraft(BaseModel):
    """Structured output of a cross-examiner model."""

    checks: Annotated[list[ClaimCheck], _truncate(12), Field(max_length=12)] = Field(
        default_factory=list
    )
    defense: Short = ""
    defense_citations: Ids = Field(default_factory=list)


class CheckedClaim(ClaimCheck):
    """A verdict with the claim it judges (verdicts without valid evidence are downgraded).

    ``sources`` are the documents (paths or URLs) of the cited sections.
    """

    target_option: str
    claim: str
    sources: list[str] = Field(default_factory=list)


class CrossExamination(BaseModel):
    """One examiner's fact-check of its opponents and defense of its own option."""

    option: str
    agent: str
    checks: list[CheckedClaim] = Field(default_factory=list)
    defense: str = ""
    defense_citations: list[str] = Field(default_factory=list)
    evidence: list[SourceRef] = Field(default_factory=list)
    limitations: list[str] = Field(default_factory=list)
