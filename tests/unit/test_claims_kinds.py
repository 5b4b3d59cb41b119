"""Which lines of an answer are claims: verdicts, pointers, reports, repeats, list leads."""

from __future__ import annotations

import pytest
from claims_sections import SECTIONS

from disputatio.validators.claims import NOT_FOUND_ANSWER, check_answer


def test_refusal_and_verdict_lines_are_not_judged_as_facts() -> None:
    report = check_answer("Answer: B\nThe documents do not say what Oslo's allowance is.", SECTIONS)
    kinds = [(c.verdict, c.factual) for c in report.claims]
    assert kinds == [(None, False), ("not_found", True)] and report.not_found
    assert report.answer.startswith("Answer: B")


def test_a_quoted_question_is_no_claim() -> None:
    """'The question "...?" is answered in [id]' restates what was asked (run 4, g020): not judged.

    The quoted question stays in its sentence (its "?" ends no sentence before a word in lower
    case); the sentence points at the documents and states nothing.
    """
    report = check_answer(
        'The question "How often must the CTD-41 be calibrated?" is answered in [sec-ctd]. '
        "The CTD-41 must be calibrated every 18 months [sec-ctd].",
        SECTIONS,
    )
    asked, said = report.claims[0], report.claims[-1]
    assert asked.text.startswith("The question") and "is answered in" in asked.text
    assert asked.verdict is None and not asked.factual
    assert said.verdict == "supported"
    assert [c.text for c in report.claims if c.verdict == "supported"] == [said.text]


def test_a_yes_no_verdict_stands_only_on_a_supported_claim() -> None:
    secs = {"s": {"text": "Papilin is an extracellular matrix glycoprotein secreted by hemocytes."}}
    verdict = "Yes, papilin takes part in basement membrane remodelling."  # no sentence states it
    carried = check_answer(f"{verdict} It is secreted by hemocytes [s].", secs)
    assert [c.verdict for c in carried.claims] == [None, "supported"]
    assert carried.answer.startswith(verdict)
    alone = check_answer(f"{verdict} It glows in the dark.", secs)
    assert alone.not_found and not alone.answer.startswith("Yes")


def test_a_verdict_making_a_statement_is_judged_and_markup_is_no_prose() -> None:
    secs = {"s": {"text": "Brucellosis is confirmed by blood culture and serology."}}
    report = check_answer(
        "Verdict: Brucellosis is diagnosed by tea leaves and prayer [s].\n</section>", secs
    )
    assert report.claims[0].verdict == "unsupported" and report.not_found
    assert "</section>" not in report.answer
    short = check_answer("Verdict: B\nBrucellosis is confirmed by blood culture [s].", secs)
    assert [c.factual for c in short.claims] == [False, True]


def test_a_sentence_pointing_at_the_documents_is_no_claim() -> None:
    """g014: "This information is found in the section…" passed a lenient judge as supported."""
    from disputatio.testing import FakeEmbeddings
    from disputatio.validators.support import JudgedSupport

    yes = JudgedSupport(FakeEmbeddings().embed_documents, lambda c, w, x: 1.0)
    pointer = "This information is found in the section about the travel policy [sec-travel]."
    report = check_answer(pointer, SECTIONS, checker=yes)
    assert (report.claims[0].verdict, report.claims[0].factual) == (None, False)
    assert report.not_found and report.answer == NOT_FOUND_ANSWER
    stated = "It is stated that the daily allowance in Bergen is 910 NOK [sec-travel]."
    (claim,) = check_answer(stated, SECTIONS).claims
    assert claim.factual and claim.verdict == "supported"
    # u033 (held-out set 8): "The section [id] provides information on …" states nothing either
    about = "The section [sec-travel] provides information on the travel policy for staff."
    report = check_answer(about, SECTIONS, checker=yes)
    assert (report.claims[0].verdict, report.claims[0].factual) == (None, False)
    assert report.not_found
    # ... unless it goes on to state something (h029): then it is a claim, checked as one
    from disputatio.validators.claim_kinds import is_pointer

    assert not is_pointer(
        "The section provides information about passwords, including that the last 10 "
        "passwords cannot be reused."
    )
    assert not is_pointer("The text gives details: the allowance is 910 NOK.")


def test_a_claim_stated_twice_is_shown_once() -> None:
    """The 1.5B repeated one sentence four times in ``make demo``'s answer."""
    said = "The CTD-41 must be calibrated every 18 months [sec-ctd]."
    report = check_answer(f"{said} {said}\n- Phase I\n{said}", SECTIONS)
    kept = [c for c in report.claims if c.factual and not c.dropped]
    assert [c.text for c in kept] == ["The CTD-41 must be calibrated every 18 months."]
    assert report.answer.count("18 months") == 1


def test_a_verdict_line_repeated_as_a_claim_is_shown_once() -> None:
    """``make demo`` (2026-12-02) showed "Brucellosis is diagnosed through …" twice: once as
    the answer's "Verdict: …" line and once as the first claim under it."""
    said = "Contractors are not reimbursed for meals"
    report = check_answer(
        f"Verdict: {said} [sec-travel].\nSupport:\n- {said} [sec-travel].", SECTIONS
    )
    kept = [c for c in report.claims if c.factual and not c.dropped]
    assert [c.text.removeprefix("Verdict: ") for c in kept] == [f"{said}."]
    assert report.answer.count("reimbursed") == 1


def test_a_verdict_line_is_judged_without_its_label() -> None:
    """ "Verdict:" is the answer's layout; the word is in no sentence."""
    report = check_answer(
        "Verdict: Contractors are not reimbursed for meals [sec-travel].", SECTIONS
    )
    (claim,) = report.claims
    assert claim.factual and claim.verdict == "supported" and not claim.dropped
    assert report.answer.startswith("Verdict: Contractors")


def test_a_sentence_answering_two_sub_questions_is_kept_under_each() -> None:
    said = "The CTD-41 must be calibrated every 18 months [sec-ctd]."
    report = check_answer(f"How often?\n{said}\nWhat interval?\n{said}", SECTIONS)
    assert report.answer.count("18 months") == 2


def test_a_claim_reporting_the_documents_is_checked_as_what_they_are_said_to_state() -> None:
    """``make demo``: "States that Q fever is caused by …" is the claim "Q fever is caused by …"."""
    report = check_answer("States that the CTD-41 must be calibrated every 18 months.", SECTIONS)
    [claim] = [c for c in report.claims if c.factual]
    assert claim.text == "The CTD-41 must be calibrated every 18 months."
    assert claim.verdict == "supported" and report.answer.startswith("The CTD-41")


def test_an_adverb_before_the_reporting_verb_is_read_past() -> None:
    """i040 (held-out set 24): "The text explicitly states that cash is not accepted …"."""
    said = "The text explicitly states that the CTD-41 must be calibrated every 18 months."
    report = check_answer(said, SECTIONS)
    [claim] = [c for c in report.claims if c.factual]
    assert claim.text == "The CTD-41 must be calibrated every 18 months."


def test_a_sentence_describing_the_documents_is_no_claim() -> None:
    report = check_answer(
        "The CTD-41 must be calibrated every 18 months [sec-ctd]. "
        "Describes how the CTD-41 is calibrated [sec-ctd].",
        SECTIONS,
    )
    assert "Describes" not in report.answer
    [pointer] = [c for c in report.claims if c.text.startswith("Describes")]
    assert pointer.dropped and not pointer.factual


def test_a_summary_reporting_another_answer_is_checked_as_what_that_answer_states() -> None:
    """``make demo``: "The latest answer supports the claim that …" is that claim."""
    report = check_answer(
        "The latest answer supports the claim that the CTD-41 must be calibrated every 18 "
        "months [sec-ctd].",
        SECTIONS,
    )
    [claim] = [c for c in report.claims if c.factual]
    assert claim.text.startswith("The CTD-41 must be calibrated")
    assert claim.verdict == "supported"


def test_an_answer_disputing_another_is_not_shown_as_a_supported_claim() -> None:
    """``make demo``: "… contradicts the claim that X" was judged on X and shown supported."""
    report = check_answer(
        "The latest answer contradicts the claim that the CTD-41 must be calibrated every 18 "
        "months [sec-ctd].",
        SECTIONS,
    )
    claim = report.claims[0]
    assert claim.text.startswith("The latest answer contradicts")
    assert claim.dropped and not claim.factual and claim.verdict is None
    assert not [c for c in report.claims if c.verdict == "supported"]
    assert "contradicts" not in report.answer


def test_a_contrast_joined_by_whereas_is_two_claims_each_judged() -> None:
    """``make demo``: "Q fever is caused by …, whereas brucellosis is caused by …" was one claim,
    judged supported on the brucellosis sentence alone."""
    report = check_answer(
        "The depth rating of the SBE-9 is 6,800 m, whereas the CTD-41 must be calibrated every "
        "18 months [sec-ctd].",
        SECTIONS,
    )
    got = [(c.text, c.verdict) for c in report.claims if c.factual]
    assert got == [
        ("The depth rating of the SBE-9 is 6,800 m.", "unsupported"),
        ("The CTD-41 must be calibrated every 18 months.", "supported"),
    ]


@pytest.mark.parametrize(
    ("lead", "factual"),
    [
        ("Brucellosis and Q fever are diagnosed in the following ways [s1]:", False),
        ("The tests are as follows:", False),
        ("Its symptoms include:", False),
        ("Q fever, caused by Coxiella burnetii, spreads in the following ways:", True),
        ("The two tests taking 5 days are the following:", True),
    ],
)
def test_a_lead_in_to_a_list_is_judged_only_when_it_states_something(
    lead: str, factual: bool
) -> None:
    secs = {"s1": {"text": "Brucellosis is diagnosed by blood cultures and serology."}}
    item = "- Brucellosis is diagnosed by blood cultures and serology [s1]."
    first = check_answer(f"{lead}\n{item}", secs).claims[0]
    assert first.factual is factual
    assert (first.verdict is None) is not factual
