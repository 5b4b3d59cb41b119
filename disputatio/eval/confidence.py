"""The confidence of an eval record and the measured signals a fitted confidence is built from.

**Raw confidence** (:func:`raw_confidence`): what the record itself says, first found of

1. ``confidence`` at the top of the record (a protocol that writes its own);
2. ``calibration.probs[answer]``: the chosen option's probability (the log-probability
   protocols ``<setting>_logprob``, ``_calibrated``, ``_calibrated_fit``);
3. the ``score`` of the ``confidence`` validator in ``log.validation`` (the debates and the
   hierarchical protocol: the answer's ``FittedConfidence``, or the older heuristic);
4. ``log.confidence`` (the hierarchical protocol's own output).

A record without an answer, or with none of these, has no confidence: it is counted, never
given one.

**Signals** (:func:`signals`) of a fitted confidence, each None where the record does not
measure it: ``raw`` (above), ``option_margin`` (the chosen option's probability minus the
next one's), ``agreement`` (the share of the last round's agents, or of the samples, that gave
the final answer; only with at least two), ``retrieval_top`` and ``retrieval_mean`` (the best
and the mean first-hit score of the searches), and the ``support`` validator's judged claims
read as :func:`disputatio.validators.calibrated.features` (``supported_share``, ``not_found``,
``evidence_score``).

**Split** (:func:`split_of_record`): the record's ``split`` where it names one, else the
MIRAGE id hash of ``"<data set>:<question id>"`` (:func:`disputatio.eval.mirage.is_calibration`,
20% calibration): a question's split never depends on its outcome. ``eval run`` draws MIRAGE
sets from their test split only, so their runs hold no calibration records; the other sets'
records split by the same hash.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Literal

from disputatio.eval.mirage import base_name, is_calibration
from disputatio.validators.calibrated import features as claim_features

Split = Literal["calibration", "test"]

#: Names of the signals, in the order of :func:`signals`.
SIGNALS: tuple[str, ...] = (
    "raw",
    "option_margin",
    "agreement",
    "retrieval_top",
    "retrieval_mean",
    "supported_share",
    "not_found",
    "evidence_score",
)

#: Where a raw confidence came from (report wording).
SOURCES = {
    "record": "record `confidence`",
    "option_prob": "chosen option's probability",
    "validator": "`confidence` validator score",
    "log": "`log.confidence`",
}


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    v = float(value)
    return v if 0.0 <= v <= 1.0 else None


def _validation(record: Mapping[str, Any], name: str) -> Mapping[str, Any] | None:
    for check in (record.get("log") or {}).get("validation") or []:
        if isinstance(check, Mapping) and check.get("name") == name:
            return check
    return None


def raw_confidence(record: Mapping[str, Any]) -> tuple[float | None, str | None]:
    """``(confidence, source)`` of a record (see the module doc); ``(None, None)`` if none."""
    answer = record.get("answer")
    if answer is None:
        return None, None
    own = _number(record.get("confidence"))
    if own is not None:
        return own, "record"
    probs = (record.get("calibration") or {}).get("probs") or {}
    if isinstance(probs, Mapping) and str(answer) in probs:
        chosen = _number(probs[str(answer)])
        if chosen is not None:
            return chosen, "option_prob"
    check = _validation(record, "confidence")
    if check is not None and _number(check.get("score")) is not None:
        return _number(check.get("score")), "validator"
    logged = _number((record.get("log") or {}).get("confidence"))
    if logged is not None:
        return logged, "log"
    return None, None


def _margin(record: Mapping[str, Any]) -> float | None:
    probs = (record.get("calibration") or {}).get("probs") or {}
    answer = record.get("answer")
    if not isinstance(probs, Mapping) or answer is None or str(answer) not in probs:
        return None
    values = sorted((float(v) for v in probs.values() if _number(v) is not None), reverse=True)
    if len(values) < 2:
        return None
    return float(probs[str(answer)]) - (values[1] if values[0] == probs[str(answer)] else values[0])


def agreement(record: Mapping[str, Any]) -> float | None:
    """Share of the last round's agents (or the samples) whose answer is the final answer.

    None with fewer than two agents or samples (one writer agrees with itself: no signal).
    """
    answer = record.get("answer")
    rounds = record.get("answers_per_round") or []
    if rounds:
        votes = list((rounds[-1].get("answers") or {}).values())
    else:
        history = (record.get("log") or {}).get("history") or []
        last = max((h.get("round") or 1 for h in history), default=1)
        votes = [h.get("choice") for h in history if (h.get("round") or 1) == last]
    if len(votes) < 2 or answer is None:
        return None
    return sum(1 for v in votes if v == answer) / len(votes)


def _retrieval(record: Mapping[str, Any]) -> tuple[float | None, float | None]:
    firsts = []
    for entry in (record.get("log") or {}).get("retrieval") or []:
        scores = entry.get("scores") if isinstance(entry, Mapping) else None
        if scores and not entry.get("skipped"):
            firsts.append(max(float(s) for s in scores))
    if not firsts:
        return None, None
    return max(firsts), sum(firsts) / len(firsts)


def signals(record: Mapping[str, Any]) -> dict[str, float | None]:
    """The measured signals of a record, by the names of :data:`SIGNALS` (None: not measured)."""
    raw, _ = raw_confidence(record)
    top, mean = _retrieval(record)
    out: dict[str, float | None] = {
        "raw": raw,
        "option_margin": _margin(record),
        "agreement": agreement(record),
        "retrieval_top": top,
        "retrieval_mean": mean,
        "supported_share": None,
        "not_found": None,
        "evidence_score": None,
    }
    support = _validation(record, "support")
    claims = ((support or {}).get("details") or {}).get("claims")
    if isinstance(claims, list):
        share, not_found, evidence = claim_features(claims)[:3]
        out.update(supported_share=share, not_found=not_found, evidence_score=evidence)
    return out


def split_of_record(record: Mapping[str, Any]) -> Split:
    """``calibration`` or ``test``: the record's own ``split``, else the MIRAGE id hash."""
    own = record.get("split")
    if own in ("calibration", "test"):
        return own
    return (
        "calibration"
        if is_calibration(str(record["dataset"]), str(record["question_id"]))
        else "test"
    )


def is_right(record: Mapping[str, Any]) -> bool:
    """Whether the record's answer was right (its ``correct``; unanswered counts as wrong)."""
    return bool(record.get("correct"))


def usable(records: Iterable[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """Error-free records, the first of each (dataset, protocol, question) (as the analysis)."""
    seen: set[tuple[str, str, str]] = set()
    out = []
    for record in records:
        if record.get("error"):
            continue
        key = (
            base_name(str(record["dataset"])),
            str(record["protocol"]),
            str(record["question_id"]),
        )
        if key not in seen:
            seen.add(key)
            out.append(record)
    return out


def by_group(
    records: Sequence[Mapping[str, Any]],
) -> dict[tuple[str, str], list[Mapping[str, Any]]]:
    """Records by ``(dataset, protocol)``, in the order first seen."""
    out: dict[tuple[str, str], list[Mapping[str, Any]]] = {}
    for record in records:
        out.setdefault((base_name(str(record["dataset"])), str(record["protocol"])), []).append(
            record
        )
    return out
