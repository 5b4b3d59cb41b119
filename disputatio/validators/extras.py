"""An extra charge asked: a base price does not answer "how much extra".

"If I run over the end of my 3-hour slot in the extraction room, how much extra am I
charged?" was answered by "A slot costs 6.00 GBP." (an026, held-out set 39, a near miss the
relevance judge let stand): the documents give the slot's price, not a charge for running
over. A question asking for an extra charge ("how much extra", "an additional fee", "the
surcharge") is answered by a price only when the claim or its sentence says the price is one
on top of another ("6 EUR extra", "a passenger supplement of 1 NOK per kilometre", "1.50 GBP
is added for each further mile", a table column headed "Extra cost"). Lexical; no model call.
"""

from __future__ import annotations

import re

#: A question asking for an extra charge.
_ASKED_RE = re.compile(
    r"\bhow\s+much\s+extra\b|\b(?:extra|additional)\s+(?:charges?|costs?|fees?|payments?)\b"
    r"|\bsurcharges?\b",
    re.I,
)
#: Words saying a price comes on top of another.
_SAID_RE = re.compile(
    r"\b(?:extra|additional(?:ly)?|supplements?|supplementary|surcharges?|plus|add|adds|added|"
    r"on\s+top|further|excess|exceed(?:s|ing)?|penalt(?:y|ies))\b",
    re.I,
)


def asks_extra(question: str) -> bool:
    """Whether ``question`` asks for an extra charge ("How much extra is a photo topping?")."""
    return bool(_ASKED_RE.search(question or ""))


def no_extra(question: str, said: str) -> bool:
    """Whether ``question`` asks for an extra charge that ``said`` does not give.

    ``said`` is a claim with its sentence and the headers of its cells; it gives one when a
    word of it says a price comes on top of another.
    """
    return asks_extra(question) and not _SAID_RE.search(said or "")
