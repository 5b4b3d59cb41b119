"""The corpus search of a MedRAG-style agent turn: the agent's own query, the search, its log.

The MedRAG nodes and the evaluation's baselines both search with it, through the retrieval tool
(:func:`~disputatio.tools.retrieval.search_corpus`), so a baseline sees what a debate turn sees.

An agent may write its own search call, ``retrieve("query")`` (:func:`parse_query`, with the
text tool-call parser); :func:`retrieve` sends that query, or the question (with the peers'
summaries when ``requery`` is on), and logs what came back. A retriever error never fails the
question: the turn gets no sections and the log says why.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Mapping, Sequence
from typing import Protocol

from disputatio.models.toolcalls import parse_tool_calls
from disputatio.retrievers.base import CorpusRetriever
from disputatio.state.medrag import RetrievalLog
from disputatio.state.retrieval import Section
from disputatio.tools.answer_text import retrieval_query, truncate
from disputatio.tools.retrieval import search_corpus

logger = logging.getLogger(__name__)

#: Name of the search call agents write.
QUERY_TOOL = "retrieve"


class HasRetriever(Protocol):
    """A run context that gives its retriever (every agent graph's context does)."""

    def get_retriever(self) -> CorpusRetriever:
        """The run's corpus retriever."""
        ...


class TurnSearchKnobs(Protocol):
    """The resolved settings a turn's search reads (a ``MedragConfig`` has them)."""

    @property
    def k(self) -> int:
        """Sections per search."""
        ...

    @property
    def use_retrieval(self) -> bool:
        """Search at all."""
        ...

    @property
    def requery(self) -> bool:
        """Add the peers' summaries to the question's query."""
        ...

    @property
    def query_max_chars(self) -> int:
        """Longest query sent."""
        ...


_CALL_NAME_RE = re.compile(r"\bretrieve(?=\s*\()", re.I)


def parse_query(text: str) -> str | None:
    """The query of the first ``retrieve("...")`` call in ``text`` (None when there is none).

    The call name is matched case-insensitively (small models write ``Retrieve(...)``).
    """
    text = _CALL_NAME_RE.sub(QUERY_TOOL, text or "")
    for call in parse_tool_calls(text, {QUERY_TOOL: ["query"]}):
        args = call.get("args") or {}
        query = args.get("query") or next((v for v in args.values() if isinstance(v, str)), "")
        if str(query).strip():
            return str(query).strip()
    return None


def retrieve(
    ctx: HasRetriever,
    cfg: TurnSearchKnobs,
    question: str,
    peer_summaries: Sequence[Mapping[str, str]],
    *,
    query: str | None = None,
    query_source: str | None = None,
) -> tuple[list[Section], RetrievalLog]:
    """Search the corpus for one turn and log what came back (ids and scores).

    Args:
        ctx: The run's context (its retriever).
        cfg: Resolved settings (``k``, ``use_retrieval``, ``requery``...).
        question: The question.
        peer_summaries: The other agents' summaries (used with ``requery``).
        query: The query to send (e.g. the agent's own); default: the question (plus the
            peers' summaries with ``requery``).
        query_source: What the query came from, for the log.

    Returns:
        ``(sections, log)``; no search and ``skipped=True`` when retrieval is switched off.
        A retriever error gives no sections and ``log["error"]`` (logged, never raised).
    """
    if not cfg.use_retrieval:
        return [], RetrievalLog(query="", k=0, ids=[], scores=[], skipped=True, ms=0.0)
    if query is None:
        peers = peer_summaries if cfg.requery else []
        query = retrieval_query(question, peers, cfg.query_max_chars)
        query_source = query_source or ("requery" if peers else "question")
    query = truncate(query, cfg.query_max_chars)
    t0 = time.perf_counter()
    try:
        result = search_corpus(ctx.get_retriever(), query, k=cfg.k)
    except Exception as exc:  # the seed reasons without evidence; flagged in the turn and notes
        ms = (time.perf_counter() - t0) * 1000.0
        error = f"{type(exc).__name__}: {str(exc).splitlines()[0][:200] if str(exc) else ''}"
        logger.warning("retrieval failed for %r, answering without evidence: %s", query, error)
        return [], RetrievalLog(
            query=query,
            query_source=query_source or "question",
            error=error,
            k=cfg.k,
            ids=[],
            scores=[],
            refused=False,
            best_score=0.0,
            ms=ms,
            skipped=False,
        )
    ms = (time.perf_counter() - t0) * 1000.0
    sections = [] if result.refused else list(result.sections)[: cfg.k]
    log = RetrievalLog(
        query=query,
        query_source=query_source or "question",
        k=cfg.k,
        ids=[s.id for s in sections],
        scores=[round(float(s.score), 6) for s in sections],
        refused=bool(result.refused),
        best_score=float(result.best_score),
        ms=ms,
        skipped=False,
    )
    return sections, log
