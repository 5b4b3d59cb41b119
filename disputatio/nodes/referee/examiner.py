"""Cross-examiner nodes (one per option, in parallel): fact-check opponents, defend own option."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage
from langgraph.runtime import Runtime

from disputatio.models.structured import structured_invoke
from disputatio.nodes.context import context_of
from disputatio.nodes.referee.context import RefereeContext, RefereeNode
from disputatio.nodes.referee.evidence import (
    check_citations,
    citable,
    clean_id,
    gather,
    render,
    source_refs,
    strip_labels,
)
from disputatio.nodes.referee.guard import emit, run_guarded, search_warnings
from disputatio.nodes.referee.planning import agent_names
from disputatio.prompts import referee as prompts
from disputatio.state.referee import (
    Brief,
    BriefClaim,
    CheckedClaim,
    CrossExamination,
    ExaminerDraft,
    ExaminerTask,
    Plan,
    capped,
)
from disputatio.state.retrieval import Section

#: Rationale prefix of a verdict downgraded to "unverifiable" for want of cited evidence.
NO_EVIDENCE = "no valid evidence cited"


def claims_to_check(
    briefs: list[Brief], option: str, per_opponent: int
) -> list[tuple[str, BriefClaim]]:
    """``(opponent, claim)`` pairs: every other option's claims, at most ``per_opponent`` each."""
    return [(b.option, c) for b in briefs if b.option != option for c in b.claims[:per_opponent]]


def case_text(brief: Brief | None) -> str:
    """An advocate's case as lines: summary, ``[claim id] (axis) text (cited|uncited)``..."""
    if brief is None:
        return prompts.NONE
    lines = [brief.summary] if brief.summary else []
    lines += [
        f"[{c.id}] ({c.axis}) {c.text} ({'cited' if c.cited else 'uncited'})" for c in brief.claims
    ]
    lines += [f"weakness: {w}" for w in brief.weaknesses]
    return "\n".join(lines) or prompts.NONE


def examiner_messages(
    plan: Plan,
    option: str,
    own: Brief | None,
    claims: list[tuple[str, BriefClaim]],
    sections: list[Section],
    ctx: RefereeContext,
) -> list[BaseMessage]:
    """The cross-examiner's prompt."""
    claim_lines = "\n".join(f"{c.id} ({opp}, {c.axis}): {c.text}" for opp, c in claims)
    user = prompts.EXAMINER_USER.format(
        query=plan.query,
        option=option,
        own_case=case_text(own),
        claims=claim_lines or prompts.NONE,
        sections=render(sections, ctx),
    )
    return [SystemMessage(prompts.EXAMINER_SYSTEM.format(option=option)), HumanMessage(user)]


def build_examination(
    option: str,
    agent: str,
    draft: ExaminerDraft,
    claims: list[tuple[str, BriefClaim]],
    sections: list[Section],
) -> CrossExamination:
    """One verdict per claim checked; a verdict without valid cited evidence is "unverifiable"."""
    allowed = citable(sections)
    by_id = {clean_id(c.claim_id).casefold(): c for c in draft.checks}
    checks = []
    for opponent, claim in claims:
        check = by_id.get(claim.id.casefold())
        verdict = check.verdict if check else "unverifiable"
        valid, _ = check_citations(
            check.citations if check else [], check.rationale if check else "", allowed
        )
        rationale = strip_labels(check.rationale) if check else "not examined"
        if verdict != "unverifiable" and not valid:
            verdict, rationale = "unverifiable", f"{NO_EVIDENCE}; {rationale}".rstrip("; ")
        refs = source_refs(sections, valid)
        checks.append(
            CheckedClaim(
                claim_id=claim.id,
                target_option=opponent,
                claim=claim.text,
                verdict=verdict,
                rationale=rationale,
                citations=valid,
                sources=list(dict.fromkeys(r.source or r.id for r in refs)),
            )
        )
    defense_ids, _ = check_citations(draft.defense_citations, draft.defense, allowed)
    cited = [i for c in checks for i in c.citations] + defense_ids
    return CrossExamination(
        option=option,
        agent=agent,
        checks=checks,
        defense=strip_labels(draft.defense),
        defense_citations=defense_ids,
        evidence=source_refs(sections, cited),
    )


def make_examiner_node(max_attempts: int, rate_limit_retries: int = 2) -> RefereeNode[ExaminerTask]:
    """Build the ``examine`` node (its retry policy allows ``max_attempts``)."""

    def examine(state: ExaminerTask, runtime: Runtime[RefereeContext]) -> dict[str, Any]:
        """Check opponents' claims against retrieved evidence and defend the own option."""
        ctx = context_of(runtime, RefereeContext)
        plan = Plan.model_validate(state["plan"])
        option = state["option"]
        agent = agent_names(option).examiner
        briefs = [Brief.model_validate(b) for b in state["briefs"]]
        own = next((b for b in briefs if b.option == option), None)
        claims = claims_to_check(briefs, option, ctx.claims_cap())

        def work() -> dict[str, Any]:
            pool = {
                s["id"]: Section.model_validate(s) for v in state["evidence"].values() for s in v
            }
            cited = [pool[i] for _, c in claims for i in c.citations if i in pool]
            sections, limitations = gather(ctx, [c.text for _, c in claims], web=True, first=cited)
            draft, usage = structured_invoke(
                ctx.llm(agent, "examiner"),
                capped(ExaminerDraft, checks=len(claims)),
                examiner_messages(plan, option, own, claims, sections, ctx),
                agent=agent,
                role="examiner",
                retries=ctx.structured_retries,
            )
            exam = build_examination(option, agent, draft, claims, sections)
            exam.limitations = limitations
            emit(
                runtime,
                {"event": "turn", "phase": "cross_examination", "agent": agent, "status": "done"},
            )
            return {
                "cross_examinations": [exam.model_dump(mode="json")],
                "usage": usage,
                "warnings": search_warnings(agent, "cross_examination", limitations),
            }

        return run_guarded(
            runtime,
            "cross_examination",
            agent,
            work,
            max_attempts=max_attempts,
            rate_limit_retries=rate_limit_retries,
            role="examiner",
        )

    return examine
