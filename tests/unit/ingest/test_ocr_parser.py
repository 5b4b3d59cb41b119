"""OCR behind LangChain's blob parser interface: the engine parser and ingestion through it."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import pytest
from builders import make_image_pdf, make_pdf, scan_image
from langchain_core.document_loaders import BaseBlobParser, Blob
from langchain_core.documents import Document
from PIL import Image

from disputatio.errors import IngestError
from disputatio.ingest.extract import extract
from disputatio.ingest.ocr import OcrReading, RapidOcrEngine
from disputatio.ingest.ocr_parser import OcrBlobParser, as_ocr_parser, image_mime_type, png_blob
from disputatio.models.rerank import NoReranker
from disputatio.retrievers.memory import InMemoryFunnel
from disputatio.settings import load_settings
from disputatio.testing import FakeEmbeddings


class ScriptedEngine:
    """A scoring engine that answers from a script and records the image sizes it was shown."""

    name = "scripted"

    def __init__(self, readings: list[OcrReading]) -> None:
        self.readings = list(readings)
        self.sizes: list[tuple[int, int]] = []

    def recognize(self, image: Image.Image) -> OcrReading:
        self.sizes.append(image.size)
        return self.readings.pop(0)

    def ocr_image(self, image: Image.Image) -> str:
        return self.recognize(image).text


class PlainEngine:
    """An engine without scores (only the ``ocr_image`` of the OcrEngine protocol)."""

    def ocr_image(self, image: Image.Image) -> str:
        return f"{image.width}x{image.height}"


class ScriptedParser(BaseBlobParser):
    """A user's blob parser: one document per blob, text from a script; records the blobs."""

    def __init__(self, texts: list[str]) -> None:
        self.texts = list(texts)
        self.blobs: list[Blob] = []

    def lazy_parse(self, blob: Blob) -> Iterator[Document]:
        self.blobs.append(blob)
        yield Document(page_content=self.texts.pop(0), metadata={"source": blob.source})


def _tiff(*sizes: tuple[int, int]) -> bytes:
    """A multi-frame TIFF with one white frame per size."""
    frames = [Image.new("RGB", size, "white") for size in sizes]
    buffer = io.BytesIO()
    frames[0].save(buffer, format="TIFF", save_all=True, append_images=frames[1:])
    return buffer.getvalue()


def test_parser_yields_one_document_per_frame_with_metadata() -> None:
    engine = ScriptedEngine([OcrReading("first page", 0.9), OcrReading("second page", 0.7)])
    blob = Blob.from_data(_tiff((30, 20), (50, 40)), path="scans/two.tiff")
    docs = OcrBlobParser(engine).parse(blob)
    assert engine.sizes == [(30, 20), (50, 40)]  # each frame, in order
    assert [d.page_content for d in docs] == ["first page", "second page"]
    assert [d.metadata["page"] for d in docs] == [1, 2]
    assert {d.metadata["source"] for d in docs} == {"scans/two.tiff"}
    assert {d.metadata["ocr_engine"] for d in docs} == {"scripted"}
    assert [d.metadata["ocr_confidence"] for d in docs] == [0.9, 0.7]


def test_parser_numbers_pages_from_the_blob_page() -> None:
    engine = ScriptedEngine([OcrReading("page seven", None)])
    blob = png_blob(Image.new("RGB", (20, 10), "white"), source="a.pdf", page=7)
    [doc] = OcrBlobParser(engine, name="mine").lazy_parse(blob)
    assert doc.metadata == {
        "source": "a.pdf",
        "page": 7,
        "ocr_engine": "mine",
        "ocr_confidence": None,
    }
    assert blob.mimetype == "image/png" and image_mime_type(blob.as_bytes()) == "image/png"


def test_engine_without_scores_has_no_confidence() -> None:
    blob = png_blob(Image.new("L", (12, 8)), source="x", page=1)
    [doc] = OcrBlobParser(PlainEngine()).parse(blob)
    assert doc.page_content == "12x8"
    assert doc.metadata["ocr_confidence"] is None
    assert doc.metadata["ocr_engine"] == "PlainEngine"


def test_unreadable_blob_is_an_ingest_error() -> None:
    blob = Blob.from_data(b"\x89PNG\r\n\x1a\n" + b"\x00" * 40, path="broken.png")
    with pytest.raises(IngestError, match=r"broken\.png: unreadable image"):
        OcrBlobParser(PlainEngine()).parse(blob)


def test_as_ocr_parser_wraps_engines_and_keeps_parsers() -> None:
    parser = ScriptedParser([])
    assert as_ocr_parser(parser) is parser
    assert as_ocr_parser(None) is None
    engine = PlainEngine()
    wrapped = as_ocr_parser(engine)
    assert isinstance(wrapped, OcrBlobParser) and wrapped.engine is engine
    with pytest.raises(TypeError, match="BaseBlobParser or an OcrEngine"):
        as_ocr_parser("rapidocr")  # type: ignore[arg-type]


def test_rapidocr_parser_reports_its_confidence(ocr_engine: RapidOcrEngine) -> None:
    image = scan_image(["Parsed by RapidOCR"])
    [doc] = OcrBlobParser(ocr_engine).parse(png_blob(image, source="scan.png", page=1))
    assert "".join(doc.page_content.split()).lower() == "parsedbyrapidocr"
    assert doc.metadata["ocr_engine"] == "rapidocr"
    confidence = doc.metadata["ocr_confidence"]
    assert ocr_engine.min_score <= confidence <= 1.0
    blank = OcrBlobParser(ocr_engine).parse(
        png_blob(Image.new("RGB", (640, 480), "white"), source="blank.png", page=1)
    )
    assert blank[0].page_content == "" and blank[0].metadata["ocr_confidence"] is None


def test_extract_reads_an_image_through_a_user_parser(tmp_path: Path) -> None:
    path = tmp_path / "scan.jpg"
    Image.new("RGB", (16, 16), "white").save(path)
    parser = ScriptedParser(["Text from the user's parser"])
    doc = extract(path, ocr=parser)
    assert doc.markdown == "Text from the user's parser"
    assert doc.ocr_used and [span.page for span in doc.pages] == [1]
    [blob] = parser.blobs
    assert blob.source == str(path) and blob.mimetype == "image/jpeg"
    assert blob.as_bytes() == path.read_bytes()


def test_extract_sends_a_pdf_page_without_text_as_a_png_blob(tmp_path: Path) -> None:
    from pypdf import PdfWriter

    writer = PdfWriter()
    writer.append(str(make_pdf(tmp_path / "text.pdf", [[("Typed first page.", 12)]])))
    writer.append(str(make_image_pdf(tmp_path / "scan.pdf", Image.new("RGB", (60, 40), "white"))))
    combined = tmp_path / "combined.pdf"
    with combined.open("wb") as handle:
        writer.write(handle)
    parser = ScriptedParser(["Second page, read by the parser"])
    doc = extract(combined, ocr=parser)
    [blob] = parser.blobs
    assert blob.metadata == {"page": 2} and blob.mimetype == "image/png"
    assert blob.source == str(combined)
    assert doc.metadata["ocr_pages"] == [2]
    second = doc.pages[1]
    assert doc.markdown[second.start : second.end] == "Second page, read by the parser"


def test_ingestion_stores_what_a_configured_parser_read(tmp_path: Path) -> None:
    scan = tmp_path / "docs" / "scan.png"
    scan.parent.mkdir()
    Image.new("RGB", (16, 16), "white").save(scan)
    parser = ScriptedParser(["Zebrafish regenerate their fins after amputation."])
    funnel = InMemoryFunnel(
        settings=load_settings(home=tmp_path / "home"),
        embeddings=FakeEmbeddings(size=64),
        reranker=NoReranker(),  # type: ignore[arg-type]
        entity_extractor=False,
        ocr=parser,
    )
    funnel.add_paths([scan.parent])
    assert [b.source for b in parser.blobs] == [str(scan)]
    hits = funnel.backend.lexical(["zebrafish"], funnel.default_filters, 5)
    assert len(hits) == 1
    stored = funnel.backend.child_texts([hits[0][0]])[hits[0][0]]
    assert "Zebrafish regenerate their fins after amputation." in stored
