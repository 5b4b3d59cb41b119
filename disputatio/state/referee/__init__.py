"""State and schemas of the Tech Referee graph.

The graph state holds plain JSON data (``model_dump(mode="json")`` of the schemas below), so
it checkpoints cleanly in Postgres and travels through the LangGraph server unchanged; nodes
validate it back into the pydantic schemas at every step. :class:`RefereeResult` validates the
graph's whole output: ``RefereeResult.model_validate(graph.invoke(...))``.

Modules:
    types: Bounded field types, lenient validators, literals and :func:`capped`.
    plan: The plan (options, constraints, weighted axes, clarifications) and ``SourceRef``.
    briefs: Advocacy (briefs) and cross-examination.
    ruling: The referee's scores, trade-offs and weighted totals.
    graph: Error codes, :class:`RefereeResult` and the TypedDict input, state, tasks, output.

Every public name is re-exported here: import from ``disputatio.state.referee``.
"""

from disputatio.state.referee.briefs import (
    AdvocateDraft,
    Brief,
    BriefClaim,
    CheckedClaim,
    Claim,
    ClaimCheck,
    ConstrainedAdvocateDraft,
    ConstraintNote,
    CrossExamination,
    ExaminerDraft,
)
from disputatio.state.referee.graph import (
    AdvocateTask,
    ErrorCode,
    ExaminerTask,
    PhaseError,
    RefereeInput,
    RefereeOutput,
    RefereeResult,
    RefereeState,
)
from disputatio.state.referee.plan import (
    Advocate,
    Axis,
    AxisDraft,
    ClarificationAnswer,
    ClarificationQuestion,
    ConstraintItem,
    Constraints,
    OptionSpec,
    Plan,
    PlannerDraft,
    QuestionDraft,
    SourceRef,
)
from disputatio.state.referee.ruling import (
    AxisScore,
    FillDraft,
    OptionTotal,
    Ruling,
    RulingDraft,
    TradeOff,
)
from disputatio.state.referee.types import (
    PHASES,
    Confidence,
    ConstraintKind,
    Ids,
    Name,
    OneToTen,
    Phase,
    QuestionKind,
    QuestionTarget,
    Short,
    Text,
    Texts,
    Verdict,
    capped,
)

__all__ = [
    "PHASES",
    "Advocate",
    "AdvocateDraft",
    "AdvocateTask",
    "Axis",
    "AxisDraft",
    "AxisScore",
    "Brief",
    "BriefClaim",
    "CheckedClaim",
    "Claim",
    "ClaimCheck",
    "ClarificationAnswer",
    "ClarificationQuestion",
    "Confidence",
    "ConstrainedAdvocateDraft",
    "ConstraintItem",
    "ConstraintKind",
    "ConstraintNote",
    "Constraints",
    "CrossExamination",
    "ErrorCode",
    "ExaminerDraft",
    "ExaminerTask",
    "FillDraft",
    "Ids",
    "Name",
    "OneToTen",
    "OptionSpec",
    "OptionTotal",
    "Phase",
    "PhaseError",
    "Plan",
    "PlannerDraft",
    "QuestionDraft",
    "QuestionKind",
    "QuestionTarget",
    "RefereeInput",
    "RefereeOutput",
    "RefereeResult",
    "RefereeState",
    "Ruling",
    "RulingDraft",
    "Short",
    "SourceRef",
    "Text",
    "Texts",
    "TradeOff",
    "Verdict",
    "capped",
]
