"""One code path to the database: ``DATABASE_URL`` when set, the embedded server otherwise.

:func:`database_url` resolves the URL (starting the embedded server on demand and creating the
``disputatio`` database in it), :func:`connect` lends a connection with pgvector types registered
from the process-wide pool of that URL, and :func:`get_pool` returns that pool. All of them apply
pending migrations first, so callers never see a database without the schema.

Resolution is done once per process and database: the resolved URL is cached, so a later
:func:`connect` neither takes a lock nor opens an admin connection nor re-checks migrations (it
borrows a pooled connection). :func:`forget` or :func:`close_pools` drop the cache (e.g. after
the embedded server was restarted on another port).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import psycopg
from psycopg_pool import ConnectionPool

from disputatio.errors import DatabaseError
from disputatio.settings import Settings, get_settings
from disputatio.storage.server import EmbeddedPostgres

logger = logging.getLogger(__name__)

_lock = threading.RLock()
_ready: set[str] = set()
_pools: dict[str, ConnectionPool[Any]] = {}
_resolved: dict[tuple[str, ...], str] = {}


def _cache_key(settings: Settings) -> tuple[str, ...]:
    if settings.database_url:
        return ("url", settings.database_url)
    home = str(settings.home.expanduser().resolve())
    return ("embedded", home, str(settings.database.port), settings.database.database)


def redact(url: str) -> str:
    """Return ``url`` with any password replaced by ``***`` (for messages and logs)."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@")
    return urlunsplit(parts._replace(netloc=netloc))


def embedded_server(settings: Settings | None = None) -> EmbeddedPostgres:
    """Return the embedded server handle of ``settings.home``."""
    settings = settings or get_settings()
    return EmbeddedPostgres(settings.home, port=settings.database.port)


def _ensure_database(admin_url: str, name: str) -> None:
    with psycopg.connect(admin_url, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone()
        if not exists:
            # another process may create it first
            with suppress(psycopg.errors.DuplicateDatabase, psycopg.errors.UniqueViolation):
                conn.execute(f'CREATE DATABASE "{name}"')


def database_url(settings: Settings | None = None, *, migrate: bool = True) -> str:
    """Resolve the database URL, starting the embedded server if needed.

    Args:
        settings: Settings to use (default: process settings).
        migrate: Apply pending migrations before returning.

    Returns:
        A libpq connection URL.

    Raises:
        DatabaseError: If the database cannot be reached, started or migrated.
    """
    settings = settings or get_settings()
    key = _cache_key(settings)
    cached = _resolved.get(key)
    if cached is not None and (not migrate or cached in _ready):
        return cached  # resolved (and migrated) earlier in this process: no lock, no I/O
    if settings.database_url:
        url = settings.database_url
    else:
        with _lock:
            server = embedded_server(settings)
            server.start(options=server_options(settings))
            _ensure_database(server.url("postgres"), settings.database.database)
            url = server.url(settings.database.database)
    _resolved[key] = url
    if migrate and url not in _ready:
        with _lock:
            if url not in _ready:
                from disputatio.storage.migrate import migrate as apply_migrations

                with open_connection(url, settings) as conn:
                    apply_migrations(conn, embedding_dim=settings.models.embedding_dim)
                _ready.add(url)
    return url


def open_connection(url: str, settings: Settings, **kwargs: Any) -> psycopg.Connection[Any]:
    """Connect to ``url`` as is (no migration), turning failures into :class:`DatabaseError`.

    Raises:
        DatabaseError: With a one-line reason and the password redacted.
    """
    try:
        return psycopg.connect(url, connect_timeout=settings.database.connect_timeout_s, **kwargs)
    except psycopg.OperationalError as exc:
        lines = [ln.strip() for ln in str(exc).splitlines() if ln.strip()]
        reason = lines[0].rsplit(" failed: ", 1)[-1] if lines else type(exc).__name__
        raise DatabaseError(f"cannot connect to {redact(url)}: {reason}") from exc


def server_options(settings: Settings) -> dict[str, str]:
    """PostgreSQL settings the embedded server is started with (``DatabaseSettings``)."""
    cfg = settings.database
    options = {
        "shared_buffers": cfg.shared_buffers,
        "work_mem": cfg.work_mem,
        "maintenance_work_mem": cfg.maintenance_work_mem,
        "effective_cache_size": cfg.effective_cache_size,
        "max_wal_size": cfg.max_wal_size,
    }
    options.update(cfg.server_options)
    return {k: str(v) for k, v in options.items() if str(v)}


def forget(settings: Settings | None = None) -> None:
    """Drop the cached URL of ``settings`` (the next call resolves it again)."""
    _resolved.pop(_cache_key(settings or get_settings()), None)


def _configure(conn: psycopg.Connection[Any]) -> None:
    from pgvector.psycopg import register_vector

    register_vector(conn)


def _reset(conn: psycopg.Connection[Any]) -> None:
    """Hand a returned connection to the next borrower in the default state."""
    if conn.autocommit:
        conn.autocommit = False


@contextmanager
def connect(settings: Settings | None = None, **kwargs: Any) -> Iterator[psycopg.Connection[Any]]:
    """Lend a connection to the (migrated) database with pgvector types registered.

    Without ``kwargs`` the connection comes from the process-wide pool (returned afterwards,
    with ``autocommit`` reset); with ``kwargs`` (``psycopg.connect`` options) a dedicated
    connection is opened and closed. Either way it commits when the block exits without error
    and rolls back otherwise.

    Raises:
        DatabaseError: If the database cannot be reached.
    """
    settings = settings or get_settings()
    if kwargs:
        url = database_url(settings)
        with open_connection(url, settings, **kwargs) as conn:
            _configure(conn)
            yield conn
        return
    pool = get_pool(settings)
    with pool.connection() as conn:
        yield conn


def get_pool(settings: Settings | None = None) -> ConnectionPool[Any]:
    """Return the process-wide connection pool of the configured database."""
    settings = settings or get_settings()
    url = database_url(settings)
    pool = _pools.get(url)
    if pool is not None:
        return pool
    with _lock:
        pool = _pools.get(url)
        if pool is None:
            # fail fast with a one-line error when the database is unreachable
            open_connection(url, settings).close()
            pool = ConnectionPool(
                url,
                min_size=1,
                max_size=settings.database.pool_max_size,
                kwargs={"connect_timeout": settings.database.connect_timeout_s},
                configure=_configure,
                reset=_reset,
                open=True,
                name="disputatio",
            )
            _pools[url] = pool
    return pool


def close_pools() -> None:
    """Close every pool opened by :func:`get_pool` (tests and shutdown)."""
    with _lock:
        for pool in _pools.values():
            pool.close()
        _pools.clear()
        _ready.clear()
        _resolved.clear()
