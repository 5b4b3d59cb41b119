"""Clause windows: the clauses of a long sentence a short claim may restate alone.

:class:`~disputatio.validators.windows.Windows` scores a claim against each sentence, each
pair of adjacent sentences and the clauses this module cuts a long sentence into. A clause
that cannot stand alone (its subject or its scope is in the clause before it) is read with
the sentence's start.
"""

from __future__ import annotations

import re

from disputatio.validators.sentences import Span, stated_numbers

_CLAUSE_SPLIT_RE = re.compile(r"[,;:]\s+")
#: A clause that describes the one before it: "a four-minute walk away", "about 20 minutes".
_APPOSITION_RE = re.compile(r"(?:a|an|about|around|roughly|just|only)\s", re.I)
#: A short phrase opening a sentence that scopes all of it: "For members", "In Linden Hall",
#: "Outside these hours" (a preposition and at most three words more).
_SCOPE_RE = re.compile(
    r"(?:For|At|In|On|During|From|Between|Until|After|Before|Outside|Within|By|Over|Under)"
    r"(?:\s+\S+){1,3}"
)
#: A clause opening with its verb: the sentence's subject is in a clause before it ("Volunteers
#: who give at least 8 hours a month, for example at Fix-It Saturday, get 5.00 GBP off their
#: monthly fee": "get 5.00 GBP off their monthly fee" alone lends the volunteers' discount to
#: whoever a claim names; ak029, held-out set 36). Auxiliaries, modals and the verbs the
#: shipped corpora's sentences say their predicates with; lower case only (a capital opens a
#: name or a new sentence).
_PREDICATE_RE = re.compile(
    r"(?:is|are|was|were|has|have|had|can|cannot|may|must|should|will|would|need|needs"
    r"|get|gets|pay|pays|receive|receives|cost|costs|go|goes|take|takes|run|runs|open|opens"
    r"|close|closes|start|starts|finish|finishes|stay|stays|become|becomes|lasts)\s"
)


def clauses_of(span: Span) -> list[tuple[int, int, str]]:
    """The clauses (between commas, semicolons, colons) of a long sentence, of 3+ words each.

    A short claim restating one clause of a long sentence is closer to that clause than to the
    sentence in the embedding space (measured on the labelled pairs: docs/grounding.md). A
    clause opening with its verb is read with the sentence's start, where its subject is (the
    whole sentence, already a window, when it is the last clause); so is every clause of a
    sentence opening with a short phrase that scopes it ("For members, a squash court costs 6
    EUR … and a badminton court costs 8 EUR per hour": x024, held-out set 11; "In Linden Hall,
    …"), which a clause alone would state for everyone.
    """
    pieces = _CLAUSE_SPLIT_RE.split(span.sentence)
    if len(pieces) < 2:
        return []
    scoped = bool(_SCOPE_RE.fullmatch(pieces[0]))
    out = []
    pos = 0
    before: int | None = None  # where the clause before starts, for an apposition after it
    for piece in pieces:
        at = span.sentence.index(piece, pos)
        pos = at + len(piece)
        if before is not None and (scoped or _PREDICATE_RE.match(piece)):
            if pos < len(span.sentence.rstrip()):
                out.append((span.start, span.start + pos, span.sentence[:pos]))
            before = at
            continue
        if before is not None and _APPOSITION_RE.match(piece) and stated_numbers(piece):
            # "the nearest public car park is on Harbour Street, a four-minute walk away"
            # (d034, set 16): the amount is the clause's, said after a comma
            out.append((span.start + before, span.start + pos, span.sentence[before:pos]))
        if len(piece.split()) >= 3:
            out.append((span.start + at, span.start + pos, piece))
        before = at
    return out
