"""The jury's arithmetic on a debate graph, all of it done by :mod:`disputatio.argumentation`.

Admission rule (which evidence counts): the debate graph is turned into a bipolar argumentation
framework (``DebateGraph.to_framework``) and labelled (``rdc.semantics``):

* ``bipolar`` (default) — the seed's rule (:func:`disputatio.argumentation.bipolar_labelling`)
  with evidence and assumptions as base facts: IN when every attacker is OUT and it is a base
  fact or has an IN supporter; OUT when an attacker is IN or (not a base fact) every supporter
  is OUT; else UNDEC;
* ``derived`` — grounded semantics over the attacks closed under *supported* attacks (an
  argument that supports an attacker attacks too; secondary attacks off).

Only evidence labelled **IN** enters the fusion: OUT evidence (defeated by an undefeated
attacker) and UNDEC evidence (caught in an unresolved conflict) are left out, the sceptical
choice. IN evidence whose edge to a hypothesis names no likelihood ratio enters through the
noisy-OR shift (:func:`disputatio.argumentation.noisy_or_shift`, strength = edge weight ×
quality, the normalised prior as leak). With ``rdc.label_consistency`` = κ > 0 the posterior is
the consistency-regularised one, ``softmax(λ − κ c(L))`` (labels of the hypotheses: OUT costs 1,
UNDEC ½, IN 0); the verdict always reports the label inconsistency ``E_p[c(L)]``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from disputatio.argumentation import (
    CandidateTest,
    DebateGraph,
    EdgeKind,
    EvidenceItem,
    Label,
    NodeKind,
    brier_score,
    differential_log_scores,
    disagreement,
    entropy_nats,
    expected_calibration_error,
    finding_shifts,
    flip_table,
    minimal_counter_evidence,
    minimal_defeat_set,
    minimum_hitting_set,
    multiclass_brier_score,
    nodes_on_cycles,
    noisy_or_shift,
    outcome_flips,
    pairwise_test_shifts,
    rank_tests,
    regularised_log_scores,
    softmax,
    support_paths,
    verdict,
)


def labelling(graph: DebateGraph, semantics: str = "bipolar") -> dict[str, Label]:
    """Return the labelling of every non-test node (see the module docstring)."""
    return graph.labelling(semantics)


def admitted_items(
    graph: DebateGraph, labels: Mapping[str, Label] | None = None
) -> list[EvidenceItem]:
    """Return the fusion items whose evidence is labelled IN."""
    labels = labelling(graph) if labels is None else labels
    return [item for item in graph.evidence_items() if labels.get(item.id) is Label.IN]


def qualitative_shifts(graph: DebateGraph, labels: Mapping[str, Label]) -> dict[str, float]:
    """Return the noisy-OR log-odds shift of each hypothesis from IN edges without an LLR."""
    priors = graph.priors()
    total = sum(priors.values())
    causes: dict[str, tuple[list[float], list[float]]] = {}
    for e in graph.edges:
        src, dst = graph.node(e.source), graph.node(e.target)
        if dst.kind is not NodeKind.HYPOTHESIS or dst.id not in priors:
            continue
        if src.kind not in (NodeKind.EVIDENCE, NodeKind.FINDING) or labels.get(src.id) != Label.IN:
            continue
        if e.llr is not None or src.llr is not None:
            continue
        sup, att = causes.setdefault(dst.id, ([], []))
        if e.kind is EdgeKind.SUPPORTS:
            sup.append(e.weight * src.quality)
        elif e.kind in (EdgeKind.ATTACKS, EdgeKind.CONTRADICTS):
            att.append(e.weight * src.quality)
    return {h: noisy_or_shift(priors[h] / total, s, a) for h, (s, a) in causes.items()}


def differential(
    graph: DebateGraph, alpha: float, semantics: str = "bipolar", consistency: float = 0.0
) -> tuple[dict[str, float], dict[str, float]]:
    """Return ``(log_scores, posterior)`` of the hypotheses over the admitted evidence.

    Args:
        graph: The debate graph.
        alpha: Quality exponent of the fusion.
        semantics: Labelling semantics (``bipolar`` or ``derived``).
        consistency: Strength κ of the label/posterior consistency regulariser (0: off).
    """
    labels = labelling(graph, semantics)
    scores = differential_log_scores(graph.priors(), admitted_items(graph, labels), alpha)
    for h, shift in qualitative_shifts(graph, labels).items():
        scores[h] += shift
    if consistency > 0.0:
        scores = regularised_log_scores(scores, labels, consistency)
    return scores, softmax(scores)


def graph_counter_evidence(
    graph: DebateGraph,
    log_scores: Mapping[str, float],
    labels: Mapping[str, Label],
    alpha: float,
    max_paths: int,
) -> dict[str, Any]:
    """Return what, in the debate graph itself, would have to fall for the verdict to change.

    * ``defeat_set`` — a smallest set of admitted evidence whose defeat flips the verdict
      (:func:`disputatio.argumentation.minimal_defeat_set`);
    * ``support_cut`` — a minimum hitting set of the top hypothesis's support paths through IN
      arguments: defeating its members leaves the top hypothesis without an IN supporter.
    """
    top = verdict(log_scores).top
    admitted = admitted_items(graph, labels)
    defeat = minimal_defeat_set(log_scores, admitted, alpha) if admitted else None
    inside = {a for a, lab in labels.items() if lab is Label.IN}
    paths = support_paths(
        graph.to_framework(), top, graph.base_facts(), among=inside, max_paths=max_paths
    )
    cut = minimum_hitting_set(paths, exclude={top}) if paths else None
    return {
        "defeat_set": None
        if defeat is None
        else {"ids": list(defeat.ids), "challenger": defeat.challenger},
        "support_cut": {
            "hypothesis": top,
            "paths": [list(p) for p in paths],
            "members": list(cut.members) if cut else [],
            "exact": cut.exact if cut else True,
        },
    }


def pair_shifts(
    log_scores: Mapping[str, float], tests: Sequence[CandidateTest], top_n: int
) -> list[dict[str, Any]]:
    """Return Δ_ik(T = o) for the top hypothesis pairs, each with its test and outcome."""
    if len(log_scores) < 2 or not tests:
        return []
    return [
        {
            "pair": [r.leader, r.challenger],
            "test": r.test,
            "outcome": r.outcome,
            "delta": r.delta,
            "log_odds": r.log_odds,
            "after": r.after,
            "reverses": r.reverses,
            "probability": r.probability,
        }
        for r in pairwise_test_shifts(log_scores, tests, top_n=max(2, top_n))
    ]


def best_eig(
    posterior: Mapping[str, float], tests: Sequence[CandidateTest], max_risk: float
) -> float | None:
    """Return the EIG of the most informative admissible test (None when none is admissible)."""
    ranked = rank_tests(posterior, tests, max_risk=max_risk)
    return max((r.eig for r in ranked), default=None)


def plan_tests(
    posterior: Mapping[str, float],
    tests: Sequence[CandidateTest],
    *,
    value_per_nat: float,
    risk_aversion: float,
    max_risk: float,
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Return the admissible tests by expected utility, and the tests excluded by risk."""
    ranked = rank_tests(
        posterior,
        tests,
        value_per_nat=value_per_nat,
        risk_aversion=risk_aversion,
        max_risk=max_risk,
    )
    plan = [
        {
            "test": r.test.id,
            "label": r.test.label,
            "eig": r.eig,
            "utility": r.utility,
            "cost": r.test.cost,
            "risk": r.test.risk,
            "latency": r.test.latency,
            "outcome_flips": outcome_flips(posterior, r.test),
        }
        for r in ranked
    ]
    kept = {r.test.id for r in ranked}
    excluded = [{"test": t.id, "risk": t.risk} for t in tests if t.id not in kept]
    return plan, excluded


def ranking_scores(ranking: Sequence[str], hypotheses: Sequence[str]) -> dict[str, float]:
    """Return ``{h: score}`` for a ranking: listed ``n − i``, unlisted tied at 0."""
    n = len(ranking)
    scores = dict.fromkeys(hypotheses, 0.0)
    for i, h in enumerate(ranking):
        scores[h] = float(n - i)
    return scores


def jury_disagreement(
    votes: Sequence[Mapping[str, Any]], hypotheses: Sequence[str]
) -> dict[str, Any] | None:
    """Return vote entropy, mean Kendall τ-b and the combined index of valid votes (or None)."""
    valid = [v for v in votes if v.get("ranking")]
    if not valid:
        return None
    tops = [v["ranking"][0] for v in valid]
    rankings = [ranking_scores(v["ranking"], hypotheses) for v in valid]
    d = disagreement(tops, rankings if len(rankings) >= 2 else (), options=hypotheses)
    return {
        "vote_entropy": d.vote_entropy,
        "mean_tau": d.mean_tau,
        "index": d.index,
        "votes": {v["speaker"]: v["ranking"][0] for v in valid},
        "abstained": [v["speaker"] for v in votes if not v.get("ranking")],
    }


def sensitivity(
    log_scores: Mapping[str, float], candidates: Sequence[EvidenceItem], alpha: float
) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """Return "what would change our mind" and the minimal counter-evidence set (or None)."""
    v = verdict(log_scores)
    change = {
        "top": v.top,
        "runner_up": v.runner_up,
        "odds_shift": v.margin,
        "finding_flips": flip_table(log_scores, candidates, alpha),
        "finding_shifts": finding_shifts(candidates, alpha),
    }
    mce = minimal_counter_evidence(log_scores, candidates, alpha) if candidates else None
    minimal = None if mce is None else {"ids": list(mce.ids), "challenger": mce.challenger}
    return change, minimal


def calibration(posterior: Mapping[str, float], gold: str, bins: int) -> dict[str, Any]:
    """Return Brier scores and the top-label ECE of one differential against its gold label."""
    hyps = list(posterior)
    probs = [posterior[h] for h in hyps]
    top = ordered_differential(posterior)[0]
    return {
        "gold": gold,
        "correct": top == gold,
        "multiclass_brier": multiclass_brier_score([probs], [hyps.index(gold)]),
        "brier_one_vs_rest": brier_score(probs, [int(h == gold) for h in hyps]),
        "ece": expected_calibration_error([posterior[top]], [int(top == gold)], n_bins=bins),
        "ece_bins": bins,
    }


def ordered_differential(posterior: Mapping[str, float]) -> list[str]:
    """Return the hypotheses by posterior (descending), ties by id (as the verdict breaks them)."""
    return sorted(posterior, key=lambda h: (-posterior[h], h))


def hotspots(
    graph: DebateGraph, labels: Mapping[str, Label], posterior: Mapping[str, float]
) -> list[dict[str, Any]]:
    """Return the graph's hotspots, the targets of cross-examination, most pressing first.

    * ``cycle`` (score 3) — evidence on an attack cycle (its conflict is unresolved);
    * ``conflict`` (score 2) — evidence that has both an IN supporter and an IN attacker;
    * ``high_entropy`` (score = normalised entropy, ≤ 1) — IN evidence bearing on two or more
      hypotheses among which the posterior, restricted to them, is nearly uniform (≥ 0.9): the
      subgraph where the debate is least decided.
    """
    bf = graph.to_framework()
    evidence = {n.id for n in graph.nodes_of(NodeKind.EVIDENCE)}
    cyclic = nodes_on_cycles(bf.arguments, bf.attacks)
    spots: dict[str, dict[str, Any]] = {}
    for x in sorted(evidence & cyclic):
        spots[x] = {"node": x, "why": "cycle", "score": 3.0}
    for x in sorted(evidence - cyclic):
        sup = any(labels.get(a) is Label.IN for a, b in bf.supports if b == x)
        att = any(labels.get(a) is Label.IN for a, b in bf.attacks if b == x)
        if sup and att:
            spots[x] = {"node": x, "why": "conflict", "score": 2.0}
    targets: dict[str, set[str]] = {}
    for e in graph.edges:
        if e.source in evidence and e.target in posterior:
            targets.setdefault(e.source, set()).add(e.target)
    for x, hyps in sorted(targets.items()):
        if x in spots or len(hyps) < 2 or labels.get(x) is not Label.IN:
            continue
        mass = sum(posterior[h] for h in hyps)
        if mass <= 0.0:
            continue
        h_norm = entropy_nats([posterior[h] / mass for h in sorted(hyps)]) / math.log(len(hyps))
        if h_norm >= 0.9:
            spots[x] = {"node": x, "why": "high_entropy", "score": round(h_norm, 6)}
    return sorted(spots.values(), key=lambda s: (-s["score"], s["node"]))


def conflict_pair(
    posterior: Mapping[str, float], votes: Sequence[Mapping[str, Any]]
) -> tuple[str, str] | None:
    """Return ``(top, challenger)``: the differential's top and the most-voted other hypothesis.

    Votes count by their probability vectors when given (linear pool), else one point for the
    voter's first choice; ties go to the higher posterior, then the id. None without a challenger.
    """
    top = ordered_differential(posterior)[0]
    weight: dict[str, float] = dict.fromkeys(posterior, 0.0)
    for v in votes:
        dist = v.get("distribution")
        if dist:
            for h, p in dist.items():
                if h in weight:
                    weight[h] += float(p)
        elif v.get("ranking"):
            weight[v["ranking"][0]] = weight.get(v["ranking"][0], 0.0) + 1.0
    others = [h for h in posterior if h != top and weight[h] > 0.0]
    if not others:
        return None
    challenger = min(others, key=lambda h: (-weight[h], -posterior[h], h))
    return top, challenger


def pooled_votes(votes: Sequence[Mapping[str, Any]], hypotheses: Sequence[str]) -> dict[str, float]:
    """Return the linear opinion pool (mean) of the votes' probability vectors (empty if none)."""
    dists = [v["distribution"] for v in votes if v.get("distribution")]
    if not dists:
        return {}
    return {h: math.fsum(float(d.get(h, 0.0)) for d in dists) / len(dists) for h in hypotheses}
