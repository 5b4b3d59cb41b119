"""A negative statement about the world is a claim to check, not a refusal to pass unchecked."""

from __future__ import annotations

import pytest

from disputatio.validators.claim_kinds import is_pointer, refuses, split_compound
from disputatio.validators.claims import NOT_FOUND_ANSWER, check_answer

WEEK = (
    "Summer Music Week runs for 5 days in the first week of August. The week costs 175 GBP. "
    "Members do not pay the deposit."
)
SECTIONS = {"sec-week": {"text": WEEK, "title": "Summer Music Week", "source": "week.md"}}


@pytest.mark.parametrize(
    "text",
    [
        "No lunch is provided.",
        "It is not provided with lunch.",
        "The Silver membership is not available for juniors.",
        "The club does not cover emergency fees, operations or insurance excess.",
        "The kit does not contain batteries.",
    ],
)
def test_a_negative_fact_is_no_refusal(text: str) -> None:
    assert not refuses(text)


@pytest.mark.parametrize(
    "text",
    [
        "The documents do not answer this question.",
        "The nurse's name is not provided in the given context.",
        "The text does not provide any information about the deposit.",
        "The cost to take a bicycle on a tram is not mentioned in the provided sections.",
        "NO_SUITABLE_CONTEXT",
    ],
)
def test_a_sentence_about_what_was_given_is_a_refusal(text: str) -> None:
    assert refuses(text)


def test_an_invented_negative_fact_is_dropped_not_shown_as_a_refusal() -> None:
    report = check_answer("No lunch is provided.", SECTIONS)
    (claim, *_) = report.claims
    assert claim.verdict in ("uncited", "unsupported") and claim.dropped
    assert report.answer == NOT_FOUND_ANSWER


def test_a_short_answer_line_goes_when_no_claim_carries_it() -> None:
    """A debate leaf's "Verdict: No lunch is provided." (unjudged, a short answer) was shown."""
    report = check_answer("Verdict: No lunch is provided.\nLunch is served at noon.", SECTIONS)
    assert all(c.dropped for c in report.claims if c.verdict != "not_found")
    assert report.answer == NOT_FOUND_ANSWER
    kept = check_answer("Verdict: 175 GBP.\nThe week costs 175 GBP [sec-week].", SECTIONS)
    assert kept.answer.startswith("Verdict: 175 GBP.") and not kept.not_found
    letter = check_answer("Verdict: B\nLunch is served at noon.", SECTIONS)
    assert letter.answer == f"Verdict: B\n{NOT_FOUND_ANSWER}"  # an option's letter stays


def test_a_labelled_yes_no_verdict_goes_when_no_claim_carries_it() -> None:
    """Set 19's c003 (the hierarchical debate, run 30): the leaf "Can I spread the payment?"
    showed "Verdict: No, you cannot spread the payment." above "The documents do not answer
    this part." — a yes/no verdict behind its label was neither judged nor dropped."""
    answer = "Verdict: No, you cannot pay in instalments.\nLunch is at noon."
    report = check_answer(answer, SECTIONS)
    assert "instalments" not in report.answer and report.answer == NOT_FOUND_ANSWER
    [verdict] = [c for c in report.claims if c.text.startswith("Verdict")]
    assert verdict.dropped and "yes/no" in verdict.reason
    carried = check_answer(
        "Verdict: No, members do not pay it.\nMembers do not pay the deposit [sec-week].", SECTIONS
    )
    assert carried.answer.startswith("Verdict: No, members do not pay it")


def test_a_short_answer_goes_when_no_kept_claim_states_its_number() -> None:
    """Set 18's f016 and f038 (the hierarchical debate, 2026-12-04): "Verdict: 20 GBP" and
    "Verdict: 6 GBP" for charges the documents do not give, each above a supported sentence
    about something else."""
    invented = check_answer("Verdict: 20 GBP\nThe week costs 175 GBP [sec-week].", SECTIONS)
    assert "20 GBP" not in invented.answer and "175 GBP" in invented.answer
    [verdict] = [c for c in invented.claims if c.text.startswith("Verdict")]
    assert verdict.dropped and "20" in verdict.reason
    stated = check_answer("Verdict: 175 GBP\nThe week costs 175 GBP [sec-week].", SECTIONS)
    assert stated.answer.startswith("Verdict: 175 GBP")


def test_a_negative_fact_the_documents_state_is_supported() -> None:
    report = check_answer("Members do not pay the deposit.", SECTIONS)
    assert [c.verdict for c in report.claims] == ["supported"]


def test_a_list_does_not_keep_a_refusal_from_its_invented_clause() -> None:
    text = (
        "The festival consists of music performances, exhibits, and other activities, but "
        "there is no information available about whether lunch is offered."
    )
    fact, refusal = split_compound(text)
    assert fact.endswith("other activities.") and refusal.startswith("There is no information")
    report = check_answer(text, SECTIONS)
    kept = [c for c in report.claims if not c.dropped]
    assert [c.verdict for c in kept] == ["not_found"] and "festival" not in report.answer


def test_a_labelled_pointer_is_no_claim() -> None:
    """`make demo` showed "describes how …" read from "Support: [id] describes how …"."""
    text = "Support: [sec-week] describes how Summer Music Week runs in the first week of August."
    report = check_answer(text, SECTIONS)
    assert not [c for c in report.claims if c.verdict == "supported" and not c.dropped]
    assert "describes how" not in report.answer


def test_a_claim_saying_where_it_is_stated_is_a_pointer() -> None:
    """A new user's trial showed "The daily allowance in Bergen is stated in the first sentence
    of …" as a supported claim: it says where the answer is, not what it is."""
    text = "The price of Summer Music Week is stated in the first sentence of [sec-week]."
    report = check_answer(text, SECTIONS)
    assert report.claims[0].reason == "points at the documents, states nothing"
    assert "stated in" not in report.answer and report.not_found


@pytest.mark.parametrize(
    ("text", "pointer"),
    [
        ('The fee is given in the section titled "Rates".', True),
        ("The fee is stated in the Summer Music Week section.", True),
        ("Lockers are provided in the changing rooms.", False),  # a place in the world
        ('Graham Osei is listed in the "Staff" section as the Head of Voice.', False),
        ("The 175 GBP fee is given in the table.", False),  # it states a figure
        ('The due date is stated in the section: "Invoices are due in 30 days."', False),
    ],
)
def test_only_a_place_in_the_text_makes_a_pointer(text: str, pointer: bool) -> None:
    assert is_pointer(text) is pointer


def test_a_negated_fact_of_one_word_is_checked_not_passed_unchecked() -> None:
    """Set 20's t003: "There is no lift up to it." has one content word and was shown as
    "states nothing to check" beside "The documents do not answer this part"."""
    stairs = "The upper circle can only be reached by 52 stairs, and there is no lift to it."
    sections = {"acc": {"text": stairs, "title": "Access"}}
    report = check_answer("There is no lift up to it [acc].", sections)
    assert report.claims[0].factual and report.claims[0].verdict == "supported"
    invented = check_answer("There is no cloakroom.", sections)
    assert invented.claims[0].factual and invented.claims[0].verdict != "supported"
