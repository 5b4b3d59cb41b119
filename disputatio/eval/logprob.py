"""Log-probability verdicts on option questions, raw and calibrated, as ``eval run`` protocols.

The model is asked for the option label alone and the labels are scored by their
log-probabilities at the answer position (:mod:`disputatio.eval.logprob_verdict`); the answer
is the label maximising the (calibrated) probability. Protocols, one per evidence setting
``<s>`` (``cot``: none; ``rag``: found by a leak-free search; ``read``: the question's own
context, :mod:`disputatio.eval.evidence`) and method:

* ``<s>_logprob``: the most probable label (uncalibrated);
* ``<s>_calibrated``: contextual calibration (Zhao et al. 2021), ``p / prior`` with the
  prior of content-free inputs;
* ``<s>_calibrated_fit``: per-label biases fitted on the calibration split.

Every record keeps, in ``calibration``, the
labels' log-probabilities, the raw and calibrated label probabilities, the raw and calibrated
answers, and the params used (:mod:`disputatio.eval.logprob_calibration`: computed once per
run, kept in the run folder and in the records). ``<s>_logprob`` and ``<s>_calibrated_fit``
read the scores of a sibling of the same setting that already answered the question
(``reused_from``; its call's usage is copied), so the three together cost one verdict call per
question.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from disputatio.errors import ConfigError
from disputatio.eval.calibration import apply_biases, apply_prior, argmax_label, label_probs
from disputatio.eval.logprob_calibration import calibration_params
from disputatio.eval.logprob_verdict import AGENT, SETTINGS, labels_of, logprobs_of, score_question
from disputatio.eval.question import Question

#: Protocol suffix → calibration method (None: uncalibrated).
METHOD_OF = {"logprob": None, "calibrated": "content_free", "calibrated_fit": "fitted"}


def protocol_name(setting: str, suffix: str) -> str:
    """``<setting>_<suffix>``, e.g. ``rag_calibrated``."""
    return f"{setting}_{suffix}"


def _reusable(target: dict[str, Any] | None, setting: str) -> dict[str, Any] | None:
    """The scores of a sibling's record of the same setting (None when there is none)."""
    cal = (target or {}).get("calibration") or {}
    if target is None or target.get("error") or cal.get("setting") != setting:
        return None
    if not cal.get("logprobs"):
        return None
    return {
        "logprobs": cal["logprobs"],
        "missing": cal.get("missing", []),
        "found": cal.get("found", False),
        "position": cal.get("position"),
        "token": cal.get("token"),
        "alternatives": cal.get("alternatives", []),
        "usage": target.get("usage") or {},
        "response": cal.get("response", ""),
        "ms": float(target.get("wall_ms") or 0.0),
        "evidence": target.get("evidence"),
        "retrieval": (target.get("log") or {}).get("retrieval") or [],
        "reused_from": target.get("protocol"),
    }


def _calibrated(
    env: Any, question: Question, setting: str, method: str | None, raw: dict[str, float]
) -> tuple[dict[str, float], dict[str, Any] | None]:
    if method is None:
        return raw, None
    params = calibration_params(env, question, setting, method)
    if method == "content_free":
        return apply_prior(raw, params["prior"]), params
    return apply_biases(raw, params["biases"]), params


def verdict_record(
    question: Question,
    env: Any,
    setting: str,
    method: str | None,
    target: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The harness record of a log-probability verdict on ``question`` in ``setting``.

    ``method``: None (uncalibrated), ``content_free`` or ``fitted``; ``target``: a sibling's
    record of the same question whose scores are read instead of a new call.

    Raises:
        LogprobsUnavailableError: If the endpoint returns no log-probabilities.
        ConfigError: ``fitted`` on a data set without a calibration split.
    """
    if setting not in SETTINGS:
        raise ConfigError(f"unknown evidence setting {setting!r}; known: {', '.join(SETTINGS)}")
    t0 = time.perf_counter()
    scored = _reusable(target, setting)
    if scored is None:
        scored = {**score_question(question, env.medrag, setting), "reused_from": None}
    labels = labels_of(question.options)
    raw = label_probs(logprobs_of(scored), labels)
    probs, params = _calibrated(env, question, setting, method, raw)
    found = bool(scored.get("found"))
    answer = argmax_label(probs, labels) if found else None
    status = "OK" if found else "NO_LABEL"
    usage = scored["usage"]
    wall_ms = scored["ms"] if scored["reused_from"] else (time.perf_counter() - t0) * 1000.0
    return {
        "question_id": question.id,
        "answer": answer,
        "status": status,
        "consensus_type": None,
        "agreement_round": None,
        "rounds_run": 1,
        "answers_per_round": [],
        "usage": usage,
        "wall_ms": wall_ms,
        "evidence": scored.get("evidence"),
        "calibration": {
            "setting": setting,
            "method": method or "none",
            "labels": labels,
            "logprobs": scored["logprobs"],
            "missing": scored.get("missing", []),
            "found": found,
            "position": scored.get("position"),
            "token": scored.get("token"),
            "alternatives": scored.get("alternatives", []),
            "response": scored.get("response", ""),
            "raw_probs": raw,
            "probs": probs,
            "raw_answer": argmax_label(raw, labels) if found else None,
            "params_key": params.get("key") if params else None,
            "params": {k: v for k, v in params.items() if k != "key"} if params else None,
            "reused_from": scored["reused_from"],
        },
        "log": {
            "question_id": question.id,
            "history": [
                {
                    "agent": AGENT,
                    "role": AGENT,
                    "round": 1,
                    "temperature": 0.0,
                    "response": scored.get("response", ""),
                    "choice": answer,
                    "status": status,
                    "pattern": f"logprob:{method or 'none'}",
                    "usage": usage.get(AGENT, {}),
                }
            ],
            "retrieval": scored.get("retrieval") or [],
            "timings": {"steps": [], "total_ms": wall_ms},
        },
    }


def logprob_protocol(setting: str, suffix: str) -> Callable[..., dict[str, Any]]:
    """The ``eval run`` protocol ``<setting>_<suffix>`` (suffix: a key of METHOD_OF)."""
    method = METHOD_OF[suffix]

    def run(
        question: Question, env: Any, _thread: str, target: dict[str, Any] | None
    ) -> dict[str, Any]:
        return verdict_record(question, env, setting, method, target)

    return run
