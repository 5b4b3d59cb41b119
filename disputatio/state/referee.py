"""State and schemas of the Tech Referee graph.

The graph state holds plain JSON data (``model_dump(mode="json")`` of the schemas below), so
it checkpoints cleanly in Postgres and travels through the LangGraph server unchanged; nodes
validate it back into the pydantic schemas at every step. :class:`RefereeResult` validates the
graph's whole output: ``RefereeResult.model_validate(graph.invoke(...))``.
"""

from __future__ import annotations

import operator
from enum import StrEnum
from functools import cache
from typing import Annotated, Any, Literal, Required, TypeVar, cast, get_args

from pydantic import BaseModel, BeforeValidator, Field, create_model
from typing_extensions import TypedDict

from disputatio.state.reducers import merge_dicts, merge_usage


def _to_int_range(lo: int, hi: int) -> BeforeValidator:
    """Round and clamp numbers into ``[lo, hi]`` (small models overshoot ranges)."""

    def clamp(value: Any) -> Any:
        if isinstance(value, int | float) and not isinstance(value, bool):
            return min(max(round(value), lo), hi)
        return value

    return BeforeValidator(clamp)


def _truncate(n: int) -> BeforeValidator:
    """Cut strings (or lists) longer than ``n`` instead of rejecting them."""
    return BeforeValidator(lambda v: v[:n] if isinstance(v, str | list) else v)


# Bounded types for everything a model writes: the bounds reach the JSON schema (so
# grammar-constrained local models cannot ramble past them) and longer values from other
# models are cut, not rejected.
Name = Annotated[str, _truncate(80), Field(max_length=80)]
Text = Annotated[str, _truncate(300), Field(max_length=300)]
Short = Annotated[str, _truncate(160), Field(max_length=160)]
Ids = Annotated[
    list[Annotated[str, _truncate(40), Field(max_length=40)]], _truncate(4), Field(max_length=4)
]
Texts = Annotated[list[Short], _truncate(4), Field(max_length=4)]

#: An axis weight or a score: an integer from 1 to 10 (out-of-range replies are clamped).
OneToTen = Annotated[int, _to_int_range(1, 10), Field(ge=1, le=10)]
QuestionKind = Literal["single_choice", "multi_choice", "free_text"]
ConstraintKind = Literal["budget", "scale", "timeline", "must_have", "nice_to_have", "avoid"]
QuestionTarget = Literal[
    "options", "budget", "scale", "timeline", "must_have", "nice_to_have", "avoid", "axes", "other"
]
Verdict = Literal["confirmed", "disputed", "unverifiable"]
Confidence = Literal["high", "medium", "low"]
Phase = Literal["plan", "advocacy", "cross_examination", "verdict"]
#: The phases in the order they run.
PHASES: tuple[Phase, ...] = ("plan", "advocacy", "cross_examination", "verdict")


M = TypeVar("M", bound=BaseModel)


@cache
def capped(schema: type[M], **caps: int) -> type[M]:
    """A subclass of ``schema`` whose list fields hold at most ``caps[field]`` items.

    Used to fit an output schema to the run (e.g. one claim per axis), which keeps small
    grammar-constrained models from filling lists with repeats.
    """
    fields: dict[str, Any] = {}
    for name, n in caps.items():
        (item,) = get_args(schema.model_fields[name].annotation)  # list[X] -> X
        n = max(n, 1)
        fields[name] = (
            Annotated[list[item], _truncate(n), Field(max_length=n)],  # type: ignore[valid-type]
            Field(default_factory=list),
        )
    return cast(type[M], create_model(schema.__name__, __base__=schema, **fields))


def _to_confidence(value: Any) -> Any:
    """Read a confidence as high/medium/low: numbers (0-1 or percent) are bucketed.

    ``>= 0.75`` is high, ``>= 0.45`` medium, lower is low; strings are case-folded.
    """
    if isinstance(value, int | float) and not isinstance(value, bool):
        unit = value / 100.0 if 1.0 < value <= 100.0 else float(value)
        return "high" if unit >= 0.75 else ("medium" if unit >= 0.45 else "low")
    if isinstance(value, str):
        return value.strip().casefold()
    return value


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


class Constraints(BaseModel):
    """What the user's choice must respect."""

    budget: Text | None = None
    scale: Text | None = None
    timeline: Text | None = None
    must_have: Texts = Field(default_factory=list)
    nice_to_have: Texts = Field(default_factory=list)
    avoid: Texts = Field(default_factory=list)

    def items(self) -> list[str]:
        """Every constraint as one line each (for prompts and coverage checks)."""
        out = [f"{k}: {v}" for k in ("budget", "scale", "timeline") if (v := getattr(self, k))]
        out += [f"must have: {x}" for x in self.must_have]
        out += [f"nice to have: {x}" for x in self.nice_to_have]
        return out + [f"avoid: {x}" for x in self.avoid]


class AxisDraft(BaseModel):
    """A comparison axis and its importance (weight 1-10), as the planner writes it."""

    name: Name
    weight: OneToTen = 5


class Axis(AxisDraft):
    """A comparison axis of the plan."""

    description: Text = ""


class OptionSpec(BaseModel):
    """One option under comparison."""

    name: Name
    summary: Text = ""


class QuestionDraft(BaseModel):
    """A clarification question as the planner writes it."""

    kind: QuestionKind = "free_text"
    question: Text
    choices: Annotated[list[Name], _truncate(6), Field(max_length=6)] = Field(default_factory=list)
    target: QuestionTarget = "other"


class ClarificationQuestion(QuestionDraft):
    """A question put to the user when the request is ambiguous (ids ``q1``, ``q2``...)."""

    id: Name = ""


class ConstraintItem(BaseModel):
    """One constraint as the planner writes it."""

    kind: ConstraintKind
    text: Text


class ClarificationAnswer(BaseModel):
    """The user's answer to one clarification question."""

    id: str
    question: str
    kind: QuestionKind = "free_text"
    target: QuestionTarget = "other"
    answer: str | list[str]


class PlannerDraft(BaseModel):
    """Structured output of the planner model (it never recommends).

    Compact on purpose: strict JSON-schema output makes a model write every field.
    """

    options: Annotated[list[Name], _truncate(6), Field(max_length=6)] = Field(default_factory=list)
    constraints: Annotated[list[ConstraintItem], _truncate(8), Field(max_length=8)] = Field(
        default_factory=list
    )
    axes: Annotated[list[AxisDraft], _truncate(8), Field(max_length=8)] = Field(
        default_factory=list
    )
    ambiguous: bool = False
    questions: Annotated[list[QuestionDraft], _truncate(3), Field(max_length=3)] = Field(
        default_factory=list
    )


class Advocate(BaseModel):
    """The agents assigned to one option."""

    option: str
    advocate: str
    examiner: str


class Plan(BaseModel):
    """The validated plan: options (capped), constraints, weighted axes, one advocate each.

    ``notes`` says what the code had to fix (e.g. the planner's reply was unusable);
    ``evidence`` the sections the planner's search found (shown to the planner).
    """

    query: str
    options: list[OptionSpec]
    constraints: Constraints = Field(default_factory=Constraints)
    axes: list[Axis]
    advocates: list[Advocate] = Field(default_factory=list)
    dropped_options: list[str] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)
    evidence: list[SourceRef] = Field(default_factory=list)


class SourceRef(BaseModel):
    """A section an agent cited (or saw), with where it comes from.

    Attributes:
        id: Section id (``web-<hash>`` for web results).
        source: Document path or URL.
        title: Title, if known.
        quote: The start of the section's text.
    """

    id: str
    source: str = ""
    title: str = ""
    quote: str = ""


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
    """Full state (JSON dumps of the schemas above).

    Attributes:
        plan: The current :class:`Plan`.
        questions: Pending clarification questions (for the ``clarify`` node).
        clarifications: Answers received, in order.
        briefs: One :class:`Brief` per advocate (parallel writers).
        evidence: Option → sections its advocate saw (parallel writers).
        cross_examinations: One :class:`CrossExamination` per examiner (parallel writers).
        ruling: The :class:`Ruling`.
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
    usage: dict[str, dict[str, Any]]
