"""Option matching, weighted totals and the ruling's rules (computed in code, not by the model).

For option ``o`` with scores ``s[o][a]`` on axes ``a`` of weight ``w[a]``::

    weighted_sum[o]   = Σ_a w[a] · s[o][a]          (over the axes the referee scored)
    weighted_score[o] = weighted_sum[o] / Σ_a w[a]  (back on the 1-10 scale)

An option missing a score is marked ``complete=False`` and its weighted score uses the axes
it has. The leader is the best weighted score among complete options (none on a tie). The
recommendation follows the leader unless the referee names the user constraint that
overrides the totals (:func:`build_ruling`). Scores that are degenerate, or totals too close
to call, give no recommendation (:mod:`disputatio.nodes.referee.soundness`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from difflib import SequenceMatcher

from disputatio.errors import DisputatioError
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
)

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
        return named, _cap(confidence, "medium"), constraint, [caveat]
    caveat = (
        f"The referee recommended {named} against the weighted totals without naming a "
        f"user constraint that overrides them; the recommendation follows the totals."
    )
    return top, confidence, None, [caveat]


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
    problem = cells.degenerate(plan)
    close = [] if problem else close_race(totals, margin)
    recommendation, confidence, overridden_by, notes = _recommend(
        plan, draft, named, top, bool(close)
    )
    caveats += notes
    if problem:
        recommendation, overridden_by, confidence = "", None, "low"
        again = " even when asked again" if rescored else ""
        caveats.insert(0, f"No verdict: the scores are degenerate{again} ({problem}).")
    elif close:
        confidence = "low"
        decided = f"; {recommendation} because of '{overridden_by}'" if overridden_by else ""
        caveats.insert(0, f"No clear winner: {race_text(close, margin)}{decided}.")
    uncited = [
        f"{o} / {a.name}"
        for o in options
        for a in plan.axes
        if (o, a.name) in cells.scores and not cells.scores[(o, a.name)].evidence
    ]
    if uncited:
        confidence = _cap(confidence, "medium")
        caveats.append(
            f"{len(uncited)} of {len(scores)} scores cite no evidence: {', '.join(uncited)}."
        )
    if cells.unknown_evidence:
        caveats.append(f"Cited ids no case holds, dropped: {', '.join(cells.unknown_evidence)}.")
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
        uncited_cells=uncited,
        rescored=rescored,
        degenerate=problem or "",
        no_clear_winner=bool(close),
    )
    ruling.rendered = render_ruling(plan, ruling)
    ruling.keys = [k.model_dump(mode="json") for k in ruling_keys(plan, ruling)]
    return ruling
