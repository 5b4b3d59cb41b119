"""The parts of a question, read off its wording: "What is X, and how deep is it?" asks two.

:func:`question_parts` is what the quick path's per-part "not found"
(:mod:`disputatio.validators.parts`) and the relevance check of a two-part question
(:mod:`disputatio.validators.relevance`) read. Lexical; no model call.
"""

from __future__ import annotations

import re

from disputatio.validators.asked import SECOND_PART_RE
from disputatio.validators.sentences import content_words

_QUESTION_END_RE = re.compile(r"(?<=\?)\s+(?=\S)")
_LEAD_AND_RE = re.compile(r"^(?:and|also)\s+", re.I)
#: Where a second clause starts: the wh-clauses of ``SECOND_PART_RE``, or "and in which …".
_JOIN_RE = re.compile(
    rf"{SECOND_PART_RE.pattern}|,?\s+and\s+[^\W\d_]+\s+(?:which|whom|whose)\b", re.I
)
#: "… and in B", "…, and for B": an elliptical second part repeating a preposition.
_ELLIPSIS_RE = re.compile(r",?\s+and\s+(in|of|for|at|on|from|to|with|during)\s+(?=\S)", re.I)


def _clean(part: str) -> str:
    """One part as a question of its own: no leading "and", first letter up, one "?"."""
    text = _LEAD_AND_RE.sub("", part.strip().strip(",;").strip())
    text = text.rstrip("?.,; ").strip()
    return f"{text[:1].upper()}{text[1:]}?" if text else ""


def _elliptical(piece: str) -> list[str]:
    """Read "What is X in A and in B?" as "What is X in A?" and "What is X in B?".

    The part after "and" repeats a preposition of the first; what stands before that
    preposition's last use is the frame both parts share. Otherwise the piece is one part.
    """
    m = _ELLIPSIS_RE.search(piece)
    if not m:
        return [piece]
    prep = m.group(1)
    head = piece[: m.start()]
    at = [x.start() for x in re.finditer(rf"\s{re.escape(prep)}\s", head, re.I)]
    if not at or not content_words(head[: at[-1]]):
        return [piece]
    frame = head[: at[-1]]
    return [head, f"{frame} {prep} {piece[m.end() :]}"]


def question_parts(question: str) -> list[str]:
    """The questions ``question`` asks, in order (one item when it asks one thing).

    A question asks two things where a second question mark follows, where "and" joins a
    second wh-clause ("…, and how often …", "… and in which month …"), or where "and"
    repeats a preposition of the first part ("allowances in Tromsø and in Oslo": the second
    part takes the first's frame). "The green bin and the blue bin" is one part, and so is
    what the asker adds after the question ("She's very well behaved.").
    """
    text = " ".join((question or "").split())
    parts: list[str] = []
    pieces = _QUESTION_END_RE.split(text)
    if len(pieces) > 1 and not pieces[-1].rstrip().endswith("?"):
        pieces.pop()  # "… at the Hall? She's very well behaved." (aw030, held-out set 48)
    for piece in pieces:
        start = 0
        for m in _JOIN_RE.finditer(piece):
            cut = m.start() + m.group(0).casefold().index("and") + len("and")
            parts.append(piece[start : m.start()])
            start = cut
        rest = piece[start:]
        parts.extend(_elliptical(rest) if start == 0 else [rest])
    cleaned = [p for p in (_clean(x) for x in parts) if p]
    return cleaned if len(cleaned) > 1 else [text]
