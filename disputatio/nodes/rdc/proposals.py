"""What a move may add beyond claims: hypotheses from retrieval, assumptions, queries, tests.

Rules (each rejection recorded with its reason):

* **Hypotheses from retrieval** — a move may add a hypothesis the corpus suggests, at most
  ``retrieved_hypotheses`` per debate. Its provenance must be non-empty and cite only section
  ids the retriever returned in this thread (not case evidence: it comes *from retrieval*), its
  id must be new. It enters with prior ``π = min(case priors) / 2`` (the case's priors are
  scaled by ``1 − π``; the graph node gets ``π / (1 − π)`` times the graph's prior mass, which
  keeps every ratio), and the case's tests are extended to it with uninformative likelihoods
  (``P(o | new) = mean_j P(o | H_j)``).
* **Graph invariant, enforced at run time** — a claim (hypothesis or finding) must be backed by
  evidence or an explicit assumption: a proposed hypothesis is kept only when an accepted claim
  of the same move bears on it positively (LLR > 0, or a qualitative ``supports``) or it names
  an assumption of the move (which becomes an ``assumption`` node that supports it). After the
  move, :meth:`DebateGraph.check_invariants` must report nothing new, else the move is refused.
* **Assumptions** — kept only when a kept hypothesis rests on them.
* **Queries** — a question about an existing evidence, finding, assumption or hypothesis node:
  a ``query`` node with a ``queries`` edge. An open query is put to the next speakers; a claim
  answers it with an ``answers`` relation.
* **Proposed tests** — a binary test with its positive rate under the hypotheses it names (the
  others get the mean of the named rates: uninformative), cost and risk. It joins the case's
  tests; its test node records its discriminative power, the expected information gain (nats)
  under the posterior after the move, and ``suggests_test`` edges from the hypotheses it names.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Set
from dataclasses import dataclass, field
from typing import Any

from disputatio.argumentation import (
    CandidateTest,
    DebateGraph,
    EdgeKind,
    Node,
    NodeKind,
    expected_information_gain,
)
from disputatio.argumentation.serialization import edge_to_dict, node_to_dict
from disputatio.nodes.rdc.moves import MoveOutcome, apply_move, clean_id
from disputatio.state.rdc import Case, CaseTest, ProposedTest, SpecialistMove

_QUERY_TARGETS = frozenset(
    {NodeKind.EVIDENCE, NodeKind.FINDING, NodeKind.ASSUMPTION, NodeKind.HYPOTHESIS}
)


def _slug(value: str) -> str:
    return re.sub(r"[^A-Za-z0-9_\-]+", "_", clean_id(value)).strip("_").lower()[:40]


@dataclass
class TurnOutcome:
    """What a whole move changed: the claims' outcome plus the case as amended.

    Attributes:
        move: Claims and relations (:class:`MoveOutcome`), extended with the nodes and edges
            of hypotheses, assumptions, queries and tests.
        case: The case with the added hypotheses and tests (None when unchanged).
        hypotheses: Ids of the hypotheses added.
        tests: ``{"id", "discriminative_power"}`` of the tests added.
    """

    move: MoveOutcome
    case: Case | None = None
    hypotheses: list[str] = field(default_factory=list)
    tests: list[dict[str, Any]] = field(default_factory=list)


def _vet_hypotheses(
    move: SpecialistMove,
    case: Case,
    graph: DebateGraph,
    retrieved: Set[str],
    budget: int,
    rejected: list[dict[str, Any]],
) -> list[tuple[str, str, tuple[str, ...], str]]:
    known = {h.id for h in case.hypotheses} | {n.id for n in graph.nodes}
    kept: list[tuple[str, str, tuple[str, ...], str]] = []
    for p in move.hypotheses:
        hid = _slug(p.id)
        prov = tuple(dict.fromkeys(clean_id(x) for x in p.provenance if clean_id(x)))
        reason = None
        if len(kept) >= budget:
            reason = "no more hypotheses from retrieval in this debate"
        elif not hid or hid in known:
            reason = "hypothesis id is empty or already taken"
        elif not prov or any(x not in retrieved for x in prov):
            reason = "untraceable: a new hypothesis must cite retrieved sections only"
        if reason:
            rejected.append({"what": "hypothesis", "id": p.id, "reason": reason})
            continue
        kept.append((hid, p.label or hid, prov, clean_id(p.assumption)))
    return kept


def _amend_case(case: Case, new: list[tuple[str, str]]) -> Case:
    """Return ``case`` with the new hypotheses (id, label) and tests extended to them."""
    data = case.model_dump(mode="json")
    for hid, label in new:
        prior = min(h["prior"] for h in data["hypotheses"]) / 2.0
        for h in data["hypotheses"]:
            h["prior"] *= 1.0 - prior
        data["hypotheses"].append({"id": hid, "label": label, "prior": prior})
        for t in data["tests"]:
            for row in t["likelihoods"].values():
                row[hid] = math.fsum(row.values()) / len(row)
    return Case.model_validate(data)


def _as_case_test(p: ProposedTest, tid: str, case: Case, aliases: Mapping[str, str]) -> CaseTest:
    rates: dict[str, float] = {}
    for share in p.positive:
        h = aliases.get(clean_id(share.hypothesis).lower())
        if h is not None:
            rates.setdefault(h, share.probability)
    if not rates:
        raise ValueError("a proposed test must name the positive rate under some hypothesis")
    mean = math.fsum(rates.values()) / len(rates)
    pos = {h.id: rates.get(h.id, mean) for h in case.hypotheses}
    return CaseTest(
        id=tid,
        label=p.label or tid,
        likelihoods={"positive": pos, "negative": {h: 1.0 - v for h, v in pos.items()}},
        cost=p.cost,
        risk=p.risk,
        latency=0.0,
    )


def apply_turn(
    graph: DebateGraph,
    move: SpecialistMove,
    case: Case,
    *,
    speaker: str,
    turn: int,
    traceable: Set[str],
    retrieved: Set[str],
    aliases: Mapping[str, str],
    max_abs_llr: float,
    reliability: float,
    hypothesis_budget: int,
    posterior_of: Any,
) -> tuple[DebateGraph, TurnOutcome]:
    """Check and apply a whole move (see the module docstring); return the new graph.

    Args:
        graph: The graph before the move (not modified).
        move: The move.
        case: The case (hypotheses, tests).
        speaker: The speaker.
        turn: The turn number (prefixes new node ids).
        traceable: Ids a claim may cite (retrieved sections and case evidence).
        retrieved: Section ids retrieved in this thread (what a new hypothesis may cite).
        aliases: Lower-cased hypothesis ids and labels → ids.
        max_abs_llr: LLR clip.
        reliability: The speaker's reliability prior (scales claim quality).
        hypothesis_budget: Hypotheses that may still be added in this debate.
        posterior_of: ``graph -> posterior`` (the fusion in force), for the tests' EIG.
    """
    rejected: list[dict[str, Any]] = []
    before = set(graph.check_invariants())
    candidates = _vet_hypotheses(move, case, graph, retrieved, hypothesis_budget, rejected)
    for _ in range(len(candidates) + 1):  # each pass drops unbacked hypotheses, or ends
        notes: list[dict[str, Any]] = []
        trial, outcome, dropped = _try(
            graph, move, case, candidates, speaker, turn, traceable, aliases, max_abs_llr,
            reliability, notes,
        )  # fmt: skip
        if not dropped:
            rejected += notes
            break
        rejected += [n for n in notes if n["what"] == "hypothesis"]
        candidates = [c for c in candidates if c[0] not in dropped]
    new_problems = [p for p in trial.check_invariants() if p not in before]
    if new_problems:
        reason = f"invariant: {new_problems[0]}"
        return graph, TurnOutcome(MoveOutcome(rejected=[{"what": "move", "reason": reason}]))
    amended = _amend_case(case, [(c[0], c[1]) for c in candidates]) if candidates else None
    current = amended or case
    result = TurnOutcome(outcome, amended, [c[0] for c in candidates])
    _add_queries(trial, move, speaker, turn, outcome, rejected)
    tests = _add_tests(
        trial, move, current, speaker, turn, aliases, posterior_of, outcome, rejected
    )
    if tests:
        data = current.model_dump(mode="json")
        data["tests"] += [t.model_dump(mode="json") for t, _ in tests]
        result.case = Case.model_validate(data)
        result.tests = [{"id": t.id, "discriminative_power": eig} for t, eig in tests]
    outcome.rejected = rejected + outcome.rejected
    return trial, result


def _try(
    graph: DebateGraph,
    move: SpecialistMove,
    case: Case,
    candidates: list[tuple[str, str, tuple[str, ...], str]],
    speaker: str,
    turn: int,
    traceable: Set[str],
    aliases: Mapping[str, str],
    max_abs_llr: float,
    reliability: float,
    rejected: list[dict[str, Any]],
) -> tuple[DebateGraph, MoveOutcome, set[str]]:
    trial = DebateGraph.from_dict(graph.to_dict())
    extra: list[dict[str, Any]] = []
    edges: list[dict[str, Any]] = []
    names = dict(aliases)
    mass = sum(trial.priors().values())
    min_prior = min(h.prior for h in case.hypotheses)
    assumptions = {clean_id(a.id): a for a in move.assumptions}
    for hid, label, prov, _ in candidates:
        prior = min_prior / 2.0
        node = Node(hid, NodeKind.HYPOTHESIS, label=label, prior=min(prior / (1 - prior) * mass,
                    0.5), provenance=prov)  # fmt: skip
        trial.add_node(node)
        extra.append(node_to_dict(node))
        names[hid] = hid
        names.setdefault(label.lower(), hid)
    used: set[str] = set()
    for hid, _, _, assumption in candidates:
        if assumption and assumption in assumptions:
            aid = f"t{turn}.{speaker}.{_slug(assumption)}"
            if aid not in trial:
                text = assumptions[assumption].text
                node = Node(aid, NodeKind.ASSUMPTION, label=text[:200])
                trial.add_node(node)
                extra.append(node_to_dict(node))
            edges.append(edge_to_dict(trial.add_edge(aid, hid, EdgeKind.SUPPORTS)))
            used.add(assumption)
    outcome = apply_move(
        trial, move, speaker=speaker, turn=turn, traceable=traceable, aliases=names,
        max_abs_llr=max_abs_llr, reliability=reliability,
    )  # fmt: skip
    backed = trial.backed_claims()
    dropped = {hid for hid, *_ in candidates if hid not in backed}
    for hid in sorted(dropped):
        reason = "invariant: not backed by a claim of this move or an explicit assumption"
        rejected.append({"what": "hypothesis", "id": hid, "reason": reason})
    for local in sorted(set(assumptions) - used):
        rejected.append({"what": "assumption", "id": local, "reason": "backs no hypothesis"})
    outcome.nodes = extra + outcome.nodes
    outcome.edges = edges + outcome.edges
    return trial, outcome, dropped


def _add_queries(
    graph: DebateGraph,
    move: SpecialistMove,
    speaker: str,
    turn: int,
    outcome: MoveOutcome,
    rejected: list[dict[str, Any]],
) -> None:
    for q in move.queries:
        target = clean_id(q.target)
        qid = f"t{turn}.{speaker}.{_slug(q.id) or 'q'}"
        if target not in graph or graph.node(target).kind not in _QUERY_TARGETS or qid in graph:
            rejected.append({"what": "query", "id": q.id, "reason": "unknown target node"})
            continue
        node = Node(qid, NodeKind.QUERY, label=q.question[:200])
        graph.add_node(node)
        outcome.nodes.append(node_to_dict(node))
        outcome.edges.append(edge_to_dict(graph.add_edge(qid, target, EdgeKind.QUERIES)))


def _add_tests(
    graph: DebateGraph,
    move: SpecialistMove,
    case: Case,
    speaker: str,
    turn: int,
    aliases: Mapping[str, str],
    posterior_of: Any,
    outcome: MoveOutcome,
    rejected: list[dict[str, Any]],
) -> list[tuple[CaseTest, float]]:
    names = {h.id.lower(): h.id for h in case.hypotheses} | dict(aliases)
    added: list[tuple[CaseTest, float]] = []
    taken = {t.id for t in case.tests} | {n.id for n in graph.nodes}
    for p in move.tests:
        tid = f"p{turn}.{_slug(p.id) or 'test'}"
        try:
            if tid in taken:
                raise ValueError("test id already taken")
            test = _as_case_test(p, tid, case, names)
            candidate = CandidateTest(tid, test.likelihoods, test.cost, test.risk, 0.0, test.label)
            eig = expected_information_gain(posterior_of(graph), candidate)
        except ValueError as exc:
            rejected.append({"what": "test", "id": p.id, "reason": str(exc).splitlines()[0]})
            continue
        node = Node(tid, NodeKind.TEST, label=test.label, cost=test.cost, risk=test.risk,
                    discriminative_power=eig)  # fmt: skip
        graph.add_node(node)
        outcome.nodes.append(node_to_dict(node))
        named = {aliases.get(clean_id(s.hypothesis).lower()) for s in p.positive} - {None}
        for h in sorted(h for h in named if h is not None and h in graph):
            outcome.edges.append(edge_to_dict(graph.add_edge(h, tid, EdgeKind.SUGGESTS_TEST)))
        added.append((test, eig))
        taken.add(tid)
    return added


__all__ = ["TurnOutcome", "apply_turn"]
