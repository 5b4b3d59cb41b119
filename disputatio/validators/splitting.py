"""Sentences with their character spans: the splitter the claim checker reads texts with.

Split from :mod:`disputatio.validators.sentences` (which re-exports :func:`split_sentences` and
:class:`Span`): lines, bullets, headings and table rows are sentences of their own, hard-wrapped
lines are joined, and a sentence ends at ``.``, ``!`` or ``?`` except after an abbreviation.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import NamedTuple

_ABBREVIATIONS = frozenset(
    "e.g i.e etc vs dr mr mrs ms prof no nos fig approx incl cf al st jr sr inc ltd co min max "
    "dept est vol p pp".split()
)
_END_RE = re.compile(r"[.!?]+[\"')\]]*(?=\s+|$)")
_QUOTED_QUESTION_RE = re.compile(r"[!?]+[\"'”’)]+")
_NEXT_LOWER_RE = re.compile(r"\s+[a-z]")
_BULLET_RE = re.compile(r"^\s*(?:[-*•·]|\d{1,2}[.)])\s+")
_HEADING_RE = re.compile(r"^\s*#{1,6}\s+")


class Span(NamedTuple):
    """A sentence of a text with its offsets (``text[start:end] == sentence``)."""

    start: int
    end: int
    sentence: str


def _ends_with_abbreviation(chunk: str) -> bool:
    words = chunk.rstrip(".!?\"')]").split()
    last = words[-1].lstrip("*_([\"'") if words else ""  # "*C. burnetii*": markup before it
    if last.casefold().rstrip(".") in _ABBREVIATIONS:
        return True
    # an initial ("J. Smith"), not a unit after a number ("2,000 m.")
    before = words[-2] if len(words) > 1 else ""
    return len(last) == 1 and last.isupper() and not before[-1:].isdigit()


def _bare_no(chunk: str, after: str) -> bool:
    """Whether ``chunk`` ends with the answer "No." rather than "No." of a number ("No. 14")."""
    words = chunk.split()
    return bool(words) and words[-1].casefold() == "no." and not after.lstrip()[:1].isdigit()


def _line_sentences(line: str, base: int) -> Iterator[Span]:
    stripped = line.strip()
    if (len(stripped) > 1 and stripped[0] == stripped[-1] == "|") or is_plain_row(line):
        # a table row is one sentence, its cells' full stops too ("| Parking | The leisure
        # centre's pay-and-display car park. | A gravel car park …. |": av002, set 47)
        start = len(line) - len(line.lstrip())
        yield Span(base + start, base + start + len(stripped), stripped)
        return
    head = _BULLET_RE.match(line) or _HEADING_RE.match(line)
    start = head.end() if head else len(line) - len(line.lstrip())
    pos = start
    for match in _END_RE.finditer(line):
        if match.start() <= pos or (
            _ends_with_abbreviation(line[pos : match.end()])
            and not _bare_no(line[pos : match.end()], line[match.end() :])
        ):
            continue
        if _QUOTED_QUESTION_RE.fullmatch(match.group(0)) and _NEXT_LOWER_RE.match(
            line, match.end()
        ):
            continue  # 'The question "How often ...?" is answered': a quoted question goes on
        if (
            re.match(r"\d", line[match.end() :].lstrip()[:1] or "x")
            and line[match.start() - 1 : match.start()].isdigit()
        ):
            continue  # "1. 5" never happens; "version 2. 3" rarely: keep numbers whole
        yield Span(base + pos, base + match.end(), line[pos : match.end()])
        pos = match.end()
        while pos < len(line) and line[pos].isspace():
            pos += 1
    rest = line[pos:].rstrip()
    if rest.strip():
        yield Span(base + pos, base + pos + len(rest), rest)


_STRUCTURAL_RE = re.compile(r"^\s*(?:[-*•·]\s|\d{1,2}[.)]\s|#|\||[=\-_~]{3,}\s*$)")
#: A row of a plain-text table, without outer pipes: "Silent Night | Friday 2 October | 7.30 pm"
#: (three cells or more, on one line).
_PLAIN_ROW_RE = re.compile(r"[^|\n]*\S \| [^\n]*\S \| [^\n]*\S")


def is_plain_row(line: str) -> bool:
    """Whether ``line`` is a row of a plain-text table: cells between pipes, none around them."""
    stripped = line.strip()
    return not stripped.startswith("|") and bool(_PLAIN_ROW_RE.fullmatch(stripped))


def _continues(prev: str, line: str) -> bool:
    """Whether ``line`` carries on the sentence of ``prev`` (text hard-wrapped at ~80 columns)."""
    if not prev.strip() or not line.strip() or _STRUCTURAL_RE.match(line):
        return False
    if _STRUCTURAL_RE.match(prev) and not _BULLET_RE.match(prev):
        return False  # a heading, table row or rule ends where its line ends
    if is_plain_row(prev) or is_plain_row(line):
        return False  # a plain-text row of 60 characters or more is no wrapped line (am030)
    tail, head = prev.rstrip(), line.lstrip()
    if tail[-1] in ".!?:;":
        return False
    wrapped = len(tail) >= 60 and (tail[-1].isalnum() or tail[-1] in ",-")  # a full line
    return head[0].islower() or head[0].isdigit() or wrapped


def split_sentences(text: str) -> list[Span]:
    """Split ``text`` into sentences with their offsets.

    Lines are split apart (a heading, a bullet, a table row is a sentence of its own) unless a
    line carries on the sentence of the line before (hard-wrapped text: the line before ends
    mid-sentence and this one goes on in lower case); within a line a sentence ends at ``.``,
    ``!`` or ``?`` followed by a space, except after common abbreviations and initials (also in
    markup: "*C. burnetii*"), and a quoted question goes on when the next word is in lower
    case. Bullet and heading markers are not part of the sentence. A wrapped sentence keeps its
    line break.

    Args:
        text: Any text.

    Returns:
        The non-empty sentences in order, each with ``start``/``end`` into ``text``.
    """
    spans: list[Span] = []
    text = text or ""
    lines = text.split("\n")
    offset = 0
    block_start, block = 0, ""
    for i, line in enumerate(lines):
        if block and _continues(lines[i - 1], line):
            block += "\n" + line
        else:
            if block.strip():
                spans.extend(_line_sentences(block, block_start))
            block_start, block = offset, line
        offset += len(line) + 1
    if block.strip():
        spans.extend(_line_sentences(block, block_start))
    return spans
