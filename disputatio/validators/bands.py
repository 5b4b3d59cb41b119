"""A table's figure given for the asker when it stands in another age band's column.

"I'm 70 … What does a seat in the upper circle cost?" is not answered by "The cost of a seat in
the upper circle is 20 GBP" on the row "| Band C (upper circle) | 8 GBP | 11 GBP | 20 GBP |
18 GBP |" (set 20's t003, the quick path, 2026-12-04): its 20 GBP is the "Adults 26 to 64"
column's, and the row has an "Adults 65 and over" column. The claim names no age, so the
claim's own ages (:func:`~disputatio.validators.relevance.off_question`) cannot tell; the row
read with its headers (:func:`~disputatio.validators.tables.figure_columns`) can.
"""

from __future__ import annotations

from disputatio.validators.asked import asks_age
from disputatio.validators.ranges import asker_age, excludes_age, fits_age, said_age
from disputatio.validators.tables import figure_columns


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
        if excludes_age(header, age) is not None and any(fits_age(o, age) for o in others):
            fits = next(o for o in others if fits_age(o, age))
            return (
                f"the claim's figure is the {header!r} column's; for {said_age(question)!r} "
                f"the row gives {fits!r}"
            )
    return ""
