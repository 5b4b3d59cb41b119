"""``disputatio rdc run --json``: the verdict route's object on stdout, claims included.

One scripted specialist debates the bundled rare-disease case in-process, on an in-memory
checkpointer, store and ledger. The RDC graph does not write ``claims`` yet: the command must
print ``claims: []`` then, and carry claims through when a state has them.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.store.memory import InMemoryStore
from typer.testing import CliRunner

import disputatio.graphs.rdc as rdc_graph
from disputatio.cli.app import app
from disputatio.cli.claims import verdict_json
from disputatio.settings import load_settings
from disputatio.state.retrieval import Section
from disputatio.storage.ledger import InMemoryLedger
from disputatio.testing import FakeRetriever, ScriptedChatModel

CASE = Path(rdc_graph.__file__).parents[2] / "data" / "cases" / "rare_disease.json"
SECTION = Section(
    id="sec-brucella-1", source="brucellosis.md", text="Brucellosis follows dairy.", score=0.9
)


def _move(summary: str, claims: list[dict[str, Any]]) -> dict[str, Any]:
    return {"summary": summary, "claims": claims, "relations": []}


@pytest.fixture
def in_memory(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, memory_saver: InMemorySaver) -> None:
    """``rdc run`` with one scripted specialist and nothing stored outside the process."""
    claim = {"id": "c1", "text": "raw dairy", "provenance": [SECTION.id], "quality": 0.8,
             "bearings": [{"hypothesis": "brucellosis", "llr": 0.7}]}  # fmt: skip
    script = [
        _move("dairy", [claim]),
        _move("", []),
        _move("", []),
        {"ranking": ["brucellosis", "q_fever", "adult_onset_still"], "rationale": "dairy"},
    ]
    settings = load_settings(home=tmp_path)
    real = rdc_graph.RdcContext

    def context(**kwargs: Any) -> Any:
        kwargs.update(settings=settings, ledger=InMemoryLedger(), turns_per_phase=1)
        models = {"infectious": ScriptedChatModel(script=script)}
        return real(models=models, retriever=FakeRetriever([SECTION], match_all=True), **kwargs)

    store = InMemoryStore()

    @contextlib.contextmanager
    def open_store(settings: Any) -> Iterator[InMemoryStore]:
        yield store

    monkeypatch.setattr(rdc_graph, "RdcContext", context)
    monkeypatch.setattr("disputatio.storage.checkpoint.open_store", open_store)
    monkeypatch.setattr("disputatio.storage.ledger.PostgresLedger", lambda settings: None)


def test_rdc_run_json_prints_the_verdict_object_alone(in_memory: None) -> None:
    args = ["rdc", "run", str(CASE), "--specialists", "infectious", "--max-rounds", "1"]
    result = CliRunner().invoke(app, [*args, "--no-appeal", "--thread-id", "rdc-json", "--json"])
    assert result.exit_code == 0, result.output
    body = json.loads(result.stdout)  # the turns and the ledger hint went to stderr
    assert (body["case_id"], body["protocol"]) == ("rdc-json", "rdc")
    assert body["verdict"]["top"] and body["verdict"]["differential"]
    assert isinstance(body["claims"], list)
    assert "verify with: disputatio ledger verify rdc-json" in result.stderr


def test_rdc_verdict_json_carries_claims_when_the_state_has_them() -> None:
    claims = [{"text": "Brucellosis follows dairy.", "verdict": "supported", "dropped": False}]
    state = {"verdict": {"top": "brucellosis"}, "halt_reason": "max_rounds", "graph": {}}
    assert verdict_json("rdc", "t", state)["claims"] == []
    body = verdict_json("rdc", "t", {**state, "claims": claims})
    assert body == {"case_id": "t", "protocol": "rdc", "verdict": {"top": "brucellosis"},
                    "claims": claims, "halt_reason": "max_rounds"}  # fmt: skip
