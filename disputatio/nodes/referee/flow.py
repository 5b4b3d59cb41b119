"""Joins after the parallel phases, the routes out of them, and the final status."""

from __future__ import annotations

from typing import Any, Literal

from langgraph.runtime import Runtime
from langgraph.types import Send

from disputatio.nodes.context import context_of
from disputatio.nodes.referee.backing import held_to_evidence
from disputatio.nodes.referee.claims import brief_claims
from disputatio.nodes.referee.context import RefereeContext
from disputatio.state.referee import (
    PHASES,
    ExaminerTask,
    Phase,
    PhaseError,
    Plan,
    RefereeState,
    Ruling,
)


def _failed(state: RefereeState, phase: Phase) -> bool:
    return any(e.get("phase") == phase for e in state.get("errors") or [])


def join_advocates(state: RefereeState) -> dict[str, Any]:
    """Mark the advocacy phase complete once every advocate filed a brief."""
    return {} if _failed(state, "advocacy") else {"completed_phases": ["advocacy"]}


def route_after_advocates(state: RefereeState) -> list[Send] | Literal["finalize"]:
    """One cross-examiner per option, or stop when an advocate failed."""
    if _failed(state, "advocacy"):
        return "finalize"
    plan = state.get("plan") or {}
    briefs = state.get("briefs") or []
    evidence = state.get("evidence") or {}
    return [
        Send("examine", ExaminerTask(option=o["name"], plan=plan, briefs=briefs, evidence=evidence))
        for o in plan.get("options", [])
    ]


def join_examinations(state: RefereeState) -> dict[str, Any]:
    """Mark the cross-examination phase complete once every examiner reported."""
    if _failed(state, "cross_examination"):
        return {}
    return {"completed_phases": ["cross_examination"]}


def route_after_examinations(state: RefereeState) -> Literal["referee", "finalize"]:
    """On to the referee, or stop when an examiner failed."""
    return "finalize" if _failed(state, "cross_examination") else "referee"


def finalize(state: RefereeState, runtime: Runtime[RefereeContext]) -> dict[str, Any]:
    """Set ``status`` (ok / partial / failed) and ``error``; judge the claims the ruling rests on.

    ``ok`` needs every phase of :data:`~disputatio.state.referee.PHASES` completed and no error;
    search warnings do not count against it. ``claims`` holds every advocate claim with its
    verdict against the sections it cites; the ruling is then held to them
    (:func:`~disputatio.nodes.referee.backing.held_to_evidence`): no recommendation for an
    option none of whose scores rests on a supported claim.
    """
    done = set(state.get("completed_phases") or [])
    errors = [PhaseError.model_validate(e) for e in state.get("errors") or []]
    order = [*PHASES, None]
    errors.sort(key=lambda e: order.index(e.phase))
    complete = not errors and done >= set(PHASES)
    status = "ok" if complete else ("partial" if done else "failed")
    checker = context_of(runtime, RefereeContext).support_checker()
    claims = brief_claims(state.get("briefs") or [], state.get("evidence") or {}, checker)
    update: dict[str, Any] = {
        "status": status,
        "error": errors[0].model_dump(mode="json") if errors else None,
        "claims": claims,
    }
    if state.get("ruling") and state.get("plan"):
        plan = Plan.model_validate(state["plan"])
        ruling = Ruling.model_validate(state["ruling"])
        held = held_to_evidence(plan, ruling, claims)
        if held is not ruling:
            update["ruling"] = held.model_dump(mode="json")
    return update
