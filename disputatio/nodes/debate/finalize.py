"""Finalize: run the validators on the root answer and build the graph's output."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from disputatio.nodes.context import context_of
from disputatio.nodes.debate.common import emit
from disputatio.nodes.debate.context import DebateContext
from disputatio.nodes.debate.tree import tree_output
from disputatio.state.debate import ROOT, DebateState
from disputatio.validators.base import ValidationContext, resolve_validators, run_validators
from disputatio.validators.citations import verify_citations
from disputatio.validators.claims import claims_of

_CITATION_FIELDS = ("id", "source", "title", "page", "heading_path", "document_id")


def finalize(state: DebateState, runtime: Runtime[DebateContext]) -> dict[str, Any]:
    """Validate the root answer; output answer, claims, verified citations, confidence, tree."""
    ctx = context_of(runtime, DebateContext)
    nodes, results = state["nodes"], state.get("results") or {}
    sections = state.get("sections") or {}
    root = results[ROOT]
    tree = tree_output(nodes, results)
    vctx = ValidationContext(
        question=nodes[ROOT]["question"],
        allowed_ids=list(root["allowed_ids"]),
        sections=sections,
        agreement=root.get("support"),
        unverified=list(root["unverified"]),
        transcript=list(state.get("transcript") or []),
        tree=tree,
        extra={"support_checker": ctx.support_checker()},
    )
    checks = run_validators(
        resolve_validators(ctx.validators), root["answer"], vctx, ctx.error_handler
    )
    revised = next((c.revised_answer for c in reversed(checks) if c.revised_answer), None)
    final = verify_citations(revised or root["answer"], root["allowed_ids"])
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
        "claims": claims_of(checks),
    }
