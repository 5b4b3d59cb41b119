"""The ruling as text and rendering keys (grammar in :mod:`disputatio.state.referee_keys`)."""

from __future__ import annotations

from disputatio.state.referee import Plan, Ruling
from disputatio.state.referee_keys import KeyValue, PollKey, ScoreKey, TableKey, render_key


def ruling_keys(plan: Plan, ruling: Ruling) -> list[ScoreKey | PollKey | TableKey]:
    """The ruling as rendering keys: the weighted-score poll, one score key per axis, a table.

    Axes nobody scored get no ``_Score`` key; the table shows ``–`` for missing cells.
    """
    options = [o.name for o in plan.options]
    cells = {(s.option, s.axis): s.score for s in ruling.scores}
    totals = {t.option: t for t in ruling.totals}
    keys: list[ScoreKey | PollKey | TableKey] = []
    poll = [
        KeyValue(name=o, value=round(totals[o].weighted_score, 2))
        for o in options
        if o in totals and totals[o].scored_weight
    ]
    if poll:
        keys.append(PollKey(title="weighted score", values=poll))
    for a in plan.axes:
        values = [
            KeyValue(name=o, value=float(cells[(o, a.name)]))
            for o in options
            if (o, a.name) in cells
        ]
        if values:
            keys.append(ScoreKey(axis=a.name, values=values))
    rows = [["Axis", "Weight", *options]]
    rows += [
        [a.name, str(a.weight), *[str(cells.get((o, a.name), "–")) for o in options]]
        for a in plan.axes
    ]
    rows.append(
        [
            "weighted score",
            str(sum(a.weight for a in plan.axes)),
            *[
                f"{totals[o].weighted_score:.2f}" + ("" if totals[o].complete else " (partial)")
                if o in totals
                else "–"
                for o in options
            ],
        ]
    )
    keys.append(TableKey(rows=rows))
    return keys


def render_ruling(plan: Plan, ruling: Ruling) -> str:
    """The verdict as text with rendering keys (see :mod:`disputatio.state.referee_keys`)."""
    confidence = f"(confidence: {ruling.confidence})"
    if ruling.degenerate:
        head = f"No verdict: the scores are degenerate ({ruling.degenerate}) {confidence}"
    elif ruling.unbacked:
        head = f"No recommendation on the evidence: {ruling.unbacked} {confidence}"
    elif ruling.no_clear_winner and not ruling.recommendation:
        head = f"No clear winner on the weighted scores {confidence}"
    else:
        head = f"Recommendation: {ruling.recommendation or '–'} {confidence}"
        if ruling.no_clear_winner:
            head += f", no clear winner on the weighted scores; chosen for '{ruling.overridden_by}'"
        elif ruling.overridden_by:
            head += f", over the best weighted score because of '{ruling.overridden_by}'"
    return "\n".join([head, *(render_key(k) for k in ruling_keys(plan, ruling))])
