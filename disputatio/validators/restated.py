"""A claim's number the window states another way, or does not state at all.

The first guard of :func:`~disputatio.validators.guards.guard`: every number of a claim must be
in its window with the same unit, unless the window says it another way: an identifier ("the
checkpoint 1" for "Checkpoint 1"), a named range ("Grade 4" in "Grades 3 to 5"), the asker's
case inside a range, a stretch of time in other units ("2 years" for "24 months"), one thing
for a price per thing or a thing named with no count ("one full day" for "full day"), a count
the window says does not matter ("however many children"). A count is no price ("8 seats" on
"8 GBP").

Lexical; no model call.
"""

from __future__ import annotations

import re
from collections.abc import Collection

from disputatio.validators.contacts import address_unstated
from disputatio.validators.dated import date_unstated
from disputatio.validators.durations import UNITS as TIME_UNITS
from disputatio.validators.durations import same_duration
from disputatio.validators.ranges import holds
from disputatio.validators.sentences import (
    STOPWORDS,
    YEAR_RE,
    stated_numbers,
    stem,
    word_matches,
    words,
)
from disputatio.validators.times import COLON_TIME_RE, colon_times
from disputatio.validators.totals import computed, counted_each
from disputatio.validators.units import MONEY


def number_missing(
    claim: str,
    window: str,
    context: str = "",
    given: Collection[tuple[str, str | None]] = (),
) -> str:
    """Why a number of ``claim`` is not ``window``'s, or ``""`` (arguments as ``guard``'s)."""
    stated = stated_numbers(window)
    by_number: dict[str, set[str | None]] = {}
    for number, unit in stated:
        by_number.setdefault(number, set()).add(unit)
    named = set(re.findall(r"\d+", context))  # identifiers: "Incident 2291", "report_2291"
    totals = computed(claim, window, given)  # "three lessons … 15.00 GBP each, 45.00 GBP"
    each = counted_each(claim, window, given)  # "6.50 GBP each for the three arrows"
    for number, unit in stated_numbers(claim):
        if number in totals and (unit in MONEY or number not in by_number):
            continue  # the asker's count, or the count times the sentence's amount (ap024)
        if number in each and unit is None and number not in by_number:
            continue  # the asker's count, beside the sentence's amount of one item (aw005)
        if number not in by_number:
            year = _other_year(number, by_number) if unit is None else ""
            if year:
                return f"the year {number} where the sentence says {year}"
            if unit is None and (number in named or identifier_in(claim, window, number)):
                continue
            if (number, unit) in given and holds(window, number, unit, every=True):
                continue  # the asker's case, inside the window's range
            if number == "1" and one_per(claim, window):
                continue  # "one night costs 350 NOK" on "pays 350 NOK per night"
            if unit is None and any_count(claim, window, number):
                continue  # "the fee for three children" on "however many children you register"
            if unit is None and _same_time(claim, window, number):
                continue  # "07:30" on "Friday 07:30", where the day names the hour (ac008)
            if unit in TIME_UNITS and same_duration(claim, window, number):
                continue  # "for 2 years" on "for 24 months"
            return f"the number {number} is not in the sentence"
        units = by_number[number]
        shown = ", ".join(sorted(u for u in units if u))
        if unit is not None and unit not in units and None not in units:
            return f"{number} {unit} where the sentence says {number} {shown}"
        if unit is not None and unit not in units and _only_clock(window, number, stated):
            return f"{number} {unit} where the sentence's {number} is a clock time"
        if unit is None and units <= MONEY and _counts(claim, number):
            return f"the claim counts {number} of something; the sentence says {number} {shown}"
    return (
        date_unstated(claim, window, {n for n, _ in given})  # "June 21" on "21 August"
        or address_unstated(claim, window)  # an email address the sentence does not give
    )


def _other_year(number: str, stated: Collection[str]) -> str:
    """The window's own year when the claim's ``number`` is another year, else ``""``.

    A heading's "SCHOOL YEAR 2025 TO 2026" does not lend "the autumn term 2026" to a sentence
    that dates the autumn term 2025 (ai025, held-out set 34).
    """
    if not YEAR_RE.fullmatch(number):
        return ""
    return next((n for n in sorted(stated) if YEAR_RE.fullmatch(n) and n != number), "")


#: A clock time written with a dot and "am" or "pm" ("6.00 pm"), which
#: :func:`stated_numbers` gives as one bare number (6).
_DOT_TIME_RE = re.compile(r"(?<![\d.])(\d{1,2}\.\d{2})\s*[ap]\.?m\b", re.I)


def _only_clock(window: str, number: str, stated: tuple[tuple[str, str | None], ...]) -> bool:
    """Whether each bare ``number`` of the window is a clock time's hour or minutes.

    "from 10:00 am to 3:00 pm each day" states no 3 that "three days" could be (ai026,
    held-out set 34): :func:`stated_numbers` gives a clock time's hour and minutes as bare
    numbers, and "6.00 pm" as 6.
    """
    if not number.isdigit():
        return False
    bare = sum(1 for n, u in stated if n == number and u is None)
    clock = sum(
        (int(h) == int(number)) + (int(m) == int(number)) for h, m in COLON_TIME_RE.findall(window)
    )
    # "4.30 pm to 6.00 pm" states no 6 that "the 6-week summer term" could be (au034, set 46)
    clock += sum(float(t) == int(number) for t in _DOT_TIME_RE.findall(window))
    return bare <= clock


def _same_time(claim: str, window: str, number: str) -> bool:
    """Whether the claim's ``number`` is the hour of a clock time the window states too.

    "Monday to Friday 07:30 to 19:00" reads "Friday 07" as a name (:func:`stated_numbers`), so
    its hour is no number of the window; the time itself is there all the same.
    """
    shared = colon_times(claim) & colon_times(window)
    return number.isdigit() and any(hour == int(number) for hour, _ in shared)


def identifier_in(claim: str, window: str, number: str) -> bool:
    """Whether the claim's ``number`` is, with the word before it, an identifier of the window.

    "The checkpoint 1 opens at 04:15" names "Checkpoint 1 in Terminal A opens at 04:15": the
    window's capitalised "Checkpoint 1" is a name, not an amount (:func:`stated_numbers`), and
    the claim's lower-case copy of it is no number the window must state (v017, held-out set 9).
    """
    for m in re.finditer(rf"\b([^\W\d_]+)\s+{re.escape(number)}\b", claim):
        word = m.group(1)
        if re.search(
            rf"\b{re.escape(word[:1].upper() + word[1:])}\s+{re.escape(number)}\b", window
        ):
            return True
    return False


def named_in_range(name: str, evidence: str) -> bool:
    """Whether a named number ("grade 4") is in a range ``evidence`` names alike ("Grades 3 to 5").

    "The exam fee for Grade 4 cello is 62 GBP" restates "… 62 GBP for Grades 3 to 5" (c019,
    held-out set 19).
    """
    m = re.fullmatch(r"([^\W\d_]+) (\d+)", name)
    if m is None:
        return False
    word, number = m.group(1), int(m.group(2))
    bounds = rf"\b{re.escape(word)}s?\s+(\d+)\s*(?:to|-|–|and)\s*(\d+)\b"
    return any(int(a) <= number <= int(b) for a, b in re.findall(bounds, evidence, re.I))


def one_per(claim: str, window: str) -> bool:
    """Whether the claim's "one <thing>" is the window's "per <thing>" ("a", "each", "every").

    "One night in the guest harbour costs 350 NOK" restates "A boat … pays 350 NOK per night"
    (a001, held-out set 14): a price per thing is the price of one. So is a thing the window
    names with no count before it: "one full day of holiday camp … 38.00 GBP" on the row
    "| Holiday camp, full day | Millpond | … | 38.00 GBP |" (ab003, held-out set 27); "two
    adults" does not restate "one adult".
    """
    for m in re.finditer(r"\bone\s+([^\W\d_]+)", claim, re.I):
        thing = stem(m.group(1).casefold())
        for w in re.finditer(r"\b(?:per|a|an|each|every)\s+([^\W\d_]+)", window, re.I):
            if stem(w.group(1).casefold()) == thing:
                return True
        if _named_uncounted(claim[m.end(1) :], thing, window):
            return True
    return False


def _named_uncounted(rest: str, thing: str, window: str) -> bool:
    """Whether ``window`` names, with no count before it, the phrase of ``thing`` and ``rest``.

    The phrase is ``thing`` (a stem) and the words of ``rest`` up to the first small word: at
    least two words ("full day", not "adult"), each occurrence of it uncounted and a whole
    name, not the modifier of another noun ("Electric bike service, 70.00 GBP" names no
    electric bike's price: ac001, held-out set 28).
    """
    if thing in STOPWORDS:
        return False  # "one is made by …": "one" stands for a thing named before
    phrase = [thing]
    for tok in words(rest)[:2]:
        if tok.casefold() in STOPWORDS or stated_numbers(tok):
            break
        phrase.append(stem(tok.casefold()))
    found = word_matches(window)
    toks = [stem(m.group(0).casefold()) for m in found]
    for n in range(len(phrase), 1, -1):  # the longest the window holds: "electric bike costs"
        held = [i for i in range(len(toks) - n + 1) if toks[i : i + n] == phrase[:n]]
        if held:
            return all(
                not (i and _counted_by(found[i - 1].group(0))) and _ends_name(window, found, i + n)
                for i in held
            )
    return False


def _ends_name(window: str, found: list[re.Match[str]], after: int) -> bool:
    """Whether the phrase ending before word ``after`` of ``window`` ends a name there."""
    if after >= len(found):
        return True
    gap = window[found[after - 1].end() : found[after].start()]
    following = found[after].group(0).casefold()
    return bool(gap.strip()) or following in STOPWORDS or bool(stated_numbers(following))


#: Words that count what follows them, as a number does ("a second birth partner").
_COUNTING = frozenset(
    "another other both several many some all extra additional more few multiple further "
    "second third fourth fifth".split()
)


def _counted_by(word: str) -> bool:
    """Whether ``word``, right before a thing, counts it ("two", "12", "second", "both")."""
    return bool(stated_numbers(word)) or word.casefold() in _COUNTING


#: A count the window says does not matter: "however many children you register", "no matter
#: how many guests", "any number of bags"; the group is the thing counted.
_ANY_COUNT_RE = re.compile(
    r"\b(?:however\s+many|no\s+matter\s+how\s+many|regardless\s+of\s+how\s+many|"
    r"any\s+number\s+of)\s+([^\W\d_]+)",
    re.I,
)


def any_count(claim: str, window: str, number: str) -> bool:
    """Whether the claim's ``number`` counts a thing whose count the window says does not matter.

    "The registration fee for three children is 20 GBP" restates "Each family pays a one-off
    registration fee of 20 GBP, however many children you register." (ab042, held-out set 27).
    """
    counted = {stem(m.group(1).casefold()) for m in _ANY_COUNT_RE.finditer(window)}
    if not counted:
        return False
    toks = words(claim)
    return any(
        stem(toks[i + 1].casefold()) in counted
        for i in range(len(toks) - 1)
        if [n for n, _ in stated_numbers(toks[i])] == [number]
    )


def _counts(claim: str, number: str) -> bool:
    """Whether ``claim`` writes ``number`` before a noun it counts ("8 seats", "4 spaces").

    Set 20's t043: "There are 8 seats in the upper circle" was lifted on the price row "| Band
    C (upper circle) | 8 GBP | 11 GBP | …": a count is no price. (Only against money: a
    sentence's units of time are read from words like "weekly", "11 weekly lessons".)
    """
    return bool(re.search(rf"(?<![\d.,:]){re.escape(number)}\s+[^\W\d_]{{3,}}s\b", claim))
