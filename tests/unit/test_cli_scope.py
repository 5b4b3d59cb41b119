"""CLI-wide consistency: one spelling per concept, and the corpus scope reaches every command.

``ask`` and ``referee`` have their own tests of ``--tenant``/``--collection``
(``test_cli_ask.py``, ``referee/test_referee_checkpoint.py``); here ``query``, ``calibrate``,
``bench`` and ``rdc run`` are run in-process with what they call replaced by recorders.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from disputatio.cli import rdc as rdc_cli
from disputatio.cli.app import app
from disputatio.state.retrieval import Section

#: Commands that read the corpus (issue 11): each takes --tenant and --collection.
CORPUS_COMMANDS = ("ask", "referee", "rdc run", "bench", "query", "calibrate")
#: Commands that answer from the corpus: each can print its evidence.
ANSWERING_COMMANDS = ("ask", "referee", "rdc run", "query")


class _Stop(Exception):
    """Raised by a recorder once it has what the test needs."""


def _commands() -> dict[str, Any]:
    """Every leaf command of the CLI by its full name (``rdc run``, ``db start``...).

    Typer vendors click, so groups and options are recognised by their attributes.
    """
    found: dict[str, Any] = {}

    def walk(cmd: Any, prefix: str) -> None:
        if getattr(cmd, "commands", None):
            for name, sub in cmd.commands.items():
                walk(sub, f"{prefix} {name}".strip())
        else:
            found[prefix] = cmd

    walk(typer.main.get_command(app), "")
    return found


def _invoke(*args: str) -> Any:
    return CliRunner().invoke(app, list(args), catch_exceptions=True)


def test_each_concept_has_one_spelling_across_commands() -> None:
    spellings: dict[str, set[tuple[str, ...]]] = {}
    short_flags: dict[str, set[str]] = {}
    for name, cmd in _commands().items():
        for param in cmd.params:
            if param.param_type_name != "option":
                continue
            spellings.setdefault(str(param.name), set()).add(tuple(sorted(param.opts)))
            for opt in param.opts:
                if len(opt) == 2:
                    short_flags.setdefault(opt, set()).add(str(param.name))
            assert not any(o.startswith("--no-no-") for o in param.secondary_opts), (name, param)
    for concept, canonical in {
        "tenant": ("--tenant",),
        "collection": ("--collection",),
        "thread_id": ("--thread-id",),
        "show_context": ("--show-context",),
        "resume": ("--resume",),
        "model": ("--model", "-m"),
    }.items():
        assert spellings[concept] == {tuple(sorted(canonical))}, concept
    # a short flag means one thing everywhere (-o: where results go, never the answer options)
    assert short_flags["-o"] <= {"out", "out_dir", "out_file"}, short_flags["-o"]
    written_to = {opts for opts_set in spellings.values() for opts in opts_set if "-o" in opts}
    assert written_to == {("--out", "-o")}, written_to  # never --output beside --out
    assert short_flags["-m"] == {"model"} and short_flags["-p"] <= {"protocol", "protocols"}


@pytest.mark.parametrize("command", CORPUS_COMMANDS)
def test_corpus_commands_take_tenant_and_collection(command: str) -> None:
    names = {p.name for p in _commands()[command].params}
    assert {"tenant", "collection"} <= names


@pytest.mark.parametrize("command", ANSWERING_COMMANDS)
def test_answering_commands_can_print_their_evidence(command: str) -> None:
    opts = {o for p in _commands()[command].params for o in p.opts}
    assert "--show-context" in opts


def test_query_passes_the_scope_and_no_answer_is_a_flag(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[Any] = []

    class Graph:
        def invoke(self, inputs: Any, context: Any) -> dict[str, Any]:
            seen.append(context)
            return {"sections": [], "citations": [], "timings_ms": {}}

    monkeypatch.setattr("disputatio.graphs.rag.graph", Graph())
    result = _invoke("query", "q?", "--tenant", "acme", "--collection", "med", "--no-answer")
    assert result.exit_code == 0, result.output
    ctx = seen[0]
    assert (ctx.tenant, ctx.collection, ctx.answer) == ("acme", "med", False)


def test_calibrate_passes_the_scope(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: dict[str, Any] = {}

    def calibrate(**kwargs: Any) -> dict[str, Any]:
        seen.update(kwargs)
        return {}

    monkeypatch.setattr("disputatio.retrievers.calibration.calibrate", calibrate)
    result = _invoke("calibrate", "--synthetic", "5", "--tenant", "acme", "--collection", "med")
    assert result.exit_code == 0, result.output
    assert (seen["tenant"], seen["collection"]) == ("acme", "med")


def test_bench_passes_the_scope(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    seen: list[Any] = []

    def run_benchmark(*args: Any, context: Any, **kwargs: Any) -> Any:
        seen.append(context)
        raise _Stop

    monkeypatch.setattr("disputatio.eval.harness.run_benchmark", run_benchmark)
    result = _invoke(
        "bench", "medqa", "--tenant", "acme", "--collection", "med", "--out", str(tmp_path)
    )
    assert isinstance(result.exception, _Stop), result.output
    assert (seen[0].tenant, seen[0].collection) == ("acme", "med")


def test_rdc_run_passes_the_scope(monkeypatch: pytest.MonkeyPatch) -> None:
    import disputatio.graphs.rdc as rdc_graph

    seen: dict[str, Any] = {}

    class Context:
        def __init__(self, **kwargs: Any) -> None:
            seen.update(kwargs)

        def config(self) -> None:
            raise _Stop

    monkeypatch.setattr(rdc_graph, "RdcContext", Context)
    monkeypatch.setattr("disputatio.storage.ledger.PostgresLedger", lambda settings: None)
    case = Path(rdc_graph.__file__).parents[2] / "data" / "cases" / "chest_pain.json"
    result = _invoke("rdc", "run", str(case), "--tenant", "acme", "--collection", "med")
    assert isinstance(result.exception, _Stop), result.output
    assert (seen["tenant"], seen["collection"]) == ("acme", "med")


def test_rdc_evidence_is_the_cited_sections_else_the_retrieved_ones(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    graph = {
        "nodes": [
            {"id": "h1", "provenance": []},
            {"id": "e1", "provenance": ["sec-b", "case.md"]},
        ]
    }
    state = {"retrieved_ids": ["sec-a", "sec-b", "sec-a"], "graph": graph}
    assert rdc_cli.corpus_evidence(state) == (["sec-b"], True)
    assert rdc_cli.corpus_evidence({**state, "graph": {"nodes": []}}) == (["sec-a", "sec-b"], False)

    asked: list[list[str]] = []

    class Backend:
        def __init__(self, settings: Any) -> None:
            pass

        def sections(self, ids: list[str]) -> dict[str, Section]:
            asked.append(list(ids))
            return {i: Section(id=i, source=f"{i}.md", text=f"Text of {i}.") for i in ids}

    monkeypatch.setattr("disputatio.retrievers.postgres.PostgresBackend", Backend)
    monkeypatch.setattr(rdc_cli, "out", rdc_cli.Console(width=100, force_terminal=False))
    rdc_cli.print_evidence(state, settings=None)
    printed = capsys.readouterr().out
    assert asked == [["sec-b"]]
    assert "evidence (cited sections)" in printed and "[sec-b] sec-b.md" in printed
    assert "Text of sec-b." in printed and "sec-a" not in printed


def test_medrag_without_options_is_a_usage_error() -> None:
    result = _invoke("ask", "Which drug?", "--protocol", "medrag")
    assert result.exit_code == 2
    assert "--option A=text" in " ".join(result.output.split())
