"""A fake Neo4j driver that records statements, for the Neo4j graph store's tests."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

#: One transaction's statements: ``(query, parameters)`` in order.
Log = list[tuple[str, dict[str, Any]]]


class FakeResult:
    """Records to iterate over; ``consume`` does nothing."""

    def __init__(self, records: list[dict[str, Any]]) -> None:
        self.records = records

    def __iter__(self) -> Any:
        return iter(self.records)

    def consume(self) -> None:
        return None


class FakeTx:
    """A transaction: logs each statement and answers the driver's canned rows."""

    def __init__(self, log: Log, rows: list[dict[str, Any]]) -> None:
        self.log = log
        self.rows = rows

    def run(self, query: str, parameters: dict[str, Any] | None = None) -> FakeResult:
        self.log.append((query, dict(parameters or {})))
        return FakeResult(self.rows)


class FakeSession:
    """A session: auto-commit statements go to ``driver.auto``, transactions to its log."""

    def __init__(self, driver: FakeDriver) -> None:
        self.driver = driver

    def __enter__(self) -> FakeSession:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def run(self, query: str, parameters: dict[str, Any] | None = None) -> FakeResult:
        self.driver.auto.append(query)
        return FakeResult([])

    def _tx(self, kind: str, fn: Callable[..., Any], *args: Any) -> Any:
        log: Log = []
        self.driver.transactions.append((kind, log))
        return fn(FakeTx(log, self.driver.rows), *args)

    def execute_write(self, fn: Callable[..., Any], *args: Any) -> Any:
        return self._tx("write", fn, *args)

    def execute_read(self, fn: Callable[..., Any], *args: Any) -> Any:
        return self._tx("read", fn, *args)


class FakeDriver:
    """Records the databases asked for, auto-commit statements and each transaction's log.

    Args:
        rows: What every statement run in a transaction returns.
    """

    def __init__(self, rows: list[dict[str, Any]] | None = None) -> None:
        self.rows = rows or []
        self.databases: list[str | None] = []
        self.auto: list[str] = []
        self.transactions: list[tuple[str, Log]] = []
        self.closed = False

    def session(self, database: str | None = None) -> FakeSession:
        self.databases.append(database)
        return FakeSession(self)

    def close(self) -> None:
        self.closed = True
