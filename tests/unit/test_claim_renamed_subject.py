"""A sentence whose subject is a name the sentence before gives goes on about it, as "It" would.

Held-out set 21 (w009, w016): "The Wild Party at Larchfield Park for children aged 4 to 11
costs 24 GBP per child" was refused on "Larchfield Park hosts Wild Parties for children aged 4
to 11. A Wild Party is for 8 to 20 children and costs 24 GBP per child.": the pair guard found
the claim's 4 in a sentence without "Party" (it says "Parties") and its 24 in one without
"Larchfield Park". "Wild Parties" now holds "Wild Party", and "A Wild Party …" goes on about the
parties just named. Sentences about something else named beside a name of the sentence before
still do not lend their number.
"""

from __future__ import annotations

import pytest

from disputatio.validators.guards import guard
from disputatio.validators.subjects import holds_name, renames

PARTY = (
    "Larchfield Park hosts Wild Parties for children aged 4 to 11. A Wild Party is for 8 to 20 "
    "children and costs 24 GBP per child."
)
POOL = (
    "The Tidewater Aquarium hosts Rock Pool Parties for children aged 5 to 10. A Rock Pool Party "
    "is for 6 to 15 children and costs 27 GBP per child."
)


@pytest.mark.parametrize(
    ("claim", "window"),
    [
        (
            "The Wild Party at Larchfield Park for children aged 4 to 11 costs 24 GBP per child.",
            PARTY,
        ),
        ("The Rock Pool Party for children aged 5 to 10 costs 27 GBP per child.", POOL),
    ],
)
def test_a_sentence_going_on_about_a_name_just_given_lends_its_number(
    claim: str, window: str
) -> None:
    assert guard(claim, window) == ""


@pytest.mark.parametrize(
    ("claim", "window"),
    [
        # the second sentence is about scooters, though it names only a site named before
        (
            "The Tidewater Aquarium has 5 wheelchairs available for borrowing.",
            "Manual wheelchairs can be borrowed free of charge: there are 8 at Larchfield Park "
            "and 4 at the Tidewater Aquarium. Mobility scooters can be hired only at Larchfield "
            "Park, for 12 GBP a day; there are 5 scooters.",
        ),
        # its subject is a word the sentence before opens with, not a name it gives
        (
            "The cost of a seat in the upper circle at the Harcourt Stage is 20 GBP.",
            "Groups of 10 to 19 people get 10 percent off Band A seats at the Harcourt Stage. "
            "Groups of 20 or more get 15 percent off Band A seats.",
        ),
        # it names something new: another vessel
        (
            "The A-frame on Kvitbjørn is rated 6 tonnes.",
            "The A-frame on Kvitbjørn is rated 10 tonnes. "
            "The A-frame on Sjøstjerne is rated 6 tonnes.",
        ),
    ],
)
def test_a_sentence_about_something_else_still_keeps_its_number(claim: str, window: str) -> None:
    assert "different sentences" in guard(claim, window)


def test_a_plural_in_ies_holds_its_name_and_a_renamed_subject_is_read_as_one() -> None:
    assert holds_name("larchfield park hosts wild parties", "party")
    assert not holds_name("larchfield park hosts wild parties", "pool")
    assert renames("A Wild Party is for 8 to 20 children.", "Larchfield Park hosts Wild Parties.")
    assert not renames("Mobility scooters are 12 GBP.", "There are 4 at the Tidewater Aquarium.")


def test_a_sentence_opening_with_its_own_name_keeps_its_number() -> None:
    """i002 (held-out set 24): Ropewalk's locker price is not Tannery's."""
    window = (
        "Ropewalk has 60 lockers in the basement, and each one costs 12 GBP a month. "
        "Tannery has a smaller number of lockers, and members should ask the Site Manager."
    )
    assert "different sentences" in guard("A locker at Tannery costs 12 GBP a month.", window)
    assert not guard("A locker at Ropewalk costs 12 GBP a month.", window)
