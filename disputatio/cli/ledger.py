"""``disputatio ledger verify THREAD`` and ``disputatio ledger show THREAD``: the provenance ledger.

The ledger is the hash chain an RDC debate writes (:mod:`disputatio.storage.ledger`); ``verify``
also checks the head the thread's verdict anchored in its checkpoint. Register with
``ledger.command("verify")(ledger_verify)`` and ``ledger.command("show")(ledger_show)``, or
mount :data:`ledger_app`.
"""

from __future__ import annotations

import json

import typer
from rich.console import Console
from rich.table import Table

from disputatio.cli.options import AS_JSON
from disputatio.errors import ConfigError
from disputatio.settings import get_settings

out = Console()
ledger_app = typer.Typer(help="Inspect the provenance ledger.", no_args_is_help=True)


def _verdict_anchor(thread_id: str) -> tuple[int, str] | None:
    """Return the head the thread's RDC verdict recorded in its checkpoint (None if none)."""
    from disputatio.storage.checkpoint import open_checkpointer

    with open_checkpointer(get_settings()) as saver:
        found = saver.get_tuple({"configurable": {"thread_id": thread_id}})
    values = found.checkpoint.get("channel_values", {}) if found else {}
    ledger = (values.get("verdict") or {}).get("ledger") or {}
    if "entries" in ledger and "head_hash" in ledger:
        return int(ledger["entries"]) - 1, str(ledger["head_hash"])
    return None


@ledger_app.command("verify")
def ledger_verify(
    thread_id: str = typer.Argument(..., help="Thread id."),
    head: str | None = typer.Option(
        None, "--head", help="Expected head hash (default: the one the thread's verdict recorded)."
    ),
) -> None:
    """Verify a thread: its hash chain, its recorded head, and the head its verdict anchored.

    Exit 0 when intact, 1 when tampered, truncated, rewritten or missing.
    """
    from disputatio.storage.db import connect
    from disputatio.storage.ledger import count_entries, verify

    anchor = _verdict_anchor(thread_id)
    if head is not None:
        anchor = (anchor[0] if anchor else -1, head)
    with connect(get_settings()) as conn:
        if anchor is not None and anchor[0] < 0:
            anchor = (count_entries(conn, thread_id) - 1, anchor[1])
        result = verify(conn, thread_id, anchor=anchor)
    where = "chain, head table and verdict anchor" if anchor else "chain and head table"
    if result.ok:
        typer.echo(f"ok: ledger {thread_id}: {result.reason} ({where})")
        return
    typer.echo(f"FAILED: ledger {thread_id}: {result.reason}")
    raise typer.Exit(1)


@ledger_app.command("show")
def ledger_show(
    thread_id: str = typer.Argument(..., help="Thread id."),
    as_json: bool = AS_JSON,
    full: bool = typer.Option(False, "--full", help="Print whole payloads (default: a summary)."),
) -> None:
    """Print the entries of a thread: index, time, kind, hash and payload."""
    from disputatio.storage.db import connect
    from disputatio.storage.ledger import read_entries

    with connect(get_settings()) as conn:
        entries = read_entries(conn, thread_id)
    if not entries:
        raise ConfigError(f"no ledger entries for thread {thread_id!r}")
    if as_json:
        rows = [
            {"idx": e.idx, "seq": e.seq, "created_at": e.created_at, "kind": e.kind,
             "hash": e.hash, "prev_hash": e.prev_hash, "payload": e.payload}
            for e in entries
        ]  # fmt: skip
        typer.echo(json.dumps(rows, indent=2, ensure_ascii=False))
        return
    table = Table(title=f"ledger {thread_id} ({len(entries)} entries)")
    for col in ("#", "time (UTC)", "kind", "hash", "payload"):
        table.add_column(col, overflow="fold")
    for e in entries:
        payload = json.dumps(e.payload, ensure_ascii=False, sort_keys=True)
        if not full and len(payload) > 120:
            payload = payload[:119] + "…"
        when = (e.created_at or "")[:19].replace("T", " ")
        table.add_row(str(e.idx), when, e.kind, e.hash[:12], payload)
    out.print(table)
