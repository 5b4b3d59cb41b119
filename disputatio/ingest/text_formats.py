"""Extraction of text-based formats: plain text, markdown and HTML.

Bytes are decoded as UTF-8 when possible; otherwise charset_normalizer guesses the encoding and
a warning records the guess. Binary content (NUL bytes, many control characters) is refused.
HTML goes through trafilatura (main-content extraction straight to markdown) and falls back to
markdownify over the whole page when trafilatura finds nothing. Page headings trafilatura left
out (an ``<h1>`` above the main content) are put back as ATX headings
(:mod:`disputatio.ingest.html_headings`), so the chunks' heading paths hold them.
"""

from __future__ import annotations

import codecs
import logging
import re
import unicodedata
from pathlib import Path

from disputatio.errors import IngestError
from disputatio.ingest.html_headings import page_headings, restore_headings
from disputatio.ingest.types import ExtractedDocument

logger = logging.getLogger(__name__)

MAX_CHAOS_PERCENT = 10.0
"""charset_normalizer guesses noisier than this (mess ratio, in percent) are refused."""

MAX_CONTROL_RATIO = 0.01
"""Decoded text with more control characters than this fraction is treated as binary."""

_WESTERN_ENCODINGS = ("cp1252", "latin_1")
_HEADING = re.compile(r"^ {0,3}#{1,6}[ \t]+(.+?)[ \t#]*$", re.MULTILINE)


def normalize_newlines(text: str) -> str:
    """Convert CRLF and lone CR line endings to LF."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _control_ratio(text: str) -> float:
    sample = text[:200_000]
    if not sample:
        return 0.0
    bad = sum(
        1 for ch in sample if ch not in "\n\r\t\f" and unicodedata.category(ch) in ("Cc", "Cs")
    )
    return bad / len(sample)


def _guess_decode(data: bytes, path: Path) -> tuple[str, str]:
    """Decode non-UTF-8 bytes with charset_normalizer, preferring Western code pages on ties."""
    from charset_normalizer import from_bytes

    matches = [m for m in from_bytes(data) if m.percent_chaos <= MAX_CHAOS_PERCENT]
    if not matches:
        raise IngestError(f"{path}: not UTF-8 and no text encoding could be detected (binary?)")
    # charset_normalizer often ranks a Baltic or Central European code page first for short
    # Western text; when cp1252/latin-1 decodes just as cleanly it is the likelier source.
    for match in matches:
        for encoding in _WESTERN_ENCODINGS:
            if encoding in match.could_be_from_charset:
                try:
                    return data.decode(encoding), encoding
                except UnicodeDecodeError:
                    continue
    best = matches[0]
    return str(best), best.encoding


def decode_text(data: bytes, path: Path) -> tuple[str, str, list[str]]:
    """Decode file bytes to text.

    Args:
        data: The raw file content.
        path: The file, for messages.

    Returns:
        ``(text, encoding, warnings)`` with newlines normalised to LF.

    Raises:
        IngestError: The bytes look binary or no encoding fits.
    """
    warnings: list[str] = []
    if data.startswith(codecs.BOM_UTF8):
        text, encoding = data[len(codecs.BOM_UTF8) :].decode("utf-8", errors="replace"), "utf-8"
    elif data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        text, encoding = data.decode("utf-16", errors="replace"), "utf-16"
    else:
        try:
            text, encoding = data.decode("utf-8"), "utf-8"
        except UnicodeDecodeError:
            if b"\x00" in data:
                raise IngestError(f"{path}: binary content, not text") from None
            text, encoding = _guess_decode(data, path)
            warnings.append(f"{path.name}: not UTF-8; decoded as {encoding} (detected)")
            logger.warning("%s: not UTF-8; decoded as %s", path, encoding)
    if _control_ratio(text) > MAX_CONTROL_RATIO:
        raise IngestError(f"{path}: binary content, not text")
    return normalize_newlines(text), encoding, warnings


def first_heading(markdown: str) -> str | None:
    """Return the text of the first ATX heading in ``markdown``, if any."""
    match = _HEADING.search(markdown)
    return match.group(1).strip() if match else None


def _fallback_title(markdown: str, path: Path) -> str:
    heading = first_heading(markdown)
    if heading:
        return heading
    return path.stem


def extract_plain(data: bytes, path: Path, *, kind: str) -> ExtractedDocument:
    """Extract a plain-text or markdown file (kept as is, newlines normalised).

    Args:
        data: The raw file content.
        path: The file.
        kind: ``"txt"`` or ``"md"``.

    Returns:
        The extracted document.
    """
    text, encoding, warnings = decode_text(data, path)
    title = _fallback_title(text, path) if kind == "md" else path.stem
    return ExtractedDocument(
        markdown=text,
        title=title,
        source_kind="md" if kind == "md" else "txt",
        warnings=tuple(warnings),
        metadata={"encoding": encoding},
    )


def _markdownify(html: str) -> str:
    from bs4 import BeautifulSoup
    from markdownify import MarkdownConverter

    soup = BeautifulSoup(html, "html.parser")
    for tag in soup(["script", "style", "head", "noscript", "template", "svg"]):
        tag.decompose()
    markdown = MarkdownConverter(heading_style="ATX", bullets="-").convert_soup(soup)
    return re.sub(r"\n{3,}", "\n\n", markdown).strip()


def _html_title(html: str) -> str | None:
    import trafilatura

    try:
        metadata = trafilatura.extract_metadata(html)
    except Exception as exc:  # trafilatura raises assorted errors on odd markup
        logger.warning("trafilatura metadata failed: %s", exc)
        return None
    title = getattr(metadata, "title", None) if metadata is not None else None
    return str(title).strip() if title else None


def extract_html(data: bytes, path: Path) -> ExtractedDocument:
    """Extract the main content of an HTML page as markdown.

    Args:
        data: The raw file content.
        path: The file.

    Returns:
        The extracted document (headings, paragraphs, lists and tables kept). Its
        ``metadata`` records the extractor and, for trafilatura, how many page headings it
        had left out and were put back (``headings_restored``).
    """
    import trafilatura

    html, encoding, warnings = decode_text(data, path)
    markdown: str | None
    try:
        markdown = trafilatura.extract(
            html,
            output_format="markdown",
            include_tables=True,
            include_formatting=True,
            include_links=False,
            include_images=False,
            include_comments=False,
            favor_recall=True,
        )
    except Exception as exc:  # trafilatura raises assorted errors on odd markup
        logger.warning("%s: trafilatura failed (%s); using markdownify", path, exc)
        markdown = None
    metadata: dict[str, str | int] = {"encoding": encoding, "extractor": "trafilatura"}
    if not markdown or not markdown.strip():
        markdown = _markdownify(html)
        metadata["extractor"] = "markdownify"
        warnings.append(f"{path.name}: main-content extraction found nothing; converted whole page")
    else:  # markdownify converts the whole page, headings included; trafilatura may drop some
        markdown, metadata["headings_restored"] = restore_headings(
            normalize_newlines(markdown), page_headings(html)
        )
    markdown = normalize_newlines(markdown).strip()
    title = _html_title(html) or _fallback_title(markdown, path)
    return ExtractedDocument(
        markdown=markdown,
        title=title,
        source_kind="html",
        warnings=tuple(warnings),
        metadata=metadata,
    )
