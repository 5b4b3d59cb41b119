"""``run_eval`` with the hierarchical protocols: the graph, numeric verdicts, sc, no RAG."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from disputatio.eval.config import EvalConfig
from disputatio.eval.results import ResultsLog
from disputatio.eval.runner import run_eval
from disputatio.testing import ScriptedChatModel

from .conftest import fake_retriever, hier_env, hier_models
from .runner_plans import plan


def test_the_hierarchical_protocols_run_through_the_graph(
    tmp_path: Path, config: EvalConfig
) -> None:
    retriever = fake_retriever()
    env_for = hier_env(hier_models("Verdict: A. See [S1]. Answer Choice: A"), retriever)
    protocols = ("hier", "hier_flat", "hier_nodebate", "hier_norag")
    summary = run_eval(config, plan(protocols, n=2), env_for, out_root=tmp_path)
    assert (summary["new"], summary["errors"]) == (8, 0)
    records = ResultsLog(Path(summary["run_dir"]) / "results.jsonl").read()
    assert all(r["answer"] == "A" for r in records)
    initial = {r["protocol"]: len(r["initial_answers"]) for r in records}
    assert initial["hier_nodebate"] == 1 and initial["hier_flat"] > 1
    assert all(r["log"]["transcript"] and r["usage"] for r in records)
    assert retriever.calls  # the retrieval protocols searched


def test_hier_protocols_answer_a_decomposed_numeric_question_with_the_final_verdict(
    tmp_path: Path, config: EvalConfig
) -> None:
    """A composition answers each step; the protocol asks the root for the one number."""
    from disputatio.eval.protocols import ProtocolEnv
    from disputatio.eval.question import Question
    from disputatio.nodes.debate.context import DebateContext
    from disputatio.nodes.medrag.context import MedragContext
    from disputatio.settings import load_settings

    settings = load_settings(models={"chat": "openai:never-called"})
    plan_reply = '{"subquestions": ["How many apples?", "How many pears?"]}'
    models: dict[str, Any] = {
        "orchestrator": ScriptedChatModel(script=[plan_reply], repeat_last=True),
        "worker": ScriptedChatModel(script=["Verdict: 5\nThere are 5."], repeat_last=True),
        "aggregator": ScriptedChatModel(script=["Verdict: 12\n5 + 7."], repeat_last=True),
    }

    def env_for(_d: str, _q: Any) -> ProtocolEnv:
        return ProtocolEnv(
            medrag=MedragContext(models=models, settings=settings),
            hier=DebateContext(models=models, settings=settings, max_depth=1),
        )

    qs = [Question(id="g1", dataset="gsm8k", question="Apples and pears?", options=[], gold="12")]
    summary = run_eval(config, plan(("hier_norag",), questions=qs), env_for, out_root=tmp_path)
    assert summary["errors"] == 0
    (record,) = ResultsLog(Path(summary["run_dir"]) / "results.jsonl").read()
    assert models["aggregator"].calls == 1
    assert (record["answer"], record["status"], record["log"]["pattern"]) == ("12", "OK", "verdict")
    assert record["correct"] is True


def test_sc_matches_the_hierarchical_debate_where_the_medrag_one_did_not_run(
    tmp_path: Path, config: EvalConfig
) -> None:
    """GSM8K without ``medrag_norag`` in the plan: ``sc`` is matched to ``hier_norag``."""
    from disputatio.eval.question import Question

    models = hier_models("2 + 2 = 4, so \\boxed{4}")
    models["baseline"] = ScriptedChatModel(script=["\\boxed{4}"], repeat_last=True)
    env_for = hier_env(models)
    qs = [Question(id="g1", dataset="gsm8k", question="2+2?", options=[], gold="4")]
    summary = run_eval(config, plan(("hier_norag", "sc"), questions=qs), env_for, out_root=tmp_path)
    assert summary["errors"] == 0
    records = {
        r["protocol"]: r for r in ResultsLog(Path(summary["run_dir"]) / "results.jsonl").read()
    }
    assert set(records) == {"hier_norag", "sc"}
    hier_calls = sum(u["calls"] for u in records["hier_norag"]["usage"].values())
    budget = records["sc"]["budget"]
    assert budget["matched"] and budget["target_calls"] == hier_calls
    assert sum(u["calls"] for u in records["sc"]["usage"].values()) == hier_calls


def test_the_no_rag_ablation_never_searches(tmp_path: Path, config: EvalConfig) -> None:
    models = hier_models("Verdict: A. See [S1]. Answer Choice: A")
    searched: dict[str, int] = {}
    for protocol in ("hier_norag", "hier"):
        retriever = fake_retriever()
        env_for = hier_env(models, retriever)
        summary = run_eval(config, plan((protocol,), n=1), env_for, out_root=tmp_path / protocol)
        assert summary["errors"] == 0
        searched[protocol] = len(retriever.calls)
    assert searched["hier_norag"] == 0 and searched["hier"] > 0
