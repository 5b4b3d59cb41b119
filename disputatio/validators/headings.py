"""The headings written inside a section's text: Markdown, underlined and plain-text capitals.

A section (a parent chunk) may span several parts of its document; a sentence is about what
the heading it stands under names (:class:`~disputatio.validators.windows.Windows`).

Lexical; no model call.
"""

from __future__ import annotations

import re

#: A Markdown heading line ("## Diagnosis") and its level.
_ATX_RE = re.compile(r"^[ \t]*(#{1,6})[ \t]+(.+?)[ \t#]*$", re.M)
#: A heading underlined by a rule ("CAUSATIVE ORGANISMS" over "-----"): level 1 for "=", 2 for "-".
_SETEXT_RE = re.compile(r"^[ \t]*(\S[^\n]*?)[ \t]*\n[ \t]*(=+|-+)[ \t]*$", re.M)
#: A plain-text heading: a line of capitals alone ("FREEWHEEL STATION", "LOST PROPERTY").
_CAPS_RE = re.compile(r"^[ \t]*([A-Z][A-Z0-9 ,:;'&()/+-]*[A-Z0-9)])[ \t]*$", re.M)


def headings_in(text: str) -> list[tuple[int, str]]:
    """The headings written inside a section's text, each from where it holds: ``(end, path)``.

    A section (a parent chunk) may span several subsections of its document ("## History",
    "## Diagnosis"); a sentence under "## Diagnosis" is about diagnosis although it does not say
    so ("**Serology** … is the main method": ``make demo``, 2026-12-04, left "Q fever is
    diagnosed through serology" unsupported). ``path`` is the headings in force after ``end``
    (a deeper one under its parents, a heading of the same level replacing the last), joined.
    """
    found = [(m.start(), m.end(), len(m.group(1)), m.group(2)) for m in _ATX_RE.finditer(text)]
    found += [
        (m.start(), m.end(), 1 if m.group(2)[0] == "=" else 2, m.group(1))
        for m in _SETEXT_RE.finditer(text)
        if len(m.group(2)) >= 3 and not m.group(1).startswith(("#", "-", "*", "|"))
    ]
    found += _caps_headings(text, {start for start, *_ in found})
    found += _line_headings(text, {start for start, *_ in found})
    out: list[tuple[int, str]] = []
    stack: list[tuple[int, str]] = []
    for _start, end, level, title in sorted(found):
        stack = [(lv, t) for lv, t in stack if lv < level] + [(level, title.strip("*_ "))]
        out.append((end, " ".join(t for _, t in stack)))
    return out


def _caps_headings(text: str, taken: set[int]) -> list[tuple[int, int, int, str]]:
    """Plain-text headings: lines of capitals, ``(start, end, level, title)``.

    A plain-text document heads its parts in capitals ("FREEWHEEL STATION" over "Opening
    hours: Monday to Friday 07:30 to 19:00 …": ac008, held-out set 28, left the Station's hours
    unsupported). The lines above the first line of text are the document's title (level 1);
    the later ones head its parts (level 2, each replacing the last).
    """
    # where the first line of text (neither blank nor capitals) starts
    body, pos = len(text), 0
    for line in text.splitlines(keepends=True):
        if line.strip() and not _CAPS_RE.fullmatch(line.rstrip("\r\n")):
            body = pos
            break
        pos += len(line)
    found = []
    for m in _CAPS_RE.finditer(text):
        if m.start() in taken or sum(c.isalpha() for c in m.group(1)) < 3:
            continue
        found.append((m.start(), m.end(), 1 if m.start() < body else 2, m.group(1)))
    return found


#: A plain-text heading in upper and lower case: a short line of words, no digits, no final
#: stop, nothing of a contact line, a table row or a label ("Ashworth Telescope Training").
_LINE_RE = re.compile(r"^[ \t]*([A-Z][A-Za-z'’&/()-]*(?: [A-Za-z'’&/()-]+){0,7})[ \t]*$", re.M)


def _line_headings(text: str, taken: set[int]) -> list[tuple[int, int, int, str]]:
    """Plain-text headings in upper and lower case, ``(start, end, 3, title)``.

    A plain-text document heads its items with a line of their names, a blank line above it
    and its text right under it ("Ashworth Telescope Training" over "Two evenings at Hartsfell
    …" and "Price: 15.00 GBP, …": ao028, held-out set 40, left the training's price
    unsupported, since the price's line does not name the training). They stand under the
    capitals' headings (level 3, each replacing the last).
    """
    found = []
    first = len(text) - len(text.lstrip())  # where the text's first line starts
    for m in _LINE_RE.finditer(text):
        start, below = m.start(), m.end() + 1  # ``below``: past the line's newline
        blank_above = start <= first or text.endswith(("\n\n", "\n\r\n"), 0, start)
        text_below = below < len(text) and not text.startswith(("\n", "\r\n"), below)
        if start in taken or not blank_above or not text_below:
            continue
        found.append((m.start(), m.end(), 3, m.group(1)))
    return found
