"""The graph registry: ``langgraph.json`` against it, its entries against their graphs, and a
toy protocol registered once and found by the CLI, the API's schema and auth, and the eval.

The toy over HTTP (``POST /debate/start``, its stream, verdict and graph, the page's protocol
list) is in ``tests/api/test_api_toy_protocol.py`` and ``tests/api/test_api_graph_route.py``.
"""

from __future__ import annotations

import ast
import asyncio
import dataclasses
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from uuid import uuid5

import pytest
from langgraph.checkpoint.memory import InMemorySaver
from pydantic import ValidationError
from toy_protocol import TOY_PATH, ToyContext, export_graph, toy_registered
from typer.testing import CliRunner

from disputatio.graphs import registry

ROOT = Path(__file__).resolve().parents[2]


def _langgraph_json() -> dict[str, Any]:
    return dict(json.loads((ROOT / "langgraph.json").read_text(encoding="utf-8")))


@pytest.fixture
def toy() -> Iterator[registry.GraphSpec]:
    with toy_registered() as spec:
        yield spec


# --- langgraph.json and the shipped entries ---------------------------------------------------


def test_langgraph_json_serves_exactly_the_registered_graphs() -> None:
    config = _langgraph_json()
    assert registry.check_langgraph(config) == []
    assert config["graphs"] == registry.langgraph_graphs()
    for path in registry.langgraph_graphs().values():
        file, _, attribute = path.partition(":")
        assert (ROOT / file).is_file(), path
        assert f"\n{attribute} = " in (ROOT / file).read_text(encoding="utf-8"), path


def test_the_check_names_a_missing_a_moved_and_an_unknown_graph() -> None:
    graphs = dict(_langgraph_json()["graphs"])
    del graphs["rag"]
    graphs["debate"] = "./elsewhere.py:graph"
    graphs["chess"] = "./chess.py:graph"
    problems = registry.check_langgraph({"graphs": graphs})
    assert problems == [
        'rag: missing from langgraph.json (add "rag": "./disputatio/graphs/rag/graph.py:graph")',
        "debate: langgraph.json has './elsewhere.py:graph', the registry "
        "'./disputatio/graphs/debate/graph.py:graph'",
        "chess: in langgraph.json but not a registered served graph",
    ]


def test_the_shipped_protocols_keep_the_names_the_api_cli_and_eval_use() -> None:
    assert list(registry.api_protocols()) == ["hierarchical", "medrag", "referee", "rdc"]
    assert list(registry.cli_protocols()) == ["hierarchical", "medrag"]
    assert registry.by_protocol("hierarchical").name == "debate"
    assert registry.by_protocol("medrag").name == "medrag_debate"
    assert {n: s.name for n, s in registry.eval_graphs().items()} == {
        "hier": "debate", "hier_nodebate": "debate", "hier_flat": "debate",
        "hier_norag": "debate", "medrag": "medrag_debate", "medrag_norag": "medrag_debate",
    }  # fmt: skip
    with pytest.raises(KeyError, match="chess"):
        registry.by_protocol("chess")


def test_each_entry_matches_its_graph() -> None:
    for spec in registry.specs():
        builder = spec.build()
        context = spec.context_class()
        assert builder.context_schema is context, spec.name
        assert context is not None and dataclasses.is_dataclass(context)
        fields = {f.name for f in dataclasses.fields(context)}
        assert spec.tenant_context == ("tenant" in fields), spec.name
        graph = builder.compile()
        inputs = set(graph.get_input_jsonschema().get("properties", {}))
        if spec.langgraph_runs:  # the tenant travels in the context: no state carries one
            assert "tenant" not in inputs and "tenant" not in builder.channels, spec.name
        state = set(builder.channels)
        assert set(spec.move_fields + spec.snapshot_fields) <= state, spec.name
        if spec.graph_export is not None:
            assert callable(spec.graph_exporter()), spec.name


#: A request's options in each of the registry's option forms.
OPTIONS_AS = {"letters": {"A": "yes", "B": "no"}, "names": ["pgvector", "FAISS"]}


def test_each_protocol_takes_exactly_the_option_forms_its_entry_names() -> None:
    assert set(OPTIONS_AS) == set(registry.OPTION_FORMS)
    for protocol, spec in registry.api_protocols().items():
        if not spec.needs_question:  # the request is a CASE: options are never sent
            continue
        for form, options in OPTIONS_AS.items():
            request = {"question": "Which?", "options": options}
            if form in spec.option_forms:
                assert spec.check(request)["options"] == options, (protocol, form)
            else:
                with pytest.raises(registry.InvalidRequest, match="options"):
                    spec.check(request)


def test_importing_the_registry_imports_no_graph_api_or_cli() -> None:
    code = (
        "import sys, disputatio.graphs.registry as r; r.specs(); "
        "print(sorted(m for m in sys.modules if m.startswith('disputatio')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = ast.literal_eval(out.stdout)  # a printed list of module names
    assert loaded == [
        "disputatio", "disputatio.graphs", "disputatio.graphs.inputs", "disputatio.graphs.registry"
    ]  # fmt: skip


def test_register_refuses_taken_names_and_contradictory_entries() -> None:
    base = registry.GraphSpec(name="other", builder="x:y", protocol="other",
                              inputs=registry.question_inputs)  # fmt: skip
    with pytest.raises(ValueError, match="registered already"):
        registry.register(dataclasses.replace(base, name="debate"))
    with pytest.raises(ValueError, match="protocol medrag is medrag_debate's"):
        registry.register(dataclasses.replace(base, protocol="medrag"))
    with pytest.raises(ValueError, match="CLI name hierarchical is debate's"):
        registry.register(dataclasses.replace(base, cli_names=("hierarchical",)))
    with pytest.raises(ValueError, match="eval name hier is debate's"):
        registry.register(dataclasses.replace(base, eval_names=("hier",)))
    with pytest.raises(ValueError, match="needs an input builder"):
        registry.register(dataclasses.replace(base, inputs=None))
    with pytest.raises(ValueError, match="need a protocol name"):
        registry.register(dataclasses.replace(base, protocol=None, cli_names=("x",)))
    with pytest.raises(ValueError, match="option forms"):
        registry.register(dataclasses.replace(base, option_forms=("letters", "dates")))
    with pytest.raises(ValueError, match="option forms"):
        registry.register(dataclasses.replace(base, needs_options=True, option_forms=()))
    assert registry.find("other") is None  # nothing was registered


# --- a toy protocol, registered once, found everywhere ----------------------------------------


def test_the_toy_is_missing_from_langgraph_json_until_a_user_adds_it(
    toy: registry.GraphSpec,
) -> None:
    config = _langgraph_json()
    assert registry.check_langgraph(config) == [
        f'toy: missing from langgraph.json (add "toy": "{TOY_PATH}")'
    ]
    config["graphs"]["toy"] = TOY_PATH
    assert registry.check_langgraph(config) == []


def test_the_toy_exports_its_graph_only_while_registered() -> None:
    with toy_registered():
        spec = registry.find_protocol("toy")
        assert spec is not None and spec.graph_exporter() is export_graph
    assert registry.find_protocol("toy") is None


def test_ask_runs_the_toy_protocol(toy: registry.GraphSpec, memory_saver: InMemorySaver) -> None:
    from disputatio.cli import ask
    from disputatio.cli.app import app

    assert "toy" in ask.protocols()
    args = ["ask", "Is it an echo?", "--protocol", "toy", "--thread-id", "t-toy", "--json"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    body = json.loads(result.stdout)
    assert (body["case_id"], body["protocol"]) == ("t-toy", "toy")
    assert body["answer"] == "Echo: Is it an echo?" and body["claims"] == []
    shown = CliRunner().invoke(app, ["ask", "Why?", "-p", "toy", "--option", "A=yes"])
    assert shown.exit_code == 0, shown.output
    assert "Echo: Why?" in shown.output and "Answer: A" in shown.output


def test_ask_refuses_the_toy_once_unregistered(memory_saver: InMemorySaver) -> None:
    from disputatio.cli.app import app
    from disputatio.errors import ConfigError

    result = CliRunner().invoke(app, ["ask", "Is it an echo?", "--protocol", "toy"])
    assert result.exit_code != 0 and isinstance(result.exception, ConfigError)
    assert "unknown protocol 'toy'" in str(result.exception)


def test_the_api_schema_takes_the_toy_only_while_registered() -> None:
    from disputatio.api.schemas import DebateStart, DebateVerdict, verdict_body

    with toy_registered():
        start = DebateStart.model_validate({"protocol": "toy", "question": "Echo?"})
        assert start.protocol == "toy"
        body = verdict_body("toy", "c1", {"question": "Echo?", "answer": "Echo: Echo?", "x": 1})
        assert body == {"case_id": "c1", "protocol": "toy", "question": "Echo?",
                        "answer": "Echo: Echo?", "claims": []}  # fmt: skip
        DebateVerdict.model_validate(body)
    with pytest.raises(ValidationError, match="unknown protocol 'toy'"):
        DebateStart.model_validate({"protocol": "toy", "question": "Echo?"})


def test_the_toy_gets_the_callers_tenant_on_the_langgraph_server(
    toy: registry.GraphSpec,
) -> None:
    from disputatio.api import auth

    ctx = SimpleNamespace(
        user=SimpleNamespace(identity="acme"), action="create_run", resource="threads"
    )
    run: dict[str, Any] = {
        "assistant_id": str(uuid5(auth._NAMESPACE_GRAPH, "toy")),  # its default assistant
        "kwargs": {"input": {"question": "q"}, "context": {"tenant": "other"}},
    }
    asyncio.run(auth.force_run_tenant(ctx, run))
    assert run["kwargs"]["context"] == {"tenant": "acme"}


def test_the_toy_is_an_eval_protocol_and_answers_a_question(toy: registry.GraphSpec) -> None:
    from disputatio.eval.protocols import ProtocolEnv, eval_protocols
    from disputatio.eval.question import Question
    from disputatio.nodes.medrag.context import MedragContext

    protocols = eval_protocols()
    names = list(protocols)
    assert "toy" in names and names.index("toy") < names.index("sc")  # a debate: before SC
    question = Question(id="q1", dataset="toy", question="Which?", options={"A": "a", "B": "b"},
                        gold="A")  # fmt: skip
    env = ProtocolEnv(medrag=MedragContext(tenant="acme"), checkpointer=InMemorySaver())
    record = protocols["toy"].run(question, env, "eval:toy:q1", None)
    assert (record["answer"], record["status"]) == ("A", "OK")
    assert record["log"]["answer_text"] == "Echo: Which?\nAnswer: A"
    again = protocols["toy"].run(question, env, "eval:toy:q1", None)
    assert again["resumed"] is True and again["answer"] == "A"  # the finished thread, reused


def test_the_eval_offers_the_toy_only_while_registered() -> None:
    from disputatio.eval.protocols import eval_protocols

    assert "toy" not in eval_protocols()


def test_the_toy_context_is_the_one_the_api_builds() -> None:
    from disputatio.api.services import Services
    from disputatio.settings import load_settings

    settings = load_settings()
    services = Services(settings=settings, context_overrides=lambda g, t: {"prefix": g})
    with toy_registered():
        ctx = services.context("toy", "acme")
    assert ctx == ToyContext(tenant="acme", settings=settings, prefix="toy")
    with pytest.raises(ValueError, match="no context for graph 'health'"):
        services.context("health", "acme")  # its context carries no tenant
