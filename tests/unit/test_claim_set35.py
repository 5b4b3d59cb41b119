"""Held-out set 35's findings: an abbreviation the asker used, a pointer dated by a year."""

from __future__ import annotations

from disputatio.validators.guards import guard
from disputatio.validators.names import initials_of
from disputatio.validators.pointers import points_at_a_place

REQUESTS = (
    "Listeners can send song requests and messages to the studio by text to 07700 900 146, at"
    " their network's standard rate, or through the app for free."
)
TITLE = "Brackenford Community Radio: Schedule and Listening"


def test_an_abbreviation_names_what_its_initials_spell() -> None:
    """aj040: "the BCR app" on a section of Brackenford Community Radio."""
    claim = "Yes, sending a song request through the BCR app is free."
    assert guard(claim, REQUESTS, TITLE) == ""
    assert "xyz" in guard(claim.replace("BCR", "XYZ"), REQUESTS, TITLE)
    assert initials_of("bcr", claim, TITLE)
    # written in small letters it is a word, not an abbreviation
    assert not initials_of("bcr", "the bcr app", TITLE)


def test_a_pointer_dated_by_a_year_states_nothing() -> None:
    """aj014: a year in what it points at is no figure it states."""
    dated = (
        "The dates of the Presenting Basics course in the autumn of 2026 are listed in the"
        ' "COURSE DATES, SPRING AND SUMMER 2026" section of the provided text.'
    )
    assert points_at_a_place(dated)
    assert not points_at_a_place("The 910 NOK allowance is stated in the first sentence of [S1].")
