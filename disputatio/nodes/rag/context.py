"""Run context of the funnel graph, and the one place a run's search scope is resolved."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from disputatio.nodes.context import AgentContext
from disputatio.retrievers.base import RetrievalFilters, in_scope


@dataclass
class RagContext(AgentContext):
    """Context of ``graphs/rag``.

    ``retriever`` must be a funnel (``PostgresFunnel`` or ``InMemoryFunnel``): the graph runs its
    stages one node at a time through ``backend``, ``embeddings``, ``reranker``, ``config`` and
    ``plan``. Default: the Postgres funnel of the settings.

    ``tenant`` is resolved once, at the edge that starts the run: the API key's tenant (``POST
    /query`` through ``Services.context``; the auth handler of the LangGraph routes, which
    drops a ``tenant`` from the run's input), the CLI's ``--tenant``. Left None, the funnel's
    default scope decides (its tenant was resolved with ``Settings.run_tenant`` when it was
    built). The graph's state carries no tenant: :meth:`retrieval_filters` turns the context
    and the run's input into the scope.

    Attributes:
        answer: Call the answerer after retrieval (False = retrieval only).
    """

    answer: bool = True

    def funnel(self) -> Any:
        """The funnel object (see the class docstring)."""
        funnel = self.get_retriever()
        for attr in ("backend", "embeddings", "reranker", "config", "plan"):
            if not hasattr(funnel, attr):
                raise TypeError(f"the rag graph needs a funnel retriever; {funnel!r} has no {attr}")
        return funnel

    def retrieval_filters(self, inputs: Mapping[str, Any] | None = None) -> RetrievalFilters:
        """The scope every channel of this run searches: the only place the graph resolves it.

        Each field comes from the first of these that gives it:

        * ``tenant``: the context's (set at the edge), the funnel's default scope
          (:func:`~disputatio.retrievers.base.in_scope`). The run's input names none.
        * ``collections``: the input's, the context's ``collection``, the funnel's.
        * ``tags`` and ``language``: the input's, the funnel's.

        Args:
            inputs: The run's input (``RagInput`` keys); None = the context alone.

        Raises:
            ValueError: When nothing names a tenant (a funnel without a default scope): the
                channels never search every tenant.
        """
        inputs = inputs or {}
        base = getattr(self.funnel(), "default_filters", None) or RetrievalFilters()
        wanted = inputs.get("collections") or ([self.collection] if self.collection else [])
        scope = in_scope(
            RetrievalFilters(
                tenant=self.tenant or None,
                collections=tuple(wanted) if wanted else base.collections,
                tags=tuple(inputs.get("tags") or ()) or base.tags,
                language=inputs.get("language") or base.language,
            ),
            base,
        )
        if not scope.tenant:
            raise ValueError("no tenant to search: give the context one (the funnel has none)")
        return scope
