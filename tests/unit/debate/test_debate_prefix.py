"""The reviewer and the summarizer extend the first worker's cached conversation on its slot.

On a ``local:`` model each agent keeps a llama.cpp slot and ``cache_prompt`` lets the server
read only what a prompt adds to the slot's cached one. The reviewer's prompt therefore starts
with the host worker's system prompt, question and sections, and the summarizer's prompt is the
reviewer's prompt, its critique and the request; both are sent on the host's slot.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from debate_fakes import ASPIRIN, DOSE, FakeRetriever, context, run, scripted
from langchain_core.language_models import BaseChatModel

from disputatio.nodes.debate.context import DebateContext
from disputatio.nodes.debate.workers import worker_slot

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
    base = context(models, FakeRetriever(default=[ASPIRIN], by_keyword={"dose": [DOSE]}))
    spy = SlotSpy(**{**base.__dict__, "slots": []})
    for key, value in {"flat": True, "workers": 2, "rounds": 1, "max_tool_calls": 1}.items():
        setattr(spy, key, value)
    for key, value in kwargs.items():
        setattr(spy, key, value)
    out, _, _ = run("How does aspirin work, and how much is taken?", spy)
    return out, models, spy


def _head(user: str) -> str:
    """The start of a worker's user message: question and sections (what hosts share)."""
    return user[: user.index("</sections>\n") + len("</sections>\n")]


def test_reviewer_prompt_extends_the_first_workers_conversation() -> None:
    out, models, _ = _debate(review_searches=0)
    last_worker = models["worker-root-0"].prompts[-1]  # worker 0's round-1 prompt
    review = models["reviewer-root"].prompts[0]
    assert len(review) == 2
    assert review[0].content == last_worker[0].content  # the same system prompt, verbatim
    user = str(review[1].content)
    assert user.startswith(_head(str(last_worker[1].content)))
    # ...then the section only worker 1 retrieved, labelled after worker 0's own
    assert '<more_sections>\n<section id="S2" source="dosing.md"' in user
    assert user.index("</sections>") < user.index("<more_sections>") < user.index("<transcript>")
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


def test_reviewer_and_summarizer_are_sent_on_the_hosts_slot() -> None:
    _, _, spy = _debate(review_searches=0)
    slots = dict(spy.slots)
    host = worker_slot("root", "worker-root-0", 2)
    assert (slots["worker-root-0"], slots["worker-root-1"]) == (0, 1)
    assert slots["reviewer-root"] == host == slots["summarizer-root"] == 0


def test_each_leafs_reviewer_uses_its_own_first_workers_slot() -> None:
    assert worker_slot("1", "worker-1-0", 2) == 0 and worker_slot("2", "worker-2-0", 2) == 2
