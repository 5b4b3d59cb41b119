"""A reply the model stopped at its token limit loses the sentence it left unfinished.

Every word of a fragment such as "Q fever is diagnosed by blood cultures and specific" may stand
in the section it cites, so the claim check alone would call it supported; it is no claim.
"""

from __future__ import annotations

import pytest
from debate_fakes import context, run, scripted
from langchain_core.messages import AIMessage

from disputatio.nodes.debate.common import text_of
from disputatio.tools.answer_text import drop_unfinished_tail

AGREE = "Aspirin irreversibly inhibits COX-1 [s-aspirin]."
OTHER = "The sections say nothing about the mechanism at all, only about risks."
CUT = f"{AGREE}\nAspirin irreversibly inhibits"


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        (f"Verdict: yes [s1].\nSupport: {AGREE} It also", f"Verdict: yes [s1].\nSupport: {AGREE}"),
        ("- one item\n- the second is cut", "- one item"),  # earlier lines need no stop
        ("It works. [s1] It also [s2", "It works. [s1]"),  # a finished sentence's citation stays
        ("Cultures and specific [s1]", ""),  # a citation does not finish a sentence
        ("The dose is 2.5 mg daily. Take", "The dose is 2.5 mg daily."),  # no stop inside 2.5
        (AGREE, AGREE),
    ],
)
def test_the_unfinished_last_sentence_is_dropped(text: str, kept: str) -> None:
    assert drop_unfinished_tail(text) == kept


def test_only_a_reply_cut_at_its_limit_is_trimmed() -> None:
    cut = AIMessage(content=CUT, response_metadata={"finish_reason": "length"})
    whole = AIMessage(content=CUT, response_metadata={"finish_reason": "stop"})
    assert text_of(cut) == AGREE
    assert text_of(whole) == CUT


def test_a_summary_cut_at_its_limit_ends_with_its_last_finished_sentence() -> None:
    models = {
        "worker-root-0": scripted("w0", AGREE, AGREE, AGREE),
        "worker-root-1": scripted("w1", OTHER, OTHER, OTHER),
        "reviewer-root": scripted("rev", "Worker 0 cites [s-aspirin]; worker 1 cites nothing."),
        "summarizer-root": scripted(
            "sum", AIMessage(content=CUT, response_metadata={"finish_reason": "length"})
        ),
    }
    out, _, _ = run("How does aspirin work?", context(models, flat=True, workers=2, rounds=1))
    assert models["summarizer-root"].calls == 1
    assert out["answer"] == AGREE
