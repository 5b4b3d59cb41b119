"""A day of the week or a month a claim names, said by its window as a span of days or months.

"The cost to hire the Ropeworks Studio for a Saturday is 620 GBP per day" rests on "… 480 GBP
per day from Monday to Thursday and 620 GBP per day from Friday to Sunday" (t034, held-out set
20); "through the gate at 6:00 on Monday" on "every day from 6:00 to 22:00" (j004, set 25);
"It closes on Saturdays …" on "Saturday 09:00 to 17:00" (ac008, set 28). The span that covers
the day must be the one said in the clause of the claim's figure: "Monday to Thursday" does
not give a Tuesday the 620 GBP said beside "Friday to Sunday".

A month is read the same way from a span of months ("… in January are from 10:00 to 12:00" on
"From November to February it is open on Saturdays only, from 10:00 to 12:00", ae007, held-out
set 30), from the span nearest the claim's figure in its sentence: a season is often said once
for a sentence whose figures stand in later clauses. A span of another sentence is not read
("From November to February there is only one sea lion display" after "The display runs at
11:00 and 14:30": set 21).

Lexical; no model call.
"""

from __future__ import annotations

import re

from disputatio.validators.asked import asked_sentence
from disputatio.validators.sentences import split_sentences

_WEEK = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_DAY = r"(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?s?"
_FULL = r"(?:mon|tues|wednes|thurs|fri|satur|sun)days?"  # alone, a day is named in full
#: A span of days ("Friday to Sunday", "Mon–Fri"), a kind of day, or one day.
_MENTION_RE = re.compile(
    rf"\b(?P<start>{_DAY})\s*(?:to|until|till|through|-|–|—)\s*(?P<end>{_DAY})\b"
    r"|\b(?P<every>every\s+day|daily|7\s+days\s+a\s+week|seven\s+days\s+a\s+week)\b"
    r"|\b(?P<kind>week\s?days?|weekends?)\b"
    rf"|\b(?P<one>{_FULL})\b",
    re.I,
)


def day_of(word: str) -> int | None:
    """The index (Monday 0) of a day's name, its abbreviation or plural; else ``None``."""
    low = word.casefold().removesuffix("s")
    for i, day in enumerate(_WEEK):
        if low == day or (len(low) >= 3 and day.startswith(low)):
            return i
    return None


def _covered(m: re.Match[str]) -> set[int]:
    """The days a mention of :data:`_MENTION_RE` covers."""
    if m.group("start"):
        start, end = day_of(m.group("start")), day_of(m.group("end"))
        if start is None or end is None:
            return set()
        return {(start + k) % 7 for k in range((end - start) % 7 + 1)}
    if m.group("every"):
        return set(range(7))
    if m.group("kind"):
        return {5, 6} if "end" in m.group("kind").casefold() else set(range(5))
    day = day_of(m.group("one"))
    return set() if day is None else {day}


def day_covered(name: str, claim: str, window: str) -> bool:
    """Whether the claim's day ``name`` (folded) is one the window's days cover.

    Each of the claim's figures the window states takes the day said in its clause or table cell
    ("Saturday 09:00 to 17:00, Sunday 10:00 to 16:00"; "… and 620 GBP per day from Friday to
    Sunday"), and that day must be the claim's; with none of them in the window, the day must
    be written ("It is closed on Sundays" is not read from "Days: Every day").
    """
    day = day_of(name)
    if day is None:
        return False
    mentions = [(m.start(), m.end(), _covered(m)) for m in _MENTION_RE.finditer(window)]
    return _span_of(day, mentions, claim, window, nearest=False) is not None


def day_contrast(question: str, claim: str) -> tuple[str, str] | None:
    """``(asked, claimed)`` days of the week when the claim's days hold none the question asks.

    "What time is the last bus back to town on a Saturday?" is not answered by "The last route
    7 bus … leaves at 10.15 pm from Monday to Friday." (ap020, held-out set 41, a near miss).
    The days asked are read from the sentence that asks only (:func:`~disputatio.validators.
    asked.asked_sentence`: earlier ones may name days in passing, "I booked on Monday."), the
    claim's from its own words.
    """
    asked = list(_MENTION_RE.finditer(asked_sentence(question)))
    said = list(_MENTION_RE.finditer(claim))
    days = set().union(*map(_covered, asked)) if asked else set()
    held = set().union(*map(_covered, said)) if said else set()
    if not days or not held or len(days) == 7 or days & held:
        return None
    return " or ".join(m.group(0) for m in asked), " and ".join(m.group(0) for m in said)


def _span_of(
    item: int,
    mentions: list[tuple[int, int, set[int]]],
    claim: str,
    window: str,
    *,
    nearest: bool,
) -> tuple[int, int] | None:
    """The mention covering ``item`` that the claim's figures in ``window`` are said with.

    Each figure of the claim the window states takes the mention of its own clause (or table
    cell), the one nearest it when there are several; with ``nearest``, a figure whose clause
    has none takes the nearest mention of its sentence. Every figure's mention must cover
    ``item``; the first figure's is returned. None when a figure's does not, or when no figure
    of the claim is in the window (a day or month with no figure beside it is not read from a
    span).
    """
    if not any(item in covered for *_, covered in mentions):
        return None
    figures = {_figure(m.group(0)) for m in _FIGURE_RE.finditer(claim)}
    spots = [m.start() for m in _FIGURE_RE.finditer(window) if _figure(m.group(0)) in figures]
    clauses = [(m.start(), m.end()) for m in _CLAUSE_RE.finditer(window)]
    found: list[tuple[int, int]] = []
    for spot in spots:
        start, end = next(((a, b) for a, b in clauses if a <= spot < b), (spot, spot))
        own = [mention for mention in mentions if start <= mention[0] < end]
        if not own and nearest:  # the nearest of the figure's own sentence
            a, b = next(
                ((x.start, x.end) for x in split_sentences(window) if x.start <= spot < x.end),
                (spot, spot),
            )
            own = [mention for mention in mentions if a <= mention[0] < b]
        if not own:
            return None
        best = min(own, key=lambda m: _distance(spot, m[0], m[1]))
        if item not in best[2]:
            return None
        found.append((best[0], best[1]))
    return found[0] if found else None


#: A clause of a window: between commas, semicolons, sentence ends, "and" and table bars.
_CLAUSE_RE = re.compile(r"(?:(?!\band\b)[^,;.|]|\.(?=\d))+")


#: A figure as written: "620", "1,400", "09:00" (a clock time is one figure, not 9 and 0).
_FIGURE_RE = re.compile(r"\d+(?:[.,:]\d+)*")


def _figure(token: str) -> str:
    """``token`` without leading zeros ("09:00" and "9:00" are one time)."""
    return token.lstrip("0") or "0"


def _distance(spot: int, start: int, end: int) -> int:
    """How far ``spot`` lies from the span ``start``–``end`` (0 inside it)."""
    return 0 if start <= spot < end else min(abs(spot - start), abs(spot - end))


_MONTHS = (
    "january", "february", "march", "april", "may", "june", "july", "august", "september",
    "october", "november", "december",
)  # fmt: skip
_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*"
#: A span of months ("November to February", "from 1 April to 31 October", "Apr–Oct").
_MONTH_SPAN_RE = re.compile(
    rf"\b(?:(?P<start>{_MONTH})\s*(?:to|until|till|through|-|–|—)"
    rf"|between\s+(?P<first>{_MONTH})\s+and)\s*(?:\d{{1,2}}(?:st|nd|rd|th)?\s+)?"
    rf"(?P<end>{_MONTH})\b",
    re.I,
)


def month_of(word: str) -> int | None:
    """The index (January 0) of a month's name or abbreviation ("Sept"); else ``None``."""
    low = word.casefold().rstrip(".")
    for i, month in enumerate(_MONTHS):
        if low == month or (len(low) >= 3 and month.startswith(low)):
            return i
    return None


def month_covered(name: str, claim: str, window: str) -> bool:
    """Whether the claim's month ``name`` (folded) lies in the window's span of months.

    Each of the claim's figures the window states takes the span of months said in its own
    clause, else the span of its sentence nearest it, and that span must hold the month ("5 GBP
    from April to June and 8 GBP from July to September" gives May 5 GBP, not 8); a month with
    no figure of the claim in the window is not read from a span.
    """
    return month_span(name, claim, window) is not None


def month_span(name: str, claim: str, window: str) -> tuple[int, int] | None:
    """Where the window says the months that hold the claim's ``name`` (:func:`month_covered`)."""
    month = month_of(name)
    if month is None:
        return None
    spans = []
    for m in _MONTH_SPAN_RE.finditer(window):
        start = month_of(m.group("start") or m.group("first"))
        end = month_of(m.group("end"))
        if start is not None and end is not None:
            months = {(start + k) % 12 for k in range((end - start) % 12 + 1)}
            spans.append((m.start(), m.end(), months))
    return _span_of(month, spans, claim, window, nearest=True)


#: A month's name in a claim.
_MONTH_NAME_RE = re.compile(rf"\b{_MONTH}\b", re.I)


def in_month_terms(claim: str, window: str) -> str:
    """``claim`` with each month the window says only as a span of months put as that span.

    "The Trading Hut's Saturday opening hours in *January* are from 10:00 to 12:00" on "From
    November to February it is open on Saturdays only, from 10:00 to 12:00" becomes "… in
    *November to February* are …" for the judge (ae007, held-out set 30): the guard has read
    January in the span (:func:`month_covered`); the judge is asked about the rest, as with the
    asker's number put as the window's range (``ranges.in_window_terms``). Days are left as
    written: "on a Saturday" put as "on a weekends" or "on every day" reads worse than it was.
    """
    known = set(re.findall(r"[^\W\d_]+", window.casefold()))

    def as_span(m: re.Match[str]) -> str:
        word = m.group(0)
        if not word[:1].isupper() or (word == "May" and not claim[: m.start()].strip()):
            return word  # "you may …", "May I …": no month
        if word.casefold() in known or month_of(word) is None:
            return word
        where = month_span(word, claim, window)
        return word if where is None else window[where[0] : where[1]]

    return _MONTH_NAME_RE.sub(as_span, claim)
