"""``language`` of POST /query and POST /ingest: the lexical channel stems the query with that
language's text-search configuration; an unknown language is a 422 naming the field."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from disputatio.api import store
from disputatio.retrievers import pg_channels
from disputatio.retrievers.base import RetrievalFilters
from disputatio.retrievers.languages import TEXT_SEARCH_CONFIGS, known_languages, text_search_config
from disputatio.retrievers.postgres import PostgresBackend

from .conftest import TENANT_A, LiveServer, wait_job

pytestmark = pytest.mark.integration

SPANISH = (
    "# Brucelosis en el ganado {marker}\n\n"
    "La vacunación del ganado caprino es la medida de control más eficaz contra la brucelosis. "
    "Las cabras vacunadas transmiten menos la infección a los pastores.\n"
)


@pytest.fixture(scope="module")
def spanish_doc(live: LiveServer) -> str:
    """A Spanish document of tenant A (declared ``es``) alone in collection ``lang-es``."""
    text = SPANISH.format(marker=uuid.uuid4().hex)
    with live.client() as client:
        resp = client.post(
            "/ingest",
            files={"file": ("brucelosis-es.md", text.encode())},
            data={"language": "es", "metadata": '{"collection": "lang-es"}'},
        )
        assert resp.status_code == 202, resp.text
        job = wait_job(client, resp.json()["ingestion_job_id"])
    assert job["status"] == "succeeded", job
    return str(job["document_id"])


def _lexical_documents(live: LiveServer, language: str | None) -> set[str]:
    scope = RetrievalFilters(tenant=TENANT_A, collections=("lang-es",), language=language)
    hits = PostgresBackend(live.settings).lexical(["cabra"], scope, 10)
    with store.db(live.settings) as conn:
        rows = conn.execute(
            "SELECT DISTINCT document_id::text AS d FROM child_chunks WHERE id = ANY(%s)",
            ([cid for cid, _ in hits],),
        ).fetchall()
    return {r["d"] for r in rows}


def test_the_query_language_picks_the_lexical_channels_stemmer(
    live: LiveServer, spanish_doc: str
) -> None:
    # "cabra" meets the document's "cabras" only through the Spanish stemmer (both "cabr"); the
    # English one and "simple" keep "cabra", a term the document's postings do not have
    assert _lexical_documents(live, "es") == {spanish_doc}
    assert _lexical_documents(live, "spanish") == {spanish_doc}
    assert _lexical_documents(live, "en") == set()
    assert _lexical_documents(live, "simple") == set()
    assert _lexical_documents(live, None) == {spanish_doc}  # every language the tenant uses


def test_query_passes_its_language_to_the_lexical_channel(
    live: LiveServer, spanish_doc: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[str | None] = []
    real = pg_channels.lexical

    def spy(conn: Any, keywords: Any, filters: RetrievalFilters, k: int, **kw: Any) -> Any:
        seen.append(filters.language)
        return real(conn, keywords, filters, k, **kw)

    monkeypatch.setattr(pg_channels, "lexical", spy)
    scope = {"collections": ["lang-es"]}
    with live.client() as client:
        for language in ("es", None):
            body: dict[str, Any] = {"query": "vacunaciones de cabras", "filters": scope}
            if language:
                body["language"] = language
            resp = client.post("/query", json=body)
            assert resp.status_code == 200, resp.text
    assert seen == ["es", None]


@pytest.mark.parametrize("route", ["/query", "/ingest"])
def test_an_unknown_language_is_refused_naming_the_field(live: LiveServer, route: str) -> None:
    body = {"query": "q", "language": "klingon"} if route == "/query" else {
        "url": "https://example.org/a.txt", "language": "klingon"}  # fmt: skip
    with live.client() as client:
        resp = client.post(route, json=body)
    assert resp.status_code == 422, resp.text
    err = resp.json()["error"]
    assert err["field"] == "language" and "klingon" in err["message"]


def test_accepted_languages_are_those_the_index_knows(live: LiveServer) -> None:
    """The API's list mirrors ``bm25_regconfig`` (migration 0003), spelling by spelling."""
    spellings = [*known_languages(), "pt-BR", "en_GB"]
    with store.db(live.settings) as conn:
        for spelling in spellings:
            row = conn.execute("SELECT bm25_regconfig(%s)::text AS c", (spelling,)).fetchone()
            assert row is not None and row["c"] == text_search_config(spelling), spelling
    assert text_search_config("xx") is None and "en" in TEXT_SEARCH_CONFIGS
