"""Dates of one sentence, each with the words said right before it.

"Spring term: Monday 5 January 2026 to Saturday 4 April 2026, with half-term from Monday 16
February to Sunday 22 February 2026." gives the half-term 16 February. Set 34's ai041 ("On what
date does the spring half-term closure begin?") was answered "The spring half-term closure
begins on Monday 5 January 2026." on it: every word and number of the claim is in the sentence.

:func:`other_date_label` reads each date's label, the words between the date before it (or the
start of the sentence) and the date, and refuses a claim that names a word labelling another
date of the sentence, not its own; a span's second date ("from Monday 16 February to
Sunday 22 February") has its first one's label. The words before a sentence's first date label
every date ("Spring term: …" is the whole sentence's subject, so "the spring half-term begins
on Monday 16 February" stands). Table rows are read by :mod:`~disputatio.validators.tables`.

Lexical; no model call.
"""

from __future__ import annotations

import re

from disputatio.validators.sentences import MONTHS, content_words, split_sentences, words
from disputatio.validators.tables import is_row

_MONTH = "(?:" + "|".join(sorted(MONTHS, key=len, reverse=True)) + ")"
_WEEKDAY = r"(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day\s+)?"
#: A date: "Monday 16 February", "16th Feb", "February 16" (also read by
#: :func:`~disputatio.validators.asked.states_stretch`).
DATE_RE = re.compile(
    rf"\b{_WEEKDAY}(?P<d1>\d{{1,2}})(?:st|nd|rd|th)?\s+(?P<m1>{_MONTH})\b"
    rf"|\b{_WEEKDAY}(?P<m2>{_MONTH})\s+(?P<d2>\d{{1,2}})(?:st|nd|rd|th)?\b(?!:)",
    re.I,
)
#: What joins a span's two dates ("2026 to"): the second date has the first one's label.
_SPAN_RE = re.compile(r"^\W*(?:\d{4}\W*)?(?:to|until|till|through|-|–|—)\W*$", re.I)
#: How many content words before a date label it.
_LABEL_WORDS = 5


def _dates(text: str) -> list[tuple[tuple[str, str], int, int]]:
    """``((day, month), start, end)`` of each date of ``text``, the month as its 3 letters."""
    out = []
    for m in DATE_RE.finditer(text):
        first = bool(m.group("d1"))
        day, month = m.group("d1" if first else "d2"), m.group("m1" if first else "m2")
        out.append(((str(int(day)), month[:3].casefold()), m.start(), m.end()))
    return out


def _last_words(text: str) -> set[str]:
    """The last :data:`_LABEL_WORDS` content words of ``text``, in its order."""
    ordered = [w for token in words(text) for w in content_words(token)]
    return set(ordered[-_LABEL_WORDS:])


def other_date_label(claim: str, window: str) -> str:
    """Why a sentence of ``window`` labels another date with a word the claim names, or ``""``.

    Returns:
        "the sentence has <word> before <other date>, not before <claim's date>" when the
        claim's date is a date of a sentence and a content word of the claim labels another
        date of it that the claim does not give, and not the claim's date.
    """
    given = {d for d, _, _ in _dates(claim)}
    if not given:
        return ""
    said = content_words(claim)
    for span in split_sentences(window):
        text = span.sentence
        dates = _dates(text)
        if is_row(text) or len({d for d, _, _ in dates}) < 2:
            continue
        lead = content_words(text[: dates[0][1]])
        labels: list[set[str]] = []
        for i, (_, start, _) in enumerate(dates):
            before = text[dates[i - 1][2] if i else 0 : start]
            if i and _SPAN_RE.match(before):
                labels.append(labels[-1])  # "from 16 February to 22 February": one span
            else:
                labels.append(_last_words(before) if i else set())
        mine = [labels[i] for i, (d, _, _) in enumerate(dates) if d in given]
        if not mine:
            continue
        own = set().union(*mine) | lead
        for i, (date, _, _) in enumerate(dates):
            if date in given:
                continue
            for word in sorted((said & labels[i]) - own):
                when = " ".join(date)
                return f"the sentence has {word!r} before {when}, not before the claim's date"
    return ""


_MONTH_ORDER = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")


def _ordinal(date: tuple[str, str]) -> int:
    """A date's place in the year, for comparing two dates of one year."""
    day, month = date
    return _MONTH_ORDER.index(month) * 31 + int(day) if month in _MONTH_ORDER else -1


def date_unstated(claim: str, window: str, given: set[str] | frozenset[str] = frozenset()) -> str:
    """Why a date of ``claim`` is none of ``window``'s dates, nor inside one of its spans.

    "The Field will be shut for haymaking from June 21 to July 21" rested on a course table's
    "17 July to 21 August 2027" (aw019, held-out set 48, a near miss): each number is the
    window's, but the date "June 21" is not. Only a window that has dates is read (a month
    range is the number guard's), and a date whose day the question states (``given``) is
    the asker's.
    """
    theirs = _dates(window)
    if not theirs:
        return ""
    stated = {d for d, _, _ in theirs}
    spans = [
        (_ordinal(theirs[i - 1][0]), _ordinal(theirs[i][0]))
        for i in range(1, len(theirs))
        if _SPAN_RE.match(window[theirs[i - 1][2] : theirs[i][1]])
    ]
    for date, start, end in _dates(claim):
        if date in stated or date[0] in given:
            continue
        at = _ordinal(date)
        if not any(lo <= at <= hi for lo, hi in spans):
            return f"the date {claim[start:end]!r} is not in the sentence"
    return ""
