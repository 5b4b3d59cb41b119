"""Option matching, weighted totals and the ruling's rules (computed in code, not by the model).

For option ``o`` with scores ``s[o][a]`` on axes ``a`` of weight ``w[a]``::

    weighted_sum[o]   = Σ_a w[a] · s[o][a]          (over the axes the referee scored)
    weighted_score[o] = weighted_sum[o] / Σ_a w[a]  (back on the 1-10 scale)

An option missing a score is marked ``complete=False`` and its weighted score uses the axes
it has. The leader is the best weighted score among complete options (none on a tie). The
recommendation follows the leader unless the referee names the user constraint that
overrides the totals (:func:`build_ruling`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from difflib import SequenceMatcher

from disputatio.errors import DisputatioError
from disputatio.nodes.referee.planning import match_axis
from disputatio.state.referee import (
    Axis,
    AxisScore,
    Confidence,
    OptionTotal,
    Plan,
    Ruling,
    RulingDraft,
)
from disputatio.state.referee_keys import KeyValue, PollKey, ScoreKey, TableKey, render_key

#: Least :class:`difflib.SequenceMatcher` ratio for a best-overlap match.
OVERLAP_MIN = 0.8
#: A best-overlap match must beat the runner-up by this much, else it is ambiguous.
OVERLAP_MARGIN = 0.05
_WORD_RE = re.compile(r"[a-z0-9+#]+")


class AmbiguousOptionError(DisputatioError):
    """A name matches several options equally well (the judge is asked to fix it).

    Attributes:
        name: The name as the model wrote it.
        candidates: The options it could mean.
    """

    code = "referee.ambiguous_option"

    def __init__(self, name: str, candidates: list[str]) -> None:
        super().__init__(f"{name!r} could be any of {', '.join(candidates)}")
        self.name = name
        self.candidates = candidates


def words(name: str) -> list[str]:
    """Lower-case words of ``name`` (letters, digits, ``+`` and ``#``)."""
    return _WORD_RE.findall(name.casefold())


def _contains(seq: list[str], sub: list[str]) -> bool:
    n = len(sub)
    return n > 0 and any(seq[i : i + n] == sub for i in range(len(seq) - n + 1))


def match_option(name: str, options: list[str]) -> str | None:
    """The plan's spelling of option ``name``, or None when it names none of them.

    1. exact: the same words (case and punctuation ignored; ``"pg vector"`` = ``"pgvector"``);
    2. whole word: the option's words appear as consecutive whole words of ``name`` (or
       ``name``'s in the option's): ``"Preact JS"`` → Preact, never React; ``"Google Cloud
       Run"`` contains no word ``go``; the longest such option wins;
    3. best overlap: the most similar option by :class:`difflib.SequenceMatcher` ratio, if at
       least :data:`OVERLAP_MIN` (``"Postgres"`` → PostgreSQL).

    Raises:
        AmbiguousOptionError: Two options tie at the deciding step.
    """
    key = words(name)
    if not key:
        return None
    forms = {o: words(o) for o in options}
    exact = [o for o, w in forms.items() if w == key or "".join(w) == "".join(key)]
    if len(exact) == 1:
        return exact[0]
    if exact:
        raise AmbiguousOptionError(name, exact)
    whole = [(len(w), o) for o, w in forms.items() if _contains(key, w) or _contains(w, key)]
    if whole:
        best = max(n for n, _ in whole)
        top = [o for n, o in whole if n == best]
        if len(top) > 1:
            raise AmbiguousOptionError(name, top)
        return top[0]
    joined = " ".join(key)
    ratios = sorted(
        ((SequenceMatcher(None, joined, " ".join(w)).ratio(), o) for o, w in forms.items()),
        reverse=True,
    )
    if not ratios or ratios[0][0] < OVERLAP_MIN:
        return None
    close = [o for r, o in ratios if ratios[0][0] - r < OVERLAP_MARGIN]
    if len(close) > 1:
        raise AmbiguousOptionError(name, close)
    return ratios[0][1]


@dataclass
class Cells:
    """The referee's scores collected over its replies: one per (option, axis), first wins.

    Attributes:
        scores: ``(option, axis)`` → the canonical :class:`AxisScore`.
        ambiguous: Option names that matched several options (with their candidates).
        unknown: Option or axis names that matched nothing.
    """

    scores: dict[tuple[str, str], AxisScore] = field(default_factory=dict)
    ambiguous: dict[str, list[str]] = field(default_factory=dict)
    unknown: list[str] = field(default_factory=list)

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
            self.scores.setdefault(
                (option, axis), s.model_copy(update={"option": option, "axis": axis})
            )

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


#: Words that name nothing on their own: ``"in"`` must not name ``avoid: vendor lock-in``.
_FILLER = frozenset(
    "a an the of to in on at by for and or is are be it its as with from this that".split()
)


def _content(seq: list[str]) -> list[str]:
    return [w for w in seq if w not in _FILLER]


def named_constraint(text: str, constraints: list[str]) -> str | None:
    """The user constraint (one of ``Constraints.items()``) that ``text`` names, if any.

    Filler words (articles, prepositions...) are ignored on both sides. ``text`` names a
    constraint when either contains the other's words in order, or when it shares at least
    half of the constraint's words; a text of filler words only names none.
    """
    key = _content(words(text))
    if not key:
        return None
    best: tuple[float, str] | None = None
    for line in constraints:
        w = _content(words(line))
        body = _content(words(line.split(":", 1)[-1]))
        if _contains(key, body) or _contains(w, key):
            return line
        share = len(set(key) & set(body)) / max(len(set(body)), 1)
        if share >= 0.5 and (best is None or share > best[0]):
            best = (share, line)
    return best[1] if best else None


_ORDER: dict[str, int] = {"low": 0, "medium": 1, "high": 2}


def _cap(confidence: Confidence, most: Confidence) -> Confidence:
    return confidence if _ORDER[confidence] <= _ORDER[most] else most


def build_ruling(
    plan: Plan, draft: RulingDraft, cells: Cells | None = None, *, fill_rounds: int = 0
) -> Ruling:
    """The validated ruling: canonical cells, code totals, the recommendation rule, caveats.

    The recommendation is the leader (best weighted score among complete options) unless the
    referee named a user constraint in ``override_constraint`` that overrides the totals
    (``overridden_by``). A recommendation that is no option falls back to the leader.
    Confidence is capped at ``low`` while cells are missing and at ``medium`` under an
    override.

    Args:
        plan: The plan.
        draft: The referee's (first) reply: recommendation, confidence, trade-offs, caveats.
        cells: Scores collected over every reply (default: the draft's).
        fill_rounds: How many times the referee was asked again (recorded).
    """
    options = [o.name for o in plan.options]
    if cells is None:
        cells = Cells()
        cells.add(plan, draft.scores)
    scores = list(cells.scores.values())
    totals = compute_totals(plan.axes, options, scores)
    top = leader(totals)
    caveats = [c for c in draft.caveats if c.strip()]
    missing = cells.missing(plan)
    for t in totals:
        if not t.complete:
            gaps = ", ".join(a for o, a in missing if o == t.option)
            caveats.append(f"{t.option} was not scored on: {gaps}; its total is partial.")
    for name, candidates in cells.ambiguous.items():
        caveats.append(f"The referee's option {name!r} is ambiguous ({', '.join(candidates)}).")
    try:
        named = match_option(draft.recommendation, options) if draft.recommendation else None
    except AmbiguousOptionError:
        named = None
    confidence: Confidence = draft.confidence
    overridden_by = None
    recommendation = named or top or ""
    if named is None and draft.recommendation:
        caveats.append(f"The referee recommended {draft.recommendation!r}, which is no option.")
    elif named is not None and top is not None and named != top:
        constraint = named_constraint(draft.override_constraint, plan.constraints.items())
        if constraint is not None:
            overridden_by = constraint
            confidence = _cap(confidence, "medium")
            caveats.append(
                f"{named} is recommended over the best weighted score ({top}) because of the "
                f"user constraint '{constraint}'."
            )
        else:
            recommendation = top
            caveats.append(
                f"The referee recommended {named} against the weighted totals without naming a "
                f"user constraint that overrides them; the recommendation follows the totals."
            )
    if missing:
        confidence = "low"
    trade_offs = []
    for trade in draft.trade_offs:
        try:
            choose = match_option(trade.choose, options)
        except AmbiguousOptionError:
            choose = None
        trade_offs.append(trade.model_copy(update={"choose": choose}) if choose else trade)
    ruling = Ruling(
        scores=scores,
        trade_offs=trade_offs,
        recommendation=recommendation,
        override_constraint=draft.override_constraint,
        confidence=confidence,
        caveats=caveats,
        totals=totals,
        leader=top,
        overridden_by=overridden_by,
        missing_cells=[f"{o} / {a}" for o, a in missing],
        fill_rounds=fill_rounds,
    )
    ruling.rendered = render_ruling(plan, ruling)
    ruling.keys = [k.model_dump(mode="json") for k in ruling_keys(plan, ruling)]
    return ruling


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
    head = f"Recommendation: {ruling.recommendation or '–'} (confidence: {ruling.confidence})"
    if ruling.overridden_by:
        head += f", over the best weighted score because of '{ruling.overridden_by}'"
    return "\n".join([head, *(render_key(k) for k in ruling_keys(plan, ruling))])
