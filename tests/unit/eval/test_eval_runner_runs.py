"""``run_eval`` on scripted models: same questions, matched budgets, logs, progress, Ctrl-C."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from disputatio.errors import ConfigError
from disputatio.eval.config import EvalConfig
from disputatio.eval.results import ResultsLog
from disputatio.eval.runner import draw, run_eval
from disputatio.testing import ScriptedChatModel

from .conftest import scripted_models, toy_questions
from .runner_plans import by_protocol, plan


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
