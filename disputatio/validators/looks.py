"""The windows the judge reads after refusing a claim's best one.

The hybrid score picks a claim's best window, but it cannot tell near ties apart, and a window
of two sentences or of one clause is not always what the judge should read: a pair adds a
sentence that may confuse it, a clause may have lost the condition the claim restates. When
the judge refuses the best window (:meth:`~disputatio.validators.windows.Windows.best`), it
reads, in this order and at most one of each: the better sentence of a pair (:func:`_inside`),
the whole sentence of a clause (:func:`_around`), and the best window that does not overlap it
within :data:`RUNNER_UP_MARGIN` (:func:`_runner_up`). Only windows the guards let through and
whose score reaches the judge's grey floor are read.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from disputatio.validators.guards import coverage
from disputatio.validators.support import SupportChecker

#: A scored window: its score, its section and (start, end, text).
Scored = tuple[float, str, tuple[int, int, str]]

#: A grey-zone window whose score is this close to the best one's is judged too when the
#: best one is refused: the hybrid score cannot tell near ties apart ("Vessel: M/V Sjøstjerne"
#: 0.616 under a sentence about shackles 0.620), the judge can.
RUNNER_UP_MARGIN = 0.05


def second_looks(
    first: Scored,
    scored: Sequence[Scored],
    checker: SupportChecker,
    sentences: Mapping[str, set[tuple[int, int]]],
) -> list[Scored]:
    """The windows to judge, in order, when the judge refuses ``first`` (see the module).

    Args:
        first: The claim's best window.
        scored: Every window of the claim no guard rejected.
        checker: The support checker (its ``grey`` floor and ``threshold``).
        sentences: Each section's whole sentences, as (start, end).
    """
    return [
        *_inside(first, scored, checker, sentences),
        *_around(first, scored, checker, sentences),
        *_runner_up(first, scored, checker),
    ]


def _inside(
    first: Scored,
    scored: Sequence[Scored],
    checker: SupportChecker,
    sentences: Mapping[str, set[tuple[int, int]]],
) -> list[Scored]:
    """The better sentence of ``first`` when it is a pair of sentences, in the grey zone.

    The judge was measured on single passages: a pair adds a sentence that may confuse it
    ("Every bus has one wheelchair space." before "MF Ormøy has four wheelchair spaces …",
    P(yes) 0.22 for the pair, 0.79 for the sentence alone; p012, docs/grounding.md). Only whole
    sentences (a clause may lose its condition), and only those the guards let through.
    """
    return _whole_sentence(first, scored, checker, sentences, around=False)


def _around(
    first: Scored,
    scored: Sequence[Scored],
    checker: SupportChecker,
    sentences: Mapping[str, set[tuple[int, int]]],
) -> list[Scored]:
    """The whole sentence of ``first`` when it is a clause of one, in the grey zone.

    A clause may drop the condition the claim restates: "Once you've had your plot for a year,
    you must cultivate at least 75% of the plot" was judged on "at least 75% of the plot must
    be cultivated." (P 0.33), not on its sentence "From the end of the first 12 months, at
    least 75% of the plot must be cultivated." (ae029, held-out set 30).
    """
    return _whole_sentence(first, scored, checker, sentences, around=True)


def _whole_sentence(
    first: Scored,
    scored: Sequence[Scored],
    checker: SupportChecker,
    sentences: Mapping[str, set[tuple[int, int]]],
    *,
    around: bool,
) -> list[Scored]:
    """The best-scored whole sentence inside ``first`` (or, with ``around``, holding it).

    None when ``first`` is a whole sentence itself or the checker has no grey zone; only
    windows no guard rejected (``scored``) and at least in the grey zone.
    """
    grey = getattr(checker, "grey", None)
    _, sid, (start, end, _text) = first
    whole = sentences.get(sid, set())
    if grey is None or (start, end) in whole:
        return []
    found = [
        w
        for w in scored
        if w[1] == sid and w[2][:2] in whole and w[0] >= grey
        if (w[2][0] <= start and end <= w[2][1] if around else start <= w[2][0] and w[2][1] <= end)
    ]
    return sorted(found, key=lambda w: -w[0])[:1]


def _runner_up(
    first: Scored,
    scored: Sequence[Scored],
    checker: SupportChecker,
) -> list[Scored]:
    """The best window apart from ``first`` (not overlapping it) within the margin, if any.

    Only in the judge's grey zone (``checker.grey``): a window the score supports needs no
    second opinion, one below the grey floor gets none.
    """
    grey = getattr(checker, "grey", None)
    if grey is None or first[0] >= checker.threshold:
        return []
    start, end = first[2][0], first[2][1]
    others = [
        w
        for w in scored
        if w[0] >= max(grey, first[0] - RUNNER_UP_MARGIN)
        and (w[1] != first[1] or w[2][1] <= start or w[2][0] >= end)
    ]
    return sorted(others, key=lambda w: -w[0])[:1]


def nearest_reason(claim: str, rejected: Sequence[tuple[str, str]], passed: bool) -> str:
    """Why no window supports ``claim`` when every window fails, for people.

    ``rejected``: each guarded-out window's text and the guard's reason; ``passed``: some
    window passed every guard (and shares none of the claim's words: its score is 0). The
    reason is that of the rejected window sharing most of the claim's words: "8x10 is not in
    the section" on the sentence about the 8 by 10 inch paper, not the first window's "the
    number 14 is not in the sentence" (aq028, held-out set 42). When no rejected window shares
    a word and one passed, no sentence shares the claim's words ("You can keep it for one
    week": aq011).
    """
    shares = [(coverage(claim, window), reason) for window, reason in rejected]
    near = max(shares, key=lambda r: r[0], default=(0.0, ""))
    if near[1] and (near[0] > 0 or not passed):
        return near[1]
    return "no sentence shares its words"
