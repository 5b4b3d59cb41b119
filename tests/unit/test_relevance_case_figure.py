"""The figure a sentence gives for the asker's case answers, not the other one (ad035, set 29)."""

from __future__ import annotations

from disputatio.validators.measures import case_figure
from disputatio.validators.relevance import off_question

COVER = (
    "You can buy Larkspur Student Cover with your booking for 12.00 GBP per week, or 9.00 GBP "
    "per week for stays of 12 weeks or more."
)
SIXTEEN = "I'll be with you for 16 weeks. How much is Larkspur Student Cover per week for me?"


def test_the_general_figure_does_not_answer_an_asker_the_condition_holds() -> None:
    claim = "Larkspur Student Cover costs 12.00 GBP per week."
    assert case_figure(SIXTEEN, claim, COVER) == ("9 gbp", "12 gbp")
    assert "asker's case" in off_question(SIXTEEN, claim, COVER)


def test_the_case_figure_itself_answers() -> None:
    claim = "Larkspur Student Cover costs 9.00 GBP per week for stays of 12 weeks or more."
    assert case_figure(SIXTEEN, claim, COVER) is None
    assert off_question(SIXTEEN, claim, COVER) == ""


def test_an_asker_outside_the_condition_takes_the_general_figure() -> None:
    eight = "I'll be with you for 8 weeks. How much is Larkspur Student Cover per week?"
    claim = "Larkspur Student Cover costs 12.00 GBP per week."
    assert case_figure(eight, claim, COVER) is None
