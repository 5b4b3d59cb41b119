"""The quick path says a yes/no question is undecided when its verdict was set aside.

A run of the ``rag`` graph with a scripted answerer and a scripted judge: the draft's "Yes, …"
states nothing a shown sentence states, the judge says the claim after it does not carry it,
and the answer opens by saying the documents do not state the answer directly, then gives what
they say (set 23's o011: the fares alone read as if they settled the question).
"""

from __future__ import annotations

from pathlib import Path

from rag_fakes import lp_reply, text_funnel

from disputatio.graphs.rag import graph
from disputatio.nodes.rag.context import RagContext
from disputatio.settings import load_settings
from disputatio.testing import ScriptedChatModel
from disputatio.validators.yesno import UNDECIDED

TEXT = (
    "# Reading Room\n\n"
    "Readers may bring laptops into the Reading Room. A reader's ticket is valid for three years. "
    "Readers must show photo ID."
)
QUESTION = "Can I bring my dog into the Reading Room?"
DRAFT = (
    "Yes, you can bring your dog into the Reading Room. "
    "Readers may bring laptops into the Reading Room. [S1]"
)


def _run(tmp_path: Path, p_carried: float) -> tuple[dict, ScriptedChatModel]:
    grounding = {"checker": "judged", "repair": False, "relevance_floor": 0.0}
    settings = load_settings(home=tmp_path, grounding=grounding)
    # the judge is asked whether the claim after the verdict carries it, then for relevance
    judge = ScriptedChatModel(script=[lp_reply(p_carried), lp_reply(0.9)], repeat_last=True)
    models = {"answerer": ScriptedChatModel(script=[DRAFT]), "claim_judge": judge}
    ctx = RagContext(
        settings=settings, retriever=text_funnel(TEXT, "room.md", settings), models=models
    )
    out = graph.invoke({"question": QUESTION, "threshold": 0.0}, context=ctx)
    return out, judge


def test_an_uncarried_verdict_leaves_the_question_undecided(tmp_path: Path) -> None:
    out, judge = _run(tmp_path, 0.1)
    assert out["answer"].startswith(UNDECIDED)
    assert "laptops" in out["answer"] and "dog" not in out["answer"]
    # what the judge read: the verdict's statement against the supported claim's sentence
    asked = str(judge.prompts[0][-1].content)
    assert "You can bring your dog into the Reading Room." in asked and "laptops" in asked
    verdict = next(c for c in out["claims"] if c["text"].startswith("Yes,"))
    assert verdict["dropped"]
    assert any(c["verdict"] == "not_found" and c["text"] == UNDECIDED for c in out["claims"])


def test_a_carried_verdict_is_shown_and_nothing_said_undecided(tmp_path: Path) -> None:
    out, _ = _run(tmp_path, 0.9)
    assert out["answer"].startswith("Yes, you can bring your dog")
    assert UNDECIDED not in out["answer"]
