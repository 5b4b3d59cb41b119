"""Advocate nodes (one per option, in parallel): research the option and make its case."""

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
    gather,
    render,
    source_refs,
    strip_labels,
)
from disputatio.nodes.referee.guard import emit, run_guarded, search_warnings
from disputatio.nodes.referee.planning import agent_names, match_axis, slug
from disputatio.prompts import referee as prompts
from disputatio.state.referee import (
    AdvocateDraft,
    AdvocateTask,
    Axis,
    Brief,
    BriefClaim,
    ConstrainedAdvocateDraft,
    ConstraintNote,
    Plan,
    capped,
)
from disputatio.state.retrieval import Section


def axes_text(axes: list[Axis]) -> str:
    """One line per axis: ``- name (weight w/10): description``."""
    return "\n".join(
        f"- {a.name} (weight {a.weight}/10)" + (f": {a.description}" if a.description else "")
        for a in axes
    )


def research_queries(plan: Plan, option: str) -> list[str]:
    """``"<option> <axis>"`` for every axis, then ``"<option> <constraint>"`` for hard ones."""
    hard = plan.constraints.must_have + plan.constraints.avoid
    return [f"{option} {a.name}" for a in plan.axes] + [f"{option} {c}" for c in hard]


def advocate_messages(
    plan: Plan, option: str, sections: list[Section], ctx: RefereeContext
) -> list[BaseMessage]:
    """The advocate's prompt."""
    user = prompts.ADVOCATE_USER.format(
        query=plan.query,
        option=option,
        axes=axes_text(plan.axes),
        constraints="\n".join(plan.constraints.items()) or prompts.NONE,
        sections=render(sections, ctx),
    )
    return [SystemMessage(prompts.ADVOCATE_SYSTEM.format(option=option)), HumanMessage(user)]


def advocate_schema(plan: Plan) -> type[AdvocateDraft]:
    """The advocate's output schema for ``plan``.

    One claim per axis; constraint notes (one per constraint) only when there are constraints.
    """
    n_constraints = len(plan.constraints.items())
    if n_constraints:
        return capped(
            ConstrainedAdvocateDraft,
            claims=len(plan.axes),
            constraints=n_constraints,
            weaknesses=2,
        )
    return capped(AdvocateDraft, claims=len(plan.axes), weaknesses=2)


def build_brief(
    option: str, agent: str, draft: AdvocateDraft, sections: list[Section], plan: Plan
) -> Brief:
    """Validate a draft: ids per claim, citations limited to sections seen, axes covered."""
    allowed = citable(sections)
    claims: list[BriefClaim] = []
    invalid: list[str] = []
    for i, claim in enumerate(c for c in draft.claims if c.text.strip()):
        valid, bad = check_citations(claim.citations, claim.text, allowed)
        invalid += [b for b in bad if b not in invalid]
        claims.append(
            BriefClaim(
                id=f"{slug(option)}#{i + 1}",
                axis=match_axis(claim.axis, plan.axes),
                text=strip_labels(claim.text),
                citations=valid,
                cited=bool(valid),
            )
        )
    notes = []
    notes_in = draft.constraints if isinstance(draft, ConstrainedAdvocateDraft) else []
    for note in notes_in:
        valid, bad = check_citations(note.citations, note.assessment, allowed)
        invalid += [b for b in bad if b not in invalid]
        notes.append(
            ConstraintNote(
                constraint=note.constraint,
                assessment=strip_labels(note.assessment),
                citations=valid,
            )
        )
    covered = {c.axis for c in claims}
    cited = [i for c in claims for i in c.citations] + [i for n in notes for i in n.citations]
    return Brief(
        option=option,
        agent=agent,
        summary=draft.summary,
        claims=claims,
        constraints=notes,
        weaknesses=[w for w in draft.weaknesses if w.strip()],
        missing_axes=[a.name for a in plan.axes if a.name not in covered],
        invalid_citations=invalid,
        sources=[s.id for s in sections],
        evidence=source_refs(sections, cited),
    )


def make_advocate_node(max_attempts: int, rate_limit_retries: int = 2) -> RefereeNode[AdvocateTask]:
    """Build the ``advocate`` node (its retry policy allows ``max_attempts``)."""

    def advocate(state: AdvocateTask, runtime: Runtime[RefereeContext]) -> dict[str, Any]:
        """Research one option on every axis and constraint, then write its cited case."""
        ctx = context_of(runtime, RefereeContext)
        plan = Plan.model_validate(state["plan"])
        option = state["option"]
        agent = agent_names(option).advocate

        def work() -> dict[str, Any]:
            sections, limitations = gather(ctx, research_queries(plan, option), web=True)
            schema = advocate_schema(plan)
            draft, usage = structured_invoke(
                ctx.llm(agent, "advocate"),
                schema,
                advocate_messages(plan, option, sections, ctx),
                agent=agent,
                role="advocate",
                retries=ctx.structured_retries,
            )
            brief = build_brief(option, agent, draft, sections, plan)
            brief.limitations = limitations
            emit(
                runtime,
                {
                    "event": "turn",
                    "phase": "advocacy",
                    "agent": agent,
                    "status": "done",
                    "claims": len(brief.claims),
                },
            )
            return {
                "briefs": [brief.model_dump(mode="json")],
                "evidence": {option: [s.model_dump(mode="json") for s in sections]},
                "usage": usage,
                "warnings": search_warnings(agent, "advocacy", limitations),
            }

        return run_guarded(
            runtime,
            "advocacy",
            agent,
            work,
            max_attempts=max_attempts,
            rate_limit_retries=rate_limit_retries,
            role="advocate",
        )

    return advocate
