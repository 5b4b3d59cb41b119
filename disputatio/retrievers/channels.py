"""Retrieval channels as data: each is a :class:`ChannelSpec` (its query, its depth, its weight).

A channel asks its backend one question and answers ``(child_id, score)`` best first. The funnel
runs every channel of its :class:`~disputatio.retrievers.funnel.FunnelConfig` whose weight is
above 0 (in parallel, each under the deadline) and fuses their rankings; it knows no channel by
name. Adding a channel is one spec plus its backend query::

    def titles(backend, q: ChannelQuery) -> list[tuple[str, float]]:
        return backend.titles(q.plan.keywords, q.filters, q.k)  # the backend's new query

    config = FunnelConfig.from_settings(
        settings, channels={**BUILTIN_CHANNELS, "title": ChannelSpec(titles, k=20, weight=0.3)}
    )

Settings tune any channel by name (``[retrieval] channels = {title = {weight = 0.5}}``, see
:class:`~disputatio.settings.RetrievalSettings`); a weight of 0 turns it off. A name the funnel
being built has no channel for is refused (:class:`~disputatio.errors.ConfigError`): a typo
must not leave a channel at its default unnoticed.

The built-in channels (:data:`BUILTIN_CHANNELS`) and their backend queries:

* ``lexical``: BM25 over the planner's keywords (``backend.lexical``);
* ``semantic``: cosine over child embeddings of the embedded ``semantic_query``
  (``backend.semantic``);
* ``graph``: the entity graph from the planner's seeds, ``config.graph_hops`` hops
  (``backend.graph``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Protocol

from langchain_core.embeddings import Embeddings

from disputatio.errors import ConfigError
from disputatio.retrievers.base import RetrievalFilters
from disputatio.retrievers.plan import QueryPlan
from disputatio.retrievers.relevance import query_vector

if TYPE_CHECKING:
    from disputatio.retrievers.funnel import FunnelBackend, FunnelConfig


@dataclass(frozen=True)
class ChannelQuery:
    """What one channel is asked.

    Attributes:
        plan: The query plan (keywords, semantic query, graph seeds).
        embeddings: The embedding model of the funnel (for channels that embed the query).
        filters: Tenant/collection/tag scope; every channel must honour it.
        k: Candidates wanted (the channel's ``k``).
        config: The whole funnel config, for a channel's own knobs (``graph_hops``).
    """

    plan: QueryPlan
    embeddings: Embeddings
    filters: RetrievalFilters
    k: int
    config: FunnelConfig


#: A channel's query: ``(backend, query) -> [(child_id, score), ...]`` best first.
ChannelRun = Callable[[Any, ChannelQuery], list[tuple[str, float]]]


@dataclass(frozen=True)
class ChannelSpec:
    """One retrieval channel.

    Attributes:
        run: Its query (:data:`ChannelRun`), usually one call of a backend method.
        k: Candidates it returns.
        weight: Its fusion weight (0: the channel is not run).
        embeds_query: It embeds ``plan.semantic_query`` (the funnel then embeds it before the
            channels start, so a cold model load does not count against the deadline).
    """

    run: ChannelRun
    k: int
    weight: float
    embeds_query: bool = False


class ChannelKnobs(Protocol):
    """Settings of one channel (``RetrievalSettings.channels[name]``); None = the spec's."""

    @property
    def k(self) -> int | None:
        """Candidates the channel returns."""
        ...

    @property
    def weight(self) -> float | None:
        """Fusion weight."""
        ...


@dataclass(frozen=True)
class ChannelKnobValues:
    """A channel's ``k`` and weight given in code (:class:`ChannelKnobs`); None = the spec's."""

    k: int | None = None
    weight: float | None = None


def lexical(backend: FunnelBackend, q: ChannelQuery) -> list[tuple[str, float]]:
    """BM25 over the planner's keywords."""
    return backend.lexical(q.plan.keywords, q.filters, q.k)


def semantic(backend: FunnelBackend, q: ChannelQuery) -> list[tuple[str, float]]:
    """Nearest children of the embedded semantic query."""
    return backend.semantic(query_vector(q.embeddings, q.plan.semantic_query), q.filters, q.k)


def graph(backend: FunnelBackend, q: ChannelQuery) -> list[tuple[str, float]]:
    """Children naming the planner's seed entities or their neighbours."""
    return backend.graph(q.plan.graph_seeds, q.filters, q.k, q.config.graph_hops)


#: The channels of every funnel, in fusion order, with the settings' defaults (the graph
#: channel is off unless weighted).
BUILTIN_CHANNELS: Mapping[str, ChannelSpec] = MappingProxyType(
    {
        "lexical": ChannelSpec(lexical, k=100, weight=0.45),
        "semantic": ChannelSpec(semantic, k=100, weight=0.55, embeds_query=True),
        "graph": ChannelSpec(graph, k=50, weight=0.0),
    }
)


def configured(
    specs: Mapping[str, ChannelSpec],
    knobs: Mapping[str, ChannelKnobs],
    where: str = "retrieval.channels",
) -> dict[str, ChannelSpec]:
    """``specs`` with the settings' ``k`` and ``weight`` of each channel applied.

    Args:
        specs: The funnel's channels.
        knobs: ``RetrievalSettings.channels``: name → ``k``/``weight`` (None: the spec's).
        where: Where ``knobs`` come from, for the error.

    Returns:
        The channels, in the order of ``specs``.

    Raises:
        ConfigError: If ``knobs`` names a channel ``specs`` lacks (a typo, or a channel of
            another funnel), naming it and the channels there are.
    """
    unknown = sorted(set(knobs) - set(specs))
    if unknown:
        raise ConfigError(
            f"{where} names {', '.join(map(repr, unknown))}, which this funnel has no"
            f" channel for; its channels: {', '.join(specs)}"
        )
    out: dict[str, ChannelSpec] = {}
    for name, spec in specs.items():
        knob = knobs.get(name)
        if knob is not None:
            spec = replace(
                spec,
                k=spec.k if knob.k is None else knob.k,
                weight=spec.weight if knob.weight is None else knob.weight,
            )
        out[name] = spec
    return out
