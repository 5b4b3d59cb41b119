r"""The MedRAG debate on a free numeric answer (GSM8K-style), with scripted models.

Each test checks what each model received and what the graph concluded: agents are asked for
``\boxed{N}`` and shown no options, replies are parsed as numbers, agreement is the same number,
and the verifier and the majority vote work on numbers.
"""

from __future__ import annotations

from typing import Any

import pytest

from disputatio.errors import ConfigError
from disputatio.graphs.medrag_debate import MedragContext, graph
from disputatio.prompts import medrag as P
from disputatio.testing import ScriptedChatModel

from .scripted import models

PROBLEM = "Tom has 400 apples and buys 600 more. How many apples does he have?"


def debate(m: dict[str, ScriptedChatModel], retriever: Any = None, **ctx: Any) -> dict[str, Any]:
    ctx.setdefault("use_retrieval", False)
    ctx.setdefault("agent_query", False)
    context = MedragContext(models=m, retriever=retriever, **ctx)
    inputs = {"question": PROBLEM, "options": [], "question_id": "g1", "answer_mode": "numeric"}
    return dict(graph.invoke(inputs, context=context))


def prompt(model: ScriptedChatModel, call: int) -> str:
    return "\n".join(str(m.content) for m in model.prompts[call])


def test_equal_numbers_written_differently_agree_in_round_one() -> None:
    m = models(["400 + 600 = 1,000 apples. \\boxed{1,000}"], ["So 1000.0 in all. \\boxed{1000.0}"])
    out = debate(m)
    assert (out["answer"], out["consensus_type"], out["agreement_round"]) == (
        "1000",
        "agreement",
        1,
    )
    assert [(t["choice"], t["status"], t["pattern"]) for t in out["turns"]] == [
        ("1000", "OK", "boxed")
    ] * 2
    for agent in ("agent1", "agent2"):
        (messages,) = m[agent].prompts
        assert messages[0].content == P.NUMERIC_AGENT_SYSTEM.format()
        text = prompt(m[agent], 0)
        assert PROBLEM in text and P.NUMERIC_AGENT_SOLVE.format() in text
        # no options, no documents block, nothing medical
        assert "<options>" not in text and "<documents>" not in text and "medical" not in text
    assert m["agent1_summarizer"].calls == m["agent2_summarizer"].calls == m["verifier"].calls == 0
    # the seed's log shape, with numbers as the answer choices
    log = out["log"]
    assert log["mode"] == "debate" and log["options"] == []
    assert log["final_answer"]["answer_choice"] == "1000"
    assert log["final_answer"]["consensus_type"] == "agreement"
    assert [h["answer"]["answer_choice"] for h in log["history"]] == ["1000", "1000"]
    assert set(log["history"][0]["answer"]) == {
        "step_by_step_thinking",
        "answer_choice",
        "retrieval_time",
        "generation_time",
    }
    assert log["answers_per_round"] == [
        {
            "round": 1,
            "answers": {"agent1": "1000", "agent2": "1000"},
            "statuses": {"agent1": "OK", "agent2": "OK"},
            "agreement": True,
        }
    ]


def test_disagreement_goes_to_the_verifier_which_answers_a_number() -> None:
    m = models(
        ["4 * 3 = 12. \\boxed{12}", "I keep 12. \\boxed{12}"],
        ["5 * 3 = 15. \\boxed{15}", "Still 15. \\boxed{15}"],
        sum1=["SUM-ONE: 4 boxes of 3. \\boxed{12}"],
        sum2=["SUM-TWO: 5 boxes of 3. \\boxed{15}"],
        verifier=["There are 4 boxes, so agent1 is right. \\boxed{12.0}"],
    )
    out = debate(m)
    assert (out["answer"], out["consensus_type"]) == ("12", "verifier")
    assert out["verdict"]["choice"] == "12" and out["verdict"]["status"] == "OK"
    assert out["log"]["final_answer"]["consensus_type"] == "verification_consensus"
    # round 2: each agent sees the other's summary and its own previous number
    round2 = prompt(m["agent1"], 1)
    assert "SUM-TWO" in round2 and "SUM-ONE" not in round2
    assert "Your previous answer was 12." in round2 and "Check the other experts' steps" in round2
    assert "Your previous answer was 15." in prompt(m["agent2"], 1)
    # the summary is asked for a number, at the end of the agent's own conversation
    summary_prompt = prompt(m["agent1_summarizer"], 0)
    assert "your final number" in summary_prompt and "4 * 3 = 12" in summary_prompt
    # the verifier sees the problem, every agent's final number and the debate, no options
    verifier = prompt(m["verifier"], 0)
    assert m["verifier"].prompts[0][0].content == P.NUMERIC_VERIFIER_SYSTEM.format()
    assert PROBLEM in verifier and "agent1: 12\nagent2: 15" in verifier
    assert "<options>" not in verifier and "Still 15." in verifier


def test_an_unparseable_verifier_leaves_the_majority_of_equal_numbers() -> None:
    m = models(
        ["\\boxed{7}", "\\boxed{1,000}"],
        ["\\boxed{1000.00}", "\\boxed{8}"],
        sum1=["s1"],
        sum2=["s2"],
        verifier=["I cannot decide between them."],
    )
    out = debate(m)
    # 1,000 (agent1, round 2) and 1000.00 (agent2, round 1) are one number: 2 votes of 4
    assert (out["answer"], out["consensus_type"]) == ("1000", "majority_vote")
    assert out["verdict"]["status"] == "PARSE_FAILED" and out["verdict"]["choice"] is None


def test_a_tie_of_numbers_falls_back_to_agent1_and_an_empty_verifier_is_an_error() -> None:
    m = models(
        ["\\boxed{3}", "\\boxed{4}"],
        ["\\boxed{5}", "\\boxed{6}"],
        sum1=["s1"],
        sum2=["s2"],
        verifier=[""],
    )
    out = debate(m)
    assert (out["answer"], out["consensus_type"]) == ("4", "agent1_fallback")
    assert out["verdict"]["status"] == "ERROR"


def test_unparseable_and_empty_replies_are_parse_failed_and_error() -> None:
    m = models(
        ["", "Fine: 400 + 600 = 1000. \\boxed{1000}"],
        ["I cannot tell.", "\\boxed{1,000}"],
        sum1=["s1"],
        sum2=["s2"],
    )
    out = debate(m)
    statuses = {(t["agent"], t["round"]): (t["choice"], t["status"]) for t in out["turns"]}
    assert statuses[("agent1", 1)] == (None, "ERROR")
    assert statuses[("agent2", 1)] == (None, "PARSE_FAILED")
    assert (out["answer"], out["consensus_type"], out["agreement_round"]) == (
        "1000",
        "agreement",
        2,
    )
    assert "Your previous answer was none." in prompt(m["agent1"], 1)
    assert m["verifier"].calls == 0


def test_numeric_mode_with_retrieval_shows_documents_and_asks_for_a_number(
    retriever: Any,
) -> None:
    m = models(["See [S1]. \\boxed{1000}"], ["\\boxed{1000}"])
    out = debate(m, retriever, use_retrieval=True, k=2)
    assert out["answer"] == "1000" and len(retriever.calls) == 2
    text = prompt(m["agent1"], 0)
    assert "<documents>" in text and "Evidence 0" in text and "\\boxed{N}" in text
    turn1 = next(t for t in out["turns"] if t["agent"] == "agent1")
    assert turn1["citations"] == ["sec-0"]  # [S1] mapped back to the section shown


def test_options_are_still_required_unless_the_answer_mode_is_numeric() -> None:
    m = models([], [])
    context = MedragContext(models=m, use_retrieval=False)
    with pytest.raises(ConfigError, match="answer_mode='numeric'"):
        graph.invoke({"question": PROBLEM, "options": []}, context=context)
    with pytest.raises(ConfigError, match="unknown answer_mode"):
        graph.invoke(
            {"question": PROBLEM, "options": [], "answer_mode": "free"},
            context=context,
        )


def test_numeric_mode_ignores_options_it_is_given() -> None:
    m = models(["\\boxed{1000}"], ["\\boxed{1000}"])
    context = MedragContext(models=m, use_retrieval=False, agent_query=False)
    inputs = {"question": PROBLEM, "options": {"A": "999", "B": "1000"}, "answer_mode": "numeric"}
    out = graph.invoke(inputs, context=context)
    assert out["answer"] == "1000"
    assert "<options>" not in prompt(m["agent1"], 0)


def test_decimals_within_the_tolerance_agree_and_integers_never_round() -> None:
    m = models(["1/3 = \\boxed{0.3333333}"], ["\\boxed{0.333333}"])
    out = debate(m)
    assert (out["answer"], out["consensus_type"]) == ("0.3333333", "agreement")
    m = models(
        ["\\boxed{1000000}", "\\boxed{1000000}"],
        ["\\boxed{1000001}", "\\boxed{1000001}"],
        sum1=["s1"],
        sum2=["s2"],
        verifier=["\\boxed{1000001}"],
    )
    out = debate(m)
    assert (out["answer"], out["consensus_type"]) == ("1000001", "verifier")
