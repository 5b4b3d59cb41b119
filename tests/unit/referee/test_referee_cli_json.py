"""``disputatio referee --json``: the verdict route's object on stdout, claims included.

The referee runs in-process on an in-memory checkpointer with scripted agents; its graph
judges every advocate claim (``claims``, each with its ``option / axis`` part). A state
without claims (a run checkpointed before they existed) prints ``claims: []``.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver
from typer.testing import CliRunner

from disputatio.cli import referee as cli
from disputatio.cli.app import app

from .referee_fakes import context, happy_models

CLAIMS = [
    {
        "text": "FAISS searches billions of vectors in memory.",
        "citations": ["fa-1"],
        "verdict": "supported",
        "factual": True,
        "evidence": {
            "section_id": "fa-1",
            "start": 0,
            "end": 81,
            "sentence": "FAISS is an in-memory library for fast similarity search on billions "
            "of vectors.",
            "score": 0.9,
        },
        "dropped": False,
    },
    {
        "text": "FAISS replicates its index across regions.",
        "citations": ["fa-2"],
        "verdict": "unsupported",
        "factual": True,
        "evidence": None,
        "dropped": True,
        "reason": "replicates, regions is not in the section",
    },
]


@pytest.fixture
def in_memory(monkeypatch: pytest.MonkeyPatch, memory_saver: InMemorySaver) -> dict[str, Any]:
    """The referee command on one in-memory saver and scripted agents; records its state."""
    seen: dict[str, Any] = {}
    real = cli.run_referee_state

    def run_referee_state(*args: Any, **kwargs: Any) -> dict[str, Any]:
        seen["values"] = real(*args, **kwargs)
        return seen["values"]

    monkeypatch.setattr(cli, "make_context", lambda *a, **k: context(happy_models()))
    monkeypatch.setattr(cli, "run_referee_state", run_referee_state)
    return seen


def test_referee_json_prints_the_verdict_object_alone(in_memory: dict[str, Any]) -> None:
    args = ["referee", "pgvector or FAISS?", "--answers", "{}", "--thread-id", "ref-json"]
    result = CliRunner().invoke(app, [*args, "--json"])
    values = in_memory["values"]
    assert result.exit_code == (0 if values["status"] == "ok" else 1), result.output
    body = json.loads(result.stdout)  # progress ("thread: …", agents' turns) went to stderr
    assert (body["case_id"], body["protocol"]) == ("ref-json", "referee")
    assert body["status"] == values["status"] and body["plan"] == values["plan"]
    assert body["ruling"] == values.get("ruling")
    assert body["claims"] and body["claims"] == values["claims"]
    assert all(c["verdict"] in ("supported", "unsupported", "uncited") for c in body["claims"])
    assert {c["part"] for c in body["claims"]} >= {"pgvector / latency", "FAISS / latency"}
    assert "thread: ref-json" in result.stderr


def test_referee_json_and_text_carry_the_claims_of_the_state(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = {"query": "pgvector or FAISS?", "status": "ok", "claims": CLAIMS}
    monkeypatch.setattr(cli, "make_context", lambda *a, **k: None)
    monkeypatch.setattr(cli, "run_referee_state", lambda *a, **k: state)
    args = ["referee", "pgvector or FAISS?", "--answers", "{}", "--thread-id", "ref-claims"]
    as_json = CliRunner().invoke(app, [*args, "--json"])
    assert as_json.exit_code == 0, as_json.output
    body = json.loads(as_json.stdout)
    assert [(c["verdict"], c["dropped"]) for c in body["claims"]] == [
        ("supported", False),
        ("unsupported", True),
    ]
    assert body["claims"][0]["evidence"]["section_id"] == "fa-1"
    shown = CliRunner().invoke(app, args)
    assert shown.exit_code == 0, shown.output
    lines = [" ".join(line.split()) for line in shown.stdout.splitlines()]
    assert "✓ FAISS searches billions of vectors in memory [fa-1]." in lines
    assert "✗ FAISS replicates its index across regions [fa-2]." in lines
    assert "support: 1 of 2 claims supported; 1 dropped" in lines


def test_referee_json_of_a_state_without_claims_has_an_empty_list(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = {"query": "pgvector or FAISS?", "status": "ok"}
    monkeypatch.setattr(cli, "make_context", lambda *a, **k: None)
    monkeypatch.setattr(cli, "run_referee_state", lambda *a, **k: state)
    args = ["referee", "pgvector or FAISS?", "--answers", "{}", "--thread-id", "ref-old"]
    result = CliRunner().invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["claims"] == []
    shown = CliRunner().invoke(app, args)
    assert shown.exit_code == 0 and "support:" not in shown.stdout  # nothing to render
