"""Seed error codes and retries, search failures as limitations, web search integrations, the
held-out "one option never scored" failure, and evidence reaching the report."""

from __future__ import annotations

import sys
import types
import uuid
from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from disputatio.errors import ConfigError
from disputatio.graphs.referee import RefereeContext, build_graph
from disputatio.nodes.referee.guard import classify
from disputatio.reports import render_referee_markdown
from disputatio.settings import Settings
from disputatio.state.referee import ErrorCode, RefereeResult
from disputatio.testing import FakeRetriever
from disputatio.tools.web_search import TavilyWebSearch, web_search_from_settings

from .referee_fakes import (
    AXIS_NAMES,
    SCORES,
    advocate_reply,
    context,
    happy_models,
    keyword_retriever,
    plan_reply,
    ruling_reply,
)


class RateLimitError(Exception):
    """Named like the OpenAI SDK's, with its status code."""

    status_code = 429


class AuthenticationError(Exception):
    status_code = 401


def _run(ctx: RefereeContext, inputs: dict[str, Any] | None = None, **kw: Any) -> RefereeResult:
    graph = build_graph(initial_interval=0.01, max_interval=0.05, **kw).compile(
        checkpointer=InMemorySaver()
    )
    out = graph.invoke(
        inputs or {"query": "pgvector or FAISS?"},
        {"configurable": {"thread_id": str(uuid.uuid4())}},
        context=ctx,
    )
    return RefereeResult.model_validate(out)


def test_classify_gives_the_seed_codes() -> None:
    assert classify(RateLimitError()) == (ErrorCode.RATE_LIMITED, True)
    assert classify(AuthenticationError()) == (ErrorCode.API_KEY_INVALID, False)
    assert classify(ConfigError("model openai:x needs OPENAI_API_KEY")) == (
        ErrorCode.API_KEY_MISSING,
        False,
    )
    assert classify(ConfigError("bad value")) == (ErrorCode.INVALID_REQUEST, False)
    assert classify(ConnectionError("down")) == (ErrorCode.AGENT_FAILED, True)
    assert classify(ValueError("no JSON")) == (ErrorCode.AGENT_FAILED, False)


def test_rate_limits_are_retried_twice_even_without_other_retries() -> None:
    limited = [RateLimitError("slow down")] * 2
    ok = happy_models(referee=[*limited, ruling_reply(SCORES, "FAISS")])
    result = _run(context(ok), max_attempts=1)
    assert ok["referee"].calls == 3  # one call and two retries
    assert result.status == "ok"

    always = happy_models(referee=[RateLimitError("slow down")] * 5)
    result = _run(context(always), max_attempts=1)
    assert always["referee"].calls == 3
    assert result.error is not None and result.error.code == "RATE_LIMITED"
    assert result.error.retryable and result.error.phase == "verdict"


def test_rate_limit_retries_back_off_exponentially(monkeypatch: pytest.MonkeyPatch) -> None:
    """The two retries wait initial_interval, then twice that (plus LangGraph's < 1 s jitter)."""
    import langgraph.pregel._retry as retry

    waits: list[float] = []
    monkeypatch.setattr(retry.time, "sleep", waits.append)  # record instead of waiting
    models = happy_models(referee=[RateLimitError("slow down")] * 5)
    graph = build_graph(max_attempts=1, initial_interval=10.0, max_interval=100.0).compile(
        checkpointer=InMemorySaver()
    )
    out = graph.invoke(
        {"query": "pgvector or FAISS?"},
        {"configurable": {"thread_id": str(uuid.uuid4())}},
        context=context(models),
    )
    assert models["referee"].calls == 3
    assert len(waits) == 2 and 10.0 <= waits[0] < 11.0 and 20.0 <= waits[1] < 21.0
    assert RefereeResult.model_validate(out).error.code == "RATE_LIMITED"  # type: ignore[union-attr]


def test_other_transient_errors_follow_max_attempts() -> None:
    models = happy_models(referee=[ConnectionError("down")] * 3)
    result = _run(context(models), max_attempts=1)
    assert models["referee"].calls == 1
    assert result.error is not None and result.error.code == "AGENT_FAILED"
    assert result.error.retryable


def test_a_rejected_key_is_not_retried() -> None:
    models = happy_models(planner=[AuthenticationError("bad key")] * 3)
    result = _run(context(models), max_attempts=3)
    assert models["planner"].calls == 1
    assert result.status == "failed" and result.error is not None
    assert (result.error.code, result.error.retryable) == ("API_KEY_INVALID", False)


def test_a_failing_search_does_not_stop_the_run() -> None:
    """Every agent searches; a failing corpus search is a warning and a noted limitation."""
    models = happy_models()
    result = _run(
        context(
            models, retriever=FakeRetriever(fails_with=ConnectionError("corpus database is down"))
        )
    )
    assert result.status == "ok"
    assert result.completed_phases == ["plan", "advocacy", "cross_examination", "verdict"]
    agents = {w.agent for w in result.warnings}
    assert {"planner", "advocate-pgvector", "advocate-faiss"} <= agents
    assert {"examiner-pgvector", "examiner-faiss"} <= agents
    assert all(w.code == "SEARCH_FAILED" and w.retryable for w in result.warnings)
    assert all("corpus database is down" in w.message for w in result.warnings)
    assert all(b.limitations and not b.sources for b in result.briefs)
    text = render_referee_markdown(result)
    assert "## Limitations" in text and "corpus search failed" in text


def test_a_web_search_without_its_integration_is_a_limitation_not_a_crash(
    monkeypatch: pytest.MonkeyPatch, settings: Settings
) -> None:
    monkeypatch.setenv("EXA_API_KEY", "k")
    monkeypatch.setitem(sys.modules, "langchain_exa", None)  # not installed
    with pytest.raises(ConfigError, match="pip install langchain-exa"):
        web_search_from_settings("exa")
    exa = settings.model_copy(
        update={"referee": settings.referee.model_copy(update={"web_search": "exa"})}
    )
    result = _run(context(happy_models(), settings=exa))
    assert result.status == "ok"
    assert any("langchain-exa" in w.message for w in result.warnings)


def test_auto_web_search_is_off_without_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TAVILY_API_KEY", raising=False)
    monkeypatch.delenv("EXA_API_KEY", raising=False)
    assert web_search_from_settings("auto").search("x") == []
    with pytest.raises(ConfigError, match="TAVILY_API_KEY"):
        web_search_from_settings("tavily")


def test_tavily_through_its_langchain_integration(monkeypatch: pytest.MonkeyPatch) -> None:
    """With a key and no langchain-tavily, the community wrapper is used; hits are mapped."""
    monkeypatch.setenv("TAVILY_API_KEY", "k")
    monkeypatch.setitem(sys.modules, "langchain_tavily", None)
    # the community wrapper comes with the bench extras (make bench-deps)
    tavily_search = pytest.importorskip("langchain_community.utilities.tavily_search")

    calls: list[tuple[str, int]] = []

    def raw_results(self: Any, query: str, max_results: int = 5, **_: Any) -> dict[str, Any]:
        calls.append((query, max_results))
        return {
            "results": [
                {"title": "T", "url": "https://e.org/a", "content": "FAISS is fast", "score": 0.9},
                {"title": "empty", "url": "https://e.org/b", "content": " "},
            ]
        }

    monkeypatch.setattr(tavily_search.TavilySearchAPIWrapper, "raw_results", raw_results)
    web = web_search_from_settings("auto")
    assert isinstance(web, TavilyWebSearch)
    (hit,) = web.search("FAISS speed", k=3)
    assert (hit.url, hit.snippet, hit.score) == ("https://e.org/a", "FAISS is fast", 0.9)
    assert calls == [("FAISS speed", 3)]


def test_exa_through_its_langchain_integration(monkeypatch: pytest.MonkeyPatch) -> None:
    """With only EXA_API_KEY set, ``auto`` is Exa's ``ExaSearchRetriever``; documents are mapped
    to hits (url, title, text, score), empty or url-less ones dropped, ``k`` passed on."""
    from langchain_core.documents import Document

    from disputatio.tools.web_search import ExaWebSearch

    monkeypatch.delenv("TAVILY_API_KEY", raising=False)
    monkeypatch.setenv("EXA_API_KEY", "k")
    calls: list[tuple[str, int, bool]] = []

    class ExaSearchRetriever:  # the integration's class, as langchain-exa names it
        def __init__(self, k: int = 10, highlights: bool = False) -> None:
            self.k, self.highlights = k, highlights

        def invoke(self, query: str) -> list[Document]:
            calls.append((query, self.k, self.highlights))
            return [
                Document(
                    page_content="pgvector keeps vectors in Postgres",
                    metadata={"url": "https://e.org/pg", "title": "pgvector", "score": 0.7},
                ),
                Document(page_content=" ", metadata={"url": "https://e.org/empty"}),
                Document(page_content="no url", metadata={"title": "x"}),
            ]

    module = types.ModuleType("langchain_exa")
    module.ExaSearchRetriever = ExaSearchRetriever  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "langchain_exa", module)
    web = web_search_from_settings("auto")
    assert isinstance(web, ExaWebSearch)
    (hit,) = web.search("pgvector ops", k=2)
    assert (hit.url, hit.title, hit.snippet, hit.score) == (
        "https://e.org/pg",
        "pgvector",
        "pgvector keeps vectors in Postgres",
        0.7,
    )
    assert calls == [("pgvector ops", 2, True)]
    monkeypatch.delenv("EXA_API_KEY")
    with pytest.raises(ConfigError, match="EXA_API_KEY"):
        web_search_from_settings("exa")


def test_held_out_failure_one_option_never_scored_is_asked_again() -> None:
    """The 1.5B scored every axis of one option, none of the other, and recommended the lower
    total. The referee is asked again for exactly the missing cells, and the recommendation
    follows the completed totals."""
    first = ruling_reply(
        {("pgvector", a): 3 for a in AXIS_NAMES}, "pgvector", confidence="high"
    )  # FAISS never scored
    fill = {"scores": [{"option": "FAISS", "axis": a, "score": 8} for a in AXIS_NAMES]}
    models = happy_models(referee=[first, fill])
    result = _run(context(models, max_fill_rounds=2))
    ruling = result.ruling
    assert ruling is not None and models["referee"].calls == 2
    asked = str(models["referee"].prompts[1][-1].content)
    assert all(f"option 'FAISS', axis '{a}'" in asked for a in AXIS_NAMES)
    assert "option 'pgvector'" not in asked
    assert ruling.missing_cells == [] and ruling.fill_rounds == 1
    assert ruling.leader == "FAISS" and ruling.recommendation == "FAISS"
    assert any("without naming a user constraint" in c for c in ruling.caveats)


def test_cells_never_filled_stay_missing_and_bounded() -> None:
    first = ruling_reply({("pgvector", a): 3 for a in AXIS_NAMES}, "FAISS")
    models = happy_models(referee=[first, {"scores": []}, {"scores": []}, {"scores": []}])
    result = _run(context(models, max_fill_rounds=2))
    ruling = result.ruling
    assert ruling is not None and models["referee"].calls == 3  # 1 + max_fill_rounds
    assert ruling.missing_cells == [f"FAISS / {a}" for a in AXIS_NAMES]
    assert ruling.confidence == "low"
    assert ruling.recommendation == "pgvector"  # the only complete option: FAISS has no total


def test_ambiguous_names_are_sent_back_to_the_referee() -> None:
    first = ruling_reply(
        {("pgvector", a): 5 for a in AXIS_NAMES} | {("pgvector or FAISS", "latency"): 9}, "FAISS"
    )
    fill = {"scores": [{"option": "FAISS", "axis": a, "score": 6} for a in AXIS_NAMES]}
    models = happy_models(referee=[first, fill])
    result = _run(context(models, max_fill_rounds=1))
    asked = str(models["referee"].prompts[1][-1].content)
    assert "'pgvector or FAISS': pgvector or FAISS" in asked
    assert result.ruling is not None
    assert {(s.option, s.axis): s.score for s in result.ruling.scores}[("FAISS", "latency")] == 6


def test_advocates_evidence_reaches_the_report_with_citations() -> None:
    retriever = keyword_retriever(
        {
            "inc-7": "Incident report: Dyneema line abraded through on a deep mooring chafe point.",
            "poly-1": "Polyester line stretches more but resists abrasion on moorings.",
        }
    )
    axes = [("abrasion resistance", 8)]
    models = happy_models(
        planner=[plan_reply(["Dyneema", "polyester"], axes)],
        advocate_dyneema=[advocate_reply("Dyneema", "S1", ["abrasion resistance"])],
        advocate_polyester=[advocate_reply("polyester", "S1", ["abrasion resistance"])],
        examiner_dyneema=[{"checks": [], "defense": ""}],
        examiner_polyester=[
            {"checks": [{"claim_id": "dyneema#1", "verdict": "disputed", "citations": ["S1"]}]}
        ],
        referee=[
            ruling_reply(
                {("Dyneema", "abrasion resistance"): 3, ("polyester", "abrasion resistance"): 8},
                "polyester",
            )
        ],
    )
    result = _run(
        context(models, retriever=retriever),
        {"query": "Should deep moorings use Dyneema line or polyester line?"},
    )
    assert result.status == "ok"
    dyneema = next(b for b in result.briefs if b.option == "Dyneema")
    assert [e.id for e in dyneema.evidence] == dyneema.claims[0].citations
    exam = next(e for e in result.cross_examinations if e.option == "polyester")
    (check,) = exam.checks
    assert check.verdict == "disputed" and check.citations and check.sources
    text = render_referee_markdown(result)
    assert "## Sources" in text and "Dyneema line abraded" in text
    assert f"[{dyneema.claims[0].citations[0]}]" in text
    assert "## Verdict" in text and "| abrasion resistance | 8 | 3 | 8 |" in text


def test_report_renders_the_rendering_keys() -> None:
    result = _run(context(happy_models()))
    assert result.ruling is not None
    assert "_Score{latency:pgvector=6,FAISS=9}" in result.ruling.rendered
    text = render_referee_markdown(result)
    assert "_Score{" not in text and "_Table{" not in text and "_Poll{" not in text
    assert "**latency**: pgvector 6/10 · FAISS 9/10" in text
    assert "| FAISS | 7.64 | ████████████████████ |" in text  # 84 / 11, the longest bar
