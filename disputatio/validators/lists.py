"""A claim's list: every item must be in its evidence.

"Brucellosis is characterized by fever, arthralgia, hepatitis and hepatosplenomegaly" names
four findings. On ``make demo`` (2026-12-02) the 1.5B judge lifted it on "Brucellosis is a
zoonotic bacterial infection … also known as Malta fever, …" (P(yes) 0.59), which names none
of them but "fever", and "Q fever is characterized by …" the same four on a clause about
hepatitis alone (0.64). A list's items are facts of their own, each as specific as a name, and
a paraphrase rarely rewords every one; so a window that holds no word of an item cannot support
the claim, whatever a score or the judge says. :func:`missing_items` is the guard of
:mod:`disputatio.validators.guards`.

A list is three or more items joined by commas and a final "and"/"or" ("A, B and C", "A, B,
or C"); each item after the first is at most :data:`MAX_ITEM_WORDS` words, so clauses joined by
commas are not read as a list, nor are segments that start a clause ("which", "that", …). The
first item is the last word before the first comma ("by *fever*, arthralgia …"), the last runs
to a clause boundary. An item is present when one of its content words (stemmed) is in the
evidence or its section's title and headings.

Lexical; no model call.
"""

from __future__ import annotations

import re

from disputatio.validators.sentences import content_words, words

#: Longest item after the first, in words: longer segments are clauses, not list items.
MAX_ITEM_WORDS = 4
#: Where the last item ends: punctuation, a citation, or a word that starts a new clause.
_LAST_END = re.compile(
    r"[;:.!?\[\]()]|,|\s(?:which|that|who|where|while|because|since|as|in|of|to|for|with|"
    r"from|by|on|at|during|after|before|when)\s",
    re.I,
)
_FINAL = re.compile(r",?\s+(?:and|or)\s+", re.I)
#: An item starting so is a clause ("The pack, which weighs 2 kg, lasts 70 hours and …").
_CLAUSE_START = re.compile(r"\s*(?:which|that|who|whom|whose|where|when|while|but|so)\b", re.I)


def list_items(claim: str) -> list[str]:
    """The items of the first list of three or more in ``claim``, or ``[]``.

    >>> list_items("It causes fever, arthralgia, hepatitis and hepatosplenomegaly.")
    ['fever', 'arthralgia', 'hepatitis', 'hepatosplenomegaly']
    """
    text = re.sub(r"\[[^\]]*\]", " ", claim)  # citations are no items
    text = re.sub(r"(?<=\d),(?=\d{3}\b)", "", text)  # "1,650 NOK" is one number
    segments = text.split(",")
    for start in range(len(segments) - 1):
        items = _items_from(segments[start:])
        if items:
            return items
    return []


def _items_from(segments: list[str]) -> list[str]:
    """The list starting at ``segments[0]``'s last word, when the segments form one."""
    head = words(segments[0])
    if not head or _CLAUSE_START.match(segments[0]):
        return []
    items = [head[-1]]
    for segment in segments[1:]:
        if _CLAUSE_START.match(segment):
            return []
        padded = " " + segment  # a final "and" at the segment's start still has a space before
        final = _FINAL.search(padded)
        if final is None:
            if len(words(segment)) > MAX_ITEM_WORDS or not words(segment):
                return []
            items.append(segment.strip())
            continue
        before = padded[: final.start()].strip()
        if before:
            if len(words(before)) > MAX_ITEM_WORDS:
                return []
            items.append(before)
        rest = padded[final.end() :]
        end = _LAST_END.search(" " + rest)
        last = (" " + rest)[: end.start()] if end else rest
        if not words(last) or len(words(last)) > MAX_ITEM_WORDS:
            return []
        items.append(last.strip())
        return items if len(items) >= 3 else []
    return []


def missing_items(claim: str, evidence: str) -> list[str]:
    """The items of ``claim``'s list with no content word in ``evidence`` (title included)."""
    have = content_words(evidence)
    return [
        item for item in list_items(claim) if content_words(item) and not content_words(item) & have
    ]
