"""Benchmark metrics over per-question records (pure functions).

* accuracy (unanswered questions count as wrong);
* change of answer between each agent's round-1 answer and the final answer, split into
  correct→wrong and wrong→correct (debate only);
* convergence: how many questions reached agreement, and in which round;
* tokens, calls and latency, in total and per role.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np


def is_correct(record: Mapping[str, Any], gold: str) -> bool:
    """Whether the record's answer is the gold label."""
    return record.get("answer") is not None and record.get("answer") == gold


def change_of_answer(records: Sequence[Mapping[str, Any]], golds: Sequence[str]) -> dict[str, Any]:
    """Per agent and in total: round-1 answer vs final answer.

    Returns:
        ``{agent: {changed, correct_to_wrong, wrong_to_correct, wrong_to_wrong}, "total": ...}``
        where ``changed`` counts questions whose final answer differs from the agent's round-1
        answer, and ``wrong_to_wrong`` those that changed from one wrong answer to another.
    """
    out: dict[str, Counter[str]] = {}
    for record, gold in zip(records, golds, strict=True):
        rounds = record.get("answers_per_round") or []
        if not rounds:
            continue
        final = record.get("answer")
        for agent, first in rounds[0].get("answers", {}).items():
            counts = out.setdefault(agent, Counter())
            counts["questions"] += 1
            if first == final:
                continue
            counts["changed"] += 1
            first_ok, final_ok = first == gold, final is not None and final == gold
            key = (
                "correct_to_wrong"
                if first_ok
                else "wrong_to_correct"
                if final_ok
                else "wrong_to_wrong"
            )
            counts[key] += 1
    keys = ("questions", "changed", "correct_to_wrong", "wrong_to_correct", "wrong_to_wrong")
    result: dict[str, Any] = {a: {k: c.get(k, 0) for k in keys} for a, c in sorted(out.items())}
    result["total"] = {k: sum(c.get(k, 0) for c in out.values()) for k in keys}
    return result


def first_agreement_round(record: Mapping[str, Any]) -> int | None:
    """The first round in which every agent gave the same valid answer, if any."""
    for entry in record.get("answers_per_round") or []:
        if entry.get("agreement"):
            return int(entry["round"])
    return None


def convergence(records: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """How many debates reached agreement, and after how many rounds."""
    debates = [r for r in records if r.get("answers_per_round")]
    rounds = [first_agreement_round(r) for r in debates]
    agreed = [r for r in rounds if r is not None]
    return {
        "debates": len(debates),
        "agreed": len(agreed),
        "agreed_rate": len(agreed) / len(debates) if debates else None,
        "mean_rounds_to_agreement": float(np.mean(agreed)) if agreed else None,
        "agreement_round_histogram": {str(k): v for k, v in sorted(Counter(agreed).items())},
        "mean_rounds_run": (
            float(np.mean([r.get("rounds_run", 1) for r in debates])) if debates else None
        ),
    }


def usage_by_role(usage: Mapping[str, Mapping[str, Any]]) -> dict[str, dict[str, float]]:
    """Sum per-agent usage records by their ``role``."""
    out: dict[str, dict[str, float]] = {}
    for agent, rec in usage.items():
        cur = out.setdefault(str(rec.get("role", agent)), {})
        for key in ("calls", "input_tokens", "output_tokens", "latency_ms"):
            cur[key] = cur.get(key, 0) + float(rec.get(key, 0))
    return out


def _totals(record: Mapping[str, Any]) -> dict[str, float]:
    usage = record.get("usage") or {}
    return {
        key: float(sum(float(rec.get(key, 0)) for rec in usage.values()))
        for key in ("calls", "input_tokens", "output_tokens")
    }


def cost(records: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Calls, tokens and latency: means per question, percentiles, and totals per role."""
    if not records:
        return {}
    totals = [_totals(r) for r in records]
    walls = np.array([float(r.get("wall_ms", 0.0)) for r in records])
    by_role: dict[str, dict[str, float]] = {}
    for record in records:
        for role, rec in usage_by_role(record.get("usage") or {}).items():
            cur = by_role.setdefault(role, {})
            for key, value in rec.items():
                cur[key] = cur.get(key, 0.0) + value
    return {
        "mean_calls": float(np.mean([t["calls"] for t in totals])),
        "mean_input_tokens": float(np.mean([t["input_tokens"] for t in totals])),
        "mean_output_tokens": float(np.mean([t["output_tokens"] for t in totals])),
        "wall_ms": {
            "mean": float(walls.mean()),
            "p50": float(np.percentile(walls, 50)),
            "p95": float(np.percentile(walls, 95)),
        },
        "by_role": by_role,
    }


def summarize(records: Sequence[Mapping[str, Any]], golds: Sequence[str]) -> dict[str, Any]:
    """Every metric of one benchmark run."""
    n = len(records)
    correct = sum(is_correct(r, g) for r, g in zip(records, golds, strict=True))
    return {
        "n": n,
        "correct": correct,
        "accuracy": correct / n if n else None,
        "unanswered": sum(r.get("answer") is None for r in records),
        "errors": sum(bool(r.get("error")) for r in records),
        "consensus": dict(Counter(str(r.get("consensus_type")) for r in records)),
        "change_of_answer": change_of_answer(records, golds),
        "convergence": convergence(records),
        "cost": cost(records),
    }


def gold_recall(records: Sequence[Mapping[str, Any]]) -> dict[str, Any] | None:
    """How much of the gold evidence the search found, over records of the ``found`` setting.

    Each such record's ``evidence`` holds ``recall_at_k``: the share of the question's gold
    snippets among the first ``k`` sections the search returned, before they were taken out
    (:mod:`disputatio.eval.evidence`). None when no record carries one.

    Returns:
        ``n`` (questions with gold snippets), ``k``, ``mean`` recall@k, ``any`` (questions with
        at least one gold snippet found) and ``all`` (every one found).
    """
    recalls = []
    ks = set()
    for record in records:
        evidence = record.get("evidence")
        if isinstance(evidence, Mapping) and evidence.get("recall_at_k") is not None:
            recalls.append(float(evidence["recall_at_k"]))
            ks.add(evidence.get("k"))
    if not recalls:
        return None
    return {
        "n": len(recalls),
        "k": ks.pop() if len(ks) == 1 else None,
        "mean": float(np.mean(recalls)),
        "any": sum(1 for r in recalls if r > 0),
        "all": sum(1 for r in recalls if r >= 1.0),
    }
