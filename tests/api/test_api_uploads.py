"""Uploads: what the ingester would refuse is refused at ``POST /ingest``; no server path leaks.

The first tests call :func:`disputatio.api.uploads.check_upload` and the scrubbers directly
(fast); the live ones go through a server on loopback.
"""

from __future__ import annotations

import io
import uuid
import zipfile
from pathlib import Path
from typing import Any

import pytest

from disputatio.api import store
from disputatio.api.errors import ApiError
from disputatio.api.uploads import check_upload, public, public_source, scrub
from disputatio.settings import Settings

from .conftest import KEY_A, LiveServer, wait_job


def _pdf(pages: int = 1) -> bytes:
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument.new()
    for _ in range(pages):
        doc.new_page(200, 200)
    buf = io.BytesIO()
    doc.save(buf)
    return buf.getvalue()


def _docx() -> bytes:
    import docx

    document = docx.Document()
    document.add_paragraph("Brucellosis is diagnosed by culture.")
    buf = io.BytesIO()
    document.save(buf)
    return buf.getvalue()


def _png() -> bytes:
    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (8, 8), "white").save(buf, "PNG")
    return buf.getvalue()


def _zip_without_word() -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as package:
        package.writestr("hello.txt", "not a word document")
    return buf.getvalue()


#: (file name, content, status, words the message must hold)
BAD = [
    ("empty.txt", b"", 422, "empty"),
    ("tool.exe", b"MZ\x90\x00binary", 415, "unsupported file type '.exe'"),
    ("notes.pdf", b"just some text, no PDF header", 422, "not a valid PDF"),
    ("cut.pdf", _pdf()[:60], 422, "corrupt or truncated PDF"),
    ("letter.docx", b"plain text named docx", 422, "not a valid DOCX"),
    ("archive.docx", _zip_without_word(), 422, "not a Word document"),
    ("broken.docx", b"PK\x03\x04" + b"\x00" * 40, 422, "corrupt DOCX"),
    ("scan.png", b"\x89PNG\r\n\x1a\n" + b"\x00" * 40, 422, "unreadable image"),
    ("data.txt", bytes(range(256)) * 8, 422, "binary"),
    ("blank.md", b" \n\t\n  ", 422, "no text"),
]

GOOD = [
    ("note.txt", b"Brucellosis is a zoonosis.", "txt"),
    ("note", b"# Title\n\nNo extension: read as text.", "txt"),
    (
        "latin1.txt",
        "Caf\xe9 au lait, d\xe9j\xe0 vu, na\xefve r\xe9sum\xe9.".encode("cp1252"),
        "txt",
    ),
    ("page.html", b"<!doctype html><html><body><p>Hi</p></body></html>", "html"),
    ("paper.pdf", _pdf(), "pdf"),
    ("named.txt", _pdf(), "pdf"),  # the content's binary format wins, as in the ingester
    ("report.docx", _docx(), "docx"),
    ("scan.png", _png(), "image"),
]


@pytest.mark.parametrize(("name", "data", "status", "words"), BAD)
def test_what_the_ingester_refuses_is_refused_naming_the_file(
    settings: Settings, name: str, data: bytes, status: int, words: str
) -> None:
    with pytest.raises(ApiError) as err:
        check_upload(data, name, settings)
    assert err.value.status == status and err.value.field == "file"
    assert words in err.value.message


@pytest.mark.parametrize(("name", "data", "kind"), GOOD)
def test_what_the_ingester_reads_is_accepted(
    settings: Settings, name: str, data: bytes, kind: str
) -> None:
    assert check_upload(data, name, settings) == kind


def test_images_are_refused_when_ocr_is_off(settings: Settings) -> None:
    no_ocr = settings.model_copy(
        update={"ingest": settings.ingest.model_copy(update={"ocr": "none"})}
    )
    with pytest.raises(ApiError) as err:
        check_upload(_png(), "scan.png", no_ocr)
    assert err.value.field == "file" and "OCR" in err.value.message


def test_server_paths_are_cut_to_the_files_name(settings: Settings) -> None:
    kept = settings.home / "api" / "uploads" / "acme" / ("a" * 64) / "trial.pdf"
    error = f"IngestError: {kept}: no text could be extracted"
    assert scrub(error, settings) == "IngestError: trial.pdf: no text could be extracted"
    elsewhere = f"/srv/other/api/uploads/acme/{'b' * 64}/x.txt: empty file"  # another server's
    assert scrub(elsewhere) == "x.txt: empty file"
    under_home = f"failed reading {settings.home / 'cache' / 'm.gguf'}"
    assert scrub(under_home, settings) == "failed reading m.gguf"
    assert public_source(str(kept)) == "trial.pdf"
    assert public_source("https://example.org/a.pdf") == "https://example.org/a.pdf"
    assert public_source("claim-3") == "claim-3"  # an id, not a path: kept
    row = {"source_uri": str(kept), "metadata": {"note": error}, "text": f"quoted {kept}"}
    shown = public(row, settings)
    assert shown["source_uri"] == "trial.pdf" and "/api/uploads/" not in shown["metadata"]["note"]
    assert shown["text"] == row["text"]  # a document's own words are never rewritten


# --- live ----------------------------------------------------------------------------------


def _count(live: LiveServer, table: str) -> int:
    with store.db(live.settings) as conn:
        row = conn.execute(f"SELECT count(*) AS n FROM {table}").fetchone()
    return int(row["n"]) if row else 0


def _files(live: LiveServer) -> list[Path]:
    folder = live.settings.home / "api" / "uploads"
    return sorted(folder.rglob("*")) if folder.exists() else []


@pytest.mark.integration
def test_bad_uploads_are_refused_before_anything_is_written(live: LiveServer) -> None:
    jobs, files = _count(live, "api_jobs"), _files(live)
    with live.client(KEY_A) as client:
        for name, data, status, words in BAD:
            resp = client.post("/ingest", files={"file": (name, data)})
            assert resp.status_code == status, (name, resp.text)
            err = resp.json()["error"]
            assert err["field"] == "file" and words in err["message"], (name, err)
        digest = store_upload_id(client)  # a JSON re-ingest is checked the same way
        resp = client.post("/ingest", json={"file_id": digest, "file_name": "again.pdf"})
        assert resp.status_code == 422 and resp.json()["error"]["field"] == "file", resp.text
    assert _count(live, "api_jobs") == jobs + 1  # only the good upload of store_upload_id
    kept = [p.name for p in _files(live) if p not in files and p.is_file()]
    assert kept == ["first.txt"]  # no refused file was kept


def store_upload_id(client: Any) -> str:
    """Upload one good text file and return its file id (its sha256)."""
    text = f"Q fever is caused by Coxiella burnetii. {uuid.uuid4()}".encode()
    resp = client.post("/ingest", files={"file": ("first.txt", text)})
    assert resp.status_code == 202, resp.text
    wait_job(client, resp.json()["ingestion_job_id"])
    return str(resp.json()["file_id"])


def _no_server_path(live: LiveServer, text: str) -> None:
    assert "/api/uploads/" not in text and str(live.settings.home) not in text, text[:500]


@pytest.mark.integration
def test_no_server_path_reaches_a_client(live: LiveServer, corpus_a: dict[str, Any]) -> None:
    job = corpus_a["brucellosis.txt"]
    with live.client(KEY_A) as client:
        listed = client.get("/documents")
        _no_server_path(live, listed.text)
        sources = {d["source_uri"] for d in listed.json()["documents"]}
        assert "brucellosis.txt" in sources  # the uploaded file's name
        one = client.get(f"/documents/{job['document_id']}")
        assert one.json()["source_uri"] == "brucellosis.txt"
        _no_server_path(live, one.text)
        _no_server_path(live, client.get(f"/ingest/status/{job['ingestion_job_id']}").text)
        answer = client.post("/query", json={"query": "How is brucellosis diagnosed?"}).json()
        section = client.get(f"/sections/{answer['contexts'][0]['parent_chunk_id']}")
        assert section.status_code == 200 and section.json()["source_uri"].endswith(".txt")
        _no_server_path(live, section.text)


@pytest.mark.integration
def test_a_failed_jobs_error_names_the_file_not_its_path(live: LiveServer) -> None:
    """A PDF of one blank page opens (accepted) but holds no text: its job fails."""
    blank = _pdf() + f"% {uuid.uuid4()}\n".encode()  # fresh content, never ingested before
    with live.client(KEY_A) as client:
        resp = client.post("/ingest", files={"file": ("blank-page.pdf", blank)})
        assert resp.status_code == 202, resp.text
        job = wait_job(client, resp.json()["ingestion_job_id"])
    assert job["status"] == "failed" and "blank-page.pdf" in job["error"], job
    _no_server_path(live, str(job))
