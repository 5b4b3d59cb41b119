"""Shared fixtures.

The whole test session runs against its own ``DISPUTATIO_HOME`` (a temporary folder), so it
starts its own embedded PostgreSQL and never touches a user's data. ``DATABASE_URL`` from the
environment is honoured: then the tests run against that server instead.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings as hypothesis_settings

from disputatio.settings import Settings, get_settings, load_settings

#: The local model the end-to-end tests use (fast; the 1.5B is for people).
TEST_MODEL = "local:qwen2.5-coder-0.5b"

#: The suite's claim checker. The default ``judged`` checker asks the chat model about claims
#: in doubt, which would spend the scripted fakes' replies (and start the real model where
#: none is scripted); the tests about grounding with the real model ask for it themselves
#: (``judged_checker``). Unit tests narrow it to ``lexical`` (tests/unit/conftest.py).
SUITE_CHECKER = os.environ.setdefault("DISPUTATIO_GROUNDING__CHECKER", "hybrid")


# Property tests draw new examples on every local run (to find what no one thought of); CI
# (``.ci/run`` sets ``HYPOTHESIS_PROFILE=ci``) draws the same ones every time, so a red CI is
# a change's doing, never the luck of the draw. A failure prints how to reproduce it.
hypothesis_settings.register_profile("ci", derandomize=True, print_blob=True)
hypothesis_settings.register_profile("dev", print_blob=True)
hypothesis_settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


@pytest.fixture
def judged_checker(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Run one test with the default ``judged`` claim checker (real chat model as the judge)."""
    monkeypatch.setenv("DISPUTATIO_GROUNDING__CHECKER", "judged")
    get_settings.cache_clear()
    yield
    monkeypatch.undo()
    get_settings.cache_clear()


@pytest.fixture(scope="session")
def test_home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A private DISPUTATIO_HOME for the session; its embedded server is stopped at the end."""
    home = tmp_path_factory.mktemp("disputatio-home")
    old = os.environ.get("DISPUTATIO_HOME")
    os.environ["DISPUTATIO_HOME"] = str(home)
    os.environ.setdefault("DISPUTATIO_MODELS__CHAT", TEST_MODEL)
    get_settings.cache_clear()
    yield home
    from disputatio.storage.db import close_pools
    from disputatio.storage.server import EmbeddedPostgres

    close_pools()
    EmbeddedPostgres(home).stop()
    if old is None:
        os.environ.pop("DISPUTATIO_HOME", None)
    else:
        os.environ["DISPUTATIO_HOME"] = old
    get_settings.cache_clear()


@pytest.fixture(scope="session")
def settings(test_home: Path) -> Settings:
    """Settings of the test session (its own home, the small local model)."""
    return load_settings(
        home=test_home, models={"chat": TEST_MODEL}, grounding={"checker": SUITE_CHECKER}
    )


@pytest.fixture(scope="session")
def db_url(settings: Settings) -> str:
    """URL of the migrated test database (starts the embedded server on first use)."""
    from disputatio.storage.db import database_url

    return database_url(settings)


#: The sample corpus shipped with the package (ingested once per session for e2e tests).
SAMPLE_CORPUS = Path(__file__).resolve().parents[1] / "disputatio" / "data" / "sample_corpus"
SAMPLE_TENANT = "sample"


@pytest.fixture(scope="session")
def ingested_sample(settings: Settings, db_url: str) -> dict[str, object]:
    """The sample corpus ingested into the real Postgres with real embeddings and spaCy."""
    from disputatio.graphs.ingest import graph
    from disputatio.nodes.ingest.context import IngestContext

    result = graph.invoke(
        {"paths": [str(SAMPLE_CORPUS)], "tenant": SAMPLE_TENANT},
        context=IngestContext(settings=settings),
    )
    assert result["summary"]["failed"] == 0, result["results"]
    return dict(result["summary"])


@pytest.fixture(scope="session")
def corpus_retriever(settings: Settings, ingested_sample: dict[str, object]):  # type: ignore[no-untyped-def]
    """A CorpusRetriever (the Postgres funnel) over the ingested sample corpus."""
    from disputatio.retrievers.base import RetrievalFilters
    from disputatio.retrievers.postgres import PostgresFunnel

    return PostgresFunnel(settings, default_filters=RetrievalFilters(tenant=SAMPLE_TENANT))
