"""What the app runs on: settings, and the hooks through which tests inject their own models.

:class:`Services` is built once per app. ``context_overrides(graph, tenant)`` returns extra
keyword arguments for a graph's runtime context (e.g. ``{"models": {...}}`` of scripted fake
models); production leaves it None and every graph takes its models from the settings.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from disputatio.settings import Settings, get_settings

#: Protocol name of POST /debate/start → graph module under ``disputatio.graphs``.
PROTOCOL_GRAPHS: dict[str, str] = {
    "hierarchical": "debate",
    "medrag": "medrag_debate",
    "referee": "referee",
    "rdc": "rdc",
}

ContextOverrides = Callable[[str, str], dict[str, Any]]


@dataclass
class Services:
    """Settings and injection hooks of one app.

    Attributes:
        settings: Settings in force (default: the process settings).
        context_overrides: ``(graph, tenant) -> kwargs`` merged into each graph's context.
        ingest_context: Context object of the ingestion graph (default: from settings).
        resume_on_startup: Resume debates and jobs a dead server left unfinished (at startup,
            and debates whose lease expires while this server runs).
    """

    settings: Settings = field(default_factory=get_settings)
    context_overrides: ContextOverrides | None = None
    ingest_context: Any = None
    resume_on_startup: bool = True

    def context(self, graph: str, tenant: str) -> Any:
        """The runtime context of ``graph`` for ``tenant`` (overrides applied)."""
        kwargs: dict[str, Any] = {"tenant": tenant, "settings": self.settings}
        if graph == "rag":
            from disputatio.nodes.rag.context import RagContext as cls
        elif graph == "debate":
            from disputatio.nodes.debate.context import DebateContext as cls  # type: ignore[assignment]
        elif graph == "medrag_debate":
            from disputatio.nodes.medrag.context import MedragContext as cls  # type: ignore[assignment]
        elif graph == "referee":
            from disputatio.nodes.referee.context import RefereeContext as cls  # type: ignore[assignment]
        elif graph == "rdc":
            from disputatio.nodes.rdc.context import RdcContext as cls  # type: ignore[assignment]
            from disputatio.storage.ledger import PostgresLedger

            kwargs["ledger"] = PostgresLedger(self.settings)
        else:
            raise ValueError(f"no context for graph {graph!r}")
        if self.context_overrides is not None:
            kwargs.update(self.context_overrides(graph, tenant))
        kwargs["tenant"] = tenant  # never overridden
        return cls(**kwargs)

    @property
    def injected_models(self) -> bool:
        """Whether the chat models are injected (tests) rather than built from settings."""
        return self.context_overrides is not None
