"""``verdict_last``: agents write support first, verdict line last; the graph reads it first."""

from __future__ import annotations

from typing import Any

import pytest
from debate_fakes import context, run, scripted

from disputatio.nodes.debate.agreement import lead_with_verdict, verdict
from disputatio.prompts.debate import VERDICT_FORMS
from disputatio.state.retrieval import Section
from disputatio.testing import FakeRetriever

FIRST, LAST = VERDICT_FORMS["first"], VERDICT_FORMS["last"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("It blocks COX-1 [S1].\nVerdict: yes", "Verdict: yes\nIt blocks COX-1 [S1]."),
        ("Verdict: yes\nIt blocks COX-1 [S1].", "Verdict: yes\nIt blocks COX-1 [S1]."),
        ("It blocks COX-1 [S1].", "It blocks COX-1 [S1]."),  # no verdict line: as it is
        # it opens with a verdict: nothing moves, even when it restates one below
        (
            "Verdict: no\nBut see [S1].\n**Verdict:** yes",
            "Verdict: no\nBut see [S1].\n**Verdict:** yes",
        ),
        (
            "Too long.\nVerdict: no\nOn reflection:\nVerdict: yes",
            "Verdict: yes\nToo long.\nVerdict: no\nOn reflection:",
        ),
        ("Reasons.\n\nVerdict: B\n", "Verdict: B\nReasons."),
        ("  Verdict: yes  ", "  Verdict: yes  "),
    ],
)
def test_lead_with_verdict_moves_the_last_verdict_line_to_the_top(text: str, expected: str) -> None:
    assert lead_with_verdict(text) == expected


def _prompt(model: Any, call: int = 0) -> str:
    return "\n".join(str(m.content) for m in model.prompts[call])


def test_verdict_last_asks_for_support_first_and_debates_the_verdicts_it_ends_with() -> None:
    models = {
        "worker-root-0": scripted(
            "w0",
            "Aspirin blocks COX-1 [S1].\nVerdict: yes",
            "The section says so [S1].\nVerdict: yes",
        ),
        "worker-root-1": scripted(
            "w1", "I doubt the sections [S1].\nVerdict: no", "Agreed after all [S1].\nVerdict: yes"
        ),
        "reviewer-root": scripted("rev", "Both now say yes [S1]."),
        "summarizer-root": scripted("sum", "Aspirin inhibits COX-1 [S1].\nVerdict: yes"),
    }
    ctx = context(models, flat=True, workers=2, rounds=1, max_tool_calls=0, verdict_last=True)
    out, _, _ = run("Does aspirin inhibit COX-1?", ctx)
    first_turn = _prompt(models["worker-root-0"])
    assert LAST["worker"] in first_turn and FIRST["worker"] not in first_turn
    assert LAST["debate"] in str(models["worker-root-1"].prompts[1][-1].content)
    assert LAST["summary"] in _prompt(models["summarizer-root"])
    # the yes/no split was seen (a debate round ran), and every answer is stored verdict first
    assert out["tree"][0]["debated"] and out["tree"][0]["rounds"] == 1
    answers = [m["content"] for m in out["transcript"] if m["kind"] in ("answer", "summary")]
    assert [verdict(a) for a in answers] == ["yes", "no", "yes", "yes", "yes"]
    assert all(a.startswith("Verdict: ") for a in answers)
    # other agents are shown the turned-round answer
    assert "Verdict: no\nI doubt the sections" in str(
        models["worker-root-0"].prompts[1][-1].content
    )
    assert out["answer"].startswith("Verdict: yes\nAspirin inhibits COX-1 [s-aspirin].")


def test_verdict_last_agents_agreeing_in_different_words_do_not_debate() -> None:
    """Their verdicts are compared, not their prose (which differs throughout)."""
    models = {
        "worker-root-0": scripted("w0", "Aspirin blocks COX-1 [S1].\nVerdict: yes"),
        "worker-root-1": scripted(
            "w1", "Section one states an inhibition of it [S1].\nVerdict: Yes."
        ),
    }
    ctx = context(models, flat=True, workers=2, rounds=2, max_tool_calls=0, verdict_last=True)
    out, _, _ = run("Does aspirin inhibit COX-1?", ctx)
    assert out["tree"][0]["status"] == "agreed" and not out["tree"][0]["debated"]
    assert out["answer"].startswith("Verdict: ")


def test_verdict_last_final_verdict_on_a_decomposed_question() -> None:
    plan = {"subquestions": ["When are fire drills held?", "How long does the battery last?"]}
    models = {
        "orchestrator": scripted("o", plan),
        "worker-1-0": scripted("w1", "Drills are held on Mondays [S1].\nVerdict: on Mondays."),
        "worker-2-0": scripted("w2", "The battery lasts 300 hours [S1].\nVerdict: 300 hours."),
        "aggregator-root": scripted("agg", "The battery sub-answer decides it.\nVerdict: B"),
    }
    drills = Section(id="drills", source="ops.md", text="Fire drills: Mondays.")
    battery = Section(id="battery", source="ctd41.md", text="Battery: the battery lasts 300 h.")
    retriever = FakeRetriever([drills], match_all=True, by_keyword={"battery": [battery]})
    ctx = context(models, retriever, max_depth=1, workers=1, max_tool_calls=0, verdict_last=True)
    question = "How long does the CTD-41 battery last?"
    out, _, _ = run(question, ctx, options={"A": "6 h", "B": "300 h"})
    system = str(models["aggregator-root"].prompts[0][0].content)
    assert "then end with the verdict line" in system and "Choose exactly one option" in system
    # the sub-answers it reads are turned round too
    assert "Verdict: 300 hours.\nThe battery lasts 300 hours [battery]." in _prompt(
        models["aggregator-root"]
    )
    assert out["answer"].splitlines()[0] == "Verdict: B"


def test_the_default_form_is_verdict_first() -> None:
    models = {"worker-root-0": scripted("w", "Verdict: yes.\nIt does [S1].")}
    run("Does aspirin inhibit COX-1?", context(models, flat=True, workers=1, max_tool_calls=0))
    system = str(models["worker-root-0"].prompts[0][0].content)
    assert FIRST["worker"] in system and LAST["worker"] not in system
