"""Kill-and-resume of the hierarchical debate on the Postgres checkpointer (and ``ask``)."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import uuid
from collections import Counter
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from disputatio.graphs.debate import build_graph
from disputatio.settings import Settings
from disputatio.storage.checkpoint import open_checkpointer

pytestmark = pytest.mark.integration

CHILD = Path(__file__).with_name("debate_resume_child.py")


def _child_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("debate_resume_child", CHILD)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_crashed_debate_resumes_without_repeating_finished_turns(
    settings: Settings, db_url: str, tmp_path: Path
) -> None:
    child = _child_module()
    thread, log = f"debate-resume-{uuid.uuid4()}", tmp_path / "calls.jsonl"
    env = {**os.environ, "DATABASE_URL": db_url}
    proc = subprocess.run(
        [sys.executable, str(CHILD), db_url, thread, str(log)],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 1, proc.stderr[-2000:]
    first = child.read_log(log)
    assert first[-1]["agent"] == "worker-root-1" and first[-1].get("crash")

    with open_checkpointer(settings) as saver:
        graph = build_graph().compile(checkpointer=saver)
        assert graph.get_state(child.config(thread)).next == ("worker_turn",)
        ctx = child.build_context(log, settings, crash=False)
        out = graph.invoke(None, child.config(thread), context=ctx)

    calls = child.read_log(log)
    resumed = Counter(c["agent"] for c in calls[len(first) :])
    # the second process redid only the crashed turn and what came after it
    assert resumed == {
        "worker-root-0": 1,  # round 2 only: its round-1 turn had finished before the crash
        "worker-root-1": 2,  # the crashed round-1 turn, then round 2
        "reviewer-root": 1,
        "summarizer-root": 1,
    }
    total = Counter(c["agent"] for c in calls if not c.get("crash"))
    assert total == child.EXPECTED_CALLS
    turns = [(m["agent"], m["round"]) for m in out["transcript"] if m["kind"] == "answer"]
    assert sorted(turns) == sorted(set(turns)) and len(turns) == 6  # no turn recorded twice
    assert out["answer"] == "Aspirin inhibits COX-1 [s-aspirin]."
    assert out["usage"]["worker-root-0"]["calls"] == 3


def test_ask_runs_on_postgres_and_resumes_a_finished_thread(
    settings: Settings,
    db_url: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from disputatio.cli import ask

    child = _child_module()
    log = tmp_path / "calls.jsonl"
    monkeypatch.setattr(ask, "get_settings", lambda: settings)
    monkeypatch.setattr(
        ask, "make_context", lambda builder, **_: child.build_context(log, settings, crash=False)
    )
    thread = f"ask-{uuid.uuid4().hex[:8]}"
    common: dict[str, Any] = {
        "protocol": "hierarchical",
        "options": [],
        "model": None,
        "show_context": False,
        "tenant": None,
        "collection": None,
        "as_json": False,
    }
    ask.ask(child.QUESTION, show_transcript=True, resume=False, thread_id=thread, **common)
    first = capsys.readouterr().out
    assert "Aspirin inhibits COX-1 [s-aspirin]." in first and "pharma.md" in first
    assert "reviewer-root" in first and f"thread: {thread}" in first
    n_calls = len(child.read_log(log))
    ask.ask("", show_transcript=False, resume=True, thread_id=thread, **common)
    again = capsys.readouterr().out
    assert "already finished" in again and "Aspirin inhibits COX-1" in again
    assert len(child.read_log(log)) == n_calls  # nothing ran again
