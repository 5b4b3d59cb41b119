"""Prompts of a leaf share their start, and are sent where that start is cached.

On a ``local:`` model ``cache_prompt`` lets llama.cpp read only what a prompt adds to the one
cached in its slot. The system prompt of every worker of a leaf starts with the same rules and
sections (its persona ends it); the reviewer's starts the same way (its role ends it), and the
summarizer's prompt is the reviewer's prompt, its critique and the request. By default a leaf's
workers, reviewer and summarizer share one slot; with ``shared_slot=False`` each worker has its
own and the reviewer and the summarizer go to the first worker's.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from debate_fakes import ASPIRIN, DOSE, SETTINGS, context, run, scripted
from langchain_core.language_models import BaseChatModel

from disputatio.nodes.debate.context import DebateContext
from disputatio.nodes.debate.workers import worker_slot
from disputatio.prompts.debate import PERSONAS, REVIEWER_ROLE
from disputatio.testing import FakeRetriever

CALL = '{"name": "retrieve_corpus_sections", "arguments": {"query": "dose"}}'
W0 = ("Verdict: inhibits COX-1.\nAspirin inhibits COX-1 [S1].", "Verdict: COX-1.\nAs [S1].")
W1 = (CALL, "Verdict: 75 mg daily.\nThe usual dose is 75 mg [S2].", "Verdict: 75 mg.\nDose [S2].")


@dataclass
class SlotSpy(DebateContext):
    """A debate context that records the llama.cpp slot each agent's model was asked for."""

    slots: list[tuple[str, int | None]] = field(default_factory=list)

    def agent_model(
        self,
        agent: str,
        role: str,
        *,
        group: str | None = None,
        temperature: float | None = None,
        slot: int | None = None,
    ) -> BaseChatModel:
        self.slots.append((agent, slot))
        return super().agent_model(agent, role, group=group, temperature=temperature, slot=slot)


def _debate(**kwargs: Any) -> tuple[dict[str, Any], dict[str, Any], SlotSpy]:
    models = {
        "worker-root-0": scripted("w0", *W0),
        "worker-root-1": scripted("w1", *W1),
        "reviewer-root": scripted("rev", "Worker 1's dose is supported by [S2]."),
        "summarizer-root": scripted("sum", "Verdict: COX-1.\nIt inhibits COX-1 [S1], 75 mg [S2]."),
    }
    base = context(models, FakeRetriever([ASPIRIN], match_all=True, by_keyword={"dose": [DOSE]}))
    spy = SlotSpy(**{**base.__dict__, "slots": []})
    for key, value in {"flat": True, "workers": 2, "rounds": 1, "max_tool_calls": 1}.items():
        setattr(spy, key, value)
    for key, value in kwargs.items():
        setattr(spy, key, value)
    out, _, _ = run("How does aspirin work, and how much is taken?", spy)
    return out, models, spy


def _shared(system: str) -> str:
    """The start of a leaf's system prompts: rules and sections (what its agents share)."""
    return system[: system.index("</sections>\n") + len("</sections>\n")]


def _question(user: str) -> str:
    """The start of a leaf's user messages: the question."""
    return user[: user.index("</question>\n") + len("</question>\n")]


def test_reviewer_prompt_extends_the_first_workers_conversation() -> None:
    out, models, _ = _debate(review_searches=0)
    last_worker = models["worker-root-0"].prompts[-1]  # worker 0's round-1 prompt
    review = models["reviewer-root"].prompts[0]
    assert len(review) == 2
    system = str(review[0].content)
    assert system.startswith(_shared(str(last_worker[0].content)))  # rules and sections, verbatim
    assert system.endswith(REVIEWER_ROLE) and PERSONAS["synthesizer"] not in system
    user = str(review[1].content)
    assert user.startswith(_question(str(last_worker[1].content)))
    # ...then the section only worker 1 retrieved, labelled after worker 0's own
    assert user.startswith(_question(user) + '<more_sections>\n<section id="S2" source="dosing.md"')
    assert user.index("<more_sections>") < user.index("<transcript>")
    # both workers' arguments of both rounds, their citations shown with the same labels
    for text in ("Aspirin inhibits COX-1 [S1].", "The usual dose is 75 mg [S2].", "Dose [S2]."):
        assert text in user
    assert user.count("<move ") == 4 and "s-dose" not in user and "s-aspirin" not in user
    assert user.rstrip().endswith("Write your critique.")
    review_move = next(m for m in out["transcript"] if m["kind"] == "review")
    assert review_move["citations"] == ["s-dose"]  # its [S2] maps back to the section id


def test_summarizer_prompt_is_the_reviewers_plus_its_critique_and_request() -> None:
    out, models, _ = _debate(review_searches=0)
    review = models["reviewer-root"].prompts[0]
    summary = models["summarizer-root"].prompts[0]
    assert [m.content for m in summary[:2]] == [m.content for m in review]
    assert summary[2].type == "ai" and summary[2].content == "Worker 1's dose is supported by [S2]."
    assert summary[3].type == "human" and "Now write the final answer" in str(summary[3].content)
    assert "<more_sections>" not in str(summary[3].content)  # nothing new was found
    assert [c["id"] for c in out["citations"]] == ["s-aspirin", "s-dose"]


def test_workers_of_a_leaf_share_the_rules_and_sections_then_their_personas() -> None:
    _, models, _ = _debate(review_searches=0)
    w0, w1 = models["worker-root-0"].prompts[0], models["worker-root-1"].prompts[0]
    s0, s1 = str(w0[0].content), str(w1[0].content)
    assert "<sections>" in s0 and _shared(s0) == _shared(s1)  # one start for every worker
    personas = SETTINGS.debate.personas
    for system, user, persona in ((s0, w0[1], personas[0]), (s1, w1[1], personas[1])):
        # the persona ends the system prompt, after the sections; the user message lacks it
        assert system.endswith(PERSONAS[persona]) and PERSONAS[persona] not in str(user.content)


def test_a_leaf_shares_one_slot_by_default() -> None:
    _, _, spy = _debate(review_searches=0)
    slots = dict(spy.slots)
    assert {slots[a] for a in ("worker-root-0", "worker-root-1")} == {0}
    assert slots["reviewer-root"] == slots["summarizer-root"] == 0


def test_reviewer_and_summarizer_are_sent_on_the_hosts_slot() -> None:
    _, _, spy = _debate(review_searches=0, shared_slot=False)
    slots = dict(spy.slots)
    host = worker_slot("root", "worker-root-0", 2)
    assert (slots["worker-root-0"], slots["worker-root-1"]) == (0, 1)
    assert slots["reviewer-root"] == host == slots["summarizer-root"] == 0


def test_each_leaf_gets_its_own_slot() -> None:
    assert worker_slot("1", "worker-1-0", 2) == 0 and worker_slot("2", "worker-2-0", 2) == 2
    shared = [worker_slot(n, f"worker-{n}-{i}", 2, shared=True) for n in "12" for i in range(2)]
    assert shared == [0, 0, 1, 1]


def _turns(messages: list[Any]) -> list[tuple[str, str]]:
    return [(m.type, str(m.content)) for m in messages]


def test_continued_round_is_a_new_turn_of_the_workers_own_conversation() -> None:
    out, models, _ = _debate(review_searches=0, continue_turns=True)
    answers = {m["agent"] for m in out["transcript"] if m["kind"] == "answer"}
    for agent, script in (("worker-root-0", W0), ("worker-root-1", W1)):
        prompts = models[agent].prompts
        first, debate = prompts[-2], prompts[-1]  # its last round-0 call, its round-1 call
        # the round-1 prompt is the round-0 call as sent, the reply as written, one new turn
        assert _turns(debate[:-1]) == [*_turns(first), ("ai", script[-2])]
        turn = str(debate[-1].content)
        assert debate[-1].type == "human" and turn.startswith("<other_answers>")
        other = next(a for a in answers if a != agent)
        assert f'<answer agent="{other}"' in turn and f'agent="{agent}"' not in turn
        assert "<your_previous_answer>" not in turn and "<sections>" not in turn
        assert "Keep, revise or correct your answer" in turn


def test_continued_reviewer_extends_the_conversation_of_the_worker_that_answered_last() -> None:
    out, models, _ = _debate(review_searches=0, continue_turns=True)
    done = {agent: c["done"] for agent, c in out["conversations"].items()}
    host = max(done, key=done.__getitem__)
    other = next(a for a in done if a != host)
    host_debate = models[host].prompts[-1]
    review = models["reviewer-root"].prompts[0]
    assert _turns(review[:-1])[: len(host_debate)] == _turns(host_debate)
    # the host's round-1 call, its reply as written, then the moderator's turn
    assert len(review) == len(host_debate) + 2
    assert review[-2].type == "ai" and "[S" in str(review[-2].content)
    turn = str(review[-1].content)
    assert review[-1].type == "human" and "become its moderator" in turn
    # only the other worker's latest answer is new to the host; its own is in the conversation
    latest = next(m for m in reversed(out["transcript"]) if m["agent"] == other)
    assert turn.count("<answer ") == 1 and f'<answer agent="{other}"' in turn
    assert latest["round"] == 1 and turn.rstrip().endswith("Write your critique.")
    summary = models["summarizer-root"].prompts[0]
    assert _turns(summary[: len(review)]) == _turns(review)


def test_reviewer_host_is_the_last_worker_to_answer_only_when_turns_continue() -> None:
    from disputatio.nodes.debate.context import resolve_config
    from disputatio.nodes.debate.schedule import _host

    conversations = {
        "worker-root-0": {"messages": [{"role": "user", "content": "a"}], "done": 2.0},
        "worker-root-1": {"messages": [{"role": "user", "content": "b"}], "done": 5.0},
    }
    state: Any = {"conversations": conversations}
    for flag, expected in ((True, "worker-root-1"), (False, "worker-root-0")):
        ctx = context({}, workers=2, continue_turns=flag)
        host, conversation = _host(state, resolve_config(ctx), "root")
        assert host == expected
        assert (conversation is not None) is flag


def test_turns_continue_by_default_only_for_local_workers() -> None:
    from disputatio.nodes.debate.context import resolve_config

    assert resolve_config(context({})).continue_turns is False  # an API model (settings' chat)
    assert resolve_config(context({"worker": "local:qwen2.5-coder-0.5b"})).continue_turns is True
    for flag in (True, False):
        ctx = context({"worker": "local:qwen2.5-coder-0.5b"}, continue_turns=flag)
        assert resolve_config(ctx).continue_turns is flag
