"""A batch of new documents written in one transaction stores what one-by-one writes store."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import psycopg
import pytest

from disputatio.graphs.ingest import graph
from disputatio.nodes.ingest import pipeline
from disputatio.nodes.ingest.context import IngestContext
from disputatio.settings import Settings

pytestmark = pytest.mark.integration

#: Documents sharing entities (so the batch's entity upsert meets the same keys twice).
TEXTS = {
    "curie.txt": "Marie Curie worked at the University of Paris with Pierre Curie.",
    "pasteur.md": "# Pasteur\n\nLouis Pasteur taught in Lille before Paris.\n",
    "who.txt": "The World Health Organization met in Geneva. Marie Curie was cited.",
    "plain.txt": "nothing named here at all, only lower case words about milk.",
    "lille.txt": "Lille and Paris host the Institut Pasteur; Louis Pasteur founded it.",
    # same key as curie.txt's "University of Paris", another name: the first file's name stays
    "zola.txt": "Marie Curie taught at the university of Paris.",
}


def _corpus(root: Path) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    for name, text in TEXTS.items():
        (root / name).write_text(text, encoding="utf-8")
    return root


def _run(settings: Settings, folder: Path, tenant: str) -> dict[str, Any]:
    return graph.invoke(
        {"paths": [str(folder)], "tenant": tenant}, context=IngestContext(settings=settings)
    )


_DUMP = {
    "documents": "SELECT d.sha256, d.title, d.kind, d.markdown, d.metadata, d.n_pages, d.tags"
    " FROM documents d WHERE d.tenant = %s ORDER BY 1",
    "parents": "SELECT d.sha256, p.ordinal, p.text, p.heading_path, p.page, p.char_start,"
    " p.char_end, p.token_count FROM parent_chunks p JOIN documents d ON d.id = p.document_id"
    " WHERE p.tenant = %s ORDER BY 1, 2",
    "children": "SELECT d.sha256, c.ordinal, c.text, c.heading, c.char_start, c.char_end,"
    " c.token_count FROM child_chunks c JOIN documents d ON d.id = c.document_id"
    " WHERE c.tenant = %s ORDER BY 1, 2",
    "entities": "SELECT key, name, label FROM entities WHERE tenant = %s ORDER BY 1",
    "mentions": "SELECT e.key, d.sha256, c.ordinal, m.char_start, m.char_end"
    " FROM entity_mentions m JOIN entities e ON e.id = m.entity_id"
    " JOIN documents d ON d.id = m.document_id JOIN child_chunks c ON c.id = m.chunk_id"
    " WHERE d.tenant = %s ORDER BY 1, 2, 3, 4",
    "relations": "SELECT s.key, t.key, r.type, r.weight, d.sha256, c.ordinal FROM relations r"
    " JOIN entities s ON s.id = r.source_id JOIN entities t ON t.id = r.target_id"
    " JOIN documents d ON d.id = r.document_id JOIN child_chunks c ON c.id = r.chunk_id"
    " WHERE r.tenant = %s ORDER BY 1, 2, 3, 5, 6",
    "bm25": "SELECT d.sha256, c.ordinal, b.term, b.tf, b.dl, round(b.impact::numeric, 6)"
    " FROM bm25_postings b JOIN child_chunks c ON c.id = b.chunk_id"
    " JOIN documents d ON d.id = c.document_id WHERE b.tenant = %s ORDER BY 1, 2, 3",
    "jobs": "SELECT sha256, status FROM ingestion_jobs WHERE tenant = %s ORDER BY 1",
}


def _dump(db_url: str, tenant: str) -> dict[str, list[tuple[Any, ...]]]:
    with psycopg.connect(db_url) as conn:
        return {k: conn.execute(sql, (tenant,)).fetchall() for k, sql in _DUMP.items()}


def _vectors(db_url: str, tenant: str) -> list[list[float]]:
    with psycopg.connect(db_url) as conn:
        rows = conn.execute(
            "SELECT c.embedding::text FROM child_chunks c JOIN documents d"
            " ON d.id = c.document_id WHERE c.tenant = %s ORDER BY d.sha256, c.ordinal",
            (tenant,),
        ).fetchall()
    return [[float(x) for x in row[0].strip("[]").split(",")] for row in rows]


@pytest.fixture
def spy(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Sizes of the batches written together."""
    calls: list[int] = []
    real = pipeline.write_new_documents

    def counting(conn: Any, tenant: str, docs: Any) -> list[str]:
        calls.append(len(docs))
        return real(conn, tenant, docs)

    monkeypatch.setattr(pipeline, "write_new_documents", counting)
    return calls


def test_batch_write_stores_what_one_by_one_writes_store(
    settings: Settings, db_url: str, tmp_path: Path, spy: list[int]
) -> None:
    folder = _corpus(tmp_path / "docs")
    batched = _run(settings, folder, "batchw-a")
    assert spy == [len(TEXTS)]  # the whole batch went through the fast path
    one_by_one = settings.model_copy(
        update={"ingest": settings.ingest.model_copy(update={"batch_size": 1})}
    )
    single = _run(one_by_one, folder, "batchw-b")
    assert spy == [len(TEXTS)]  # batches of one are written one by one
    assert batched["summary"]["new"] == single["summary"]["new"] == len(TEXTS)
    a, b = _dump(db_url, "batchw-a"), _dump(db_url, "batchw-b")
    assert a["entities"] and a["mentions"] and a["relations"] and a["bm25"]
    for table in _DUMP:
        assert a[table] == b[table], table
    assert ("university of paris", "University of Paris", "ORG") in a["entities"]
    for va, vb in zip(_vectors(db_url, "batchw-a"), _vectors(db_url, "batchw-b"), strict=True):
        assert va == pytest.approx(vb, abs=1e-5)


def test_replacements_and_repeated_content_leave_the_batch(
    settings: Settings, db_url: str, tmp_path: Path, spy: list[int]
) -> None:
    folder = _corpus(tmp_path / "docs")
    _run(settings, folder, "batchw-c")
    (folder / "curie.txt").write_text("Marie Curie won two Nobel prizes.", encoding="utf-8")
    (folder / "twin1.txt").write_text("Robert Koch found the tubercle bacillus.", encoding="utf-8")
    (folder / "twin2.txt").write_text("Robert Koch found the tubercle bacillus.", encoding="utf-8")
    (folder / "new.txt").write_text("Alexander Fleming found penicillin.", encoding="utf-8")
    out = _run(settings, folder, "batchw-c")
    statuses = {Path(r["path"]).name: r["status"] for r in out["results"]}
    assert statuses["curie.txt"] == "replaced"
    assert sorted([statuses["twin1.txt"], statuses["twin2.txt"]]) == ["new", "skipped"]
    assert statuses["new.txt"] == "new"
    assert spy[-1] == 2  # new.txt and the first twin; the replacement went one by one
    dump = _dump(db_url, "batchw-c")
    assert len(dump["documents"]) == len(TEXTS) + 2
    assert "marie curie" in {row[0] for row in dump["entities"]}


def test_a_failing_batch_is_written_one_document_at_a_time(
    settings: Settings, db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(conn: Any, tenant: str, docs: Any) -> list[str]:
        conn.execute("SELECT 1/0")  # the batch transaction fails inside the database
        return []

    monkeypatch.setattr(pipeline, "write_new_documents", broken)
    out = _run(settings, _corpus(tmp_path / "docs"), "batchw-d")
    assert out["summary"]["new"] == len(TEXTS) and out["summary"]["failed"] == 0
    dump = _dump(db_url, "batchw-d")
    assert len(dump["documents"]) == len(TEXTS)
    assert {status for _, status in dump["jobs"]} == {"succeeded"}
