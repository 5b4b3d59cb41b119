"""Finalize: run the validators on the root answer and build the graph's output.

A flat root (the question not decomposed) is the debate's one leaf: like the quick path, its
claims must answer the question (the support validator is handed it: the off-question rules
and the relevance judge), and it says which part of a two-part question no kept claim answers
(``grounding.answer_parts``, :func:`~disputatio.validators.parts.mark_unanswered_parts`); a
decomposed question's parts are its sub-questions, each of which says so itself (the
aggregator's ``check_parts``).
"""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from disputatio.nodes.context import context_of
from disputatio.nodes.debate.common import emit
from disputatio.nodes.debate.context import DebateContext
from disputatio.nodes.debate.tree import tree_output
from disputatio.state.claims import Claim, ClaimReport
from disputatio.state.debate import ROOT, DebateState
from disputatio.validators.base import ValidationContext, resolve_validators, run_validators
from disputatio.validators.citations import verify_citations
from disputatio.validators.claims import claims_of
from disputatio.validators.parts import mark_unanswered_parts
from disputatio.validators.yesno import mark_undecided

_CITATION_FIELDS = ("id", "source", "title", "page", "heading_path", "document_id")


def finalize(state: DebateState, runtime: Runtime[DebateContext]) -> dict[str, Any]:
    """Validate the root answer; output answer, claims, verified citations, confidence, tree."""
    ctx = context_of(runtime, DebateContext)
    nodes, results = state["nodes"], state.get("results") or {}
    sections = state.get("sections") or {}
    root = results[ROOT]
    tree = tree_output(nodes, results)
    flat = len(nodes) == 1 and not state.get("options")
    question = nodes[ROOT]["question"]
    vctx = ValidationContext(
        question=question,
        allowed_ids=list(root["allowed_ids"]),
        sections=sections,
        agreement=root.get("support"),
        unverified=list(root["unverified"]),
        transcript=list(state.get("transcript") or []),
        tree=tree,
        extra={
            "support_checker": ctx.support_checker(),
            "grounding": ctx.get_settings().grounding,
            # a flat root answers the question itself: its claims must answer it, as a leaf's do
            "on_question": question if flat else None,
        },
    )
    checks = run_validators(
        resolve_validators(ctx.validators), root["answer"], vctx, ctx.error_handler
    )
    revised = next((c.revised_answer for c in reversed(checks) if c.revised_answer), None)
    final = verify_citations(revised or root["answer"], root["allowed_ids"])
    claims = claims_of(checks)
    if flat and claims and ctx.get_settings().grounding.answer_parts:
        text, claims = _mark_parts(question, final.text, claims)
        final = final._replace(text=text)
    scored = [c.score for c in checks if c.name == "confidence" and c.score is not None]
    confidence = scored[-1] if scored else float(root["confidence"])
    citations = [
        {k: sections[i].get(k) for k in _CITATION_FIELDS} if i in sections else {"id": i}
        for i in final.verified
    ]
    emit("final", answer=final.text, confidence=confidence, citations=final.verified)
    return {
        "answer": final.text,
        "citations": citations,
        "confidence": confidence,
        "tree": tree,
        "validation": [c.model_dump(mode="json") for c in checks],
        "claims": claims,
    }


def _mark_parts(
    question: str, answer: str, claims: list[dict[str, Any]]
) -> tuple[str, list[dict[str, Any]]]:
    """The answer and claims with a ``not_found`` line per part of ``question`` left unanswered."""
    judged = [Claim.model_validate(c) for c in claims]
    kept = [c for c in judged if c.factual and not c.dropped and c.verdict == "supported"]
    report = ClaimReport(answer=answer, claims=judged, not_found=not kept)
    mark_undecided(question, report)  # a set-aside yes/no verdict leaves its part undecided
    mark_unanswered_parts(question, report)
    return report.answer, [c.model_dump(mode="json") for c in report.claims]
