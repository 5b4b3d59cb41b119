"""Schemas of the Tech Referee's plan: options, constraints, weighted axes, clarifications.

:class:`PlannerDraft` is what the planner model writes; :class:`Plan` the plan validated in
code. :class:`SourceRef` (a cited or seen section) is shared by the plan, briefs and
cross-examinations.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, Field

from disputatio.state.referee.types import (
    ConstraintKind,
    Name,
    OneToTen,
    QuestionKind,
    QuestionTarget,
    Text,
    Texts,
    _truncate,
)


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
