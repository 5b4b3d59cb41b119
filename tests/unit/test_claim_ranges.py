"""The asker's own case against the ranges the documents give.

Held-out set 15 lost a right answer ("a cake for 14 guests costs 52 EUR", on "for over 10 and
up to 16 people") to the number guard, and showed a wrong one ("the Little Bakers course, for
children aged 6 to 9", asked by a 15-year-old) as supported.
"""

from __future__ import annotations

import pytest
from fake_judges import ReadingJudge

from disputatio.testing import FakeEmbeddings
from disputatio.validators.claims import check_answer
from disputatio.validators.guards import guard
from disputatio.validators.ranges import asker_age, excludes_age, given_numbers, holds, ranges
from disputatio.validators.relevance import number_contrast
from disputatio.validators.restated import one_per
from disputatio.validators.sentences import stated_numbers
from disputatio.validators.support import JudgedSupport, LexicalSupport

CAKE = "A 24 cm round cake for over 10 and up to 16 people costs 52 EUR."
BERTH = "A boat over 8 and up to 12 metres long pays 350 NOK per night."


@pytest.mark.parametrize(
    ("text", "low", "high", "unit"),
    [
        (CAKE, 10, 16, "person"),
        (BERTH, 8, 12, "m"),
        ("The Little Bakers course is for children aged 6 to 9.", 6, 9, "age"),
        ("Teenagers aged 14 and 15 can join the Teen Kitchen course.", 14, 15, "age"),
        ("Children from 4 to 12 years pay 9.75 EUR.", 4, 12, "age"),
        ("Passengers aged 67 or over pay a flat fare.", 67, None, "age"),
        ("Children under 4 eat for free.", None, 4, "age"),
        ("Dogs from 5 to 10 kg pay 40 EUR.", 5, 10, "kg"),
        ("A reservation cancelled less than 48 hours before arrival loses it.", None, 48, "hour"),
        ("Licences are renewed every 2 to 5 years.", 2, 5, "year"),
        # the far end first, as a deadline counts down (f017, held-out set 18)
        ("If you cancel between 48 and 24 hours before the start, you pay half.", 24, 48, "hour"),
    ],
)
def test_a_stated_range_is_read_with_its_bounds_and_unit(
    text: str, low: float | None, high: float | None, unit: str
) -> None:
    (found,) = ranges(text)
    assert (found.low, found.high, found.unit) == (low, high, unit)


def test_clock_times_are_no_range() -> None:
    assert ranges("The desk is open from 10:00 to 16:00 on Saturdays.") == ()


def test_dates_are_no_range_of_their_first_numbers() -> None:
    assert ranges("The pool is closed between 24 June and 9 August.") == ()


def test_open_and_shut_bounds_hold_their_ends_as_written() -> None:
    assert not holds(CAKE, "10", None) and holds(CAKE, "16", None) and holds(CAKE, "14", None)
    assert holds(BERTH, "10.5", "m") and not holds(BERTH, "10.5", "kg")
    assert not holds(BERTH, "14", "m")


@pytest.mark.parametrize(
    ("question", "age"),
    [
        ("I am 15. Which cooking course can I join?", 15),
        ("My daughter is 17. What does a lift pass cost for her?", 17),
        ("I'm 70 years old. What do I pay?", 70),
        ("We're bringing our 7-year-old daughter. What does she pay?", 7),
        ("How much is it for 2 adults?", None),
        ("What does a berth cost for my 14-metre boat?", None),
    ],
)
def test_the_askers_age_is_read_from_the_question(question: str, age: float | None) -> None:
    assert asker_age(question) == age


def test_an_age_range_that_does_not_hold_the_asker_is_found() -> None:
    assert excludes_age("The Little Bakers course is for children aged 6 to 9.", 15)
    assert excludes_age("Teenagers aged 14 and 15 can join.", 15) is None
    assert excludes_age("Licences are renewed every 2 to 5 years.", 15) is None  # no ages


def test_the_guard_lets_a_claim_restate_the_askers_number_inside_the_windows_range() -> None:
    claim = "A cake for 14 guests costs 52 EUR."
    assert guard(claim, CAKE) == "the number 14 is not in the sentence"
    assert guard(claim, CAKE, given={("14", None)}) == ""
    # only a number the question states: the claim may not bring its own
    assert guard("A cake for 12 guests costs 52 EUR.", CAKE, given={("14", None)})
    # and only inside the range
    assert guard("A cake for 20 guests costs 52 EUR.", CAKE, given={("20", None)})


def test_one_thing_is_the_price_per_thing() -> None:
    assert one_per("One night costs 350 NOK.", BERTH)
    assert not one_per("One week costs 350 NOK.", BERTH)
    assert (
        guard("One night for a boat of 10.5 metres costs 350 NOK.", BERTH, given={("10.5", "m")})
        == ""
    )


def test_the_lexical_checker_takes_the_numbers_from_the_question() -> None:
    checker = LexicalSupport().for_question("I need a cake for 14 guests. How much will it cost?")
    (score,) = checker.score_many("A cake for 14 guests costs 52 EUR.", [CAKE], [""])
    assert not score.reason
    (before,) = LexicalSupport().score_many("A cake for 14 guests costs 52 EUR.", [CAKE], [""])
    assert before.reason


def test_a_number_inside_the_evidences_range_is_no_contrast() -> None:
    question = "My boat is 10.5 metres long. What will one night cost me?"
    assert number_contrast(question, BERTH) is None
    assert number_contrast("What does a night cost for my 14 metre boat?", BERTH) == (
        "14 m",
        "12 m",
    )


def test_a_sentence_about_other_ages_does_not_answer_for_the_asker() -> None:
    sections = {
        "s1": {
            "text": "The Little Bakers course is for children aged 6 to 9. "
            "Teenagers aged 14 and 15 can join the Teen Kitchen course."
        }
    }
    question = "I am 15. Which cooking course can I join?"
    wrong = check_answer(
        "The Little Bakers course is for children aged 6 to 9 [s1].", sections, question=question
    )
    (claim,) = [c for c in wrong.claims if c.text.startswith("The Little Bakers")]
    assert claim.verdict == "supported" and claim.dropped
    assert "I am 15" in claim.reason
    assert wrong.answer != claim.text  # the answer says the documents do not answer
    right = check_answer(
        "Teenagers aged 14 and 15 can join the Teen Kitchen course [s1].",
        sections,
        question=question,
    )
    (kept,) = [c for c in right.claims if c.text.startswith("Teenagers")]
    assert kept.verdict == "supported" and not kept.dropped


def test_a_window_lends_the_askers_number_only_when_each_of_its_ranges_holds_it() -> None:
    window = (
        "Private group sessions are available for groups of 4 to 14 people. "
        "Groups of 4 to 6 people pay a flat fee of 330 EUR for a 3-hour session."
    )
    claim = "A private session for a group of 9 colleagues costs 330 EUR."
    assert holds(window, "9", None) and not holds(window, "9", None, every=True)
    assert guard(claim, window, given={("9", None)}) == "the number 9 is not in the sentence"


def test_the_age_limit_that_leaves_the_asker_out_answers_a_question_asking_the_age() -> None:
    evidence = "You must be at least 16 years old to rent a canoe or kayak without an adult."
    asked = "I'm 15. How old do you have to be to rent a kayak without an adult?"
    assert number_contrast(asked, evidence) is None
    assert number_contrast("I'm 15. Which boat can I rent without an adult?", evidence) == (
        "I'm 15",
        "at least 16",
    )


def test_the_judge_is_asked_about_the_askers_number_in_the_ranges_words() -> None:
    sections = {"orders": {"text": CAKE, "title": "Custom cakes"}}
    answer = "A 24 cm round cake for 14 guests costs 52 EUR [orders]."
    question = "I need a cake for 14 guests. How much will it cost?"
    judge = ReadingJudge("over 10 and up to 16")
    checker = JudgedSupport(FakeEmbeddings().embed_documents, judge, grey=0.0)  # type: ignore[arg-type]
    report = check_answer(answer, sections, checker=checker, question=question)
    (claim,) = [c for c in report.claims if c.factual]
    assert claim.verdict == "supported" and not claim.dropped
    assert claim.text == "A 24 cm round cake for 14 guests costs 52 EUR."  # shown as written
    assert [claim for claim, _, _ in judge.asked] == [
        "A 24 cm round cake for over 10 and up to 16 guests costs 52 EUR."
    ]
    # without the question the asker's number is the claim's own: the guard rejects it
    plain = check_answer(answer, sections, checker=checker)
    assert plain.claims[0].verdict == "unsupported" and plain.not_found


def test_a_thousands_separator_is_read_as_one_number() -> None:
    """d017 (held-out set 16): "from 300 to 2,000 GBP" was read as 300 to 2, no range at all."""
    evidence = "Bills from 300 to 2,000 GBP can be spread over three or six monthly payments."
    (found,) = ranges(evidence)
    assert (found.low, found.high, found.unit) == (300, 2000, "gbp")
    question = "My vet bill came to 800 GBP. Over how many monthly payments could I spread it?"
    assert number_contrast(question, evidence) is None


def test_ages_in_weeks_and_months_are_compared_in_one_unit() -> None:
    """d018 (held-out set 16): a puppy five months old is not one "aged 10 to 18 weeks"."""
    course = "The Puppy Foundation course is for puppies aged 10 to 18 weeks at the first session."
    assert asker_age("My puppy is five months old.") == pytest.approx(5 / 12)
    older = "My puppy is five months old. How much would your dog training course cost for him?"
    assert number_contrast(older, course) == ("five months old", "aged 10 to 18")
    inside = "Our puppy will be 13 weeks old at the first session. What does the course cost?"
    assert number_contrast(inside, course) is None


def test_an_answer_about_a_course_the_askers_age_leaves_out_is_refused() -> None:
    """d018 (held-out set 16): the course's price still answered after its ages were set aside."""
    sections = {
        "s1": {
            "text": "The Puppy Foundation course is for puppies aged 10 to 18 weeks. "
            "The course costs 95 GBP."
        }
    }
    answer = (
        "The Puppy Foundation course is for puppies aged 10 to 18 weeks [s1]. It costs 95 GBP [s1]."
    )
    older = check_answer(
        answer, sections, question="My puppy is five months old. What does it cost?"
    )
    assert older.not_found
    assert all(c.dropped for c in older.claims if c.factual and c.verdict == "supported")
    assert "five months old" in older.claims[1].reason
    inside = check_answer(answer, sections, question="My puppy is 12 weeks old. What does it cost?")
    assert not inside.not_found
    kept = [c.text for c in inside.claims if c.verdict == "supported" and not c.dropped]
    assert kept == ["It costs 95 GBP."]


def test_a_named_number_inside_a_range_named_alike_is_named() -> None:
    """c019 (set 19): "Grade 4" is one of "Grades 3 to 5"; Grade 6 is not."""
    fees = "Exam fees are 49 GBP for Grades 1 and 2 and 62 GBP for Grades 3 to 5."
    assert not guard("The exam fee for Grade 4 is 62 GBP.", fees)
    assert "grade 6" in guard("The exam fee for Grade 6 is 62 GBP.", fees)


def test_a_yes_no_question_is_answered_by_the_age_range_leaving_the_asker_out() -> None:
    """j007 (held-out set 25): "My son is 24 … Is he allowed to drive it?"."""
    rule = "Drivers of Luton vans must be aged 25 to 75."
    asked = "My son is 24 and wants to hire a Luton van. Is he allowed to drive it?"
    assert number_contrast(asked, rule) is None
    which = "My son is 24 and wants to hire a van. Which vans may he drive?"
    assert number_contrast(which, rule) is not None
    report = check_answer(f"{rule} [s1]", {"s1": {"text": rule}}, question=asked)
    assert not report.not_found


def test_one_thing_is_a_thing_named_without_a_count() -> None:
    """ab003 (held-out set 27): "one full day" is the row's "full day"."""
    row = "| Session: Holiday camp, full day | Venue: Millpond | Price per child: 38.00 GBP |"
    claim = "The price for one full day of holiday camp at Millpond is 38.00 GBP."
    assert one_per(claim, row)
    assert guard(claim, row) == ""
    # a phrase the window counts, or a single word, is not restated so
    assert not one_per("One full day costs 38.00 GBP.", "Two full days cost 38.00 GBP.")
    assert not one_per("The package includes one free mock test.", "| Ticket: Under 3 | Free |")
    assert not one_per("One birth partner may visit.", "A second birth partner may visit.")
    assert not one_per("The decision whether we get one is made by the office.", "It is made.")


def test_one_thing_is_not_a_modifier_of_another_thing() -> None:
    """ac001 (held-out set 28): "Electric bike service, 70.00 GBP" prices no electric bike."""
    window = "Full service, 95.00 GBP. Electric bike service, 70.00 GBP: a motor check."
    assert not one_per("The price to hire one electric bike for the week is 95 GBP.", window)
    assert one_per("One electric bike costs 70.00 GBP.", "| Hire: Electric bike | 70.00 GBP |")


SENIOR_ROW = "| Full | Senior (65 and over) | 315.00 GBP | 28.50 GBP |"


def test_a_contractions_tail_is_no_unit_before_a_number() -> None:
    # "I'm 67" read as 67 metres: the asker's age then matched no claim's number (af001)
    assert stated_numbers("I'm 67 and I want to row.") == (("67", None),)
    assert stated_numbers("I\u2019m 67.") == (("67", None),)
    assert stated_numbers("It is 5 m long.") == (("5", "m"),)


def test_a_ranges_unit_is_not_read_past_a_bracket_or_a_cell() -> None:
    (senior,) = ranges(SENIOR_ROW)
    assert (senior.low, senior.high) == (65, None)
    assert senior.unit != "gbp"  # the next cell's price is no unit of the ages
    (dogs,) = ranges("Dogs from 5 to 10 kg pay 40 EUR.")
    assert dogs.unit == "kg"


def test_the_askers_age_is_given_as_years_too() -> None:
    question = "I'm 67 and I want to row on my own. How much will it be each month?"
    assert given_numbers(question) >= {("67", None), ("67", "year")}
    claim = "The monthly direct debit for Full Membership, which is 67 years old, is 28.50 GBP."
    checker = LexicalSupport().for_question(question)
    (score,) = checker.score_many(claim, [SENIOR_ROW], [""])
    assert "67" not in score.reason
    (before,) = LexicalSupport().score_many(claim, [SENIOR_ROW], [""])
    assert "67" in before.reason  # not the asker's: the claim's own number
