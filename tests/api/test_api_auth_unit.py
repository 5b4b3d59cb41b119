"""Keys → tenants and the LangGraph auth handlers, without a server (fast)."""

from __future__ import annotations

import asyncio
import hashlib
from types import SimpleNamespace
from typing import Any
from uuid import uuid5

import pytest
from langgraph_sdk import Auth

from disputatio.api import auth
from disputatio.settings import ServerSettings, Settings


@pytest.fixture
def keyed(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> Settings:
    digest = hashlib.sha256(b"k-1").hexdigest()
    settings = Settings(home=tmp_path, server=ServerSettings(api_keys={digest: "acme"}))
    monkeypatch.setattr(auth, "get_settings", lambda: settings)
    return settings


def _ctx(tenant: str, action: str) -> Any:
    return SimpleNamespace(user=SimpleNamespace(identity=tenant), action=action, resource="threads")


def test_keys_are_matched_by_their_hash(keyed: Settings) -> None:
    assert auth.tenant_for_key("k-1", keyed) == "acme"
    assert auth.tenant_for_key(" k-1 ", keyed) == "acme"
    assert auth.tenant_for_key("k-2", keyed) is None
    assert auth.tenant_for_key(None, keyed) is None
    assert "k-1" not in str(keyed.server.api_keys)  # only the hash is configured
    assert auth.key_from_headers(None, "Bearer k-1") == "k-1"
    assert auth.key_from_headers("k-9", "Bearer k-1") == "k-9"
    assert auth.key_from_headers(None, "Basic abc") is None


def test_authenticate_maps_the_key_to_its_tenant(keyed: Settings) -> None:
    user = asyncio.run(auth.authenticate({b"x-api-key": b"k-1"}))
    assert user["identity"] == "acme"
    with pytest.raises(Auth.exceptions.HTTPException) as err:
        asyncio.run(auth.authenticate({b"authorization": b"Bearer nope"}))
    assert err.value.status_code == 401


def test_created_threads_carry_the_callers_tenant_whatever_the_body_says() -> None:
    value: dict[str, Any] = {"metadata": {"tenant": "other", "x": 1}}
    filters = asyncio.run(auth.scope_to_tenant(_ctx("acme", "create"), value))
    assert value["metadata"] == {"tenant": "acme", "x": 1} and filters == {"tenant": "acme"}


def test_runs_get_the_callers_tenant_in_the_context_and_none_in_the_input() -> None:
    rag = str(uuid5(auth._NAMESPACE_GRAPH, "rag"))
    value: dict[str, Any] = {
        "assistant_id": rag,
        "kwargs": {"input": {"question": "q", "tenant": "other"}, "context": {"tenant": "x"}},
    }
    asyncio.run(auth.force_run_tenant(_ctx("acme", "create_run"), value))
    assert value["kwargs"]["input"] == {"question": "q"}  # accepted, dropped: the state has none
    assert value["kwargs"]["context"]["tenant"] == "acme"
    health: dict[str, Any] = {"assistant_id": str(uuid5(auth._NAMESPACE_GRAPH, "health")),
                              "kwargs": {"input": {}}}  # fmt: skip
    asyncio.run(auth.force_run_tenant(_ctx("acme", "create_run"), health))
    assert "context" not in health["kwargs"]  # its context has no tenant field
    ingest = {"assistant_id": str(uuid5(auth._NAMESPACE_GRAPH, "ingest")), "kwargs": {}}
    with pytest.raises(Auth.exceptions.HTTPException) as err:
        asyncio.run(auth.force_run_tenant(_ctx("acme", "create_run"), ingest))
    assert err.value.status_code == 403


def test_runs_on_a_user_created_assistant_get_the_callers_tenant(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    graphs = {"a-rag": "rag", "a-debate": "debate", "a-ingest": "ingest", "x-rag": "rag"}

    async def stored(resource: str, item_id: str) -> dict[str, Any] | None:
        assert resource == "assistants"
        owner = "acme" if item_id.startswith("a-") else "globex"
        found = item_id in graphs
        return {"graph_id": graphs[item_id], "metadata": {"tenant": owner}} if found else None

    monkeypatch.setattr(auth, "stored", stored)
    run: dict[str, Any] = {
        "assistant_id": "a-rag",
        "kwargs": {
            "input": {"question": "q", "tenant": "other"},
            "context": {"tenant": "other"},
            "config": {"configurable": {"tenant": "other"}},
        },
    }
    asyncio.run(auth.force_run_tenant(_ctx("acme", "create_run"), run))
    kwargs = run["kwargs"]
    assert kwargs["input"] == {"question": "q"} and kwargs["context"]["tenant"] == "acme"
    assert kwargs["config"]["configurable"]["tenant"] == "acme"
    resumed: dict[str, Any] = {
        "assistant_id": "a-rag",
        "kwargs": {"input": None, "command": {"update": {"tenant": "other"}}},
    }
    asyncio.run(auth.force_run_tenant(_ctx("acme", "create_run"), resumed))
    assert resumed["kwargs"]["command"]["update"] == {}
    assert resumed["kwargs"]["context"]["tenant"] == "acme"
    debate: dict[str, Any] = {
        "assistant_id": "a-debate", "kwargs": {"input": {"question": "q", "tenant": "other"}}
    }  # fmt: skip
    asyncio.run(auth.force_run_tenant(_ctx("acme", "create_run"), debate))
    assert debate["kwargs"]["context"] == {"tenant": "acme"}
    assert debate["kwargs"]["input"] == {"question": "q"}  # no graph's input carries a tenant
    with pytest.raises(Auth.exceptions.HTTPException) as err:
        asyncio.run(auth.force_run_tenant(_ctx("acme", "create_run"), {"assistant_id": "a-ingest"}))
    assert err.value.status_code == 403
    with pytest.raises(Auth.exceptions.HTTPException) as err:  # another tenant's assistant
        asyncio.run(auth.force_run_tenant(_ctx("acme", "create_run"), {"assistant_id": "x-rag"}))
    assert err.value.status_code == 403


def test_an_assistant_whose_graph_cannot_be_resolved_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async def broken(resource: str, item_id: str) -> dict[str, Any] | None:
        raise auth._Unavailable("no server store")

    monkeypatch.setattr(auth, "stored", broken)
    with pytest.raises(Auth.exceptions.HTTPException) as err:
        asyncio.run(auth.force_run_tenant(_ctx("acme", "create_run"), {"assistant_id": "x"}))
    assert err.value.status_code == 403
    # the default assistants need no lookup
    rag = str(uuid5(auth._NAMESPACE_GRAPH, "rag"))
    value: dict[str, Any] = {"assistant_id": rag, "kwargs": {}}
    asyncio.run(auth.force_run_tenant(_ctx("acme", "create_run"), value))
    assert value["kwargs"]["context"]["tenant"] == "acme"


def test_assistants_are_the_defaults_and_the_tenants_own() -> None:
    visible = asyncio.run(auth.read_assistant(_ctx("acme", "read"), {}))
    assert visible == {"$or": [{"created_by": "system"}, {"tenant": "acme"}]}
    assert asyncio.run(auth.search_assistants(_ctx("acme", "search"), {})) == visible
    created: dict[str, Any] = {"graph_id": "rag", "context": {"tenant": "other"},
                               "metadata": {"tenant": "other"}}  # fmt: skip
    asyncio.run(auth.create_assistant(_ctx("acme", "create"), created))
    assert created["context"]["tenant"] == created["metadata"]["tenant"] == "acme"
    with pytest.raises(Auth.exceptions.HTTPException) as err:
        asyncio.run(auth.create_assistant(_ctx("acme", "create"), {"graph_id": "ingest"}))
    assert err.value.status_code == 403


def test_another_tenants_thread_is_forbidden_not_hidden(monkeypatch: pytest.MonkeyPatch) -> None:
    threads = {"t-acme": {"metadata": {"tenant": "acme"}}, "t-other": {"metadata": {"tenant": "x"}}}

    async def stored(resource: str, item_id: str) -> dict[str, Any] | None:
        if item_id == "t-broken":
            raise auth._Unavailable("no server store")
        mine = {"graph_id": "rag", "metadata": {"tenant": "acme"}}
        return threads.get(item_id) if resource == "threads" else mine

    monkeypatch.setattr(auth, "stored", stored)
    for action in ("read", "update", "delete"):
        with pytest.raises(Auth.exceptions.HTTPException) as err:
            asyncio.run(auth.scope_to_tenant(_ctx("acme", action), {"thread_id": "t-other"}))
        assert err.value.status_code == 403
    run = {"thread_id": "t-other", "assistant_id": "mine", "kwargs": {}}
    with pytest.raises(Auth.exceptions.HTTPException) as err:
        asyncio.run(auth.force_run_tenant(_ctx("acme", "create_run"), run))
    assert err.value.status_code == 403
    # own, missing, or unknowable (the tenant filter then answers 404): no 403
    for thread_id in ("t-acme", "t-missing", "t-broken"):
        filters = asyncio.run(auth.scope_to_tenant(_ctx("acme", "read"), {"thread_id": thread_id}))
        assert filters == {"tenant": "acme"}


def test_store_items_live_under_the_callers_namespace() -> None:
    value: dict[str, Any] = {"namespace": ("notes",)}
    asyncio.run(auth.scope_store(_ctx("acme", "put"), value))
    assert value["namespace"] == ("acme", "notes")


# --- a tenant in a request body; Retry-After -----------------------------------------------


@pytest.mark.parametrize(
    ("model", "body"),
    [
        ("QueryRequest", {"query": "q"}),
        ("IngestRequest", {"url": "https://example.org/a.txt"}),
        ("DebateStart", {"protocol": "hierarchical", "question": "q?"}),
    ],
)
def test_a_tenant_in_a_body_is_accepted_and_never_reaches_the_request(
    model: str, body: dict[str, Any]
) -> None:
    """The README's rule: the key's tenant wins; a body's ``tenant`` is dropped, not refused."""
    from disputatio.api import schemas

    parsed = getattr(schemas, model).model_validate({**body, "tenant": "globex"})
    assert "tenant" not in parsed.model_dump() and "tenant" not in parsed.model_dump_json()


def test_blank_questions_are_refused() -> None:
    from pydantic import ValidationError

    from disputatio.api import schemas

    for model, body in (
        (schemas.QueryRequest, {"query": " \n\t"}),
        (schemas.DebateStart, {"protocol": "hierarchical", "question": "   "}),
    ):
        with pytest.raises(ValidationError, match="blank"):
            model.model_validate(body)


@pytest.mark.parametrize("status", [429, 503])
def test_every_429_and_503_says_when_to_retry(status: int) -> None:
    from disputatio.api.errors import ApiError

    assert int(ApiError(status, "BUSY", "busy").response().headers["Retry-After"]) > 0
    told = ApiError(status, "BUSY", "busy", retry_after=30).response()
    assert told.headers["Retry-After"] == "30"
    assert "Retry-After" not in ApiError(422, "INVALID_FIELD", "x").response().headers
