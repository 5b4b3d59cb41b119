"""Sibling names: a sentence in a paragraph about another thing of the same kind does not answer.

"Will the society lend me a deckchair at the Geminids Meteor Night?" is not answered by "the
society lends out 10 deckchairs, first come, first served" (ao029, held-out set 40): the
sentence stands in the paragraph of the *Perseids* Meteor Night, a name that ends as the
question's does, and that paragraph never names the Geminids. The sentence itself names
neither, so no check of its own words can tell; its paragraph (the lines between two blank
lines) says what it is about.

A name of the paragraph that the question also names is no sibling (a question asking about
both events), nor one that is the question's name shortened or lengthened ("Meteor Night",
"Perseids Meteor Night" for a question naming "Meteor Nights"; "Holloway Centre" for the
"Holloway Outpatient Centre"); a paragraph holding each word
of the question's name names it ("General English (Standard)"). The asker's own kind is not
what is asked about: "I'm already an Associate Member. What will the Beginners' Course cost
me?" is answered by a paragraph of prices for Observing Members and "members of either kind"
(ao038). The same holds for places (:func:`sibling_place`: the doors' time of a paragraph
of Cobble Lane for "… at Hartsfell?", ao023). A multi-part question is left alone: each
claim answers one of its parts, and the part's name need not be the one the claim's
paragraph should hold (b025, held-out set 15). Lexical; no model call.
"""

from __future__ import annotations

import re

from disputatio.validators.kinds import quantified
from disputatio.validators.names import name_form, names
from disputatio.validators.sentences import DAYS, MONTHS, STOPWORDS, stem
from disputatio.validators.subjects import named_subjects

#: The asker's own kind: "I'm already an Associate Member", "as a Supporting Member".
_ASKER_RE = re.compile(
    r"\b(?i:i['’]m|i\s+am|we['’]re|we\s+are|as)\s+(?i:(?:already|now|just|an?|one\s+of\s+your)\s+)*"
    r"(?P<name>[A-Z][\w'-]*(?:[ \t]+[A-Z][\w'-]*)*)"
)
#: A place: a name after "at" or "in" ("at Hartsfell", "in the Mitre Rooms").
_AT_RE = re.compile(r"\b(?:at|in)\s+(?:the\s+)?([A-Z][\w'’-]*)")
_SEASONS = frozenset({"spring", "summer", "autumn", "winter"})
#: A blank line: paragraphs end there.
_BLANK_RE = re.compile(r"\n[ \t]*\n")
#: A run of two or more capitalised words in one line ("Perseids Meteor Night", "Engines of
#: Change"); never across punctuation.
_RUN_RE = re.compile(r"\b[A-Z][\w'-]*(?:[ \t]+(?:of[ \t]+)?[A-Z][\w'-]*)+")


def paragraph(text: str, start: int, end: int) -> str:
    """The lines of ``text`` between the blank lines around ``text[start:end]``."""
    before = [m.end() for m in _BLANK_RE.finditer(text, 0, start)]
    after = _BLANK_RE.search(text, end)
    return text[before[-1] if before else 0 : after.start() if after else len(text)]


def _head(name: str) -> str:
    """The last word of ``name``, stemmed: the kind of thing it names ("night")."""
    return stem(name.split()[-1].casefold().removesuffix("s"))


def _runs(text: str) -> list[str]:
    """The names of two or more words in ``text``, leading stop words left out ("The …")."""
    out = []
    for m in _RUN_RE.finditer(text):
        parts = m.group(0).split()
        while parts and parts[0].casefold() in STOPWORDS:
            parts = parts[1:]
        if len(parts) > 1:
            out.append(" ".join(parts))
    return out


def _key(text: str) -> str:
    """``text`` in lower case, each word's plural "s" left out ("meteor night")."""
    return re.sub(r"s\b", "", text.casefold())


def _when(name: str) -> bool:
    """Whether ``name`` ends in a day or a month ("Saturday", "Late May"): no kind of thing."""
    return name.split()[-1].casefold().removesuffix("s") in DAYS | MONTHS


def sibling_name(question: str, block: str) -> tuple[str, str] | None:
    """``(asked, other)`` when ``block`` names another ``other`` of the question's kind only.

    Args:
        question: The question.
        block: The paragraph the evidence stands in (:func:`paragraph`).

    Returns:
        The question's name and the paragraph's name of the same kind ("Geminids Meteor
        Night", "Perseids Meteor Night"), or None.
    """
    said = _key(block)
    held = set(re.findall(r"[\w'-]+", said))
    asked_text = _key(question)
    askers = {_key(m.group("name")) for m in _ASKER_RE.finditer(question)}
    for asked in named_subjects(question):
        low = _key(asked)
        if len(asked.split()) < 2 or _when(asked) or low in askers:
            continue
        if low in said or set(low.split()) <= held:  # "General English (Standard)"
            continue
        for other in _runs(block):
            near = _key(other)
            if _head(other) != _head(asked) or near in asked_text:
                continue
            mine, theirs = set(low.split()), set(near.split())
            if mine <= theirs or theirs <= mine:
                continue  # the same name, shortened or lengthened ("Holloway Centre")
            return asked, other
    return None


def sibling_place(question: str, block: str, around: str) -> tuple[str, str] | None:
    """``(asked, other)`` when ``block`` names another place than the question's, not its own.

    "What time do the doors open for public nights at Hartsfell?" is not answered by "7 pm to
    9 pm." (ao023, held-out set 40): the text around it (``around``: its section) has events
    "at Hartsfell" and "at Cobble Lane", so the two are places alike, and the paragraph names
    only the other; "Lost property found at the Foundry is kept for 30 days" does not answer
    "How long do you keep lost property there?" asked of the Barn (aq036, set 42), where the
    section names both after "at". A place the text around does not name so is left alone:
    "… pick-up at the Elmsworth branch" is the "Quayside Surgery" of a file that never names
    the town (d035, held-out set 16). A paragraph speaking of a whole kind ("both sites")
    names every place.

    Args:
        question: The question.
        block: The paragraph the evidence stands in (:func:`paragraph`).
        around: The text the places are read from (the evidence's section).

    Returns:
        The question's place and the paragraph's other place, or None.
    """
    places = {name_form(m.group(1)) for m in _AT_RE.finditer(around)} - _SEASONS
    askers = {w for m in _ASKER_RE.finditer(question) for w in _key(m.group("name")).split()}
    asked = {name_form(m.group(1)) for m in _AT_RE.finditer(question)} & places - askers
    if not asked or quantified(block):
        return None
    if asked & {name_form(w) for w in re.findall(r"[\w'’-]+", block)}:
        return None
    others = sorted((places & names(block)) - asked - DAYS - MONTHS - set(_key(question).split()))
    return (sorted(asked)[0], others[0]) if others else None


def sibling(question: str, block: str, around: str) -> tuple[str, str] | None:
    """:func:`sibling_name`, else :func:`sibling_place`: what is asked and what is said."""
    return sibling_name(question, block) or sibling_place(question, block, around)
