"""A window saying "both sites" or "either hotel" names each site or hotel the sections name.

"The Harbour hotel takes a pre-authorisation of 50 GBP per night" rests on "At check-in, both
hotels take a pre-authorisation of 50 GBP per night" (l016, held-out set 26), where the Harbour
hotel and the Old Town hotel are named in other sentences; "The Station keeps lost property for
30 days" on "Items left at either site are kept for 30 days" (ac030, set 28), where the table's
"Site" column holds "Station". The names of a kind are taken from the shown sections only: a
name written before the kind's noun ("the Harbour hotel", "the Gullholm route") or a cell
under a column headed by it ("Site: Station").

Lexical; no model call.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from disputatio.validators.names import name_form
from disputatio.validators.sentences import STOPWORDS

#: "both sites", "either of the two hotels", "each route", "all branches": a whole kind.
_QUANTIFIED_RE = re.compile(
    r"\b(?:both|either|each|every|all)\s+(?:of\s+)?(?:the\s+|our\s+)?(?:two\s+|three\s+)?"
    r"([a-z]{3,})\b",
    re.I,
)
_NAME_WORD = r"[A-Z][\w'’-]*"


def singular(noun: str) -> str:
    """``noun`` folded and without its plural ending ("branches" → "branch")."""
    low = noun.casefold()
    if re.search(r"(?:ch|sh|x|ss)es$", low):
        return low[:-2]
    return low[:-1] if low.endswith("s") and not low.endswith("ss") else low


def quantified(window: str) -> set[str]:
    """The kinds (singular nouns) ``window`` speaks of as a whole ("both hotels" → hotel)."""
    return {singular(m.group(1)) for m in _QUANTIFIED_RE.finditer(window)} - STOPWORDS


def members(kind: str, texts: Iterable[str]) -> set[str]:
    """The name words of the things of ``kind`` that ``texts`` name (folded).

    A run of capitalised words right before the kind's noun ("the Old Town hotel"), not at a
    sentence's start ("Both hotels …"), and a table cell read under a header of that noun
    ("Site: Station", :func:`~disputatio.validators.tables.readings`).
    """
    noun = rf"{re.escape(kind)}(?:e?s)?"
    before = re.compile(rf"(?<=[a-z,;:] )((?:{_NAME_WORD} )+)(?i:{noun})\b")
    cell = re.compile(rf"(?:^|\| ){noun}: ([^|]+?) \|", re.I | re.M)
    found: set[str] = set()
    for text in texts:
        for m in before.finditer(text):
            found |= {name_form(w) for w in m.group(1).split()}
        for m in cell.finditer(text):
            words = m.group(1).split()
            if words and all(w[:1].isupper() for w in words):
                found |= {name_form(w) for w in words}
    return {w for w in found if w not in STOPWORDS and len(w) > 1}


def kind_names(window: str, texts: Iterable[str], known: dict[str, set[str]] | None = None) -> str:
    """The names a window speaking of whole kinds stands for, as context ("" when none).

    ``known`` keeps each kind's :func:`members` across the windows of one set of ``texts``.
    """
    kinds = quantified(window)
    if not kinds:
        return ""
    known = {} if known is None else known
    shown = list(texts)
    for kind in kinds - known.keys():
        known[kind] = members(kind, shown)
    return " ".join(sorted({name for kind in kinds for name in known[kind]}))


#: A name after a preposition: "at Heronmere", "from Abbey".
_PLACED_RE = re.compile(r"\b(at|in|from|to|for)\s+(?:the\s+)?([A-Z][\w'’-]*)")


def placed(text: str) -> dict[str, set[str]]:
    """The prepositions each name of ``text`` (folded) stands after: "at Heronmere" → at."""
    slots: dict[str, set[str]] = {}
    for m in _PLACED_RE.finditer(text):
        slots.setdefault(name_form(m.group(2)), set()).add(m.group(1).casefold())
    return slots


def alternatives(one: Iterable[str], other: Iterable[str], slots: dict[str, set[str]]) -> bool:
    """Whether a name of ``one`` and a name of ``other`` (folded) stand alike in a text.

    "… not allowed at Heronmere" and "… sold at Thornbeck": two places said the same way are
    alternatives, so a sentence naming one is not about the other. ``slots`` is the text's
    :func:`placed`.
    """
    mine = set().union(*(slots.get(n, set()) for n in one))
    return bool(mine & set().union(*(slots.get(n, set()) for n in other)))
