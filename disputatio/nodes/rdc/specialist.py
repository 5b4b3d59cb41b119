"""A specialist's turn: retrieve, argue (structured move), check provenance, update the graph.

A model that gives no valid move (after the structured-output retries) forfeits the turn: the
failure is logged, recorded as a rejected ``move`` and written to the ledger, and the debate goes
on. Retrieval failures are handled the same way: the turn proceeds with case evidence only.
"""

from __future__ import annotations

import logging
from typing import Any

from langgraph.runtime import Runtime

from disputatio.argumentation import DebateGraph, NodeKind, entropy_nats
from disputatio.errors import DisputatioError, ModelError
from disputatio.models.structured import structured_invoke
from disputatio.nodes.context import context_of
from disputatio.nodes.rdc import speakers
from disputatio.nodes.rdc.analysis import best_eig, differential, hotspots, labelling
from disputatio.nodes.rdc.case import candidate_tests, hypothesis_aliases, load_case
from disputatio.nodes.rdc.context import RdcConfig, RdcContext
from disputatio.nodes.rdc.moves import MoveOutcome, clean_id, slug
from disputatio.nodes.rdc.outbox import entry, prompt_sha256
from disputatio.nodes.rdc.proposals import TurnOutcome, apply_turn
from disputatio.nodes.rdc.render import turn_messages
from disputatio.prompts.rdc import (
    APPEAL_PAIR,
    HOTSPOTS,
    NO_SECTIONS,
    OPEN_QUERIES,
    RETRIEVAL_QUERY,
)
from disputatio.retrievers.base import format_sections
from disputatio.state.rdc import Case, RdcState, SpecialistMove, SpecialistSpec
from disputatio.tools.retrieval import TOOL_NAME, search_corpus
from disputatio.validators.cited import judge_cited

logger = logging.getLogger(__name__)


def find_spec(state: RdcState, name: str) -> SpecialistSpec:
    """Return the specialist called ``name``."""
    return next(SpecialistSpec(**s) for s in state["specialists"] if s["name"] == name)


Shown = dict[str, dict[str, Any]]


def _retrieve(
    ctx: RdcContext, cfg: RdcConfig, case: Case, spec: SpecialistSpec
) -> tuple[str, list[str], dict[str, Any] | None, Shown]:
    """Return ``(sections text, section ids, tool-call record, shown sections)`` for one turn.

    The shown sections (id → ``{text, title, heading_path, source}``) hold the text as the
    prompt shows it (cut at ``section_chars``): the claims of the turn are judged against it.
    """
    if cfg.sections_per_turn == 0:
        return NO_SECTIONS, [], None, {}
    labels = ", ".join(h.label or h.id for h in case.hypotheses)
    query = RETRIEVAL_QUERY.format(hypotheses=labels, focus=spec.focus or spec.name)
    record: dict[str, Any] = {"tool": TOOL_NAME, "query": query, "k": cfg.sections_per_turn}
    try:
        result = search_corpus(ctx.get_retriever(), query, k=cfg.sections_per_turn)
    except Exception as exc:  # a failed search is a turn without sections, not a lost debate
        first = (str(exc).splitlines() or [""])[0][:200]
        message = (
            exc.message if isinstance(exc, DisputatioError) else f"{type(exc).__name__}: {first}"
        )
        logger.warning("rdc: retrieval for %s failed: %s", spec.name, message)
        return NO_SECTIONS, [], {**record, "error": message}, {}
    record.update({"ids": result.ids, "refused": result.refused, "best": result.best_score})
    if result.refused or not result.sections:
        return NO_SECTIONS, [], record, {}
    # each section's head, not the part around its match (``Section.spans``): with the part,
    # the 0.5B end-to-end debate gave no valid move (2026-12-04); not measured on the 1.5B
    sections = [s.model_copy(update={"spans": []}) for s in result.sections]
    shown = {
        s.id: {
            "text": s.text if cfg.section_chars is None else s.text[: cfg.section_chars],
            "title": s.title,
            "heading_path": s.heading_path,
            "source": s.source,
        }
        for s in sections
    }
    return format_sections(sections, cfg.section_chars), result.ids, record, shown


def _judged_claims(
    ctx: RdcContext,
    move: SpecialistMove,
    outcome: MoveOutcome,
    shown: Shown,
    case: Case,
    where: dict[str, Any],
) -> list[dict[str, Any]]:
    """The accepted claims of ``move``, each judged against the sentences of what it cites.

    A claim may rest on a section shown in this turn or on a case evidence item (its label is
    its text); a section shown in an earlier turn is not in front of the speaker, so citing it
    alone leaves the claim without evidence to check.
    """
    accepted = {n["id"] for n in outcome.nodes if n.get("kind") == NodeKind.EVIDENCE.value}
    if not accepted:
        return []
    citable = {**shown, **{e.id: {"text": e.label, "title": e.provenance} for e in case.evidence}}
    checker = ctx.support_checker()
    out = []
    for claim in move.claims:
        node = f"t{where['turn']}.{where['speaker']}.{slug(claim.id)}"
        if node not in accepted:
            continue
        judged = judge_cited(
            claim.text,
            [clean_id(p) for p in claim.provenance],
            citable,
            checker=checker,
            part=where["speaker"],
        )
        out.append({**judged.model_dump(mode="json"), "node": node, **where})
    return out


def _phase_extra(state: RdcState, graph: DebateGraph, cfg: RdcConfig) -> str:
    """Return the appeal pair, or the hotspots of cross-examination (rotated per turn)."""
    if state["phase"] == "appeal" and len(state.get("appeal_pair") or []) == 2:
        top, challenger = state["appeal_pair"]
        return APPEAL_PAIR.format(top=top, challenger=challenger)
    lines = []
    queries = graph.open_queries()
    if queries:
        asked = "; ".join(f"{q}: {graph.node(q).label} (about {t})" for q, t in queries[:3])
        lines.append(OPEN_QUERIES.format(queries=asked))
    if state["phase"] == "cross_examination":
        spots = hotspots(graph, labelling(graph, cfg.semantics), state["posterior"])
        if spots:
            start = state["turns"] % len(spots)
            chosen = (spots[start:] + spots[:start])[:3]
            text = "; ".join(f"{s['node']} ({s['why']})" for s in chosen)
            lines.append(HOTSPOTS.format(spots=text))
    return "\n".join(lines)


Usage = dict[str, dict[str, Any]]


def _argue(
    ctx: RdcContext,
    cfg: RdcConfig,
    state: RdcState,
    case: Case,
    spec: SpecialistSpec,
    graph: DebateGraph,
    messages: list[Any],
    seen: list[str],
) -> tuple[SpecialistMove | None, Usage, DebateGraph, TurnOutcome]:
    """Ask the speaker for its move and apply the move to the graph.

    A model that gives no valid move forfeits the turn: the graph is left as it was and the
    outcome holds one rejected ``move``.

    Returns:
        ``(move or None, usage, graph after the turn, what the turn changed)``.
    """
    turn = state["turns"] + 1
    case_ids = [e.id for e in case.evidence]
    llm = ctx.chat_model(
        spec.name, role="specialist", temperature=cfg.temperature, max_tokens=cfg.max_tokens
    )
    move: SpecialistMove | None = None
    usage: Usage = {}
    try:
        move, usage = structured_invoke(
            llm, SpecialistMove, messages, agent=spec.name, role="specialist", retries=cfg.retries
        )
        added = sum(1 for n in graph.nodes_of(NodeKind.HYPOTHESIS) if n.provenance)
        graph, turned = apply_turn(
            graph,
            move,
            case,
            speaker=spec.name,
            turn=turn,
            traceable={*seen, *case_ids},
            retrieved=set(seen),
            aliases=hypothesis_aliases(case),
            max_abs_llr=cfg.max_abs_llr,
            reliability=(state.get("agent_priors") or {})
            .get(spec.name, {})
            .get("reliability", 1.0),
            hypothesis_budget=max(cfg.retrieved_hypotheses - added, 0),
            posterior_of=lambda g: differential(
                g, cfg.quality_alpha, cfg.semantics, cfg.label_consistency
            )[1],
        )
    except ModelError as exc:
        logger.warning("rdc: %s forfeits turn %d: %s", spec.name, turn, exc.message)
        turned = TurnOutcome(MoveOutcome(rejected=[{"what": "move", "reason": exc.message}]))
    return move, usage, graph, turned


def _bandit_after(state: RdcState, usage: Usage, entropy: float) -> dict[str, Any] | None:
    """The speaker bandit with this turn's reward observed, or None when no pull is pending.

    The reward weighs the entropy the turn removed against the tokens it spent
    (:func:`~disputatio.nodes.rdc.speakers.turn_reward`).
    """
    pending = state["bandit"].get("pending")
    if not pending:
        return None
    tokens = sum(u.get("input_tokens", 0) + u.get("output_tokens", 0) for u in usage.values())
    reward = speakers.turn_reward(state["entropy"], entropy, tokens)
    bandit = speakers.with_observation(
        state["bandit"], pending["arm"], pending["context"], reward, state["entropy"] - entropy
    )
    return {k: v for k, v in bandit.items() if k != "pending"}


def _move_record(
    where: dict[str, Any],
    move: SpecialistMove | None,
    turned: TurnOutcome,
    entropy_before: float,
    entropy_after: float,
) -> dict[str, Any]:
    """The turn's entry in ``moves`` (and its stream event): what was said and what it changed."""
    return {
        **where,
        "summary": move.summary if move else "",
        "nodes": [n["id"] for n in turned.move.nodes],
        "edges": turned.move.edges,
        "hypotheses": turned.hypotheses,
        "tests": turned.tests,
        "entropy_before": entropy_before,
        "entropy_after": entropy_after,
    }


def specialist(state: RdcState, runtime: Runtime[RdcContext]) -> dict[str, Any]:
    """Run the pending speaker's turn and return the updated graph, differential and records.

    The steps: retrieve (:func:`_retrieve`), prompt (:func:`~.render.turn_messages`), argue
    and apply the move (:func:`_argue`), judge the accepted claims (:func:`_judged_claims`),
    recompute the differential, and reward the speaker bandit (:func:`_bandit_after`).
    """
    ctx = context_of(runtime, RdcContext)
    cfg = ctx.config()
    case = load_case(state["case"])
    spec = find_spec(state, state["speaker"])
    turn = state["turns"] + 1
    graph = DebateGraph.from_dict(state["graph"])
    sections, new_ids, tool_call, shown = _retrieve(ctx, cfg, case, spec)
    seen = list(dict.fromkeys([*new_ids, *state.get("retrieved_ids", [])]))
    messages = turn_messages(
        case,
        spec,
        state["phase"],
        graph,
        state["posterior"],
        sections,
        [*seen, *(e.id for e in case.evidence)],
        cfg.graph_lines,
        extra=_phase_extra(state, graph, cfg),
        semantics=cfg.semantics,
    )
    move, usage, graph, turned = _argue(ctx, cfg, state, case, spec, graph, messages, seen)
    outcome = turned.move
    if turned.case is not None:
        case = turned.case
    where = {"speaker": spec.name, "phase": state["phase"], "round": state["round"], "turn": turn}
    rejected = [{**where, **r} for r in outcome.rejected]
    claims = _judged_claims(ctx, move, outcome, shown, case, where) if move else []
    _, posterior = differential(graph, cfg.quality_alpha, cfg.semantics, cfg.label_consistency)
    entropy = entropy_nats(posterior)
    record = _move_record(where, move, turned, state["entropy"], entropy)
    key = f"{state['run_id']}:t{turn}"
    update: dict[str, Any] = {
        **({"case": case.model_dump(mode="json")} if turned.case is not None else {}),
        "graph": graph.to_dict(),
        "turns": turn,
        "posterior": posterior,
        "entropy": entropy,
        "best_eig": best_eig(posterior, candidate_tests(case), cfg.max_risk),
        "retrieved_ids": [i for i in new_ids if i not in state.get("retrieved_ids", [])],
        "moves": [record],
        "rejected": rejected,
        "claims": claims,
        "usage": usage,
        "outbox": _ledger_entries(key, where, messages, tool_call, move, outcome, rejected),
    }
    bandit = _bandit_after(state, usage, entropy)
    if bandit is not None:
        update["bandit"] = bandit
    runtime.stream_writer({"event": "move", **record, "rejected": rejected})
    return update


def _ledger_entries(
    key: str,
    where: dict[str, Any],
    messages: list[Any],
    tool_call: dict[str, Any] | None,
    move: SpecialistMove | None,
    outcome: MoveOutcome,
    rejected: list[dict[str, Any]],
) -> list[dict[str, Any]]:
    """The turn's ledger entries: the prompt's hash, the tool call, the move, the graph delta."""
    entries = [entry(f"{key}:prompt", "prompt", {**where, "sha256": prompt_sha256(messages)})]
    if tool_call is not None:
        entries.append(entry(f"{key}:tool", "tool_call", {**where, **tool_call}))
    entries.append(
        entry(
            f"{key}:move",
            "move",
            {
                **where,
                "move": move.model_dump() if move else None,
                "accepted": [n["id"] for n in outcome.nodes],
                "rejected": rejected,
            },
        )
    )
    delta = {**where, "nodes": outcome.nodes, "edges": outcome.edges}
    entries.append(entry(f"{key}:delta", "graph_delta", delta))
    return entries
