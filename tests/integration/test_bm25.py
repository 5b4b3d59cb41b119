"""BM25 inside Postgres (migration 0003): scores against hand-computed values, trigger upkeep.

Rows are written with plain SQL (no models), so these tests exercise the triggers and the query
alone.
"""

from __future__ import annotations

import json
import math
import uuid
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest

from disputatio.retrievers import pg_channels
from disputatio.retrievers.base import RetrievalFilters
from disputatio.settings import Settings
from disputatio.storage.db import connect

pytestmark = pytest.mark.integration


def add_document(
    conn: psycopg.Connection[Any],
    tenant: str,
    texts: list[str],
    *,
    collection: str = "c",
    language: str | None = None,
) -> list[str]:
    """Insert one document with one parent and one child per text; return the child ids."""
    doc = uuid.uuid4()
    metadata = json.dumps({"language": language} if language else {})
    conn.execute(
        "INSERT INTO documents (id, tenant, collection, sha256, source_uri, kind, markdown,"
        " metadata) VALUES (%s, %s, %s, %s, %s, 'text', %s, %s)",
        (
            doc,
            tenant,
            collection,
            doc.hex,
            f"{doc.hex}.txt",
            "\n".join(texts),
            json.dumps(metadata),
        ),
    )
    ids = []
    for i, text in enumerate(texts):
        pid, cid = f"{doc.hex}-p{i}", f"{doc.hex}-c{i}"
        conn.execute(
            "INSERT INTO parent_chunks (id, document_id, tenant, collection, ordinal, text,"
            " char_start, char_end, token_count) VALUES (%s, %s, %s, %s, %s, %s, 0, 1, 1)",
            (pid, doc, tenant, collection, i, text),
        )
        conn.execute(
            "INSERT INTO child_chunks (id, parent_id, document_id, tenant, collection, ordinal,"
            " text, char_start, char_end, token_count)"
            " VALUES (%s, %s, %s, %s, %s, %s, %s, 0, 1, 1)",
            (cid, pid, doc, tenant, collection, i, text),
        )
        ids.append(cid)
    return ids


@pytest.fixture
def conn(settings: Settings, db_url: str) -> Iterator[psycopg.Connection[Any]]:
    """A connection whose writes are rolled back at the end."""
    with connect(settings) as c:
        yield c
        c.rollback()


def idf(n: int, df: int) -> float:
    return math.log(1 + (n - df + 0.5) / (df + 0.5))


def test_bm25_scores_match_hand_computed_values(conn: psycopg.Connection[Any]) -> None:
    # lexemes under 'english': cat, dog, bird, fish (no stemming changes, no stop words)
    cat_dog = add_document(conn, "bm25-hand", ["cat cat dog"])[0]  # dl 3
    dog_bird = add_document(conn, "bm25-hand", ["dog bird"])[0]  # dl 2
    add_document(conn, "bm25-hand", ["fish"])  # dl 1; N = 3, avgdl = 2
    scope = RetrievalFilters(tenant="bm25-hand")

    hits = dict(pg_channels.lexical(conn, ["cat"], scope, 10, k1=1.2, b=0.75))
    # idf(cat) = ln(1 + (3 - 1 + .5)/(1 + .5)) = ln(2.6667) = 0.98083
    # tf part = 2·2.2 / (2 + 1.2·(.25 + .75·3/2)) = 4.4 / 3.65 = 1.20548 → 1.18237
    assert hits == pytest.approx({cat_dog: 1.18237}, abs=1e-4)

    hits = dict(pg_channels.lexical(conn, ["dog"], scope, 10, k1=1.2, b=0.75))
    # idf(dog) = ln(1 + 1.5/2.5) = 0.47000; cat dog: 2.2/(1 + 1.2·1.375) = 0.83019 → 0.39019
    # dog bird: 2.2/(1 + 1.2·1) = 1.0 → 0.47000 (shorter document wins at equal tf)
    assert hits == pytest.approx({cat_dog: 0.39019, dog_bird: 0.47000}, abs=1e-4)
    assert pg_channels.lexical(conn, ["dog"], scope, 10)[0][0] == dog_bird

    # several terms add up; k1 and b reach the formula
    hits = dict(pg_channels.lexical(conn, ["cat", "bird"], scope, 10, k1=1.5, b=0.5))
    cat = idf(3, 1) * 2 * 2.5 / (2 + 1.5 * (0.5 + 0.5 * 3 / 2))
    bird = idf(3, 1) * 1 * 2.5 / (1 + 1.5 * (0.5 + 0.5 * 2 / 2))
    assert hits == pytest.approx({cat_dog: cat, dog_bird: bird}, abs=1e-4)


def test_index_follows_inserts_deletes_and_scopes(conn: psycopg.Connection[Any]) -> None:
    first = add_document(conn, "bm25-upkeep", ["alpha beta"], collection="one")[0]
    second = add_document(conn, "bm25-upkeep", ["alpha gamma"], collection="two")[0]
    add_document(conn, "bm25-other", ["alpha"])
    scope = RetrievalFilters(tenant="bm25-upkeep")
    assert {c for c, _ in pg_channels.lexical(conn, ["alpha"], scope, 10)} == {first, second}
    one = RetrievalFilters(tenant="bm25-upkeep", collections=("one",))
    assert [c for c, _ in pg_channels.lexical(conn, ["alpha"], one, 10)] == [first]
    stats = conn.execute(
        "SELECT sum(n_docs), sum(total_len) FROM bm25_stats WHERE tenant = 'bm25-upkeep'"
    ).fetchone()
    assert stats == (2, 4)

    # deleting the document (cascade to its chunks) takes its postings and statistics along
    conn.execute(
        "DELETE FROM documents WHERE id = (SELECT document_id FROM child_chunks WHERE id = %s)",
        (second,),
    )
    assert [c for c, _ in pg_channels.lexical(conn, ["alpha"], scope, 10)] == [first]
    assert conn.execute(
        "SELECT count(*) FROM bm25_postings WHERE chunk_id = %s", (second,)
    ).fetchone() == (0,)
    stats = conn.execute(
        "SELECT sum(n_docs), sum(total_len) FROM bm25_stats WHERE tenant = 'bm25-upkeep'"
    ).fetchone()
    assert stats == (1, 2)


def test_backfill_indexes_rows_written_before_the_index(conn: psycopg.Connection[Any]) -> None:
    conn.execute("ALTER TABLE child_chunks DISABLE TRIGGER child_chunks_bm25_insert")
    ids = add_document(conn, "bm25-backfill", ["delta epsilon", "epsilon"])
    conn.execute("ALTER TABLE child_chunks ENABLE TRIGGER child_chunks_bm25_insert")
    scope = RetrievalFilters(tenant="bm25-backfill")
    assert pg_channels.lexical(conn, ["epsilon"], scope, 10) == []
    # what migration 0003 runs on an existing database; a second run changes nothing
    for _ in range(2):
        conn.execute("SELECT bm25_index_chunks(ARRAY(SELECT id FROM child_chunks))")
    assert {c for c, _ in pg_channels.lexical(conn, ["epsilon"], scope, 10)} == set(ids)
    assert conn.execute(
        "SELECT sum(n_docs) FROM bm25_stats WHERE tenant = 'bm25-backfill'"
    ).fetchone() == (2,)


def test_common_term_postings_are_bounded_and_rare_terms_still_rank(
    conn: psycopg.Connection[Any],
) -> None:
    # 30 chunks share "common"; one also has "rare": reading 5 postings per term still finds it
    ids = [
        add_document(conn, "bm25-bound", [f"common filler{i}" + (" rare" if i == 17 else "")])[0]
        for i in range(30)
    ]
    scope = RetrievalFilters(tenant="bm25-bound")
    hits = pg_channels.lexical(conn, ["common", "rare"], scope, 3, per_term=5)
    assert hits[0][0] == ids[17]
    exact = dict(pg_channels.lexical(conn, ["common", "rare"], scope, 30, per_term=1000))
    assert hits[0][1] == pytest.approx(exact[ids[17]])  # candidates are scored exactly


def test_compacting_the_statistics_keeps_every_sum_and_one_row_per_tenant(
    conn: psycopg.Connection[Any],
) -> None:
    for i in range(3):
        add_document(conn, "bm25-compact", [f"zeta eta {i}", "theta"])
    add_document(conn, "bm25-compact-2", ["iota kappa lambda"])
    sums = "SELECT tenant, sum(n_docs), sum(total_len) FROM bm25_stats GROUP BY tenant ORDER BY 1"
    before = conn.execute(sums).fetchall()
    rows = "SELECT count(*) FROM bm25_stats WHERE tenant = 'bm25-compact'"
    deltas = conn.execute(rows).fetchone()
    assert deltas is not None and deltas[0] > 1  # a delta per statement written
    scope = RetrievalFilters(tenant="bm25-compact")
    hits = pg_channels.lexical(conn, ["theta", "zeta"], scope, 10)
    conn.execute("SELECT bm25_compact_stats()")  # what migration 0012 runs
    assert conn.execute(sums).fetchall() == before
    assert conn.execute(rows).fetchone() == (1,)
    assert pg_channels.lexical(conn, ["theta", "zeta"], scope, 10) == hits  # same scores
