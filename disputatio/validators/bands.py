"""A table's figure given for the asker when it stands in another age band's column.

"I'm 70 … What does a seat in the upper circle cost?" is not answered by "The cost of a seat in
the upper circle is 20 GBP" on the row "| Band C (upper circle) | 8 GBP | 11 GBP | 20 GBP |
18 GBP |" (set 20's t003, the quick path, 2026-12-04): its 20 GBP is the "Adults 26 to 64"
column's, and the row has an "Adults 65 and over" column. The claim names no age, so the
claim's own ages (:func:`~disputatio.validators.relevance.off_question`) cannot tell; the row
read with its headers (:func:`~disputatio.validators.tables.figure_columns`) can.

:func:`asked_column` does the same for a column the question names by a word of its header:
"We're not members … What's the hourly rate?" is not answered by the "Member rate per hour"
column's 28 GBP beside a "Non-member rate per hour" column (i028, held-out set 24).
"""

from __future__ import annotations

import re

from disputatio.validators.asked import asks_age
from disputatio.validators.ranges import asker_age, excludes_age, fits_age, ranges, said_age
from disputatio.validators.sentences import STOPWORDS, stem, words
from disputatio.validators.tables import figure_columns

#: "not a member", "non-members", "non member": one word, "non-member".
_NEGATED_RE = re.compile(r"\b(?:non|not(?:\s+an?)?)[\s-]+(?=\w)", re.I)


def other_column(question: str, claim: str, reading: str) -> str:
    """Why ``claim``'s figure in ``reading`` is another column's than the asker's (or ``""``)."""
    return other_band(question, claim, reading) or asked_column(question, claim, reading)


def other_band(question: str, claim: str, reading: str) -> str:
    """Why ``claim``'s figure in the row ``reading`` is another age band's (``""``: it is not).

    Only when the question gives the asker's age and does not ask for an age, the claim's
    figure stands in a column whose header's ages leave the asker out, and another column of
    the row has ages that hold them.
    """
    age = None if asks_age(question) else asker_age(question)
    if age is None:
        return ""
    for header, others in figure_columns(claim, reading):
        fits = next((o for o in others if _holds_age(o, age)), None)
        if excludes_age(header, age) is not None and fits is not None:
            return (
                f"the claim's figure is the {header!r} column's; for {said_age(question)!r} "
                f"the row gives {fits!r}"
            )
    return ""


def _holds_age(header: str, age: float) -> bool:
    """Whether a column ``header`` is for ``age``: its ages, or a bare range beside age bands.

    "Young people 16 to 25" says no age word, but in a row of "Children under 16" and
    "Adults 26 to 64" its range is one of ages (set 20's t001: 12 GBP, the children's price,
    for a 19-year-old).
    """
    return fits_age(header, age) or any(r.unit is None and r.holds(age) for r in ranges(header))


def asked_column(question: str, claim: str, reading: str) -> str:
    """Why ``claim``'s figure in the row ``reading`` is another column's than the one asked.

    The claim's figure stands in one column; another column of the row holding a figure is
    set apart from it by a word the question says ("non-member", "weekend", "Tannery"), and
    the question says none of the words that set the figure's own column apart.
    """
    said = _column_words(question) | ({"age"} if asks_age(question) else set())  # "old enough"
    for header, others in figure_columns(claim, reading):
        mine = _column_words(header)
        for other in others:
            theirs = _column_words(other)
            if (theirs - mine) & said and not (mine - theirs) & said:
                return f"the claim's figure is the {header!r} column's; the question asks {other!r}"
    return ""


def _column_words(text: str) -> frozenset[str]:
    """The stems of ``text``'s words that are no stopword, "not X" and "non-X" as "non-X"."""
    folded = _NEGATED_RE.sub("non-", text.casefold().replace("non-", "non "))
    return frozenset(
        stem(w) if not w.startswith("non-") else "non-" + stem(w[4:])
        for w in words(folded)
        if w not in STOPWORDS and not w[:1].isdigit()
    )
