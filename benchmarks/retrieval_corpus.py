"""Corpus of the retrieval scale benchmark: real BioASQ snippets and spliced synthetic chunks.

Read from the tenant ``disputatio eval retrieval`` ingested (texts, stored vectors, spaCy
mentions) and written with COPY into the benchmark's own database (see ``retrieval.py``).
"""

from __future__ import annotations

import hashlib
import json
import random
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from disputatio.eval.retrieval_data import label_of
from disputatio.settings import Settings, load_settings

TENANT, COLLECTION, SOURCE_TENANT = "bench", "scale", "bioasq"
CHILDREN_PER_DOC = 5
#: Entity pairs kept per synthetic chunk (co-occurrence relations).
MAX_PAIRS = 20


@dataclass
class Unit:
    """One real snippet read from the source database."""

    label: str
    text: str
    vector: np.ndarray
    mentions: list[tuple[str, str, str, int, int]]  # key, name, label, start, end


@dataclass
class Bulk:
    """Rows for COPY."""

    docs: list[tuple[Any, ...]] = field(default_factory=list)
    parents: list[tuple[Any, ...]] = field(default_factory=list)
    children: list[tuple[Any, ...]] = field(default_factory=list)
    mentions: list[tuple[str, str, str, int, int, str, str]] = field(default_factory=list)
    relations: list[tuple[str, str, str, str]] = field(default_factory=list)  # a, b, doc, chunk


# --- source: the BioASQ snippets ingested by `disputatio eval retrieval` -------------------------


def load_source(home: Path) -> list[Unit]:
    """Real snippets with their stored vectors and entity mentions."""
    from disputatio.storage.db import close_pools, connect

    settings = load_settings(home=home)
    with connect(settings) as conn:
        rows = conn.execute(
            "SELECT c.id, d.source_uri, c.text, c.embedding::text FROM child_chunks c"
            " JOIN documents d ON d.id = c.document_id WHERE c.tenant = %s ORDER BY c.id",
            (SOURCE_TENANT,),
        ).fetchall()
        found = conn.execute(
            "SELECT m.chunk_id, e.key, e.name, e.label, m.char_start, m.char_end"
            " FROM entity_mentions m JOIN entities e ON e.id = m.entity_id WHERE e.tenant = %s",
            (SOURCE_TENANT,),
        ).fetchall()
    close_pools()  # the source server keeps running: others may be using it
    mentions: dict[str, list[tuple[str, str, str, int, int]]] = {}
    for chunk, key, name, lab, start, end in found:
        mentions.setdefault(chunk, []).append((key, name, lab, start, end))
    units = [
        Unit(
            label_of(uri), text, np.array(json.loads(vec), dtype=np.float32), mentions.get(cid, [])
        )
        for cid, uri, text, vec in rows
        if vec is not None
    ]
    if not units:
        raise SystemExit(f"no ingested BioASQ chunks in {home}: run `disputatio eval retrieval`")
    return units


# --- rows ----------------------------------------------------------------------------------------


def _doc(bulk: Bulk, key: str, uri: str, texts: list[str]) -> tuple[str, str]:
    doc_id = str(uuid.uuid4())
    markdown = "\n\n".join(texts)
    sha = hashlib.sha256(f"{key}\n{markdown}".encode()).hexdigest()
    bulk.docs.append((doc_id, TENANT, COLLECTION, sha, uri, key, "txt", markdown, "{}"))
    pid = hashlib.sha1(f"{key}/p0".encode()).hexdigest()[:24]
    bulk.parents.append(
        (pid, doc_id, TENANT, COLLECTION, 0, markdown, 0, len(markdown), len(markdown) // 4)
    )
    return doc_id, pid


def _child(
    bulk: Bulk, key: str, doc_id: str, pid: str, ordinal: int, text: str, vector: np.ndarray,
    mentions: list[tuple[str, str, str, int, int]],
) -> None:  # fmt: skip
    cid = hashlib.sha1(f"{key}/c{ordinal}".encode()).hexdigest()[:24]
    bulk.children.append(
        (cid, pid, doc_id, TENANT, COLLECTION, ordinal, text, 0, len(text), len(text) // 4, vector)
    )
    keys = sorted({m[0] for m in mentions})
    bulk.mentions += [(k, n, lab, s, e, cid, doc_id) for k, n, lab, s, e in mentions]
    pairs = [(a, b) for i, a in enumerate(keys) for b in keys[i + 1 :]][:MAX_PAIRS]
    bulk.relations += [(a, b, doc_id, cid) for a, b in pairs]


def real_rows(units: list[Unit]) -> Bulk:
    """One document, parent and child per real snippet (as the ingestion stored them)."""
    bulk = Bulk()
    for i, unit in enumerate(units):
        key = f"real-{i}"
        doc_id, pid = _doc(bulk, key, f"/bench/{unit.label}.txt", [unit.text])
        _child(bulk, key, doc_id, pid, 0, unit.text, unit.vector, unit.mentions)
    return bulk


def synthetic_rows(units: list[Unit], n: int, seed: int, noise: float) -> Bulk:
    """``n`` synthetic children: spliced real snippets with mixed, perturbed vectors."""
    rng, prng = np.random.default_rng(seed), random.Random(seed)
    bulk = Bulk()
    made = 0
    while made < n:
        key = f"syn-{seed}-{made}"
        count = min(CHILDREN_PER_DOC, n - made)
        pieces = []
        for _ in range(count):
            a, b = prng.sample(units, 2)
            cut_a, cut_b = _cut(a.text), _cut(b.text)
            text = a.text[:cut_a].rstrip() + " " + b.text[cut_b:].lstrip()
            shift = (
                len(a.text[:cut_a].rstrip())
                + 1
                - cut_b
                - (len(b.text[cut_b:]) - len(b.text[cut_b:].lstrip()))
            )
            mentions = [m for m in a.mentions if m[4] <= cut_a] + [
                (k, nm, lab, s + shift, e + shift) for k, nm, lab, s, e in b.mentions if s >= cut_b
            ]
            vec = a.vector + b.vector + rng.normal(0.0, noise, a.vector.shape).astype(np.float32)
            pieces.append((text, vec / np.linalg.norm(vec), mentions))
        doc_id, pid = _doc(bulk, key, f"synthetic://{key}", [p[0] for p in pieces])
        for ordinal, (text, vec, mentions) in enumerate(pieces):
            _child(bulk, key, doc_id, pid, ordinal, text, vec, mentions)
        made += count
    return bulk


def _cut(text: str) -> int:
    """A word boundary near the middle of ``text``."""
    middle = len(text) // 2
    space = text.find(" ", middle)
    return space if space > 0 else middle


#: maintenance_work_mem for HNSW builds (the benchmark machine has 24 GiB).
INDEX_MEMORY = "4GB"


def copy_bulk(settings: Settings, bulk: Bulk, *, index: bool = True) -> float:
    """COPY the rows in (one transaction); return the seconds taken.

    The HNSW index is dropped first; with ``index`` it is rebuilt at the end (else call
    :func:`build_index` after the last block).
    """
    from disputatio.storage.db import connect

    t0 = time.perf_counter()
    with connect(settings) as conn, conn.transaction():
        conn.execute("SET LOCAL maintenance_work_mem = '1GB'")
        conn.execute("DROP INDEX IF EXISTS child_chunks_embedding_idx")
        _copy(conn, "documents (id, tenant, collection, sha256, source_uri, title, kind,"
              " markdown, metadata)", bulk.docs)  # fmt: skip
        _copy(conn, "parent_chunks (id, document_id, tenant, collection, ordinal, text,"
              " char_start, char_end, token_count)", bulk.parents)  # fmt: skip
        _copy(conn, "child_chunks (id, parent_id, document_id, tenant, collection, ordinal, text,"
              " char_start, char_end, token_count, embedding)", bulk.children)  # fmt: skip
        names = {k: (n, lab) for k, n, lab, *_ in bulk.mentions}
        conn.cursor().executemany(
            "INSERT INTO entities (tenant, key, name, label) VALUES (%s, %s, %s, %s)"
            " ON CONFLICT (tenant, key) DO NOTHING",
            [(TENANT, k, n, lab) for k, (n, lab) in names.items()],
        )
        ids = dict(conn.execute("SELECT key, id FROM entities WHERE tenant = %s", (TENANT,)))
        seen = set()
        rows = []
        for k, _, _, s, e, cid, doc in bulk.mentions:
            if (ids[k], cid, s) not in seen:
                seen.add((ids[k], cid, s))
                rows.append((ids[k], cid, doc, s, e))
        _copy(
            conn, "entity_mentions (entity_id, chunk_id, document_id, char_start, char_end)", rows
        )
        _copy(conn, "relations (tenant, source_id, target_id, type, weight, document_id,"
              " chunk_id)", [(TENANT, ids[a], ids[b], "co_occurs", 1.0, d, c)
                             for a, b, d, c in bulk.relations])  # fmt: skip
    if index:
        build_index(settings)
    return time.perf_counter() - t0


def build_index(settings: Settings) -> float:
    """(Re)build the HNSW index of the child vectors and ANALYZE; return the seconds taken."""
    from disputatio.storage.db import connect

    t0 = time.perf_counter()
    with connect(settings) as conn, conn.transaction():
        # the graph of 1M 384-d vectors is ~2 GB: built in memory it is several times faster
        conn.execute(f"SET LOCAL maintenance_work_mem = '{INDEX_MEMORY}'")
        conn.execute("SET LOCAL max_parallel_maintenance_workers = 1")
        conn.execute("DROP INDEX IF EXISTS child_chunks_embedding_idx")
        conn.execute(
            "CREATE INDEX child_chunks_embedding_idx ON child_chunks"
            " USING hnsw (embedding vector_cosine_ops) WITH (m = 16, ef_construction = 64)"
        )
    with connect(settings) as conn:
        conn.execute("ANALYZE")
    return time.perf_counter() - t0


def has_index(settings: Settings) -> bool:
    """Whether the HNSW index of the child vectors exists (a killed load may have dropped it)."""
    from disputatio.storage.db import connect

    with connect(settings) as conn:
        row = conn.execute("SELECT to_regclass('child_chunks_embedding_idx')").fetchone()
    return bool(row and row[0])


def stored_children(settings: Settings) -> tuple[int, int]:
    """``(child chunks of the benchmark tenant, of them synthetic)`` already stored."""
    from disputatio.storage.db import connect

    with connect(settings) as conn:
        row = conn.execute(
            "SELECT count(*), count(*) FILTER (WHERE d.source_uri LIKE 'synthetic://%%')"
            " FROM child_chunks c JOIN documents d ON d.id = c.document_id"
            " WHERE c.tenant = %s",
            (TENANT,),
        ).fetchone()
    return (int(row[0]), int(row[1])) if row else (0, 0)


def _copy(conn: Any, target: str, rows: list[tuple[Any, ...]]) -> None:
    with conn.cursor().copy(f"COPY {target} FROM STDIN") as cp:
        for row in rows:
            cp.write_row([_pg(v) for v in row])


def _pg(value: Any) -> Any:
    if isinstance(value, np.ndarray):
        return "[" + ",".join(f"{x:.6f}" for x in value.tolist()) + "]"
    return value
