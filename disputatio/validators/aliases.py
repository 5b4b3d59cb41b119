"""Names that a shown clause gives each other: "the Gullholm route … on the MV Eider".

A claim may name a thing by what another shown sentence says it is: "the Gullholm boat can
carry up to 8 bicycles" rests on "The MV Eider has space for 8 bicycles per sailing" where the
fares page says "The Gullholm route crosses to Gullholm Slip on the MV Eider, and the Saltwick
route crosses to Saltwick Pier on the MV Halcyon" (o023, o041, held-out set 23: three right
parts lost to the name guard, "gullholm is not in the section").

A *defining clause* is a clause (between commas, semicolons, colons; a conjunction opening it
aside) of a shown sentence that names two things or more and pairs them one to one: it holds
no figure and no word that sets names side by side or against each other ("and", "or",
"than", "but", "both", "not" …), so
"the MV Eider on the Gullholm route is much smaller than the MV Halcyon on the Saltwick route"
and "staff travelling to Bergen or Oslo" define nothing. A claim's name missing from a window
and its context is *bridged* by a defining clause that holds it and every name of the window
the claim does not hold: that clause joins the window's context (names only, never numbers,
as a title's do), and the judge reads it there. A window naming something the clause does not
(the MV Halcyon, for a clause about the Gullholm route and the MV Eider) gets no bridge.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from disputatio.validators.figures import figures
from disputatio.validators.names import names
from disputatio.validators.sentences import split_sentences, words
from disputatio.validators.tables import is_row

_CLAUSE_SPLIT_RE = re.compile(r"[,;:]\s+")
#: A conjunction opening a clause joins it to the one before, not names inside it.
_OPENING_RE = re.compile(r"^\s*(?:and|but|or|while|whereas)\s+", re.I)
#: Words that set names side by side or against each other: a clause holding one pairs nothing.
_SIDE_BY_SIDE = frozenset(
    "and or nor but than not no unlike whereas while both either neither except instead "
    "versus vs other another each every all between".split()
)


def defining_clauses(texts: Iterable[str]) -> list[tuple[str, frozenset[str]]]:
    """The defining clauses of ``texts`` (see the module), each with its names.

    Returns:
        ``(clause, its names)`` in text order; table rows are never defining.
    """
    out = []
    for text in texts:
        for span in split_sentences(text):
            if is_row(span.sentence):
                continue
            for clause in _CLAUSE_SPLIT_RE.split(span.sentence):
                piece = _OPENING_RE.sub("", clause)
                said = {w.casefold() for w in words(piece)}
                if said & _SIDE_BY_SIDE or figures(piece):
                    continue
                found = names(piece)
                if len(found) >= 2:
                    out.append((piece.strip(), found))
    return out


def bridges(
    claim: str, window: str, context: str, clauses: Sequence[tuple[str, frozenset[str]]]
) -> list[str]:
    """The defining clauses that give ``claim``'s missing names to ``window``'s names.

    Args:
        claim: The claim.
        window: The window it is scored against.
        context: The window's context (its names count as the window's).
        clauses: :func:`defining_clauses` of the shown sections.

    Returns:
        The clauses, empty when the claim misses no name or the window names nothing apart.
    """
    if not clauses:
        return []
    wanted = names(claim)
    known = f"{window} {context}".casefold()
    missing = {n for n in wanted if n not in known}
    own = names(window) - wanted
    if not missing or not own:
        return []
    return [clause for clause, found in clauses if missing <= found and own <= found]
