"""The referee node: scores, trade-offs, a recommendation (totals are computed in code)."""

from __future__ import annotations

import logging
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage
from langgraph.runtime import Runtime
from pydantic import BaseModel

from disputatio.models.structured import StructuredOutputError, structured_invoke
from disputatio.nodes.context import context_of
from disputatio.nodes.referee.advocate import axes_text
from disputatio.nodes.referee.context import RefereeContext, RefereeNode
from disputatio.nodes.referee.examiner import case_text
from disputatio.nodes.referee.guard import emit, run_guarded
from disputatio.nodes.referee.scoring import Cells, build_ruling
from disputatio.prompts import referee as prompts
from disputatio.state.reducers import merge_usage
from disputatio.state.referee import (
    Brief,
    CrossExamination,
    FillDraft,
    Plan,
    RefereeState,
    RulingDraft,
    capped,
)

logger = logging.getLogger(__name__)


def exams_text(exams: list[CrossExamination]) -> str:
    """Verdict lines (``claim id: verdict — rationale``) and defenses, per examiner."""
    blocks = []
    for e in exams:
        lines = [f"{c.claim_id}: {c.verdict} — {c.rationale}".rstrip(" —") for c in e.checks]
        if e.defense:
            lines.append(f"defense of {e.option}: {e.defense}")
        blocks.append(f'<examiner option="{e.option}">\n' + "\n".join(lines) + "\n</examiner>")
    return "\n".join(blocks) or prompts.NONE


def referee_messages(
    plan: Plan, briefs: list[Brief], exams: list[CrossExamination]
) -> list[BaseMessage]:
    """The referee's prompt: options, axes, constraints, the cases and the cross-examinations."""
    cases = "\n".join(f'<case option="{b.option}">\n{case_text(b)}\n</case>' for b in briefs)
    user = prompts.REFEREE_USER.format(
        query=plan.query,
        options="\n".join(o.name for o in plan.options),
        axes=axes_text(plan.axes),
        constraints="\n".join(plan.constraints.items()) or prompts.NONE,
        cases=cases or prompts.NONE,
        cross_examinations=exams_text(exams),
    )
    return [SystemMessage(prompts.REFEREE_SYSTEM), HumanMessage(user)]


def fill_messages(
    messages: list[BaseMessage],
    previous: BaseModel,
    missing: list[tuple[str, str]],
    ambiguous: dict[str, list[str]],
) -> list[BaseMessage]:
    """The prompt asking the referee again for ``missing`` cells and ``ambiguous`` names."""
    cells = "\n".join(f"- option {o!r}, axis {a!r}" for o, a in missing) or prompts.NONE
    names = (
        prompts.REFEREE_AMBIGUOUS.format(
            names="\n".join(f"- {n!r}: {' or '.join(c)}" for n, c in ambiguous.items())
        )
        if ambiguous
        else ""
    )
    return [
        *messages,
        AIMessage(previous.model_dump_json()),
        HumanMessage(prompts.REFEREE_FILL.format(cells=cells, ambiguous=names)),
    ]


def rescore_messages(
    messages: list[BaseMessage], previous: RulingDraft, problem: str
) -> list[BaseMessage]:
    """The prompt asking the referee to score again: its ruling so far and what is wrong."""
    return [
        *messages,
        AIMessage(previous.model_dump_json()),
        HumanMessage(prompts.REFEREE_RESCORE.format(problem=problem)),
    ]


def claim_ids(briefs: list[Brief]) -> dict[str, str]:
    """Case-folded id → id of every claim shown to the referee (what a score may cite)."""
    return {c.id.casefold(): c.id for b in briefs for c in b.claims}


def make_referee_node(max_attempts: int, rate_limit_retries: int = 2) -> RefereeNode[RefereeState]:
    """Build the ``referee`` node (its retry policy allows ``max_attempts``)."""

    def referee(state: RefereeState, runtime: Runtime[RefereeContext]) -> dict[str, Any]:
        """Score every option on every axis and recommend; weighted totals come from code.

        When cells are missing or option names ambiguous, the referee is asked again for just
        those cells, at most ``ctx.fill_rounds()`` times. Then, when the scores are degenerate
        (:func:`~disputatio.nodes.referee.soundness.degenerate`), it is asked once to score
        everything again, told why; its new scores replace the old ones (cells it leaves out
        keep theirs) and its reply is the draft the ruling reads. A re-scoring that gives no
        valid reply leaves the degenerate scores, which the ruling reports.
        """
        ctx = context_of(runtime, RefereeContext)
        plan = Plan.model_validate(state["plan"])
        order = {o.name: i for i, o in enumerate(plan.options)}
        briefs = sorted(
            (Brief.model_validate(b) for b in state.get("briefs") or []),
            key=lambda b: order.get(b.option, len(order)),
        )
        exams = sorted(
            (CrossExamination.model_validate(e) for e in state.get("cross_examinations") or []),
            key=lambda e: order.get(e.option, len(order)),
        )
        emit(runtime, {"event": "turn", "phase": "verdict", "agent": "referee", "status": "start"})

        def work() -> dict[str, Any]:
            margin = ctx.close_margin()
            messages = referee_messages(plan, briefs, exams)
            llm = ctx.llm("referee", "referee")
            schema = capped(
                RulingDraft,
                scores=len(plan.options) * len(plan.axes),
                trade_offs=len(plan.options),
                caveats=2,
            )
            draft, usage = structured_invoke(
                llm,
                schema,
                messages,
                agent="referee",
                role="referee",
                retries=ctx.structured_retries,
            )
            cells = Cells(claims=claim_ids(briefs))
            cells.add(plan, draft.scores)
            previous: BaseModel = draft
            rounds = 0
            while rounds < ctx.fill_rounds() and (cells.missing(plan) or cells.ambiguous):
                rounds += 1
                missing = cells.missing(plan)
                emit(
                    runtime,
                    {"event": "fill", "agent": "referee", "round": rounds, "cells": len(missing)},
                )
                fill, more = structured_invoke(
                    llm,
                    capped(FillDraft, scores=max(len(missing), 1)),
                    fill_messages(messages, previous, missing, cells.ambiguous),
                    agent="referee",
                    role="referee",
                    retries=ctx.structured_retries,
                )
                usage = merge_usage(usage, more)
                cells.add(plan, fill.scores)
                previous = fill
            problem = cells.degenerate(plan)
            if problem:
                emit(runtime, {"event": "rescore", "agent": "referee", "reason": problem})
                so_far = draft.model_copy(update={"scores": list(cells.scores.values())})
                try:
                    redo, more = structured_invoke(
                        llm,
                        schema,
                        rescore_messages(messages, so_far, problem),
                        agent="referee",
                        role="referee",
                        retries=ctx.structured_retries,
                    )
                except StructuredOutputError as exc:  # the scores stay degenerate: reported
                    logger.warning("referee: no valid re-scoring: %s", exc.message)
                    usage = merge_usage(usage, exc.usage)
                else:
                    usage = merge_usage(usage, more)
                    rescored = Cells(claims=cells.claims)
                    rescored.add(plan, redo.scores)
                    rescored.add(plan, cells.scores.values())  # cells the reply left out
                    draft, cells = redo, rescored
            ruling = build_ruling(
                plan, draft, cells, fill_rounds=rounds, rescored=bool(problem), margin=margin
            )
            emit(
                runtime,
                {
                    "event": "turn",
                    "phase": "verdict",
                    "agent": "referee",
                    "status": "done",
                    "recommendation": ruling.recommendation,
                },
            )
            return {
                "ruling": ruling.model_dump(mode="json"),
                "completed_phases": ["verdict"],
                "usage": usage,
            }

        return run_guarded(
            runtime,
            "verdict",
            "referee",
            work,
            max_attempts=max_attempts,
            rate_limit_retries=rate_limit_retries,
            role="referee",
        )

    return referee
