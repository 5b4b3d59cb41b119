"""Extraction of text formats and refusal of bad inputs."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from builders import HTML_SAMPLE, MD_SAMPLE

from disputatio.errors import IngestError
from disputatio.ingest.extract import extract, sha256_file, sniff


def test_utf8_text_is_kept_verbatim(tmp_path: Path) -> None:
    text = "Zürich café — naïve résumé.\r\nSecond line ☃.\n"
    path = tmp_path / "notes.txt"
    path.write_bytes(text.encode("utf-8"))
    doc = extract(path)
    assert doc.source_kind == "txt"
    assert doc.markdown == text.replace("\r\n", "\n")
    assert doc.title == "notes"
    assert doc.warnings == ()
    assert doc.pages == ()
    assert doc.metadata["encoding"] == "utf-8"


def test_latin1_text_is_detected_and_warned(tmp_path: Path) -> None:
    text = "Le café était très animé. Marie Curie a travaillé à l'Université de Paris.\n" * 3
    path = tmp_path / "latin.txt"
    path.write_bytes(text.encode("latin-1"))
    doc = extract(path)
    assert doc.markdown == text
    assert len(doc.warnings) == 1
    assert "latin.txt" in doc.warnings[0]
    assert "not UTF-8" in doc.warnings[0]


def test_markdown_is_kept_with_heading_title(tmp_path: Path) -> None:
    path = tmp_path / "doc.md"
    path.write_text(MD_SAMPLE, encoding="utf-8")
    doc = extract(path)
    assert doc.source_kind == "md"
    assert doc.markdown == MD_SAMPLE
    assert doc.title == "Radioactivity"


def test_html_main_content_to_markdown(tmp_path: Path) -> None:
    path = tmp_path / "page.html"
    path.write_text(HTML_SAMPLE, encoding="utf-8")
    doc = extract(path)
    assert doc.source_kind == "html"
    # trafilatura's metadata prefers the page's <h1> over its <title>; either is a fine title.
    assert doc.title in {"Marie Curie", "Curie biography"}
    assert "# Marie Curie" in doc.markdown
    assert "## Early life" in doc.markdown
    assert "University of Paris" in doc.markdown
    assert "| 1911 | Chemistry |" in doc.markdown.replace("  ", " ")
    assert "var x" not in doc.markdown


def test_html_fallback_when_trafilatura_finds_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import trafilatura

    monkeypatch.setattr(trafilatura, "extract", lambda *args, **kwargs: None)
    path = tmp_path / "page.htm"
    path.write_text(HTML_SAMPLE, encoding="utf-8")
    doc = extract(path)
    assert doc.metadata["extractor"] == "markdownify"
    assert any("converted whole page" in w for w in doc.warnings)
    assert "# Marie Curie" in doc.markdown
    assert "## Early life" in doc.markdown
    assert "| 1911 | Chemistry |" in doc.markdown
    assert "var x" not in doc.markdown  # <script> and <head> are dropped


def test_sha256_file_matches_hashlib(tmp_path: Path) -> None:
    import hashlib

    data = bytes(range(256)) * 5000
    path = tmp_path / "blob.bin"
    path.write_bytes(data)
    assert sha256_file(path) == hashlib.sha256(data).hexdigest()


def test_sniff_signatures() -> None:
    assert sniff(b"%PDF-1.7\n") == "pdf"
    assert sniff(b"notes about the %PDF-1.7 header") is None
    assert sniff(b"PK\x03\x04rest") == "docx"
    assert sniff(b"\x89PNG\r\n\x1a\n....") == "image"
    assert sniff(b"\xff\xd8\xff\xe0") == "image"
    assert sniff(b"  <!DOCTYPE html><html>") == "html"
    assert sniff(b"hello") is None


def _binary(n: int) -> bytes:
    return random.Random(1234).randbytes(n)


@pytest.mark.parametrize(
    ("name", "content", "needle"),
    [
        ("empty.txt", b"", "empty file"),
        ("junk.pdf", _binary(4096), "not a valid PDF"),
        ("junk.docx", _binary(4096), "not a valid DOCX"),
        ("junk.png", _binary(4096), "not a valid IMAGE"),
        ("data.xyz", b"hello", "'.xyz'"),
        ("binary.txt", _binary(4096), "binary"),
        ("nul.txt", b"abc\x00\x00\x00def" * 10, "binary"),
        ("blank.md", b"   \n\n  \t\n", "no text could be extracted"),
    ],
)
def test_bad_inputs_raise_one_line_errors(
    tmp_path: Path, name: str, content: bytes, needle: str
) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    with pytest.raises(IngestError) as info:
        extract(path)
    message = info.value.message
    assert needle in message
    assert name in message
    assert "\n" not in message


def test_file_over_max_bytes_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "big.txt"
    path.write_bytes(b"a" * 2048)
    with pytest.raises(IngestError, match=r"big\.txt: file is 2048 bytes, over the 1000-byte"):
        extract(path, max_bytes=1000)


def test_missing_file_and_directory(tmp_path: Path) -> None:
    with pytest.raises(IngestError, match="no such file"):
        extract(tmp_path / "nope.txt")
    with pytest.raises(IngestError, match="not a regular file"):
        extract(tmp_path)


def test_content_wins_over_misleading_text_extension(tmp_path: Path) -> None:
    from builders import make_pdf

    pdf = make_pdf(tmp_path / "real.pdf", [[("Hello from a PDF", 12)]])
    renamed = tmp_path / "actually_pdf.txt"
    renamed.write_bytes(pdf.read_bytes())
    doc = extract(renamed)
    assert doc.source_kind == "pdf"
    assert "Hello from a PDF" in doc.markdown
    assert any("content is pdf" in w for w in doc.warnings)
