"""The jury: the verdict of the debate, computed by the engine on the final graph (no model).

It emits the differential (log-odds fusion over the IN evidence, ``f(q) = q**alpha``, noisy-OR
for edges without likelihoods, the consistency regulariser when on), the labels of the
hypotheses and the label inconsistency, the test plan (admissible tests by expected utility,
with the tests the risk limit excluded), the disagreement of the last vote, "what would change
our mind" (the odds shift Δ; Δ_ik(T = o) for the top hypothesis pairs, each with its test and
outcome; the flips of the case's counter-evidence candidates; the smallest set of admitted
evidence whose defeat flips the verdict; the minimum hitting set of the top hypothesis's support
paths), the minimal counter-evidence set among the case's candidates and, when the case names a
gold diagnosis, calibration metrics. The verdict is the last ledger
entry; the returned verdict also carries the ledger head (the verdict entry's hash) to anchor it.
"""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from disputatio.argumentation import (
    CandidateTest,
    DebateGraph,
    Label,
    NodeKind,
    entropy_nats,
    expected_information_gain,
    label_inconsistency,
)
from disputatio.nodes.context import context_of
from disputatio.nodes.rdc.analysis import (
    calibration,
    differential,
    graph_counter_evidence,
    jury_disagreement,
    labelling,
    ordered_differential,
    pair_shifts,
    plan_tests,
    pooled_votes,
    sensitivity,
)
from disputatio.nodes.rdc.case import candidate_tests, evidence_items, load_case
from disputatio.nodes.rdc.context import RdcContext, tokens_used
from disputatio.nodes.rdc.memory import diary_entries, write_diaries
from disputatio.nodes.rdc.outbox import flush
from disputatio.state.rdc import RdcState
from disputatio.storage.ledger import jsonable


def final_graph(
    graph: DebateGraph, posterior: dict[str, float], case_tests: list[CandidateTest]
) -> DebateGraph:
    """Return ``graph`` with each test's discriminative power set to its EIG under ``posterior``."""
    data = graph.to_dict()
    tests = {t.id: t for t in case_tests}
    for node in data["nodes"]:
        if node["kind"] == NodeKind.TEST.value and node["id"] in tests:
            node["discriminative_power"] = expected_information_gain(posterior, tests[node["id"]])
    return DebateGraph.from_dict(data)


def _unsupported(state: RdcState, admitted: list[str]) -> list[str]:
    """Admitted evidence claims no sentence of what they cite supports (judged at their turn)."""
    verdicts = {c.get("node"): c.get("verdict") for c in state.get("claims") or []}
    return [e for e in admitted if e in verdicts and verdicts[e] not in ("supported", None)]


def jury(state: RdcState, runtime: Runtime[RdcContext]) -> dict[str, Any]:
    """Compute the verdict, append it to the ledger and return it."""
    ctx = context_of(runtime, RdcContext)
    cfg = ctx.config()
    ledger = ctx.get_ledger()
    thread = state["ledger_thread"]
    cursor = flush(ledger, thread, state["outbox"], state["ledger_cursor"])
    case = load_case(state["case"])
    alpha = cfg.quality_alpha
    tests = candidate_tests(case)
    graph = DebateGraph.from_dict(state["graph"])
    scores, posterior = differential(graph, alpha, cfg.semantics, cfg.label_consistency)
    graph = final_graph(graph, posterior, tests)
    labels = labelling(graph, cfg.semantics)
    evidence = [n.id for n in graph.nodes_of(NodeKind.EVIDENCE)]
    plan, excluded = plan_tests(
        posterior,
        tests,
        value_per_nat=case.value_per_nat if cfg.value_per_nat is None else cfg.value_per_nat,
        risk_aversion=case.risk_aversion if cfg.risk_aversion is None else cfg.risk_aversion,
        max_risk=cfg.max_risk,
    )
    change, minimal = sensitivity(scores, evidence_items(case.counter_evidence), alpha)
    admissible = [t for t in tests if t.risk <= cfg.max_risk]
    change["test_pairs"] = pair_shifts(scores, admissible, cfg.top_pairs)
    change.update(graph_counter_evidence(graph, scores, labels, alpha, cfg.max_support_paths))
    votes = [v for v in state.get("votes", []) if v["vote_round"] == state["vote_round"]]
    labels_by_id = {h.id: h.label or h.id for h in case.hypotheses}
    priors = graph.priors()
    verdict: dict[str, Any] = {
        "case": case.id,
        "run_id": state["run_id"],
        "top": ordered_differential(posterior)[0],
        "differential": [
            {
                "hypothesis": h,
                "label": labels_by_id[h],
                "prior": priors[h],
                "posterior": posterior[h],
                "log_score": scores[h],
            }
            for h in ordered_differential(posterior)
        ],
        "entropy": entropy_nats(posterior),
        "semantics": cfg.semantics,
        "hypothesis_labels": {h: labels[h].value for h in posterior if h in labels},
        "label_inconsistency": label_inconsistency(posterior, labels),
        "label_consistency": cfg.label_consistency,
        "admitted_evidence": [e for e in evidence if labels.get(e) is Label.IN],
        "unsupported_evidence": _unsupported(
            state, [e for e in evidence if labels.get(e) is Label.IN]
        ),
        "excluded_evidence": {e: labels[e].value for e in evidence if labels[e] is not Label.IN},
        "test_plan": plan,
        "excluded_tests": excluded,
        "disagreement": jury_disagreement(votes, list(posterior)),
        "pooled_vote": pooled_votes(votes, list(posterior)),
        "what_would_change_our_mind": change,
        "minimal_counter_evidence": minimal,
        "calibration": calibration(posterior, case.gold, cfg.ece_bins) if case.gold else None,
        "halt_reason": state.get("halt_reason"),
        "rounds": state["round"],
        "turns": state["turns"],
        "tokens": tokens_used(state.get("usage")),
        "rejected": len(state.get("rejected", [])),
        "quality_alpha": alpha,
    }
    verdict = jsonable(verdict)
    if cfg.memory and runtime.store is not None:
        tenant = ctx.get_settings().run_tenant(ctx.tenant)
        diaries = diary_entries(state, verdict, case.gold)
        write_diaries(runtime.store, tenant, state["run_id"], diaries)
    head = ledger.append(thread, "verdict", verdict, key=f"{state['run_id']}:verdict")
    verdict["ledger"] = {"thread": thread, "entries": head.idx + 1, "head_hash": head.hash}
    runtime.stream_writer({"event": "verdict", "top": verdict["top"]})
    return {"verdict": verdict, "graph": graph.to_dict(), "ledger_cursor": cursor}
