"""The referee node: scores, trade-offs, a recommendation (totals are computed in code)."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any, TypeVar

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

M = TypeVar("M", bound=BaseModel)
#: Token usage per agent, as :func:`~disputatio.models.structured.structured_invoke` reports it.
Usage = dict[str, dict[str, Any]]


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


@dataclass
class _Asker:
    """How the referee is asked: its model, the first prompt, the ruling schema, the retries.

    Attributes:
        llm: The referee's chat model.
        messages: The first prompt (:func:`referee_messages`); fills and re-scorings extend it.
        schema: The ruling draft schema, capped to the plan's cells.
        retries: Extra attempts when a reply is not valid JSON for its schema.
    """

    llm: Any
    messages: list[BaseMessage]
    schema: type[RulingDraft]
    retries: int

    def ask(self, schema: type[M], messages: list[BaseMessage]) -> tuple[M, Usage]:
        """One structured call of the referee: the reply and its usage."""
        return structured_invoke(
            self.llm, schema, messages, agent="referee", role="referee", retries=self.retries
        )


def ordered_inputs(state: RefereeState) -> tuple[Plan, list[Brief], list[CrossExamination]]:
    """The plan, and the briefs and cross-examinations in the plan's option order."""
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
    return plan, briefs, exams


def fill_cells(
    asker: _Asker,
    runtime: Runtime[RefereeContext],
    plan: Plan,
    draft: RulingDraft,
    cells: Cells,
    most: int,
    usage: Usage,
) -> tuple[int, Usage]:
    """Ask again for missing cells and ambiguous names, at most ``most`` rounds.

    Each round asks for exactly what is still missing or ambiguous, shown the previous reply;
    its scores are added to ``cells`` (which is updated in place).

    Returns:
        ``(rounds asked, usage)``: ``usage`` plus that of the calls made.
    """
    previous: BaseModel = draft
    rounds = 0
    while rounds < most and (cells.missing(plan) or cells.ambiguous):
        rounds += 1
        missing = cells.missing(plan)
        emit(runtime, {"event": "fill", "agent": "referee", "round": rounds, "cells": len(missing)})
        fill, more = asker.ask(
            capped(FillDraft, scores=max(len(missing), 1)),
            fill_messages(asker.messages, previous, missing, cells.ambiguous),
        )
        usage = merge_usage(usage, more)
        cells.add(plan, fill.scores)
        previous = fill
    return rounds, usage


def rescore(
    asker: _Asker,
    runtime: Runtime[RefereeContext],
    plan: Plan,
    draft: RulingDraft,
    cells: Cells,
    problem: str,
    usage: Usage,
) -> tuple[RulingDraft, Cells, Usage]:
    """Ask once to score everything again, told why the scores are degenerate (``problem``).

    Returns:
        ``(draft, cells, usage)``: the new reply and its scores (cells it leaves out keep the old
        ones), or the old draft and cells when no valid reply comes (the ruling reports them);
        ``usage`` plus that of the call.
    """
    emit(runtime, {"event": "rescore", "agent": "referee", "reason": problem})
    so_far = draft.model_copy(update={"scores": list(cells.scores.values())})
    try:
        redo, more = asker.ask(asker.schema, rescore_messages(asker.messages, so_far, problem))
    except StructuredOutputError as exc:  # the scores stay degenerate: reported
        logger.warning("referee: no valid re-scoring: %s", exc.message)
        return draft, cells, merge_usage(usage, exc.usage)
    rescored = Cells(claims=cells.claims)
    rescored.add(plan, redo.scores)
    rescored.add(plan, cells.scores.values())  # cells the reply left out
    return redo, rescored, merge_usage(usage, more)


def score_and_rule(
    ctx: RefereeContext,
    runtime: Runtime[RefereeContext],
    plan: Plan,
    briefs: list[Brief],
    exams: list[CrossExamination],
) -> dict[str, Any]:
    """The referee's work: a draft, fills, a re-scoring if degenerate, then the ruling.

    Returns:
        The node's update: ``ruling``, ``completed_phases`` and ``usage``.
    """
    margin = ctx.close_margin()
    asker = _Asker(
        llm=ctx.llm("referee", "referee"),
        messages=referee_messages(plan, briefs, exams),
        schema=capped(
            RulingDraft,
            scores=len(plan.options) * len(plan.axes),
            trade_offs=len(plan.options),
            caveats=2,
        ),
        retries=ctx.structured_retries,
    )
    draft, usage = asker.ask(asker.schema, asker.messages)
    cells = Cells(claims=claim_ids(briefs))
    cells.add(plan, draft.scores)
    rounds, usage = fill_cells(asker, runtime, plan, draft, cells, ctx.fill_rounds(), usage)
    problem = cells.degenerate(plan)
    if problem:
        draft, cells, usage = rescore(asker, runtime, plan, draft, cells, problem, usage)
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
        plan, briefs, exams = ordered_inputs(state)
        return run_guarded(
            runtime,
            "verdict",
            "referee",
            lambda: score_and_rule(ctx, runtime, plan, briefs, exams),
            max_attempts=max_attempts,
            rate_limit_retries=rate_limit_retries,
            role="referee",
        )

    return referee
