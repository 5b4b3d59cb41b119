"""``query`` and ``ask`` show the answer claim by claim, and ``--json`` carries the claims.

The claim checker is the real one (lexical): the fake sections really support the first
claim of each scripted answer ("confirmed by blood culture") and not the second (its number,
3 days, is in no sentence), so one claim is ``supported`` with its evidence sentence and the
other ``unsupported`` and dropped. The commands run in-process (typer's runner) with scripted
models, an in-memory checkpointer and in-memory retrievers: no database, no model server.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver
from rag_fakes import text_funnel
from typer.testing import CliRunner

from disputatio.cli import ask
from disputatio.cli import query as query_cli
from disputatio.cli.app import app
from disputatio.cli.claims import support_line
from disputatio.nodes.rag.context import RagContext
from disputatio.retrievers.memory import InMemoryFunnel
from disputatio.settings import load_settings
from disputatio.state.retrieval import Section
from disputatio.testing import FakeRetriever, ScriptedChatModel

TEXT = (
    "Brucellosis is confirmed by blood culture. "
    "Serology with the Rose Bengal test supports the diagnosis."
)
SUPPORTED = "Brucellosis is confirmed by blood culture"
UNSUPPORTED = "Brucellosis is treated with penicillin for 3 days"
SECTION = Section(id="brucella-0001", source="docs/brucellosis.md", text=TEXT)


def _answer(label: str = "S1") -> str:
    return f"{SUPPORTED} [{label}]. {UNSUPPORTED} [{label}]."


def _invoke(*args: str) -> Any:
    return CliRunner().invoke(app, list(args), catch_exceptions=True)


def _check_claims(claims: list[dict[str, Any]], section_id: str, text: str = TEXT) -> None:
    """One supported claim with its evidence sentence (a span of ``text``), one unsupported."""
    by_text = {c["text"].rstrip("."): c for c in claims}
    good, bad = by_text[SUPPORTED], by_text[UNSUPPORTED]
    assert good["verdict"] == "supported" and not good["dropped"]
    assert good["citations"] == [section_id]
    assert good["evidence"]["section_id"] == section_id
    assert good["evidence"]["sentence"] == "Brucellosis is confirmed by blood culture."
    span = good["evidence"]["start"], good["evidence"]["end"]
    assert text[span[0] : span[1]] == good["evidence"]["sentence"]
    assert bad["verdict"] == "unsupported" and bad["dropped"] and bad["evidence"] is None
    assert "3" in bad["reason"]


# --- ask -----------------------------------------------------------------------------------


def _retriever() -> FakeRetriever:
    """The one section, as the best match of every query."""
    return FakeRetriever([SECTION.model_copy(update={"score": 1.0})], match_all=True)


@pytest.fixture
def models(monkeypatch: pytest.MonkeyPatch, memory_saver: InMemorySaver) -> dict[str, Any]:
    """``ask`` on one in-memory saver, the fake retriever and these scripted models."""
    scripted: dict[str, Any] = {}
    real = ask.make_context

    def make_context(builder: Any, **kwargs: Any) -> Any:
        return dataclasses.replace(real(builder, **kwargs), models=scripted, retriever=_retriever())

    monkeypatch.setattr(ask, "make_context", make_context)
    return scripted


def _hierarchical(models: dict[str, Any]) -> None:
    models["worker"] = ScriptedChatModel(script=[_answer()], repeat_last=True)
    models["orchestrator"] = ScriptedChatModel(script=[{"subquestions": []}])


def test_ask_json_is_the_verdict_with_the_claims_and_their_verdicts(
    models: dict[str, Any],
) -> None:
    _hierarchical(models)
    result = _invoke("ask", "How is brucellosis diagnosed?", "--thread-id", "t-json", "--json")
    assert result.exit_code == 0, result.output
    body = json.loads(result.stdout)  # stdout is the JSON alone: progress went to stderr
    assert (body["case_id"], body["protocol"]) == ("t-json", "hierarchical")
    assert {"answer", "claims", "citations", "validation", "confidence"} <= set(body)
    _check_claims(body["claims"], SECTION.id)
    assert SUPPORTED in body["answer"] and "penicillin" not in body["answer"]
    assert [c["id"] for c in body["citations"]] == [SECTION.id]
    support = next(v for v in body["validation"] if v["name"] == "support")
    assert support["passed"] is False and support["details"]["claims"] == body["claims"]


def test_ask_prints_each_claim_with_its_mark_evidence_and_the_support_line(
    models: dict[str, Any],
) -> None:
    _hierarchical(models)
    result = _invoke("ask", "How is brucellosis diagnosed?", "--thread-id", "t-text")
    assert result.exit_code == 0, result.output
    lines = [" ".join(line.split()) for line in result.stdout.splitlines()]
    text = "\n".join(lines)
    assert f"✓ {SUPPORTED} [{SECTION.id}]." in lines
    assert "“Brucellosis is confirmed by blood culture.” — brucellosis.md" in text
    dropped = lines.index("dropped (not in the answer):")
    assert lines[dropped + 1] == f"✗ {UNSUPPORTED} [{SECTION.id}]."
    assert "unsupported: the number 3 is not in the sentence" in text
    assert "support: 1 of 2 claims supported; 1 dropped" in lines
    assert "citations: ok" not in text and "verified" not in text  # nothing else claims it


def test_ask_json_of_the_medrag_debate_carries_the_claims(models: dict[str, Any]) -> None:
    for agent in ("agent1", "agent2"):
        models[agent] = ScriptedChatModel(
            script=['retrieve("brucellosis")', _answer() + " \\boxed{A}"]
        )
    result = _invoke(
        "ask", "How is brucellosis confirmed?", "--protocol", "medrag",
        "--option", "A=blood culture", "--option", "B=x-ray", "--thread-id", "t-med", "--json",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    body = json.loads(result.stdout)
    assert (body["protocol"], body["answer"], body["consensus_type"]) == (
        "medrag",
        "A",
        "agreement",
    )
    _check_claims([c for c in body["claims"] if c["factual"]], SECTION.id)
    assert any(v["name"] == "support" for v in body["validation"])


def test_ask_json_usage_errors_exit_2_without_output() -> None:
    result = _invoke("ask", "--json")
    assert result.exit_code == 2 and result.stdout == ""


# --- query ---------------------------------------------------------------------------------


@pytest.fixture
def funnel(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> InMemoryFunnel:
    """``query`` on an in-memory funnel over one section and a scripted answerer."""
    settings = load_settings(home=tmp_path)
    corpus = text_funnel(TEXT, "brucellosis.md", settings)
    answerer = ScriptedChatModel(script=[_answer("S1.1")])

    def make_context(model: Any, tenant: Any, collection: Any, answer: bool) -> RagContext:
        models = {"answerer": answerer}
        return RagContext(settings=settings, retriever=corpus, models=models, answer=answer)

    monkeypatch.setattr(query_cli, "make_context", make_context)
    return corpus


def _query(*extra: str) -> Any:
    return _invoke("query", "How is brucellosis diagnosed?", "--threshold", "0", *extra)


def test_query_json_carries_the_claims_grounded_and_not_found(funnel: InMemoryFunnel) -> None:
    result = _query("--json")
    assert result.exit_code == 0, result.output
    body = json.loads(result.stdout)
    assert list(body)[:4] == ["answer", "claims", "grounded", "not_found"]
    section = body["sections"][0]
    section_id = section["id"]
    _check_claims(body["claims"], section_id, section["text"])
    assert body["grounded"] is True and body["not_found"] is False  # what is kept is supported
    assert body["citations"] == [section_id] and "penicillin" not in body["answer"]
    assert "penicillin" in body["draft"]  # the model's own text is kept apart


def test_query_prints_the_answer_claim_by_claim(funnel: InMemoryFunnel) -> None:
    result = _query()
    assert result.exit_code == 0, result.output
    lines = [" ".join(line.split()) for line in result.stdout.splitlines()]
    assert any(line.startswith(f"✓ {SUPPORTED} [") for line in lines), lines
    assert any(line.startswith(f"✗ {UNSUPPORTED} [") for line in lines), lines
    assert "support: 1 of 2 claims supported; 1 dropped" in lines
    assert any(line.startswith("confidence 0.") and "P(right)" in line for line in lines), lines


def test_support_line_counts_factual_claims_only() -> None:
    verdict_line = {"text": "Answer: B", "verdict": None, "factual": False}
    supported = {"text": "a b", "verdict": "supported", "attributed": True}
    uncited = {"text": "c d", "verdict": "uncited", "dropped": True}
    refusal = {"text": "The documents do not answer.", "verdict": "not_found"}
    assert support_line([verdict_line, supported, uncited]) == (
        "support: 1 of 2 claims supported; 1 dropped; 1 attributed by the checker"
    )
    assert support_line([{**uncited, "dropped": False}]) == (
        "support: 0 of 1 claim supported; 1 kept unsupported"
    )
    assert support_line([verdict_line, refusal]).startswith("support: the documents do not answer")
    assert support_line([]) == "support: not checked (no claims were judged)"


def test_claims_are_shown_without_the_answers_own_labels() -> None:
    """ "Verdict:" heads the writer's answer and "Support:" its list: layout, not a claim."""
    from rich.console import Console

    from disputatio.cli.claims import render_claims

    claims = [
        {"text": "Verdict: Brucellosis is diagnosed by blood cultures.", "verdict": "supported",
         "factual": True, "citations": ["s1"], "evidence": {"sentence": "Blood cultures.",
                                                            "section_id": "s1"}},
        {"text": "Support:", "verdict": None, "factual": False},
        {"text": "Supportive care helps.", "verdict": "supported", "factual": True,
         "citations": ["s1"], "evidence": {"sentence": "Supportive care.", "section_id": "s1"}},
        {"text": "\\boxed{A} Serology confirms it.", "verdict": "supported", "factual": True,
         "citations": ["s1"], "evidence": {"sentence": "Serology.", "section_id": "s1"}},
    ]  # fmt: skip
    console = Console(record=True, width=200)
    render_claims(claims, console)
    out = console.export_text()
    assert "✓ Brucellosis is diagnosed by blood cultures [s1]." in out
    assert "Verdict" not in out and "Support:" not in out
    assert "✓ Supportive care helps [s1]." in out  # a word that starts like a label stays
    assert "✓ Serology confirms it [s1]." in out and "boxed" not in out  # MedRAG's marker
    assert "support: 3 of 3 claims supported" in out


def test_claims_of_each_part_are_shown_together_under_one_heading() -> None:
    from rich.console import Console

    from disputatio.cli.claims import render_claims

    def claim(text: str, part: str | None) -> dict[str, Any]:
        return {"text": text, "verdict": "supported", "factual": True, "part": part}

    parts = ["part 1", None, "part 2"] * 2
    claims = [claim(f"{(p or 'W')[-1]} {i // 3}.", p) for i, p in enumerate(parts)]
    console = Console(record=True, width=120)
    render_claims(claims, console)
    lines = [x.strip() for x in console.export_text().splitlines() if x.strip()]
    shown = [x for x in lines if x.startswith(("part", "(whole", "✓"))]
    assert shown == ["part 1", "✓ 1 0.", "✓ 1 1.", "part 2", "✓ 2 0.", "✓ 2 1.",
                     "(whole question)", "✓ W 0.", "✓ W 1."]  # fmt: skip


def test_a_long_source_path_keeps_its_file_name_in_the_citations_table() -> None:
    from rich.console import Console

    from disputatio.cli.ask import render_result

    source = "/srv/a/very/long/folder/of/the/server/that/holds/the/corpus/brucellosis.txt"
    values = {"answer": "x", "citations": [{"id": "7c08d514ff5f90a1635c5a1b", "source": source}]}
    console = Console(record=True, width=80)
    render_result(values, show_transcript=False, console=console)
    table = "".join(console.export_text().split())  # the path may wrap, never be cut
    assert "brucellosis.txt" in table


def test_a_medrag_reply_cut_at_its_token_limit_is_checked_without_its_fragment(
    models: dict[str, Any],
) -> None:
    """Every word of "Serology with the Rose Bengal" stands in the section: only the cut tells."""
    from langchain_core.messages import AIMessage

    cut = AIMessage(
        content=f"\\boxed{{A}} {SUPPORTED} [S1]. Serology with the Rose Bengal",
        response_metadata={"finish_reason": "length"},
    )
    for agent in ("agent1", "agent2"):
        models[agent] = ScriptedChatModel(script=['retrieve("brucellosis")', cut])
    result = _invoke(
        "ask", "How is brucellosis confirmed?", "--protocol", "medrag",
        "--option", "A=blood culture", "--option", "B=x-ray", "--thread-id", "t-cut", "--json",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    claims = json.loads(result.stdout)["claims"]
    assert any(SUPPORTED in c["text"] and c["verdict"] == "supported" for c in claims)
    assert not [c for c in claims if "Rose Bengal" in c["text"]]
