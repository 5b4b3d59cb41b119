"""LangChain adapter: any ``CorpusRetriever`` as a LangChain ``BaseRetriever``.

::

    retriever = FunnelRetriever(retriever=InMemoryFunnel.from_paths(["notes/"]), k=4)
    docs = retriever.invoke("Who founded the Radium Institute?")

Each returned ``Document`` is one parent section: ``page_content`` is the section text,
``id`` the section id, and ``metadata`` holds ``id``, ``document_id``, ``source``, ``title``,
``page``, ``heading_path``, ``score`` (rerank score) and ``channels`` (which channels found it).

Refusals: when the funnel refuses (best rerank score below the threshold), the retriever
returns an empty list — the LangChain contract for "nothing relevant" — and reports the refusal
as a custom callback event named :data:`REFUSAL_EVENT` (data: ``query``, ``best_score``,
``threshold``, ``marker`` = ``NO_SUITABLE_CONTEXT``), visible to callback handlers and in
``astream_events``. With ``refusal_document=True`` it returns one marker ``Document`` instead
(``page_content`` = ``NO_SUITABLE_CONTEXT``, ``metadata["refused"] = True`` with the scores), for
chains that must show the refusal to the model. Async calls run ``search`` in an executor
(LangChain's default).

Search arguments given at invoke time win over the retriever's fields for that call, as
LangChain's ``BaseRetriever`` passes them on (``invoke(query, config, **kwargs)`` →
``_get_relevant_documents(query, run_manager=..., **kwargs)``)::

    retriever.invoke("Who founded the Radium Institute?", k=1)
    retriever.invoke("...", filters=RetrievalFilters(tenant="acme", collections=("papers",)))

They are :data:`SEARCH_KWARGS` (``k``, ``threshold``, ``filters``); another keyword is a
``TypeError``.
"""

from __future__ import annotations

import logging
from typing import Any

from langchain_core.callbacks import (
    AsyncCallbackManagerForRetrieverRun,
    CallbackManagerForRetrieverRun,
)
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever
from langchain_core.runnables.config import run_in_executor
from pydantic import ConfigDict

from disputatio.retrievers.base import RetrievalFilters
from disputatio.state.retrieval import NO_SUITABLE_CONTEXT, RetrievalResult, Section

logger = logging.getLogger(__name__)

REFUSAL_EVENT = "disputatio_retrieval_refused"
"""Name of the custom callback event a refusal dispatches."""

SEARCH_KWARGS = ("k", "threshold", "filters")
"""Keywords ``invoke``/``ainvoke`` take for one search (they win over the fields)."""


def section_to_document(section: Section) -> Document:
    """One parent section as a LangChain ``Document``."""
    metadata = {
        "id": section.id,
        "document_id": section.document_id,
        "source": section.source,
        "title": section.title,
        "page": section.page,
        "heading_path": list(section.heading_path),
        "score": section.score,
        "channels": list(section.channels),
    }
    return Document(page_content=section.text, metadata=metadata, id=section.id)


def refusal_data(result: RetrievalResult) -> dict[str, Any]:
    """What a refusal reports: the query, the best score, the threshold and the marker."""
    return {
        "query": result.query,
        "best_score": result.best_score,
        "threshold": result.threshold,
        "marker": NO_SUITABLE_CONTEXT,
    }


class FunnelRetriever(BaseRetriever):
    """A LangChain retriever over any ``CorpusRetriever`` (Postgres or in-process funnel).

    ``k``, ``threshold`` and ``filters`` given to ``invoke``/``ainvoke``/``batch`` win over these
    fields for that call.

    Attributes:
        retriever: The wrapped ``CorpusRetriever``.
        k: Sections wanted (None = the retriever's setting).
        threshold: Refusal threshold (None = the retriever's setting).
        filters: Tenant/collection/tag scope (None = the retriever's default scope).
        refusal_document: Return a ``NO_SUITABLE_CONTEXT`` marker document on refusal instead
            of an empty list.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    retriever: Any
    k: int | None = None
    threshold: float | None = None
    filters: RetrievalFilters | None = None
    refusal_document: bool = False

    def _search_args(self, kwargs: dict[str, Any]) -> dict[str, Any]:
        """The fields as search arguments, with the invoke-time ``kwargs`` over them."""
        kwargs.pop("verbose", None)  # LangChain's own option, passed on with the others
        unknown = sorted(set(kwargs) - set(SEARCH_KWARGS))
        if unknown:
            raise TypeError(
                f"FunnelRetriever: unexpected search argument(s) {', '.join(unknown)}"
                f" (it takes {', '.join(SEARCH_KWARGS)})"
            )
        args: dict[str, Any] = {"k": self.k, "threshold": self.threshold, "filters": self.filters}
        return {**args, **kwargs}

    def _get_relevant_documents(
        self, query: str, *, run_manager: CallbackManagerForRetrieverRun, **kwargs: Any
    ) -> list[Document]:
        result: RetrievalResult = self.retriever.search(query, **self._search_args(kwargs))
        if not result.refused:
            return [section_to_document(s) for s in result.sections]
        data = refusal_data(result)
        logger.info("retrieval refused for %r (best %.3f)", query, result.best_score)
        run_manager.get_child().on_custom_event(REFUSAL_EVENT, data, run_id=run_manager.run_id)
        if self.refusal_document:
            return [Document(page_content=NO_SUITABLE_CONTEXT, metadata={"refused": True, **data})]
        return []

    async def _aget_relevant_documents(
        self, query: str, *, run_manager: AsyncCallbackManagerForRetrieverRun, **kwargs: Any
    ) -> list[Document]:
        # LangChain's default drops the invoke-time kwargs on the way to the executor
        return await run_in_executor(
            None,
            self._get_relevant_documents,
            query,
            run_manager=run_manager.get_sync(),
            **kwargs,
        )
