"""``run_eval`` resuming: finished work skipped, other configurations never reused."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from disputatio.errors import ConfigError
from disputatio.eval.config import EvalConfig
from disputatio.eval.results import ResultsLog, write_manifest
from disputatio.eval.runner import run_eval
from disputatio.testing import ScriptedChatModel

from .conftest import scripted_models
from .runner_plans import plan


def test_a_second_run_skips_every_finished_question(
    tmp_path: Path, make_env: Any, config: EvalConfig
) -> None:
    run_eval(config, plan(("cot", "medrag")), make_env(scripted_models()), out_root=tmp_path)
    silent = {name: ScriptedChatModel(script=[]) for name in scripted_models()}  # raise if called
    again = run_eval(config, plan(("cot", "medrag")), make_env(silent), out_root=tmp_path)
    assert (again["new"], again["errors"], again["skipped"], again["pending"]) == (0, 0, 6, 0)
    assert all(m.calls == 0 for m in silent.values())
    # a larger n extends the same draw: only the new questions run
    more = run_eval(config, plan(("cot",), n=5), make_env(scripted_models()), out_root=tmp_path)
    assert (more["new"], more["skipped"]) == (2, 3)


def test_a_changed_configuration_never_reuses_results(
    tmp_path: Path, make_env: Any, config: EvalConfig
) -> None:
    first = run_eval(config, plan(("cot",)), make_env(scripted_models()), out_root=tmp_path)
    for change in ({"k": 3}, {"model": "other"}, {"max_tokens": 64}, {"temperatures": (0.5,)}):
        other = dataclasses.replace(config, **change)  # type: ignore[arg-type]
        assert other.run_id != config.run_id
        models = scripted_models()
        second = run_eval(other, plan(("cot",)), make_env(models), out_root=tmp_path)
        assert (second["new"], second["skipped"]) == (3, 0)
        assert models["baseline"].calls == 3
    code = dataclasses.replace(config, code={"fingerprint": "changed"})
    assert code.run_id != config.run_id
    assert len(ResultsLog(Path(first["run_dir"]) / "results.jsonl").read()) == 3
    with pytest.raises(ConfigError, match="another configuration"):
        write_manifest(Path(first["run_dir"]), {"model": "x"}, {})


def test_failed_questions_are_recorded_and_retried_on_resume(
    tmp_path: Path, make_env: Any, config: EvalConfig
) -> None:
    flaky = scripted_models()
    flaky["baseline"] = ScriptedChatModel(
        script=[RuntimeError("server down"), "Answer Choice: A", "Answer Choice: A"]
    )
    first = run_eval(config, plan(("cot",)), make_env(flaky), out_root=tmp_path)
    assert (first["new"], first["errors"]) == (2, 1)
    second = run_eval(config, plan(("cot",)), make_env(scripted_models()), out_root=tmp_path)
    assert (second["new"], second["skipped"]) == (1, 2)
    log = ResultsLog(Path(first["run_dir"]) / "results.jsonl")
    assert len(log.finished()) == 3 and len(log.read()) == 4


def test_a_torn_last_line_is_cut_and_not_lost_work(tmp_path: Path) -> None:
    path = tmp_path / "results.jsonl"
    good = {"dataset": "toy", "protocol": "cot", "question_id": "q1", "error": None}
    path.write_text(json.dumps(good) + "\n" + '{"dataset": "toy", "proto', encoding="utf-8")
    log = ResultsLog(path)
    assert log.read() == [good]
    log.append({**good, "question_id": "q2"})
    assert [r["question_id"] for r in log.read()] == ["q1", "q2"]


def test_a_changed_configuration_never_resumes_another_s_debate_checkpoints(
    tmp_path: Path, config: EvalConfig
) -> None:
    """Debates resume from checkpoints by thread id: the thread ids carry the run id."""
    from langgraph.checkpoint.memory import InMemorySaver

    from disputatio.eval.protocols import ProtocolEnv
    from disputatio.nodes.medrag.context import MedragContext

    from .conftest import fake_retriever

    saver = InMemorySaver()

    def env(models: dict[str, Any]) -> Any:
        return lambda _d, _q: ProtocolEnv(
            medrag=MedragContext(models=models, retriever=fake_retriever(), k=2), checkpointer=saver
        )

    first = run_eval(config, plan(("medrag",), n=2), env(scripted_models()), out_root=tmp_path)
    assert (first["new"], first["errors"]) == (2, 0)
    other = dataclasses.replace(config, rounds=3)
    models = scripted_models()
    second = run_eval(other, plan(("medrag",), n=2), env(models), out_root=tmp_path)
    assert (second["new"], second["errors"]) == (2, 0)
    assert models["agent1"].calls >= 2 and models["agent2"].calls >= 2  # debated afresh
    threads = [
        {r["thread_id"] for r in ResultsLog(Path(s["run_dir"]) / "results.jsonl").read()}
        for s in (first, second)
    ]
    assert threads[0].isdisjoint(threads[1])


def test_a_debate_resumed_after_a_kill_is_flagged_as_resumed(
    tmp_path: Path, config: EvalConfig
) -> None:
    """Its wall time is only the resumed part, so the record says so (the report leaves it out
    of latency); a debate answered in one process is not flagged."""
    from langgraph.checkpoint.memory import InMemorySaver

    from disputatio.eval.protocols import ProtocolEnv
    from disputatio.nodes.medrag.context import MedragContext

    from .conftest import fake_retriever

    saver = InMemorySaver()
    models = scripted_models()
    killed = RuntimeError("the process was killed here")
    models["agent2"] = ScriptedChatModel(script=[killed, "Answer Choice: A"], repeat_last=True)

    def env(_d: str, _q: Any) -> ProtocolEnv:
        return ProtocolEnv(
            medrag=MedragContext(models=models, retriever=fake_retriever(), k=2), checkpointer=saver
        )

    first = run_eval(config, plan(("medrag",), n=2), env, out_root=tmp_path)
    assert (first["new"], first["errors"]) == (1, 1)  # the second question kept "A" from then on
    second = run_eval(config, plan(("medrag",), n=2), env, out_root=tmp_path)
    assert (second["new"], second["errors"]) == (1, 0)
    done = [r for r in ResultsLog(Path(second["run_dir"]) / "results.jsonl").read() if r["answer"]]
    assert sorted(r["resumed"] for r in done) == [False, True]


def test_a_hierarchical_debate_resumed_after_a_kill_is_flagged_as_resumed(
    tmp_path: Path, config: EvalConfig
) -> None:
    from langgraph.checkpoint.memory import InMemorySaver

    from disputatio.eval.protocols import ProtocolEnv
    from disputatio.eval.question import Question
    from disputatio.nodes.debate.context import DebateContext
    from disputatio.nodes.medrag.context import MedragContext
    from disputatio.settings import load_settings

    settings = load_settings(models={"chat": "openai:never-called"})
    killed = RuntimeError("the process was killed here")
    models: dict[str, Any] = {
        "orchestrator": ScriptedChatModel(
            script=[killed, '{"subquestions": []}'], repeat_last=True
        ),
        "worker": ScriptedChatModel(script=["Verdict: 4\n2 + 2."], repeat_last=True),
    }
    saver = InMemorySaver()

    def env_for(_d: str, _q: Any) -> ProtocolEnv:
        return ProtocolEnv(
            medrag=MedragContext(models=models, settings=settings),
            hier=DebateContext(models=models, settings=settings),
            checkpointer=saver,
        )

    qs = [Question(id="g1", dataset="gsm8k", question="2+2?", options=[], gold="4")]
    first = run_eval(config, plan(("hier_norag",), questions=qs), env_for, out_root=tmp_path)
    assert first["errors"] == 1
    second = run_eval(config, plan(("hier_norag",), questions=qs), env_for, out_root=tmp_path)
    assert (second["new"], second["errors"]) == (1, 0)
    (done,) = [
        r for r in ResultsLog(Path(second["run_dir"]) / "results.jsonl").read() if r["answer"]
    ]
    assert done["resumed"] is True and done["answer"] == "4"
