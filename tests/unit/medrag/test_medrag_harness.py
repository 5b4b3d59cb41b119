"""The benchmark harness with scripted models: metrics, baselines, ablations, files, CLI."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from disputatio.cli.bench import bench, parse_ablations
from disputatio.errors import ConfigError
from disputatio.eval import harness
from disputatio.eval.datasets import Question
from disputatio.eval.harness import run_benchmark
from disputatio.nodes.medrag.context import MedragContext
from disputatio.testing import ScriptedChatModel

OPTIONS = {"A": "one", "B": "two", "C": "three", "D": "four"}


def questions() -> list[Question]:
    return [
        Question(id=f"q{i}", dataset="toy", question=f"Question {i}?", options=OPTIONS, gold=gold)
        for i, gold in enumerate("ABC", start=1)
    ]


def debate_models() -> dict[str, ScriptedChatModel]:
    # q1: A/A agree in round 1 (correct).
    # q2: A/B, then B/B (correct; agent1 wrong -> correct).
    # q3: C/D, then D/D (gold C: agent1 correct -> wrong).
    a1 = ["Answer Choice: A", "Answer Choice: A", "Answer Choice: B"]
    a1 += ["Answer Choice: C", "Answer Choice: D"]
    a2 = ["Answer Choice: A", "Answer Choice: B", "Answer Choice: B"]
    a2 += ["Answer Choice: D", "Answer Choice: D"]
    return {
        "agent1": ScriptedChatModel(script=a1, name="agent1"),
        "agent2": ScriptedChatModel(script=a2, name="agent2"),
        "summarizer": ScriptedChatModel(script=["summary"], repeat_last=True, name="summarizer"),
    }


def test_debate_metrics(retriever: Any, tmp_path: Path) -> None:
    ctx = MedragContext(models=debate_models(), retriever=retriever, k=2, agent_query=False)
    result = run_benchmark(questions(), "debate", n=None, seed=0, context=ctx, out_dir=tmp_path)
    m = result["metrics"]
    assert [r["answer"] for r in result["questions"]] == ["A", "B", "D"]
    assert (m["n"], m["correct"], m["accuracy"]) == (3, 2, pytest.approx(2 / 3))
    assert m["change_of_answer"]["agent1"] == {
        "questions": 3,
        "changed": 2,
        "correct_to_wrong": 1,
        "wrong_to_correct": 1,
        "wrong_to_wrong": 0,
    }
    assert m["change_of_answer"]["total"]["changed"] == 2  # agent2 never changed
    conv = m["convergence"]
    assert (conv["agreed"], conv["debates"]) == (3, 3)
    assert conv["mean_rounds_to_agreement"] == pytest.approx((1 + 2 + 2) / 3)
    assert conv["agreement_round_histogram"] == {"1": 1, "2": 2}
    assert m["consensus"] == {"agreement": 3}
    # calls: q1 2 turns; q2 and q3 4 turns + 2 summaries each -> (2 + 6 + 6) / 3
    assert m["cost"]["mean_calls"] == pytest.approx(14 / 3)
    assert m["cost"]["by_role"]["summarizer"]["calls"] == 4
    saved = json.loads((tmp_path / "toy-debate-n3-s0.json").read_text())
    assert saved["metrics"]["correct"] == 2 and len(saved["questions"]) == 3
    assert saved["questions"][1]["log"]["retrieval"][0]["ids"] == ["sec-0", "sec-1"]
    table = (tmp_path / "toy-debate-n3-s0.md").read_text()
    assert "| toy | debate | – | 3 | 0.667 | 0 | 1 | 1 | 3/3 | 1.67 |" in table


def test_single_agent_baselines(retriever: Any) -> None:
    script = ["Answer Choice: A", "The correct answer is B.", "no idea"]
    ctx = MedragContext(models={"baseline": ScriptedChatModel(script=script)}, retriever=retriever)
    result = run_benchmark(questions(), "cot", n=None, context=ctx)
    assert [r["answer"] for r in result["questions"]] == ["A", "B", None]
    assert result["metrics"]["accuracy"] == pytest.approx(2 / 3)
    assert retriever.calls == []
    ctx = MedragContext(
        models={"baseline": ScriptedChatModel(script=["Answer Choice: A"])},
        retriever=retriever,
        k=3,
    )
    result = run_benchmark(questions()[:1], "rag", n=None, context=ctx)
    assert retriever.calls == [("Question 1?", 3)]
    assert result["questions"][0]["log"]["retrieval"][0]["ids"] == ["sec-0", "sec-1", "sec-2"]


def test_self_consistency_uses_the_debate_call_budget(retriever: Any) -> None:
    model = ScriptedChatModel(script=["Answer Choice: B"], repeat_last=True)
    ctx = MedragContext(models={"baseline": model}, retriever=retriever, rounds=2)
    result = run_benchmark(questions()[:1], "sc_rag", n=None, context=ctx)
    # budget of a 2-agent, 2-round debate: 4 turns + 2 summaries + 1 verifier = 7
    assert model.calls == 7 and len(retriever.calls) == 1
    record = result["questions"][0]
    assert (record["answer"], record["consensus_type"]) == ("B", "majority_vote")
    temps = sorted(h["temperature"] for h in record["log"]["history"])
    assert temps == [0.3, 0.3, 0.3, 0.7, 0.7, 0.7, 0.7]
    model = ScriptedChatModel(script=["Answer Choice: C"], repeat_last=True)
    ctx = MedragContext(models={"baseline": model}, retriever=retriever)
    run_benchmark(questions()[:1], "sc", n=None, context=ctx, sc_samples=3)
    assert model.calls == 3


def test_ablations_reach_the_debate(retriever: Any) -> None:
    models = {
        "agent1": ScriptedChatModel(script=["Answer Choice: A"]),
        "agent2": ScriptedChatModel(script=["Answer Choice: B"]),
    }
    ctx = MedragContext(models=models, retriever=retriever)
    result = run_benchmark(
        questions()[:1],
        "debate",
        context=ctx,
        ablations={"rounds": 1, "use_verifier": False, "use_retrieval": False},
    )
    record = result["questions"][0]
    assert record["consensus_type"] == "agent1_fallback" and retriever.calls == []
    assert result["experiment"]["name"].endswith("-rounds=1-use_retrieval=False-use_verifier=False")
    with pytest.raises(ConfigError, match="unknown ablation"):
        run_benchmark(questions(), "debate", context=ctx, ablations={"nope": 1})


def test_a_failing_question_is_recorded_and_the_run_goes_on(retriever: Any) -> None:
    script: list[Any] = [RuntimeError("server down"), "Answer Choice: B"]
    ctx = MedragContext(models={"baseline": ScriptedChatModel(script=script)}, retriever=retriever)
    result = run_benchmark(questions()[:2], "cot", n=None, context=ctx)
    first, second = result["questions"]
    assert first["error"] == "RuntimeError: server down" and first["answer"] is None
    assert second["answer"] == "B" and result["metrics"]["errors"] == 1


def test_bad_arguments_are_config_errors(retriever: Any) -> None:
    with pytest.raises(ConfigError, match="unknown protocol"):
        run_benchmark(questions(), "chaos")
    with pytest.raises(ConfigError, match="no gold snippets"):
        run_benchmark(questions(), "rag", corpus="gold")


def test_parse_ablations() -> None:
    assert parse_ablations(["use_verifier=false", "rounds=1", "model=local:x"]) == {
        "use_verifier": False,
        "rounds": 1,
        "model": "local:x",
    }
    with pytest.raises(ConfigError):
        parse_ablations(["rounds"])


def test_cli_writes_results(
    retriever: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = harness.run_benchmark

    def scripted_run(dataset: str, protocol: str, n: int, seed: int, **kw: Any) -> dict:
        assert (dataset, protocol, n, seed) == ("medqa", "cot", 2, 5)
        assert kw["ablations"] == {"use_verifier": False}
        model = ScriptedChatModel(script=["Answer Choice: A"], repeat_last=True)
        kw["context"] = MedragContext(models={"baseline": model}, retriever=retriever)
        return real(questions()[:2], protocol, n, seed, **kw)

    monkeypatch.setattr(harness, "run_benchmark", scripted_run)
    app = typer.Typer()
    app.command()(bench)
    args = ["medqa", "-p", "cot", "-n", "2", "--seed", "5", "-o", str(tmp_path)]
    result = CliRunner().invoke(app, [*args, "--ablate", "use_verifier=false"])
    assert result.exit_code == 0, result.output
    name = "toy-cot-n2-s5-use_verifier=False"
    assert json.loads((tmp_path / f"{name}.json").read_text())["metrics"]["correct"] == 1
    assert (tmp_path / f"{name}.md").exists() and "acc 1/2" in result.output


def test_call_budget_follows_the_ablations() -> None:
    from disputatio.eval.baselines import debate_call_budget
    from disputatio.nodes.medrag.context import resolve

    # 2 agents x 3 rounds + 2 summaries x 2 gaps + 1 verifier
    assert debate_call_budget(resolve(MedragContext(rounds=3))) == 6 + 4 + 1
    assert debate_call_budget(resolve(MedragContext(rounds=3, use_verifier=False))) == 10
    assert debate_call_budget(resolve(MedragContext(rounds=3, use_summaries=False))) == 7
