"""Put back the HTML headings that trafilatura's main-content extraction left out.

trafilatura keeps the headings inside the region it takes for the main content but drops those
outside it, typically the page's ``<h1>`` in a ``<header>`` above the ``<article>`` or ``<main>``
element: ``<h1>Incident 2291</h1>`` then survives only in the document title, and the chunker's
heading paths (built from the markdown's ATX headings, :mod:`disputatio.ingest.markdown_blocks`)
miss the document's top-level heading.

:func:`restore_headings` walks the page's ``<h1>``-``<h6>`` in document order and, for each one
the markdown lacks, writes it as an ATX heading (``#`` × level) where the page puts it: before
the markdown block holding the first of the next :data:`LOOKAHEAD` text runs after the heading
that the markdown contains. Text is compared on letters and digits only (case-folded), so
markdown formatting and spacing do not matter. Rules:

- headings inside ``nav``, ``aside``, ``footer`` and ``form`` are boilerplate and never restored;
- a heading whose following text the markdown does not hold (a dropped sidebar's "Related
  posts") stays out;
- a markdown line holding just the heading's text (a heading kept as a paragraph or a bold line)
  becomes the heading instead of getting a second copy;
- headings are matched in order from a cursor, so a repeated heading text is matched once.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

#: Text runs after a heading tried, in order, as the place to put it back.
LOOKAHEAD = 4
#: Fewest letters and digits a text run needs to serve as that place (shorter ones are skipped).
MIN_ANCHOR = 6
#: Letters and digits of a text run searched for in the markdown.
ANCHOR_CHARS = 40

_DROPPED = ("script", "style", "head", "noscript", "template", "svg")
_BOILERPLATE = ("nav", "aside", "footer", "form")
_HEADING_TAGS = ("h1", "h2", "h3", "h4", "h5", "h6")
_ATX = re.compile(r"^ {0,3}#{1,6}(?:[ \t]|$)")


@dataclass(frozen=True)
class PageHeading:
    """A heading of the page.

    Attributes:
        level: 1 for ``<h1>`` ... 6 for ``<h6>``.
        text: Its text, whitespace collapsed.
        anchors: The normalized text runs that follow it (at most :data:`LOOKAHEAD`).
    """

    level: int
    text: str
    anchors: tuple[str, ...]


def normalize(text: str) -> str:
    """Case-folded letters and digits of ``text`` (what the matching compares)."""
    return "".join(c for c in text.casefold() if c.isalnum())


def _indexed(markdown: str) -> tuple[str, list[int]]:
    """:func:`normalize` of ``markdown`` and, per character of it, its offset in ``markdown``."""
    chars: list[str] = []
    offsets: list[int] = []
    for i, ch in enumerate(markdown):
        for c in ch.casefold():
            if c.isalnum():
                chars.append(c)
                offsets.append(i)
    return "".join(chars), offsets


def page_headings(html: str) -> list[PageHeading]:
    """The page's ``<h1>``-``<h6>`` in document order, boilerplate regions left out."""
    from bs4 import BeautifulSoup
    from bs4.element import NavigableString, Tag

    soup = BeautifulSoup(html, "html.parser")
    for tag in soup([*_DROPPED, *_BOILERPLATE]):
        tag.decompose()
    out: list[PageHeading] = []
    for tag in soup.find_all(_HEADING_TAGS):
        if not isinstance(tag, Tag):
            continue
        text = " ".join(tag.get_text(" ").split())
        if not normalize(text):
            continue
        anchors: list[str] = []
        for string in tag.find_all_next(string=True):
            # comments, doctypes and CDATA are NavigableString subclasses: skip them
            if type(string) is not NavigableString or tag in string.parents:
                continue
            key = normalize(string)
            if len(key) >= MIN_ANCHOR:
                anchors.append(key[:ANCHOR_CHARS])
                if len(anchors) == LOOKAHEAD:
                    break
        out.append(PageHeading(int(tag.name[1]), text, tuple(anchors)))
    return out


def _line_start(markdown: str, offset: int) -> int:
    return markdown.rfind("\n", 0, offset) + 1


def _line_end(markdown: str, offset: int) -> int:
    end = markdown.find("\n", offset)
    return len(markdown) if end < 0 else end


def _block_start(markdown: str, offset: int, floor: int) -> int:
    """Start of the blank-line-separated block holding ``offset`` (not before ``floor``)."""
    blank = markdown.rfind("\n\n", 0, offset)
    start = blank + 2 if blank >= 0 else 0
    return start if start >= floor else max(_line_start(markdown, offset), floor)


def _find_line(
    markdown: str, heading: PageHeading, start: int, end: int
) -> tuple[int, int, bool] | None:
    """The first line in ``[start, end)`` that holds ``heading``: ``(start, end, is_heading)``.

    An ATX heading line holds it when its letters and digits are the heading's; a plain line
    only when it is the heading's text, possibly in ``*``/``_`` emphasis (so a table row or a
    list item with the same words is never turned into a heading).
    """
    key = normalize(heading.text)
    plain = heading.text.casefold()
    position = _line_start(markdown, start)
    while position < end:
        stop = _line_end(markdown, position)
        line = markdown[position:stop]
        if _ATX.match(line):
            if normalize(line) == key:
                return position, stop, True
        elif " ".join(line.strip().strip("*_").split()).casefold() == plain:
            return position, stop, False
        position = stop + 1
    return None


def restore_headings(markdown: str, headings: list[PageHeading]) -> tuple[str, int]:
    """Write the page ``headings`` missing from ``markdown`` back into it (see the module doc).

    Args:
        markdown: The main content as markdown (trafilatura's output).
        headings: The page's headings (:func:`page_headings`).

    Returns:
        ``(markdown, restored)``: the markdown with the headings put back, and how many were
        put back (new heading lines plus plain lines turned into headings).
    """
    cursor = 0
    restored = 0
    indexed_at = -1  # the ``restored`` count the index was built at (stale once it grows)
    norm, offsets = "", list[int]()
    for heading in headings:
        if indexed_at != restored:
            norm, offsets = _indexed(markdown)
            indexed_at = restored
        start = bisect.bisect_left(offsets, cursor)
        place: int | None = None
        for anchor in heading.anchors:
            hit = norm.find(anchor, start)
            if hit >= 0:
                place = offsets[hit]
                break
        line = _find_line(markdown, heading, cursor, len(markdown) if place is None else place + 1)
        if line is not None:  # already there (as a heading or as a plain line)
            line_start, line_end, is_heading = line
            if not is_heading:
                markdown = markdown[:line_start] + _atx(heading) + markdown[line_end:]
                line_end = line_start + len(_atx(heading))
                restored += 1
            cursor = line_end
            continue
        if place is None:  # nothing after it was kept: boilerplate, leave it out
            continue
        at = _block_start(markdown, place, cursor)
        text = _atx(heading) + "\n\n"
        markdown = markdown[:at] + text + markdown[at:]
        cursor = at + len(text)
        restored += 1
    return markdown, restored


def _atx(heading: PageHeading) -> str:
    return f"{'#' * heading.level} {heading.text}"
