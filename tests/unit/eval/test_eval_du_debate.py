"""GSM8K as Du et al. ran it: 3 agents, 2 rounds, majority of the last round; SC at its calls."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage

from disputatio.eval.config import EvalConfig
from disputatio.eval.du_debate import DU_TEMPERATURE, final_answer
from disputatio.eval.protocols import ProtocolEnv
from disputatio.eval.question import Question
from disputatio.eval.results import ResultsLog
from disputatio.eval.runner import Plan, run_eval
from disputatio.nodes.medrag.context import MedragContext
from disputatio.testing import ScriptedChatModel

PROBLEM = "Tom has 3 apples and buys 4 more. How many apples does he have?"
# (round 1, round 2) reply of each agent
REPLIES = {
    "agent1": ("3 + 4 is 1,000? \\boxed{1,000}", "They are right: \\boxed{7}"),
    "agent2": ("3 + 4 = 7. \\boxed{7}", "Still \\boxed{7}"),
    "agent3": ("\\boxed{1000.0}", "I keep \\boxed{1000}"),
}


def agent(name: str) -> ScriptedChatModel:
    def reply(messages: list[BaseMessage]) -> str:
        asked = sum(isinstance(m, HumanMessage) for m in messages)
        return REPLIES[name][asked - 1]

    return ScriptedChatModel(script=[reply], repeat_last=True, name=name)


def numeric() -> list[Question]:
    return [
        Question(id="g1", dataset="toygsm", question=PROBLEM, options=[], gold="7"),
        Question(
            id="m1", dataset="toygsm", question="Which?", options={"A": "x", "B": "y"}, gold="A"
        ),
    ]


def run(
    config: EvalConfig, tmp: Path, protocols: tuple[str, ...], models: dict[str, Any]
) -> list[dict[str, Any]]:
    def env_for(_dataset: str, _questions: Any) -> ProtocolEnv:
        return ProtocolEnv(medrag=MedragContext(models=models, max_tokens=300))

    plan = Plan(("toygsm",), protocols, n=2, loader=lambda _name: numeric())
    summary = run_eval(config, plan, env_for, out_root=tmp)
    return ResultsLog(Path(summary["run_dir"]) / "results.jsonl").read()


def agents() -> dict[str, ScriptedChatModel]:
    return {name: agent(name) for name in REPLIES}


def test_three_agents_two_rounds_and_the_majority_of_the_last_round(
    tmp_path: Path, config: EvalConfig
) -> None:
    models = agents()
    (record,) = run(config, tmp_path, ("du_debate",), models)
    assert record["question_id"] == "g1"  # the option question is not Du's
    assert [m.calls for m in models.values()] == [2, 2, 2]
    assert sum(u["calls"] for u in record["usage"].values()) == 6
    assert record["answers_per_round"] == [
        {"round": 1, "answers": {"agent1": "1000", "agent2": "7", "agent3": "1000"}},
        {"round": 2, "answers": {"agent1": "7", "agent2": "7", "agent3": "1000"}},
    ]
    assert record["answer"] == "7" and record["correct"]  # round 2's majority
    assert record["round1_answer"] == "1000"  # round 1's would have been wrong
    assert record["initial_answers"] == ["1000", "7", "1000"]
    assert record["agreement_round"] is None and record["converged"] is False


def test_each_agent_sees_the_others_previous_answers_after_its_own_conversation(
    tmp_path: Path, config: EvalConfig
) -> None:
    models = agents()
    run(config, tmp_path, ("du_debate",), models)
    first, second = models["agent1"].prompts
    assert len(first) == 1 and first[0].content.startswith(  # type: ignore[union-attr]
        "Can you solve the following math problem? " + PROBLEM
    )
    own, seen = second[1], str(second[2].content)
    assert isinstance(own, AIMessage) and own.content == REPLIES["agent1"][0]
    assert seen.startswith("These are the solutions to the problem from other agents: ")
    assert f"One agent solution: ```{REPLIES['agent2'][0]}```" in seen
    assert f"One agent solution: ```{REPLIES['agent3'][0]}```" in seen
    assert REPLIES["agent1"][0] not in seen
    assert f"The original math problem is {PROBLEM}." in seen
    assert {r["temperature"] for m in models.values() for r in m.received} == {DU_TEMPERATURE}


def test_equal_numbers_vote_together_and_ties_go_to_the_first() -> None:
    assert final_answer(["1,000", "7", "1000.0"]) == "1000"
    assert final_answer(["7", "8", None]) == "7"
    assert final_answer([None, None, None]) is None


def test_sc_du_samples_dus_prompt_as_often_as_the_debate_called(
    tmp_path: Path, config: EvalConfig
) -> None:
    sampler = ScriptedChatModel(script=["\\boxed{7}"], repeat_last=True)
    records = run(config, tmp_path, ("du_debate", "sc_du"), {**agents(), "baseline": sampler})
    sc = next(r for r in records if r["protocol"] == "sc_du")
    debate = next(r for r in records if r["protocol"] == "du_debate")
    assert sampler.calls == 6 and sc["budget"]["matched"] and sc["budget"]["target_calls"] == 6
    out = sum(u["output_tokens"] for u in debate["usage"].values())
    assert sc["budget"]["max_tokens_per_sample"] == max(16, -(-out // 6))
    assert {r["temperature"] for r in sampler.received} == {DU_TEMPERATURE}
    assert all(
        str(p[0].content).startswith("Can you solve the following math problem?")
        for p in sampler.prompts
    )
    assert sc["answer"] == "7" and sc["question_id"] == "g1"


def test_sc_du_without_a_debate_takes_dus_six_calls(tmp_path: Path, config: EvalConfig) -> None:
    sampler = ScriptedChatModel(script=["\\boxed{7}"], repeat_last=True)
    (sc,) = run(config, tmp_path, ("sc_du",), {"baseline": sampler})
    assert sampler.calls == 6 and not sc["budget"]["matched"]
