"""Orchestration of the MedRAG debate with scripted models (one script per agent and role)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from disputatio.errors import ConfigError
from disputatio.testing import ScriptedChatModel

from .scripted import models

QUESTION = "Which drug is a biguanide used first-line in type 2 diabetes?"

RunDebate = Callable[..., tuple[Any, list[Any]]]


def prompt_text(model: ScriptedChatModel, call: int) -> str:
    return "\n".join(str(m.content) for m in model.prompts[call])


def test_agreement_in_round_one_ends_the_debate(run_debate: RunDebate, retriever: Any) -> None:
    m = models(["Metformin lowers glucose.\nAnswer Choice: B"], ["The correct answer is B."])
    out, _ = run_debate(m, k=4)
    assert (out["answer"], out["consensus_type"], out["agreement_round"]) == ("B", "agreement", 1)
    assert sorted((t["agent"], t["round"]) for t in out["turns"]) == [("agent1", 1), ("agent2", 1)]
    # no summary and no verifier were needed (their scripts are empty and would raise)
    assert m["agent1_summarizer"].calls == m["agent2_summarizer"].calls == m["verifier"].calls == 0
    assert sorted(retriever.calls) == [(QUESTION, 4), (QUESTION, 4)]
    assert out["log"]["rounds_run"] == 1


def test_round_two_sees_the_other_agents_summary_and_requeries_with_it(
    run_debate: RunDebate, retriever: Any
) -> None:
    m = models(
        ["Answer Choice: A", "Reconsidered.\nAnswer Choice: B"],
        ["Answer Choice: B", "Still B.\nAnswer Choice: B"],
        sum1=["SUMMARY-OF-AGENT1: aspirin is antiplatelet. Answer Choice: A"],
        sum2=["SUMMARY-OF-AGENT2: metformin is a biguanide. Answer Choice: B"],
    )
    out, _ = run_debate(m, k=5)
    assert (out["answer"], out["consensus_type"], out["agreement_round"]) == ("B", "agreement", 2)
    round2_agent1, round2_agent2 = prompt_text(m["agent1"], 1), prompt_text(m["agent2"], 1)
    assert "SUMMARY-OF-AGENT2" in round2_agent1 and "SUMMARY-OF-AGENT1" not in round2_agent1
    assert "SUMMARY-OF-AGENT1" in round2_agent2 and "SUMMARY-OF-AGENT2" not in round2_agent2
    assert "SUMMARY-OF" not in prompt_text(m["agent1"], 0)  # round 1 is independent
    # the summariser saw the agent's own round-1 reply
    assert "Answer Choice: A" in prompt_text(m["agent1_summarizer"], 0)
    # retrieval: once per agent per round, always with k; round 2 queries carry the peer summary
    assert len(retriever.calls) == 4 and all(k == 5 for _, k in retriever.calls)
    round2_queries = [q for q, _ in retriever.calls if q != QUESTION]
    assert sorted(q.split("\n", 1)[1][:18] for q in round2_queries) == [
        "SUMMARY-OF-AGENT1:",
        "SUMMARY-OF-AGENT2:",
    ]
    assert all(q.startswith(QUESTION) for q in round2_queries)


def test_verifier_decides_a_debate_without_agreement(run_debate: RunDebate) -> None:
    m = models(
        ["<think>hmm</think>Answer Choice: A", "Answer Choice: A"],
        ["Answer Choice: B", "Answer Choice: B"],
        sum1=["A because antiplatelet"],
        sum2=["B because biguanide"],
        verifier=["Agent2 is right. Answer Choice: B"],
    )
    out, _ = run_debate(m)
    assert (out["answer"], out["consensus_type"]) == ("B", "verifier")
    transcript = prompt_text(m["verifier"], 0)
    assert '<turn agent="agent1" round="1">' in transcript and "<think>" not in transcript
    assert out["verdict"]["status"] == "OK"


def test_verifier_sees_a_truncated_debate(run_debate: RunDebate) -> None:
    long = "x" * 5000 + "\nAnswer Choice: A"
    m = models(
        [long, long],
        ["Answer Choice: B"] * 2,
        sum1=["s"],
        sum2=["s"],
        verifier=["Answer Choice: A"],
    )
    out, _ = run_debate(m, verifier_max_chars=1000)
    assert out["verdict"]["transcript_chars"] <= 1000
    assert out["consensus_type"] == "verifier"


@pytest.mark.parametrize("verdict", ["I cannot decide.", "Answer Choice: F", "ERROR: timeout"])
def test_majority_vote_when_the_verifier_gives_no_valid_answer(
    run_debate: RunDebate, verdict: str
) -> None:
    # valid answers over both rounds: A (agent1 r1), B (agent2 r1), A (agent1 r2), C (agent2 r2)
    m = models(
        ["Answer Choice: A", "Answer Choice: A"],
        ["Answer Choice: B", "Answer Choice: C"],
        sum1=["s1"],
        sum2=["s2"],
        verifier=[verdict],
    )
    out, _ = run_debate(m)
    assert (out["answer"], out["consensus_type"]) == ("A", "majority_vote")  # A: 2 votes
    assert out["verdict"]["status"] != "OK"


def test_agent1_fallback_breaks_a_tie(run_debate: RunDebate) -> None:
    # valid answers: A, B (round 1), B, A (round 2): a 2-2 tie -> Agent1's last valid answer
    m = models(
        ["Answer Choice: A", "Answer Choice: B"],
        ["Answer Choice: B", "Answer Choice: A"],
        sum1=["s1"],
        sum2=["s2"],
        verifier=["no idea"],
    )
    out, _ = run_debate(m)
    assert (out["answer"], out["consensus_type"]) == ("B", "agent1_fallback")


def test_agent1_fallback_skips_agent1s_invalid_last_answer(run_debate: RunDebate) -> None:
    # valid answers: A (agent1 r1), B (agent2 r2): tie; agent1's round-2 "F" is not an option
    m = models(
        ["Answer Choice: A", "Answer Choice: F"],
        ["I am not sure.", "Answer Choice: B"],
        sum1=["s1"],
        sum2=["s2"],
        verifier=["no idea"],
    )
    out, _ = run_debate(m)
    assert (out["answer"], out["consensus_type"]) == ("A", "agent1_fallback")
    statuses = {(t["agent"], t["round"]): t["status"] for t in out["turns"]}
    assert statuses[("agent1", 2)] == "INVALID_CHOICE"
    assert statuses[("agent2", 1)] == "PARSE_FAILED"


def test_failed_when_nobody_ever_answers_validly(run_debate: RunDebate) -> None:
    m = models(
        ["hmm", "hmm"],
        ["Answer Choice: Z", "ERROR: boom"],
        sum1=["s"],
        sum2=["s"],
        verifier=["dunno"],
    )
    out, _ = run_debate(m)
    assert (out["answer"], out["consensus_type"]) == (None, "failed")


@pytest.mark.parametrize("rounds", [1, 3])
def test_rounds_are_bounded(run_debate: RunDebate, retriever: Any, rounds: int) -> None:
    m = models(
        ["Answer Choice: A"] * rounds,
        ["Answer Choice: B"] * rounds,
        sum1=["s1"] * (rounds - 1),
        sum2=["s2"] * (rounds - 1),
        verifier=["Answer Choice: A"],
    )
    out, _ = run_debate(m, rounds=rounds)
    assert sorted({t["round"] for t in out["turns"]}) == list(range(1, rounds + 1))
    assert len(out["turns"]) == 2 * rounds and len(out["summaries"]) == 2 * (rounds - 1)
    assert len(retriever.calls) == 2 * rounds
    assert m["verifier"].calls == 1


def test_usage_is_summed_per_agent_and_role(run_debate: RunDebate) -> None:
    m = models(
        ["Answer Choice: A", "Answer Choice: A"],
        ["Answer Choice: B", "Answer Choice: B"],
        sum1=["short summary one"],
        sum2=["short summary two"],
        verifier=["Answer Choice: A"],
    )
    out, _ = run_debate(m)
    usage = out["usage"]
    assert {a: (u["role"], u["calls"]) for a, u in usage.items()} == {
        "agent1": ("debater", 2),
        "agent2": ("debater", 2),
        "agent1_summarizer": ("summarizer", 1),
        "agent2_summarizer": ("summarizer", 1),
        "verifier": ("verifier", 1),
    }
    for agent in ("agent1", "agent2"):
        turns = [t for t in out["turns"] if t["agent"] == agent]
        for key in ("input_tokens", "output_tokens"):
            assert usage[agent][key] == sum(t["usage"][agent][key] for t in turns) > 0
    # ScriptedChatModel counts output tokens as words of the reply: "short summary one" = 3
    assert usage["agent1_summarizer"]["output_tokens"] == 3


def test_stream_emits_progress_events(run_debate: RunDebate) -> None:
    m = models(
        ["Answer Choice: A", "Answer Choice: A"],
        ["Answer Choice: B", "Answer Choice: B"],
        sum1=["s1"],
        sum2=["s2"],
        verifier=["Answer Choice: A"],
    )
    _, events = run_debate(m)
    kinds = [e["event"] for e in events]
    assert kinds[0] == "round_start" and kinds[-1] == "done"
    turns = sorted((e["agent"], e["round"]) for e in events if e["event"] == "turn")
    assert turns == [("agent1", 1), ("agent1", 2), ("agent2", 1), ("agent2", 2)]
    assert [e["round"] for e in events if e["event"] == "round_start"] == [1, 2]
    assert kinds.count("summary") == 2 and kinds.count("verdict") == 1
    assert events[-1] == {"event": "done", "answer": "A", "consensus_type": "verifier"}


def test_log_has_history_answers_timings_and_retrieval(run_debate: RunDebate) -> None:
    m = models(
        ["Answer Choice: A", "Answer Choice: B"], ["Answer Choice: B"] * 2, sum1=["s1"], sum2=["s2"]
    )
    out, _ = run_debate(m, k=3)
    log = out["log"]
    assert [e["answers"] for e in log["answers_per_round"]] == [
        {"agent1": "A", "agent2": "B"},
        {"agent1": "B", "agent2": "B"},
    ]
    assert [(h["agent"], h["round"]) for h in log["history"]][:2] == [("agent1", 1), ("agent2", 1)]
    assert log["history"][0]["summary"] == "s1"
    assert all(r["ids"] == ["sec-0", "sec-1", "sec-2"] for r in log["retrieval"])
    assert log["retrieval"][0]["scores"] == pytest.approx([1.0, 0.9, 0.8])
    steps = {(s["step"], s.get("round")) for s in log["timings"]["steps"]}
    assert {("agent_turn", 1), ("summarize", 1), ("agent_turn", 2)} <= steps
    assert log["timings"]["total_ms"] > 0


def test_ablations_switch_retrieval_summaries_requery_and_verifier(
    run_debate: RunDebate, retriever: Any
) -> None:
    m = models(["Answer Choice: A"] * 2, ["Answer Choice: B", "Answer Choice: C"])
    out, _ = run_debate(m, use_retrieval=False, use_summaries=False, use_verifier=False)
    assert retriever.calls == [] and all(t["retrieval"]["skipped"] for t in out["turns"])
    assert all(not s["llm"] for s in out["summaries"])
    assert "Answer Choice: B" in prompt_text(m["agent1"], 1)  # peer's reply, not a summary
    assert out["consensus_type"] == "majority_vote" and out["answer"] == "A"
    assert m["verifier"].calls == 0


def test_requery_off_searches_with_the_question_only(run_debate: RunDebate, retriever: Any) -> None:
    m = models(
        ["Answer Choice: A"] * 2, ["Answer Choice: B", "Answer Choice: A"], sum1=["s1"], sum2=["s2"]
    )
    run_debate(m, requery=False)
    assert [q for q, _ in retriever.calls] == [QUESTION] * 4


def test_no_early_stop_plays_every_round(run_debate: RunDebate) -> None:
    m = models(["Answer Choice: B"] * 2, ["Answer Choice: B"] * 2, sum1=["s1"], sum2=["s2"])
    out, _ = run_debate(m, early_stop=False)
    assert len(out["turns"]) == 4
    assert (out["answer"], out["consensus_type"], out["agreement_round"]) == ("B", "agreement", 2)


@pytest.mark.parametrize(
    ("question", "options"),
    [("", {"A": "x"}), ("Q?", {}), ("Q?", "yes/no"), ("Q?", ["yes", ""])],
)
def test_bad_input_is_a_config_error(run_debate: RunDebate, question: str, options: Any) -> None:
    with pytest.raises(ConfigError):
        run_debate(models([], []), question=question, options=options)
