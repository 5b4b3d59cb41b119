"""Totals a claim computes: the question's count times an amount its sentence states.

"My son is a Junior Member. How much will three 45-minute one-to-one lessons come to?" was
answered "The cost of three 45-minute one-to-one lessons for Junior Members is 15.00 GBP each,
totaling 45.00 GBP." on the table row "One-to-one | 45 minutes | 15.00 GBP | 22.00 GBP" (ap024,
held-out set 41), and refused: "the number 3 is not in the sentence". No sentence states a
total the asker's count makes; over every set's latest records, 12 right totals of the 1.5B
were refused so (``benchmarks/grounding_sums.py``).

A money amount of the claim that its window does not state stands when it is a number the
question states times a money amount the window states (to the penny), and the question's
number then stands in the claim too (:func:`computed`). The judge is asked about the claim
without its total (:func:`without_total`): it reads sentences, not arithmetic; the guards have
checked the sum. Lexical; no model call.
"""

from __future__ import annotations

import re
from collections.abc import Collection

from disputatio.validators.sentences import stated_numbers
from disputatio.validators.units import MONEY, MONEY_AMOUNT

_AMOUNT_RE = re.compile(MONEY_AMOUNT, re.I)
#: Words that introduce a total before its amount: ", totaling 45.00 GBP", ", 45.00 GBP in all".
_LEAD = (
    r"(?:,\s*|\s+)(?:and\s+|so\s+|which\s+)?(?:(?:comes?\s+to|coming\s+to|makes?|making|"
    r"totall?ing|totals?|for\s+a\s+total\s+of|a\s+total\s+of|in\s+total|altogether)\s+)+"
)
_TAIL = r"(?:\s+(?:in\s+total|in\s+all|altogether))?"


def _value(number: str) -> float | None:
    try:
        return float(number.replace(",", ""))
    except ValueError:
        return None


def computed(claim: str, window: str, given: Collection[tuple[str, str | None]]) -> dict[str, str]:
    """The claim's numbers a computed total accounts for, each with how ("3 × 15 GBP").

    A money amount of ``claim`` that ``window`` does not state as money, equal to a number of
    ``given`` (the question's, not an amount of money) times a money amount of ``window``;
    and that number of the question. Empty when there is none.
    """
    if not given:
        return {}
    stated = stated_numbers(window)
    amounts = {n: _value(n) for n, u in stated if u in MONEY}
    counts = {n: _value(n) for n, u in given if u not in MONEY}
    out: dict[str, str] = {}
    for total, unit in stated_numbers(claim):
        value = _value(total)
        if unit not in MONEY or total in amounts or value is None:
            continue
        for count, times in counts.items():
            for amount, each in amounts.items():
                if times and each is not None and abs(times * each - value) < 0.005:
                    how = f"{count} × {amount} {unit.upper()}"
                    out.setdefault(total, how)
                    out.setdefault(count, how)
    return out


#: What follows an amount of one item: "6.50 GBP each", "per arrow", "an arrow", "a head";
#: not of a stretch of time ("20.00 GBP a year" is no price of one of the asker's things).
_EACH_RE = re.compile(
    r"\s*(?:each|apiece|a\s+piece|(?:per|an?)\s+(?!(?:year|month|week|day|hour|minute|night|"
    r"term|season|session|time|visit)s?\b)[^\W\d_]+)\b",
    re.I,
)


def counted_each(
    claim: str, window: str, given: Collection[tuple[str, str | None]]
) -> frozenset[str]:
    """The question's counts ``claim`` restates beside an amount of one item of ``window``.

    "I lost three of the club's arrows …" answered "The club will charge you 6.50 GBP each for
    the three arrows" on "Club arrows that are lost or broken are charged at 6.50 GBP each"
    (aw005, held-out set 48): the 3 is the asker's, and the amount is one arrow's, as the
    claim says ("each"). Empty when the claim states no amount its window states for one item.
    """
    counts = {n for n, u in given if u not in MONEY}
    if not counts:
        return frozenset()
    each = {_value(n) for n in _amounts(claim, each=True)}
    if not each & {_value(n) for n in _amounts(window, each=True)}:
        return frozenset()
    return frozenset(counts)


def _amounts(text: str, each: bool = False) -> list[str]:
    """The money amounts of ``text``; with ``each``, only those of one item ("… each")."""
    out = []
    for m in _AMOUNT_RE.finditer(text):
        if each and not _EACH_RE.match(text, m.end()):
            continue
        out.append((m.group("before") or m.group("after") or "").replace(",", ""))
    return out


def without_total(claim: str, window: str, given: Collection[tuple[str, str | None]]) -> str:
    """``claim`` without the clause stating its computed total, for the judge; else ``claim``.

    "… is 15.00 GBP each, totaling 45.00 GBP." → "… is 15.00 GBP each." A total the claim
    states alone is put as its sum: "The hanging fees for four prints come to 12.00 GBP." →
    "… come to 4 × 3 GBP." (aq022, held-out set 42: the judge reads the sentence's "3.00 GBP
    a print", not arithmetic).
    """
    money = {n for n, u in stated_numbers(claim) if u in MONEY}  # not the question's count
    sums = {_value(t): how for t, how in computed(claim, window, given).items() if t in money}
    if not sums:
        return claim
    for m in _AMOUNT_RE.finditer(claim):
        number = (m.group("before") or m.group("after") or "").replace(",", "")
        if _value(number) not in sums:
            continue
        lead = re.search(rf"{_LEAD}$", claim[: m.start()], re.I)
        if lead is None:
            continue
        tail = re.match(_TAIL, claim[m.end() :], re.I)
        end = m.end() + (tail.end() if tail else 0)
        rest = f"{claim[: lead.start()]}{claim[end:]}"
        if _AMOUNT_RE.search(rest):  # the amount it multiplies stays: "15.00 GBP each"
            return rest
    return _as_sums(claim, sums)


def _as_sums(claim: str, sums: dict[float | None, str]) -> str:
    """``claim`` with each total of ``sums`` (value → "4 × 3 GBP") put as its sum."""
    for m in reversed(list(_AMOUNT_RE.finditer(claim))):
        how = sums.get(_value(m.group("before") or m.group("after") or ""))
        if how is not None:
            claim = f"{claim[: m.start()]}{how}{claim[m.end() :]}"
    return claim
