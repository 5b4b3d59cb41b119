"""The evaluation's tables: experiments, their runs, agent messages and tool calls.

``experiments``, ``experiment_runs``, ``agent_messages``, ``tool_calls`` (migrations ``0001``
and ``0007``). An experiment is one (eval run, data set, protocol), or one ``benchmark``
invocation; an ``experiment_runs`` row is one question of it, and its agent messages and tool
calls point at that row (``run_id``) and name their sub-question. The functions write on the
caller's connection and leave transactions to the caller, except :func:`create_experiment`,
which commits.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, TypedDict

import psycopg
from psycopg.rows import tuple_row
from psycopg.types.json import Jsonb

Conn = psycopg.Connection[Any]


class AgentMessageRow(TypedDict):
    """One ``agent_messages`` row of a question's run."""

    sub_question: str | None
    agent: str
    role: str
    round: int | None
    content: str
    tokens_in: int
    tokens_out: int
    latency_ms: float
    metadata: dict[str, Any]


class ToolCallRow(TypedDict):
    """One ``tool_calls`` row of a question's run."""

    sub_question: str | None
    agent: str
    tool: str
    arguments: dict[str, Any]
    result: dict[str, Any] | None
    latency_ms: float | None


class RunRow(TypedDict):
    """One ``experiment_runs`` row: a question answered by an experiment."""

    experiment_id: str
    thread_id: str
    question_id: str
    question: str
    answer: Any
    gold: Any
    correct: bool
    consensus_type: str | None
    metrics: dict[str, Any]
    log: dict[str, Any]


def _one_id(conn: Conn, sql: str, params: tuple[Any, ...]) -> str | None:
    with conn.cursor(row_factory=tuple_row) as cur:
        row = cur.execute(sql, params).fetchone()
    return None if row is None else str(row[0])


def _inserted_id(conn: Conn, sql: str, params: tuple[Any, ...]) -> str:
    new_id = _one_id(conn, sql, params)
    if new_id is None:  # INSERT … RETURNING returns its row
        raise RuntimeError("the database returned no id for an inserted row")
    return new_id


def create_experiment(conn: Conn, name: str, protocol: str, config: Mapping[str, Any]) -> str:
    """Insert (and commit) an ``experiments`` row and return its id."""
    experiment_id = _inserted_id(
        conn,
        "INSERT INTO experiments (name, protocol, config) VALUES (%s, %s, %s) RETURNING id",
        (name, protocol, Jsonb(dict(config))),
    )
    conn.commit()
    return experiment_id


def ensure_experiment(conn: Conn, run_key: str, dataset: str, protocol: str, config: Any) -> str:
    """The ``experiments`` row of (eval run, data set, protocol), created once.

    Runs inside the caller's transaction, serialised by an advisory lock.
    """
    name = f"{run_key}/{dataset}/{protocol}"
    conn.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (name,))
    found = _one_id(
        conn,
        "SELECT id FROM experiments WHERE run_key = %s AND dataset = %s AND protocol = %s",
        (run_key, dataset, protocol),
    )
    if found is not None:
        return found
    return _inserted_id(
        conn,
        "INSERT INTO experiments (name, protocol, config, run_key, dataset)"
        " VALUES (%s, %s, %s, %s, %s) RETURNING id",
        (name, protocol, Jsonb(config), run_key, dataset),
    )


def has_clean_run(conn: Conn, experiment_id: str, question_id: str) -> bool:
    """Whether the experiment has a run of the question whose log records no error."""
    found = _one_id(
        conn,
        "SELECT 1 FROM experiment_runs WHERE experiment_id = %s AND question_id = %s"
        " AND NOT (log ? 'error' AND log->>'error' IS NOT NULL)",
        (experiment_id, question_id),
    )
    return found is not None


def insert_run(
    conn: Conn,
    run: RunRow,
    messages: Iterable[AgentMessageRow],
    tool_calls: Iterable[ToolCallRow],
) -> str:
    """Insert a finished question's run, its agent messages and its tool calls; return its id."""
    run_id = _inserted_id(
        conn,
        "INSERT INTO experiment_runs (experiment_id, thread_id, question_id, question, answer,"
        " gold, correct, consensus_type, metrics, log, finished_at)"
        " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, now()) RETURNING id",
        (
            run["experiment_id"],
            run["thread_id"],
            run["question_id"],
            run["question"],
            run["answer"],
            run["gold"],
            run["correct"],
            run["consensus_type"],
            Jsonb(run["metrics"]),
            Jsonb(run["log"]),
        ),
    )
    thread_id = run["thread_id"]
    with conn.cursor() as cur:
        cur.executemany(
            "INSERT INTO agent_messages (thread_id, run_id, sub_question, agent, role, round,"
            " content, tokens_in, tokens_out, latency_ms, metadata)"
            " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
            [
                (
                    thread_id,
                    run_id,
                    m["sub_question"],
                    m["agent"],
                    m["role"],
                    m["round"],
                    m["content"],
                    m["tokens_in"],
                    m["tokens_out"],
                    m["latency_ms"],
                    Jsonb(m["metadata"]),
                )
                for m in messages
            ],
        )
        cur.executemany(
            "INSERT INTO tool_calls (thread_id, run_id, sub_question, agent, tool, arguments,"
            " result, latency_ms) VALUES (%s, %s, %s, %s, %s, %s, %s, %s)",
            [
                (
                    thread_id,
                    run_id,
                    t["sub_question"],
                    t["agent"],
                    t["tool"],
                    Jsonb(t["arguments"]),
                    Jsonb(t["result"]) if t["result"] is not None else None,
                    t["latency_ms"],
                )
                for t in tool_calls
            ],
        )
    return run_id
