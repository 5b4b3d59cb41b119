"""The embedded PostgreSQL: starts (as root too), migrates idempotently, searches."""

from __future__ import annotations

import os
import socket
from pathlib import Path

import psycopg
import pytest

from disputatio.errors import DatabaseError
from disputatio.settings import Settings, load_settings
from disputatio.storage.db import connect, database_url
from disputatio.storage.migrate import applied_migrations, available_migrations, migrate
from disputatio.storage.server import EmbeddedPostgres

pytestmark = pytest.mark.integration


def test_server_runs_and_is_reused(settings: Settings, db_url: str) -> None:
    server = EmbeddedPostgres(settings.home)
    status = server.status()
    assert status.running and status.port
    assert f":{status.port}/" in db_url and "127.0.0.1" in db_url
    # a second start finds the running server instead of starting another
    assert server.start().pid == status.pid
    with psycopg.connect(db_url) as conn:
        version = conn.execute("SHOW server_version").fetchone()
        vector = conn.execute(
            "SELECT extversion FROM pg_extension WHERE extname='vector'"
        ).fetchone()
        owner = conn.execute("SELECT current_setting('data_directory')").fetchone()
    assert version and version[0].startswith("18.")
    assert vector and vector[0].startswith("0.8")
    assert owner and Path(owner[0]) == status.data_dir
    if os.geteuid() == 0:  # PostgreSQL refuses root: the server runs as its own user
        assert status.data_dir.stat().st_uid != 0


def test_migrations_apply_twice_without_error(settings: Settings, db_url: str) -> None:
    with psycopg.connect(db_url) as conn:
        assert migrate(conn, embedding_dim=settings.models.embedding_dim) == []
        assert migrate(conn, embedding_dim=settings.models.embedding_dim) == []
        assert applied_migrations(conn) == [v for v, _ in available_migrations()]
        tables = {
            r[0]
            for r in conn.execute(
                "SELECT tablename FROM pg_tables WHERE schemaname = 'public'"
            ).fetchall()
        }
    assert {
        "documents",
        "parent_chunks",
        "child_chunks",
        "entities",
        "entity_mentions",
        "relations",
        "ingestion_jobs",
        "experiments",
        "experiment_runs",
        "agent_messages",
        "tool_calls",
        "ledger",
    } <= tables


def test_wrong_embedding_dimension_is_refused(db_url: str) -> None:
    with psycopg.connect(db_url) as conn, pytest.raises(DatabaseError, match="384-d"):
        migrate(conn, embedding_dim=768)


def _insert_doc(conn: psycopg.Connection, sha: str, texts: list[str], dim: int) -> None:
    doc = conn.execute(
        "INSERT INTO documents (tenant, collection, sha256, source_uri, kind, markdown)"
        " VALUES ('t-search', 'c', %s, 'mem://x', 'txt', '') RETURNING id",
        (sha,),
    ).fetchone()
    assert doc
    conn.execute(
        "INSERT INTO parent_chunks (id, document_id, tenant, collection, ordinal, text,"
        " char_start, char_end, token_count) VALUES (%s, %s, 't-search', 'c', 0, '', 0, 0, 0)",
        (f"p-{sha}", doc[0]),
    )
    for i, text in enumerate(texts):
        vec = [0.0] * dim
        vec[i % dim] = 1.0
        conn.execute(
            "INSERT INTO child_chunks (id, parent_id, document_id, tenant, collection, ordinal,"
            " text, char_start, char_end, token_count, embedding)"
            " VALUES (%s, %s, %s, 't-search', 'c', %s, %s, 0, 0, 0, %s)",
            (f"c-{sha}-{i}", f"p-{sha}", doc[0], i, text, vec),
        )


def test_hnsw_and_full_text_queries_return_rows(settings: Settings, db_url: str) -> None:
    dim = settings.models.embedding_dim
    texts = [
        "Insulin is produced by beta cells in the pancreas.",
        "Metformin is a biguanide used for type 2 diabetes.",
        "Paris is the capital of France.",
    ]
    with connect(settings) as conn:
        _insert_doc(conn, "sha-search", texts, dim)
        conn.execute("SET LOCAL enable_seqscan = off")
        probe = [0.0] * dim
        probe[1] = 1.0
        plan = "\n".join(
            r[0]
            for r in conn.execute(
                "EXPLAIN SELECT id FROM child_chunks ORDER BY embedding <=> %s::vector LIMIT 2",
                (probe,),
            ).fetchall()
        )
        assert "child_chunks_embedding_idx" in plan
        nearest = conn.execute(
            "SELECT text FROM child_chunks WHERE tenant = 't-search'"
            " ORDER BY embedding <=> %s::vector LIMIT 1",
            (probe,),
        ).fetchone()
        assert nearest and "Metformin" in nearest[0]
        hits = conn.execute(
            "SELECT text, ts_rank_cd(tsv, q) FROM child_chunks,"
            " websearch_to_tsquery('english', 'pancreas insulin') q"
            " WHERE tsv @@ q AND tenant = 't-search' ORDER BY 2 DESC"
        ).fetchall()
        assert [h[0] for h in hits] == [texts[0]]
        conn.rollback()


def test_ledger_is_append_only(settings: Settings) -> None:
    with connect(settings) as conn:
        conn.execute(
            "INSERT INTO ledger (thread_id, idx, kind, payload, prev_hash, hash)"
            " VALUES ('t', 0, 'move', '{}', '', 'h0')"
        )
        with pytest.raises(psycopg.errors.RaiseException, match="append-only"):
            conn.execute("UPDATE ledger SET kind = 'x' WHERE thread_id = 't'")
        conn.rollback()


def test_unreachable_database_url_is_one_line_error(tmp_path: Path) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]  # bound but not listening: connection refused
        bad = load_settings(home=tmp_path, database_url=f"postgresql://u:pw@127.0.0.1:{port}/x")
        with pytest.raises(DatabaseError) as info:
            database_url(bad)
    message = str(info.value)
    assert "\n" not in message and "pw" not in message and "refused" in message.lower()


def test_configured_port_in_use_is_clear_error(tmp_path: Path) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        port = sock.getsockname()[1]
        server = EmbeddedPostgres(tmp_path / "home", port=port)
        with pytest.raises(DatabaseError, match=f"port {port}"):
            server.start()
    assert not server.status().running


def test_connect_after_resolution_does_no_server_or_admin_work(
    settings: Settings, db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("connect() started the server or opened an admin connection")

    with connect(settings) as conn:
        conn.execute("SELECT 1")
    monkeypatch.setattr(EmbeddedPostgres, "start", refuse)
    monkeypatch.setattr(psycopg, "connect", refuse)
    for _ in range(3):
        with connect(settings) as conn:
            conn.autocommit = True  # a borrower's change does not leak to the next one
            assert conn.execute("SELECT 1").fetchone() == (1,)
    with connect(settings) as conn:
        assert conn.autocommit is False


def test_embedded_server_runs_with_the_sized_memory_settings(settings: Settings) -> None:
    if settings.database_url:
        pytest.skip("DATABASE_URL: not the embedded server")
    cfg = settings.database
    with connect(settings) as conn:
        shown = {
            name: conn.execute(f"SHOW {name}").fetchone()[0]  # type: ignore[index]
            for name in ("shared_buffers", "work_mem", "maintenance_work_mem")
        }
    assert shown == {
        "shared_buffers": cfg.shared_buffers,
        "work_mem": cfg.work_mem,
        "maintenance_work_mem": cfg.maintenance_work_mem,
    }
