"""PDF extraction with pypdfium2: the text layer page by page, OCR for pages without one.

Lines set in a noticeably larger font than the document's body text become markdown headings
(the largest size ``#``, the next ``##``, the rest ``###``). Pages are joined with a blank line and
each page's span in the markdown is recorded. A page without a text layer is rendered and passed
to the OCR parser as a PNG blob when one is given; otherwise it is skipped with a warning.
"""

from __future__ import annotations

import logging
import re
import statistics
import unicodedata
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from disputatio.errors import IngestError
from disputatio.ingest.ocr_parser import OcrInput, as_ocr_parser, png_blob, read_blob
from disputatio.ingest.types import ExtractedDocument, PageSpan
from disputatio.ingest.util import one_line

logger = logging.getLogger(__name__)

OCR_RENDER_DPI = 200
"""Resolution at which pages without a text layer are rendered for OCR."""

HEADING_SIZE_RATIO = 1.2
"""A line whose font is at least this many times the body size is a heading candidate."""

_MAX_HEADING_WORDS = 20
_LINE_BREAK = re.compile(r"\r\n|\r|\n")


@dataclass
class _Line:
    text: str
    size: float | None


def _clean(text: str) -> str:
    return "".join(
        ch for ch in text if ch in "\n\t" or unicodedata.category(ch) not in ("Cc", "Cf", "Co")
    )


def _page_lines(textpage: Any) -> list[_Line]:
    """Split a text page into lines, each with its median font size (None if unknown)."""
    import pypdfium2.raw as pdfium_c

    text = textpage.get_text_range()
    sizes_known = len(text) == textpage.count_chars()
    lines: list[_Line] = []
    position = 0
    for match in [*_LINE_BREAK.finditer(text), None]:
        end = match.start() if match else len(text)
        line = _clean(text[position:end]).strip()
        if line:
            size: float | None = None
            if sizes_known:
                sizes = [
                    pdfium_c.FPDFText_GetFontSize(textpage.raw, i)
                    for i in range(position, end)
                    if not text[i].isspace()
                ]
                size = float(statistics.median(sizes)) if sizes else None
            lines.append(_Line(line, size))
        position = match.end() if match else len(text)
    return lines


def _heading_levels(pages: list[list[_Line]]) -> tuple[float | None, dict[float, int]]:
    """Find the body font size and map larger (heading) sizes to levels 1-3."""
    weights: Counter[float] = Counter()
    for lines in pages:
        for line in lines:
            if line.size is not None:
                weights[round(line.size, 1)] += len(line.text)
    if not weights:
        return None, {}
    body = weights.most_common(1)[0][0]
    bigger = sorted({s for s in weights if s >= body * HEADING_SIZE_RATIO}, reverse=True)
    return body, {size: min(rank + 1, 3) for rank, size in enumerate(bigger)}


def _render_page(lines: list[_Line], levels: dict[float, int]) -> str:
    parts: list[str] = []
    body: list[str] = []
    for line in lines:
        level = levels.get(round(line.size, 1)) if line.size is not None else None
        words = len(line.text.split())
        if level and words <= _MAX_HEADING_WORDS and any(c.isalpha() for c in line.text):
            if body:
                parts.append("\n".join(body))
                body = []
            parts.append("#" * level + " " + line.text)
        else:
            body.append(line.text)
    if body:
        parts.append("\n".join(body))
    return "\n\n".join(parts)


def _open(data: bytes, path: Path) -> Any:
    import pypdfium2 as pdfium
    import pypdfium2.raw as pdfium_c

    try:
        return pdfium.PdfDocument(data)
    except pdfium.PdfiumError as exc:
        if getattr(exc, "err_code", None) == pdfium_c.FPDF_ERR_PASSWORD:
            raise IngestError(f"{path}: encrypted PDF (password required)") from exc
        raise IngestError(f"{path}: corrupt or truncated PDF ({one_line(exc)})") from exc


def extract_pdf(data: bytes, path: Path, ocr: OcrInput | None) -> ExtractedDocument:
    """Extract a PDF's text layer (and OCR image-only pages) as markdown.

    Args:
        data: The raw file content.
        path: The file, for messages.
        ocr: OCR blob parser (or engine) for pages without a text layer, or None to skip them
            with a warning.

    Returns:
        The extracted document with one :class:`PageSpan` per page that yielded text.

    Raises:
        IngestError: The PDF is encrypted, corrupt or truncated.
    """
    parser = as_ocr_parser(ocr)
    pdf = _open(data, path)
    try:
        page_lines: list[list[_Line]] = []
        try:
            for index in range(len(pdf)):
                page = pdf[index]
                page_lines.append(_page_lines(page.get_textpage()))
        except Exception as exc:  # pdfium raises on damaged page objects
            raise IngestError(f"{path}: corrupt PDF page ({one_line(exc)})") from exc
        _body, levels = _heading_levels(page_lines)
        warnings: list[str] = []
        ocr_pages: list[int] = []
        texts: list[str] = []
        for index, lines in enumerate(page_lines):
            text = _render_page(lines, levels)
            if not text.strip():
                if parser is None:
                    warnings.append(f"{path.name}: page {index + 1} has no text layer (no OCR)")
                else:
                    scale = OCR_RENDER_DPI / 72
                    image = pdf[index].render(scale=scale).to_pil()
                    blob = png_blob(image, source=str(path), page=index + 1)
                    text = "\n".join(t for t in read_blob(parser, blob) if t)
                    ocr_pages.append(index + 1)
                    if not text:
                        warnings.append(f"{path.name}: page {index + 1}: OCR found no text")
            texts.append(text.strip())
        metadata = {k: v for k, v in pdf.get_metadata_dict().items() if v}
    finally:
        pdf.close()
    return _assemble(path, texts, levels, warnings, ocr_pages, metadata)


def _assemble(
    path: Path,
    texts: list[str],
    levels: dict[float, int],
    warnings: list[str],
    ocr_pages: list[int],
    pdf_metadata: dict[str, str],
) -> ExtractedDocument:
    markdown_parts: list[str] = []
    spans: list[PageSpan] = []
    offset = 0
    for number, text in enumerate(texts, start=1):
        if not text:
            continue
        if markdown_parts:
            offset += 2  # the "\n\n" joining pages
        spans.append(PageSpan(page=number, start=offset, end=offset + len(text)))
        markdown_parts.append(text)
        offset += len(text)
    markdown = "\n\n".join(markdown_parts)
    title = str(pdf_metadata.get("Title", "")).strip()
    if not title:
        heading = re.search(r"^#{1,3} (.+)$", markdown, re.MULTILINE) if levels else None
        title = heading.group(1).strip() if heading else path.stem
    metadata: dict[str, Any] = {"page_count": len(texts), "ocr_pages": ocr_pages}
    for key in ("Author", "Subject", "Creator", "Producer"):
        if pdf_metadata.get(key):
            metadata[key.lower()] = pdf_metadata[key]
    return ExtractedDocument(
        markdown=markdown,
        title=title,
        source_kind="pdf",
        pages=tuple(spans),
        ocr_used=bool(ocr_pages),
        warnings=tuple(warnings),
        metadata=metadata,
    )
