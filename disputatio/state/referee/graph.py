"""Errors, the validated output and the TypedDict state of the Tech Referee graph.

The state holds plain JSON data (``model_dump(mode="json")`` of the schemas of this package);
:class:`RefereeResult` validates the graph's whole output.
"""

from __future__ import annotations

import operator
from enum import StrEnum
from typing import Annotated, Any, Literal, Required

from pydantic import BaseModel, Field
from typing_extensions import TypedDict

from disputatio.state.reducers import merge_dicts, merge_usage
from disputatio.state.referee.briefs import Brief, CrossExamination
from disputatio.state.referee.plan import ClarificationAnswer, Plan
from disputatio.state.referee.ruling import Ruling
from disputatio.state.referee.types import Phase


class ErrorCode(StrEnum):
    """Typed error codes (the seed's), whatever the phase.

    Attributes:
        INVALID_REQUEST: The request (or the model's request to a provider) is unusable, e.g.
            fewer than two options to compare. Not retryable.
        API_KEY_MISSING: A provider needs an API key that is not set. Not retryable.
        API_KEY_INVALID: The provider rejected the key (401/403). Not retryable.
        RATE_LIMITED: The provider throttled us (429) after the retries. Retryable later.
        AGENT_FAILED: An agent gave no usable reply, or its service failed.
        SEARCH_FAILED: A corpus or web search failed; the run goes on without that evidence
            (reported in ``warnings``, never ends a run).
    """

    INVALID_REQUEST = "INVALID_REQUEST"
    API_KEY_MISSING = "API_KEY_MISSING"
    API_KEY_INVALID = "API_KEY_INVALID"
    RATE_LIMITED = "RATE_LIMITED"
    AGENT_FAILED = "AGENT_FAILED"
    SEARCH_FAILED = "SEARCH_FAILED"


class PhaseError(BaseModel):
    """Why an agent failed (in ``errors``) or what it had to do without (in ``warnings``).

    Attributes:
        code: The seed's error code.
        message: One line.
        agent: The agent, if one.
        phase: The phase it happened in.
        retryable: Whether running the same request again later may succeed.
    """

    code: ErrorCode
    message: str
    agent: str | None = None
    phase: Phase | None = None
    retryable: bool = False


class RefereeResult(BaseModel):
    """The graph's whole output, validated."""

    query: str = ""
    status: Literal["ok", "partial", "failed"] = "failed"
    completed_phases: list[Phase] = Field(default_factory=list)
    error: PhaseError | None = None
    errors: list[PhaseError] = Field(default_factory=list)
    warnings: list[PhaseError] = Field(default_factory=list)
    plan: Plan | None = None
    clarifications: list[ClarificationAnswer] = Field(default_factory=list)
    briefs: list[Brief] = Field(default_factory=list)
    cross_examinations: list[CrossExamination] = Field(default_factory=list)
    ruling: Ruling | None = None
    usage: dict[str, dict[str, Any]] = Field(default_factory=dict)


class RefereeInput(TypedDict, total=False):
    """What a caller passes in.

    Attributes:
        query: The decision to referee, e.g. "pgvector or FAISS for 10M vectors?".
        options: Options the user fixed (they win over the planner's).
        axes: Axes the user fixed, ``[{"name": ..., "weight": 1-10}]``.
        constraints: Constraints the user fixed (fields of :class:`Constraints`).
    """

    query: Required[str]
    options: list[str]
    axes: list[dict[str, Any]]
    constraints: dict[str, Any]


class RefereeState(RefereeInput, total=False):
    """Full state (JSON dumps of the schemas of this package).

    Attributes:
        plan: The current :class:`Plan`.
        questions: Pending clarification questions (for the ``clarify`` node).
        clarifications: Answers received, in order.
        briefs: One :class:`Brief` per advocate (parallel writers).
        evidence: Option → sections its advocate saw (parallel writers).
        cross_examinations: One :class:`CrossExamination` per examiner (parallel writers).
        ruling: The :class:`Ruling`.
        claims: Every advocate claim with its verdict against the sections it cites
            (``Claim`` dicts of ``state/claims.py`` plus the claim's ``id``; set by
            ``finalize``).
        completed_phases: Phases that finished, in order.
        errors: :class:`PhaseError` s of failed agents (parallel writers).
        warnings: :class:`PhaseError` s that did not stop the run, e.g. ``SEARCH_FAILED``.
        error: The first error (set by ``finalize``).
        status: ``ok``, ``partial`` (some phases done) or ``failed`` (set by ``finalize``).
        usage: Per-agent token and latency usage.
    """

    plan: dict[str, Any]
    questions: list[dict[str, Any]]
    clarifications: Annotated[list[dict[str, Any]], operator.add]
    briefs: Annotated[list[dict[str, Any]], operator.add]
    evidence: Annotated[dict[str, list[dict[str, Any]]], merge_dicts]
    cross_examinations: Annotated[list[dict[str, Any]], operator.add]
    ruling: dict[str, Any]
    claims: list[dict[str, Any]]
    completed_phases: Annotated[list[str], operator.add]
    errors: Annotated[list[dict[str, Any]], operator.add]
    warnings: Annotated[list[dict[str, Any]], operator.add]
    error: dict[str, Any] | None
    status: str
    usage: Annotated[dict[str, dict[str, Any]], merge_usage]


class AdvocateTask(TypedDict):
    """``Send`` payload of one advocate: its option and the plan."""

    option: str
    plan: dict[str, Any]


class ExaminerTask(TypedDict):
    """``Send`` payload of one cross-examiner: its option, the plan, briefs and evidence."""

    option: str
    plan: dict[str, Any]
    briefs: list[dict[str, Any]]
    evidence: dict[str, list[dict[str, Any]]]


class RefereeOutput(TypedDict, total=False):
    """What the graph returns (validate with :class:`RefereeResult`)."""

    query: str
    status: str
    completed_phases: list[str]
    error: dict[str, Any] | None
    errors: list[dict[str, Any]]
    warnings: list[dict[str, Any]]
    plan: dict[str, Any]
    clarifications: list[dict[str, Any]]
    briefs: list[dict[str, Any]]
    cross_examinations: list[dict[str, Any]]
    ruling: dict[str, Any]
    claims: list[dict[str, Any]]
    usage: dict[str, dict[str, Any]]
