"""A day the claim names, said by its window as a span of days (t034, j004, ac008)."""

from __future__ import annotations

import pytest

from disputatio.validators.days import day_covered, day_of
from disputatio.validators.guards import guard

STUDIO = (
    "The Ropeworks Studio can be hired for 480 GBP per day from Monday to Thursday and "
    "620 GBP per day from Friday to Sunday."
)


def test_day_names_abbreviations_and_plurals_are_read() -> None:
    assert day_of("Saturdays") == day_of("Sat") == day_of("saturday") == 5
    assert day_of("Tues") == 1
    assert day_of("Sunny") is None


def test_a_day_inside_the_span_beside_the_claim_s_figure_is_covered() -> None:
    assert guard("The cost to hire the Ropeworks Studio for a Saturday is 620 GBP.", STUDIO) == ""


def test_a_day_of_the_other_span_does_not_take_the_figure() -> None:
    reason = guard("The cost to hire the Ropeworks Studio for a Tuesday is 620 GBP.", STUDIO)
    assert "tuesday" in reason


@pytest.mark.parametrize(
    ("claim", "window"),
    [
        (
            "You can get through the gate at Ferry Lane at 6:00 on Monday.",
            "At Ferry Lane, Standard Access lets you through the gate every day from 6:00 to 22:00",
        ),
        (
            "The Station opens on Saturdays from 09:00 to 17:00.",
            "The Station opens Monday to Friday 07:30 to 19:00, Saturday 09:00 to 17:00.",
        ),
        ("The pool opens at 08:00 on Sundays.", "The pool opens at 08:00 at weekends."),
    ],
)
def test_every_day_a_plural_and_weekends_cover_the_day(claim: str, window: str) -> None:
    assert guard(claim, window) == ""


@pytest.mark.parametrize(
    ("claim", "window"),
    [
        ("The pool opens at 08:00 on Sundays.", "The pool opens at 08:00 on weekdays."),
        (
            "The Station opens on Sundays from 09:00 to 17:00.",
            "The Station opens Monday to Friday 07:30 to 19:00, Saturday 09:00 to 17:00.",
        ),
    ],
)
def test_a_day_no_span_covers_is_not_in_the_window(claim: str, window: str) -> None:
    assert "sunday" in guard(claim, window)
    assert not day_covered("sundays", claim, window)


def test_a_day_with_no_figure_of_the_claim_beside_it_is_not_read_from_a_span() -> None:
    assert "sundays" in guard("The café is closed on Sundays.", "| Days: Every day |")
