"""A figure of a sentence listing counted items stays with its item (set 22's s011)."""

from __future__ import annotations

import pytest

from disputatio.validators.guards import guard
from disputatio.validators.items import other_item

PITCHES = (
    "Heronmere has 44 hardstanding touring pitches with a 16-amp electric hook-up and 12 "
    "lakeside premium pitches with electricity, water and a drain."
)
BIKES = (
    "The training motorcycles are 125 cc Honda bikes for CBT and category A1 training and 500 "
    "cc bikes for A2 and direct access training."
)


@pytest.mark.parametrize(
    ("claim", "refused"),
    [
        ("The electric hook-up on the lakeside premium pitches is 16-amp.", True),  # s011
        ("There are 44 premium pitches.", True),
        ("The touring pitches have a 16-amp electric hook-up.", False),
        ("There are 12 lakeside premium pitches.", False),
        ("The hook-up is 16-amp.", False),  # names no item: the score decides
    ],
)
def test_a_figure_is_not_given_to_another_counted_item(claim: str, refused: bool) -> None:
    assert bool(other_item(claim, PITCHES)) is refused
    assert bool(guard(claim, PITCHES)) is refused


def test_items_with_nothing_of_their_own_tell_nothing() -> None:
    """The 500 cc bikes have no word the Honda bikes lack: the claim restating both passes."""
    claim = "The school's training motorcycles are 125 cc Honda bikes and 500 cc bikes."
    assert other_item(claim, BIKES) == ""
