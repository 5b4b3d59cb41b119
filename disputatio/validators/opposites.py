"""Words of opposite sense: a claim using one where its sentence uses the other says the opposite.

A guard of the claim checker (:func:`~disputatio.validators.guards.guard`): "optional" for
"mandatory", "above" for "below".
"""

from __future__ import annotations

from disputatio.validators.sentences import words

#: Pairs of words of opposite sense: a claim using one where its sentence uses the other
#: says the opposite (``optional`` / ``mandatory``, ``above`` / ``below``).
OPPOSITES: tuple[tuple[frozenset[str], frozenset[str]], ...] = tuple(
    (frozenset(a.split()), frozenset(b.split()))
    for a, b in (
        ("optional voluntary", "mandatory required compulsory obligatory"),
        ("allowed permitted may", "prohibited forbidden banned never"),
        ("continue continues continued", "suspend suspended suspends stop stops stopped halt"),
        ("above over exceeding more", "below under less fewer"),
        ("before prior", "after following"),
        ("minimum least", "maximum most"),
        ("include includes included", "exclude excludes excluded"),
        ("increase increases increased", "decrease decreases decreased reduce reduced"),
        ("first", "last"),
        ("inside internal", "outside external"),
        ("daily", "weekly monthly yearly annually"),
        ("day", "night"),
        ("approve approved", "reject rejected"),
        ("start starts", "end ends"),
    )
)


def opposite_words(claim: str, window: str) -> tuple[str, str] | None:
    """A word of ``claim`` whose opposite ``window`` uses instead, as ``(claim's, window's)``."""
    cw = {w.casefold() for w in words(claim)}
    ww = {w.casefold() for w in words(window)}
    for a, b in OPPOSITES:
        for mine, theirs in ((a, b), (b, a)):
            said = cw & mine
            other = ww & theirs
            if said and other and not (ww & mine):
                return sorted(said)[0], sorted(other)[0]
    return None
