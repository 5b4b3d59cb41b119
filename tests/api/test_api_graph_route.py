"""``GET /debate/protocols`` and ``GET /debate/{id}/graph`` read the graph registry: the routes
called without a server or a database (the run's row is given), with and without the toy."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from starlette.applications import Starlette
from starlette.routing import Route
from starlette.testclient import TestClient
from toy_protocol import export_graph, toy_registered

from disputatio.api import debates
from disputatio.api.errors import error_handlers
from disputatio.graphs import registry
from disputatio.settings import ServerSettings, Settings

KEY = {"X-API-Key": "k-1"}
CASE_ID = "11111111-1111-1111-1111-111111111111"
GRAPH = f"/debate/{CASE_ID}/graph"


@pytest.fixture
def row(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """The run the graph route reads (set a test's ``protocol`` and ``result``)."""
    run: dict[str, Any] = {"protocol": "toy", "result": {}}

    async def owned_run(request: Any) -> tuple[dict[str, Any], str]:
        return run, CASE_ID

    monkeypatch.setattr(debates, "_result", owned_run)
    return run


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    digest = hashlib.sha256(b"k-1").hexdigest()
    settings = Settings(home=tmp_path, server=ServerSettings(api_keys={digest: "acme"}))
    app = Starlette(
        routes=[
            Route("/debate/protocols", debates.protocols),
            Route("/debate/{case_id}/graph", debates.graph),
        ],
        exception_handlers=error_handlers(),
    )
    app.state.services = SimpleNamespace(settings=settings)
    with TestClient(app) as test_client:
        yield test_client


def test_the_protocols_route_lists_the_registry_in_order_behind_a_key(
    client: TestClient,
) -> None:
    assert client.get("/debate/protocols").status_code == 401
    before = client.get("/debate/protocols", headers=KEY).json()["protocols"]
    served = registry.api_protocols()
    assert [p["protocol"] for p in before] == list(served)
    for listed in before:
        spec = served[listed["protocol"]]
        assert listed["label"] == (spec.label or spec.protocol)
        assert listed["needs_question"] == spec.needs_question
        assert listed["option_forms"] == list(spec.option_forms)
        assert listed["graph"] == (spec.graph_export is not None)
    with toy_registered():
        during = client.get("/debate/protocols", headers=KEY).json()["protocols"]
    assert during[:-1] == before and during[-1]["protocol"] == "toy"
    assert during[-1]["label"] == "Toy echo" and during[-1]["graph"] is True


def test_the_graph_route_serves_the_protocols_own_export(
    client: TestClient, row: dict[str, Any]
) -> None:
    row["result"] = {"question": "Echo?", "answer": "Echo: Echo?"}
    jsonld, graphml = export_graph(row["result"], CASE_ID)
    with toy_registered():
        as_jsonld = client.get(GRAPH, headers=KEY)
        as_graphml = client.get(GRAPH, params={"format": "graphml"}, headers=KEY)
    assert as_jsonld.headers["content-type"] == "application/ld+json"
    assert as_jsonld.json() == jsonld
    assert as_graphml.headers["content-type"].startswith("application/graphml+xml")
    assert as_graphml.text == graphml


def test_the_graph_route_answers_409_until_the_export_is_ready(
    client: TestClient, row: dict[str, Any]
) -> None:
    row["result"] = {"question": "Echo?"}  # no answer yet: the toy has nothing to export
    with toy_registered():
        pending = client.get(GRAPH, headers=KEY)
    assert pending.status_code == 409
    assert pending.json()["error"] == {
        "code": "NOT_READY", "message": "the echo is not written yet", "retryable": True
    }  # fmt: skip


def test_the_graph_route_answers_404_without_an_export(
    client: TestClient, row: dict[str, Any]
) -> None:
    row["result"] = {"question": "Echo?", "answer": "Echo: Echo?"}
    no_export = next(p for p, s in registry.api_protocols().items() if s.graph_export is None)
    for protocol in (no_export, "toy"):  # the toy unregistered: its runs stay, its export went
        row["protocol"] = protocol
        missing = client.get(GRAPH, headers=KEY)
        assert missing.status_code == 404, protocol
        assert missing.json()["error"]["code"] == "NO_GRAPH"
        assert protocol in missing.json()["error"]["message"]
    bad = client.get(GRAPH, params={"format": "png"}, headers=KEY)
    assert bad.status_code == 422 and bad.json()["error"]["field"] == "format"
