"""``run_eval`` on scripted models: same questions, matched budgets, resumption, identity."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from disputatio.errors import ConfigError
from disputatio.eval.config import EvalConfig
from disputatio.eval.results import ResultsLog, write_manifest
from disputatio.eval.runner import Plan, draw, run_eval
from disputatio.testing import ScriptedChatModel

from .conftest import fake_retriever, hier_env, hier_models, scripted_models, toy_questions


def plan(protocols: tuple[str, ...], n: int = 3, questions: Any = None) -> Plan:
    qs = questions or toy_questions(6)
    return Plan(("toy",), protocols, n=n, loader=lambda _name: list(qs))


def by_protocol(records: list[dict[str, Any]]) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for r in records:
        out.setdefault(r["protocol"], set()).add(r["question_id"])
    return out


def test_draw_is_seeded_and_prefix_stable() -> None:
    qs = toy_questions(30)
    assert draw(qs, 10, 7) == draw(list(reversed(qs)), 10, 7)
    assert draw(qs, 10, 7) == draw(qs, 25, 7)[:10]
    assert draw(qs, 10, 7) != draw(qs, 10, 8)


def test_every_protocol_answers_the_same_questions_and_sc_matches_the_debate(
    tmp_path: Path, make_env: Any, config: EvalConfig
) -> None:
    models = scripted_models(agents=("A", "B"))  # disagree: 2 rounds, summaries, verifier
    summary = run_eval(
        config, plan(("cot", "medrag", "sc_rag")), make_env(models), out_root=tmp_path
    )
    assert (summary["new"], summary["errors"], summary["skipped"]) == (9, 0, 0)
    records = ResultsLog(Path(summary["run_dir"]) / "results.jsonl").read()
    drawn = {q.id for q in draw(toy_questions(6), 3, config.seed)}
    assert by_protocol(records) == {"cot": drawn, "medrag": drawn, "sc_rag": drawn}
    debate = {r["question_id"]: r for r in records if r["protocol"] == "medrag"}
    for sc in (r for r in records if r["protocol"] == "sc_rag"):
        target = debate[sc["question_id"]]
        calls = sum(u["calls"] for u in target["usage"].values())
        out_tokens = sum(u["output_tokens"] for u in target["usage"].values())
        assert calls > 2  # the debate went past round 1
        assert sc["budget"]["matched"] and sc["budget"]["target_calls"] == calls
        assert sum(u["calls"] for u in sc["usage"].values()) == calls
        assert sc["budget"]["max_tokens_per_sample"] == max(16, -(-out_tokens // calls))
    assert all(r["run_id"] == config.run_id for r in records)


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


def test_logs_have_the_medrag_seed_layout(
    tmp_path: Path, make_env: Any, config: EvalConfig
) -> None:
    models = scripted_models(agents=("A", "B"))
    summary = run_eval(config, plan(("medrag",), n=2), make_env(models), out_root=tmp_path)
    folder = Path(summary["run_dir"]) / "logs" / "toy" / "oracle" / "medrag"
    files = sorted(p.name for p in folder.iterdir())
    assert "toy_results.json" in files and "summarization_logs.jsonl" in files
    logs = [f for f in files if f.endswith("__complete_debate.json")]
    assert len(logs) == 2
    doc = json.loads((folder / logs[0]).read_text())
    assert doc["protocol"] == "medrag" and doc["mode"]
    assert doc["final_answer"]["consensus_type"] and "is_correct" in doc["final_answer"]
    assert doc["history"] and doc["correct_answer"] in "ABCD"
    results = json.loads((folder / "toy_results.json").read_text())
    assert results["total"] == 2 and len(results["results"]) == 2
    lines = (folder / "summarization_logs.jsonl").read_text().splitlines()
    assert lines and all(json.loads(line)["question_id"] for line in lines)


def test_numeric_questions_take_only_the_no_retrieval_protocols(
    tmp_path: Path, make_env: Any, config: EvalConfig
) -> None:
    from disputatio.eval.question import Question

    qs = [
        Question(id=f"g{i}", dataset="gsm8k", question=f"{i}+1?", options=[], gold=str(i + 1))
        for i in range(3)
    ]
    models = {"baseline": ScriptedChatModel(script=["1 + 1 = 2, so \\boxed{2}"], repeat_last=True)}
    summary = run_eval(
        config,
        plan(("cot", "rag", "medrag", "sc"), questions=qs),
        make_env(models),
        out_root=tmp_path,
    )
    records = ResultsLog(Path(summary["run_dir"]) / "results.jsonl").read()
    assert set(by_protocol(records)) == {"cot", "sc"}  # rag and medrag search the corpus
    cot = {r["question_id"]: r for r in records if r["protocol"] == "cot"}
    assert cot["g1"]["answer"] == "2" and cot["g1"]["correct"]
    assert cot["g0"]["answer"] == "2" and not cot["g0"]["correct"]


def test_unknown_protocols_are_config_errors(
    tmp_path: Path, make_env: Any, config: EvalConfig
) -> None:
    with pytest.raises(ConfigError, match="unknown protocol"):
        run_eval(config, plan(("chaos",)), make_env({}), out_root=tmp_path)


def test_bench_never_overwrites_or_resumes_another_configuration(tmp_path: Path) -> None:
    from disputatio.eval.harness import run_benchmark
    from disputatio.nodes.medrag.context import MedragContext

    qs = toy_questions(2)
    first = run_benchmark(
        qs, "cot", n=None, context=MedragContext(models=scripted_models()), out_dir=tmp_path
    )
    same = run_benchmark(
        qs, "cot", n=None, context=MedragContext(models=scripted_models()), out_dir=tmp_path
    )
    other = run_benchmark(
        qs,
        "cot",
        n=None,
        context=MedragContext(models=scripted_models(), max_tokens=64),
        out_dir=tmp_path,
    )
    name = first["experiment"]["name"]
    assert same["experiment"]["name"] == name  # same configuration: same file
    assert other["experiment"]["name"] == f"{name}-{other['experiment']['config_hash']}"
    assert other["experiment"]["config_hash"] != first["experiment"]["config_hash"]
    assert {r["thread_id"] for r in first["questions"]}.isdisjoint(
        r["thread_id"] for r in other["questions"]
    )
    assert len(list(tmp_path.glob("*.json"))) == 2


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


def test_the_debate_record_keeps_the_agents_first_round_answers(
    tmp_path: Path, make_env: Any, config: EvalConfig
) -> None:
    """Change of answer compares the final answer with these (the seed's definition)."""
    models = scripted_models(agents=("B", "C"))
    summary = run_eval(config, plan(("medrag",), n=1), make_env(models), out_root=tmp_path)
    (record,) = ResultsLog(Path(summary["run_dir"]) / "results.jsonl").read()
    assert sorted(record["initial_answers"]) == ["B", "C"]


def test_agent_messages_and_tool_calls_name_their_sub_question() -> None:
    from disputatio.eval.store import messages_of, tool_calls_of

    log = {
        "transcript": [
            {"node": "root.1", "agent": "w0", "round": 0, "content": "x", "queries": ["a", "b"]},
            {"node": "root.2", "agent": "w1", "round": 0, "content": "y", "queries": ["c"]},
            {"node": "root", "agent": "w0", "round": 1, "content": "z", "queries": []},
        ]
    }
    usage = {"w0": {"input_tokens": 10, "output_tokens": 2}, "w1": {"input_tokens": 5}}
    messages = list(messages_of(log, usage))
    assert [m["sub_question"] for m in messages] == ["root.1", "root.2", "root"]
    assert [m["usage"].get("input_tokens", 0) for m in messages] == [10, 5, 0]  # once per agent
    calls = list(tool_calls_of(log))
    assert [(c["sub_question"], c["arguments"]["query"]) for c in calls] == [
        ("root.1", "a"),
        ("root.1", "b"),
        ("root.2", "c"),
    ]


def test_progress_callbacks_count_the_pending_work_only(
    tmp_path: Path, make_env: Any, config: EvalConfig
) -> None:
    """What the progress bar (and its ETA) is fed: the total pending, then each record."""
    run_eval(config, plan(("cot",), n=2), make_env(scripted_models()), out_root=tmp_path)
    starts: list[tuple[int, int]] = []
    done: list[tuple[int, int]] = []
    run_eval(
        config,
        plan(("cot", "rag"), n=3),
        make_env(scripted_models()),
        out_root=tmp_path,
        on_start=lambda pending, finished: starts.append((pending, finished)),
        on_record=lambda _r, n, total: done.append((n, total)),
    )
    assert starts == [(4, 2)]  # 3 rag + 1 cot left; 2 cot finished before
    assert done == [(1, 4), (2, 4), (3, 4), (4, 4)]


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


def test_ctrl_c_is_reported_once_and_nothing_queued_starts_after_it(
    tmp_path: Path, make_env: Any, config: EvalConfig
) -> None:
    """``on_interrupt`` is how ``eval run`` says it is finishing the questions in flight."""

    def ctrl_c(_messages: Any) -> str:
        raise KeyboardInterrupt

    models = scripted_models()
    models["baseline"] = ScriptedChatModel(script=[ctrl_c, "Answer Choice: A"], repeat_last=True)
    seen: list[int] = []
    with pytest.raises(KeyboardInterrupt):
        run_eval(
            config,
            plan(("cot",), n=3),
            make_env(models),
            out_root=tmp_path,
            on_interrupt=seen.append,
        )
    (in_flight,) = seen  # reported once: 0 or 1 (the worker may have taken the next one)
    assert models["baseline"].calls == 1 + in_flight  # the third question never started
    log = ResultsLog(next(tmp_path.iterdir()) / "results.jsonl")
    assert len(log.finished()) == in_flight  # the one in flight was finished and saved


def test_gsm8k_takes_the_numeric_medrag_debate_and_sc_matches_its_actual_calls(
    tmp_path: Path, make_env: Any, config: EvalConfig
) -> None:
    """``medrag_norag`` debates numbers on GSM8K; ``sc`` is matched to it, before ``hier_norag``."""
    from disputatio.eval.question import Question

    from .conftest import fake_retriever

    qs = [Question(id="g1", dataset="gsm8k", question="12 * 5?", options=[], gold="60")]
    models = {
        "agent1": ScriptedChatModel(script=["12 * 5 = 60. \\boxed{60}"], repeat_last=True),
        "agent2": ScriptedChatModel(script=["12 * 5 = 50. \\boxed{50}"], repeat_last=True),
        "agent1_summarizer": ScriptedChatModel(script=["60. \\boxed{60}"], repeat_last=True),
        "agent2_summarizer": ScriptedChatModel(script=["50. \\boxed{50}"], repeat_last=True),
        "verifier": ScriptedChatModel(script=["12 * 5 is 60. \\boxed{60.00}"], repeat_last=True),
        "baseline": ScriptedChatModel(script=["\\boxed{60}"], repeat_last=True),
    }
    retriever = fake_retriever()
    summary = run_eval(
        config,
        plan(("medrag", "medrag_norag", "sc"), questions=qs),
        make_env(models, retriever),
        out_root=tmp_path,
    )
    assert (summary["new"], summary["errors"]) == (2, 0)
    records = {
        r["protocol"]: r for r in ResultsLog(Path(summary["run_dir"]) / "results.jsonl").read()
    }
    assert set(records) == {"medrag_norag", "sc"} and retriever.calls == []
    debate = records["medrag_norag"]
    assert (debate["answer"], debate["consensus_type"], debate["correct"]) == (
        "60",
        "verifier",
        True,
    )
    assert debate["verifier_status"] == "OK" and debate["initial_answers"] == ["60", "50"]
    assert debate["answers_per_round"][-1]["answers"] == {"agent1": "60", "agent2": "50"}
    calls = sum(u["calls"] for u in debate["usage"].values())
    assert calls == 2 * 2 + 2 + 1  # two rounds of two agents, two summaries, the verifier
    budget = records["sc"]["budget"]
    assert budget["matched"] and budget["target_calls"] == calls
    assert records["sc"]["answer"] == "60" and records["sc"]["correct"]
    # the agents were asked for a number, never shown options or documents
    first = "".join(str(m.content) for m in models["agent1"].prompts[0])
    assert "\\boxed{N}" in first and "<options>" not in first and "<documents>" not in first
    # the seed-shaped per-question log carries the numbers
    folder = Path(summary["run_dir"]) / "logs" / debate["dataset"] / config.corpus / "medrag_norag"
    doc = json.loads((folder / "g1__complete_debate.json").read_text())
    assert doc["final_answer"]["answer_choice"] == "60" and doc["final_answer"]["is_correct"]
    assert [h["answer"]["answer_choice"] for h in doc["history"]] == ["60", "50", "60", "50"]
