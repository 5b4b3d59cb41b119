"""Turn a file on disk into an :class:`ExtractedDocument` (markdown + pages + provenance).

The format is chosen from the extension and checked against the content's magic bytes: a file
named ``.pdf`` must start like a PDF, a ``.docx`` must be a ZIP package, an image must carry an
image signature. When the content clearly is another supported binary format, the content wins
(with a warning). Every failure a user can cause raises :class:`IngestError` with a one-line
message that names the file. Images and PDF pages without a text layer are read by an OCR blob
parser (:mod:`disputatio.ingest.ocr_parser`).
"""

from __future__ import annotations

import hashlib
import logging
from pathlib import Path
from typing import Literal

from langchain_core.document_loaders import BaseBlobParser, Blob

from disputatio.errors import IngestError
from disputatio.ingest.ocr_parser import (
    IMAGE_SIGNATURES,
    OcrInput,
    as_ocr_parser,
    image_mime_type,
    read_blob,
)
from disputatio.ingest.pdf import extract_pdf
from disputatio.ingest.text_formats import extract_html, extract_plain
from disputatio.ingest.types import ExtractedDocument, PageSpan
from disputatio.ingest.util import one_line
from disputatio.ingest.word import extract_docx

logger = logging.getLogger(__name__)

DEFAULT_MAX_BYTES = 50 * 2**20
"""Files larger than this (50 MiB) are refused by default."""

Kind = Literal["txt", "md", "html", "pdf", "docx", "image"]

EXTENSIONS: dict[str, Kind] = {
    ".txt": "txt",
    ".text": "txt",
    ".md": "md",
    ".markdown": "md",
    ".html": "html",
    ".htm": "html",
    ".xhtml": "html",
    ".pdf": "pdf",
    ".docx": "docx",
    ".png": "image",
    ".jpg": "image",
    ".jpeg": "image",
    ".tif": "image",
    ".tiff": "image",
}
"""Supported file extensions and the format each one announces."""

_BINARY_KINDS = ("pdf", "docx", "image")


def sha256_file(path: Path, *, chunk_size: int = 1 << 20) -> str:
    """Return the hex SHA-256 of a file's bytes, read in chunks.

    Args:
        path: The file.
        chunk_size: Bytes read at a time.

    Returns:
        64 lowercase hex digits.
    """
    digest = hashlib.sha256()
    with Path(path).open("rb") as handle:
        while block := handle.read(chunk_size):
            digest.update(block)
    return digest.hexdigest()


def sniff(head: bytes) -> Kind | None:
    """Guess a format from the first bytes of a file.

    Args:
        head: At least the first 1 KiB of the file (more is ignored).

    Returns:
        ``"pdf"``, ``"docx"`` (any ZIP package), ``"image"``, ``"html"``, or None when the bytes
        carry no known signature.
    """
    head = head[:1024]
    if head.startswith(b"%PDF-"):
        return "pdf"
    if head.startswith(b"PK\x03\x04"):
        return "docx"
    if head.startswith(tuple(IMAGE_SIGNATURES)):
        return "image"
    lowered = head.lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    if lowered.startswith((b"<!doctype html", b"<html")):
        return "html"
    return None


def _choose_kind(path: Path, head: bytes, warnings: list[str]) -> Kind:
    suffix = path.suffix.lower()
    announced = EXTENSIONS.get(suffix)
    if suffix and announced is None:
        supported = ", ".join(sorted(EXTENSIONS))
        raise IngestError(f"{path}: unsupported file type '{suffix}' (supported: {supported})")
    detected = sniff(head)
    if announced == "pdf" and b"%PDF-" in head[:1024]:
        detected = "pdf"  # the PDF spec allows junk before the header within the first 1 KiB
    if announced is None:
        return detected or "txt"
    if detected is not None and detected in _BINARY_KINDS and detected != announced:
        warnings.append(f"{path.name}: named {suffix} but the content is {detected}; read as such")
        return detected
    if announced in _BINARY_KINDS and detected != announced:
        raise IngestError(f"{path}: not a valid {announced.upper()} file (content does not match)")
    return announced


def _extract_image(data: bytes, path: Path, ocr: BaseBlobParser | None) -> ExtractedDocument:
    if ocr is None:
        raise IngestError(f"{path}: image files need OCR, but no OCR engine is configured")
    blob = Blob.from_data(data, mime_type=image_mime_type(data), path=str(path))
    texts = read_blob(ocr, blob)  # one text per page (frame)
    spans: list[PageSpan] = []
    offset = 0
    for number, text in enumerate(texts, start=1):
        if text:
            offset += 2 if spans else 0
            spans.append(PageSpan(page=number, start=offset, end=offset + len(text)))
            offset += len(text)
    return ExtractedDocument(
        markdown="\n\n".join(t for t in texts if t),
        title=path.stem,
        source_kind="image",
        pages=tuple(spans),
        ocr_used=True,
        metadata={"page_count": len(texts)},
    )


def extract(
    path: Path, *, ocr: OcrInput | None = None, max_bytes: int = DEFAULT_MAX_BYTES
) -> ExtractedDocument:
    """Extract a document's text as markdown.

    Args:
        path: The file to read (txt, md, html, pdf, docx, png, jpg, tiff).
        ocr: OCR for images and PDF pages without a text layer: a LangChain blob parser, or an
            OCR engine (read through an :class:`~disputatio.ingest.ocr_parser.OcrBlobParser`);
            None disables OCR.
        max_bytes: Larger files are refused.

    Returns:
        The extracted document; its ``warnings`` list lossy or guessed steps.

    Raises:
        IngestError: The file is missing, empty, too large, unsupported, corrupt, encrypted,
            binary where text was expected, or yields no text at all.
        TypeError: ``ocr`` is neither a blob parser nor an OCR engine.
    """
    path = Path(path)
    parser = as_ocr_parser(ocr)
    if not path.is_file():
        reason = "not a regular file" if path.exists() else "no such file"
        raise IngestError(f"{path}: {reason}")
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise IngestError(f"{path}: cannot read file ({exc.strerror or one_line(exc)})") from exc
    if size == 0:
        raise IngestError(f"{path}: empty file")
    if size > max_bytes:
        raise IngestError(f"{path}: file is {size} bytes, over the {max_bytes}-byte limit")
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise IngestError(f"{path}: cannot read file ({exc.strerror or one_line(exc)})") from exc
    warnings: list[str] = []
    kind = _choose_kind(path, data[:1024], warnings)
    logger.debug("extracting %s as %s", path, kind)
    if kind in ("txt", "md"):
        doc = extract_plain(data, path, kind=kind)
    elif kind == "html":
        doc = extract_html(data, path)
    elif kind == "pdf":
        doc = extract_pdf(data, path, parser)
    elif kind == "docx":
        doc = extract_docx(data, path)
    else:
        doc = _extract_image(data, path, parser)
    if not doc.markdown.strip():
        hint = " (scanned? configure OCR)" if kind in ("pdf", "image") and ocr is None else ""
        raise IngestError(f"{path}: no text could be extracted{hint}")
    if warnings:
        doc = _with_warnings(doc, warnings)
    return doc


def _with_warnings(doc: ExtractedDocument, extra: list[str]) -> ExtractedDocument:
    from dataclasses import replace

    return replace(doc, warnings=(*extra, *doc.warnings))
