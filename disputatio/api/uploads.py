"""What an upload must be before a job is queued for it, and what a client sees of where it is kept.

:func:`check_upload` refuses at ``POST /ingest`` what the ingestion job would refuse later and
can be told from the bytes at once: an unsupported extension, an empty file, content that does
not match its extension (magic bytes), a PDF pdfium cannot open (corrupt, truncated, encrypted),
a ``.docx`` that is no Word package, an image Pillow cannot read (or any image when OCR is off),
and text that cannot be decoded or holds nothing. The format rules are the ingester's own
(:data:`~disputatio.ingest.extract.EXTENSIONS`, :func:`~disputatio.ingest.extract.sniff`).

Uploads are kept as ``<home>/api/uploads/<tenant>/<sha256>/<file name>``; that path is the
document's ``source_uri`` and can appear in an ingestion error. :func:`scrub` and
:func:`public` replace such server paths by the file's name before anything reaches a client.
"""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path, PurePosixPath, PureWindowsPath
from typing import Any

from disputatio.api.errors import ApiError, invalid
from disputatio.errors import IngestError
from disputatio.ingest.extract import EXTENSIONS, Kind, sniff
from disputatio.ingest.text_formats import decode_text
from disputatio.settings import Settings

_BINARY: tuple[Kind, ...] = ("pdf", "docx", "image")


def _kind(data: bytes, file_name: str) -> Kind:
    """The format the ingester will read ``data`` as (its rules), or an error naming ``file``."""
    suffix = Path(file_name).suffix.lower()
    announced = EXTENSIONS.get(suffix)
    if suffix and announced is None:
        supported = ", ".join(sorted(EXTENSIONS))
        raise ApiError(
            415,
            "UNSUPPORTED_MEDIA_TYPE",
            f"file: unsupported file type '{suffix}' (supported: {supported})",
            field="file",
        )
    head = data[:1024]
    detected = sniff(head)
    if announced == "pdf" and b"%PDF-" in head:
        detected = "pdf"  # the PDF spec allows junk before the header within the first 1 KiB
    if announced is None:
        return detected or "txt"
    if detected in _BINARY and detected != announced:
        assert detected is not None
        return detected  # the ingester reads the content's format (with a warning)
    if announced in _BINARY and detected != announced:
        raise invalid("file", f"not a valid {announced.upper()} file (content does not match)")
    return announced


def _check_pdf(data: bytes) -> None:
    import pypdfium2 as pdfium
    import pypdfium2.raw as pdfium_c

    try:
        pdfium.PdfDocument(data).close()
    except pdfium.PdfiumError as exc:
        if getattr(exc, "err_code", None) == pdfium_c.FPDF_ERR_PASSWORD:
            raise invalid("file", "encrypted PDF (password required)") from None
        raise invalid("file", "corrupt or truncated PDF") from None


def _check_docx(data: bytes) -> None:
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as package:
            names = set(package.namelist())
    except zipfile.BadZipFile:
        raise invalid("file", "corrupt DOCX file (not a readable ZIP package)") from None
    if "word/document.xml" not in names:
        raise invalid("file", "a ZIP package but not a Word document (no word/document.xml)")


def _check_image(data: bytes, settings: Settings) -> None:
    from PIL import Image, UnidentifiedImageError

    if settings.ingest.ocr == "none":
        raise invalid("file", "image files need OCR, and OCR is off on this server (ingest.ocr)")
    try:
        with Image.open(io.BytesIO(data)) as image:
            image.verify()
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError):
        raise invalid("file", "corrupt or unreadable image") from None


def _check_text(data: bytes, file_name: str) -> None:
    try:
        text, _, _ = decode_text(data, Path(Path(file_name).name))
    except IngestError as exc:
        raise invalid("file", exc.message) from None
    if not text.strip():
        raise invalid("file", "the document holds no text (only whitespace)")


def check_upload(data: bytes, file_name: str, settings: Settings) -> Kind:
    """Refuse a document the ingestion job would refuse, before anything is stored.

    Blocking (pdfium, Pillow, decoding): call it in a worker thread.

    Args:
        data: The document's bytes.
        file_name: Its name (the extension announces the format; none: read from the content).
        settings: Settings in force (``ingest.ocr``: images need OCR).

    Returns:
        The format the job will read it as.

    Raises:
        ApiError: 415 naming ``file`` for an unsupported extension, 422 naming ``file`` for an
            empty, mismatched, corrupt or undecodable document.
    """
    if not data:
        raise invalid("file", "the document is empty")
    kind = _kind(data, file_name)
    if kind == "pdf":
        _check_pdf(data)
    elif kind == "docx":
        _check_docx(data)
    elif kind == "image":
        _check_image(data, settings)
    else:
        _check_text(data, file_name)
    return kind


# --- what a client sees of where files are kept ------------------------------------------------

#: An upload's folder in any server's home: ``…/api/uploads/<tenant>/<sha256>/``.
_UPLOAD_DIR = re.compile(r"/(?:[^\s'\"<>]*/)?api/uploads/[^/\s'\"<>]+/[0-9a-f]{64}/")


@lru_cache(maxsize=8)
def _home_path(home: str) -> re.Pattern[str]:
    """A path under ``home`` up to its last folder (the file's name is kept)."""
    return re.compile(re.escape(home.rstrip("/")) + r"/(?:[^\s'\"<>/]+/)*")


def scrub(text: str, settings: Settings | None = None) -> str:
    """``text`` with every server path of an upload (and under the server's home) cut to its name.

    ``"IngestError: /srv/h/api/uploads/acme/<sha>/a.pdf: corrupt"`` becomes
    ``"IngestError: a.pdf: corrupt"``.
    """
    text = _UPLOAD_DIR.sub("", text)
    if settings is not None:
        for home in {str(settings.home), str(settings.home.resolve())}:
            if home.strip("/"):
                text = _home_path(home).sub("", text)
    return text


def public_source(uri: str | None) -> str | None:
    """What a client sees of a ``source_uri``: an absolute path by its file's name.

    Anything else (a URL, an id such as an argument graph edge's ``source``) is kept as is.
    """
    if not uri or not _ABSOLUTE.match(uri):
        return uri
    name = (PureWindowsPath if uri[1:2] == ":" else PurePosixPath)(uri).name
    return name or uri


#: An absolute path on POSIX (``/…``), Windows (``C:\…``) or a ``file://`` URL.
_ABSOLUTE = re.compile(r"^(?:/|[A-Za-z]:[\\/]|file://)")


#: Keys holding a document's own words: passed through as they are, never rewritten.
_CONTENT = frozenset({"markdown", "text"})


def public(value: Any, settings: Settings | None = None) -> Any:
    """A JSON value as a client may see it.

    Every ``source_uri``/``source`` that is a path is cut to the file's name, and every other
    string is :func:`scrub`-bed, except a document's own text (``markdown``, ``text``).
    """
    if isinstance(value, str):
        return scrub(value, settings)
    if isinstance(value, Mapping):
        out: dict[str, Any] = {}
        for key, item in value.items():
            if key in ("source_uri", "source") and isinstance(item, str):
                out[key] = public_source(item)
            elif key in _CONTENT:
                out[key] = item
            else:
                out[key] = public(item, settings)
        return out
    if isinstance(value, list | tuple):
        return [public(v, settings) for v in value]
    return value
