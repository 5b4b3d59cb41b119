"""Metrics of an evaluation run: per question, per (data set, protocol), and between protocols.

Definitions (all per data set, on the records of ``results.jsonl``):

* accuracy with a 95% Wilson interval; unanswered questions count as wrong;
* majority-class baseline: always answering the most frequent gold label, chosen on the data
  set's calibration split where it has one (MIRAGE sets: questions never drawn for a test), else
  on the questions evaluated; each protocol's ``majority`` is that label's accuracy on its own
  questions; chance: the mean of ``1 / options`` (calibration split where there is one);
* paired tests between every two protocols on the questions both answered: exact McNemar on the
  discordant pairs (raw, and Holm-adjusted over the data set's family of tests) and a paired
  bootstrap of the accuracy difference;
* change of answer (the MedRAG seed's definition): the final answer differs from EVERY initial
  answer of the agents; split into wrong→correct (the final answer is right), correct→wrong
  (it is wrong and some initial answer was right) and wrong→wrong;
* convergence rate (debates that reached agreement), rounds, tool calls, distinct sections
  cited, tokens in/out per role, latency p50/p95 (of the questions answered in one process: a
  question resumed after a kill has only its last part timed) and calls per question;
* hierarchical debates: questions decomposed (and into how many sub-questions on average) and
  questions where some leaf was debated;
* the answers given: how often each final answer was given (beside the gold labels of the same
  questions), balanced accuracy (the mean per-gold-label accuracy: 0.5 for any constant yes/no
  answer) with a 95% stratified-bootstrap interval, and the debaters' first answers by role,
  which show a persona that answers the same whatever the question (a constant is not an
  argument).
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from disputatio.eval.metrics import gold_recall
from disputatio.eval.protocols_hier import is_first_root_answer
from disputatio.eval.question import Question
from disputatio.eval.stats import (
    balanced_accuracy,
    balanced_accuracy_interval,
    chance_accuracy,
    discordant,
    holm,
    majority_baseline,
    mcnemar_exact,
    paired_bootstrap,
    percentile,
    wilson_interval,
)

#: Reading order of protocols in tables and plots: baselines, then debates, then ablations.
ORDER = (
    "cot",
    "rag",
    "sc",
    "sc_rag",
    "medrag_norag",
    "medrag",
    "hier",
    "hier_nodebate",
    "hier_flat",
    "hier_norag",
)


def protocol_order(name: str) -> tuple[int, str]:
    """Sort key of a protocol name (``cot`` or ``cot@<run id>``): :data:`ORDER`, then by name."""
    base = name.split("@", 1)[0]
    return (ORDER.index(base) if base in ORDER else len(ORDER), name)


def change_category(initial: Sequence[str | None], final: str | None, gold: str) -> str | None:
    """``same``, ``wrong_to_correct``, ``correct_to_wrong`` or ``wrong_to_wrong``.

    None when there is nothing to compare (no valid initial answer, or no final answer).
    """
    valid = {a for a in initial if a}
    if not valid or final is None:
        return None
    if final in valid:
        return "same"
    if final == gold:
        return "wrong_to_correct"
    return "correct_to_wrong" if gold in valid else "wrong_to_wrong"


def _ids(items: Iterable[Any]) -> set[str]:
    out = set()
    for item in items or []:
        value = item.get("id") if isinstance(item, Mapping) else item
        if value:
            out.add(str(value))
    return out


def question_metrics(record: Mapping[str, Any]) -> dict[str, Any]:
    """Per-question numbers of one record (also stored in ``experiment_runs.metrics``)."""
    from disputatio.eval.store import tool_calls_of

    usage = record.get("usage") or {}
    log = record.get("log") or {}
    cited = _ids(log.get("citations") or [])
    for entry in log.get("history", []):
        cited |= _ids(entry.get("citations") or [])
    retrieved: set[str] = set()
    for entry in log.get("retrieval", []):
        retrieved |= _ids(entry.get("ids") or [])
    converged = record.get("converged")
    if converged is None and record.get("answers_per_round"):
        converged = record.get("agreement_round") is not None
    return {
        "correct": bool(record.get("correct")),
        "answered": record.get("answer") is not None,
        "wall_ms": float(record.get("wall_ms") or 0.0),
        "resumed": bool(record.get("resumed")),
        # hierarchical debates: how many sub-questions the plan made (0: answered whole)
        "sub_questions": len(log["tree"]) - 1 if log.get("tree") else None,
        "debated_leaves": record.get("debated_leaves"),
        "calls": sum(int(u.get("calls", 0)) for u in usage.values()),
        "input_tokens": sum(int(u.get("input_tokens", 0)) for u in usage.values()),
        "output_tokens": sum(int(u.get("output_tokens", 0)) for u in usage.values()),
        "rounds": record.get("rounds_run") if record.get("initial_answers") is not None else None,
        "tool_calls": sum(1 for _ in tool_calls_of(log)),
        "sections_cited": len(cited),
        "sections_retrieved": len(retrieved),
        "converged": converged,
        "change": change_category(
            record.get("initial_answers") or [], record.get("answer"), str(record.get("gold"))
        ),
    }


def tokens_by_role(records: Sequence[Mapping[str, Any]]) -> dict[str, dict[str, float]]:
    """Mean tokens in/out and calls per question, by role."""
    totals: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    for record in records:
        for agent, rec in (record.get("usage") or {}).items():
            role = str(rec.get("role", agent))
            for key in ("calls", "input_tokens", "output_tokens"):
                totals[role][key] += float(rec.get(key, 0))
    n = max(1, len(records))
    return {role: {k: v / n for k, v in sorted(d.items())} for role, d in sorted(totals.items())}


#: How an unanswered question is counted among the answers given.
UNANSWERED = "(none)"


def answer_counts(values: Iterable[Any]) -> dict[str, int]:
    """How often each answer occurs, most frequent first (ties by label); None is UNANSWERED."""
    counts: dict[str, int] = defaultdict(int)
    for value in values:
        counts[UNANSWERED if value is None else str(value)] += 1
    return dict(sorted(counts.items(), key=lambda item: (-item[1], item[0])))


def first_answers(record: Mapping[str, Any]) -> list[tuple[str, str | None]]:
    """``(role, answer)`` of each debater's first answer to the question itself.

    A MedRAG debate's first round names its agents (``agent1``, ``agent2``); a hierarchical
    debate's ``initial_answers`` are its root's round-0 answer moves in transcript order, whose
    roles (personas) the transcript keeps. A decomposed question has none: its agents answered
    sub-questions. Other protocols have none.
    """
    rounds = record.get("answers_per_round") or []
    if rounds and isinstance(rounds[0], Mapping) and rounds[0].get("answers"):
        return [(str(agent), answer) for agent, answer in rounds[0]["answers"].items()]
    initial = record.get("initial_answers") or []
    transcript = (record.get("log") or {}).get("transcript") or []
    roles = [str(m.get("role")) for m in transcript if is_first_root_answer(m)]
    return list(zip(roles, initial, strict=True)) if len(roles) == len(initial) else []


def first_answers_by_role(records: Sequence[Mapping[str, Any]]) -> dict[str, dict[str, int]]:
    """Per role, :func:`answer_counts` of its first answers over ``records`` (roles sorted)."""
    by_role: dict[str, list[str | None]] = defaultdict(list)
    for record in records:
        for role, answer in first_answers(record):
            by_role[role].append(answer)
    return {role: answer_counts(answers) for role, answers in sorted(by_role.items())}


def _decomposed(per: Sequence[Mapping[str, Any]]) -> dict[str, Any] | None:
    """How a hierarchical debate's plans came out: None for other protocols."""
    trees = [m for m in per if m["sub_questions"] is not None]
    if not trees:
        return None
    split = [m["sub_questions"] for m in trees if m["sub_questions"]]
    return {
        "questions": len(trees),
        "decomposed": len(split),
        "sub_questions_mean": _mean(split),
        "with_debate": sum(bool(m["debated_leaves"]) for m in trees),
    }


def _mean(values: Sequence[float | None]) -> float | None:
    vals = [float(v) for v in values if v is not None]
    return float(np.mean(vals)) if vals else None


#: Resamples of the paired bootstrap and of the balanced-accuracy interval.
RESAMPLES = 10_000


def protocol_summary(
    records: Sequence[Mapping[str, Any]], majority_label: str | None = None, *, seed: int = 0
) -> dict[str, Any]:
    """Every metric of one protocol on one data set.

    ``majority`` is the accuracy of always answering ``majority_label`` (the data set's most
    frequent gold label) on THIS protocol's questions: protocols run on fewer questions (the
    first 20 of a 50-question draw) are compared with the baseline of their own questions.
    ``seed`` seeds the balanced-accuracy interval.
    """
    per = [question_metrics(r) for r in records]
    n = len(per)
    correct = sum(m["correct"] for m in per)
    golds = [str(r.get("gold")) for r in records]
    low, high = wilson_interval(correct, n)
    changes = [m["change"] for m in per if m["change"] is not None]
    conv = [m["converged"] for m in per if m["converged"] is not None]
    walls = [m["wall_ms"] for m in per if not m["resumed"]]  # a resumed one: only its tail
    budgets = [r["budget"] for r in records if r.get("budget")]
    labelled = bool(records) and all(r.get("options") for r in records)  # GSM8K: numbers
    oks = [m["correct"] for m in per]
    return {
        "n": n,
        "correct": correct,
        "accuracy": correct / n if n else None,
        "majority": (golds.count(majority_label) / n) if n and majority_label else None,
        "ci_low": low,
        "ci_high": high,
        "unanswered": sum(not m["answered"] for m in per),
        "calls_per_q": _mean([m["calls"] for m in per]),
        "input_tokens_per_q": _mean([m["input_tokens"] for m in per]),
        "output_tokens_per_q": _mean([m["output_tokens"] for m in per]),
        "tokens_by_role": tokens_by_role(records),
        "answers": answer_counts(r.get("answer") for r in records),
        "balanced_accuracy": balanced_accuracy(oks, golds) if labelled else None,
        "balanced_ci": balanced_accuracy_interval(oks, golds, resamples=RESAMPLES, seed=seed)
        if labelled
        else None,
        "gold_answers": answer_counts(golds),
        "first_answers_by_role": first_answers_by_role(records),
        "gold_recall": gold_recall(records),
        "resumed": sum(m["resumed"] for m in per),
        "decomposed": _decomposed(per),
        "wall_p50_s": (percentile(walls, 50) or 0.0) / 1000.0 if walls else None,
        "wall_p95_s": (percentile(walls, 95) or 0.0) / 1000.0 if walls else None,
        "rounds_mean": _mean([m["rounds"] for m in per]),
        "tool_calls_per_q": _mean([m["tool_calls"] for m in per]),
        "sections_cited_per_q": _mean([m["sections_cited"] for m in per]),
        "converged": sum(bool(c) for c in conv),
        "convergence_rate": (sum(bool(c) for c in conv) / len(conv)) if conv else None,
        "change": {
            key: sum(1 for c in changes if c == key)
            for key in ("same", "wrong_to_correct", "correct_to_wrong", "wrong_to_wrong")
        }
        if changes
        else None,
        "budget": {
            "matched": sum(bool(b.get("matched")) for b in budgets),
            "target_calls_per_q": _mean([b.get("target_calls") for b in budgets]),
            "target_tokens_per_q": _mean(
                [
                    b.get("target_input_tokens", 0) + b.get("target_output_tokens", 0)
                    for b in budgets
                ]
            ),
        }
        if budgets
        else None,
    }


def pairwise(
    by_protocol: Mapping[str, Mapping[str, Mapping[str, Any]]],
    *,
    resamples: int = RESAMPLES,
    seed: int = 0,
) -> list[dict[str, Any]]:
    """Paired tests between every two protocols on the questions both answered.

    The pairs are one family: ``mcnemar_p_holm`` is each McNemar p Holm-adjusted over all of
    them (:func:`~disputatio.eval.stats.holm`).

    Args:
        by_protocol: ``{protocol: {question id: record}}`` of one data set.
        resamples: Bootstrap resamples.
        seed: Bootstrap seed.
    """
    out: list[dict[str, Any]] = []
    for a, b in itertools.combinations(sorted(by_protocol, key=protocol_order), 2):
        common = sorted(set(by_protocol[a]) & set(by_protocol[b]))
        if not common:
            continue
        ra = [bool(by_protocol[a][q].get("correct")) for q in common]
        rb = [bool(by_protocol[b][q].get("correct")) for q in common]
        only_a, only_b = discordant(ra, rb)
        boot = paired_bootstrap(ra, rb, resamples=resamples, seed=seed)
        out.append(
            {
                "a": a,
                "b": b,
                "n": len(common),
                "acc_a": sum(ra) / len(common),
                "acc_b": sum(rb) / len(common),
                "only_a": only_a,
                "only_b": only_b,
                "mcnemar_p": mcnemar_exact(only_a, only_b),
                "diff": boot.diff,
                "diff_low": boot.low,
                "diff_high": boot.high,
                "bootstrap_p": boot.p_value,
            }
        )
    for pair, adjusted in zip(out, holm([float(p["mcnemar_p"]) for p in out]), strict=True):
        pair["mcnemar_p_holm"] = adjusted
    return out


def _options_count(options: Any) -> int:
    return len(options) if isinstance(options, Mapping | list | tuple) else 0


def reference(
    golds: Sequence[str], option_counts: Sequence[int], calibration: Sequence[Question] | None
) -> dict[str, Any]:
    """Majority label, its accuracy and chance: on ``calibration`` if given, else on ``golds``.

    Returns:
        ``{"label", "accuracy", "split", "questions", "chance"}``; ``split`` is
        ``calibration`` or ``evaluated`` (the questions of the test sample: then the label is
        chosen on the questions it is compared with).
    """
    if calibration:
        golds = [q.gold for q in calibration]
        option_counts = [_options_count(q.options) for q in calibration]
    label, acc = majority_baseline(golds)
    return {
        "label": label,
        "accuracy": acc,
        "split": "calibration" if calibration else "evaluated",
        "questions": len(golds),
        "chance": chance_accuracy(option_counts),
    }


def analyse(
    records: Iterable[Mapping[str, Any]],
    *,
    seed: int = 0,
    calibration: Mapping[str, Sequence[Question]] | None = None,
) -> dict[str, Any]:
    """``{dataset: {"baseline", "reference", "protocols": {name: summary}, "pairs": [...]}}``.

    Only error-free records count; the first record of each (protocol, question) is used.

    Args:
        records: Records of ``results.jsonl``.
        seed: Seed of the bootstrap resamples.
        calibration: Data set → its calibration questions (never drawn for a test): the
            majority label and chance are taken there; data sets without one use the
            questions evaluated (see :func:`reference`).
    """
    grouped: dict[str, dict[str, dict[str, Mapping[str, Any]]]] = defaultdict(dict)
    for record in records:
        if record.get("error"):
            continue
        per = grouped[str(record["dataset"])].setdefault(str(record["protocol"]), {})
        per.setdefault(str(record["question_id"]), record)
    out: dict[str, Any] = {}
    for dataset, by_protocol in sorted(grouped.items()):
        golds = {q: str(r.get("gold")) for recs in by_protocol.values() for q, r in recs.items()}
        options = {
            q: _options_count(r.get("options"))
            for recs in by_protocol.values()
            for q, r in recs.items()
        }
        ids = sorted(golds)
        ref = reference(
            [golds[q] for q in ids], [options[q] for q in ids], (calibration or {}).get(dataset)
        )
        label = ref["label"]
        out[dataset] = {
            "questions": len(golds),
            "baseline": {"label": label, "accuracy": ref["accuracy"]},
            "reference": ref,
            "protocols": {
                name: protocol_summary(list(recs.values()), label, seed=seed)
                for name, recs in sorted(by_protocol.items(), key=lambda i: protocol_order(i[0]))
            },
            "pairs": pairwise(by_protocol, seed=seed),
        }
    return out
