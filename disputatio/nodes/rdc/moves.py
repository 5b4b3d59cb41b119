"""Checking a specialist's move and applying what survives to the debate graph.

Rules (each rejection is recorded with its reason; nothing rejected enters the graph):

* A claim must cite provenance, and **every** id it cites must be traceable: a section id the
  retriever returned in this thread, or a case evidence id. Otherwise it is *untraceable*.
* A claim's bearings must name known hypotheses (ids or labels, any case) with finite LLRs; LLRs
  are clipped to ``±max_abs_llr``; a repeated hypothesis keeps its first bearing. A bearing
  without an LLR is qualitative: a ``supports``/``attacks`` edge (its ``stance``) without a
  likelihood, which the fusion weighs by noisy-OR.
* Claim ids must be unique within the move (also after slugging: ``c 1`` and ``c_1`` clash).
* A claim that bears on no hypothesis and is the source of no accepted relation is rejected.
* A relation's source must be an accepted claim of the same move (so every edge rests on a
  traceable claim); its target an accepted claim of the move or an existing evidence, finding or
  assumption node (hypotheses are argued through bearings, tests are not arguments); an
  ``answers`` relation's target must be an existing query node.

Accepted claims become ``evidence`` nodes named ``t<turn>.<speaker>.<local id>``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Set
from dataclasses import dataclass, field
from typing import Any

from disputatio.argumentation import DebateGraph, EdgeKind, Node, NodeKind
from disputatio.argumentation.serialization import edge_to_dict, node_to_dict
from disputatio.nodes.rdc.case import add_claim_edges
from disputatio.state.rdc import MoveClaim, SpecialistMove

_TARGET_KINDS = frozenset({NodeKind.EVIDENCE, NodeKind.FINDING, NodeKind.ASSUMPTION})
_STRIP = " \t\n[]()<>'\"`"


@dataclass
class MoveOutcome:
    """What a move changed.

    Attributes:
        nodes: Added nodes (as dicts).
        edges: Added edges (as dicts).
        rejected: Rejected claims and relations, each with ``reason``.
    """

    nodes: list[dict[str, Any]] = field(default_factory=list)
    edges: list[dict[str, Any]] = field(default_factory=list)
    rejected: list[dict[str, Any]] = field(default_factory=list)


def clean_id(value: str) -> str:
    """Strip brackets, quotes and blanks that models put around cited ids."""
    return value.strip(_STRIP)


def slug(value: str) -> str:
    """The node-id form of a claim id (as :func:`apply_move` names evidence nodes)."""
    return re.sub(r"[^A-Za-z0-9_\-]+", "_", clean_id(value))[:40] or "claim"


@dataclass
class _Claim:
    local: str
    node_id: str
    claim: MoveClaim
    provenance: tuple[str, ...]
    llrs: dict[str, float]
    stances: dict[str, EdgeKind] = field(default_factory=dict)


def _check_claim(
    claim: MoveClaim,
    node_id: str,
    traceable: Set[str],
    aliases: Mapping[str, str],
    max_abs_llr: float,
) -> _Claim | str:
    provenance = tuple(dict.fromkeys(clean_id(p) for p in claim.provenance if clean_id(p)))
    if not provenance:
        return "untraceable: no provenance"
    missing = [p for p in provenance if p not in traceable]
    if missing:
        return f"untraceable: {', '.join(missing)} not among retrieved sections or case evidence"
    llrs: dict[str, float] = {}
    stances: dict[str, EdgeKind] = {}
    for b in claim.bearings:
        hyp = aliases.get(clean_id(b.hypothesis).lower())
        if hyp is None:
            return f"unknown hypothesis {b.hypothesis!r}"
        if hyp in llrs or hyp in stances:
            continue
        if b.llr is None:
            stances[hyp] = EdgeKind(b.stance)
            continue
        if not math.isfinite(b.llr):
            return f"llr for {hyp!r} is not a finite number"
        llrs[hyp] = max(-max_abs_llr, min(max_abs_llr, b.llr))
    return _Claim(clean_id(claim.id), node_id, claim, provenance, llrs, stances)


def apply_move(
    graph: DebateGraph,
    move: SpecialistMove,
    *,
    speaker: str,
    turn: int,
    traceable: Set[str],
    aliases: Mapping[str, str],
    max_abs_llr: float,
    reliability: float = 1.0,
) -> MoveOutcome:
    """Check ``move`` (see the module docstring) and add what survives to ``graph`` in place.

    ``reliability`` (the speaker's prior from its diary, in ``[0, 1]``) multiplies the quality
    of every claim it makes.
    """
    out = MoveOutcome()
    claims: dict[str, _Claim] = {}
    for claim in move.claims:
        local = clean_id(claim.id)
        checked = _check_claim(
            claim, f"t{turn}.{speaker}.{slug(claim.id)}", traceable, aliases, max_abs_llr
        )
        if local in claims or (
            not isinstance(checked, str) and checked.node_id in {c.node_id for c in claims.values()}
        ):
            checked = "duplicate claim id"
        if isinstance(checked, str):
            out.rejected.append({"what": "claim", "id": claim.id, "reason": checked})
        else:
            claims[local] = checked
    relations = _check_relations(graph, move, claims, out.rejected)
    _drop_idle(claims, relations, out.rejected)
    for c in claims.values():
        node = Node(
            c.node_id,
            NodeKind.EVIDENCE,
            label=c.claim.text[:200],
            quality=min(1.0, max(0.0, reliability * c.claim.quality)),
            provenance=c.provenance,
        )
        graph.add_node(node)
        out.nodes.append(node_to_dict(node))
        out.edges += [edge_to_dict(e) for e in add_claim_edges(graph, c.node_id, c.llrs)]
        out.edges += [
            edge_to_dict(graph.add_edge(c.node_id, h, kind)) for h, kind in c.stances.items()
        ]
    for source, target, kind in relations:
        out.edges.append(edge_to_dict(graph.add_edge(source, target, kind)))
    return out


_Relation = tuple[str, str, EdgeKind]


def _check_relations(
    graph: DebateGraph,
    move: SpecialistMove,
    claims: Mapping[str, _Claim],
    rejected: list[dict[str, Any]],
) -> list[_Relation]:
    relations: list[_Relation] = []
    for rel in move.relations:
        source, target = clean_id(rel.source), clean_id(rel.target)
        reason = None
        if source not in claims:
            reason = "source is not an accepted claim of this move"
        elif rel.kind == "answers":
            if target not in graph or graph.node(target).kind is not NodeKind.QUERY:
                reason = "an answer's target must be an open query"
        elif target in claims and target != source:
            target = claims[target].node_id
        elif target not in graph or graph.node(target).kind not in _TARGET_KINDS:
            reason = "target is not an evidence node or a claim of this move"
        if reason is None:
            key = (claims[source].node_id, target, EdgeKind(rel.kind))
            if key not in relations:
                relations.append(key)
                continue
            reason = "duplicate relation"
        rejected.append({"what": "relation", **rel.model_dump(), "reason": reason})
    return relations


def _drop_idle(
    claims: dict[str, _Claim], relations: list[_Relation], rejected: list[dict[str, Any]]
) -> None:
    """Reject claims that bear on nothing and source nothing, then relations left dangling."""
    claim_nodes = {c.node_id for c in claims.values()}
    changed = True
    while changed:
        changed = False
        sources = {s for s, _, _ in relations}
        for local, c in list(claims.items()):
            bears = any(v != 0.0 for v in c.llrs.values()) or bool(c.stances)
            if not bears and c.node_id not in sources:
                rejected.append({"what": "claim", "id": local, "reason": "bears on nothing"})
                del claims[local]
                changed = True
        alive = {c.node_id for c in claims.values()}
        for rel in list(relations):
            if rel[0] not in alive or (rel[1] in claim_nodes and rel[1] not in alive):
                relations.remove(rel)
                rejected.append(
                    {
                        "what": "relation",
                        "source": rel[0],
                        "target": rel[1],
                        "kind": rel[2].value,
                        "reason": "rests on a rejected claim",
                    }
                )
                changed = True
