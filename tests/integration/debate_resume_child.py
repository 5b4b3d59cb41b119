"""Helper of ``test_debate_resume.py``: scripted debate agents that log every call.

Run as a script (``python debate_resume_child.py DB_URL THREAD_ID LOG``) it starts the debate
on the Postgres checkpointer and dies with ``os._exit(1)`` in the middle of debate round 1,
once the other worker's round-1 turn is done (so that turn's writes are already saved).
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from langchain_core.messages import BaseMessage
from langchain_core.runnables import RunnableConfig

from disputatio.graphs.debate import DebateContext, build_graph
from disputatio.settings import load_settings
from disputatio.state.retrieval import Section
from disputatio.storage.checkpoint import open_checkpointer
from disputatio.testing import FakeRetriever, ScriptedChatModel

QUESTION = "How does aspirin work?"
REPLIES = {
    "worker-root-0": "Aspirin irreversibly inhibits COX-1 [s-aspirin].",
    "worker-root-1": "Nothing here explains the mechanism; only bleeding risk is described.",
    "reviewer-root": "Worker 0 is supported by [s-aspirin]; worker 1 is not.",
    "summarizer-root": "Aspirin inhibits COX-1 [s-aspirin].",
}
#: Calls each agent makes in an uninterrupted run: 2 workers × (round 0 + 2 rounds), 1 + 1.
EXPECTED_CALLS = {"worker-root-0": 3, "worker-root-1": 3, "reviewer-root": 1, "summarizer-root": 1}
CRASH_AGENT, CRASH_CALL, WAIT_FOR = "worker-root-1", 2, "worker-root-0"
#: The one section the retriever returns, whatever the query.
ASPIRIN = Section(id="s-aspirin", source="pharma.md", text="Aspirin inhibits COX-1.", score=0.9)


def read_log(log: Path) -> list[dict[str, Any]]:
    """The calls logged so far."""
    if not log.exists():
        return []
    return [json.loads(line) for line in log.read_text().splitlines() if line.strip()]


def _reply(agent: str, log: Path, crash: bool) -> Callable[[list[BaseMessage]], str]:
    def reply(messages: list[BaseMessage]) -> str:
        n = sum(1 for c in read_log(log) if c["agent"] == agent) + 1
        if crash and agent == CRASH_AGENT and n == CRASH_CALL:
            deadline = time.monotonic() + 30
            while sum(1 for c in read_log(log) if c["agent"] == WAIT_FOR) < CRASH_CALL:
                if time.monotonic() > deadline:
                    break
                time.sleep(0.05)
            time.sleep(1.5)  # let the checkpointer save the other worker's finished turn
            with log.open("a") as handle:
                handle.write(json.dumps({"agent": agent, "pid": os.getpid(), "crash": True}) + "\n")
            os._exit(1)
        with log.open("a") as handle:
            handle.write(json.dumps({"agent": agent, "pid": os.getpid()}) + "\n")
        return REPLIES[agent]

    return reply


def build_context(log: Path, settings: Any, *, crash: bool) -> DebateContext:
    """Context with one logging scripted model per agent (crashing ones when ``crash``)."""
    models = {
        agent: ScriptedChatModel(script=[_reply(agent, log, crash)], repeat_last=True, name=agent)
        for agent in REPLIES
    }
    return DebateContext(
        models=models,
        retriever=FakeRetriever([ASPIRIN], match_all=True),
        settings=settings,
        flat=True,
        workers=2,
        rounds=2,
        max_tool_calls=0,
        cite_repair=False,
    )


def config(thread_id: str) -> RunnableConfig:
    """Run config of the thread."""
    return {"configurable": {"thread_id": thread_id}}


def main(db_url: str, thread_id: str, log: str) -> None:
    """Start the run; it never returns normally (the crash ends the process)."""
    settings = load_settings(database_url=db_url)
    with open_checkpointer(settings) as saver:
        graph = build_graph().compile(checkpointer=saver)
        graph.invoke(
            {"question": QUESTION},
            config(thread_id),
            context=build_context(Path(log), settings, crash=True),
        )


if __name__ == "__main__":
    main(*sys.argv[1:4])
