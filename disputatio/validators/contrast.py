"""A claim's comparison with something else: what it must find in its evidence.

"Brucellosis is diagnosed by blood cultures and specific serology, unlike Q fever" says two
things: how brucellosis is diagnosed, and that Q fever is not diagnosed so. The sentence about
brucellosis supports the first only; the sample corpus says serology is Q fever's main method,
so the claim as a whole is false, yet a judge reading the brucellosis sentence lifted it (the
demo, 2026-12-02). "Q" is one letter, so the name guard did not see "Q fever" either.

* :func:`missing_contrast`: the thing a claim is compared with ("unlike *Q fever*", "in
  contrast to *the pilot course*", "compared with *placebo*") must be named in the evidence or
  its section's title and headings (the guard of :mod:`disputatio.validators.guards`);
* :func:`without_contrast`: the claim with a detachable contrast removed ("unlike Q fever",
  "in contrast to …", "as opposed to …", "contrary to …", "which differs from …"), which the
  claim checker judges on its own when the whole claim is not supported. A comparison that
  carries the claim's meaning ("improved outcome *compared with placebo*") is not detachable.

Lexical; no model call.
"""

from __future__ import annotations

import re

from disputatio.validators.names import letter_names
from disputatio.validators.sentences import content_words, words

#: A detachable contrast: what follows it is the other thing, up to a clause boundary.
_DETACHABLE = (
    r"unlike|in\s+contrast\s+(?:to|with)|as\s+opposed\s+to|contrary\s+to"
    r"|(?:which|that)\s+(?:differs|is\s+different)\s+from|differing\s+from|different\s+from"
)
#: A comparison that belongs to the claim's meaning (not detachable, still guarded).
_BOUND = r"(?:as\s+)?compared\s+(?:with|to)|in\s+comparison\s+(?:with|to)"
#: Where the other thing's phrase ends: punctuation, a citation, or a new clause.
_OBJECT = (
    r"(?P<object>[^,;:.!?\[\]()]{1,80}?)"
    r"(?=\s*(?:[,;:.!?\[\]()]|\s(?:and|but|while|which|who|where)\s|$))"
)
_CONTRAST_RE = re.compile(rf"\b(?P<marker>{_DETACHABLE}|{_BOUND})\s+{_OBJECT}", re.I)
#: "…, unlike Q fever." at the end of a claim (the comma before it, up to the end).
_TRAILING_RE = re.compile(
    rf",\s*(?:{_DETACHABLE})\s+[^,;:.!?\[\]()]{{1,80}}?(?=\s*(?:\[[^\[\]]*\]\s*)*[.!?]?\s*$)", re.I
)
#: "Unlike Q fever, brucellosis …" at the start of a claim.
_LEADING_RE = re.compile(rf"^\s*(?:{_DETACHABLE})\s+[^,;:.!?\[\]()]{{1,80}}?,\s*", re.I)
#: Words that may open the other thing's phrase without naming it ("unlike *in* Q fever").
_OPENERS = frozenset("in for with the a an those that this these its their".split())


def contrasted(claim: str) -> list[str]:
    """The things ``claim`` compares its subject with ("Q fever" in "…, unlike Q fever.")."""
    out = []
    for match in _CONTRAST_RE.finditer(claim or ""):
        toks = words(match.group("object"))
        while toks and toks[0].casefold() in _OPENERS:
            toks = toks[1:]
        if toks:
            out.append(" ".join(toks))
    return out


def missing_contrast(claim: str, known: str) -> str:
    """Why ``known`` (evidence, title and headings) cannot carry ``claim``'s comparison.

    Args:
        claim: The claim.
        known: The evidence sentence(s) with the section's title and headings.

    Returns:
        The reason, naming the thing compared with, or ``""`` when every such thing is named
        (each of its content words, and a one-letter name together with its word).
    """
    phrases = contrasted(claim)
    if not phrases:
        return ""
    have = content_words(known)
    folded = " ".join(words(known)).casefold()
    for phrase in phrases:
        wanted = content_words(phrase)
        if not wanted <= have or any(n not in folded for n in letter_names(phrase)):
            return f"it compares with {phrase}, which the sentence does not mention"
    return ""


def without_contrast(claim: str) -> str | None:
    """``claim`` without its detachable contrast, or None when it has none to take away.

    "Brucellosis is diagnosed by serology, unlike Q fever." → "Brucellosis is diagnosed by
    serology."; "Unlike Q fever, brucellosis is …" → "Brucellosis is …". What is left must
    still be a sentence of at least four words.
    """
    text = claim or ""
    trailing = _TRAILING_RE.search(text)
    if trailing:
        rest = (text[: trailing.start()] + text[trailing.end() :]).strip()
    else:
        leading = _LEADING_RE.match(text)
        if not leading:
            return None
        rest = text[leading.end() :].strip()
        rest = rest[:1].upper() + rest[1:]
    if len(rest.split()) < 4:
        return None
    return rest if rest[-1:] in ".!?" else rest + "."
