"""The Postgres ledger: chained appends, idempotency, concurrency, tampering, CLI exit codes."""

from __future__ import annotations

import json
import threading
import uuid
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import Any

import psycopg
import pytest
import typer
from langchain_core.messages import BaseMessage
from typer.testing import CliRunner

from disputatio.cli.rdc import ledger_app
from disputatio.settings import Settings
from disputatio.state.retrieval import Section
from disputatio.storage.ledger import (
    GENESIS_HASH,
    InMemoryLedger,
    PostgresLedger,
    append,
    entry_hash,
    head_of,
    read_entries,
    verify,
    verify_entries,
)
from disputatio.testing import FakeRetriever, ScriptedChatModel

pytestmark = pytest.mark.integration


@pytest.fixture
def conn(db_url: str) -> Iterator[psycopg.Connection[Any]]:
    with psycopg.connect(db_url, autocommit=True) as connection:
        yield connection


def _thread() -> str:
    return f"ledger-{uuid.uuid4().hex[:10]}"


def test_append_chains_and_verifies(conn: psycopg.Connection[Any]) -> None:
    thread = _thread()
    first = append(conn, thread, "move", {"speaker": "infectious", "llr": 1.0986122886681098})
    second = append(conn, thread, "verdict", {"top": "brucellosis"})
    assert (first.idx, first.prev_hash) == (0, GENESIS_HASH)
    assert (second.idx, second.prev_hash) == (1, first.hash)
    assert first.seq is not None and second.seq is not None and second.seq > first.seq
    assert second.hash == entry_hash(
        first.hash,
        thread,
        1,
        "verdict",
        {"top": "brucellosis"},
        seq=second.seq,
        created_at=second.created_at,
    )
    assert read_entries(conn, thread) == [first, second]  # seq and time read back as hashed
    assert head_of(conn, thread) == (1, second.hash)
    result = verify(conn, thread)
    assert result.ok and result.entries == 2 and result.first_bad_idx is None


def test_numbers_survive_jsonb_and_match_the_in_memory_hash(conn: psycopg.Connection[Any]) -> None:
    payload = {"sum": 0.1 + 0.2, "tiny": 1e-7, "neg0": -0.0, "nan": float("nan"),
               "text": "Still's — é", "nested": {"b": [1, 2.5], "a": None}}  # fmt: skip
    thread = _thread()
    stored = append(conn, thread, "x", payload)
    memory = InMemoryLedger().append(thread, "x", payload)
    assert stored.payload["sum"] == 0.1 + 0.2 and stored.payload["nan"] is None
    # both back ends hash the same canonical JSON: the in-memory payload, hashed with the
    # stored entry's seq and time, gives the stored hash
    assert stored.payload == memory.payload
    assert stored.hash == entry_hash(
        GENESIS_HASH, thread, 0, "x", memory.payload, seq=stored.seq, created_at=stored.created_at
    )
    # jsonb rewrites some numbers' text (1e300 comes back as an integer): the entry is hashed
    # as jsonb returns it, so it still verifies
    big = append(conn, thread, "x", {"big": 1e300})
    assert big.payload["big"] == 10**300
    assert verify(conn, thread).ok


def test_keys_make_appends_idempotent(conn: psycopg.Connection[Any]) -> None:
    thread = _thread()
    one = append(conn, thread, "move", {"n": 1}, key="run:t1:move")
    again = append(conn, thread, "move", {"n": 2}, key="run:t1:move")
    assert again == one
    assert len(read_entries(conn, thread)) == 1


def test_concurrent_appends_are_serialised_per_thread(settings: Settings, db_url: str) -> None:
    ledger = PostgresLedger(settings)
    thread = _thread()
    errors: list[BaseException] = []

    def work(worker: int) -> None:
        try:
            for n in range(10):
                ledger.append(thread, "x", {"worker": worker, "n": n})
        except BaseException as exc:  # reported below
            errors.append(exc)

    workers = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert not errors
    result = ledger.verify(thread)
    assert result.ok and result.entries == 40
    assert [e.idx for e in ledger.entries(thread)] == list(range(40))


def test_update_and_delete_are_refused(conn: psycopg.Connection[Any]) -> None:
    thread = _thread()
    append(conn, thread, "x", {"n": 1})
    with pytest.raises(psycopg.errors.RaiseException, match="append-only"):
        conn.execute("UPDATE ledger SET kind = 'y' WHERE thread_id = %s", (thread,))
    with pytest.raises(psycopg.errors.RaiseException, match="append-only"):
        conn.execute("DELETE FROM ledger WHERE thread_id = %s", (thread,))


def _tamper(
    conn: psycopg.Connection[Any],
    sql: str,
    params: tuple[Any, ...],
    table: str = "ledger",
    trigger: str = "ledger_no_update",
) -> None:
    """Bypass an append-only trigger the way a superuser could."""
    conn.execute(f"ALTER TABLE {table} DISABLE TRIGGER {trigger}")
    try:
        conn.execute(sql, params)
    finally:
        conn.execute(f"ALTER TABLE {table} ENABLE TRIGGER {trigger}")


def test_truncation_is_detected_by_the_head_table(conn: psycopg.Connection[Any]) -> None:
    thread = _thread()
    for n in range(4):
        append(conn, thread, "move", {"n": n})
    _tamper(conn, "DELETE FROM ledger WHERE thread_id = %s AND idx = 3", (thread,))
    assert verify_entries(thread, read_entries(conn, thread)).ok  # the rest is a sound chain
    result = verify(conn, thread)
    assert not result.ok and "truncated" in result.reason and result.first_bad_idx == 3
    # the head cannot be moved back to hide it, nor deleted
    with pytest.raises(psycopg.errors.RaiseException, match="forward"):
        conn.execute("UPDATE ledger_heads SET idx = 2 WHERE thread_id = %s", (thread,))
    with pytest.raises(psycopg.errors.RaiseException, match="forward"):
        conn.execute("DELETE FROM ledger_heads WHERE thread_id = %s", (thread,))


def _rehash_from(conn: psycopg.Connection[Any], thread: str, start: int) -> None:
    """Re-hash the chain from ``start`` on so that it is internally consistent again."""
    entries = read_entries(conn, thread)
    prev = entries[start - 1].hash if start else GENESIS_HASH
    for e in entries[start:]:
        digest = entry_hash(
            prev, thread, e.idx, e.kind, e.payload, seq=e.seq, created_at=e.created_at
        )
        _tamper(
            conn,
            "UPDATE ledger SET prev_hash = %s, hash = %s WHERE thread_id = %s AND idx = %s",
            (prev, digest, thread, e.idx),
        )
        prev = digest


def test_a_rehashed_rewrite_is_caught_by_the_head_and_by_the_verdict_anchor(
    conn: psycopg.Connection[Any],
) -> None:
    thread = _thread()
    for n in range(3):
        last = append(conn, thread, "move", {"n": n})
    anchor = (last.idx, last.hash)  # what the RDC verdict records
    _tamper(
        conn,
        "UPDATE ledger SET payload = jsonb_set(payload, '{n}', '99')"
        " WHERE thread_id = %s AND idx = 1",
        (thread,),
    )
    _rehash_from(conn, thread, 1)
    assert verify_entries(thread, read_entries(conn, thread)).ok  # the chain alone is fooled
    result = verify(conn, thread)
    assert not result.ok and "rewritten" in result.reason
    # forge the head table too: only the anchor kept outside the ledger still tells
    forged = read_entries(conn, thread)[-1]
    _tamper(
        conn,
        "UPDATE ledger_heads SET hash = %s WHERE thread_id = %s",
        (forged.hash, thread),
        table="ledger_heads",
        trigger="ledger_heads_forward",
    )
    assert verify(conn, thread).ok
    result = verify(conn, thread, anchor=anchor)
    assert not result.ok and "anchor" in result.reason


def test_legacy_rows_verify_and_the_migration_is_idempotent(conn: psycopg.Connection[Any]) -> None:
    thread = _thread()
    digest = entry_hash(GENESIS_HASH, thread, 0, "move", {"n": 0})  # hash version 1
    conn.execute(
        "INSERT INTO ledger (thread_id, idx, kind, payload, prev_hash, hash, hash_version)"
        " VALUES (%s, 0, 'move', '{\"n\": 0}', %s, %s, 1)",
        (thread, GENESIS_HASH, digest),
    )
    sql = resources.files("disputatio.storage") / "migrations" / "0005_ledger_heads.sql"
    with conn.transaction():
        conn.execute(sql.read_text(encoding="utf-8"))  # re-running it changes nothing it must not
    assert head_of(conn, thread) == (0, digest)  # backfilled from the existing row
    after = append(conn, thread, "move", {"n": 1})
    assert after.version == 2 and after.prev_hash == digest
    assert verify(conn, thread).ok


@pytest.mark.parametrize(
    ("sql", "bad", "needle"),
    [
        (
            "UPDATE ledger SET payload = jsonb_set(payload, '{n}', '99')"
            " WHERE thread_id = %s AND idx = 1",
            1,
            "modified",
        ),
        ("DELETE FROM ledger WHERE thread_id = %s AND idx = 1", 1, "missing"),
        (
            "UPDATE ledger SET hash = repeat('0', 64) WHERE thread_id = %s AND idx = 1",
            1,
            "modified",
        ),
    ],
    ids=["payload", "deleted", "hash"],
)
def test_tampering_is_detected(
    conn: psycopg.Connection[Any], sql: str, bad: int, needle: str
) -> None:
    thread = _thread()
    for n in range(3):
        append(conn, thread, "move", {"n": n})
    _tamper(conn, sql, (thread,))
    result = verify(conn, thread)
    assert not result.ok and result.first_bad_idx == bad and needle in result.reason


def _cli() -> typer.Typer:
    root = typer.Typer()
    root.add_typer(ledger_app, name="ledger")

    @root.callback()
    def _main() -> None:
        """Test root."""

    return root


def test_cli_ledger_verify_exit_codes(conn: psycopg.Connection[Any], settings: Settings) -> None:
    thread = _thread()
    for n in range(3):
        append(conn, thread, "move", {"n": n})
    runner = CliRunner()
    ok = runner.invoke(_cli(), ["ledger", "verify", thread])
    assert ok.exit_code == 0, ok.output
    assert ok.output.startswith("ok:") and len(ok.output.strip().splitlines()) == 1
    _tamper(
        conn,
        "UPDATE ledger SET kind = 'forged' WHERE thread_id = %s AND idx = 2",
        (thread,),
    )
    bad = runner.invoke(_cli(), ["ledger", "verify", thread])
    assert bad.exit_code == 1
    assert bad.output.startswith("FAILED:") and "entry 2" in bad.output
    missing = runner.invoke(_cli(), ["ledger", "verify", _thread()])
    assert missing.exit_code == 1 and "no ledger entries" in missing.output
    other = _thread()
    append(conn, other, "move", {"n": 0})
    wrong = runner.invoke(_cli(), ["ledger", "verify", other, "--head", "0" * 64])
    assert wrong.exit_code == 1 and "anchor" in wrong.output


def test_cli_ledger_show(conn: psycopg.Connection[Any], settings: Settings) -> None:
    thread = _thread()
    entries = [append(conn, thread, kind, {"n": n}) for n, kind in enumerate(["seed", "move"])]
    runner = CliRunner()
    shown = runner.invoke(_cli(), ["ledger", "show", thread, "--json"])
    assert shown.exit_code == 0, shown.output
    rows = json.loads(shown.output)
    assert [(r["idx"], r["kind"], r["hash"]) for r in rows] == [
        (e.idx, e.kind, e.hash) for e in entries
    ]
    table = runner.invoke(_cli(), ["ledger", "show", thread])
    assert table.exit_code == 0 and "seed" in table.output and entries[1].hash[:12] in table.output
    missing = runner.invoke(_cli(), ["ledger", "show", _thread()])
    assert missing.exit_code != 0 and "no ledger entries" in str(missing.exception)


#: The one section the retriever returns, whatever the query.
BRUCELLA = Section(id="sec-brucella", source="notes.md", text="Raw dairy → brucellosis.", score=0.9)


def _scripted_reply(messages: list[BaseMessage]) -> dict[str, Any]:
    if "rank the hypotheses" in str(messages[0].content):
        return {"ranking": ["brucellosis", "q_fever", "adult_onset_still"], "rationale": "r"}
    claim = {"id": "c", "text": "dairy", "provenance": ["sec-brucella"], "quality": 0.9,
             "bearings": [{"hypothesis": "brucellosis", "llr": 0.3}]}  # fmt: skip
    return {"summary": "dairy exposure", "claims": [claim], "relations": []}


def test_cli_rdc_runs_with_postgres_and_its_ledger_verifies(
    settings: Settings, db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import disputatio.graphs.rdc as rdc_graph
    from disputatio.cli import rdc as cli

    real = rdc_graph.RdcContext

    def scripted(**kwargs: Any) -> Any:
        model = ScriptedChatModel(script=[_scripted_reply], repeat_last=True)
        return real(
            **kwargs,
            models={"specialist": model},
            retriever=FakeRetriever([BRUCELLA], match_all=True),
        )

    monkeypatch.setattr(rdc_graph, "RdcContext", scripted)
    case_file = resources.files("disputatio") / "data" / "cases" / "rare_disease.json"
    thread = _thread()
    root = _cli()
    root.command("rdc")(cli.rdc)
    args = ["rdc", str(case_file), "--thread-id", thread, "--out", str(tmp_path), "--max-rounds",
            "1", "--specialists", "infectious,epidemiology", "--no-appeal"]  # fmt: skip
    result = CliRunner().invoke(root, args)
    assert result.exit_code == 0, result.output
    assert "Differential" in result.output and "Test plan" in result.output
    assert {p.name for p in tmp_path.iterdir()} == {
        "debate.jsonld",
        "debate.graphml",
        "verdict.json",
    }
    verdict = json.loads((tmp_path / "verdict.json").read_text())
    assert verdict["top"] == "brucellosis" and verdict["turns"] == 6
    ok = CliRunner().invoke(root, ["ledger", "verify", thread])
    assert ok.exit_code == 0 and f"{verdict['ledger']['entries']} entries" in ok.output
    assert "verdict anchor" in ok.output  # the verdict's head, read from the checkpoint
    # the same thread cannot hold a second debate
    again = CliRunner().invoke(root, args)
    assert again.exit_code != 0 and "already holds a debate" in str(again.exception)
