"""The decision order and the text helpers of the MedRAG debate (pure functions)."""

from __future__ import annotations

from typing import Any

import pytest

from disputatio.errors import ConfigError, ModelError
from disputatio.nodes.medrag.context import MedragContext, resolve
from disputatio.nodes.medrag.retry import is_transient
from disputatio.nodes.medrag.text import debate_transcript
from disputatio.nodes.medrag.verdict import decide
from disputatio.settings import load_settings
from disputatio.state.medrag import Turn
from disputatio.tools.answer_text import clean_text, retrieval_query, truncate

AGENTS = ("agent1", "agent2")


def turn(agent: str, round_: int, choice: str | None, status: str = "OK") -> Turn:
    return Turn(agent=agent, round=round_, choice=choice, status=status, response="")


@pytest.mark.parametrize(
    ("turns", "verdict", "expected"),
    [
        ([turn("agent1", 1, "A"), turn("agent2", 1, "A")], None, ("A", "agreement")),
        (
            [turn("agent1", 1, "A"), turn("agent2", 1, "B")],
            {"status": "OK", "choice": "B"},
            ("B", "verifier"),
        ),
        (
            [
                turn("agent1", 1, "A"),
                turn("agent2", 1, "B"),
                turn("agent1", 2, "B"),
                turn("agent2", 2, "C"),
            ],
            {"status": "PARSE_FAILED", "choice": None},
            ("B", "majority_vote"),  # B: 2 votes, A: 1, C: 1
        ),
        (
            [turn("agent1", 1, "A"), turn("agent2", 1, "B")],
            None,
            ("A", "agent1_fallback"),  # 1-1 tie, Agent1's last valid answer
        ),
        (
            [
                turn("agent1", 1, None, "PARSE_FAILED"),
                turn("agent2", 1, "B"),
                turn("agent1", 2, None, "ERROR"),
                turn("agent2", 2, "C"),
            ],
            None,
            ("B", "majority_vote"),  # tie, Agent1 never valid: the tied answer seen first
        ),
        (
            [turn("agent1", 1, None, "PARSE_FAILED"), turn("agent2", 1, "F", "INVALID_CHOICE")],
            None,
            (None, "failed"),
        ),
    ],
)
def test_decision_order(turns: list[Turn], verdict: Any, expected: tuple[Any, str]) -> None:
    last_round = max(t["round"] for t in turns)
    assert decide(turns, verdict, AGENTS, last_round) == expected


def test_agreement_only_counts_in_the_last_round() -> None:
    turns = [turn("agent1", 1, "A"), turn("agent2", 1, "A")]
    turns += [turn("agent1", 2, "A"), turn("agent2", 2, "B")]
    # round 1 agreed, round 2 did not (early stop off): A wins by majority (3 of 4), not agreement
    assert decide(turns, None, AGENTS, 2) == ("A", "majority_vote")


def test_transcript_gives_each_turn_an_equal_share() -> None:
    turns = [
        {"agent": "agent1", "round": 1, "response": "a" * 10_000},
        {"agent": "agent2", "round": 1, "response": "<think>secret</think>short reply"},
    ]
    text = debate_transcript(turns, 2000)  # type: ignore[arg-type]
    assert len(text) <= 2000
    assert "short reply" in text and "secret" not in text
    assert text.count("a") < 1100  # the long turn got about half of the budget


def test_text_helpers() -> None:
    assert clean_text("<think>x</think>  A\n\n\n\nB  ") == "A\n\nB"
    assert truncate("abcdef", 4) == "abc…" and truncate("abc", 4) == "abc"
    assert retrieval_query("Q?", [{"agent": "a", "text": "S"}], 100) == "Q?\nS"
    assert len(retrieval_query("Q" * 50, [{"agent": "a", "text": "S" * 500}], 100)) == 100


def test_context_resolves_from_settings_and_validates() -> None:
    settings = load_settings(medrag={"rounds": 3, "k": 7, "temperatures": [0.9, 0.1, 0.5]})
    cfg = resolve(MedragContext(settings=settings, k=2))
    assert (cfg.rounds, cfg.k, cfg.agents) == (3, 2, ("agent1", "agent2", "agent3"))
    assert cfg.temperature_of("agent3") == 0.5
    with pytest.raises(ConfigError):
        resolve(MedragContext(settings=settings, temperatures=[0.7]))
    with pytest.raises(ConfigError):
        resolve(MedragContext(settings=settings, rounds=0))


def test_a_plain_agent_context_is_accepted(retriever: Any) -> None:
    from disputatio.graphs.medrag_debate import graph
    from disputatio.nodes.context import AgentContext
    from disputatio.testing import ScriptedChatModel

    models = {"debater": ScriptedChatModel(script=["Answer Choice: B"], repeat_last=True)}
    ctx = AgentContext(models=models, retriever=retriever)
    out = graph.invoke({"question": "Q?", "options": {"A": "x", "B": "y"}}, context=ctx)
    assert (out["answer"], out["consensus_type"]) == ("B", "agreement")


def test_only_transient_errors_are_retried() -> None:
    assert is_transient(ConnectionError("reset")) and is_transient(TimeoutError())
    assert not is_transient(ModelError("bad model")) and not is_transient(AssertionError())
    assert not is_transient(ValueError("x"))
