"""A table's figure given to an asker whose age is another column's (validators.bands)."""

from __future__ import annotations

from disputatio.validators.bands import other_band
from disputatio.validators.claims import check_answer

TABLE = (
    "Prices per seat.\n\n"
    "| Seat band | Children under 16 | Adults 26 to 64 | Adults 65 and over |\n"
    "|---|---|---|---|\n"
    "| Band C (upper circle) | 8 GBP | 20 GBP | 18 GBP |\n"
)
SECTIONS = {"prices": {"text": TABLE, "title": "Tickets and prices"}}
ASKED = "I'm 70 and would like a seat in the upper circle. What does it cost?"


def test_another_age_bands_figure_does_not_answer_the_asker() -> None:
    """Set 20's t003: 20 GBP (adults 26 to 64) was shown as the price for a 70-year-old."""
    report = check_answer(
        "A Band C seat in the upper circle costs 20 GBP [prices].", SECTIONS, question=ASKED
    )
    (claim, *_) = report.claims
    assert claim.verdict == "supported" and claim.dropped  # true, but not for the asker
    assert "Adults 26 to 64" in claim.reason and report.not_found


def test_the_askers_own_column_answers() -> None:
    report = check_answer(
        "A Band C seat in the upper circle costs 18 GBP [prices].", SECTIONS, question=ASKED
    )
    assert [(c.verdict, c.dropped) for c in report.claims] == [("supported", False)]


def test_without_the_askers_age_or_asking_an_age_nothing_is_set_aside() -> None:
    row = "| Seat band: Band C | Adults 26 to 64: 20 GBP | Adults 65 and over: 18 GBP |"
    claim = "A seat costs 20 GBP."
    assert other_band(ASKED, claim, row)
    assert not other_band("What does a seat in the upper circle cost?", claim, row)
    assert not other_band("I'm 70. What is the minimum age for Band C?", claim, row)


def test_a_bare_range_beside_age_bands_is_an_age_band() -> None:
    """Set 20's t001: 12 GBP (children under 16) for a 19-year-old, whose column reads
    "Young people 16 to 25", a range with no age word."""
    row = (
        "| Seat band: Band B | Children under 16: 12 GBP | Young people 16 to 25: 17 GBP "
        "| Adults 26 to 64: 32 GBP |"
    )
    asked = "I'm 19 and I'd like a seat in the rear stalls. How much is the ticket?"
    assert "Young people 16 to 25" in other_band(asked, "A rear stalls seat is 12 GBP.", row)
    assert not other_band(asked, "A rear stalls seat is 17 GBP.", row)
