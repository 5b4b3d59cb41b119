"""A number or a dimension of the question that the evidence gives another value or kind of.

Rules of the relevance check (:func:`~disputatio.validators.relevance.off_question`): asked
what the pack lasts *at 8 Hz*, the sentence *at 4 Hz* answers another question; asked how
*wide* a pool is, the sentence saying how *long* it is does too; a number the question labels
("EU size 24") outside a range the evidence labels alike answers no question of the asker's
(:func:`labelled_contrast`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from disputatio.validators.asked import asks_age, is_yes_no_question
from disputatio.validators.ranges import (
    asker_age,
    excludes_age,
    fits_age,
    holds,
    ranges,
    said_age,
)
from disputatio.validators.sentences import STOPWORDS, UNITS, stated_numbers, stem, words

#: "the first hour": a count of a unit by its ordinal (what it costs is that one unit's).
_ORDINAL_RE = re.compile(r"\bthe\s+(first|second|third)\s+([^\W\d_]+)", re.I)
_ORDINALS = {"first": "1", "second": "2", "third": "3"}


def _ordinals(evidence: str) -> list[tuple[str, str]]:
    """``(number, unit)`` of each "the first <unit>" of ``evidence`` ("the first hour": 1 hour)."""
    out = []
    for m in _ORDINAL_RE.finditer(evidence):
        unit = UNITS.get(m.group(2).casefold())
        if unit is not None:
            out.append((_ORDINALS[m.group(1).casefold()], unit))
    return out


#: How a question gives the size of the asker's group: "four of us", "a team of 6".
_PARTY_RE = re.compile(
    r"\b(?:(\w+)\s+of\s+us\b"
    r"|(?:group|party|team|family)\s+of\s+(\w+)(?![\w-])"  # not "a group of three-year-olds"
    r"|we\s+are\s+(\w+)\s+(?:people|persons)\b)",
    re.I,
)


def party_size(question: str) -> float | None:
    """How many people the asker's group is ("There are four of us" → 4), or None."""
    for m in _PARTY_RE.finditer(question or ""):
        token = next(g for g in m.groups() if g)
        numbers = [n for n, unit in stated_numbers(token) if unit is None]
        if numbers:
            return float(numbers[0])
    return None


def _party_contrast(
    question: str, given: Sequence[tuple[str, str | None]]
) -> tuple[str, str] | None:
    """A group larger than every number of people the evidence gives, which no range holds.

    "There are four of us … our own office" is not answered by "| Private office for 2 people |
    780 GBP |" (i022, held-out set 24); a room that seats 10 takes a group of 9.
    """
    party = party_size(question)
    sizes = [float(n) for n, unit in given if unit == "person"]
    if party is None or not sizes or party <= max(sizes):
        return None
    return f"{party:g} people", f"{max(sizes):g} people"


#: The sentences of a question ("My son is 24 … . Is he allowed to drive it?").
_SENTENCE_END_RE = re.compile(r"(?<=[.?!])\s+")


def held_age(question: str) -> float | None:
    """The asker's age that a sentence must hold to answer ``question``, or None.

    None when the question gives no age, asks an age ("I'm 17. What is the minimum age?"), or
    asks yes or no: "My son is 24 … Is he allowed to drive it?" is answered by "Drivers … must
    be aged 25 to 75", the range leaving him out (j007, held-out set 25).
    """
    if asks_age(question) or any(map(is_yes_no_question, _SENTENCE_END_RE.split(question))):
        return None
    return asker_age(question)


#: A number a rate is counted per ("for each started 30 minutes", "per 2 hours"): any amount
#: of the asker's is charged by it (ac006, held-out set 28).
_RATE_RE = re.compile(r"\b(?:each|every|per)\s+(?:started\s+|full\s+|extra\s+)?(\d+)\b", re.I)


def number_contrast(question: str, evidence: str, rows: str = "") -> tuple[str, str] | None:
    """A number of ``question`` (with its unit) the evidence gives another value for.

    "How long does the pack last when sampling at 8 Hz?" is not answered by "at 4 Hz": the
    question states a condition as a number, the evidence states the same unit with another
    number and never the question's, nor a range holding it. So with the asker's age: "I am
    15. Which course can I join?" is not answered by "The Little Bakers course is for children
    aged 6 to 9" (b013, held-out set 15), whose ages do not hold 15
    (:mod:`disputatio.validators.ranges`), unless the question asks for the age itself ("I'm
    17. What is the minimum age?": "at least 18" answers it).

    A table row's bound is read with its header: "3 hours" lies in "| Studio | … | 2 hours |"
    whose column is "Shortest booking" (aq004, held-out set 42).

    Args:
        question: The question.
        evidence: The sentence(s) that support the claim.
        rows: The evidence's table rows read with their headers, where it has any.

    Returns:
        ``("8 hz", "4 hz")``-like pairs, or None.
    """
    given = (*stated_numbers(evidence), *_ordinals(evidence))
    numbers = {n for n, _ in given}
    rates = set(_RATE_RE.findall(evidence))  # "5.00 GBP for each started 30 minutes"
    for number, unit in stated_numbers(question):
        if (
            unit is None
            or number in numbers
            or holds(evidence, number, unit, strict=True)
            or holds(rows, number, unit, strict=True, labelled=True)
        ):
            continue  # stated, or inside a range the evidence gives ("over 8 and up to 12 m")
        others = sorted({n for n, u in given if u == unit} - rates)
        if others:
            return f"{number} {unit}", f"{others[0]} {unit}"
    party = _party_contrast(question, given)
    if party is not None and not holds(evidence, party[0].split()[0], "person", strict=True):
        return party
    # "I'm 17. What is the minimum age?" is answered by the age range that leaves them out
    age = held_age(question)
    outside = excludes_age(evidence, age) if age is not None else None
    if age is not None and outside is not None:
        return said_age(question), evidence[outside.start : outside.end]
    return labelled_contrast(question, evidence)


#: Dimensions of a thing, by the words that name or measure them.
_DIMENSION = {
    **dict.fromkeys(("wide", "width", "broad", "breadth"), "width"),
    **dict.fromkeys(("deep", "depth"), "depth"),
    **dict.fromkeys(("high", "height", "tall"), "height"),
    **dict.fromkeys(("long", "length"), "length"),
}
#: How a question asks a dimension: "how wide", "what width" ("how long" may ask a time).
_ASKED_DIMENSION_RE = re.compile(
    r"\bhow\s+(wide|broad|deep|high|tall)\b|\b(width|breadth|depth|height|length)\b", re.I
)
#: A measure with its dimension: "25 metres long", "120 cm wide".
_MEASURED_RE = re.compile(r"\d[\d.,]*\s*(?:[^\W\d_]+\s+)?(long|wide|broad|deep|high|tall)\b", re.I)


def dimension_contrast(question: str, evidence: str) -> tuple[str, str] | None:
    """A dimension ``question`` asks that the evidence measures another of, never this one.

    "How wide is the Competition Pool?" is not answered by "The Competition Pool is 25 metres
    long" (r002, held-out set 7), nor a scooter's maximum width by "scooters up to 120 cm
    long" (p024, set 5).

    Returns:
        ``("width", "length")``-like pairs, or None.
    """
    asked = {
        _DIMENSION[w.casefold()]
        for m in _ASKED_DIMENSION_RE.finditer(question)
        for w in m.groups()
        if w
    }
    measured = {_DIMENSION[m.group(1).casefold()] for m in _MEASURED_RE.finditer(evidence)}
    if not asked or not measured:
        return None
    named = {_DIMENSION[t.casefold()] for t in words(evidence) if t.casefold() in _DIMENSION}
    if asked & (measured | named):
        return None
    return sorted(asked)[0], sorted(measured)[0]


#: A figure priced for a case: "9.00 GBP per week for stays of 12 weeks or more", up to the
#: clause's end (the condition is its second group).
_CASE_FIGURE_RE = re.compile(
    r"(\d[\d.,]*\s*(?:[^\W\d_]+)?(?:\s+(?:per|a|an|each)\s+[^\W\d_]+)?)\s+"
    r"(?:for|if|when|with|on)\s+([^,;.()]*?\d[^,;.()]*?)"
    r"(?=[,;.()]|\s+(?:or|and)\s(?!more|over|less|longer|older|younger|under|fewer)|$)",
    re.I,
)


def case_figure(question: str, claim: str, evidence: str) -> tuple[str, str] | None:
    """The figure the evidence gives for the asker's case, where the claim states another.

    "I'll be with you for 16 weeks. How much is the cover per week for me?" is not answered by
    "The cover costs 12.00 GBP per week", whose sentence goes on "…, or 9.00 GBP per week for
    stays of 12 weeks or more" (ad035, held-out set 29): the condition holds the asker's 16
    weeks, and the claim gives the other figure of that unit.

    Returns:
        ``(the case's figure, the claim's)``, or None.
    """
    asked = [(n, u) for n, u in stated_numbers(question) if u is not None]
    if not asked:
        return None
    said = set(stated_numbers(claim))
    for m in _CASE_FIGURE_RE.finditer(evidence):
        figure = stated_numbers(m.group(1))[:1]
        if not figure or figure[0] in said or figure[0][1] is None:
            continue
        if not any(holds(m.group(2), n, u, strict=True) for n, u in asked):
            continue
        other = sorted(n for n, u in said if u == figure[0][1])
        if other:
            return f"{figure[0][0]} {figure[0][1]}", f"{other[0]} {figure[0][1]}"
    return None


def not_for_the_asker(question: str, aside: Sequence[str], kept: Sequence[str]) -> str:
    """Why the claims kept do not answer for the asker, whose age a set-aside sentence excludes.

    Asked "My puppy is five months old. How much would your dog training course cost for
    him?", the sentence "The Puppy Foundation course is for puppies aged 10 to 18 weeks" is
    set aside (:func:`number_contrast`), but "The course costs 95 GBP" would still answer: for
    a course the puppy may not join (d018, held-out set 16; b013, set 15). When a sentence was
    set aside for the asker's age and no kept sentence gives an age range holding it, the kept
    claims describe what the asker is not covered by.

    Args:
        question: The question.
        aside: The evidence of the claims set aside.
        kept: The evidence of the claims kept.

    Returns:
        The reason, or ``""``.
    """
    age = held_age(question)
    if age is None or not any(excludes_age(e, age) for e in aside):
        return ""
    if any(fits_age(e, age) for e in kept):
        return ""
    return f"what it describes is for other ages than {said_age(question)!r}"


#: A number the question labels by the words before it: "EU size 24", "platform 3".
_LABELLED_RE = re.compile(r"((?:[^\W\d_]+\s+){1,2})(\d+(?:[.,]\d+)?)(?![\d:.,]*\d)")


def _label(text: str) -> frozenset[str]:
    return frozenset(stem(w.casefold()) for w in words(text) if w.casefold() not in STOPWORDS)


def labelled_contrast(question: str, evidence: str) -> tuple[str, str] | None:
    """A unitless number of ``question`` outside a range the evidence labels the same way.

    "My son wears EU size 24 climbing shoes. How much is shoe hire for him?" is not answered
    by "| Climbing shoes, children | EU 26 to 35 | 40 NOK |" (e024, held-out set 17): no unit
    ties 24 to the sizes, but the word before it ("EU") stands before the range too, and the
    range does not hold 24.

    Returns:
        ``("EU size 24", "26 to 35")``-like pairs, or None.
    """
    unitless = {n for n, u in stated_numbers(question) if u is None}
    for m in _LABELLED_RE.finditer(question):
        label = _label(m.group(1))
        if m.group(2) not in unitless or not label:
            continue
        value = float(m.group(2).replace(",", "."))
        for r in ranges(evidence):
            before = " ".join(words(evidence[max(0, r.start - 16) : r.start])[-2:])
            if label & _label(before) and not r.holds(value):
                return f"{m.group(1).strip()} {m.group(2)}", evidence[r.start : r.end]
    return None
