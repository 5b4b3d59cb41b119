"""What the app runs on: settings, and the hooks through which tests inject their own models.

:class:`Services` is built once per app. ``context_overrides(graph, tenant)`` returns extra
keyword arguments for a graph's runtime context (e.g. ``{"models": {...}}`` of scripted fake
models); production leaves it None and every graph takes its models from the settings.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from disputatio.graphs import registry
from disputatio.settings import Settings, get_settings

ContextOverrides = Callable[[str, str], dict[str, Any]]


class InFlight:
    """Requests in flight per tenant, in this process (thread-safe)."""

    def __init__(self) -> None:
        self._active: dict[str, int] = {}
        self._lock = threading.Lock()

    def active(self, tenant: str) -> int:
        """How many of ``tenant``'s requests are in flight."""
        with self._lock:
            return self._active.get(tenant, 0)

    @contextmanager
    def hold(self, tenant: str, limit: int) -> Iterator[bool]:
        """Count one request of ``tenant`` while the block runs.

        Yields:
            Whether the request was admitted: False (and nothing counted) when ``limit`` of
            ``tenant``'s requests are in flight already.
        """
        with self._lock:
            admitted = self._active.get(tenant, 0) < limit
            if admitted:
                self._active[tenant] = self._active.get(tenant, 0) + 1
        try:
            yield admitted
        finally:
            if admitted:
                with self._lock:
                    self._active[tenant] -= 1
                    if not self._active[tenant]:
                        del self._active[tenant]


@dataclass
class Services:
    """Settings and injection hooks of one app.

    Attributes:
        settings: Settings in force (default: the process settings).
        context_overrides: ``(graph, tenant) -> kwargs`` merged into each graph's context.
        ingest_context: Context object of the ingestion graph (default: from settings).
        resume_on_startup: Let this app's embedded worker take up the tasks of dead workers
            (debates resume from their checkpoint, ingestion jobs run again).
        embedded_worker: Run queue tasks in this process (``disputatio serve``'s default;
            ``--no-worker`` only enqueues and streams, for ``disputatio worker`` processes).
        queries: ``POST /query`` requests in flight per tenant (``server.max_queries_per_tenant``).
    """

    settings: Settings = field(default_factory=get_settings)
    context_overrides: ContextOverrides | None = None
    ingest_context: Any = None
    resume_on_startup: bool = True
    embedded_worker: bool = True
    queries: InFlight = field(default_factory=InFlight)

    def context(self, graph: str, tenant: str) -> Any:
        """The runtime context of ``graph`` for ``tenant`` (overrides applied).

        The context class, and what a server adds to it (the RDC ledger), come from the graph's
        registry entry (:mod:`disputatio.graphs.registry`).

        Raises:
            ValueError: ``graph`` is not registered, or its context carries no tenant.
        """
        spec = registry.find(graph)
        cls = spec.context_class() if spec is not None and spec.tenant_context else None
        if spec is None or cls is None:
            raise ValueError(f"no context for graph {graph!r}")
        kwargs: dict[str, Any] = {"tenant": tenant, "settings": self.settings}
        if spec.server_context is not None:
            kwargs.update(spec.server_context(self.settings))
        if self.context_overrides is not None:
            kwargs.update(self.context_overrides(graph, tenant))
        kwargs["tenant"] = tenant  # never overridden
        return cls(**kwargs)

    @property
    def injected_models(self) -> bool:
        """Whether the chat models are injected (tests) rather than built from settings."""
        return self.context_overrides is not None
