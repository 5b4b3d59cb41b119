"""Running a funnel's channels: one under its deadline, or all of them in threads.

Split from :mod:`disputatio.retrievers.funnel` (which re-exports :class:`ChannelDeadlineError`,
:func:`run_channel` and :func:`run_channel_with_deadline`): the ``rag`` graph runs each channel
as a node with :func:`run_channel_with_deadline`; :func:`~disputatio.retrievers.funnel.run_funnel`
runs them all with :func:`run_channels`. A failing or late channel is logged, dropped and
recorded in the trace; the others go on.
"""

from __future__ import annotations

import logging
import time
from concurrent.futures import Future, ThreadPoolExecutor, wait
from typing import TYPE_CHECKING, Any

from langchain_core.embeddings import Embeddings

from disputatio.errors import RetrievalError
from disputatio.retrievers.base import RetrievalFilters
from disputatio.retrievers.channels import ChannelQuery
from disputatio.retrievers.plan import QueryPlan
from disputatio.state.retrieval import RetrievalTrace

if TYPE_CHECKING:
    from disputatio.retrievers.funnel import FunnelBackend, FunnelConfig

#: The funnel's logger: channel failures are logged under its name, as before the split.
logger = logging.getLogger("disputatio.retrievers.funnel")


class ChannelDeadlineError(RetrievalError):
    """A channel did not answer within its deadline (it is dropped from the fusion)."""


def run_channel(
    name: str,
    backend: FunnelBackend,
    plan: QueryPlan,
    embeddings: Embeddings,
    filters: RetrievalFilters,
    cfg: FunnelConfig,
) -> list[tuple[str, float]]:
    """Run the channel ``name`` of ``cfg`` (its query, with its ``k``).

    Raises:
        ValueError: When ``cfg`` has no such channel.
    """
    spec = cfg.channels.get(name)
    if spec is None:
        raise ValueError(f"unknown channel {name!r} (channels: {', '.join(cfg.channels)})")
    return spec.run(backend, ChannelQuery(plan, embeddings, filters, spec.k, cfg))


def run_channel_with_deadline(
    name: str,
    backend: FunnelBackend,
    plan: QueryPlan,
    embeddings: Embeddings,
    filters: RetrievalFilters,
    cfg: FunnelConfig,
) -> list[tuple[str, float]]:
    """:func:`run_channel`, abandoned after ``cfg.channel_timeout_s``.

    Raises:
        ChannelDeadlineError: When the channel has not answered in time.
    """
    if cfg.channel_timeout_s is None:
        return run_channel(name, backend, plan, embeddings, filters, cfg)
    pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"channel-{name}")
    future = pool.submit(run_channel, name, backend, plan, embeddings, filters, cfg)
    try:
        done, _ = wait([future], timeout=cfg.channel_timeout_s)
    finally:
        pool.shutdown(wait=False, cancel_futures=True)
    if not done:
        raise ChannelDeadlineError(
            f"deadline: no answer within {cfg.channel_timeout_s * 1000:.0f} ms"
        )
    return future.result()


def run_channels(
    query: str,
    backend: FunnelBackend,
    plan: QueryPlan,
    embeddings: Embeddings,
    filters: RetrievalFilters,
    cfg: FunnelConfig,
    trace: RetrievalTrace,
) -> dict[str, list[tuple[str, float]]]:
    """Run the active channels of ``cfg`` in threads, all under ``cfg.channel_timeout_s``.

    A channel that fails or misses the deadline is logged, left out and recorded in ``trace``
    (``failed_channels``, ``timings_ms``); the others' hits come back in channel order.
    """

    def timed(name: str) -> tuple[str, list[tuple[str, float]] | Exception, float]:
        # elapsed is taken here, in the worker: pool.map hands results back in channel order,
        # so timing at hand-back would charge a fast channel with a slower one's time
        t0 = time.perf_counter()
        try:
            got: list[tuple[str, float]] | Exception = run_channel(
                name, backend, plan, embeddings, filters, cfg
            )
        except Exception as exc:  # recorded in the trace; the funnel goes on without it
            got = exc
        return name, got, (time.perf_counter() - t0) * 1000

    hits: dict[str, list[tuple[str, float]]] = {}
    active = cfg.active_channels
    if not active:
        return hits
    pool = ThreadPoolExecutor(max_workers=len(active), thread_name_prefix="channel")
    futures: dict[Future[Any], str] = {pool.submit(timed, name): name for name in active}
    try:
        done, late = wait(futures, timeout=cfg.channel_timeout_s)
    finally:
        # never wait for a late channel: its statement_timeout ends it on the database side
        pool.shutdown(wait=False, cancel_futures=True)
    for future in late:
        name = futures[future]
        limit_ms = (cfg.channel_timeout_s or 0) * 1000
        logger.warning("channel %s missed its %.0f ms deadline for %r", name, limit_ms, query)
        trace.failed_channels[name] = f"deadline: no answer within {limit_ms:.0f} ms"
        trace.timings_ms[name] = limit_ms
    for future in done:
        name, got, elapsed_ms = future.result()
        trace.timings_ms[name] = elapsed_ms
        if isinstance(got, Exception):
            logger.warning("channel %s failed for %r: %s", name, query, got)
            trace.failed_channels[name] = f"{type(got).__name__}: {got}".splitlines()[0]
            continue
        hits[name] = got
        trace.channels[name] = len(got)
    trace.channels_used = [c for c in active if c in hits]
    # `done` is a set: hand the hits back in channel order, so fusion's tie order (first seen)
    # does not depend on which thread finished first
    return {c: hits[c] for c in trace.channels_used}
