"""Pure ranking math of the funnel: RRF and convex fusion, parent aggregation, trims, conformal.

Shared by the Postgres funnel and the in-process one, so both rank identically.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence


def weighted_rrf(
    rankings: Mapping[str, Sequence[str]], weights: Mapping[str, float], k: int = 60
) -> list[tuple[str, float]]:
    """Fuse ranked lists with weighted reciprocal rank fusion, normalised to [0, 1].

    ``score(d) = Σ_c w_c / (k + rank_c(d))`` with 1-based ranks, divided by the best score a
    document could reach (rank 1 in every channel that ran), so a document ranked first by every
    channel scores 1.0.

    Args:
        rankings: Channel name → ids, best first (duplicates after the first are ignored).
        weights: Channel name → weight (missing channels weigh 1.0).
        k: The RRF constant.

    Returns:
        ``(id, score)`` pairs, best first; ties keep first-seen order.
    """
    scores: dict[str, float] = {}
    for channel, ids in rankings.items():
        w = weights.get(channel, 1.0)
        seen: set[str] = set()
        for rank, doc_id in enumerate(ids, start=1):
            if doc_id in seen:
                continue
            seen.add(doc_id)
            scores[doc_id] = scores.get(doc_id, 0.0) + w / (k + rank)
    best = sum(weights.get(c, 1.0) for c, ids in rankings.items() if ids) / (k + 1)
    if best <= 0:
        return []
    order = sorted(scores.items(), key=lambda p: p[1], reverse=True)
    return [(doc_id, s / best) for doc_id, s in order]


def convex_fusion(
    channel_scores: Mapping[str, Sequence[tuple[str, float]]], weights: Mapping[str, float]
) -> list[tuple[str, float]]:
    """Fuse by a weighted mean of min-max normalised channel scores (a convex combination).

    Each channel's scores are mapped to [0, 1] over the list it returned (its best → 1, its
    worst → 0; a one-item or flat list → 1); a document a channel did not return gets 0 there.
    Unlike RRF, a large score gap inside a channel survives the fusion.

    Args:
        channel_scores: Channel name → ``(id, score)`` best first.
        weights: Channel name → weight (missing channels weigh 1.0).

    Returns:
        ``(id, score in [0, 1])`` best first; ties keep first-seen order.
    """
    total = sum(weights.get(c, 1.0) for c, hits in channel_scores.items() if hits)
    if total <= 0:
        return []
    fused: dict[str, float] = {}
    for channel, hits in channel_scores.items():
        if not hits:
            continue
        w = weights.get(channel, 1.0) / total
        values = [s for _, s in hits]
        lo, hi = min(values), max(values)
        for doc_id, score in hits:
            norm = (score - lo) / (hi - lo) if hi > lo else 1.0
            fused[doc_id] = fused.get(doc_id, 0.0) + w * norm
    return sorted(fused.items(), key=lambda p: p[1], reverse=True)


def aggregate_parents(
    child_scores: Sequence[tuple[str, float]],
    parent_of: Mapping[str, str],
    rest_share: float = 0.1,
) -> list[tuple[str, float, list[str]]]:
    """Rank parents by their best child, plus a small share of their other children.

    ``score(p) = best + min(rest_share · Σ others, rest_share · best)``, normalised so the top
    parent scores 1.0: a long section with many weak matches never outranks a short one with a
    strong match, and at most ``rest_share`` of the best child's score comes from the rest.

    Args:
        child_scores: ``(child_id, score)`` best first (each child once).
        parent_of: Child id → parent id.
        rest_share: Share of the other children's scores added (0 = best child only).

    Returns:
        ``(parent_id, score, child_ids best first)``, best first.
    """
    best: dict[str, float] = {}
    rest: dict[str, float] = {}
    children: dict[str, list[str]] = {}
    for child_id, score in child_scores:
        parent = parent_of.get(child_id)
        if parent is None:
            continue
        if parent not in best:
            best[parent] = score
            rest[parent] = 0.0
        elif score > best[parent]:
            rest[parent] += best[parent]
            best[parent] = score
        else:
            rest[parent] += score
        children.setdefault(parent, []).append(child_id)
    if not best:
        return []
    totals = {p: b + min(rest_share * rest[p], rest_share * max(b, 0.0)) for p, b in best.items()}
    top = max(totals.values()) or 1.0
    order = sorted(totals.items(), key=lambda p: p[1], reverse=True)
    return [(pid, s / top, children[pid]) for pid, s in order]


def alpha_trim(scores: Sequence[float], alpha: float) -> float:
    """The uncalibrated trim threshold ``α · s_max`` (0 when there are no scores)."""
    return alpha * max(scores) if scores else 0.0


def trimmed(scores: Sequence[float], cut: float, low: float | None = None) -> list[int]:
    """Indices of ``scores`` at or above ``cut``, then (with ``low``) those in ``[low, cut)``.

    Each group keeps its order. With ``low`` the trim's cut-offs follow the kept ones instead of
    being dropped (the funnel's deep trim: a search deeper than the answerer's gets them).
    """
    kept = [i for i, s in enumerate(scores) if s >= cut]
    if low is None or low >= cut:
        return kept
    return kept + [i for i, s in enumerate(scores) if low <= s < cut]


def conformal_threshold(relevant_scores: Sequence[float], alpha: float) -> float:
    """Split-conformal score threshold from held-out relevant-section scores.

    Nonconformity is ``1 − score``. With n calibration scores, ``q̂`` is the
    ``⌈(n + 1)(1 − α)⌉``-th smallest nonconformity; keeping sections with ``score ≥ 1 − q̂``
    keeps a relevant section with probability at least ``1 − α`` (exchangeability assumed).

    Args:
        relevant_scores: Rerank scores of relevant sections on held-out queries.
        alpha: Miscoverage level in (0, 1).

    Returns:
        The score threshold (0.0 when n is too small for the requested level).

    Raises:
        ValueError: If alpha is not in (0, 1).
    """
    if not 0 < alpha < 1:
        raise ValueError("alpha must be in (0, 1)")
    n = len(relevant_scores)
    rank = math.ceil((n + 1) * (1 - alpha))
    if n == 0 or rank > n:
        return 0.0
    nonconformity = sorted(1.0 - s for s in relevant_scores)
    return 1.0 - nonconformity[rank - 1]
