"""Compact text views of the case and the debate graph for the agents' prompts."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage

from disputatio.argumentation import DebateGraph, EdgeKind, NodeKind
from disputatio.nodes.rdc.analysis import labelling
from disputatio.prompts.rdc import (
    PHASE_INSTRUCTIONS,
    SPECIALIST_SYSTEM,
    TURN_TEMPLATE,
    VOTE_SYSTEM,
    VOTE_TEMPLATE,
)
from disputatio.state.rdc import Case, SpecialistSpec


def case_text(case: Case) -> str:
    """Return the title and description of the case."""
    return f"{case.title}\n{case.description}".strip()


def hypotheses_text(case: Case) -> str:
    """Return one ``id: label (prior p)`` line per hypothesis."""
    return "\n".join(f"{h.id}: {h.label or h.id} (prior {h.prior:.2f})" for h in case.hypotheses)


def graph_text(graph: DebateGraph, max_lines: int, semantics: str = "bipolar") -> str:
    """Return one line per evidence node (the latest ``max_lines``): label, quality, bearings."""
    labels = labelling(graph, semantics)
    bearings: dict[str, list[str]] = {}
    for e in graph.edges:
        if e.kind in (EdgeKind.SUPPORTS, EdgeKind.ATTACKS) and e.llr is not None:
            target_kind = graph.node(e.target).kind
            if target_kind is NodeKind.HYPOTHESIS:
                bearings.setdefault(e.source, []).append(f"{e.target} {e.sign * e.llr:+.2f}")
                continue
        if e.kind in (EdgeKind.SUPPORTS, EdgeKind.ATTACKS):
            bearings.setdefault(e.source, []).append(f"{e.kind.value} {e.target}")
    lines = []
    for n in graph.nodes_of(NodeKind.EVIDENCE)[-max_lines:] if max_lines > 0 else ():
        status = labels.get(n.id, "undec").upper()
        text = n.label[:160]
        lines.append(
            f"- {n.id} [{status}] q={n.quality:.2f}: {text} | {'; '.join(bearings.get(n.id, []))}"
        )
    return "\n".join(lines) or "(empty)"


def posterior_text(posterior: Mapping[str, float]) -> str:
    """Return ``id p`` pairs, most likely first."""
    ranked = sorted(posterior.items(), key=lambda kv: (-kv[1], kv[0]))
    return ", ".join(f"{h} {p:.2f}" for h, p in ranked)


def turn_messages(
    case: Case,
    spec: SpecialistSpec,
    phase: str,
    graph: DebateGraph,
    posterior: Mapping[str, float],
    sections: str,
    citable: Sequence[str],
    max_lines: int,
    extra: str = "",
    semantics: str = "bipolar",
) -> list[BaseMessage]:
    """Return the prompt of a specialist turn (``extra`` is appended to the phase instruction)."""
    system = SPECIALIST_SYSTEM.format(name=spec.name, focus=spec.focus or spec.name)
    human = TURN_TEMPLATE.format(
        case=case_text(case),
        hypotheses=hypotheses_text(case),
        graph=graph_text(graph, max_lines, semantics),
        posterior=posterior_text(posterior),
        sections=sections,
        citable=", ".join(citable),
        phase=phase,
        instruction=f"{PHASE_INSTRUCTIONS[phase]}\n{extra}".strip(),
    )
    return [SystemMessage(system), HumanMessage(human)]


def vote_messages(
    case: Case,
    spec: SpecialistSpec,
    graph: DebateGraph,
    posterior: Mapping[str, float],
    max_lines: int,
) -> list[BaseMessage]:
    """Return the prompt of a specialist's vote."""
    system = VOTE_SYSTEM.format(name=spec.name, focus=spec.focus or spec.name)
    human = VOTE_TEMPLATE.format(
        case=case_text(case),
        hypotheses=hypotheses_text(case),
        graph=graph_text(graph, max_lines),
        posterior=posterior_text(posterior),
    )
    return [SystemMessage(system), HumanMessage(human)]
