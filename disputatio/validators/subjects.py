"""Who a sentence is about: what it names, and whether it goes on about the one before.

Used by the guards (:mod:`disputatio.validators.guards`) when a window of two sentences lends a
claim a number: a sentence whose subject is a name the sentence before it gives, and which names
nothing else, goes on about that (as a pronoun would); and a name word is held by a text that
holds its plural in "-ies" ("Wild Parties" holds "Wild Party"). Used by the claim checker
(:func:`~disputatio.validators.claims.check_answer`) for the names a piece of an answer takes
from the one before it (:func:`named_subjects`, :func:`leans_on`: "It includes 100 pages …"
after "A Hot Desk costs 215 GBP.").
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from disputatio.validators.names import name_form, names
from disputatio.validators.sentences import DAYS, MONTHS, STOPWORDS, stem, words
from disputatio.validators.tables import is_row

#: A word by which a piece of an answer points back at what was named before it.
_REFERS_RE = re.compile(
    r"\b(?:it|its|they|them|their|there|this|these|those|here|he|him|his|she|her)\b", re.I
)
#: A piece whose subject is a pronoun: "It includes …", "He is at Ropewalk on Tuesdays …".
_PRONOUN_SUBJECT_RE = re.compile(r"^\W*(?:it|they|he|she)\b", re.I)
#: A piece opening with a definite description: "The entry fee …", "The deposit …".
_DEFINITE_RE = re.compile(r"^\W*the\s+[^\W\d_]+", re.I)
#: Words a sentence's subject may open with before its name ("A Wild Party is …").
_DETERMINERS = frozenset({"a", "an", "the", "each", "every", "this", "that"})


def renames(sentence: str, before: str) -> bool:
    """Whether ``sentence`` is about a name the sentence ``before`` gives, and names no other.

    "Larchfield Park hosts Wild Parties for children aged 4 to 11. A Wild Party is for 8 to 20
    children and costs 24 GBP per child." (set 21's w009): "A Wild Party" is the parties just
    named, as "It" would be. Its subject must be that name: "Mobility scooters can be hired only
    at Larchfield Park …; there are 5 scooters" after "… 4 at the Tidewater Aquarium" is about
    scooters, though it names only a site named before ("Groups of 20 or more get …" after
    "Groups of 10 to 19 people get …" opens with a word, not a name); and one naming anything new
    ("The crane on Sjøstjerne …" after "The A-frame on Kvitbjørn …") has a subject of its own.
    """
    toks = words(sentence)
    while toks and toks[0].casefold() in _DETERMINERS:
        toks = toks[1:]
    named = {stem(n) for n in names(before)}  # not its first word: "Groups of 10 …"
    if not toks or not toks[0][:1].isupper() or stem(name_form(toks[0])) not in named:
        return False
    given = named | {stem(name_form(t)) for t in words(before)[:1] if t[:1].isupper()}
    return {stem(n) for n in names(sentence)} <= given


def holds_name(text: str, name: str) -> bool:
    """Whether the case-folded ``text`` holds the name word ``name``, or its plural in -ies."""
    return name in text or (name.endswith("y") and f"{name[:-1]}ies" in text)


def named_subjects(text: str, limit: int = 3) -> list[str]:
    """The names of ``text`` as written, a run of adjacent name words one subject, in order.

    "The community manager at Tannery is Dev Lindqvist." → ``["Tannery", "Dev Lindqvist"]``
    (the first word is left out, as :func:`~disputatio.validators.names.names` leaves it), "the
    adult ticket for Engines of Change" → ``["Engines of Change"]``; at most ``limit``.
    """
    found = names(text)
    out: list[str] = []
    run: list[str] = []
    toks = [*words(text), ""]
    for i, tok in enumerate(toks):
        if tok and name_form(tok) in found:
            run.append(tok)
            continue
        if run and tok == "of" and name_form(toks[i + 1]) in found:  # "Engines of Change"
            run.append(tok)
            continue
        if run and " ".join(run) not in out:
            out.append(" ".join(run))
        run = []
    return out[:limit]


def leans_on(piece: str, before: str, *, continues: bool) -> bool:
    """Whether ``piece`` takes its subject from ``before``, the piece of the answer before it.

    It does when it points back ("It …", "… there …") or continues a sentence split after
    ``before`` (``continues``: "…, and members pay 15 GBP per hour"), names nothing ("…,
    whereas the CTD-41 must be calibrated …" has a subject of its own) or has a pronoun for its
    subject ("It includes 100 pages of A4 per month.": what it names is not what it is about),
    and repeats no name of ``before``.
    """
    if not (continues or _REFERS_RE.search(piece)):
        return False
    if {name_form(w) for w in words(piece)} & names(before):
        return False
    return not names(piece) or bool(_PRONOUN_SUBJECT_RE.match(piece))


def _definite_only(piece: str) -> bool:
    """Whether ``piece`` opens with "The <thing>" and names nothing (a bridging reference).

    "The entry fee is 30.00 GBP a team." after "The entry for the Guild Striking Competition
    is by 19 September." is the competition's fee (at025, held-out set 45).
    """
    return bool(_DEFINITE_RE.match(piece)) and not names(piece)


def bridged_subjects(piece: str, before: str) -> list[str]:
    """What ``piece`` may be about when it opens "The <thing>" and names nothing, else none.

    Such a piece is read with ``before``'s subjects only to lift it, never to set it aside
    (its own words may be all it is about): "The entry fee is 30.00 GBP a team." after "The
    entry for the Guild Striking Competition is by 19 September." is the competition's fee.
    """
    return _lendable(before) if before and _definite_only(piece) else []


def lent_subjects(piece: str, before: str, *, continues: bool) -> list[str]:
    """What ``piece`` may be about: ``before``'s subjects when it leans on it, else none.

    A day or a month is no subject: "…, and the grandmother needs to give the teacher the
    collection password" after "The office should be informed by the end of the class on
    Thursday" is not about Thursday (ai029, held-out set 34).
    """
    if not before or not leans_on(piece, before, continues=continues):
        return []
    return _lendable(before)


def _lendable(before: str) -> list[str]:
    """``before``'s subjects a piece may take, in order: not a day or a month (:func:`_when`)."""
    return [n for n in named_subjects(before) if not _when(n)]


def _when(name: str) -> bool:
    """Whether ``name`` is only days and months ("Thursday", "Monday January")."""
    return all(w.casefold().removesuffix("s") in DAYS | MONTHS for w in words(name))


#: A run of capitalised words ("Larkspur House", "The Attic Room"), in one line of prose.
_RUN_RE = re.compile(r"\b[A-Z][a-z]+(?:[ \t]+[A-Z][a-z]+)+\b")


def longer_forms(texts: Iterable[str]) -> dict[str, str]:
    """Each name word that opens exactly one longer name of ``texts``, and that name.

    "Larkspur House is at 3 Chandler Street …" gives ``{"larkspur": "Larkspur House",
    "chandler": "Chandler Street"}``: a claim may call Larkspur "Larkspur House" where a
    sentence says "Larkspur" (ah004, held-out set 33). A word opening two longer names
    ("Larkspur House", "Larkspur Gardens") gives neither; table rows give none (their cells
    are not one name).
    """
    runs: dict[str, set[str]] = {}
    for text in texts:
        # a run never crosses a line or a full stop: lines need no splitting into sentences
        for line in text.splitlines():
            if is_row(line):
                continue
            for m in _RUN_RE.finditer(line):
                parts = m.group(0).split()
                while parts and parts[0].casefold() in STOPWORDS:
                    parts = parts[1:]  # "The Attic Room"
                if len(parts) > 1:
                    runs.setdefault(name_form(parts[0]), set()).add(" ".join(parts))
    return {first: next(iter(found)) for first, found in runs.items() if len(found) == 1}
