"""A pluggable web-search interface for agents (offline, there is none: :class:`NullWebSearch`).

With a key set, :func:`web_search_from_settings` gives a real engine through its LangChain
integration (Tavily: ``TAVILY_API_KEY`` + ``langchain-tavily`` or ``langchain-community``;
Exa: ``EXA_API_KEY`` + ``langchain-exa``), imported only then.

Any object with ``search(query, *, k) -> list[WebResult]`` is a :class:`WebSearch`; inject one
through a graph's context (``RefereeContext(web_search=...)``). Results become
:class:`~disputatio.state.retrieval.Section` s with stable ``web-<hash>`` ids, so agents cite
web pages exactly like corpus sections::

    class MySearch:
        def search(self, query: str, *, k: int = 5) -> list[WebResult]:
            return [WebResult(title=..., url=..., snippet=...)]
"""

from __future__ import annotations

import hashlib
import os
from typing import Any, Protocol, runtime_checkable

from langchain_core.tools import BaseTool, StructuredTool
from pydantic import BaseModel, Field, SecretStr

from disputatio.errors import ConfigError
from disputatio.retrievers.base import format_sections
from disputatio.state.retrieval import Section

TOOL_NAME = "web_search"


class WebResult(BaseModel):
    """One web search hit.

    Attributes:
        title: Page title.
        url: Page address.
        snippet: The relevant text of the page.
        score: Relevance in [0, 1] if the engine reports one.
    """

    title: str = ""
    url: str
    snippet: str
    score: float = 0.0


@runtime_checkable
class WebSearch(Protocol):
    """Search the web and return hits, best first."""

    def search(self, query: str, *, k: int = 5) -> list[WebResult]:
        """Return up to ``k`` hits for ``query``."""
        ...


class NullWebSearch:
    """The offline default: finds nothing."""

    def search(self, query: str, *, k: int = 5) -> list[WebResult]:
        """Return no hits."""
        return []


def _hit(item: dict[str, Any]) -> WebResult | None:
    url = str(item.get("url") or "")
    text = str(item.get("content") or item.get("snippet") or item.get("text") or "")
    if not url or not text.strip():
        return None
    score = item.get("score")
    return WebResult(
        title=str(item.get("title") or ""),
        url=url,
        snippet=text[:2000],
        score=float(score) if isinstance(score, int | float) else 0.0,
    )


class TavilyWebSearch:
    """Tavily through its LangChain integration (``langchain-tavily``, else the community one).

    Needs ``TAVILY_API_KEY``. The integration is imported when the object is built, so the
    package is only needed when this search is chosen.
    """

    def __init__(self) -> None:
        if not os.environ.get("TAVILY_API_KEY"):
            raise ConfigError("web search 'tavily' needs TAVILY_API_KEY", code="API_KEY_MISSING")
        try:
            from langchain_tavily import TavilySearch

            self._tool: Any = TavilySearch
            self._wrapper: Any = None
        except ImportError:
            try:
                from langchain_community.utilities.tavily_search import TavilySearchAPIWrapper
            except ImportError as exc:
                raise ConfigError(
                    "TAVILY_API_KEY is set but no Tavily integration is installed: "
                    "pip install langchain-tavily (or set referee.web_search = 'none')"
                ) from exc
            self._tool = None
            self._wrapper = TavilySearchAPIWrapper(
                tavily_api_key=SecretStr(os.environ["TAVILY_API_KEY"])
            )

    def search(self, query: str, *, k: int = 5) -> list[WebResult]:
        """Return up to ``k`` Tavily hits for ``query``."""
        if self._wrapper is not None:
            raw = self._wrapper.raw_results(query, max_results=k, search_depth="basic")
        else:
            raw = self._tool(max_results=k).invoke({"query": query})
        items = raw.get("results", []) if isinstance(raw, dict) else []
        return [h for h in map(_hit, items) if h is not None][:k]


class ExaWebSearch:
    """Exa through its LangChain integration (``langchain-exa``); needs ``EXA_API_KEY``."""

    def __init__(self) -> None:
        if not os.environ.get("EXA_API_KEY"):
            raise ConfigError("web search 'exa' needs EXA_API_KEY", code="API_KEY_MISSING")
        try:
            from langchain_exa import ExaSearchRetriever
        except ImportError as exc:
            raise ConfigError(
                "EXA_API_KEY is set but the Exa integration is not installed: "
                "pip install langchain-exa (or set referee.web_search = 'none')"
            ) from exc
        self._retriever_cls: Any = ExaSearchRetriever

    def search(self, query: str, *, k: int = 5) -> list[WebResult]:
        """Return up to ``k`` Exa hits for ``query``."""
        docs = self._retriever_cls(k=k, highlights=True).invoke(query)
        items = [
            {
                "url": d.metadata.get("url"),
                "title": d.metadata.get("title"),
                "content": d.page_content,
                "score": d.metadata.get("score"),
            }
            for d in docs
        ]
        return [h for h in map(_hit, items) if h is not None][:k]


def web_search_from_settings(mode: str) -> WebSearch:
    """The web search of ``referee.web_search``.

    ``"none"`` is :class:`NullWebSearch`; ``"tavily"``/``"exa"`` that engine; ``"auto"`` Tavily
    when ``TAVILY_API_KEY`` is set, else Exa when ``EXA_API_KEY`` is set, else none.

    Raises:
        ConfigError: The chosen engine's key is missing or its integration is not installed.
    """
    if mode == "auto":
        mode = (
            "tavily"
            if os.environ.get("TAVILY_API_KEY")
            else ("exa" if os.environ.get("EXA_API_KEY") else "none")
        )
    if mode == "tavily":
        return TavilyWebSearch()
    if mode == "exa":
        return ExaWebSearch()
    if mode == "none":
        return NullWebSearch()
    raise ConfigError(f"unknown web search {mode!r} (auto, none, tavily or exa)")


def web_result_id(result: WebResult) -> str:
    """Stable citation id of a hit: ``web-`` and 10 hex digits of its URL's sha1."""
    return "web-" + hashlib.sha1(result.url.encode("utf-8")).hexdigest()[:10]


def results_to_sections(results: list[WebResult]) -> list[Section]:
    """Turn hits into sections agents can cite (id ``web-<hash>``, source = the URL)."""
    return [
        Section(
            id=web_result_id(r),
            source=r.url,
            title=r.title or None,
            text=r.snippet,
            score=r.score,
            channels=["web"],
        )
        for r in results
    ]


class WebSearchArgs(BaseModel):
    """Arguments of the web search tool."""

    query: str = Field(description="What to search the web for.")
    k: int = Field(5, ge=1, le=10, description="How many results to return.")


def make_web_search_tool(web: WebSearch) -> BaseTool:
    """Wrap ``web`` as the ``web_search`` LangChain tool (artifact: the result sections)."""

    def _run(query: str, k: int = 5) -> tuple[str, list[Section]]:
        sections = results_to_sections(web.search(query, k=k))
        return (format_sections(sections) or "No web results."), sections

    return StructuredTool.from_function(
        func=_run,
        name=TOOL_NAME,
        description=(
            "Search the web. Returns results in <section id=...> tags; cite the ids you use "
            "as [id]."
        ),
        args_schema=WebSearchArgs,
        response_format="content_and_artifact",
    )
