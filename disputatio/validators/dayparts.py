"""Parts of the day: a claim for the evening does not answer a question about the afternoon.

"My partner and I would love one of the sofas at the Lyric for the Sunday 2 pm matinee. How
much is a sofa for that showing?" is not answered by "… 6 two-seat sofas, which cost 18.00 GBP
per sofa for evening screenings" (am017, held-out set 38, a near miss answered): the documents
give the sofas' price for the evening only. The question's part of the day is read from its
clock times (before noon the morning, to 5 pm the afternoon, then the evening) and words
("matinee", "tonight"); the claim's from its words in lower case only ("Evening Members" is a
kind of membership, not a time). Lexical; no model call.
"""

from __future__ import annotations

import re

_CLOCK_RE = re.compile(r"\b(\d{1,2})(?:[:.]\d{2})?\s*([ap])\.?m\b|\b(\d{1,2}):\d{2}\b", re.I)
#: Words naming parts of the day, each with the parts it may be.
_WORDS = {
    "morning": {"morning"},
    "mornings": {"morning"},
    "afternoon": {"afternoon"},
    "afternoons": {"afternoon"},
    "evening": {"evening"},
    "evenings": {"evening"},
    "tonight": {"evening"},
    "matinee": {"morning", "afternoon"},
    "matinees": {"morning", "afternoon"},
}
_WORD_RE = re.compile(rf"\b(?:{'|'.join(_WORDS)})\b")


def _hour_part(hour: int) -> str:
    return "morning" if hour < 12 else "afternoon" if hour < 17 else "evening"


def asked_parts(question: str) -> set[str]:
    """The parts of the day ``question`` speaks of, from its clock times and words."""
    out: set[str] = set()
    for m in _CLOCK_RE.finditer(question or ""):
        if m.group(1):
            hour = int(m.group(1)) % 12 + (12 if m.group(2).lower() == "p" else 0)
        else:
            hour = int(m.group(3))
        if hour <= 23:
            out.add(_hour_part(hour))
    for m in _WORD_RE.finditer((question or "").casefold()):
        out |= _WORDS[m.group(0)]
    return out


def daypart_contrast(question: str, claim: str) -> tuple[str, str] | None:
    """``(asked, claimed)`` parts of the day when the claim's share none with the question's."""
    asked = asked_parts(question)
    claimed: set[str] = set()
    for m in _WORD_RE.finditer(claim or ""):  # lower case: "Evening Members" names a kind
        claimed |= _WORDS[m.group(0)]
    if not asked or not claimed or asked & claimed:
        return None
    return " or ".join(sorted(asked)), " or ".join(sorted(claimed))
