"""Held-out set 37's findings: a span of clock times written with "am" and "pm"."""

from __future__ import annotations

from disputatio.validators.guards import guard
from disputatio.validators.times import wrong_end

REHEARSALS = (
    "| Main Choir | St Aldhelm's Hall, main hall | Tuesday | 7.30 pm to 9.45 pm, with a 15-minute"
    " break at 8.30 pm |"
)


def test_a_span_of_times_with_pm_ends_at_its_second_time() -> None:
    """al004: "finish at 9.45 pm" on "7.30 pm to 9.45 pm" is where the span ends."""
    claim = "The rehearsals for the Main Choir finish at 9.45 pm on Tuesday."
    assert guard(claim, REHEARSALS) == ""
    # and its first time is where it starts, not where it ends
    assert "starts" in wrong_end("The Main Choir's rehearsals finish at 7.30 pm.", REHEARSALS)
    assert wrong_end("Rehearsals finish at 9.45 a.m.", "from 7.30 a.m. to 9.45 a.m.") == ""
