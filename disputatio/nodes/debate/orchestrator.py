"""The orchestrator: decomposes the question into a bounded tree of sub-questions."""

from __future__ import annotations

import logging
from typing import Any

from langchain_core.messages import HumanMessage, SystemMessage
from langgraph.runtime import Runtime

from disputatio.errors import ConfigError, ModelError
from disputatio.models.structured import structured_invoke
from disputatio.nodes.debate.common import emit, make_move, with_options
from disputatio.nodes.debate.context import DebateContext, get_context, resolve_config
from disputatio.nodes.debate.tree import build_tree
from disputatio.prompts.debate import (
    ORCHESTRATOR_FLAT_SYSTEM,
    ORCHESTRATOR_SYSTEM,
    ORCHESTRATOR_USER,
)
from disputatio.state.debate import (
    ROOT,
    DebateState,
    Decomposition,
    FlatDecomposition,
    SubQuestionPlan,
)
from disputatio.validators.base import resolve_validators
from disputatio.validators.citations import CitationCheck

logger = logging.getLogger(__name__)

AGENT = "orchestrator"


def decompose(state: DebateState, runtime: Runtime[DebateContext]) -> dict[str, Any]:
    """Ask the orchestrator for sub-questions and build the tree (flat: the root only).

    A decomposition the model cannot produce (after the structured-output retries) degrades
    to the flat protocol with a note, instead of failing the run; the tokens of the failed
    attempts are still counted. Small local models (and ``max_depth == 1``) are asked for a
    flat list of sub-questions; larger ones for the nested plan, each with a one-shot example.
    """
    ctx = get_context(runtime.context)
    cfg = resolve_config(ctx)
    asked = str(state.get("question") or "").strip()
    question = with_options(asked, state.get("options"))
    if not question:
        raise ConfigError("debate: the question is empty")
    resolve_validators(ctx.validators)  # fail fast on a bad validator spec, not after the debate
    update: dict[str, Any] = {"usage": {}, "notes": [], "transcript": []}
    plan: list[SubQuestionPlan] = []
    if cfg.max_depth >= 1:
        flat = cfg.flat_plan or cfg.max_depth == 1
        system = (
            ORCHESTRATOR_FLAT_SYSTEM.format(breadth=cfg.max_breadth)
            if flat
            else ORCHESTRATOR_SYSTEM.format(breadth=cfg.max_breadth, depth=cfg.max_depth)
        )
        messages = [
            SystemMessage(system),
            HumanMessage(ORCHESTRATOR_USER.format(question=question)),
        ]
        llm = ctx.agent_model(AGENT, AGENT, temperature=0.0)
        try:
            if flat:
                listed, update["usage"] = structured_invoke(
                    llm, FlatDecomposition, messages, agent=AGENT, role=AGENT
                )
                plan = [SubQuestionPlan(question=q) for q in listed.subquestions if q.strip()]
            else:
                result, update["usage"] = structured_invoke(
                    llm, Decomposition, messages, agent=AGENT, role=AGENT
                )
                plan = result.subquestions
        except ModelError as exc:
            logger.warning("decomposition failed, answering without it: %s", exc.message)
            update["notes"] = [f"decomposition failed, answered flat: {exc.message}"]
            update["usage"] = dict(getattr(exc, "usage", None) or {})
    nodes = build_tree(
        question, plan, max_depth=cfg.max_depth, max_breadth=cfg.max_breadth, bare_question=asked
    )
    if cfg.max_depth >= 1:
        listing = "\n".join(f"{n['id']}: {n['question']}" for n in nodes.values() if n["parent"])
        update["transcript"] = [
            make_move(
                node=ROOT,
                agent=AGENT,
                role=AGENT,
                round_=0,
                kind="plan",
                check=CitationCheck(listing or "(no decomposition)", [], []),
            )
        ]
    emit(
        "decomposed",
        nodes=[{k: n[k] for k in ("id", "parent", "question")} for n in nodes.values()],
    )
    update["nodes"] = nodes
    return update
