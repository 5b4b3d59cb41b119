"""Whether the referee's scores rest on evidence and decide anything (checked in code).

Three checks, applied by :func:`~disputatio.nodes.referee.scoring.build_ruling` and the
``referee`` node:

- **evidence**: every score cell cites, in ``evidence``, the ids of the advocates' claims (shown
  in ``<cases>`` as ``[pgvector#1]``) it rests on. Ids that no case holds are dropped
  (:func:`canonical_evidence`); a cell left citing nothing is listed in ``uncited_cells``, and
  a ruling with such cells has at most ``medium`` confidence.
- **degenerate scores** (:func:`degenerate`): an option whose score equals the axis weight on
  every axis (the weights copied as scores), or every option with the same scores on every
  axis. Both need at least two axes (with one axis, equal scores are only a tie) and look at
  complete options only. The node asks the referee once more, saying what is wrong; scores
  still degenerate after that are reported, with no recommendation made from them.
- **no clear winner** (:func:`close_race`): the best complete options' weighted scores (1-10
  scale) are tied or within ``margin`` points (:data:`TIE_MARGIN` unless the run sets
  ``RefereeContext.tie_margin``). The ruling then says so with ``low`` confidence and makes no
  recommendation, unless the referee names a user constraint that decides it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from disputatio.state.referee import OptionTotal, Plan

#: Default margin (points of the 1-10 weighted score) within which no option is a clear winner.
TIE_MARGIN = 0.5
_EPSILON = 1e-9
_STRIP = " \t\"'[]()<>"


def canonical_evidence(
    ids: Iterable[str], claims: Mapping[str, str]
) -> tuple[list[str], list[str]]:
    """The cited ids that name claims, in their canonical spelling, and those that do not.

    Args:
        ids: Ids as the referee wrote them (``"[pgvector#1]"``, ``"PGVECTOR#1"``...).
        claims: Case-folded claim id → the claim's id.

    Returns:
        ``(kept, unknown)``, each without repeats, in the order cited.
    """
    kept: list[str] = []
    unknown: list[str] = []
    for raw in ids:
        cited = raw.strip(_STRIP)
        if not cited:
            continue
        canonical = claims.get(cited.casefold())
        if canonical is None:
            if cited not in unknown:
                unknown.append(cited)
        elif canonical not in kept:
            kept.append(canonical)
    return kept, unknown


def _vector(scores: Mapping[tuple[str, str], int], option: str, axes: list[str]) -> tuple[int, ...]:
    return tuple(scores[(option, a)] for a in axes)


def degenerate(plan: Plan, scores: Mapping[tuple[str, str], int]) -> str | None:
    """Why the scores look copied rather than judged, or None when they do not.

    Args:
        plan: The plan (options, and axes with their weights).
        scores: ``(option, axis)`` → score, for the cells scored so far.

    Returns:
        A short reason naming the options concerned and their scores, or None.
    """
    axes = [a.name for a in plan.axes]
    if len(axes) < 2:
        return None
    complete = [o.name for o in plan.options if all((o.name, a) in scores for a in axes)]
    vectors = {o: _vector(scores, o, axes) for o in complete}
    weights = tuple(a.weight for a in plan.axes)
    problems = []
    copied = [o for o, v in vectors.items() if v == weights]
    if copied:
        shown = "/".join(map(str, weights))
        problems.append(f"{', '.join(copied)} scored exactly the axis weights ({shown})")
    if len(plan.options) >= 2 and len(complete) == len(plan.options):
        distinct = set(vectors.values())
        if len(distinct) == 1:
            shown = "/".join(map(str, next(iter(distinct))))
            problems.append(f"every option got the same scores ({shown})")
    return "; ".join(problems) or None


def close_race(totals: list[OptionTotal], margin: float) -> list[OptionTotal]:
    """The complete options within ``margin`` of the best weighted score, best first.

    Returns:
        Those options when there are two or more (no clear winner); otherwise an empty list.
    """
    pool = sorted((t for t in totals if t.complete), key=lambda t: -t.weighted_score)
    if len(pool) < 2:
        return []
    best = pool[0].weighted_score
    close = [t for t in pool if best - t.weighted_score <= margin + _EPSILON]
    return close if len(close) >= 2 else []


def race_text(close: list[OptionTotal], margin: float) -> str:
    """``"A 8.33, B 8.33 within 0.5 points"`` (for caveats and the rendered head line)."""
    scores = ", ".join(f"{t.option} {t.weighted_score:.2f}" for t in close)
    return f"{scores} within {margin:g} points" if margin > 0 else f"{scores} tied"
