"""A day of the week a claim names, said by its window as a span of days.

"The cost to hire the Ropeworks Studio for a Saturday is 620 GBP per day" rests on "… 480 GBP
per day from Monday to Thursday and 620 GBP per day from Friday to Sunday" (t034, held-out set
20); "through the gate at 6:00 on Monday" on "every day from 6:00 to 22:00" (j004, set 25);
"It closes on Saturdays …" on "Saturday 09:00 to 17:00" (ac008, set 28). The span that covers
the day must be the one said in the clause of the claim's figure: "Monday to Thursday" does
not give a Tuesday the 620 GBP said beside "Friday to Sunday".

Lexical; no model call.
"""

from __future__ import annotations

import re

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
    if not any(day in covered for *_, covered in mentions):
        return False
    figures = {_figure(m.group(0)) for m in _FIGURE_RE.finditer(claim)}
    spots = [m.start() for m in _FIGURE_RE.finditer(window) if _figure(m.group(0)) in figures]
    if not spots:  # a day with no figure of the claim beside it is not read from a span
        return False
    clauses = [(m.start(), m.end()) for m in _CLAUSE_RE.finditer(window)]
    for spot in spots:
        # the day said in the figure's own clause (or table cell)
        start, end = next(((a, b) for a, b in clauses if a <= spot < b), (spot, spot))
        own = [mention for mention in mentions if start <= mention[0] < end]
        if not own or day not in min(own, key=lambda m: _distance(spot, m[0], m[1]))[2]:
            return False
    return True


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
