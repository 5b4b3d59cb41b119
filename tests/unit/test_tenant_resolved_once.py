"""The tenant is resolved once, at the edge, and reaches the retriever through the run's context.

One function, ``Settings.run_tenant``, says what the tenant of a run is when none is named; no
other module reads the settings' default tenant, no agent node reads a tenant from the graph's
state. That the tenant the API key or the CLI flag names is the one in every channel's filters is
shown in ``test_retrievers_tenant.py``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from disputatio.settings import load_settings
from disputatio.state.rag import RagInput, RagState

PACKAGE = Path(__file__).resolve().parents[2] / "disputatio"

#: The one module allowed to read the default tenant (``Settings.run_tenant`` is there).
RESOLVER = "settings/__init__.py"

#: Graphs whose input carries the tenant: ingestion (its edge, ``POST /ingest`` and
#: ``disputatio ingest --tenant``, puts it in the input; its context has no tenant).
INPUT_TENANT = ("nodes/ingest/",)


def _is_settings(node: ast.expr) -> bool:
    text = ast.unparse(node)
    return text == "settings" or text.endswith((".settings", "get_settings()"))


def _is_state(node: ast.expr) -> bool:
    return isinstance(node, ast.Name) and node.id in ("state", "inputs")


def _tree(source: str | ast.Module) -> ast.Module:
    return source if isinstance(source, ast.Module) else ast.parse(source)


def default_reads(source: str | ast.Module) -> list[int]:
    """Lines of ``source`` that read the settings' tenant (``<settings>.tenant``)."""
    return sorted(
        n.lineno
        for n in ast.walk(_tree(source))
        if isinstance(n, ast.Attribute) and n.attr == "tenant" and _is_settings(n.value)
    )


def state_reads(source: str | ast.Module) -> list[int]:
    """Lines of ``source`` that read a tenant from a graph's state or input."""
    found = []
    for n in ast.walk(_tree(source)):
        if isinstance(n, ast.Subscript) and _is_state(n.value):
            key = n.slice
        elif (
            isinstance(n, ast.Call)
            and isinstance(n.func, ast.Attribute)
            and n.func.attr == "get"
            and _is_state(n.func.value)
            and n.args
        ):
            key = n.args[0]
        else:
            continue
        if isinstance(key, ast.Constant) and key.value == "tenant":
            found.append(n.lineno)
    return sorted(found)


def _parse_package() -> dict[str, ast.Module]:
    return {
        p.relative_to(PACKAGE).as_posix(): ast.parse(p.read_text(encoding="utf-8"))
        for p in sorted(PACKAGE.rglob("*.py"))
    }


#: Every module's tree, parsed when pytest imports this file, before any test runs: in full
#: local runs, parsing here after other tests had started threads raised CPython 3.11.7's
#: spurious "SystemError: AST constructor recursion depth mismatch" (python/cpython#106905,
#: seen in threaded programs) about once in three runs.
TREES = _parse_package()


def _modules(*under: str) -> dict[str, ast.Module]:
    return {
        rel: tree
        for rel, tree in TREES.items()
        if not under or rel.startswith(tuple(f"{u}/" for u in under))
    }


@pytest.mark.parametrize(
    ("code", "caught"),
    [
        ("t = tenant or settings.tenant", [1]),
        ("t = ctx.tenant or ctx.get_settings().tenant", [1]),
        ("t = self.settings.tenant if x is None else x", [1]),
        ("t = settings.run_tenant(tenant)", []),
        ("t = ctx.tenant", []),
    ],
)
def test_the_default_tenant_detector_sees_a_fallback(code: str, caught: list[int]) -> None:
    assert default_reads(code) == caught


@pytest.mark.parametrize(
    ("code", "caught"),
    [
        ('t = state.get("tenant") or ctx.tenant', [1]),
        ('t = inputs["tenant"]', [1]),
        ('t = state.get("collection")', []),
    ],
)
def test_the_state_tenant_detector_sees_a_read(code: str, caught: list[int]) -> None:
    assert state_reads(code) == caught


def test_only_settings_run_tenant_reads_the_default_tenant() -> None:
    offenders = {
        rel: lines
        for rel, text in _modules().items()
        if rel != RESOLVER and (lines := default_reads(text))
    }
    assert offenders == {}, f"use Settings.run_tenant, not the settings' tenant: {offenders}"


def test_no_agent_node_reads_a_tenant_from_the_graph_state() -> None:
    offenders = {
        rel: lines
        for rel, text in _modules("nodes", "graphs").items()
        if not rel.startswith(INPUT_TENANT) and (lines := state_reads(text))
    }
    assert offenders == {}, f"the tenant travels in the run's context: {offenders}"
    assert "tenant" not in RagInput.__annotations__
    assert "tenant" not in RagState.__annotations__


def test_run_tenant_is_the_named_one_else_a_data_sets_else_the_settings(tmp_path: Path) -> None:
    settings = load_settings(home=tmp_path, tenant="acme")
    assert settings.run_tenant("globex") == "globex"
    assert settings.run_tenant("globex", default="bioasq") == "globex"
    assert settings.run_tenant(None, default="bioasq") == "bioasq"
    assert settings.run_tenant(None) == settings.run_tenant("") == "acme"
