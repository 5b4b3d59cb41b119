"""A price asked per one period is not answered by a price per another (af002, set 31)."""

from __future__ import annotations

import pytest

from disputatio.validators.claims import check_answer
from disputatio.validators.periods import amount_periods, asked_period, period_contrast
from disputatio.validators.relevance import off_question

MONTHLY = (
    "I only want to use the clubroom and come to the social events. What would Social "
    "Membership cost me per month by direct debit?"
)
SOCIAL = "Social Membership costs 45.00 GBP a year and gives use of the clubroom."


@pytest.mark.parametrize(
    ("question", "period"),
    [
        (MONTHLY, "month"),
        ("If I pay by direct debit, how much will it be each month?", "month"),
        ("What is the monthly direct debit price of adult Full Membership?", "month"),
        ("How much does a rack cost a year?", "year"),
        ("What is the hourly rate for the kiln?", "hour"),
        ("How much is a day ticket?", None),  # a kind of ticket, not a rate
        ("When is the annual general meeting?", None),
        ("Is it cheaper monthly or yearly?", None),  # two periods: no one asked
        ("How much is Full Membership?", None),
        ("I'm 76. Do I have to do the yearly volunteering hours?", None),  # no price asked
        # two parts: "each year" is the second part's (e007, held-out set 17)
        ("How much does it cost to freeze it, and for how long can I freeze it each year?", None),
    ],
)
def test_the_period_a_question_asks_an_amount_per(question: str, period: str | None) -> None:
    assert asked_period(question) == period


def test_each_amount_takes_the_period_written_beside_it() -> None:
    assert amount_periods("Full costs 315.00 GBP a year, or 28.50 GBP a month.") == {
        "315.00": {"year"},
        "28.50": {"month"},
    }
    assert amount_periods("An annual fee of 45 GBP applies.") == {"45": {"year"}}
    assert amount_periods("Kiln hire: £12/day; a shelf is 3 GBP.") == {"12": {"day"}, "3": set()}


def test_a_yearly_price_does_not_answer_a_monthly_question() -> None:
    assert period_contrast(MONTHLY, SOCIAL, SOCIAL) == ("month", "year")
    assert "per month" in off_question(MONTHLY, SOCIAL, SOCIAL)


def test_a_claim_dropping_the_period_takes_its_evidences() -> None:
    claim = "Social Membership costs 45.00 GBP."
    assert period_contrast(MONTHLY, claim, SOCIAL) == ("month", "year")


def test_the_asked_period_or_none_stated_is_no_contrast() -> None:
    both = "Full Membership costs 315.00 GBP a year, or 28.50 GBP a month by direct debit."
    assert period_contrast(MONTHLY, both, both) is None
    # a price whose period neither the claim nor its sentence says: the judges read it
    row = "| Social | 45.00 GBP |"
    assert period_contrast(MONTHLY, "Social Membership costs 45.00 GBP.", row) is None
    # no price at all: another rule's (what the question asks for)
    assert period_contrast(MONTHLY, "Social Members may use the clubroom.", SOCIAL) is None


FEES = """## Fees

| Kind | Age band | Yearly price | Monthly direct debit |
|---|---|---|---|
| Full | Adult (18 to 64) | 420.00 GBP | 38.00 GBP |
| Full | Senior (65 and over) | 315.00 GBP | 28.50 GBP |
"""


def test_a_rows_column_headers_say_what_it_is_about() -> None:
    # the row's cells share no word with the question; its header does (af001, set 31)
    question = "I'm 67 and I row. If I pay by direct debit, how much will it be each month?"
    report = check_answer(
        "Full Membership by monthly direct debit is 28.50 GBP [fees].",
        {"fees": {"text": FEES, "title": "Membership"}},
        question=question,
    )
    (claim,) = [c for c in report.claims if c.factual]
    assert claim.verdict == "supported" and not claim.dropped, claim.reason


def test_only_the_figures_own_header_counts() -> None:
    # "Ticket" heads every row; the figure's column is the zoo's (w013, held-out set 21)
    zoo = """| Ticket | Larchfield Park | Tidewater Aquarium | Combined ticket |
|---|---|---|---|
| 65 and over | 19 GBP | 14 GBP | 27 GBP |
"""
    question = "My grandmother is 70. What does one ticket for both the zoo and aquarium cost?"
    report = check_answer(
        "A Larchfield Park ticket for 65 and over is 19 GBP [zoo].",
        {"zoo": {"text": zoo, "title": "Admission"}},
        question=question,
    )
    claim = report.claims[0]
    assert claim.verdict == "supported"
    assert claim.dropped and "shares no word" in claim.reason
    assert report.not_found
