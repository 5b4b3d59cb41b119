"""``disputatio eval run`` and ``eval report`` through typer, with scripted models."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from disputatio.cli import eval_report, eval_run
from disputatio.eval import runner
from disputatio.eval.datasets import DATASETS

from .conftest import fake_retriever, scripted_models, toy_questions


def app() -> typer.Typer:
    cli = typer.Typer()
    cli.command("run")(eval_run.run)
    cli.command("report")(eval_report.report)
    return cli


def test_split_list() -> None:
    assert eval_run.split_list(["cot,rag", " sc ", "cot"]) == ("cot", "rag", "sc")


def test_run_twice_then_report(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[tuple[str, int]] = []

    def env_factory(config: Any, settings: Any, checkpointer: Any) -> Any:
        assert checkpointer is None and config.corpus == "oracle" and config.k == 3
        from disputatio.eval.protocols import ProtocolEnv
        from disputatio.nodes.medrag.context import MedragContext

        def env_for(dataset: str, questions: Any) -> ProtocolEnv:
            seen.append((dataset, len(questions)))
            ctx = MedragContext(models=scripted_models(), retriever=fake_retriever(), k=config.k)
            return ProtocolEnv(medrag=ctx)

        return env_for

    monkeypatch.setattr(eval_run, "_env_factory", env_factory)
    monkeypatch.setattr(runner, "load_all", lambda name: toy_questions(5, name))
    monkeypatch.setitem(DATASETS, "toy", DATASETS["medqa"])  # a known name for the CLI check
    args = ["run", "-d", "toy", "-p", "cot,medrag", "-n", "3", "--corpus", "oracle", "--k", "3"]
    args += ["--no-db", "-o", str(tmp_path), "-m", "scripted:model"]
    first = CliRunner().invoke(app(), args)
    assert first.exit_code == 0, first.output
    assert "6 new, 0 errors, 0 finished before" in first.output
    second = CliRunner().invoke(app(), args)
    assert "0 new, 0 errors, 6 finished before" in second.output
    (run_dir,) = [p for p in tmp_path.iterdir() if p.is_dir()]
    manifest = json.loads((run_dir / "manifest.json").read_text())
    assert manifest["identity"]["model"] == "scripted:model" and len(manifest["runs"]) == 2
    report = CliRunner().invoke(app(), ["report", str(run_dir), "-o", str(tmp_path / "rep")])
    assert report.exit_code == 0, report.output
    text = (tmp_path / "rep" / "report.md").read_text()
    assert "| cot | 3 |" in text and "| medrag | 3 |" in text
    assert seen == [("toy", 5)]  # the second run had nothing to do: no env was built


def test_bad_corpus_is_a_config_error(tmp_path: Path) -> None:
    result = CliRunner().invoke(app(), ["run", "--corpus", "web", "--no-db", "-o", str(tmp_path)])
    assert result.exit_code != 0 and "unknown corpus" in str(result.exception)


def test_medrag_style_retrieval_never_refuses_and_is_part_of_the_identity(
    tmp_path: Path,
) -> None:
    from disputatio.eval.config import build_config
    from disputatio.settings import load_settings

    settings = load_settings(home=tmp_path)
    plain = eval_run.medrag_retrieval(settings, refusal=False)
    assert (plain.retrieval.rerank_threshold, plain.retrieval.trim_alpha) == (0.0, 0.0)
    assert eval_run.medrag_retrieval(settings, refusal=True) is settings
    a = build_config(plain, model="m")
    b = build_config(settings, model="m")
    assert a.run_id != b.run_id


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-d", "bogus"], "unknown data set bogus"),
        (["-p", "cot,chaos"], "unknown protocol chaos"),
        (["-p", ","], "at least one data set"),
        (["-n", "-3"], "--n must be >= 0"),
        (["-c", "0"], "--concurrency must be >= 1"),
        (["--temperatures", "hot"], "--temperatures takes numbers"),
        (["-d", "gsm8k", "-p", "medrag"], "medrag cannot answer gsm8k"),
        (["-d", "gsm8k", "-p", "cot,rag,sc_rag"], "rag, sc_rag cannot answer gsm8k"),
    ],
)
def test_a_bad_request_is_one_line_before_anything_is_built(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    args: list[str],
    message: str,
) -> None:
    """Default corpus kb: a typo must not build the knowledge base (half an hour) first."""
    from disputatio.cli import main
    from disputatio.eval import medkb

    def no_kb(*_a: Any, **_k: Any) -> Any:
        raise AssertionError("the knowledge base was built for a bad request")

    monkeypatch.setattr(medkb, "ensure_kb", no_kb)
    monkeypatch.setenv("DISPUTATIO_HOME", str(tmp_path / "home"))
    with pytest.raises(SystemExit) as exit_:
        main(["eval", "run", *args, "--no-db", "-o", str(tmp_path / "runs")])
    err = capsys.readouterr().err
    assert exit_.value.code == 2
    assert message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "runs").exists()  # no run folder, no manifest entry


def test_run_eval_loads_every_data_set_before_it_writes_the_run_folder(tmp_path: Path) -> None:
    from disputatio.errors import ConfigError
    from disputatio.eval.config import EvalConfig

    def loader(name: str) -> Any:
        if name != "toy":
            raise ConfigError(f"unknown data set {name!r}")
        return toy_questions(3)

    def no_env(_d: str, _q: Any) -> Any:
        raise AssertionError("no environment is built for a bad request")

    plan = runner.Plan(("toy", "bogus"), ("cot",), n=2, loader=loader)
    with pytest.raises(ConfigError, match="bogus"):
        runner.run_eval(EvalConfig(model="m"), plan, no_env, out_root=tmp_path)
    with pytest.raises(ConfigError, match="--n must be"):
        bad = runner.Plan(("toy",), ("cot",), n=-1, loader=loader)
        runner.run_eval(EvalConfig(model="m"), bad, no_env, out_root=tmp_path)
    assert list(tmp_path.iterdir()) == []


def test_a_failed_langsmith_push_is_a_warning_not_a_failed_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from disputatio.eval import langsmith_sync

    def push_run(_run_dir: Path) -> str:
        raise ConnectionError("api.smith.langchain.com unreachable")

    monkeypatch.setenv("LANGSMITH_API_KEY", "fake")
    monkeypatch.setenv("LANGSMITH_TRACING", "false")  # no tracer reaching out in this test
    monkeypatch.setenv("LANGSMITH_PROJECT", "test")  # restored after the test
    monkeypatch.setattr(langsmith_sync, "push_run", push_run)
    monkeypatch.setattr(runner, "load_all", lambda name: toy_questions(2, name))
    monkeypatch.setitem(DATASETS, "toy", DATASETS["medqa"])

    def env_factory(config: Any, settings: Any, checkpointer: Any) -> Any:
        from disputatio.eval.protocols import ProtocolEnv
        from disputatio.nodes.medrag.context import MedragContext

        return lambda _d, _q: ProtocolEnv(medrag=MedragContext(models=scripted_models()))

    monkeypatch.setattr(eval_run, "_env_factory", env_factory)
    args = ["run", "-d", "toy", "-p", "cot", "-n", "2", "--corpus", "oracle", "--no-db"]
    result = CliRunner().invoke(app(), [*args, "-o", str(tmp_path), "-m", "scripted:m"])
    assert result.exit_code == 0, result.output
    assert "2 new, 0 errors" in result.output and "LangSmith push failed" in result.output


def test_the_code_fingerprint_follows_the_answering_code_only(tmp_path: Path) -> None:
    """An edit to code that shapes answers (or picks questions) is a new run; the report's not."""
    import shutil

    import disputatio
    from disputatio.eval.config import code_fingerprint

    root = tmp_path / "disputatio"
    src = Path(disputatio.__file__).parent
    shutil.copytree(src, root, ignore=shutil.ignore_patterns("__pycache__", "static", "data"))
    base = code_fingerprint(root)
    assert base == code_fingerprint(src)  # paths are hashed relative to the package
    for rel in (
        "eval/runner.py",
        "eval/datasets.py",
        "eval/mmlu.py",
        "eval/protocols.py",
        "prompts/medrag.py",
        "nodes/medrag/turns.py",
    ):
        path = root / rel
        original = path.read_bytes()
        path.write_bytes(original + b"\n# changed\n")
        assert code_fingerprint(root) != base, rel
        path.write_bytes(original)
    assert code_fingerprint(root) == base
    (root / "eval" / "render.py").write_text("# the report: not identity\n")
    assert code_fingerprint(root) == base


def test_gsm8k_takes_the_numeric_medrag_debate_and_sc_matched_to_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``-d gsm8k -p medrag_norag,sc``: the two-agent debate answers numbers, SC matches it."""
    from disputatio.eval.protocols import ProtocolEnv
    from disputatio.eval.question import Question
    from disputatio.nodes.medrag.context import MedragContext
    from disputatio.testing import ScriptedChatModel

    models = {
        "agent1": ScriptedChatModel(script=["400 + 600 = 1,000. \\boxed{1,000}"], repeat_last=True),
        "agent2": ScriptedChatModel(script=["That is \\boxed{1000.0}"], repeat_last=True),
        "baseline": ScriptedChatModel(script=["\\boxed{1000}"], repeat_last=True),
    }

    def env_factory(config: Any, settings: Any, checkpointer: Any) -> Any:
        def env_for(dataset: str, questions: Any) -> ProtocolEnv:
            return ProtocolEnv(medrag=MedragContext(models=models, k=config.k))

        return env_for

    qs = [Question(id="gsm8k:1", dataset="gsm8k", question="400 + 600?", options=[], gold="1000")]
    monkeypatch.setattr(eval_run, "_env_factory", env_factory)
    monkeypatch.setattr(runner, "load_all", lambda name: list(qs))
    args = ["run", "-d", "gsm8k", "-p", "medrag_norag,sc", "-n", "1", "--corpus", "oracle"]
    args += ["--no-db", "-o", str(tmp_path), "-m", "scripted:model"]
    result = CliRunner().invoke(app(), args)
    assert result.exit_code == 0, result.output
    assert "2 new, 0 errors" in result.output
    (run_dir,) = [p for p in tmp_path.iterdir() if p.is_dir()]
    records = {
        r["protocol"]: r
        for r in (json.loads(line) for line in (run_dir / "results.jsonl").read_text().splitlines())
    }
    debate, sc = records["medrag_norag"], records["sc"]
    assert (debate["answer"], debate["consensus_type"], debate["correct"]) == (
        "1000",
        "agreement",
        True,
    )
    assert debate["initial_answers"] == ["1000", "1000"]
    assert sc["budget"]["matched"] and sc["budget"]["target_calls"] == 2
    assert sc["answer"] == "1000" and sc["correct"]
    assert "\\boxed{N}" in "".join(str(m.content) for m in models["agent1"].prompts[0])


def test_a_mixed_request_skips_only_the_numeric_data_set_s_retrieval_protocols() -> None:
    eval_run.check_request(("bioasq", "gsm8k"), ("cot", "medrag", "medrag_norag"), 3, 1)
    assert eval_run.skipped_pairs(("bioasq", "gsm8k"), ("cot", "medrag", "medrag_norag")) == [
        ("gsm8k", "medrag")
    ]
    eval_run.check_request(("gsm8k",), ("cot", "sc", "medrag_norag", "hier_norag"), 3, 1)


def test_hier_verdict_last_reaches_the_debate_settings_and_the_run_id(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    received: list[bool] = []

    def env_factory(config: Any, settings: Any, checkpointer: Any) -> Any:
        from disputatio.eval.protocols import ProtocolEnv
        from disputatio.nodes.medrag.context import MedragContext

        received.append(settings.debate.verdict_last)
        return lambda dataset, questions: ProtocolEnv(
            medrag=MedragContext(models=scripted_models(), retriever=fake_retriever())
        )

    monkeypatch.setattr(eval_run, "_env_factory", env_factory)
    monkeypatch.setattr(runner, "load_all", lambda name: toy_questions(3, name))
    monkeypatch.setitem(DATASETS, "toy", DATASETS["medqa"])
    args = ["run", "-d", "toy", "-p", "cot", "-n", "2", "--corpus", "oracle"]
    args += ["--no-db", "-o", str(tmp_path), "-m", "scripted:model"]
    for extra in ([], ["--hier-verdict-last"]):
        result = CliRunner().invoke(app(), [*args, *extra])
        assert result.exit_code == 0, result.output
    assert received == [False, True]
    runs = {
        json.loads((p / "manifest.json").read_text())["identity"]["settings"]["debate"][
            "verdict_last"
        ]: p.name
        for p in tmp_path.iterdir()
        if p.is_dir()
    }
    assert set(runs) == {False, True}  # two runs, each under its own id
