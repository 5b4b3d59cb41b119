"""The corpus retrieval tool: ``retrieve_corpus_sections(query, k, threshold)``.

Agents call it (the hierarchical workers bind it); every search a node makes, for an agent or
on its behalf, runs it through :func:`search_corpus`: the hierarchical debate's seed searches,
its workers' tool calls and its reviewers' searches, the MedRAG turns, the referee's evidence
and the RDC specialists. So every corpus search of a debate is one run of the same tool.
"""

from __future__ import annotations

from typing import Any, cast

from langchain_core.tools import BaseTool, StructuredTool
from pydantic import BaseModel, Field, create_model

from disputatio.retrievers.base import CorpusRetriever, format_sections
from disputatio.state.retrieval import NO_SUITABLE_CONTEXT, RetrievalResult

TOOL_NAME = "retrieve_corpus_sections"


class RetrieveArgs(BaseModel):
    """Arguments of the retrieval tool."""

    query: str = Field(description="What to search for, as a question or keywords.")
    k: int = Field(5, ge=1, le=32, description="How many sections to return.")
    threshold: float | None = Field(
        None, description="Refuse when the best relevance score is below this (0-1)."
    )


def render_result(result: RetrievalResult) -> str:
    """Render a retrieval result as the tool's text output."""
    if result.refused or not result.sections:
        return (
            f"{NO_SUITABLE_CONTEXT}: no section is relevant enough "
            f"(best score {result.best_score:.2f} < threshold {result.threshold:.2f})."
        )
    return format_sections(result.sections)


#: Most sections an agent may ask for in one call.
MAX_K = 32


def _args_schema(max_k: int) -> type[RetrieveArgs]:
    if max_k <= MAX_K:
        return RetrieveArgs
    return create_model(
        "RetrieveArgs",
        __base__=RetrieveArgs,
        k=(int, Field(5, ge=1, le=max_k, description="How many sections to return.")),
    )


def make_retrieval_tool(
    retriever: CorpusRetriever, *, default_k: int = 5, max_k: int = MAX_K
) -> BaseTool:
    """Wrap ``retriever`` as the ``retrieve_corpus_sections`` LangChain tool.

    The tool's artifact is the full :class:`RetrievalResult`, so graphs can record which section
    ids an agent saw (citations are verified against them).

    Args:
        retriever: The corpus retriever (its tenant and collection scope stay its own).
        default_k: Sections returned when a call gives no ``k``.
        max_k: Largest ``k`` a call may ask for (above :data:`MAX_K` only for node callers).
    """

    def _run(
        query: str, k: int = default_k, threshold: float | None = None
    ) -> tuple[str, RetrievalResult]:
        # no threshold given: the retriever's own default (the keyword is left out)
        extra: dict[str, Any] = {} if threshold is None else {"threshold": threshold}
        result = retriever.search(query, k=k, **extra)
        return render_result(result), result

    return StructuredTool.from_function(
        func=_run,
        name=TOOL_NAME,
        description=(
            "Search the document corpus. Returns sections in <section id=...> tags; cite the ids "
            "you use as [id]. Returns NO_SUITABLE_CONTEXT when nothing relevant exists."
        ),
        args_schema=_args_schema(max_k),
        response_format="content_and_artifact",
    )


def search_corpus(retriever: CorpusRetriever, query: str, *, k: int) -> RetrievalResult:
    """Search ``retriever`` for ``k`` sections through the retrieval tool (one tool run).

    The search a node makes for its agent goes through the same tool as an agent's own call,
    so it is traced, and its result read, the same way.

    Raises:
        Exception: Whatever the retriever raises (the callers decide what a failure means).
    """
    tool = make_retrieval_tool(retriever, default_k=k, max_k=max(k, MAX_K))
    call = {
        "type": "tool_call",
        "id": "search",
        "name": TOOL_NAME,
        "args": {"query": query, "k": k},
    }
    message = tool.invoke(call)
    return cast(RetrievalResult, message.artifact)
