"""Provenance ledger: append-only, hash-chained entries per thread.

Entry ``idx`` of a thread (0, 1, 2, ...) stores ``prev_hash`` (the previous entry's hash, or
:data:`GENESIS_HASH` for entry 0), its global sequence number ``seq``, its creation time
``created_at`` (UTC, ISO 8601 with microseconds) and (hash version 2, every entry written now)

    hash = sha256(prev_hash + canonical_json({"thread_id", "idx", "seq", "created_at", "kind",
                                              "payload"}))

with :func:`canonical_json` = sorted keys, no whitespace, UTF-8, no NaN. Entries written before
migration 0005 keep hash version 1, which leaves ``seq`` and ``created_at`` out.

:func:`verify_entries` walks a thread and reports the first entry whose index, link, order
(``seq`` strictly increasing) or hash is wrong. A chain alone proves that no entry was altered,
removed or reordered *before* its last entry; so the head is anchored twice:

* the ``ledger_heads`` table records each thread's last ``(idx, seq, hash)`` in the same
  transaction as the append, and a trigger lets a head only move forward: a chain that ends
  before its recorded head was *truncated*, one whose last hash differs was *rewritten*;
* the RDC verdict records the head hash after its own entry (in the run's state, i.e. the
  checkpoint); ``verify(..., anchor=(idx, hash))`` checks the chain still holds it, which catches
  a rewrite that also re-hashed the chain and forged the head table.

Two back ends share one interface (:class:`Ledger`): :class:`PostgresLedger` (the ``ledger``
table, where a trigger refuses UPDATE/DELETE, and appends to one thread are serialised with
``pg_advisory_xact_lock(hashtext(thread_id))``) and :class:`InMemoryLedger` (runs without a DB).

Idempotency: ``append(..., key=k)`` stores ``k`` in the payload under :data:`KEY_FIELD` and returns
the existing entry instead of appending when the thread already has an entry with that key, so a
retried or resumed step can replay its appends safely.

Payloads are made JSON-safe first (:func:`jsonable`: NaN/±inf become ``null``, ``-0.0`` becomes
``0.0``, tuples become lists, NUL characters are replaced); the Postgres back end also hashes the
payload exactly as ``jsonb`` returns it, so numbers always verify. The pure chain (entries,
hashing, verification) lives in :mod:`disputatio.storage.ledger_chain` and is re-exported here.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any, Protocol

from psycopg import Connection
from psycopg.types.json import Jsonb

from disputatio.settings import Settings, get_settings
from disputatio.storage.ledger_chain import (
    GENESIS_HASH,
    KEY_FIELD,
    LedgerEntry,
    VerifyResult,
    canonical_json,
    entry_hash,
    jsonable,
    utc_iso,
    verify_entries,
)

__all__ = [
    "GENESIS_HASH",
    "KEY_FIELD",
    "InMemoryLedger",
    "Ledger",
    "LedgerEntry",
    "PostgresLedger",
    "VerifyResult",
    "append",
    "canonical_json",
    "entry_hash",
    "head_of",
    "jsonable",
    "read_entries",
    "utc_iso",
    "verify",
    "verify_entries",
]


def _with_key(payload: Mapping[str, Any], key: str | None) -> dict[str, Any]:
    data = jsonable(payload)
    if not isinstance(data, dict):
        raise TypeError("a ledger payload must be a mapping")
    if key is not None:
        data[KEY_FIELD] = key
    return data


_COLUMNS = "thread_id, idx, kind, payload, prev_hash, hash, seq, created_at, hash_version"


def _entry(row: Sequence[Any]) -> LedgerEntry:
    created = utc_iso(row[7]) if isinstance(row[7], datetime) else row[7]
    return LedgerEntry(row[0], int(row[1]), row[2], row[3], row[4], row[5], int(row[6]), created,
                       int(row[8]))  # fmt: skip


def append(
    conn: Connection[Any],
    thread_id: str,
    kind: str,
    payload: Mapping[str, Any],
    *,
    key: str | None = None,
) -> LedgerEntry:
    """Append one entry to ``thread_id`` in the ``ledger`` table (in its own transaction).

    The thread's row in ``ledger_heads`` moves to the new entry in the same transaction.

    Args:
        conn: A connection to the migrated database (tuple rows).
        thread_id: The thread.
        kind: Entry kind.
        payload: JSON-able mapping.
        key: Idempotency key: if the thread has an entry with this key, return it instead.

    Returns:
        The appended (or already present) entry.
    """
    data = _with_key(payload, key)
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (thread_id,))
        if key is not None:
            row = conn.execute(
                f"SELECT {_COLUMNS} FROM ledger WHERE thread_id = %s AND payload->>%s = %s",
                (thread_id, KEY_FIELD, key),
            ).fetchone()
            if row is not None:
                return _entry(row)
        head = conn.execute(
            "SELECT idx, hash FROM ledger WHERE thread_id = %s ORDER BY idx DESC LIMIT 1",
            (thread_id,),
        ).fetchone()
        idx, prev = (0, GENESIS_HASH) if head is None else (int(head[0]) + 1, str(head[1]))
        stored = conn.execute(
            "SELECT %s::jsonb, nextval(pg_get_serial_sequence('ledger', 'seq')), now()",
            (Jsonb(data),),
        ).fetchone()
        assert stored is not None
        normalised = stored[0]  # hash exactly what jsonb will give back on verify
        seq, created = int(stored[1]), utc_iso(stored[2])
        digest = entry_hash(prev, thread_id, idx, kind, normalised, seq=seq, created_at=created)
        conn.execute(
            f"INSERT INTO ledger ({_COLUMNS}) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, 2)",
            (thread_id, idx, kind, Jsonb(normalised), prev, digest, seq, stored[2]),
        )
        conn.execute(
            "INSERT INTO ledger_heads (thread_id, idx, seq, hash) VALUES (%s, %s, %s, %s)"
            " ON CONFLICT (thread_id) DO UPDATE SET idx = EXCLUDED.idx, seq = EXCLUDED.seq,"
            " hash = EXCLUDED.hash, updated_at = now()",
            (thread_id, idx, seq, digest),
        )
    return LedgerEntry(thread_id, idx, kind, normalised, prev, digest, seq, created)


def read_entries(conn: Connection[Any], thread_id: str) -> list[LedgerEntry]:
    """Return the entries of ``thread_id`` in ``idx`` order."""
    rows = conn.execute(
        f"SELECT {_COLUMNS} FROM ledger WHERE thread_id = %s ORDER BY idx", (thread_id,)
    ).fetchall()
    return [_entry(r) for r in rows]


def head_of(conn: Connection[Any], thread_id: str) -> tuple[int, str] | None:
    """Return the recorded head ``(idx, hash)`` of ``thread_id`` (None when none is recorded)."""
    row = conn.execute(
        "SELECT idx, hash FROM ledger_heads WHERE thread_id = %s", (thread_id,)
    ).fetchone()
    return None if row is None else (int(row[0]), str(row[1]))


def count_entries(conn: Connection[Any], thread_id: str) -> int:
    """Return how many entries ``thread_id`` has (0 when none)."""
    row = conn.execute("SELECT count(*) FROM ledger WHERE thread_id = %s", (thread_id,)).fetchone()
    return int(row[0]) if row else 0


def verify(
    conn: Connection[Any], thread_id: str, *, anchor: tuple[int, str] | None = None
) -> VerifyResult:
    """Verify the chain of ``thread_id`` against its recorded head (and ``anchor`` if given)."""
    with conn.transaction():  # one snapshot for the entries and the head
        entries = read_entries(conn, thread_id)
        head = head_of(conn, thread_id)
    return verify_entries(thread_id, entries, head=head, anchor=anchor)


class Ledger(Protocol):
    """What the graphs need from a ledger."""

    def append(
        self, thread_id: str, kind: str, payload: Mapping[str, Any], *, key: str | None = None
    ) -> LedgerEntry:
        """Append an entry (idempotent per ``key``)."""
        ...

    def entries(self, thread_id: str) -> list[LedgerEntry]:
        """Return the entries of a thread in order."""
        ...

    def verify(self, thread_id: str, *, anchor: tuple[int, str] | None = None) -> VerifyResult:
        """Verify a thread against its recorded head (and ``anchor``)."""
        ...


class InMemoryLedger:
    """A process-local ledger with the same chaining rules (thread-safe)."""

    def __init__(self) -> None:
        self._threads: dict[str, list[LedgerEntry]] = {}
        self._heads: dict[str, tuple[int, str]] = {}
        self._seq = 0
        self._lock = threading.Lock()

    def append(
        self, thread_id: str, kind: str, payload: Mapping[str, Any], *, key: str | None = None
    ) -> LedgerEntry:
        """Append an entry (see :func:`append`)."""
        data = _with_key(payload, key)
        canonical_json(data)  # refuse what the Postgres back end would refuse
        with self._lock:
            chain = self._threads.setdefault(thread_id, [])
            if key is not None:
                for e in chain:
                    if e.payload.get(KEY_FIELD) == key:
                        return e
            prev = chain[-1].hash if chain else GENESIS_HASH
            idx = len(chain)
            self._seq += 1
            created = utc_iso(datetime.now(UTC))
            digest = entry_hash(prev, thread_id, idx, kind, data, seq=self._seq, created_at=created)
            entry = LedgerEntry(thread_id, idx, kind, data, prev, digest, self._seq, created)
            chain.append(entry)
            self._heads[thread_id] = (idx, digest)
            return entry

    def entries(self, thread_id: str) -> list[LedgerEntry]:
        """Return a copy of the entries of ``thread_id``."""
        with self._lock:
            return list(self._threads.get(thread_id, []))

    def raw(self, thread_id: str) -> list[LedgerEntry]:
        """Return the live entry list (for audits and tamper tests: editing it is tampering)."""
        return self._threads.setdefault(thread_id, [])

    def head(self, thread_id: str) -> tuple[int, str] | None:
        """Return the recorded head ``(idx, hash)`` of ``thread_id``."""
        with self._lock:
            return self._heads.get(thread_id)

    def verify(self, thread_id: str, *, anchor: tuple[int, str] | None = None) -> VerifyResult:
        """Verify the chain of ``thread_id`` against its recorded head (and ``anchor``)."""
        return verify_entries(
            thread_id, self.entries(thread_id), head=self.head(thread_id), anchor=anchor
        )


class PostgresLedger:
    """The ``ledger`` table of the configured database, through the shared connection pool."""

    def __init__(self, settings: Settings | None = None) -> None:
        self._settings = settings or get_settings()

    def append(
        self, thread_id: str, kind: str, payload: Mapping[str, Any], *, key: str | None = None
    ) -> LedgerEntry:
        """Append an entry (see :func:`append`)."""
        from disputatio.storage.db import get_pool

        with get_pool(self._settings).connection() as conn:
            return append(conn, thread_id, kind, payload, key=key)

    def entries(self, thread_id: str) -> list[LedgerEntry]:
        """Return the entries of ``thread_id`` in order."""
        from disputatio.storage.db import get_pool

        with get_pool(self._settings).connection() as conn:
            return read_entries(conn, thread_id)

    def verify(self, thread_id: str, *, anchor: tuple[int, str] | None = None) -> VerifyResult:
        """Verify the chain of ``thread_id`` against its recorded head (and ``anchor``)."""
        from disputatio.storage.db import get_pool

        with get_pool(self._settings).connection() as conn:
            return verify(conn, thread_id, anchor=anchor)
