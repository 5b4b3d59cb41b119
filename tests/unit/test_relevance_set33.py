"""Two questions held-out set 33 answered with what they did not ask (ah017, ah020, ah028)."""

from __future__ import annotations

import pytest

from disputatio.state.claims import Claim, Evidence
from disputatio.validators.asked import states_stretch, unanswered
from disputatio.validators.relevance import drop_off_question


@pytest.mark.parametrize(
    ("claim", "stretch"),
    [
        ("The Workshop Induction starts at 10 am on the first Saturday of each month.", False),
        ("Anyone who has not renewed by 31 January is taken off the list.", False),
        ("The garden is open from 8 am to 10 pm.", True),  # two points: a stretch
        ("The hall is closed from 1 to 14 February.", True),
        ("A wash takes 45 minutes.", True),
    ],
)
def test_a_clock_time_or_a_date_alone_is_no_stretch_of_time(claim: str, stretch: bool) -> None:
    assert states_stretch(claim) is stretch


def test_how_long_is_not_answered_by_when() -> None:
    asked = "How long does the Workshop Induction at Larkspur take?"
    when = "The Workshop Induction is free and starts at 10 am on the first Saturday."
    assert "stretch" in unanswered(asked, [when])
    assert unanswered(asked, ["The Workshop Induction takes 90 minutes."]) == ""
    # "how soon" is answered by a point in time
    assert unanswered("How soon will it be fixed?", ["It is fixed by 5 pm the next day."]) == ""


def _claim(text: str) -> Claim:
    evidence = Evidence(section_id="s", sentence=text, start=0, end=len(text), score=1.0)
    return Claim(text=text, citations=["s"], verdict="supported", evidence=evidence)


def test_a_yes_no_question_is_not_answered_by_a_claim_sharing_only_a_name() -> None:
    question = "We live on the second floor at Rookwood. Can we get a dog?"
    bikes = _claim("The Rookwood bike store holds 40 bikes, including 4 spaces for cargo bikes.")
    dogs = _claim("Dogs are allowed only in ground-floor flats at Rookwood.")
    assert drop_off_question(question, [bikes, dogs], {}) == 1
    assert bikes.dropped and "name" in bikes.reason
    assert not dogs.dropped


def test_a_yes_no_question_answered_in_other_words_is_left_to_the_judge() -> None:
    fees = _claim("Fees are due in full at booking.")
    assert drop_off_question("Can I pay in parts?", [fees], {}) == 0
    assert not fees.dropped


def test_a_day_or_a_month_is_what_a_yes_no_question_asks_about_not_a_name() -> None:
    """o015 (set 23): "Sundays in the winter timetable" answers "on a Sunday in November"."""
    question = "Is there a ferry to Saltwick on a Sunday in November?"
    sailing = _claim("The Saltwick route does not sail on Sundays in the winter timetable.")
    assert drop_off_question(question, [sailing], {}) == 0
