"""One repair of a refused draft (``grounding.repair``): the answerer is asked once to copy.

Unit tests of :mod:`disputatio.nodes.rag.repair`, and runs of the ``rag`` graph with a scripted
answerer (the lexical checker, so no judge is scripted): a draft whose every claim the checker
sets aside leads to one fresh request to copy the answering sentence; its reply replaces the first
when it keeps a supported claim; a draft that says the documents do not answer, a near miss's
off-question claim and the setting switched off are not repaired.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from rag_fakes import lp_reply, text_funnel

from disputatio.graphs.rag import graph
from disputatio.nodes.rag.context import RagContext
from disputatio.nodes.rag.repair import needs_repair
from disputatio.settings import load_settings
from disputatio.state.claims import Claim
from disputatio.testing import ScriptedChatModel
from disputatio.validators.claims import NOT_FOUND_ANSWER

TEXT = (
    "# Reading Room\n\n"
    "The Reading Room is on the second floor. A reader's ticket is valid for three years. "
    "Readers must show photo ID."
)
QUESTION = "How long is a reader's ticket for the Research Library and Archive valid?"
#: The right answer with the question's framing added: no sentence states it as written.
FRAMED = "The reader's ticket for the Research Library and Archive lasts for 3 years and 2 months."
COPIED = "A reader's ticket is valid for three years. [S1]"


def _claim(verdict: str, dropped: bool, factual: bool = True, text: str = "x") -> Claim:
    return Claim(text=text, verdict=verdict, dropped=dropped, factual=factual)  # type: ignore[arg-type]


def test_only_a_draft_whose_every_claim_was_set_aside_unfound_is_repaired() -> None:
    unsupported = _claim("unsupported", True, text="a")
    uncited = _claim("uncited", True, text="b")
    assert needs_repair([unsupported, uncited, _claim("not_found", False)])
    assert not needs_repair([unsupported, _claim("supported", False)])  # a claim is kept
    assert not needs_repair([unsupported, _claim("supported", True)])  # a near miss's mark
    assert not needs_repair([_claim("not_found", False)])  # the writer said not found
    assert not needs_repair([_claim(None, False, factual=False)])  # type: ignore[arg-type]
    assert not needs_repair([unsupported, _claim("unsupported", False)])  # flagged, kept


def _run(
    tmp_path: Path, script: list[str], repair: bool = True, p_answers: float | None = None
) -> tuple[dict, ScriptedChatModel]:
    """The quick path with a scripted answerer; with ``p_answers``, the judged checker whose
    scripted judge gives that P(the answer answers the question)."""
    grounding = {"checker": "lexical", "repair": repair, "relevance_floor": 0.25}
    models = {}
    if p_answers is not None:  # a verbatim copy is not judged: the one call is relevance
        grounding["checker"] = "judged"
        models["claim_judge"] = ScriptedChatModel(script=[lp_reply(p_answers)])
    settings = load_settings(home=tmp_path, grounding=grounding)
    corpus = text_funnel(TEXT, "reading_room.md", settings)
    answerer = ScriptedChatModel(script=script)
    models["answerer"] = answerer
    ctx = RagContext(settings=settings, retriever=corpus, models=models)
    out = graph.invoke({"question": QUESTION, "threshold": 0.0}, context=ctx)
    return out, answerer


def test_a_refused_draft_is_repaired_once_and_the_repair_is_checked(tmp_path: Path) -> None:
    out, answerer = _run(tmp_path, [FRAMED, COPIED])
    assert answerer.calls == 2
    first, second = (str(p[-1].content) for p in answerer.prompts)
    # asked afresh to copy: the same sections and question, not its own first reply
    assert "Copy word for word" in second and QUESTION in second and FRAMED not in second
    assert first.split("</sections>")[0] == second.split("</sections>")[0]
    assert out["draft"] == FRAMED and out["repaired"] == COPIED
    kept = [c for c in out["claims"] if not c["dropped"]]
    assert [c["verdict"] for c in kept] == ["supported"]
    assert "three years" in out["answer"] and not out["not_found"]
    assert out["usage"]["repairer"]["calls"] == 1


def test_a_repair_that_is_unsupported_too_leaves_the_refusal(tmp_path: Path) -> None:
    out, answerer = _run(tmp_path, [FRAMED, "It is valid for five years. [S1]"])
    assert answerer.calls == 2
    assert out["answer"] == NOT_FOUND_ANSWER and out["not_found"]
    assert out["repaired"] == "It is valid for five years. [S1]"
    assert any("3 years and 2 months" in c["text"] for c in out["claims"])  # the first check


@pytest.mark.parametrize(
    ("draft", "repair"),
    [
        ("The documents do not answer this question.", True),  # the writer said so
        (FRAMED, False),  # the setting is off
        (COPIED, True),  # nothing to repair
    ],
)
def test_no_repair_is_asked_for_outside_its_case(tmp_path: Path, draft: str, repair: bool) -> None:
    out, answerer = _run(tmp_path, [draft], repair=repair)
    assert answerer.calls == 1  # a second call would run the script out and raise
    assert out["repaired"] is None


def test_post_query_traces_the_repair_reply_next_to_the_draft() -> None:
    from disputatio.api.rag import _trace

    result = {"draft": FRAMED, "repaired": COPIED, "sections": []}
    assert _trace(result, debug=True)["repaired"] == COPIED
    assert "repaired" not in _trace(result, debug=False)  # the model's own texts: debug only
    assert "repaired" not in _trace({"draft": FRAMED, "repaired": None}, debug=True)


@pytest.mark.parametrize(("p", "kept"), [(0.4, False), (0.6, True)])
def test_a_repaired_answer_must_clear_the_repair_floor(
    tmp_path: Path, p: float, kept: bool
) -> None:
    out, _ = _run(tmp_path, [FRAMED, COPIED], p_answers=p)
    assert out["repaired"] == COPIED and out["relevance"] == pytest.approx(p)
    assert out["not_found"] is not kept
    if not kept:
        assert any("relevance floor 0.5" in c["reason"] for c in out["claims"])


def test_a_first_answer_needs_only_the_relevance_floor(tmp_path: Path) -> None:
    out, _ = _run(tmp_path, [COPIED], p_answers=0.4)  # 0.25 <= 0.4 < 0.5
    assert out["repaired"] is None and not out["not_found"]
