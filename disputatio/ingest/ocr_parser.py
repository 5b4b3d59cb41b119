"""OCR as a LangChain blob parser: an image blob in, one ``Document`` per page (frame) out.

Ingestion reads image files and PDF pages without a text layer through a
:class:`~langchain_core.document_loaders.BaseBlobParser`. :class:`OcrBlobParser` wraps one of our
engines (:class:`~disputatio.ingest.ocr.RapidOcrEngine` by default, see ``ingest.ocr``); any other
LangChain blob parser that reads images (a GPU OCR one, say) can take its place wherever an OCR
engine is accepted (``IngestContext(ocr=...)``, ``InMemoryFunnel(ocr=...)``, ``extract(path,
ocr=...)``).

What ingestion hands a parser: for an image file, a blob of the file's bytes (PNG, JPEG or TIFF,
possibly several frames) with the file as its source; for a PDF page, a blob holding the page
rendered as a PNG, with ``metadata={"page": n}`` (1-based). The text of every document the
parser yields for a blob is kept, in order; for an image file each document is one page.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, TypeAlias

from langchain_core.document_loaders import BaseBlobParser, Blob
from langchain_core.documents import Document

from disputatio.errors import IngestError
from disputatio.ingest.ocr import OcrEngine, ScoringOcrEngine
from disputatio.ingest.text_formats import normalize_newlines
from disputatio.ingest.util import one_line

if TYPE_CHECKING:
    from PIL import Image

OcrInput: TypeAlias = BaseBlobParser | OcrEngine
"""What ingestion accepts as OCR: a LangChain blob parser, or an engine that gets wrapped."""

IMAGE_SIGNATURES: dict[bytes, str] = {
    b"\x89PNG\r\n\x1a\n": "image/png",
    b"\xff\xd8\xff": "image/jpeg",
    b"II*\x00": "image/tiff",
    b"MM\x00*": "image/tiff",
}
"""Leading bytes of the image formats ingestion reads, and their MIME types."""


def image_mime_type(data: bytes) -> str | None:
    """The MIME type of an image from its leading bytes.

    Args:
        data: The file content (only the first bytes are looked at).

    Returns:
        ``image/png``, ``image/jpeg`` or ``image/tiff``, or None for anything else.
    """
    return next((mime for sig, mime in IMAGE_SIGNATURES.items() if data.startswith(sig)), None)


def _frames(blob: Blob) -> Iterator[Image.Image]:
    """Decode the blob's image frame by frame, each converted to RGB."""
    from PIL import Image, ImageSequence, UnidentifiedImageError

    try:
        with blob.as_bytes_io() as handle, Image.open(handle) as image:
            for frame in ImageSequence.Iterator(image):
                yield frame.convert("RGB")
    except (UnidentifiedImageError, OSError, ValueError) as exc:
        raise IngestError(f"{blob.source}: unreadable image ({one_line(exc)})") from exc


class OcrBlobParser(BaseBlobParser):
    """Read image blobs with an :class:`~disputatio.ingest.ocr.OcrEngine`, a document per frame.

    Each document's metadata: ``source`` (the blob's), ``page`` (the blob's ``page`` metadata,
    default 1, plus the frame's index), ``ocr_engine`` (the engine's name) and
    ``ocr_confidence`` (the mean score of what was read, None when the engine gives none).

    Args:
        engine: The engine that reads each frame.
        name: The engine's name in the metadata (default: its ``name`` attribute, else its class
            name).
    """

    def __init__(self, engine: OcrEngine, *, name: str | None = None) -> None:
        self.engine = engine
        self.name = name or str(getattr(engine, "name", "") or type(engine).__name__)

    def _read(self, image: Image.Image) -> tuple[str, float | None]:
        if isinstance(self.engine, ScoringOcrEngine):
            reading = self.engine.recognize(image)
            return reading.text, reading.confidence
        return self.engine.ocr_image(image), None

    def lazy_parse(self, blob: Blob) -> Iterator[Document]:
        """Yield one document per frame of the blob's image, in order.

        Args:
            blob: An image (PNG, JPEG, TIFF, or anything Pillow opens).

        Yields:
            The text read on each frame (possibly empty) with its metadata.

        Raises:
            IngestError: The blob is no readable image.
        """
        first_page = int(blob.metadata.get("page", 1))
        for index, frame in enumerate(_frames(blob)):
            text, confidence = self._read(frame)
            metadata: dict[str, Any] = {
                "source": blob.source,
                "page": first_page + index,
                "ocr_engine": self.name,
                "ocr_confidence": confidence,
            }
            yield Document(page_content=text, metadata=metadata)


def as_ocr_parser(ocr: OcrInput | None) -> BaseBlobParser | None:
    """The blob parser ingestion reads images with.

    Args:
        ocr: A blob parser (returned as it is), an OCR engine (wrapped in an
            :class:`OcrBlobParser`), or None (no OCR).

    Returns:
        The parser, or None when OCR is off.

    Raises:
        TypeError: ``ocr`` is neither a blob parser nor an engine.
    """
    if ocr is None or isinstance(ocr, BaseBlobParser):
        return ocr
    if isinstance(ocr, OcrEngine):
        return OcrBlobParser(ocr)
    raise TypeError(
        "ocr must be a LangChain BaseBlobParser or an OcrEngine (with ocr_image), "
        f"not {type(ocr).__name__}"
    )


def png_blob(image: Image.Image, *, source: str, page: int) -> Blob:
    """A page image as a PNG blob, the form ingestion hands a parser a rendered PDF page.

    Args:
        image: The rendered page.
        source: Where the page comes from (the PDF's path).
        page: The page's 1-based number.

    Returns:
        A blob of PNG bytes (``image/png``) with ``metadata={"page": page}``.
    """
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=1)  # lossless; speed over size
    return Blob.from_data(
        buffer.getvalue(), mime_type="image/png", path=source, metadata={"page": page}
    )


def read_blob(parser: BaseBlobParser, blob: Blob) -> list[str]:
    """The texts a parser reads in a blob, one per document it yields, in order.

    Args:
        parser: The OCR parser.
        blob: An image blob.

    Returns:
        Each document's text with newlines normalised and surrounding blank space stripped.
    """
    return [normalize_newlines(doc.page_content).strip() for doc in parser.lazy_parse(blob)]
