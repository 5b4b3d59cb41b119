"""Rules found on held-out set 48 (corpus_archery, run 60)."""

from __future__ import annotations

import pytest
from fake_judges import RecordingJudge

from disputatio.testing import FakeEmbeddings
from disputatio.validators.asked import other_age_class, unanswered
from disputatio.validators.claims import check_answer
from disputatio.validators.contacts import address_unstated
from disputatio.validators.dated import date_unstated
from disputatio.validators.guards import guard
from disputatio.validators.names import initials_of
from disputatio.validators.questions import question_parts
from disputatio.validators.ranges import given_numbers
from disputatio.validators.support import JudgedSupport
from disputatio.validators.things import measured_of, other_charge
from disputatio.validators.totals import counted_each

ARROWS_Q = (
    "I lost three of the club's arrows in the long grass at the Field. What will I be charged "
    "for them?"
)
ARROWS = (
    "Club arrows that are lost or broken at the Field are charged at 6.50 GBP each, to Archer "
    "and Novice Members alike."
)


def test_the_askers_count_stands_beside_the_price_of_one_item() -> None:
    """aw005: "6.50 GBP each for the three arrows" restates the asker's three."""
    given = given_numbers(ARROWS_Q)
    claim = "The club will charge you 6.50 GBP each for the three arrows lost at the Field."
    assert counted_each(claim, ARROWS, given) == {"3"}
    assert guard(claim, ARROWS, given=given) == ""


@pytest.mark.parametrize(
    ("claim", "question", "window"),
    [
        # no amount of one item in the claim: the 3 is not accounted for
        ("The club charges 6.50 GBP for the three arrows lost at the Field.", ARROWS_Q, ARROWS),
        # a count the question does not state
        ("The club charges 6.50 GBP each for the four arrows lost at the Field.", ARROWS_Q, ARROWS),
        # an amount of a stretch of time is no price of one of the asker's things
        (
            "Family membership is 20.00 GBP a year for the three children.",
            "We have three children. What is the family membership?",
            "Family membership is 20.00 GBP a year.",
        ),
    ],
)
def test_a_count_beside_no_amount_of_one_item_is_not_in_the_sentence(
    claim: str, question: str, window: str
) -> None:
    assert "is not in the sentence" in guard(claim, window, given=given_numbers(question))


def test_the_askers_abbreviation_is_named_by_a_heading_that_spells_it() -> None:
    """aw024: "the AGM" rests on a sentence under "THE ANNUAL GENERAL MEETING"."""
    claim = "At least 15 Archer Members must be present for the AGM to go ahead."
    sentence = "At least 15 Archer Members must be present for the meeting to go ahead."
    assert guard(claim, sentence, "Safety THE ANNUAL GENERAL MEETING") == ""
    assert "agm is not in the section" in guard(claim, sentence, "Safety THE ARCHERY DAY")
    assert initials_of("agm", claim, "The annual general meeting is held each November.")
    assert not initials_of("ag", "The AG meets in May.", "The annual gathering is in May.")


LONGBOWS = (
    "The Midsummer Longbow Day is for longbow archers only, and club longbows can be hired for "
    "the day by Archer Members for 5.00 GBP."
)


def test_a_kind_of_fee_is_not_the_hire_of_a_thing() -> None:
    """aw020: the longbow's hire is no entry fee (a false "supported" of run 60)."""
    claim = "The entry fee for an Archer Member is 5.00 GBP."
    assert other_charge(claim, LONGBOWS, "Competitions and events") == ("fee", "hire")
    assert "'hire'" in guard(claim, LONGBOWS, "Competitions and events")


@pytest.mark.parametrize(
    ("claim", "window"),
    [
        ("The hire fee for a club longbow is 5.00 GBP.", LONGBOWS),
        ("The fee for a club longbow is 5.00 GBP.", LONGBOWS),  # no kind of fee named
        (
            "The locker fee is 20.00 GBP a year.",
            "Archer Members can rent a locker in the Field container for 20.00 GBP a year.",
        ),
    ],
)
def test_the_price_of_a_hire_may_be_called_its_fee(claim: str, window: str) -> None:
    assert other_charge(claim, window) is None


AFFILIATION = (
    "Each fee includes affiliation to the National Archery Association, which is 42.00 GBP for "
    "adults and seniors and 18.00 GBP for juniors, and affiliation to the Westmarch County "
    "Archery Society."
)


def test_a_figure_the_sentence_gives_a_name_is_not_another_names() -> None:
    """aw026: the Association's 42.00 GBP said of the fee that includes the County Society."""
    claim = (
        "Archer Members pay 42.00 GBP for adults and seniors and 18.00 GBP for juniors, which "
        "includes affiliation to the Westmarch County Archery Society."
    )
    assert "National Archery Association" in measured_of(claim, AFFILIATION)
    for named in (
        "Affiliation to the National Archery Association is 42.00 GBP for adults.",
        "The NAA affiliation is 42.00 GBP for adults.",
    ):
        assert measured_of(named, AFFILIATION) == ""


HOODIE_Q = "My daughter is 12 and wants a club hoodie. How much is one in a children's size?"


def test_a_price_for_adults_does_not_answer_a_childrens_price() -> None:
    """aw012: the adult hoodie's price for "in a children's size" (a near miss answered)."""
    kept = [
        "The Equipment Officer sells club T-shirts for 15.00 GBP and club hoodies in adult sizes "
        "for 28.00 GBP.",
        "Children's hoodies are ordered once a year, in September.",
    ]
    assert other_age_class(HOODIE_Q, kept[:1]) == ("children", "adults")
    assert "for children" in unanswered(HOODIE_Q, kept)


@pytest.mark.parametrize(
    "claim",
    [
        "Hoodies are 28.00 GBP in adult sizes and 22.00 GBP in children's sizes.",  # both
        "Club hoodies are 28.00 GBP.",  # no class named
    ],
)
def test_a_price_naming_the_askers_class_or_none_may_answer(claim: str) -> None:
    assert other_age_class(HOODIE_Q, [claim]) is None
    assert not unanswered(HOODIE_Q, [claim])


COURSE_ROW = (
    "Late Summer 2027  Field   Saturday   17 July to 21 August 2027        2.00 pm to 4.00 pm"
)


def test_a_date_not_in_the_window_is_refused_though_its_numbers_are() -> None:
    """aw019: "June 21" on a row whose 21 is 21 August (a near miss, answered with a yes-judge)."""
    claim = "The Field will be shut for haymaking from June 21 to July 21."
    assert "'June 21' is not in the sentence" in date_unstated(claim, COURSE_ROW)
    assert "June 21" in guard(claim, COURSE_ROW)


@pytest.mark.parametrize(
    "claim",
    [
        "The Late Summer course starts on Saturday 17 July 2027.",  # a date of the row
        "The Late Summer course meets on Saturday 24 July.",  # inside the row's span
    ],
)
def test_a_date_of_the_window_or_inside_its_span_stands(claim: str) -> None:
    assert date_unstated(claim, COURSE_ROW) == ""


def test_a_date_the_asker_gives_is_theirs() -> None:
    claim = "The Field is open on 21 June."
    assert date_unstated(claim, COURSE_ROW, {"21"}) == ""


def test_what_the_asker_adds_after_the_question_is_no_part_of_it() -> None:
    """aw030: "She's very well behaved." was answered as a part "not found"."""
    dog = "Can I bring my dog to the Sunday afternoon session at the Hall? She's very well behaved."
    assert question_parts(dog) == [dog]
    assert question_parts("How much is it? When does it open?") == [
        "How much is it?",
        "When does it open?",
    ]


FARE_Q = "What's the bus fare out to the Field on the number 9?"


def test_a_bus_number_is_no_fare() -> None:
    """aw035: the bus's times, with its number 9, do not answer its fare (a near miss)."""
    kept = [
        "The number 9 bus from Cradlebrook bus station stops at the Hollowmere Farm gate once "
        "an hour from Monday to Saturday.",
        "There is no Sunday service.",
    ]
    assert "no kept claim states a price" in unanswered(FARE_Q, kept)


def test_a_price_answers_a_fare() -> None:
    assert unanswered(FARE_Q, ["The fare on the number 9 is 2.40 GBP."]) == ""


def test_an_email_address_the_window_does_not_give_is_refused() -> None:
    """al043 (set 37), seen in session 77's re-check: another officer's address, on a list."""
    officers = (
        "The other officers are the Treasurer, the Membership Secretary, the Bookings Secretary "
        "and the Rehearsal Manager."
    )
    claim = "The email address for the Rehearsal Manager is bookings@wendlecombechoral.org.uk."
    assert "bookings@wendlecombechoral.org.uk is not in the sentence" in guard(claim, officers)
    row = "Booking the choir:   bookings@wendlecombechoral.org.uk"
    assert address_unstated("Write to bookings@wendlecombechoral.org.uk to book.", row) == ""


BUSES = (
    "## Getting there\n\nThe number 22 bus runs from Hexworth bus station to Kettlewell Road every "
    "20 minutes on weekdays and every hour on Saturdays.\n"
)


def _kept_on(text: str, answer: str, question: str) -> list[str]:
    """The supported claims ``answer`` keeps for ``question`` on ``text`` (a yes-judge)."""
    checker = JudgedSupport(FakeEmbeddings().embed_documents, RecordingJudge(1.0))  # type: ignore[arg-type]
    report = check_answer(
        answer, {"s": {"text": text, "title": "Getting there"}}, checker=checker, question=question
    )
    return [c.text for c in report.claims if c.verdict == "supported" and not c.dropped]


def test_a_yes_no_question_about_a_day_is_not_answered_by_other_days() -> None:
    """ar012 (set 43), seen in session 77's re-check: weekdays and Saturdays for a Sunday."""
    answer = (
        "The number 22 bus runs from Hexworth bus station to Kettlewell Road every 20 minutes on "
        "weekdays and every hour on Saturdays [s]."
    )
    assert _kept_on(BUSES, answer, "Does the number 22 bus run to Kettlewell Road on Saturdays?")
    assert not _kept_on(BUSES, answer, "Does the number 22 bus run to Kettlewell Road on Sundays?")
