"""The MedRAG debate does what seed 001 says (scripted models: one script per agent and role).

Every model here is a :class:`ScriptedChatModel`, which records the generation parameters each
call RECEIVED (temperature, max_tokens, stop, extra_body), so these tests check what reached
each model, not what the code meant to send.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from disputatio.nodes.medrag.text import clean_response, debate_transcript, section_chars
from disputatio.settings import load_settings
from disputatio.testing import ScriptedChatModel

from .conftest import QUESTION

RunDebate = Callable[..., tuple[Any, list[Any]]]


def scripted(name: str, *replies: Any) -> ScriptedChatModel:
    return ScriptedChatModel(script=list(replies), name=name)


def text_of(model: ScriptedChatModel, call: int) -> str:
    return "\n".join(str(m.content) for m in model.prompts[call])


def disagreeing(**extra: ScriptedChatModel) -> dict[str, ScriptedChatModel]:
    """Two agents who never agree over two rounds, with summaries and a verifier."""
    return {
        "agent1": scripted("agent1", 'retrieve("biguanide")', "A [S1]. \\boxed{A}", "x", "A."),
        "agent2": scripted("agent2", 'retrieve("metformin")', "B [S2]. \\boxed{B}", "y", "B."),
        "agent1_summarizer": scripted("sum1", "Agent1 thinks A. \\boxed{A}"),
        "agent2_summarizer": scripted("sum2", "Agent2 thinks B. \\boxed{B}"),
        "verifier": scripted("verifier", "B is right. \\boxed{B}"),
        **extra,
    }


def test_each_model_receives_its_temperature_stop_and_penalty(run_debate: RunDebate) -> None:
    m = disagreeing()
    m["agent1"].script[2:] = ['retrieve("a")', "Still A. \\boxed{A}"]
    m["agent2"].script[2:] = ['retrieve("b")', "Still B. \\boxed{B}"]
    out, _ = run_debate(m, agent_query=True)
    assert out["consensus_type"] == "verifier"
    expected = {
        "agent1": 0.7,
        "agent2": 0.3,
        "agent1_summarizer": 0.1,
        "agent2_summarizer": 0.1,
        "verifier": 0.7,
    }
    for name, temperature in expected.items():
        received = m[name].received
        assert received, name
        assert {r["temperature"] for r in received} == {temperature}, name
        for r in received:
            assert "<|im_end|>" in r["stop"], name
            assert r["extra_body"]["repeat_penalty"] == 1.2, name
    # the search call has its own small budget, the answer the seed-sized one
    assert [r["max_tokens"] for r in m["agent1"].received] == [48, 192, 48, 192]


def test_agents_write_their_own_search_queries(run_debate: RunDebate, retriever: Any) -> None:
    m = {
        "agent1": scripted("agent1", 'retrieve("biguanide first-line")', "B. \\boxed{B}"),
        "agent2": scripted("agent2", "I would search for drugs.", "B. \\boxed{B}"),
    }
    out, _ = run_debate(m, agent_query=True, k=3)
    queries = sorted(q for q, _ in retriever.calls)
    assert queries == sorted(["biguanide first-line", QUESTION])  # agent2 wrote no call
    by_agent = {h["agent"]: h for h in out["log"]["history"]}
    assert by_agent["agent1"]["query"] == "biguanide first-line"
    assert by_agent["agent1"]["query_source"] == "agent"
    assert by_agent["agent2"]["query"] == QUESTION
    assert by_agent["agent2"]["query_source"] == "question"
    # the answer call extends the query call: same prefix, then the call and the documents
    first, second = m["agent1"].prompts
    assert [type(x) for x in second[: len(first)]] == [type(x) for x in first]
    assert [x.content for x in second[: len(first)]] == [x.content for x in first]
    assert 'retrieve("biguanide first-line")' in str(second[len(first)].content)


def test_retriever_failure_falls_back_to_reasoning_without_evidence(
    run_debate: RunDebate, retriever: Any
) -> None:
    def broken(*_: Any, **__: Any) -> Any:
        raise ConnectionError("database is down")

    retriever.search = broken
    m = {
        "agent1": scripted("agent1", "B. \\boxed{B}"),
        "agent2": scripted("agent2", "B. \\boxed{B}"),
    }
    out, _ = run_debate(m)
    assert (out["answer"], out["consensus_type"]) == ("B", "agreement")
    assert all(t["retrieval_error"] for t in out["turns"])
    assert all("database is down" in t["retrieval"]["error"] for t in out["turns"])
    assert len(out["notes"]) == 2 and "without evidence" in out["notes"][0]
    assert "search failed" in text_of(m["agent1"], 0)


def test_an_empty_reply_is_an_error_not_a_parse_failure(run_debate: RunDebate) -> None:
    m = {
        "agent1": scripted("agent1", "   "),
        "agent2": scripted("agent2", "B. \\boxed{B}"),
    }
    out, _ = run_debate(m, rounds=1, use_verifier=False)
    statuses = {t["agent"]: t["status"] for t in out["turns"]}
    assert statuses == {"agent1": "ERROR", "agent2": "OK"}
    assert (out["answer"], out["consensus_type"]) == ("B", "majority_vote")


def test_verifier_sees_both_agents_choices_in_a_long_debate(run_debate: RunDebate) -> None:
    rambling = "The mechanism is complicated and involves many pathways. " * 80
    m = disagreeing()
    m["agent1"].script = [rambling + "\\boxed{A}", rambling + "So \\boxed{A}"]
    m["agent2"].script = [rambling + "\\boxed{C}", rambling + "So \\boxed{C}"]
    out, _ = run_debate(m)
    view = text_of(m["verifier"], 0)
    assert "agent1: A" in view and "agent2: C" in view
    debate = view.split("<debate>")[1].split("</debate>")[0]
    assert debate.count("\\boxed{A}") == 2 and debate.count("\\boxed{C}") == 2
    assert out["verdict"]["transcript_chars"] <= 3500
    # replies were cleaned of the loop and capped
    assert all(len(t["response"]) <= 2000 for t in out["turns"])


def test_log_has_the_seed_shape(run_debate: RunDebate) -> None:
    m = disagreeing()
    m["agent1"].script = ["A [S1]. \\boxed{A}", "Still A. \\boxed{A}"]
    m["agent2"].script = ["B [S2]. \\boxed{B}", "Still B. \\boxed{B}"]
    out, _ = run_debate(m)
    log = out["log"]
    assert log["mode"] == "debate_rag"
    assert log["final_answer"]["answer_choice"] == "B"
    assert log["final_answer"]["consensus_type"] == "verification_consensus"
    assert set(log["timing"]) >= {"total_time", "retrieval_time", "generation_time"}
    for entry in log["history"]:
        assert set(entry["answer"]) == {
            "step_by_step_thinking",
            "answer_choice",
            "retrieval_time",
            "generation_time",
        }
        assert entry["answer"]["retrieval_time"] >= 0 and entry["answer"]["generation_time"] >= 0
    assert [h["answer"]["answer_choice"] for h in log["history"]] == ["A", "B", "A", "B"]


def test_short_labels_are_mapped_back_to_section_ids(run_debate: RunDebate) -> None:
    m = {
        "agent1": scripted("agent1", "Metformin [S2] [S9]. \\boxed{B}"),
        "agent2": scripted("agent2", "Metformin [S1]. \\boxed{B}"),
    }
    out, _ = run_debate(m, k=3)
    turns = {t["agent"]: t for t in out["turns"]}
    assert turns["agent1"]["citations"] == ["sec-1"] and turns["agent1"]["unverified"] == ["S9"]
    assert 'id="S1"' in text_of(m["agent1"], 0) and "sec-0" not in text_of(m["agent1"], 0)
    assert sorted(c["id"] for c in out["citations"]) == ["sec-0", "sec-1"]


def test_round_two_extends_the_agents_own_conversation(run_debate: RunDebate) -> None:
    m = disagreeing()
    m["agent1"].script = ["A. \\boxed{A}", "Now B. \\boxed{B}"]
    m["agent2"].script = ["B. \\boxed{B}", "B. \\boxed{B}"]
    out, _ = run_debate(m)
    assert out["consensus_type"] == "agreement"
    round1, round2 = m["agent1"].prompts
    summary = m["agent1_summarizer"].prompts[0]
    # the summary and round 2 both start with the agent's round-1 conversation (cached prefix)
    assert [x.content for x in summary[: len(round1)]][:-1] == [x.content for x in round1][:-1]
    assert [x.content for x in round2[: len(round1)]][:-1] == [x.content for x in round1][:-1]
    assert "Agent2 thinks B" in str(round2[-1].content)


def test_transcript_holds_every_move(run_debate: RunDebate) -> None:
    m = disagreeing()
    m["agent1"].script = ["A. \\boxed{A}", "A. \\boxed{A}"]
    m["agent2"].script = ["B. \\boxed{B}", "B. \\boxed{B}"]
    out, _ = run_debate(m)
    kinds = [(mv["agent"], mv["kind"]) for mv in out["transcript"]]
    assert kinds.count(("verifier", "verdict")) == 1
    assert {k for _, k in kinds} == {"answer", "summary", "verdict"}
    assert len([k for k in kinds if k[1] == "answer"]) == 4


def test_cleaning_removes_loops_and_keeps_the_answer_under_the_cap() -> None:
    loop = "I think the answer is A. " * 200
    cleaned = clean_response(loop + "\\boxed{B}", 2000)
    assert cleaned.count("I think the answer is A.") == 1 and cleaned.endswith("\\boxed{B}")
    long = " ".join(f"word{i}" for i in range(2000)) + " \\boxed{C}"
    capped = clean_response(long, 2000)
    assert len(capped) <= 2000 and capped.startswith("word0") and capped.endswith("\\boxed{C}")


def test_transcript_is_cut_from_the_start_keeping_answer_lines() -> None:
    turns: list[Any] = [
        {"agent": a, "round": r, "response": "x " * 3000 + f"\\boxed{{{c}}}"}
        for r in (1, 2)
        for a, c in (("agent1", "A"), ("agent2", "D"))
    ]
    view = debate_transcript(turns, 3500)
    assert len(view) <= 3500 and view.count("\\boxed{A}") == 2 and view.count("\\boxed{D}") == 2


def test_default_sizes_fit_two_parallel_llama_cpp_slots() -> None:
    s = load_settings()
    med, slot = s.medrag, s.local_llm.n_ctx // s.local_llm.n_parallel
    kwargs = {
        "k": med.k,
        "rounds": med.rounds,
        "answer_tokens": med.max_tokens,
        "query_tokens": med.query_max_tokens,
        "summary_tokens": med.summary_max_tokens,
        "agents": len(med.temperatures),
        "question_chars": 1500,
    }
    assert section_chars(wanted=med.section_max_chars, slot_tokens=slot, **kwargs) == (
        med.section_max_chars
    )
    # a small slot shortens the sections instead of overflowing
    small = section_chars(wanted=med.section_max_chars, slot_tokens=2048, **kwargs)
    assert small < med.section_max_chars
    worst_tokens = kwargs["rounds"] * kwargs["k"] * small / 3 + 250 * kwargs["rounds"]
    assert worst_tokens < 2048


def test_turn_times_split_searching_from_generating(
    run_debate: RunDebate, retriever: Any, monkeypatch: Any
) -> None:
    """retrieval_time is the search alone; the agent's search call counts as generation.

    A clock per thread (each agent's turn runs in its own): every model call moves it 5 s,
    every search 1 s, so the expected times are exact.
    """
    import threading
    from types import SimpleNamespace

    from disputatio.nodes.medrag import turns
    from disputatio.tools import turn_search as search_module

    clock = threading.local()

    def now() -> float:
        return float(getattr(clock, "t", 0.0))

    def tick(seconds: float) -> None:
        clock.t = now() + seconds

    def reply(text: str) -> Callable[[Any], str]:
        def answer(_messages: Any) -> str:
            tick(5.0)
            return text

        return answer

    search = retriever.search

    def timed_search(*args: Any, **kwargs: Any) -> Any:
        tick(1.0)
        return search(*args, **kwargs)

    monkeypatch.setattr(retriever, "search", timed_search)
    # only the turn and search modules see the fake clock (patching time.perf_counter would
    # reach all)
    for module in (turns, search_module):
        monkeypatch.setattr(module, "time", SimpleNamespace(perf_counter=now))
    m = {
        "agent1": scripted("agent1", reply('retrieve("biguanide")'), reply("B [S1]. \\boxed{B}")),
        "agent2": scripted("agent2", reply('retrieve("metformin")'), reply("B [S2]. \\boxed{B}")),
    }
    out, _ = run_debate(m, rounds=1, use_verifier=False, agent_query=True)
    for turn in out["turns"]:
        assert (turn["retrieval_time"], turn["generation_time"]) == (1.0, 10.0), turn["agent"]
    assert out["log"]["timing"]["retrieval_time"] == 2.0
    assert out["log"]["timing"]["generation_time"] == 20.0
