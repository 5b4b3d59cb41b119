"""A price for a group the asker says they are not in does not answer (ag016, set 32)."""

from __future__ import annotations

import pytest

from disputatio.validators.groups import group_contrast, not_in, price_groups
from disputatio.validators.relevance import off_question

FAIR = (
    "A table at the Christmas Pottery Fair costs 25.00 GBP for members and 40.00 GBP for Friends."
)
NEITHER = (
    "I make pots at home but I'm not a member or a Friend. How much would a table at the "
    "Christmas Pottery Fair cost me?"
)


def test_the_groups_an_asker_is_not_in_are_read() -> None:
    assert not_in(NEITHER) == {"member", "friend"}
    assert not_in("We're non-members. How much is a bag?") == {"member"}
    assert not_in("How much is a table at the fair?") == set()


def test_each_price_is_read_with_its_group() -> None:
    assert price_groups(FAIR) == ["member", "friend"]
    assert price_groups("A bag costs 14.00 GBP for members and 18.00 GBP.") == ["member", None]


def test_prices_only_for_groups_the_asker_is_not_in_do_not_answer() -> None:
    assert group_contrast(NEITHER, FAIR) == "member, friend"
    assert "not one" in off_question(NEITHER, FAIR, FAIR)


@pytest.mark.parametrize(
    "claim",
    [
        "A bag costs 18.00 GBP for non-members.",  # the asker's own group
        "A bag costs 14.00 GBP for members and 18.00 GBP for non-members.",
        "A bag costs 18.00 GBP.",  # for no group said
    ],
)
def test_a_price_for_the_askers_group_or_none_answers(claim: str) -> None:
    assert group_contrast("I'm not a member. How much is a bag of clay?", claim) is None
