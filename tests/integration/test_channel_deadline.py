"""Per-channel deadlines on the real Postgres: ``statement_timeout`` ends a slow channel there.

The unit tests (tests/unit/test_deadline.py) cover the funnel's bounded wait with a fake
backend; here the database itself cancels a channel that runs past ``channel_timeout_s``, the
funnel drops it and records why, and nothing of it keeps running on the server.
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from langchain_core.embeddings import DeterministicFakeEmbedding

from disputatio.models.rerank import NoReranker
from disputatio.retrievers import pg_channels
from disputatio.retrievers.base import RetrievalFilters
from disputatio.retrievers.funnel import FunnelConfig, run_funnel
from disputatio.retrievers.postgres import PostgresBackend
from disputatio.settings import Settings
from disputatio.storage.db import connect

pytestmark = pytest.mark.integration

TENANT = "deadline"
SCOPE = RetrievalFilters(tenant=TENANT)
TEXT = "Q fever is diagnosed by serology for antibodies to Coxiella burnetii."
SLEEP_MARK = "deadline-test-sleep"


def _with_timeout(settings: Settings, seconds: float) -> Settings:
    retrieval = settings.retrieval.model_copy(update={"channel_timeout_s": seconds})
    return settings.model_copy(update={"retrieval": retrieval})


@pytest.fixture(scope="module")
def stored(settings: Settings, db_url: str) -> Iterator[DeterministicFakeEmbedding]:
    """One document with one chunk and its vector (plain SQL, no models)."""
    embeddings = DeterministicFakeEmbedding(size=settings.models.embedding_dim)
    doc = uuid.uuid4()
    with connect(settings) as conn:
        conn.execute(
            "INSERT INTO documents (id, tenant, collection, sha256, source_uri, kind, markdown,"
            " metadata) VALUES (%s, %s, 'c', %s, 'qfever.txt', 'text', %s, %s)",
            (doc, TENANT, doc.hex, TEXT, json.dumps({})),
        )
        conn.execute(
            "INSERT INTO parent_chunks (id, document_id, tenant, collection, ordinal, text,"
            " char_start, char_end, token_count) VALUES (%s, %s, %s, 'c', 0, %s, 0, 1, 1)",
            (f"{doc.hex}-p", doc, TENANT, TEXT),
        )
        conn.execute(
            "INSERT INTO child_chunks (id, parent_id, document_id, tenant, collection, ordinal,"
            " text, char_start, char_end, token_count, embedding)"
            " VALUES (%s, %s, %s, %s, 'c', 0, %s, 0, 1, 1, %s::vector)",
            (
                f"{doc.hex}-c",
                f"{doc.hex}-p",
                doc,
                TENANT,
                TEXT,
                str([float(x) for x in embeddings.embed_query(TEXT)]),
            ),
        )
        conn.commit()
    yield embeddings
    with connect(settings) as conn:
        conn.execute("DELETE FROM documents WHERE tenant = %s", (TENANT,))


@pytest.fixture
def slow_lexical(monkeypatch: pytest.MonkeyPatch) -> None:
    """The BM25 channel's SQL takes 5 s (on the channel's own connection and transaction)."""

    def slow(conn: psycopg.Connection[Any], *args: Any, **kwargs: Any) -> list[Any]:
        conn.execute(f"SELECT pg_sleep(5) /* {SLEEP_MARK} */")
        return []

    monkeypatch.setattr(pg_channels, "lexical", slow)


def _sleeping(db_url: str) -> int:
    with psycopg.connect(db_url, autocommit=True) as conn:
        row = conn.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE state = 'active'"
            " AND query LIKE %s AND query NOT LIKE '%%pg_stat_activity%%'",
            (f"%{SLEEP_MARK}%",),
        ).fetchone()
    return int(row[0]) if row else 0


def test_statement_timeout_cancels_a_slow_channel_in_the_database(
    settings: Settings, stored: Any, slow_lexical: None
) -> None:
    backend = PostgresBackend(_with_timeout(settings, 0.3))
    t0 = time.perf_counter()
    with pytest.raises(psycopg.errors.QueryCanceled):
        backend.lexical(["fever"], SCOPE, 5)
    assert time.perf_counter() - t0 < 3.0  # cancelled near 0.3 s, long before the 5 s sleep
    # the pooled connection comes back clean: the next channel call works
    assert backend.semantic(stored.embed_query(TEXT), SCOPE, 5)


def test_funnel_drops_a_channel_the_database_cancelled(
    settings: Settings, stored: Any, slow_lexical: None
) -> None:
    # the funnel's own wait is long (10 s): only the database deadline (0.3 s) ends the channel
    backend = PostgresBackend(_with_timeout(settings, 0.3))
    cfg = FunnelConfig(channel_timeout_s=10.0).tuned(
        weights={"lexical": 0.5, "semantic": 0.5, "graph": 0.0}
    )
    t0 = time.perf_counter()
    result = run_funnel(
        "How is Q fever diagnosed?", backend, stored, NoReranker(), cfg, SCOPE, threshold=0.0
    )
    assert time.perf_counter() - t0 < 5.0
    assert result.trace.channels_used == ["semantic"]
    assert result.trace.failed_channels["lexical"].startswith("QueryCanceled")
    assert [s.text for s in result.sections] == [TEXT]
    assert {"lexical", "semantic", "fuse", "rerank"} <= set(result.trace.timings_ms)


def test_abandoned_channel_does_not_keep_running_on_the_server(
    settings: Settings, db_url: str, stored: Any, slow_lexical: None
) -> None:
    # both deadlines at 0.5 s: the funnel stops waiting, and the server stops the statement
    backend = PostgresBackend(_with_timeout(settings, 0.5))
    cfg = FunnelConfig(channel_timeout_s=0.5).tuned(
        weights={"lexical": 0.5, "semantic": 0.5, "graph": 0.0}
    )
    result = run_funnel(
        "How is Q fever diagnosed?", backend, stored, NoReranker(), cfg, SCOPE, threshold=0.0
    )
    assert "lexical" in result.trace.failed_channels
    assert result.trace.channels_used == ["semantic"]
    deadline = time.monotonic() + 3.0
    while _sleeping(db_url) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _sleeping(db_url) == 0  # the 5 s sleep was cancelled, not left to finish
