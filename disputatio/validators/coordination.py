"""A claim joining two things no one sentence names together: one claim per thing.

"Brucellosis is diagnosed by blood cultures and specific serology" (``make demo``, 2026-12-02,
both runs) joins two items of the sample corpus's list of diagnostic methods — "Blood culture
is the reference method." under *Culture*, "… a high or rising titre supports the diagnosis."
under *Serology* — that no one sentence states together, so the claim checker set it aside
and the demo answered nothing of how brucellosis is diagnosed. Each half is a claim a sentence
may support on its own.

:func:`coordinated` gives the claim once per item of its final two-item coordination ("by *A*
and *B*." → "by *A*." and "by *B*."), which the claim checker judges when the whole is not
supported (:func:`disputatio.validators.verdicts.judge_piece`): the halves that are supported
are shown, the whole is dropped with its reason. Lists of three or more are the list guard's
(:mod:`disputatio.validators.lists`).

Only items of at most :data:`MAX_ITEM_WORDS` words in lower case or acronyms ("serology and
PCR"), after a preposition or a verb of inclusion and ending the claim (or its clause), are
split: "Holmvik Water and Waste" is a name, "between 8 and 12 metres" a range, "fever and
headache in most patients" ends nowhere, "the risk of fever and headache" one thing ("of" binds
its items to the noun before it). A second item with a preposition of its own ("at reception
and in the shop") takes the place of the first's.

Lexical; no model call.
"""

from __future__ import annotations

import re

#: Longest item, in words.
MAX_ITEM_WORDS = 4
#: What may open the coordinated phrase: a preposition, or a verb of inclusion or need.
_MARKERS = (
    r"by|with|through|via|using|for|from|to|on|at|in|"
    r"includes?|including|included|requires?|required|needs?|needed|such\s+as|are|is|were|was"
)
#: An item's word: in lower case, or an acronym ("PCR", "MRI": a thing, where "Water" in
#: "Holmvik Water and Waste" is part of a name).
_WORD = r"(?:[a-z][\w'-]*|[A-Z]{2,6}s?\b)"
_ITEM = rf"{_WORD}(?:\s+{_WORD}){{0,{MAX_ITEM_WORDS - 1}}}"
#: "… by blood cultures and specific serology." — the marker closest to the "and" wins.
_COORD_RE = re.compile(
    rf"\b(?:{_MARKERS})\s+(?:both\s+)?(?P<a>{_ITEM})\s+and\s+(?P<b>{_ITEM})"
    r"(?P<tail>\s*(?:\[[^\[\]]*\]\s*)*(?:[,;:.!?]|$))"
)
#: Words that make an item no thing of its own (a range's bound, a clause, a pronoun).
_NOT_ITEM_RE = re.compile(
    r"\b(?:between|from|which|that|who|where|when|while|it|they|he|she|its|their|then|also)\b"
)
_MARKER_RE = re.compile(rf"^(?:{_MARKERS})$")
#: A claim about the shown text or the question, not the world: never split.
_ABOUT_RE = re.compile(
    r"\b(?:sections?|documents?|passages?|context|texts?|sources?|question)\b", re.I
)


def coordinated(claim: str) -> list[str] | None:
    """``claim`` once per item of its final two-item coordination, or None.

    >>> coordinated("It is diagnosed by blood cultures and specific serology.")
    ['It is diagnosed by blood cultures.', 'It is diagnosed by specific serology.']
    """
    text = claim or ""
    if _ABOUT_RE.search(text):
        return None  # "The sections only discuss fees, including A and B": about the sections
    match = None
    for found in _COORD_RE.finditer(text):
        match = found
    if match is None:
        return None
    start, a, b = match.start("a"), match.group("a"), match.group("b")
    for word in re.finditer(r"\S+", a):  # "by culture of blood and …": the nearer marker
        if _MARKER_RE.match(word.group()):
            start = match.start("a") + word.end() + 1
    a = text[start : match.end("a")]
    if not a or _NOT_ITEM_RE.search(f"{a} {b}"):
        return None
    head = re.sub(r"\bboth\s+$", "", text[:start])
    tail = text[match.end("b") :]
    # "sold at reception and in the shop": the second item brings its own preposition
    lead = re.sub(r"\S+\s*$", "", head) if _MARKER_RE.match(b.split()[0]) else head
    halves = [f"{head}{a}{tail}".strip(), f"{lead}{b}{tail}".strip()]
    if any(len(h.split()) < 4 for h in halves):
        return None
    return [h if h[-1:] in ".!?" else h + "." for h in halves]
