"""From a CASE to the engine's objects: specialists, seeded debate graph, tests, candidates.

Seeding rule: each hypothesis becomes a ``hypothesis`` node with its prior; each known finding an
``evidence`` node (quality, provenance) with, for every hypothesis it names with a non-zero LLR,
a ``supports`` edge (LLR > 0) or an ``attacks`` edge (LLR < 0) carrying ``|LLR|``; each test a
``test`` node whose discriminative power is its EIG under the seeded differential.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from disputatio.argumentation import (
    CandidateTest,
    DebateGraph,
    Edge,
    EdgeKind,
    EvidenceItem,
    Node,
    NodeKind,
    node_for_test,
)
from disputatio.errors import ConfigError
from disputatio.nodes.rdc.analysis import differential
from disputatio.prompts.rdc import DEFAULT_SPECIALISTS
from disputatio.state.rdc import Case, KnownEvidence, SpecialistSpec

logger = logging.getLogger(__name__)


def load_case(data: Case | Mapping[str, Any]) -> Case:
    """Validate a CASE given as a model or a dict.

    Raises:
        ConfigError: With the first validation problem, on one line.
    """
    if isinstance(data, Case):
        return data
    try:
        return Case.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ())) or "case"
        raise ConfigError(f"invalid case {where}: {first.get('msg')}") from exc


def read_case_file(path: Path) -> Case:
    """Read and validate a CASE.json file.

    Raises:
        ConfigError: If the file cannot be read, is not JSON or is not a valid case.
    """
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(f"cannot read case file {path}: {exc.strerror}") from exc
    except json.JSONDecodeError as exc:
        raise ConfigError(f"case file {path} is not JSON: {exc.msg} (line {exc.lineno})") from exc
    return load_case(data)


def resolve_specialists(
    case: Case, names: Sequence[str] | None = None, limit: int | None = None
) -> list[SpecialistSpec]:
    """Return the specialists in play.

    Order of precedence: ``names`` (each looked up in the case, then in the domain defaults;
    unknown names get an empty focus) → the case's list → the domain's defaults → the generic
    defaults. ``limit`` keeps the first N.

    Raises:
        ConfigError: If no specialist remains, or a name is given twice.
    """
    twice = sorted({n for n in names or [] if list(names or []).count(n) > 1})
    if twice:
        raise ConfigError(f"specialist named twice: {', '.join(twice)}")
    known = {s.name: s for s in case.specialists}
    defaults = DEFAULT_SPECIALISTS.get(case.domain) or DEFAULT_SPECIALISTS["generic"]
    for name, focus in (*DEFAULT_SPECIALISTS["generic"], *defaults):
        known.setdefault(name, SpecialistSpec(name=name, focus=focus))
    if names:
        chosen = [known.get(n) or SpecialistSpec(name=n, focus="") for n in names]
    elif case.specialists:
        chosen = list(case.specialists)
    else:
        chosen = [SpecialistSpec(name=n, focus=f) for n, f in defaults]
    if limit is not None:
        chosen = chosen[: max(limit, 0)]
    if not chosen:
        raise ConfigError("rdc needs at least one specialist")
    return chosen


def hypothesis_aliases(case: Case) -> dict[str, str]:
    """Map lower-cased hypothesis ids and labels to ids (how agents' names are resolved)."""
    aliases: dict[str, str] = {}
    for h in case.hypotheses:
        aliases[h.id.lower()] = h.id
        if h.label:
            aliases.setdefault(h.label.lower(), h.id)
    return aliases


def evidence_items(findings: Iterable[KnownEvidence]) -> list[EvidenceItem]:
    """Return fusion items for findings: one per hypothesis with a non-zero LLR."""
    return [
        EvidenceItem(e.id, abs(llr), e.quality, 1 if llr > 0 else -1, h)
        for e in findings
        for h, llr in e.llr.items()
        if llr != 0.0
    ]


def candidate_tests(case: Case) -> list[CandidateTest]:
    """Return the case's tests as engine :class:`CandidateTest` s."""
    return [
        CandidateTest(t.id, t.likelihoods, t.cost, t.risk, t.latency, t.label or t.id)
        for t in case.tests
    ]


def add_claim_edges(graph: DebateGraph, source: str, llrs: Mapping[str, float]) -> list[Edge]:
    """Add a ``supports`` (LLR > 0) or ``attacks`` (LLR < 0) edge per non-zero LLR; return them."""
    return [
        graph.add_edge(source, h, EdgeKind.SUPPORTS if llr > 0 else EdgeKind.ATTACKS, llr=abs(llr))
        for h, llr in llrs.items()
        if llr != 0.0
    ]


def seed_graph(
    case: Case,
    alpha: float = 1.0,
    semantics: str = "bipolar",
    reliabilities: Mapping[str, float] | None = None,
) -> DebateGraph:
    """Return the debate graph of a case before any move (see the module docstring).

    Args:
        case: The case.
        alpha: Quality exponent of the fusion that gives the test EIGs.
        semantics: Labelling semantics of that fusion.
        reliabilities: β per evidence source (``rdc.reliabilities``, as ``disputatio rdc
            calibrate`` fits them): a finding's quality becomes ``min(1, β · quality)``.
    """
    betas = reliabilities or {}
    graph = DebateGraph()
    for h in case.hypotheses:
        graph.add_node(Node(h.id, NodeKind.HYPOTHESIS, label=h.label or h.id, prior=h.prior))
    for e in case.evidence:
        prov = (e.provenance,) if e.provenance else ("case",)
        graph.add_node(
            Node(
                e.id,
                NodeKind.EVIDENCE,
                label=e.label or e.id,
                quality=min(1.0, max(0.0, betas.get(e.source, 1.0) * e.quality)),
                provenance=prov,
            )
        )
        add_claim_edges(graph, e.id, e.llr)
    _, posterior = differential(graph, alpha, semantics)
    for test in candidate_tests(case):
        graph.add_node(node_for_test(test, posterior))
    return graph
