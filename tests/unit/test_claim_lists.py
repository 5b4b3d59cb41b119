"""A claim that lists things needs evidence holding every item of its list.

``make demo`` (2026-12-02) showed "Brucellosis is characterized by fever, arthralgia, hepatitis
and hepatosplenomegaly" as supported on "Brucellosis is a zoonotic bacterial infection … also
known as Malta fever, …": the 1.5B judge lifted it (P(yes) 0.59) on a sentence naming none of
the four findings but "fever". The sample corpus states all four in one sentence of another
document, to which the claim is now attributed.
"""

from __future__ import annotations

import pytest
from fake_judges import RecordingJudge

from disputatio.testing import FakeEmbeddings
from disputatio.validators.claims import check_answer
from disputatio.validators.lists import list_items, missing_items
from disputatio.validators.support import JudgedSupport, guard

CLAIM = "Brucellosis is characterized by fever, arthralgia, hepatitis and hepatosplenomegaly"
#: In the judge's grey zone for the claim (hybrid score ~0.54), like the demo's sentence.
UNDULANT = (
    "Brucellosis is characterized by fever that rises and falls, with drenching sweats. "
    "It is also known as Malta fever."
)
BOTH = (
    "Zoonotic infections that cause prolonged fever should be excluded, particularly "
    "brucellosis. Both can produce fever, arthralgia, hepatitis and hepatosplenomegaly."
)
SECTIONS = {
    "bru": {"text": UNDULANT, "title": "Brucellosis"},
    "still": {"text": BOTH, "title": "Adult-onset Still's disease"},
}


@pytest.mark.parametrize(
    ("claim", "items"),
    [
        (CLAIM + " [bru].", ["fever", "arthralgia", "hepatitis", "hepatosplenomegaly"]),
        ("Wear a hard hat, safety boots, and gloves.", ["hat", "safety boots", "gloves"]),
        # thousands separators are no list commas; two items are no list
        ("The cap is 1,650 NOK in Bergen and 1,900 NOK in Tromsø.", []),
        # clauses joined by commas are no list
        ("The pack, which weighs 2 kg, lasts 70 hours and powers the CTD-41.", []),
        ("The bacterium varies, and this distinction is the basis of serological diagnosis.", []),
    ],
)
def test_the_items_of_a_list_are_read_off_the_claim(claim: str, items: list[str]) -> None:
    assert list_items(claim) == items


def test_a_window_missing_an_item_fails_the_guard() -> None:
    reason = guard(CLAIM, UNDULANT, "Brucellosis")
    for item in ("arthralgia", "hepatitis", "hepatosplenomegaly"):
        assert item in reason
    assert "fever" not in reason.split(" of the claim")[0].split(", ")  # the sentence has it
    assert (
        guard(
            CLAIM,
            "Brucellosis produces fever, arthralgia, hepatitis and hepatosplenomegaly.",
            "Brucellosis",
        )
        == ""
    )
    # an item is present by any of its words, stemmed
    assert missing_items("Wear hard hats, safety boots and gloves.", "A hat, boots, a glove.") == []


def test_a_list_claim_is_attributed_to_the_sentence_holding_every_item() -> None:
    """Even a judge that lifts everything: the guard is never overruled."""
    checker = JudgedSupport(FakeEmbeddings().embed_documents, RecordingJudge(1.0))  # type: ignore[arg-type]
    report = check_answer(f"{CLAIM} [bru].", SECTIONS, checker=checker)
    (claim,) = report.claims
    assert claim.verdict == "supported" and claim.evidence is not None
    assert claim.evidence.section_id == "still"
    assert "hepatosplenomegaly" in claim.evidence.sentence


def test_a_list_claim_no_sentence_holds_is_unsupported() -> None:
    checker = JudgedSupport(FakeEmbeddings().embed_documents, RecordingJudge(1.0))  # type: ignore[arg-type]
    report = check_answer(f"{CLAIM} [bru].", {"bru": SECTIONS["bru"]}, checker=checker)
    (claim,) = [c for c in report.claims if c.text.startswith(CLAIM)]
    assert claim.verdict == "unsupported" and claim.dropped
    assert "hepatitis" in claim.reason
    assert report.counts["supported"] == 0 and "hepatitis" not in report.answer
