"""A claim joining two things no one sentence states together is judged one thing at a time.

``make demo`` (2026-12-02, twice) wrote "Brucellosis is diagnosed by blood cultures and specific
serology": the sample corpus states each method in a sentence of its own, the whole claim was
set aside as unsupported, and the demo answered nothing of how brucellosis is diagnosed.
"""

from __future__ import annotations

import pytest

from disputatio.validators.claims import check_answer
from disputatio.validators.coordination import coordinated

WHOLE = "Brucellosis is diagnosed by blood cultures and specific serology."
CULTURE = "Brucellosis is diagnosed by blood culture, the reference method."
SEROLOGY = "Brucellosis is also diagnosed by specific serology with rising titres."
SECTIONS = {
    "culture": {"text": CULTURE, "title": "Culture"},
    "serology": {"text": SEROLOGY, "title": "Serology"},
    "history": {"text": "Bang described the bacterium in 1897.", "title": "History"},
}


@pytest.mark.parametrize(
    ("claim", "halves"),
    [
        (
            WHOLE,
            [
                "Brucellosis is diagnosed by blood cultures.",
                "Brucellosis is diagnosed by specific serology.",
            ],
        ),
        (
            "The fee includes both water and electricity, paid on arrival.",
            [
                "The fee includes water, paid on arrival.",
                "The fee includes electricity, paid on arrival.",
            ],
        ),
        # an acronym is a thing (make demo, 2026-12-04: "… by serology and PCR" was dropped)
        (
            "Q fever is diagnosed by serology and PCR.",
            ["Q fever is diagnosed by serology.", "Q fever is diagnosed by PCR."],
        ),
        # the second item brings its own preposition: not "sold at in the shop"
        (
            "Fishing licences are sold at reception and in the campground shop.",
            [
                "Fishing licences are sold at reception.",
                "Fishing licences are sold in the campground shop.",
            ],
        ),
        ("The Customer Service Manager at Holmvik Water and Waste is Ingrid Solheim.", None),
        ("A boat between 8 and 12 metres long pays 350 NOK.", None),
        ("Symptoms are fever and headache in most patients.", None),  # the items end nowhere
        ("The risk of fever and headache is high.", None),
        ("Red and blue.", None),
        # about the sections, not the world (u016): a half lifted would answer a near miss
        (
            "The sections only discuss fees, including discounts for composting and pensioners.",
            None,
        ),
    ],
)
def test_only_a_final_coordination_of_common_nouns_splits(
    claim: str, halves: list[str] | None
) -> None:
    assert coordinated(claim) == halves


def test_each_supported_half_is_shown_and_the_whole_is_dropped() -> None:
    report = check_answer(f"{WHOLE[:-1]} [culture].", SECTIONS)
    culture, serology, whole = report.claims
    assert culture.text == "Brucellosis is diagnosed by blood cultures."
    assert culture.verdict == "supported" and culture.citations == ["culture"]
    assert serology.verdict == "supported" and serology.citations == ["serology"]
    assert serology.attributed  # it cited the culture section; the serology one supports it
    assert whole.text == WHOLE and whole.verdict == "unsupported" and whole.dropped
    assert "no one sentence states together" in whole.reason
    assert "blood cultures" in report.answer and "specific serology" in report.answer
    assert report.counts["supported"] == 2


def test_a_half_nothing_supports_is_not_shown() -> None:
    sections = {k: v for k, v in SECTIONS.items() if k != "serology"}
    report = check_answer(f"{WHOLE[:-1]} [culture].", sections)
    culture, whole = report.claims
    assert culture.verdict == "supported" and whole.dropped
    assert "its supported half shown on its own" in whole.reason
    assert "serology" not in report.answer


def test_a_coordination_no_half_of_which_is_supported_stays_one_dropped_claim() -> None:
    sections = {"history": SECTIONS["history"]}
    report = check_answer(f"{WHOLE[:-1]} [history].", sections)
    (whole,) = [c for c in report.claims if c.verdict != "not_found"]
    assert whole.text == WHOLE and whole.verdict == "unsupported" and whole.dropped
    assert "together" not in whole.reason


def test_an_uncited_claim_is_not_attributed_to_a_patchwork_of_sections() -> None:
    """Attribution names one supporting sentence: ``make demo`` (2026-12-03) showed "Q fever
    is diagnosed by blood cultures" as supported by four sentences of three documents."""
    sections = {
        "qf": {"text": "Q fever is a zoonosis. It is rarely cultured.", "title": "Q fever"},
        "bru": {"text": "Blood cultures are the reference method.", "title": "Brucellosis"},
        "old": {"text": "Chronic cases were diagnosed for years.", "title": "History"},
    }
    claim = "Q fever is diagnosed by blood cultures."
    uncited = check_answer(claim, sections)
    assert uncited.claims[0].verdict == "uncited" and uncited.claims[0].dropped
    # the writer citing the sections it rests on together is another matter (citation recall)
    cited = check_answer(f"{claim[:-1]} [qf][bru][old].", sections)
    assert cited.claims[0].verdict == "supported" and len(cited.claims[0].more_evidence) >= 1
