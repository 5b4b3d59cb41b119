"""Weighted totals and the ruling's rules (computed in code, not by the model).

For option ``o`` with scores ``s[o][a]`` on axes ``a`` of weight ``w[a]``::

    weighted_sum[o]   = Σ_a w[a] · s[o][a]          (over the axes the referee scored)
    weighted_score[o] = weighted_sum[o] / Σ_a w[a]  (back on the 1-10 scale)

An option missing a score is marked ``complete=False`` and its weighted score uses the axes
it has. The leader is the best weighted score among complete options (none on a tie). The
recommendation follows the leader unless the referee names the user constraint that
overrides the totals (:func:`build_ruling`). Scores that are degenerate, or totals too close
to call, give no recommendation (:mod:`disputatio.nodes.referee.soundness`). The model's
option and constraint names are matched to the plan's in :mod:`~.names`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from disputatio.nodes.referee.names import (
    AmbiguousOptionError,
    match_option,
    named_constraint,
)
from disputatio.nodes.referee.planning import match_axis
from disputatio.nodes.referee.rendering import render_ruling, ruling_keys
from disputatio.nodes.referee.soundness import (
    TIE_MARGIN,
    canonical_evidence,
    close_race,
    degenerate,
    race_text,
)
from disputatio.state.referee import (
    Axis,
    AxisScore,
    Confidence,
    OptionTotal,
    Plan,
    Ruling,
    RulingDraft,
    TradeOff,
)


@dataclass
class Cells:
    """The referee's scores collected over its replies: one per (option, axis), first wins.

    Attributes:
        scores: ``(option, axis)`` → the canonical :class:`AxisScore`.
        ambiguous: Option names that matched several options (with their candidates).
        unknown: Option or axis names that matched nothing.
        claims: Case-folded claim id → claim id, of the claims the referee was shown; when
            set, each score's ``evidence`` keeps only these ids (None: kept as written).
        unknown_evidence: Cited ids that name no claim (dropped from the cells).
    """

    scores: dict[tuple[str, str], AxisScore] = field(default_factory=dict)
    ambiguous: dict[str, list[str]] = field(default_factory=dict)
    unknown: list[str] = field(default_factory=list)
    claims: dict[str, str] | None = None
    unknown_evidence: list[str] = field(default_factory=list)

    def add(self, plan: Plan, scores: Iterable[AxisScore]) -> None:
        """Canonicalize option and axis names and keep the cells not filled yet."""
        options = [o.name for o in plan.options]
        axes = {a.name for a in plan.axes}
        for s in scores:
            try:
                option = match_option(s.option, options)
            except AmbiguousOptionError as exc:
                self.ambiguous[s.option] = exc.candidates
                continue
            axis = match_axis(s.axis, plan.axes)
            if option is None or axis not in axes:
                self.unknown.append(f"{s.option} / {s.axis}")
                continue
            self.ambiguous.pop(s.option, None)
            evidence = list(s.evidence)
            if self.claims is not None:
                evidence, bad = canonical_evidence(s.evidence, self.claims)
                self.unknown_evidence += [b for b in bad if b not in self.unknown_evidence]
            self.scores.setdefault(
                (option, axis),
                s.model_copy(update={"option": option, "axis": axis, "evidence": evidence}),
            )

    def degenerate(self, plan: Plan) -> str | None:
        """Why the scores so far are degenerate (:func:`~.soundness.degenerate`), or None."""
        return degenerate(plan, {cell: s.score for cell, s in self.scores.items()})

    def missing(self, plan: Plan) -> list[tuple[str, str]]:
        """Unscored ``(option, axis)`` cells, option by option."""
        return [
            (o.name, a.name)
            for o in plan.options
            for a in plan.axes
            if (o.name, a.name) not in self.scores
        ]


def compute_totals(
    axes: list[Axis], options: list[str], scores: list[AxisScore]
) -> list[OptionTotal]:
    """Weighted totals per option (see the module docstring); one score per cell, first wins."""
    weights = {a.name: a.weight for a in axes}
    cells: dict[tuple[str, str], int] = {}
    for s in scores:
        cells.setdefault((s.option, s.axis), s.score)
    totals = []
    for option in options:
        scored = [(weights[a], cells[(option, a)]) for a in weights if (option, a) in cells]
        weight = sum(w for w, _ in scored)
        total = float(sum(w * s for w, s in scored))
        totals.append(
            OptionTotal(
                option=option,
                weighted_sum=total,
                weighted_score=total / weight if weight else 0.0,
                scored_weight=weight,
                complete=len(scored) == len(weights),
            )
        )
    return totals


def leader(totals: list[OptionTotal]) -> str | None:
    """The option with the best weighted score among complete ones; None on a tie or if none."""
    pool = [t for t in totals if t.complete]
    if not pool:
        return None
    best = max(t.weighted_score for t in pool)
    top = [t.option for t in pool if abs(t.weighted_score - best) < 1e-9]
    return top[0] if len(top) == 1 else None


_ORDER: dict[str, int] = {"low": 0, "medium": 1, "high": 2}


def cap_confidence(confidence: Confidence, most: Confidence) -> Confidence:
    """``confidence``, lowered to ``most`` when it is above it."""
    return confidence if _ORDER[confidence] <= _ORDER[most] else most


def _recommend(
    plan: Plan, draft: RulingDraft, named: str | None, top: str | None, close: bool
) -> tuple[str, Confidence, str | None, list[str]]:
    """``(recommendation, confidence, overridden_by, caveats)`` by the recommendation rule.

    In a close race (``close``) only a user constraint the referee names decides; otherwise
    the leader is recommended unless such a constraint overrides it.
    """
    confidence: Confidence = draft.confidence
    if named is None:
        caveats = [f"The referee recommended {draft.recommendation!r}, which is no option."]
        return (
            ("" if close else top or ""),
            confidence,
            None,
            caveats if draft.recommendation else [],
        )
    constraint = named_constraint(draft.override_constraint, plan.constraints.items())
    if close:
        return (named, confidence, constraint, []) if constraint else ("", confidence, None, [])
    if top is None or named == top:
        return named, confidence, None, []
    if constraint is not None:
        why = f"because of the user constraint '{constraint}'"
        caveat = f"{named} is recommended over the best weighted score ({top}) {why}."
        return named, cap_confidence(confidence, "medium"), constraint, [caveat]
    caveat = (
        f"The referee recommended {named} against the weighted totals without naming a "
        f"user constraint that overrides them; the recommendation follows the totals."
    )
    return top, confidence, None, [caveat]


def _matched(name: str, options: list[str]) -> str | None:
    """:func:`match_option`, None when the name is ambiguous."""
    try:
        return match_option(name, options)
    except AmbiguousOptionError:
        return None


@dataclass(frozen=True)
class Verdict:
    """What the recommendation rule and the soundness checks decide.

    Attributes:
        recommendation: The option recommended ("" for none).
        confidence: The confidence before the checks of missing and uncited cells.
        overridden_by: The user constraint that overrides the totals, if any.
        notes: Caveats of the recommendation rule.
        headline: The first caveat: why there is no verdict or no clear winner ("" if none).
        degenerate: Why the scores are degenerate ("" if they are not).
        close: Whether the best complete options are too close to call.
    """

    recommendation: str
    confidence: Confidence
    overridden_by: str | None
    notes: list[str]
    headline: str = ""
    degenerate: str = ""
    close: bool = False


def decide(
    plan: Plan,
    draft: RulingDraft,
    cells: Cells,
    totals: list[OptionTotal],
    top: str | None,
    *,
    margin: float,
    rescored: bool,
) -> Verdict:
    """The recommendation: the rule (:func:`_recommend`), then degenerate scores or a close race.

    Degenerate scores give no recommendation; best complete options within ``margin`` of each
    other give none unless a named user constraint decides. Both set the confidence to ``low``.
    """
    options = [o.name for o in plan.options]
    named = _matched(draft.recommendation, options) if draft.recommendation else None
    problem = cells.degenerate(plan)
    close = [] if problem else close_race(totals, margin)
    recommendation, confidence, overridden_by, notes = _recommend(
        plan, draft, named, top, bool(close)
    )
    if problem:
        again = " even when asked again" if rescored else ""
        headline = f"No verdict: the scores are degenerate{again} ({problem})."
        return Verdict("", "low", None, notes, headline, degenerate=problem)
    if close:
        decided = f"; {recommendation} because of '{overridden_by}'" if overridden_by else ""
        headline = f"No clear winner: {race_text(close, margin)}{decided}."
        return Verdict(recommendation, "low", overridden_by, notes, headline, close=True)
    return Verdict(recommendation, confidence, overridden_by, notes)


def gap_caveats(
    totals: list[OptionTotal],
    missing: list[tuple[str, str]],
    ambiguous: dict[str, list[str]],
) -> list[str]:
    """One caveat per option with unscored cells, then one per ambiguous option name."""
    caveats = []
    for t in totals:
        if not t.complete:
            gaps = ", ".join(a for o, a in missing if o == t.option)
            caveats.append(f"{t.option} was not scored on: {gaps}; its total is partial.")
    for name, candidates in ambiguous.items():
        caveats.append(f"The referee's option {name!r} is ambiguous ({', '.join(candidates)}).")
    return caveats


def uncited_cells(plan: Plan, cells: Cells) -> list[str]:
    """``option / axis`` of every scored cell that cites no evidence, in plan order."""
    return [
        f"{o.name} / {a.name}"
        for o in plan.options
        for a in plan.axes
        if (o.name, a.name) in cells.scores and not cells.scores[(o.name, a.name)].evidence
    ]


def canonical_trade_offs(trade_offs: list[TradeOff], options: list[str]) -> list[TradeOff]:
    """The trade-offs with ``choose`` in the plan's spelling (kept as written if unmatched)."""
    out = []
    for trade in trade_offs:
        choose = _matched(trade.choose, options)
        out.append(trade.model_copy(update={"choose": choose}) if choose else trade)
    return out


def scored_trade_offs(
    trade_offs: list[TradeOff], plan: Plan, cells: Cells
) -> tuple[list[TradeOff], list[str]]:
    """The trade-offs the scores bear out, and a caveat per one they contradict.

    "If cost matters, choose serology" stands when ``cost`` is an axis and serology scores
    strictly best on it; with both options scored 1 on cost (the demo corpus, 2026-12-02) it
    is dropped and said so. A trade-off naming no axis, or an axis nobody scored, is kept.
    """
    kept, caveats = [], []
    for trade in trade_offs:
        axis = match_axis(trade.if_matters, plan.axes)
        scored = {o: s.score for (o, a), s in cells.scores.items() if a == axis}
        mine = scored.get(trade.choose)
        if (
            mine is None
            or len(scored) < 2
            or mine > max(v for o, v in scored.items() if o != trade.choose)
        ):
            kept.append(trade)
            continue
        caveats.append(
            f"Dropped the trade-off 'if {trade.if_matters} matters, choose {trade.choose}': "
            f"{trade.choose} does not score best on {axis}."
        )
    return kept, caveats


def build_ruling(
    plan: Plan,
    draft: RulingDraft,
    cells: Cells | None = None,
    *,
    fill_rounds: int = 0,
    rescored: bool = False,
    margin: float = TIE_MARGIN,
) -> Ruling:
    """The validated ruling: canonical cells, code totals, the recommendation rule, caveats.

    The recommendation is the leader (best weighted score among complete options) unless the
    referee named a user constraint in ``override_constraint`` that overrides the totals
    (``overridden_by``). A recommendation that is no option falls back to the leader.
    Degenerate scores give no recommendation; nor do best complete options within ``margin``
    of each other (no clear winner) unless the referee names a user constraint that decides.
    Both set the confidence to ``low`` and say so in the first caveat
    (:mod:`~disputatio.nodes.referee.soundness`). Confidence is also ``low`` while cells are
    missing, and at most ``medium`` under an override or when a score cites no evidence.

    Args:
        plan: The plan.
        draft: The referee's reply: recommendation, confidence, trade-offs, caveats.
        cells: Scores collected over every reply (default: the draft's).
        fill_rounds: How many times the referee was asked again (recorded).
        rescored: Whether the referee was asked to score again for degenerate scores.
        margin: Weighted scores (1-10) this close to the best are no clear winner.
    """
    options = [o.name for o in plan.options]
    if cells is None:
        cells = Cells()
        cells.add(plan, draft.scores)
    scores = list(cells.scores.values())
    totals = compute_totals(plan.axes, options, scores)
    top = leader(totals)
    missing = cells.missing(plan)
    verdict = decide(plan, draft, cells, totals, top, margin=margin, rescored=rescored)
    uncited = uncited_cells(plan, cells)
    confidence = verdict.confidence
    if uncited:
        confidence = cap_confidence(confidence, "medium")
    if missing:
        confidence = "low"
    caveats = [c for c in draft.caveats if c.strip()]
    caveats += gap_caveats(totals, missing, cells.ambiguous)
    caveats += verdict.notes
    trade_offs, dropped = scored_trade_offs(
        canonical_trade_offs(draft.trade_offs, options), plan, cells
    )
    caveats += dropped
    if verdict.headline:
        caveats.insert(0, verdict.headline)
    if uncited:
        caveats.append(
            f"{len(uncited)} of {len(scores)} scores cite no evidence: {', '.join(uncited)}."
        )
    if cells.unknown_evidence:
        caveats.append(f"Cited ids no case holds, dropped: {', '.join(cells.unknown_evidence)}.")
    ruling = Ruling(
        scores=scores,
        trade_offs=trade_offs,
        recommendation=verdict.recommendation,
        override_constraint=draft.override_constraint,
        confidence=confidence,
        caveats=caveats,
        totals=totals,
        leader=top,
        overridden_by=verdict.overridden_by,
        missing_cells=[f"{o} / {a}" for o, a in missing],
        fill_rounds=fill_rounds,
        uncited_cells=uncited,
        rescored=rescored,
        degenerate=verdict.degenerate,
        no_clear_winner=verdict.close,
    )
    ruling.rendered = render_ruling(plan, ruling)
    ruling.keys = [k.model_dump(mode="json") for k in ruling_keys(plan, ruling)]
    return ruling
