"""A sentence listing several facts: a claim's name goes with the numbers of its own piece.

Used by the guards (:func:`~disputatio.validators.guards.guard`): "The Eastmead branch is open
from 10:00 to 19:00 on Sundays" is not supported by a sentence giving Sundays other hours in
another of its pieces.
"""

from __future__ import annotations

import re

from disputatio.validators.figures import FIGURE_RE, figures
from disputatio.validators.names import names
from disputatio.validators.sentences import split_sentences, words
from disputatio.validators.tables import is_row

#: The pieces of a sentence listing several facts: "from 10:00 to 19:00 Monday to Thursday, from
#: 10:00 to 17:00 on Fridays … and from 11:00 to 15:00 on Sundays".
_PIECE_RE = re.compile(r"[,;]\s+|\s+and\s+(?!over\b|under\b|older\b|younger\b|above\b|below\b)")


def name_of_other_numbers(claim: str, window: str) -> str:
    """Why a sentence listing several facts gives the claim's name other numbers than its own.

    "The Eastmead branch is open from 10:00 to 19:00 on Sundays" is not supported by "The
    Eastmead branch is open from 10:00 to 19:00 Monday to Thursday, … and from 11:00 to 15:00
    on Sundays" (f008, held-out set 18): every word is there, but "Sundays" stands in a piece
    of the sentence whose numbers are not the claim's, and the claim's numbers stand beside
    a name of their own ("Monday to Thursday", or a kind of day: "open until 18:00 on weekdays
    and until 13:00 on Saturdays" does not give Saturdays 18:00, c034 of set 19, run 30).
    Names before the sentence's first number are its subject and go with every piece ("The
    Eastmead branch"); "70 and over" is one piece.
    """
    wanted = figures(claim)
    if not wanted:
        return ""
    claim_names = names(claim)
    for span in split_sentences(window):
        if is_row(span.sentence):
            continue  # a table row: its cells are not pieces of one sentence
        pieces = _PIECE_RE.split(span.sentence)
        held = [figures(p) for p in pieces]
        if len(pieces) < 2 or not any(wanted & h for h in held):
            continue
        first = FIGURE_RE.search(span.sentence)
        subject = span.sentence[: first.start() if first else 0].casefold()
        # the claim's figures stand beside a name of their own ("Monday to Thursday",
        # "weekdays")
        rival = any(
            _day_names(p) - claim_names for p, h in zip(pieces, held, strict=True) if wanted & h
        )
        for name in sorted(n for n in claim_names if n not in subject) if rival else []:
            holding = [i for i, p in enumerate(pieces) if name in p.casefold()]
            if holding and all(held[i] and not wanted & held[i] for i in holding):
                return f"the claim's {name} goes with other numbers of the sentence"
    return ""


#: Kinds of day written in lower case that name a piece of a sentence as a weekday's name does.
_DAY_KINDS = frozenset(
    "weekday weekdays weekend weekends weeknight weeknights holiday holidays".split()
)


def _day_names(piece: str) -> frozenset[str]:
    """The names of a piece of a sentence, with the kinds of day it names ("on weekdays")."""
    return frozenset(names(f"x {piece}")) | {w.casefold() for w in words(piece)} & _DAY_KINDS
