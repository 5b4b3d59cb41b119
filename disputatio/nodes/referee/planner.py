"""The planner node, the clarification node (LangGraph ``interrupt``) and the route after them."""

from __future__ import annotations

import json
import logging
import time
from typing import Any, Literal

from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage
from langgraph.runtime import Runtime
from langgraph.types import Send, interrupt

from disputatio.errors import ModelError
from disputatio.models.accounting import usage_record
from disputatio.models.structured import structured_invoke
from disputatio.nodes.context import context_of
from disputatio.nodes.referee.context import RefereeContext, RefereeNode
from disputatio.nodes.referee.evidence import gather, render, source_refs
from disputatio.nodes.referee.guard import emit, run_guarded, search_warnings
from disputatio.nodes.referee.planning import build_plan, normalize_answers, pick_questions
from disputatio.prompts import referee as prompts
from disputatio.state.referee import (
    AdvocateTask,
    ClarificationAnswer,
    ClarificationQuestion,
    ErrorCode,
    PhaseError,
    PlannerDraft,
    RefereeState,
)
from disputatio.state.retrieval import Section

logger = logging.getLogger(__name__)


def planner_messages(
    state: RefereeState,
    answers: list[ClarificationAnswer],
    ctx: RefereeContext,
    sections: list[Section] | None = None,
) -> list[BaseMessage]:
    """The planner's prompt: the request, what the user fixed, the answers, the evidence.

    The evidence is what a search of the request found, so options and axes can come from it.
    """
    fixed = {k: state[k] for k in ("options", "axes", "constraints") if state.get(k)}
    remaining = max(ctx.clarification_cap() - len(answers), 0)
    system = prompts.PLANNER_SYSTEM.format(
        max_options=ctx.option_cap(), max_axes=ctx.max_axes, max_questions=remaining
    )
    qa = "\n".join(f"Q: {a.question}\nA: {_text(a.answer)}" for a in answers)
    user = prompts.PLANNER_USER.format(
        query=state["query"],
        fixed=json.dumps(fixed) if fixed else prompts.NONE,
        clarifications=qa or prompts.NONE,
        sections=render(sections or [], ctx),
    )
    return [SystemMessage(system), HumanMessage(user)]


def _text(answer: str | list[str]) -> str:
    return ", ".join(answer) if isinstance(answer, list) else answer


def draft_plan(
    state: RefereeState,
    answers: list[ClarificationAnswer],
    ctx: RefereeContext,
    sections: list[Section] | None = None,
) -> tuple[PlannerDraft, dict[str, dict[str, Any]], str | None]:
    """Ask the planner model for a draft.

    When its reply is unusable but the user fixed two options and the axes, the run goes on
    with an empty draft and a note instead of failing.
    """
    t0 = time.perf_counter()
    try:
        draft, usage = structured_invoke(
            ctx.llm("planner", "planner"),
            PlannerDraft,
            planner_messages(state, answers, ctx, sections),
            agent="planner",
            role="planner",
            retries=ctx.structured_retries,
        )
    except ModelError as exc:
        if len(state.get("options") or []) < 2 or not state.get("axes"):
            raise
        logger.warning("planner reply unusable, planning from the user's input: %s", exc.message)
        note = f"planner reply unusable ({exc.message}); plan built from the user's input"
        return (
            PlannerDraft(),
            usage_record("planner", "planner", None, time.perf_counter() - t0),
            note,
        )
    return draft, usage, None


def make_plan_node(max_attempts: int, rate_limit_retries: int = 2) -> RefereeNode[RefereeState]:
    """Build the ``plan`` node (its retry policy allows ``max_attempts``)."""

    def plan(state: RefereeState, runtime: Runtime[RefereeContext]) -> dict[str, Any]:
        """Ask the planner for options, constraints and weighted axes, or for clarifications."""
        ctx = context_of(runtime, RefereeContext)

        def work() -> dict[str, Any]:
            answers = [
                ClarificationAnswer.model_validate(a) for a in state.get("clarifications") or []
            ]
            sections, limitations = gather(ctx, [state["query"]], web=True)
            draft, usage, note = draft_plan(state, answers, ctx, sections)
            plan = build_plan(
                state, draft, answers, max_options=ctx.option_cap(), max_axes=ctx.max_axes
            )
            plan.evidence = source_refs(sections, [s.id for s in sections])
            if note:
                plan.notes.append(note)
            questions = pick_questions(
                draft,
                plan,
                asked=len(answers),
                budget=ctx.clarification_cap(),
                first_round=not answers,
            )
            update: dict[str, Any] = {
                "plan": plan.model_dump(mode="json"),
                "questions": [q.model_dump(mode="json") for q in questions],
                "usage": usage,
            }
            if limitations and not answers:
                update["warnings"] = search_warnings("planner", "plan", limitations)
            if questions:
                emit(runtime, {"event": "clarification", "questions": len(questions)})
            elif len(plan.options) < 2:
                found = ", ".join(o.name for o in plan.options) or "none"
                error = PhaseError(
                    code=ErrorCode.INVALID_REQUEST,
                    agent="planner",
                    phase="plan",
                    message=f"found fewer than two options to compare (found: {found}); "
                    "name them in the request",
                )
                update["errors"] = [error.model_dump(mode="json")]
            else:
                update["completed_phases"] = ["plan"]
                names = [o.name for o in plan.options]
                emit(
                    runtime,
                    {
                        "event": "turn",
                        "phase": "plan",
                        "agent": "planner",
                        "status": "done",
                        "options": names,
                    },
                )
            return update

        return run_guarded(
            runtime,
            "plan",
            "planner",
            work,
            max_attempts=max_attempts,
            rate_limit_retries=rate_limit_retries,
            role="planner",
        )

    return plan


def clarify(state: RefereeState) -> dict[str, Any]:
    """Ask the pending questions through ``interrupt`` and record the answers.

    The interrupt value is ``{"type": "clarification", "query", "options", "questions"}``;
    resume with ``Command(resume={question_id: answer})`` (or a list of answers in order).
    """
    questions = [ClarificationQuestion.model_validate(q) for q in state.get("questions") or []]
    plan = state.get("plan") or {}
    resume = interrupt(
        {
            "type": "clarification",
            "query": state["query"],
            "options": [o["name"] for o in plan.get("options", [])],
            "questions": [q.model_dump(mode="json") for q in questions],
        }
    )
    answers = normalize_answers(questions, resume)
    return {"clarifications": [a.model_dump(mode="json") for a in answers], "questions": []}


def route_after_plan(state: RefereeState) -> list[Send] | Literal["clarify", "finalize"]:
    """Clarify when questions are pending, stop on a planner error, else one advocate each."""
    if state.get("errors"):
        return "finalize"
    if state.get("questions"):
        return "clarify"
    plan = state.get("plan") or {}
    return [
        Send("advocate", AdvocateTask(option=o["name"], plan=plan)) for o in plan.get("options", [])
    ]
