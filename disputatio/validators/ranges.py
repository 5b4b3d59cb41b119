"""Ranges a sentence states ("aged 6 to 9", "over 8 and up to 12 metres") and what they hold.

A question often states the asker's own case as a number: "I need a cake for *14* guests",
"my boat is *10.5* metres long", "I am *15*". The documents price or allow by range: "a cake
for over 10 and up to 16 people costs 52 EUR", "children aged 6 to 9". Read number by number,
the sentence neither states 14 nor 10.5, so a faithful answer restating the asker's case ("a
cake for 14 guests costs 52 EUR") failed the number guard (b010, held-out set 15; a001, set
14), while a sentence whose range excludes the asker ("for children aged 6 to 9", asked by a
15-year-old) was shown as the answer (b013, set 15). This module reads the ranges:

* :func:`ranges`: every range a text states, with its bounds and unit;
* :func:`holds`: whether a text states a range that holds a number (in a compatible unit);
* :func:`in_window_terms`: a claim restating the asker's number, put in the range's words
  (what the judge is asked about);
* :func:`asker_age`: the age a question gives for the asker ("I am 15", "my 7-year-old");
  :func:`excludes_age` and :func:`fits_age`: whether a text's age ranges leave it out.

Lexical; no model call. What each use changes is measured on the grounding records in
docs/grounding.md ("Which checker"'s list of changes, 2026-12-03, and held-out sets 16-17).
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Collection
from typing import NamedTuple

from disputatio.validators.durations import converted, stretch_of
from disputatio.validators.sentences import stated_numbers
from disputatio.validators.units import UNITS

_NUM = r"(?<![\d:.,])(\d+(?:[.,]\d+)?)(?!\d|[:.,]\d)"
#: Optional unit (or noun) between a range's two numbers: "5 kg to 10 kg", "8 and up to 12".
_MID_UNIT = r"(?:\s*[^\W\d_]+)?"
_LOWER_OPEN = r"over|more\s+than|above|older\s+than|greater\s+than|heavier\s+than|longer\s+than"
_LOWER_SHUT = r"at\s+least|a\s+minimum\s+of|minimum|from"
_UPPER_SHUT = (
    r"up\s+to|at\s+most|no\s+more\s+than|not\s+more\s+than|a\s+maximum\s+of|maximum|within"
)
_UPPER_OPEN = r"under|less\s+than|below|younger\s+than|fewer\s+than|lighter\s+than|shorter\s+than"

_BETWEEN_RE = re.compile(rf"\bbetween\s+{_NUM}{_MID_UNIT}\s+and\s+{_NUM}", re.I)
_SPAN_RE = re.compile(
    rf"(?:\b(?:from|aged?|ages)\s+)?{_NUM}{_MID_UNIT}\s*(?:to|-|–|—)\s*{_NUM}", re.I
)
_AGED_AND_RE = re.compile(rf"\baged?\s+{_NUM}\s+and\s+{_NUM}", re.I)
_LOWER_RE = re.compile(
    rf"\b(?:(?P<open>{_LOWER_OPEN})|(?P<shut>{_LOWER_SHUT}))\s+(?:the\s+age\s+of\s+)?{_NUM}",
    re.I,
)
_UPPER_RE = re.compile(
    rf"\b(?:(?P<shut>{_UPPER_SHUT})|(?P<open>{_UPPER_OPEN}))\s+(?:the\s+age\s+of\s+)?{_NUM}",
    re.I,
)
_OR_MORE_RE = re.compile(
    rf"{_NUM}(?:\s*[^\W\d_]+)?\s+(?:or|and)\s+(?P<way>over|older|more|above|upwards"
    r"|under|younger|less|below|fewer)\b",
    re.I,
)
#: A bound named by its label, a table header's or a sentence's: "Shortest booking: 2 hours",
#: "The minimum stay is 2 nights" (a 3-hour booking is one of them: aq004, held-out set 42).
_LABEL = r"(?:\s+[^\W\d_]+){0,3}?\s*(?::|\s+is|\s+are)\s+"
_LABEL_LOW_RE = re.compile(
    rf"\b(?:shortest|minimum|smallest|fewest){_LABEL}(?:at\s+least\s+)?{_NUM}", re.I
)
_LABEL_HIGH_RE = re.compile(
    rf"\b(?:longest|maximum|largest){_LABEL}(?:at\s+most\s+|up\s+to\s+)?{_NUM}", re.I
)
#: What may stand between a lower bound and the upper bound closing it ("over 8 *and* up to 12").
_JOIN_RE = re.compile(r"^(?:\s*[^\W\d_]+)?\s*(?:,\s*)?(?:and|but)\s*$", re.I)
#: Words after a range that make it one of ages.
_AGE_AFTER_RE = re.compile(r"^\s*(?:-?\s*)?(?:years?|yrs?)[\s-]*old|^\s*-?\s*year-olds?", re.I)
_AGE_BEFORE_RE = re.compile(r"\b(?:aged?|ages|age\s+of)\s*$", re.I)
#: People counted by age: "children from 4 to 12 years" is a range of ages, not of durations.
_PEOPLE_RE = re.compile(
    r"\b(?:child|children|kids?|teenagers?|teens?|youths?|juniors?|seniors?|adults?|pupils?"
    r"|infants?|babies|baby|guests?|passengers?|visitors?|participants?|students?)\b[^.;:]{0,30}$",
    re.I,
)


class Range(NamedTuple):
    """A range of values a text states; ``None`` bounds are open-ended."""

    low: float | None
    low_shut: bool
    high: float | None
    high_shut: bool
    #: Canonical unit (:data:`~disputatio.validators.units.UNITS`), ``"age"`` for ages.
    unit: str | None
    start: int
    end: int

    def holds(self, value: float) -> bool:
        """Whether ``value`` lies in the range."""
        if self.low is not None and (value < self.low or (value == self.low and not self.low_shut)):
            return False
        return self.high is None or value < self.high or (value == self.high and self.high_shut)


def _number(raw: str) -> float:
    """``2,000`` is two thousand (a thousands separator), ``1,5`` one and a half."""
    if re.fullmatch(r"\d{1,3}(?:,\d{3})+", raw):
        return float(raw.replace(",", ""))
    return float(raw.replace(",", "."))


#: Ages counted in weeks or months ("puppies aged 10 to 18 weeks"), by the unit's word.
_AGE_IN = {"week": "age_week", "weeks": "age_week", "month": "age_month", "months": "age_month"}
#: Time units an age may be counted in, and the age unit of each.
_AS_AGE: dict[str | None, str] = {"year": "age", "week": "age_week", "month": "age_month"}
#: Years in an age unit (an age in years is ``"age"``).
AGE_YEARS = {"age": 1.0, "age_month": 12.0, "age_week": 52.18}


def _unit(text: str, start: int, end: int) -> str | None:
    """The unit of the range ``text[start:end]``: an age, the word after it, or inside it."""
    # the unit is the word right after the range, not past a bracket, a cell or a number:
    # "Senior (65 and over) | 315.00 GBP" is no range of pounds (af001, held-out set 31)
    after = re.split(r"[)\]|;]|\d", text[end : end + 24], maxsplit=1)[0]
    if _AGE_BEFORE_RE.search(text[max(0, start - 12) : start]) or re.match(
        r"\s*(?:aged?|ages)\b", text[start:end], re.I
    ):
        counted = re.match(r"\s*([^\W\d_]+)", after)
        return _AGE_IN.get(counted.group(1).casefold(), "age") if counted else "age"
    if _AGE_AFTER_RE.match(after):
        return "age"
    inside_years = re.search(r"\byears?\b", text[start:end], re.I)
    if (inside_years or re.match(r"\s*years?\b", after, re.I)) and _PEOPLE_RE.search(
        text[max(0, start - 40) : start]
    ):
        return "age"
    for word in re.findall(r"[^\W\d_]+|[€$£%]", after)[:1] + re.findall(
        r"[^\W\d_]+|[€$£%]", text[start:end]
    ):
        unit = UNITS.get(word.casefold())
        if unit is not None:
            return unit
    before = re.findall(r"[€$£]|[^\W\d_]+", text[max(0, start - 5) : start])
    if before and before[-1].casefold() in UNITS:
        return UNITS[before[-1].casefold()]
    # "children under 4", "passengers over 65": a bound right after people is an age
    return "age" if _PEOPLE_RE.search(text[max(0, start - 14) : start]) else None


@functools.lru_cache(maxsize=4096)
def ranges(text: str) -> tuple[Range, ...]:
    """Every range ``text`` states, in order of where it starts.

    Read: "between A and B" (either way round), "from A to B", "A–B", "aged A and B" (both
    ends included);
    "over A", "more than A" (A excluded), "at least A", "A or over" (A included); "under B",
    "less than B" (excluded), "up to B", "at most B", "within B" (ac012, held-out set 28), "B or
    under" (included); and a lower bound closed by an upper one in the same phrase, "over 8 and
    up to 12 metres". A number
    of a clock time ("10:00 to 16:00") is no bound.
    """
    text = text or ""
    found: list[Range] = []
    taken: list[tuple[int, int]] = []

    def add(low: float | None, ls: bool, high: float | None, hs: bool, s: int, e: int) -> None:
        if any(s < b and a < e for a, b in taken):
            return
        if low is not None and high is not None and low > high:
            return
        taken.append((s, e))
        found.append(Range(low, ls, high, hs, _unit(text, s, e), s, e))

    for rx in (_BETWEEN_RE, _AGED_AND_RE, _SPAN_RE):
        for m in rx.finditer(text):
            a, b = _number(m.group(1)), _number(m.group(2))
            # "between 48 and 24 hours before the start" (f017, set 18); not "between 24
            # June and 9 August", whose first number counts something else
            if rx is _BETWEEN_RE and re.fullmatch(r"\s+and\s+", text[m.end(1) : m.start(2)]):
                a, b = min(a, b), max(a, b)
            add(a, True, b, True, m.start(), m.end())
    lows = [(m, _number(m.group(m.lastindex or 0))) for m in _LOWER_RE.finditer(text)]
    highs = [(m, _number(m.group(m.lastindex or 0))) for m in _UPPER_RE.finditer(text)]
    for low, a in lows:
        closing = [
            (m, b)
            for m, b in highs
            if m.start() >= low.end() and _JOIN_RE.match(text[low.end() : m.start()])
        ]
        if closing:
            high, b = closing[0]
            add(a, low.group("shut") is not None, b, high.group("shut") is not None,
                low.start(), high.end())  # fmt: skip
    for low, a in lows:
        add(a, low.group("shut") is not None, None, False, low.start(), low.end())
    for high, b in highs:
        add(None, False, b, high.group("shut") is not None, high.start(), high.end())
    for m in _OR_MORE_RE.finditer(text):
        n = _number(m.group(1))
        if m.group("way").casefold() in ("over", "older", "more", "above", "upwards"):
            add(n, True, None, False, m.start(), m.end())
        else:
            add(None, False, n, True, m.start(), m.end())
    return tuple(sorted(found, key=lambda r: r.start))


@functools.lru_cache(maxsize=1024)
def labelled_bounds(text: str) -> tuple[Range, ...]:
    """The bounds ``text`` names by a label: "Shortest booking: 2 hours" (at least 2 hours).

    Not among :func:`ranges`: a row's "Longest hire: 2 days" bounds the hire, not the price
    per day beside it, so it licenses no "half a day" in a claim (ae014, held-out set 30); it
    only tells the relevance check that "three hours" is a booking the row allows (aq004).
    """
    text = text or ""
    lows = [(_number(m.group(1)), None, m) for m in _LABEL_LOW_RE.finditer(text)]
    highs = [(None, _number(m.group(1)), m) for m in _LABEL_HIGH_RE.finditer(text)]
    return tuple(
        Range(low, low is not None, high, high is not None, _unit(text, m.start(), m.end()),
              m.start(), m.end())
        for low, high, m in lows + highs
    )  # fmt: skip


def holds(
    text: str,
    number: str,
    unit: str | None,
    *,
    strict: bool = False,
    every: bool = False,
    labelled: bool = False,
) -> bool:
    """Whether ``text`` states a range that holds ``number`` in a compatible unit.

    Args:
        text: The sentence(s).
        number: A canonical number (:func:`~disputatio.validators.sentences.stated_numbers`).
        unit: Its canonical unit, or None.
        strict: Units must be equal; otherwise a number or a range without a unit is
            compatible with any (the judge reads what the number counts).
        every: Every compatible range must hold it, not one: "groups of 4 to 14 people. Groups
            of 4 to 6 people pay 330 EUR" does not price a group of 9 (b022, held-out set 15).
        labelled: Read the bounds named by a label too (:func:`labelled_bounds`).
    """
    try:
        value = float(number)
    except ValueError:
        return False
    if math.isnan(value):
        return False
    verdicts = [r.holds(_value_in(value, unit, r)) for r in _in_unit(text, unit, strict, labelled)]
    return bool(verdicts) and (all(verdicts) if every else any(verdicts))


def _value_in(value: float, unit: str | None, r: Range) -> float:
    """``value`` (of ``unit``) in ``r``'s unit: "three weeks" against "14 days or more"."""
    other = converted(value, unit, r.unit) if unit != r.unit else None
    return value if other is None else other


def _in_unit(
    text: str, unit: str | None, strict: bool = False, labelled: bool = False
) -> list[Range]:
    """The ranges of ``text`` in a unit compatible with ``unit`` (see :func:`holds`).

    A stretch of time is compatible with a range in another unit of its family (weeks with
    days: :func:`~disputatio.validators.durations.converted`).
    """
    raw, unit = unit, _AS_AGE.get(unit, unit)  # "70 years old" is an age; so is "13 weeks old"
    out = []
    for r in ranges(text) + (labelled_bounds(text) if labelled else ()):
        have = _AS_AGE.get(r.unit, r.unit)
        if (
            have == unit
            or not (strict or (have is not None and unit is not None))
            or converted(1.0, raw, r.unit) is not None
        ):
            out.append(r)
    return out


def in_window_terms(claim: str, window: str, given: Collection[tuple[str, str | None]]) -> str:
    """``claim`` with each number of the asker's case put as the window's range states it.

    "A cake for *14* guests costs 52 EUR" on "A 24 cm round cake for over 10 and up to 16
    people costs 52 EUR" becomes "A cake for *over 10 and up to 16* guests costs 52 EUR". The
    guard has checked the range holds the number (:func:`holds`); the judge is asked about the
    rest. Asked as written, the 1.5B judge gave the claim P(yes) 0.40, restated 0.91 (b010,
    held-out set 15; docs/grounding.md).

    Args:
        claim: The claim.
        window: Its evidence window.
        given: The numbers the question states (with units).

    Returns:
        The restated claim, or ``claim`` when no number of it is the asker's.
    """
    stated = {n for n, _ in stated_numbers(window)}
    out = claim
    for number, unit in stated_numbers(claim):
        if (number, unit) not in given or number in stated:
            continue
        if not holds(window, number, unit, every=True):
            continue
        held = [r for r in _in_unit(window, unit) if r.holds(_value_in(float(number), unit, r))]
        text = window[held[0].start : held[0].end]
        span = stretch_of(out, number, unit) if held[0].unit != unit else None
        if span is not None:  # "three weeks" as "14 days or more": the range's unit
            out = out[: span[0]] + text + out[span[1] :]
            continue
        out = re.sub(rf"(?<![\d.,]){re.escape(number)}(?![\d]|[.,]\d)", text, out, count=1)
    return out


_AGE_WORDS = "one two three four five six seven eight nine ten eleven twelve".split()
_ASKER_AGE_RE = re.compile(
    rf"\b(?:i\s+am|i'm|is|are|aged?)\s+{_NUM}(?:\s*(?:years?|yrs?)(?:\s+old)?)?"
    r"(?=\s*(?:[.,;!?]|and\b|$))"
    rf"|\b(?P<n>\d+(?:[.,]\d+)?|{'|'.join(_AGE_WORDS)})[\s-]*(?P<u>years?|yrs?|months?|weeks?)"
    r"[\s-]*old\b",
    re.I,
)


def asker_age(question: str) -> float | None:
    """The age a question gives, in years ("I am 15.", "our 7-year-old", "five months old")."""
    m = _ASKER_AGE_RE.search(question or "")
    if not m:
        return None
    if m.group("n") is None:
        return _number(next(g for g in m.groups() if g))
    raw = m.group("n").casefold()
    value = float(_AGE_WORDS.index(raw) + 1) if raw in _AGE_WORDS else _number(raw)
    unit = m.group("u").casefold()
    return value / (12.0 if unit.startswith("month") else 52.18 if unit.startswith("week") else 1)


def given_numbers(question: str) -> frozenset[tuple[str, str | None]]:
    """The numbers ``question`` states, with the asker's age also as years.

    "I'm 67" states 67 with no unit; a claim restating it says "67 years old" (af001,
    held-out set 31).
    """
    given = set(stated_numbers(question or ""))
    age = asker_age(question)
    if age is not None:
        given |= set(stated_numbers(f"{age:g} years"))
    return frozenset(given)


def said_age(question: str) -> str:
    """The words a question gives the asker's age in ("five months old", "I am 15")."""
    m = _ASKER_AGE_RE.search(question or "")
    return m.group(0).strip() if m else ""


def _in_years(r: Range) -> Range:
    """An age range with its bounds in years."""
    per = AGE_YEARS[r.unit or "age"]
    low = None if r.low is None else r.low / per
    high = None if r.high is None else r.high / per
    return Range(low, r.low_shut, high, r.high_shut, "age", r.start, r.end)


def fits_age(text: str, age: float) -> bool:
    """Whether an age range of ``text`` holds ``age`` (years)."""
    return any(_in_years(r).holds(age) for r in ranges(text) if r.unit in AGE_YEARS)


def excludes_age(text: str, age: float) -> Range | None:
    """An age range of ``text`` that does not hold ``age`` (years), when none of them does.

    Ages in weeks or months are compared in years: a puppy "five months old" is not one of
    the "puppies aged 10 to 18 weeks".
    """
    ages = [r for r in ranges(text) if r.unit in AGE_YEARS]
    if not ages or fits_age(text, age):
        return None
    return ages[0]
