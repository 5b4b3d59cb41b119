"""A claim comparing its subject with something else needs evidence naming that other thing.

``make demo`` (2026-12-02) showed "Brucellosis is diagnosed by blood cultures and specific
serology, unlike Q fever" as supported, on a brucellosis sentence alone; the sample corpus says
serology is Q fever's main method.
"""

from __future__ import annotations

import pytest
from fake_judges import RecordingJudge

from disputatio.testing import FakeEmbeddings
from disputatio.validators.claims import check_answer
from disputatio.validators.contrast import contrasted, missing_contrast, without_contrast
from disputatio.validators.support import JudgedSupport, guard

BRUCELLOSIS = "Brucellosis is diagnosed by blood cultures and specific serology."
BOTH = "Q fever is diagnosed mainly by serology; brucellosis by blood cultures and serology."
SECTIONS = {
    "bru": {
        "text": BRUCELLOSIS + " Blood culture is the reference method.",
        "title": "Brucellosis",
    },
    "qf": {"text": "Q fever is caused by Coxiella burnetii.", "title": "Q fever"},
}
CLAIM = "Brucellosis is diagnosed by blood cultures and specific serology, unlike Q fever"


@pytest.mark.parametrize(
    ("claim", "other"),
    [
        (CLAIM + ".", "Q fever"),
        ("Unlike Q fever, brucellosis is diagnosed by blood culture.", "Q fever"),
        ("The pilot course lasts 5 days, in contrast to the operator course.", "operator course"),
        ("Outcomes improved compared with placebo.", "placebo"),
        (
            "Brucellosis spreads by food, as opposed to the inhaled dust of Q fever.",
            "inhaled dust of Q fever",
        ),
    ],
)
def test_the_thing_compared_with_is_read_off_the_claim(claim: str, other: str) -> None:
    assert contrasted(claim) == [other]


def test_a_contrast_the_sentence_does_not_name_fails_the_guard() -> None:
    reason = guard(CLAIM, BRUCELLOSIS, "Brucellosis")
    assert "q fever" in reason.casefold()
    # a thing compared with that is no name: only the contrast check sees it
    pilot = "The pilot course lasts 5 days, in contrast to the operator course."
    assert "operator course" in guard(pilot, "The pilot course lasts 5 days.", "Courses")
    assert guard(pilot, "The pilot course lasts 5 days; the operator course 3 months.") == ""
    assert guard(CLAIM, BOTH, "Diagnosis") == ""
    # a one-letter name counts with its word: "fever" alone is not "Q fever"
    assert missing_contrast(CLAIM, "Malta fever is brucellosis, diagnosed by serology.")
    assert (
        guard("Brucellosis is diagnosed by blood cultures and specific serology.", BRUCELLOSIS)
        == ""
    )


@pytest.mark.parametrize(
    ("claim", "rest"),
    [
        (CLAIM + ".", BRUCELLOSIS),
        # the third `make demo` of 2026-12-02: the whole claim was dropped, its first half lost
        (
            "Brucellosis is diagnosed by blood cultures and specific serology, which differs "
            "from Q fever.",
            BRUCELLOSIS,
        ),
        (
            "Unlike Q fever, brucellosis is diagnosed by blood cultures.",
            "Brucellosis is diagnosed by blood cultures.",
        ),
        (
            "Outcomes improved compared with placebo in the trial.",
            None,
        ),  # the comparison is the claim
        ("It differs, unlike Q fever.", None),  # too little left to be a claim
        (BRUCELLOSIS, None),
    ],
)
def test_only_a_detachable_contrast_is_taken_away(claim: str, rest: str | None) -> None:
    assert without_contrast(claim) == rest


def test_an_unsupported_contrast_is_dropped_and_the_rest_is_shown() -> None:
    """Even a judge that lifts everything: the guard is never overruled."""
    checker = JudgedSupport(FakeEmbeddings().embed_documents, RecordingJudge(1.0))  # type: ignore[arg-type]
    report = check_answer(f"{CLAIM} [bru].", SECTIONS, checker=checker)
    core, whole = report.claims
    assert (core.text, core.verdict, core.dropped) == (BRUCELLOSIS, "supported", False)
    assert core.citations == ["bru"] and core.evidence is not None
    assert whole.text == CLAIM + "." and whole.verdict == "unsupported" and whole.dropped
    assert "q fever" in whole.reason.casefold()
    assert "Q fever" not in report.answer and report.answer.startswith("Brucellosis is diagnosed")
    assert report.counts["supported"] == 1 and report.counts["unsupported"] == 1


def test_a_contrast_its_sentence_states_is_one_supported_claim() -> None:
    sections = {"both": {"text": BOTH, "title": "Diagnosis"}}
    claim = (
        "Brucellosis is diagnosed by blood cultures, unlike Q fever, diagnosed mainly by serology"
    )
    checker = JudgedSupport(FakeEmbeddings().embed_documents, RecordingJudge(1.0))  # type: ignore[arg-type]
    report = check_answer(f"{claim} [both].", sections, checker=checker)
    (only,) = report.claims
    assert only.verdict == "supported" and not only.dropped and "Q fever" in report.answer
