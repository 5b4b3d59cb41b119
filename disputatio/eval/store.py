"""Benchmark rows in Postgres: question logs flattened into the evaluation's tables.

``experiments``, ``experiment_runs``, ``agent_messages`` and ``tool_calls``; messages and tool
calls point at their ``experiment_runs`` row (``run_id``) and name their sub-question. One
transaction per question, so a run killed halfway keeps the questions it finished. The SQL is
in :mod:`disputatio.storage.experiments`; this module turns a protocol's log into its rows.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator, Mapping
from typing import Any

import psycopg

from disputatio.storage import experiments
from disputatio.storage.experiments import AgentMessageRow, ToolCallRow, create_experiment
from disputatio.tools.retrieval import TOOL_NAME

__all__ = ["create_experiment", "messages_of", "save_eval_record", "save_run", "tool_calls_of"]

logger = logging.getLogger(__name__)


def _content(entry: Mapping[str, Any]) -> str:
    text = entry.get("response") or entry.get("content") or entry.get("text")
    if text is None and entry.get("answer") is not None:
        text = json.dumps(entry["answer"], default=str)
    return str(text or "")


def messages_of(
    log: Mapping[str, Any], usage: Mapping[str, Mapping[str, Any]] | None = None
) -> Iterator[dict[str, Any]]:
    """Flatten a question log into ``agent_messages`` rows.

    MedRAG-style logs give turns (``history``), summaries and the verifier; hierarchical logs
    give their ``transcript`` moves, whose ``node`` is the sub-question id (their tokens are
    per agent in ``usage``, so they are put on each agent's first message).
    """
    for entry in log.get("history", []):
        yield {
            "agent": entry["agent"],
            "role": entry.get("role", "debater"),
            "round": entry.get("round"),
            "content": _content(entry),
            "usage": entry.get("usage") or {},
            "sub_question": None,
            "metadata": {k: entry.get(k) for k in ("choice", "status", "pattern")},
        }
    for entry in log.get("summaries", []):
        yield {
            "agent": f"{entry['agent']}_summarizer",
            "role": "summarizer",
            "round": entry.get("round"),
            "content": _content(entry),
            "usage": entry.get("usage") or {},
            "sub_question": None,
            "metadata": {"llm": entry.get("llm", False)},
        }
    verdict = log.get("verifier")
    if verdict:
        yield {
            "agent": "verifier",
            "role": "verifier",
            "round": None,
            "content": _content(verdict),
            "usage": next(iter((verdict.get("usage") or {}).values()), {}),
            "sub_question": None,
            "metadata": {k: verdict.get(k) for k in ("choice", "status", "pattern")},
        }
    charged: set[str] = set()
    for move in log.get("transcript", []):
        agent = str(move.get("agent", "?"))
        first = agent not in charged
        charged.add(agent)
        yield {
            "agent": agent,
            "role": str(move.get("role", "worker")),
            "round": move.get("round"),
            "content": _content(move),
            "usage": dict((usage or {}).get(agent) or {}) if first else {},
            "sub_question": move.get("node"),
            "metadata": {k: move.get(k) for k in ("kind", "citations", "unverified")},
        }


def tool_calls_of(log: Mapping[str, Any]) -> Iterator[dict[str, Any]]:
    """Retrieval calls of a question log.

    MedRAG ``retrieval`` entries, and hierarchical moves' ``queries`` (with their sub-question).
    """
    for r in log.get("retrieval", []):
        if r.get("skipped"):
            continue
        yield {
            "agent": r.get("agent", "?"),
            "arguments": {"query": r.get("query", ""), "k": r.get("k"), "round": r.get("round")},
            "result": {k: r.get(k) for k in ("ids", "scores", "refused", "best_score")},
            "latency_ms": float(r.get("ms", 0.0)),
            "sub_question": None,
        }
    for move in log.get("transcript", []):
        for query in move.get("queries") or []:
            yield {
                "agent": move.get("agent", "?"),
                "arguments": {"query": query, "round": move.get("round")},
                "result": None,
                "latency_ms": None,
                "sub_question": move.get("node"),
            }


def save_run(
    conn: psycopg.Connection[Any],
    *,
    experiment_id: str,
    thread_id: str,
    question: Mapping[str, Any],
    record: Mapping[str, Any],
    metrics: Mapping[str, Any],
) -> str:
    """Write one question's run, its agent messages and its retrieval calls; return its id.

    Args:
        conn: An open connection: committed here, or a savepoint of the transaction in progress.
        experiment_id: Id from :func:`create_experiment`.
        thread_id: The run's thread id (checkpoints live under it).
        question: ``{"id", "question", "gold"}``.
        record: The protocol's record (``answer``, ``consensus_type``, ``log``...).
        metrics: Per-question metrics (``correct``, ``wall_ms``, tokens...).
    """
    log = record.get("log") or {}
    messages = [
        AgentMessageRow(
            sub_question=m["sub_question"],
            agent=m["agent"],
            role=m["role"],
            round=m["round"],
            content=m["content"],
            tokens_in=int(m["usage"].get("input_tokens", 0)),
            tokens_out=int(m["usage"].get("output_tokens", 0)),
            latency_ms=float(m["usage"].get("latency_ms", 0.0)),
            metadata=m["metadata"],
        )
        for m in messages_of(log, record.get("usage"))
    ]
    calls = [
        ToolCallRow(
            sub_question=t["sub_question"],
            agent=t["agent"],
            tool=TOOL_NAME,
            arguments=t["arguments"],
            result=t["result"],
            latency_ms=t["latency_ms"],
        )
        for t in tool_calls_of(log)
    ]
    run = experiments.RunRow(
        experiment_id=experiment_id,
        thread_id=thread_id,
        question_id=question["id"],
        question=question["question"],
        answer=record.get("answer"),
        gold=question["gold"],
        correct=bool(metrics.get("correct")),
        consensus_type=record.get("consensus_type"),
        metrics=dict(metrics),
        log={**log, "error": record.get("error")},
    )
    with conn.transaction():
        run_id = experiments.insert_run(conn, run, messages, calls)
    logger.debug("saved run %s of experiment %s", thread_id, experiment_id)
    return run_id


def save_eval_record(conn: psycopg.Connection[Any], config: Any, record: Mapping[str, Any]) -> bool:
    """Mirror one ``eval run`` record into the experiment tables, once.

    Args:
        conn: An open connection with no transaction in progress (committed here).
        config: The run's :class:`~disputatio.eval.config.EvalConfig`.
        record: A finished record of ``results.jsonl``.

    Returns:
        Whether a row was written (False: an error-free row was there already).
    """
    with conn.transaction():
        experiment_id = experiments.ensure_experiment(
            conn,
            config.run_id,
            record["dataset"],
            record["protocol"],
            {"run_id": config.run_id, "identity": config.identity()},
        )
        exists = experiments.has_clean_run(conn, experiment_id, record["question_id"])
        if exists and not record.get("error"):
            return False
        from disputatio.eval.analysis import question_metrics

        save_run(
            conn,
            experiment_id=experiment_id,
            thread_id=str(record.get("thread_id") or ""),
            question={
                "id": record["question_id"],
                "question": record.get("question") or "",
                "gold": record.get("gold"),
            },
            record=record,
            metrics=question_metrics(record),
        )
    return True
