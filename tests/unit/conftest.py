"""Unit tests check logic and orchestration with fakes: the claim checker there is the lexical one.

The suite's ``hybrid`` checker (tests/conftest.py) embeds with the real embedding model; the
unit tests must not load a model for it. The checker is set per test (not at import, which
would reach every test of the session).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from disputatio.settings import Settings, get_settings


@pytest.fixture(autouse=True)
def _lexical_checker(
    monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest
) -> Iterator[None]:
    monkeypatch.setenv("DISPUTATIO_GROUNDING__CHECKER", "lexical")
    if "settings" in request.fixturenames:  # the session's settings, for this test only
        settings: Settings = request.getfixturevalue("settings")
        monkeypatch.setattr(settings.grounding, "checker", "lexical")
    get_settings.cache_clear()
    yield
    monkeypatch.undo()
    get_settings.cache_clear()


@pytest.fixture
def memory_saver(monkeypatch: pytest.MonkeyPatch) -> InMemorySaver:
    """Commands checkpoint in one in-memory saver (returned) instead of Postgres."""
    saver = InMemorySaver()

    @contextlib.contextmanager
    def open_checkpointer(settings: Any = None) -> Iterator[InMemorySaver]:
        yield saver

    monkeypatch.setattr("disputatio.storage.checkpoint.open_checkpointer", open_checkpointer)
    return saver
