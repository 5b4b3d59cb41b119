"""The hash chain of the provenance ledger: entries, hashing and verification (no database).

See :mod:`disputatio.storage.ledger` for the rules; this module holds the pure parts that both
back ends share.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import Enum
from typing import Any

from pydantic import BaseModel

__all__ = [
    "GENESIS_HASH",
    "KEY_FIELD",
    "LedgerEntry",
    "VerifyResult",
    "canonical_json",
    "entry_hash",
    "hash_of",
    "jsonable",
    "utc_iso",
    "verify_entries",
]

GENESIS_HASH = "0" * 64
"""``prev_hash`` of the first entry of every thread."""

KEY_FIELD = "_key"
"""Payload field holding the idempotency key of an entry."""


@dataclass(frozen=True)
class LedgerEntry:
    """One ledger entry.

    Attributes:
        thread_id: The thread.
        idx: Position in the thread (0-based, contiguous).
        kind: Entry kind (``move``, ``tool_call``, ``graph_delta``, ``prompt``, ``verdict``...).
        payload: JSON payload.
        prev_hash: Hash of the previous entry (``GENESIS_HASH`` for idx 0).
        hash: This entry's hash.
        seq: Global sequence number (increases with every append, across threads).
        created_at: Creation time, UTC ISO 8601 with microseconds.
        version: Hash version: 2 hashes ``seq`` and ``created_at`` too, 1 (legacy) does not.
    """

    thread_id: str
    idx: int
    kind: str
    payload: dict[str, Any]
    prev_hash: str
    hash: str
    seq: int | None = None
    created_at: str | None = None
    version: int = 2


@dataclass(frozen=True)
class VerifyResult:
    """Outcome of verifying a thread.

    Attributes:
        ok: True when every entry links and hashes correctly.
        entries: Number of entries read.
        first_bad_idx: Index of the first bad entry (None when ok or empty; the entry count
            when entries are missing at the end).
        reason: One-line explanation.
        head_hash: Hash of the last entry read (None when empty).
    """

    ok: bool
    entries: int
    first_bad_idx: int | None
    reason: str
    head_hash: str | None = None


def jsonable(value: Any) -> Any:
    """Return ``value`` as plain JSON data (see the module docstring for the conversions).

    Raises:
        TypeError: On a value with no JSON form.
    """
    if value is None or isinstance(value, bool | int):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            return None
        return 0.0 if value == 0.0 else value
    if isinstance(value, str):
        return value.replace("\x00", "\ufffd")
    if isinstance(value, Enum):
        return jsonable(value.value)
    if isinstance(value, BaseModel):
        return jsonable(value.model_dump(mode="json"))
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        items = sorted(value, key=repr) if isinstance(value, set | frozenset) else value
        return [jsonable(v) for v in items]
    if hasattr(value, "item"):  # numpy scalars
        return jsonable(value.item())
    raise TypeError(f"cannot put {type(value).__name__} in a ledger payload")


def canonical_json(value: Any) -> str:
    """Return the canonical JSON text of ``value`` (sorted keys, compact, UTF-8, no NaN)."""
    return json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    )


def entry_hash(
    prev_hash: str,
    thread_id: str,
    idx: int,
    kind: str,
    payload: Any,
    *,
    seq: int | None = None,
    created_at: str | None = None,
) -> str:
    """Return the hash of an entry (hex; see the module docstring).

    With ``seq`` and ``created_at`` (hash version 2) they are hashed too; without them the
    legacy version-1 body ``{thread_id, idx, kind, payload}`` is hashed.
    """
    body: dict[str, Any] = {"thread_id": thread_id, "idx": idx, "kind": kind, "payload": payload}
    if seq is not None or created_at is not None:
        body.update({"seq": seq, "created_at": created_at})
    return hashlib.sha256((prev_hash + canonical_json(body)).encode("utf-8")).hexdigest()


def hash_of(e: LedgerEntry) -> str:
    """Return the hash ``e`` should have (by its hash version)."""
    if e.version >= 2:
        return entry_hash(
            e.prev_hash, e.thread_id, e.idx, e.kind, e.payload, seq=e.seq, created_at=e.created_at
        )
    return entry_hash(e.prev_hash, e.thread_id, e.idx, e.kind, e.payload)


def utc_iso(moment: datetime) -> str:
    """Return ``moment`` in UTC as ISO 8601 with microseconds (the hashed form of a time)."""
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


def verify_entries(
    thread_id: str,
    entries: Sequence[LedgerEntry],
    *,
    head: tuple[int, str] | None = None,
    anchor: tuple[int, str] | None = None,
) -> VerifyResult:
    """Verify the entries of one thread, given in ``idx`` order.

    Args:
        thread_id: The thread.
        entries: Its entries.
        head: The recorded head ``(idx, hash)`` (the ``ledger_heads`` row); the chain must end
            exactly there.
        anchor: An externally kept ``(idx, hash)`` (e.g. the verdict's); the chain must hold it.
    """
    n = len(entries)
    if not entries:
        if head is not None:
            return VerifyResult(False, 0, 0, f"thread {thread_id!r} was truncated: no entries left")
        return VerifyResult(False, 0, None, f"no ledger entries for thread {thread_id!r}")
    prev, last_seq = GENESIS_HASH, None
    for expected, e in enumerate(entries):
        if e.idx != expected:
            return VerifyResult(False, n, expected, f"entry {expected} is missing (found {e.idx})")
        if e.prev_hash != prev:
            return VerifyResult(
                False, n, e.idx, f"entry {e.idx} does not link to entry {e.idx - 1}"
            )
        if e.seq is not None:
            if last_seq is not None and e.seq <= last_seq:
                return VerifyResult(False, n, e.idx, f"entry {e.idx} is out of order (seq)")
            last_seq = e.seq
        if hash_of(e) != e.hash:
            return VerifyResult(False, n, e.idx, f"entry {e.idx} ({e.kind}) was modified")
        prev = e.hash
    if head is not None:
        if head[0] >= n:
            return VerifyResult(
                False, n, n, f"truncated: the head is entry {head[0]}, the chain ends at {n - 1}"
            )
        if head[0] != n - 1 or head[1] != prev:
            return VerifyResult(
                False,
                n,
                head[0],
                f"rewritten: entry {head[0]} no longer has the recorded head hash",
            )
    if anchor is not None:
        if anchor[0] >= n:
            return VerifyResult(
                False, n, n, f"truncated: the anchored entry {anchor[0]} is gone ({n} entries)"
            )
        if entries[anchor[0]].hash != anchor[1]:
            return VerifyResult(
                False, n, anchor[0], f"rewritten: entry {anchor[0]} does not match the anchor"
            )
    return VerifyResult(True, n, None, f"{n} entries, head {prev[:16]}", prev)
