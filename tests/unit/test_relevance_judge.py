"""The judge asked whether a supported answer answers the question asked, not a neighbouring one.

Unit tests of :mod:`disputatio.validators.relevance_judge` and of
:meth:`~disputatio.validators.judge.SupportJudge.answers`, and two runs of the ``rag`` graph
with a scripted answerer and a scripted judge: the judge's probability reaches the answer's
``relevance`` and ``confidence``, and under ``grounding.relevance_floor`` the answer is
refused.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest
from rag_fakes import lp_reply, text_funnel

from disputatio.graphs.rag import graph
from disputatio.nodes.rag.context import RagContext
from disputatio.settings import load_settings
from disputatio.state.claims import ClaimReport
from disputatio.testing import ScriptedChatModel
from disputatio.validators.claims import NOT_FOUND_ANSWER, check_answer
from disputatio.validators.judge import SupportJudge
from disputatio.validators.relevance_judge import below_floor, judge_relevance

SECTIONS = {
    "hours": {
        "text": "Walk-in blood tests at the Holloway Centre run from 08:00 to 12:00. "
        "Parking at the centre is free for patients.",
        "title": "Holloway Outpatient Centre",
    }
}
QUESTION = "What are the opening hours of the Holloway Outpatient Centre?"
SUPPORTED = "Walk-in blood tests at the Holloway Centre run from 08:00 to 12:00."
INVENTED = "The centre's café opens at 07:00."


class AskedJudge:
    """A judge whose ``answers`` says ``p`` and records what it was asked."""

    def __init__(self, p: float) -> None:
        self.p = p
        self.asked: list[tuple[str, list[str]]] = []

    def answers(self, question: str, statements: Sequence[str]) -> float:
        self.asked.append((question, list(statements)))
        return self.p


def _report(answer: str = f"{SUPPORTED} [hours] {INVENTED} [hours]") -> ClaimReport:
    return check_answer(answer, SECTIONS)


def test_the_judge_is_asked_about_the_kept_supported_claims_only() -> None:
    report = _report()
    assert [c.verdict for c in report.claims] == ["supported", "unsupported"]  # the premise
    judge = AskedJudge(0.3)
    assert judge_relevance(QUESTION, report, judge) == 0.3
    assert judge.asked == [(QUESTION, [SUPPORTED])]


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        (QUESTION, f"{INVENTED} [hours]"),  # nothing supported: already a refusal
        (f"{QUESTION} And is parking free?", f"{SUPPORTED} [hours]"),  # two parts
    ],
)
def test_a_refusal_or_a_two_part_question_is_not_asked_about(question: str, answer: str) -> None:
    judge = AskedJudge(0.9)
    assert judge_relevance(question, _report(answer), judge) is None
    assert judge.asked == []


def test_a_checker_without_a_judge_gives_no_relevance() -> None:
    assert judge_relevance(QUESTION, _report(), None) is None
    assert judge_relevance(QUESTION, _report(), object()) is None


def test_below_the_floor_the_answer_becomes_a_refusal_that_keeps_its_verdicts() -> None:
    report = _report()
    refused = below_floor(report, 0.2, 0.5)
    assert refused.not_found and refused.answer == NOT_FOUND_ANSWER
    kept = [c for c in refused.claims if not c.dropped]
    assert [c.verdict for c in kept] == ["not_found"]
    first = refused.claims[0]
    assert (
        first.verdict == "supported"
        and first.dropped
        and "0.20 < relevance floor" in (first.reason or "")
    )
    assert not report.claims[0].dropped  # the report it was given is left as it was


@pytest.mark.parametrize(("p", "floor"), [(0.6, 0.5), (0.5, 0.5), (0.01, 0.0), (None, 0.9)])
def test_at_or_above_the_floor_or_unasked_the_answer_stands(p: float | None, floor: float) -> None:
    report = _report()
    assert below_floor(report, p, floor) is report


def test_the_judge_reads_p_yes_of_the_relevance_prompt_and_asks_once() -> None:
    model = ScriptedChatModel(script=[lp_reply(0.25)])
    judge = SupportJudge(model)
    assert judge.answers(QUESTION, [SUPPORTED]) == pytest.approx(0.25)
    assert judge.answers(QUESTION, [SUPPORTED]) == pytest.approx(0.25)
    assert model.calls == 1
    sent = str(model.prompts[0][-1].content)
    assert QUESTION in sent and SUPPORTED in sent and "answer the question" in sent


TEXT = "# Holloway Outpatient Centre\n\n" + SECTIONS["hours"]["text"]


def _run(
    tmp_path: Path, p_yes: float, floor: float = 0.0, allow: bool = False
) -> tuple[dict, ScriptedChatModel]:
    grounding = {"checker": "judged", "relevance_floor": floor, "allow_unsupported": allow}
    settings = load_settings(home=tmp_path, grounding=grounding)
    corpus = text_funnel(TEXT, "holloway.md", settings)
    answerer = ScriptedChatModel(script=[f"{SUPPORTED} [S1]"])
    judge = ScriptedChatModel(script=[lp_reply(p_yes)])  # a verbatim copy: only relevance
    ctx = RagContext(
        settings=settings,
        retriever=corpus,
        models={"answerer": answerer, "claim_judge": judge},
    )
    out = graph.invoke({"question": QUESTION, "threshold": 0.0}, context=ctx)
    return out, judge


def test_the_quick_path_records_the_judges_relevance_and_lowers_confidence(
    tmp_path: Path,
) -> None:
    doubted, judge = _run(tmp_path / "a", p_yes=0.1)
    trusted, _ = _run(tmp_path / "b", p_yes=0.9)
    assert judge.calls == 1
    sent = str(judge.prompts[0][-1].content)
    assert QUESTION in sent and SUPPORTED in sent
    assert doubted["relevance"] == pytest.approx(0.1)
    assert trusted["relevance"] == pytest.approx(0.9)
    assert SUPPORTED[:-1] in doubted["answer"] and not doubted["not_found"]  # no floor
    assert doubted["confidence"] < trusted["confidence"]


def test_under_the_relevance_floor_the_quick_path_refuses(tmp_path: Path) -> None:
    out, _ = _run(tmp_path, p_yes=0.1, floor=0.5)
    assert out["not_found"] and out["answer"] == NOT_FOUND_ANSWER
    assert any(c["verdict"] == "supported" and c["dropped"] for c in out["claims"])


def test_answers_allowed_without_evidence_are_not_refused_by_the_floor(tmp_path: Path) -> None:
    out, _ = _run(tmp_path, p_yes=0.1, floor=0.5, allow=True)
    assert not out["not_found"] and out["relevance"] == pytest.approx(0.1)
