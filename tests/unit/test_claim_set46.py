"""Rules found on held-out set 46 (corpus_tennis, run 58)."""

from __future__ import annotations

from disputatio.validators.guards import guard
from disputatio.validators.ranges import given_numbers

JUNIOR_ROW = (
    "| Course: Junior Development | Site: Meadow Road | Day: Wednesday | Time: 4.30 pm to "
    "6.00 pm | Ages: 11 to 17 | Members, 10-week term: 90.00 GBP | Non-members, 10-week term: "
    "120.00 GBP |"
)
SUMMER_ASKS = (
    "My son is a member and does Junior Development. What will the 6-week summer term cost?"
)


def test_a_dot_clock_time_states_no_number_of_weeks() -> None:
    """au034: "6.00 pm" is no 6 that the asker's "6-week summer term" could rest on."""
    given = given_numbers(SUMMER_ASKS)
    claim = "The 6-week summer term cost for Junior Development is 90.00 GBP."
    assert "clock time" in guard(claim, JUNIOR_ROW, given=given)
    assert not guard("Junior Development ends at 6.00 pm.", JUNIOR_ROW, given=given)
    assert not guard(
        "A 10-week term of Junior Development costs 90.00 GBP for members.", JUNIOR_ROW
    )
