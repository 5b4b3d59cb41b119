"""A month inside a span of months, a stretch of time in other units, "once" opening a clause.

Found on held-out set 30 (ae007, ae029): a claim's "January" on "From November to February …",
its "for a year" on "the first 12 months", and the "1" read from "Once you've had …".
"""

from __future__ import annotations

import pytest
from fake_judges import ReadingJudge

from disputatio.testing import FakeEmbeddings
from disputatio.validators.claims import check_answer
from disputatio.validators.days import in_month_terms, month_covered, month_of
from disputatio.validators.durations import in_duration_terms, same_duration
from disputatio.validators.guards import guard
from disputatio.validators.sentences import stated_numbers
from disputatio.validators.support import JudgedSupport, LexicalSupport

HUT = "From November to February it is open on Saturdays only, from 10:00 to 12:00."
HIRE = "Hire costs 5 GBP from April to June and 8 GBP from July to September."
CLAIM = "The Trading Hut's Saturday opening hours in January are from 10:00 to 12:00."


def test_month_names_and_abbreviations_are_read() -> None:
    assert month_of("January") == month_of("jan") == 0
    assert month_of("Sept.") == month_of("September") == 8
    assert month_of("Marine") is None


def test_a_month_inside_the_span_said_for_the_claim_s_figures_passes_the_guard() -> None:
    assert month_covered("january", CLAIM, HUT)
    assert guard("Its hours in January are from 10:00 to 12:00.", HUT) == ""


@pytest.mark.parametrize(
    ("claim", "window", "month"),
    [
        ("The Trading Hut opens at 10:00 in June.", HUT, "june"),  # outside the span
        ("Hire in August costs 5 GBP.", HIRE, "august"),  # its clause says April to June
        ("Hire in March costs 8 GBP.", "Hire costs 8 GBP in February and June.", "march"),
        ("It is open in January.", HUT, "january"),  # no figure: not read from a span
        (  # the span of another sentence (set 21's winter display)
            "The sea lion display runs at 11:00 and 14:30 in January.",
            "The sea lion display runs at 11:00 and 14:30. From November to February there is "
            "only one sea lion display, at 11:00.",
            "january",
        ),
    ],
)
def test_a_month_no_span_holds_for_the_figure_is_not_in_the_window(
    claim: str, window: str, month: str
) -> None:
    assert not month_covered(month, claim, window)
    assert month in guard(claim, window)


def test_the_span_of_the_figure_s_own_clause_is_read_before_the_nearest() -> None:
    assert month_covered("may", "Hire in May costs 5 GBP.", HIRE)
    assert month_covered("august", "Hire in August costs 8 GBP.", HIRE)
    dates = "The water is on at Heathside from 15 April to 15 October."
    assert month_covered("june", "The water is on at Heathside in June from 15 April.", dates)


def test_the_judge_is_asked_about_the_month_in_the_span_s_words() -> None:
    assert in_month_terms(CLAIM, HUT) == (
        "The Trading Hut's Saturday opening hours in November to February are from 10:00 to 12:00."
    )
    assert in_month_terms("Hire in May costs 5 GBP.", HIRE) == "Hire in April to June costs 5 GBP."
    # days are left as written, even where a span of days is read for them
    studio = "The studio costs 480 GBP from Monday to Thursday and 620 GBP from Friday to Sunday."
    claim = "The studio costs 620 GBP on a Saturday."
    assert in_month_terms(claim, studio) == claim


def test_the_checker_shows_the_claim_as_written_and_asks_the_judge_in_the_window_s_terms() -> None:
    sections = {"hut": {"text": HUT, "title": "Trading Hut"}}
    judge = ReadingJudge("November to February")
    checker = JudgedSupport(FakeEmbeddings().embed_documents, judge, grey=0.0)  # type: ignore[arg-type]
    report = check_answer(CLAIM[:-1] + " [hut].", sections, checker=checker)
    (claim,) = [c for c in report.claims if c.factual]
    assert claim.verdict == "supported" and claim.text == CLAIM
    assert judge.asked and all("November to February" in claim for claim, _, _ in judge.asked)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Once you've had your plot for a year, you must cultivate 75% of it.",
            (("75", "percent"),),
        ),
        ("Once a member has paid, the key is sent.", ()),
        ("The key is sent once the fee is paid.", ()),
        ("Rent is paid once a year.", (("1", None),)),
        ("You may postpone once.", (("1", None),)),
        ("The boiler is serviced once every 2 years.", (("1", None), ("2", "year"))),
    ],
)
def test_once_opening_a_clause_counts_nothing(text: str, expected: tuple) -> None:
    assert stated_numbers(text) == expected


def test_a_stretch_of_time_in_other_units_is_the_same_number() -> None:
    assert same_duration("The course lasts 2 years.", "The course lasts 24 months.", "2")
    assert guard("The course lasts 2 years.", "The course lasts 24 months.") == ""
    assert not same_duration("The course lasts 2 years.", "The course lasts 2 months.", "2")
    assert "2" in guard("The course lasts 2 years.", "The course lasts 20 months.")
    # months and days are not converted: a month is no whole number of days
    assert "1" in guard("The trial lasts 1 month.", "The trial lasts 30 days.")


def test_the_judge_reads_a_stretch_of_time_in_the_window_s_units() -> None:
    window = "From the end of the first 12 months, at least 75% of the plot must be cultivated."
    claim = "Once you've had your plot for a year, you must cultivate at least 75% of the plot."
    assert in_duration_terms(claim, window) == claim.replace("a year", "12 months")
    assert in_duration_terms("It lasts one week.", "It lasts 7 days.") == "It lasts 7 days."
    # one unit written two ways is left as written
    assert in_duration_terms("It lasts 6 weeks.", "A 6-week course.") == "It lasts 6 weeks."
    # a rate is no stretch of time: "per day" is left as it is
    assert in_duration_terms("It costs 5 GBP per day.", "It costs 5 GBP per 24 hours.") == (
        "It costs 5 GBP per day."
    )


STRIMMER = "| Petrol strimmer | 30.00 GBP | 8.00 GBP | 12.00 GBP | 2 days |"


def test_a_lead_in_whose_lines_were_all_set_aside_is_set_aside_too() -> None:
    """ae030 (held-out set 30): "… you will pay:" stood alone above its dropped lines."""
    sections = {"hire": {"text": STRIMMER, "title": "Tool hire: petrol strimmer hire for 2 days"}}
    answer = (
        "To hire the petrol strimmer for 2 days, you will pay [hire]:\n"
        "- Insurance: 99.00 GBP\n- Total: 99.00 GBP + 16.00 GBP = 115.00 GBP"
    )
    report = check_answer(answer, sections, checker=LexicalSupport(threshold=0.3))
    lead = next(c for c in report.claims if c.text.endswith(":"))
    assert lead.dropped and "lead-in" in lead.reason
    assert report.not_found and "you will pay" not in report.answer


def test_a_lead_in_stays_above_a_line_that_is_kept() -> None:
    sections = {"hire": {"text": STRIMMER, "title": "Tool hire: petrol strimmer hire for 2 days"}}
    answer = (
        "To hire the petrol strimmer for 2 days, you will pay [hire]:\n"
        "- The petrol strimmer deposit is 30.00 GBP [hire].\n- Insurance: 99.00 GBP"
    )
    report = check_answer(answer, sections, checker=LexicalSupport(threshold=0.3))
    lead = next(c for c in report.claims if c.text.endswith(":"))
    assert not lead.dropped and "you will pay" in report.answer
