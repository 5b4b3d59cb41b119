"""Counted items of one sentence: a figure stays with the item it is said of.

"44 hardstanding touring pitches with a 16-amp electric hook-up and 12 lakeside premium pitches
with electricity" gives the 16 amps to the touring pitches. Set 22's s011 ("How many amps is the
hook-up on the lakeside premium pitches?", which the documents do not say) was answered "The
electric hook-up on the lakeside premium pitches is 16-amp." on it: the name rules
(:mod:`disputatio.validators.guards`) bind a figure to a capitalised name, and these are
lower-case descriptions.

:func:`other_item` reads a sentence listing two or more counted items of one kind ("44 …
pitches", "12 … pitches": the same last word) as items, each from its count to the next one's,
and refuses a claim whose figure stands in one item only while the claim names what sets
another item apart (its head's own words) and nothing of what sets the first apart (an item
with no words of its own, "125 cc Honda bikes … and 500 cc bikes", tells nothing).

Lexical; no model call.
"""

from __future__ import annotations

import re

from disputatio.validators.sentences import (
    STOPWORDS,
    content_words,
    split_sentences,
    stated_numbers,
)

#: A count and the words after it, up to four ("44 hardstanding touring pitches").
_COUNTED_RE = re.compile(r"(?<![\w.,:£$€-])(\d+)((?:\s+[^\W\d_][\w'’-]*){1,4})")


def _items(sentence: str) -> list[tuple[int, int, frozenset[str]]]:
    """``(start, end, head words)`` of each counted item of one kind in ``sentence``.

    An item's head is its count's words up to the first stopword ("12 lakeside premium pitches
    with electricity" → lakeside, premium, pitches). Items of one kind share the head's last
    word; fewer than two such items give none.
    """
    found: list[tuple[int, list[str]]] = []
    for m in _COUNTED_RE.finditer(sentence):
        head: list[str] = []
        for word in m.group(2).split():
            if word.casefold() in STOPWORDS:
                break
            head.append(word)
        if head:
            found.append((m.start(), head))
    kinds: dict[str, list[tuple[int, list[str]]]] = {}
    for start, head in found:
        kinds.setdefault(head[-1].casefold(), []).append((start, head))
    items = [group for group in kinds.values() if len(group) >= 2]
    if not items:
        return []
    group = max(items, key=len)
    starts = [s for s, _ in group] + [len(sentence)]
    return [
        (starts[i], starts[i + 1], content_words(" ".join(head)))
        for i, (_, head) in enumerate(group)
    ]


def other_item(claim: str, window: str) -> str:
    """Why ``window`` gives the claim's figure to another counted item than the claim names.

    Returns:
        A short reason, or ``""``.
    """
    figures = {n for n, _ in stated_numbers(claim)}
    if not figures:
        return ""
    said = content_words(claim)
    for span in split_sentences(window):
        items = _items(span.sentence)
        for number in figures:
            holders = [
                (a, b, head)
                for a, b, head in items
                if number in {n for n, _ in stated_numbers(span.sentence[a:b])}
            ]
            if len(holders) != 1:
                continue
            own = holders[0][2]
            others = [head for _, _, head in items if head is not own]
            mine = own - frozenset().union(*others)
            theirs = [head - own for head in others]
            if mine and not (said & mine) and any(said & t for t in theirs):
                a, b, _ = holders[0]
                item = " ".join(span.sentence[a:b].split()[:4])
                return f"the sentence gives {number} to {item!r}, not to what the claim names"
    return ""
