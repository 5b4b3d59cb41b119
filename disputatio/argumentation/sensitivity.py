"""What would change our mind: odds shift, verdict flips and minimal counter-evidence.

Everything works on *log-scores* ``λ_j`` of a differential (:func:`fusion.differential_log_scores`,
or ``{h: ln p_h}`` for a posterior ``p``): any common additive constant is irrelevant, and
``λ_i − λ_j`` is the log posterior odds of ``H_i`` against ``H_j``. The *verdict* is the top
hypothesis. It *flips* when some other hypothesis ends strictly above it (by more than ``tol``,
so that exact ties in the arithmetic do not count as flips).

A finding (the evidence items sharing one id) shifts the scores additively: its items add
``s · q^α · LLR`` to the score of the hypothesis each names.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from disputatio.argumentation.fusion import EvidenceItem

__all__ = [
    "CounterEvidenceSet",
    "Verdict",
    "apply_shift",
    "finding_shifts",
    "flip_table",
    "log_scores_from_probabilities",
    "minimal_counter_evidence",
    "minimal_defeat_set",
    "odds_shift_to_flip",
    "verdict",
    "would_flip",
]

DEFAULT_TOL = 1e-9
"""Margin (in log-odds) by which a challenger must beat the top hypothesis to count as a flip."""


@dataclass(frozen=True)
class Verdict:
    """The current verdict of a differential.

    Attributes:
        top: The highest-scoring hypothesis (ties broken by id).
        runner_up: The second.
        margin: ``λ_top − λ_runner_up ≥ 0``: the odds shift Δ a flip must exceed.
    """

    top: str
    runner_up: str
    margin: float


def log_scores_from_probabilities(probabilities: Mapping[str, float]) -> dict[str, float]:
    """Return ``{h: ln p_h}`` (``-inf`` for ``p_h = 0``)."""
    if any(p < 0 for p in probabilities.values()):
        raise ValueError("probabilities must be non-negative")
    return {h: math.log(p) if p > 0 else -math.inf for h, p in probabilities.items()}


def verdict(log_scores: Mapping[str, float]) -> Verdict:
    """Return the top hypothesis, the runner-up and the log-odds margin between them.

    Raises:
        ValueError: With fewer than two hypotheses, a NaN score, or no finite score.
    """
    if len(log_scores) < 2:
        raise ValueError("a verdict needs at least two hypotheses")
    if any(math.isnan(v) for v in log_scores.values()):
        raise ValueError("log-scores must not be NaN")
    ranked = sorted(log_scores.items(), key=lambda kv: (-kv[1], kv[0]))
    (top, best), (runner, second) = ranked[0], ranked[1]
    if not math.isfinite(best):
        raise ValueError("the top log-score must be finite")
    return Verdict(top, runner, best - second)


def odds_shift_to_flip(log_scores: Mapping[str, float]) -> float:
    """Return Δ, the log-odds change needed to bring the top hypothesis below the runner-up.

    Any evidence that moves ``λ_runner_up − λ_top`` up by strictly more than Δ flips the verdict.
    """
    return verdict(log_scores).margin


def apply_shift(log_scores: Mapping[str, float], shift: Mapping[str, float]) -> dict[str, float]:
    """Return ``λ + shift`` (hypotheses missing from ``shift`` are unchanged).

    Raises:
        ValueError: If ``shift`` names an unknown hypothesis.
    """
    unknown = set(shift) - set(log_scores)
    if unknown:
        raise ValueError(f"shift names unknown hypotheses: {sorted(unknown)}")
    return {h: v + shift.get(h, 0.0) for h, v in log_scores.items()}


def would_flip(
    log_scores: Mapping[str, float], shift: Mapping[str, float], tol: float = DEFAULT_TOL
) -> bool:
    """Return whether adding ``shift`` puts another hypothesis more than ``tol`` above the top."""
    top = verdict(log_scores).top
    new = apply_shift(log_scores, shift)
    return any(v > new[top] + tol for h, v in new.items() if h != top)


def finding_shifts(
    items: Iterable[EvidenceItem], alpha: float = 1.0
) -> dict[str, dict[str, float]]:
    """Group items by id into findings and return each finding's shift ``{hypothesis: Δλ}``."""
    shifts: dict[str, dict[str, float]] = {}
    for item in items:
        row = shifts.setdefault(item.id, {})
        row[item.hypothesis] = row.get(item.hypothesis, 0.0) + item.contribution(alpha)
    return shifts


def flip_table(
    log_scores: Mapping[str, float],
    candidates: Iterable[EvidenceItem],
    alpha: float = 1.0,
    tol: float = DEFAULT_TOL,
) -> dict[str, bool]:
    """Return, for each candidate finding (items grouped by id), whether it alone flips."""
    return {
        fid: would_flip(log_scores, shift, tol)
        for fid, shift in finding_shifts(candidates, alpha).items()
    }


@dataclass(frozen=True)
class CounterEvidenceSet:
    """A minimum-cardinality set of findings that flips the verdict.

    Attributes:
        ids: The finding ids, in the order the greedy search took them.
        items: All evidence items of those findings.
        challenger: The hypothesis that ends above the former top.
    """

    ids: tuple[str, ...]
    items: tuple[EvidenceItem, ...]
    challenger: str


def _greedy_for(
    challenger: str, top: str, gap: float, shifts: Mapping[str, Mapping[str, float]], tol: float
) -> list[str] | None:
    gains = {
        fid: s.get(challenger, 0.0) - s.get(top, 0.0)
        for fid, s in shifts.items()
        if s.get(challenger, 0.0) - s.get(top, 0.0) > 0.0
    }
    chosen: list[str] = []
    total = 0.0
    for fid in sorted(gains, key=lambda f: (-gains[f], f)):
        chosen.append(fid)
        total += gains[fid]
        if total > gap + tol:
            return chosen
    return None


def minimal_counter_evidence(
    log_scores: Mapping[str, float],
    candidates: Sequence[EvidenceItem],
    alpha: float = 1.0,
    tol: float = DEFAULT_TOL,
) -> CounterEvidenceSet | None:
    """Return a smallest set of candidate findings whose joint observation flips the verdict.

    Method: for each challenger ``j ≠ t`` (``t`` the top), a finding ``f`` closes the gap
    ``Δ_j = λ_t − λ_j`` by ``g_j(f) = shift_f[j] − shift_f[t]`` (for a single item on one
    hypothesis this is ``|LLR · q^α|`` when it attacks ``t`` or supports ``j``). Greedily take the
    findings with the largest positive ``g_j`` until their sum exceeds ``Δ_j + tol``; return the
    shortest such list over all challengers (ties: higher-scoring challenger, then id).

    Why it is minimal in cardinality (log-odds are additive): a set ``F`` flips the verdict iff
    for some ``j`` ``Σ_{f∈F} g_j(f) > Δ_j + tol``. For a fixed ``j`` the sum of any ``m`` gains is
    at most the sum of the ``m`` largest, so if no greedy prefix of length ``m`` exceeds the
    threshold no set of size ``m`` does; and if the sum of all positive gains does not exceed it,
    no set does. Hence the greedy length ``k_j`` is the minimum for ``j``, any flipping set has
    size ``≥ min_j k_j``, and the greedy set of the minimising ``j`` flips. The set is minimal in
    cardinality, not necessarily unique.

    Args:
        log_scores: Current log-scores of the differential.
        candidates: Available counter-evidence items (grouped into findings by id).
        alpha: Quality exponent.
        tol: Flip margin (see module docstring).

    Returns:
        The set, or ``None`` when even all candidates together cannot flip the verdict.
    """
    current = verdict(log_scores)
    shifts = finding_shifts(candidates, alpha)
    for s in shifts.values():
        apply_shift(log_scores, s)  # validates hypothesis names
    best: tuple[int, float, str, list[str]] | None = None
    for j, score in log_scores.items():
        if j == current.top:
            continue
        chosen = _greedy_for(j, current.top, log_scores[current.top] - score, shifts, tol)
        if chosen is None:
            continue
        key = (len(chosen), -score, j, chosen)
        if best is None or key[:3] < best[:3]:
            best = key
    if best is None:
        return None
    ids = tuple(best[3])
    items = tuple(i for i in candidates if i.id in ids)
    return CounterEvidenceSet(ids, items, best[2])


def minimal_defeat_set(
    log_scores: Mapping[str, float],
    admitted: Sequence[EvidenceItem],
    alpha: float = 1.0,
    tol: float = DEFAULT_TOL,
) -> CounterEvidenceSet | None:
    """Return a smallest set of *admitted* findings whose defeat flips the verdict.

    Defeating a finding (an attack that makes it OUT) removes its items from the fusion, which
    shifts the scores by minus their contributions; so this is :func:`minimal_counter_evidence`
    over the negated items, with the same minimality argument. It answers "which of the
    evidence we rely on would have to fall", from the debate graph itself rather than from a
    list of candidate findings.

    Args:
        log_scores: Current log-scores (computed from ``admitted``).
        admitted: The admitted evidence items.
        alpha: Quality exponent.
        tol: Flip margin.

    Returns:
        The set (``items`` are the admitted items of those findings), or ``None``.
    """
    negated = [EvidenceItem(i.id, i.llr, i.quality, -i.sign, i.hypothesis) for i in admitted]
    found = minimal_counter_evidence(log_scores, negated, alpha, tol)
    if found is None:
        return None
    items = tuple(i for i in admitted if i.id in found.ids)
    return CounterEvidenceSet(found.ids, items, found.challenger)
