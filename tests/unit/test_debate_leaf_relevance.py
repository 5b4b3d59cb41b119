"""A debate leaf whose supported claims answer another question says the part is not answered.

The quick path asks the claim judge whether a one-part answer's supported claims answer the
question (``grounding.judge_relevance``) and refuses under ``grounding.relevance_floor``; a
decomposed debate asks it of each leaf's sub-question before composing (here the parts the
question states: no orchestrator call). On a two-part question
(held-out set 19, c003) the leaf "Can I spread the payment?" was answered "Lessons of 20
minutes are not offered to adults", a true sentence about something else.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from langgraph.checkpoint.memory import InMemorySaver
from rag_fakes import lp_reply, text_funnel

from disputatio.graphs.debate import DebateContext, build_graph
from disputatio.nodes.debate.aggregate import NOT_FOUND_PART, own_answer
from disputatio.settings import load_settings
from disputatio.testing import ScriptedChatModel

TEXT = (
    "# Lessons\n\nA term of 60-minute lessons costs 451 GBP for adults.\n\n"
    "Lessons of 20 minutes are not offered to adults."
)
FEE = "A term of 60-minute lessons costs 451 GBP for adults."
OTHER = "Lessons of 20 minutes are not offered to adults."
QUESTION = "What is the adult fee for 60-minute lessons, and can I pay in parts?"
#: The parts the question states (``debate.stated_parts``): no orchestrator call.
PARTS = ["What is the adult fee for 60-minute lessons?", f"Can I pay in parts? (About: {QUESTION})"]


def _debate(
    tmp_path: Path, floor: float, question: str, workers: dict[str, str], judged: list[float]
) -> tuple[dict[str, Any], ScriptedChatModel]:
    """Run the debate on ``question`` (decomposed when ``workers`` names more than the root)."""
    grounding = {"checker": "judged", "relevance_floor": floor}
    retrieval = {"rerank_threshold": 0.0, "trim_alpha": 0.0}  # fake embeddings: no refusal
    settings = load_settings(home=tmp_path, grounding=grounding, retrieval=retrieval)
    judge = ScriptedChatModel(script=[lp_reply(p) for p in judged], name="judge")
    models: dict[str, Any] = {
        name: ScriptedChatModel(script=[reply], name=name) for name, reply in workers.items()
    }
    ctx = DebateContext(
        models={**models, "claim_judge": judge},
        retriever=text_funnel(TEXT, "lessons.md", settings),
        settings=settings,
        max_depth=0 if list(workers) == ["worker-root-0"] else 1,
        workers=1,
        max_tool_calls=0,
        cite_repair=False,
    )
    graph = build_graph().compile(checkpointer=InMemorySaver())
    config: Any = {"configurable": {"thread_id": "t"}}
    graph.invoke({"question": question}, config, context=ctx)
    return dict(graph.get_state(config).values), judge


def _run(tmp_path: Path, floor: float) -> tuple[dict[str, Any], ScriptedChatModel]:
    workers = {"worker-1-0": f"{FEE} [S1]", "worker-2-0": f"{OTHER} [S1]"}
    return _debate(tmp_path, floor, QUESTION, workers, [0.9, 0.1])


def test_a_leaf_judged_not_to_answer_its_sub_question_says_not_found(tmp_path: Path) -> None:
    out, judge = _run(tmp_path, floor=0.25)
    asked = [str(p[-1].content) for p in judge.prompts]
    assert len(asked) == 2  # one relevance question a leaf: verbatim copies need no support call
    assert PARTS[0] in asked[0] and FEE in asked[0]
    assert "Question: Can I pay in parts?\n" in asked[1] and OTHER in asked[1]  # its part alone
    fee_part, pay_part = out["answer"].split("Can I pay in parts?\n")  # shown without context
    assert "451 GBP" in fee_part
    assert OTHER[:-1] not in pay_part and NOT_FOUND_PART in pay_part


def test_without_a_floor_the_leaf_is_not_judged(tmp_path: Path) -> None:
    out, judge = _run(tmp_path, floor=0.0)
    assert judge.calls == 0 and OTHER[:-1] in out["answer"]


def test_a_citation_after_the_full_stop_keeps_its_claim() -> None:
    """ "… for adults. [S1]": the citation alone was kept, its claim dropped as uncited."""
    text = f"Verdict: 451 GBP\n{FEE} [a] Lunch is free. {OTHER} [b] [c]"
    assert own_answer(text) == f"Verdict: 451 GBP\n{FEE} [a] {OTHER} [b] [c]"


def test_a_quote_over_two_sentences_stays_whole() -> None:
    """Set 18's f012 (2026-12-04): the quote's second sentence, uncited, was cut from the leaf's
    answer with the commentary around it."""
    text = (
        f'Verdict: 451 GBP\nThe question asks about fees. It is in [a], where it states: "{OTHER} '
        f'{FEE}"'
    )
    assert own_answer(text) == f'Verdict: 451 GBP\nIt is in [a], where it states: "{OTHER} {FEE}"'


def _flat(tmp_path: Path, floor: float) -> tuple[dict[str, Any], ScriptedChatModel]:
    """A flat root (``max_depth`` 0, the demo's setting) asked the one-part question alone."""
    return _debate(
        tmp_path, floor, "Can I pay in parts?", {"worker-root-0": f"{OTHER} [S1]"}, [0.1]
    )


def test_a_flat_root_judged_not_to_answer_the_question_says_not_found(tmp_path: Path) -> None:
    out, judge = _flat(tmp_path, floor=0.25)
    asked = [str(p[-1].content) for p in judge.prompts]
    assert len(asked) == 1 and "Question: Can I pay in parts?\n" in asked[0] and OTHER in asked[0]
    assert OTHER[:-1] not in out["answer"]
    assert [c["verdict"] for c in out["claims"] if not c["dropped"]] == ["not_found"]


def test_a_flat_root_without_a_floor_keeps_its_supported_claim(tmp_path: Path) -> None:
    out, judge = _flat(tmp_path, floor=0.0)
    assert judge.calls == 0 and OTHER[:-1] in out["answer"]
