"""Amounts listed one after another in one sentence, each for its own labels.

"The exam fee is 42.00 GBP for Primary and Grade 1, 48.00 GBP for Grades 2 and 3, 56.00 GBP for
Grades 4 and 5, and 64.00 GBP for Grade 6 and above." gives 48.00 GBP to Grade 3. Set 34's
ai005 ("How much is the Grade 3 exam fee?") was answered "The exam fee for Grade 3 Tap is 56.00
GBP." on it: "Grade 3" is a name, not an amount (:func:`~.sentences.stated_numbers`), so the
number guard asks nothing of its 3, and the sentence holds the 56.00 GBP.

:func:`other_listed_amount` reads such a sentence as items, one per amount of the claim's unit
(split at commas and semicolons, and at "and"/"or" inside a piece holding two amounts), and
refuses a claim whose amount stands in items that do not hold a number of the claim's label
while another item, with another amount, does (a date's day and a year are no label: "a
deposit of 60 GBP when you book and the balance by 1 July"). A piece without an amount
between two items leaves it unread: which amount it belongs to is not known ("For Grade 1, 42
GBP; for Grade 2, 48 GBP"). Table rows are read by :mod:`~disputatio.validators.tables`.

Lexical; no model call.
"""

from __future__ import annotations

import re

from disputatio.validators.dated import DATE_RE
from disputatio.validators.sentences import (
    YEAR_RE,
    canonical_number,
    split_sentences,
    stated_numbers,
)
from disputatio.validators.tables import is_row

#: A number as written ("48.00", "1,200", "3"), not part of a longer one or a clock time.
_NUMBER_RE = re.compile(r"(?<![\d.,:])\d+(?:[.,]\d+)*(?![\d:]|[.,]\d)")
#: Where a list's pieces part: a comma or semicolon not inside a number.
_PIECE_RE = re.compile(r",(?!\d)|;")
#: Where a piece holding two amounts parts.
_JOIN_RE = re.compile(r"\b(?:and|or)\b")


def _labels(text: str) -> set[str]:
    """The values of the numbers ``text`` writes, but those of dates and years."""
    plain = DATE_RE.sub(" ", text)
    return {canonical_number(t) for t in _NUMBER_RE.findall(plain) if not YEAR_RE.fullmatch(t)}


def _amounts(text: str, unit: str) -> list[str]:
    return [n for n, u in stated_numbers(text) if u == unit]


def _items(sentence: str, unit: str) -> list[tuple[str, set[str]]] | None:
    """``(amount, the item's other numbers)`` per amount in ``unit``; None when not a list.

    None too when a piece without an amount stands between two items.
    """
    pieces: list[str] = []
    for piece in _PIECE_RE.split(sentence):
        if len(_amounts(piece, unit)) > 1:
            pieces.extend(_JOIN_RE.split(piece))
        else:
            pieces.append(piece)
    items: list[tuple[str, set[str]]] = []
    gap = False
    for piece in pieces:
        found = _amounts(piece, unit)
        if len(found) > 1:
            return None
        if not found:
            gap = bool(items)
            continue
        if gap:
            return None
        others = _labels(piece) - {found[0]}
        items.append((found[0], others))
    return items if len(items) > 1 else None


def _labels_of(claim: str, amount: str, unit: str, labels: set[str]) -> set[str]:
    """The labels the claim gives ``amount``: its own item's, when the claim lists amounts too.

    "The package … costs 180.00 GBP for up to 20 children and 6.00 GBP for each extra child"
    labels 6.00 GBP with no number, not with the 20 of the 180.00 GBP before it (am027,
    held-out set 38).
    """
    own = _items(claim, unit)
    if not own:
        return labels
    return labels & set().union(*(others for n, others in own if n == amount))


def other_listed_amount(claim: str, window: str) -> str:
    """Why a sentence of ``window`` lists the claim's amount for other labels, or ``""``.

    Returns:
        "the sentence gives <amount> <unit> for <label number>, not <claim's amount>" when
        an item of a listing sentence holds a number the claim labels with and another amount,
        and no item holding the claim's amount holds that number.
    """
    amounts = [(n, u) for n, u in stated_numbers(claim) if u is not None]
    if not amounts:
        return ""
    labels = _labels(claim) - {n for n, _ in amounts}
    if not labels:
        return ""
    for span in split_sentences(window):
        if is_row(span.sentence):
            continue
        for amount, unit in amounts:
            items = _items(span.sentence, unit)
            if not items:
                continue
            if not any(n == amount for n, _ in items):
                continue
            mine = set().union(*(others for n, others in items if n == amount))
            for label in sorted(_labels_of(claim, amount, unit, labels) - mine):
                other = next((n for n, others in items if label in others and n != amount), "")
                if other:
                    return f"the sentence gives {other} {unit} for {label}, not {amount}"
    return ""
