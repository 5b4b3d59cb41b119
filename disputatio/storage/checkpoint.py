"""LangGraph checkpoints and the long-term store in the same Postgres.

Use :func:`open_checkpointer` (sync; :func:`optional_checkpointer` where checkpoints are a
choice) or :func:`open_async_checkpointer` (async) around a graph run; they set the checkpoint
tables up on first use. A crashed run resumes by invoking the graph again with ``None`` as
input on the same ``thread_id``; :func:`unfinished` tells whether a thread's run has steps left.

:func:`open_store` yields the LangGraph long-term store (``langgraph.store.postgres
.PostgresStore``, from ``langgraph-checkpoint-postgres``) that keeps data across threads, e.g.
the RDC agents' private diaries; graphs compiled with ``store=`` reach it as ``runtime.store``.
Tests use ``langgraph.store.memory.InMemoryStore`` instead.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import Any, Protocol, TypeVar

from langgraph.checkpoint.postgres import PostgresSaver
from langgraph.checkpoint.postgres.aio import AsyncPostgresSaver
from langgraph.store.postgres import PostgresStore
from langgraph.types import StateSnapshot
from psycopg import AsyncConnection, Connection
from psycopg.rows import dict_row

from disputatio.settings import Settings, get_settings
from disputatio.storage.db import database_url, open_connection

_setup_done: set[str] = set()
_store_setup_done: set[str] = set()


def unfinished(snapshot: StateSnapshot) -> bool:
    """Whether the run on a thread has steps left (resume it with ``None`` as input).

    True when the thread's last checkpoint has tasks, run or not. ``snapshot.next`` is not this
    test: it leaves out the tasks whose writes were saved, so a process that died after every
    task of a step had finished, but before the step's checkpoint was written, leaves a thread
    whose ``next`` is empty although the run has not finished (resumed, LangGraph applies the
    saved writes and goes on).

    Args:
        snapshot: ``graph.get_state(config)`` of the thread.
    """
    return bool(snapshot.tasks)


@contextmanager
def _sync_connection(settings: Settings | None) -> Iterator[tuple[str, Connection[Any]]]:
    """A dedicated autocommit connection of the kind LangGraph's Postgres classes expect."""
    settings = settings or get_settings()
    url = database_url(settings)
    open_connection(url, settings).close()  # one-line error when unreachable
    conn: Connection[Any] = Connection.connect(
        url, autocommit=True, prepare_threshold=0, row_factory=dict_row
    )
    try:
        yield url, conn
    finally:
        conn.close()


class _SetUp(Protocol):
    def setup(self) -> None: ...


S = TypeVar("S", bound=_SetUp)


@contextmanager
def _set_up(
    make: Callable[[Connection[Any]], S], done: set[str], settings: Settings | None
) -> Iterator[S]:
    """``make`` on a :func:`_sync_connection`, its tables set up once per database (``done``)."""
    with _sync_connection(settings) as (url, conn):
        made = make(conn)
        if url not in done:
            made.setup()
            done.add(url)
        yield made


@contextmanager
def open_checkpointer(settings: Settings | None = None) -> Iterator[PostgresSaver]:
    """Yield a :class:`PostgresSaver` on the configured database."""
    with _set_up(PostgresSaver, _setup_done, settings) as saver:
        yield saver


@contextmanager
def optional_checkpointer(
    enabled: bool, settings: Settings | None = None
) -> Iterator[PostgresSaver | None]:
    """Yield :func:`open_checkpointer`'s saver when ``enabled``, else None (no database)."""
    if not enabled:
        yield None
        return
    with open_checkpointer(settings) as saver:
        yield saver


@asynccontextmanager
async def open_async_checkpointer(
    settings: Settings | None = None,
) -> AsyncIterator[AsyncPostgresSaver]:
    """Yield an :class:`AsyncPostgresSaver` on the configured database."""
    settings = settings or get_settings()
    url = database_url(settings)
    open_connection(url, settings).close()
    conn: AsyncConnection[Any] = await AsyncConnection.connect(
        url, autocommit=True, prepare_threshold=0, row_factory=dict_row
    )
    try:
        saver = AsyncPostgresSaver(conn)
        if url not in _setup_done:
            await saver.setup()
            _setup_done.add(url)
        yield saver
    finally:
        await conn.close()


@contextmanager
def open_store(settings: Settings | None = None) -> Iterator[PostgresStore]:
    """Yield a :class:`PostgresStore` on the configured database (tables set up on first use)."""
    with _set_up(PostgresStore, _store_setup_done, settings) as store:
        yield store
