"""A name the sentence gives one role is not another role's (af014, held-out set 31)."""

from __future__ import annotations

import pytest

from disputatio.validators.guards import guard
from disputatio.validators.roles import apposed_roles, other_role

OFFICERS = (
    "The Captain, Lucinda Strang, leads the rowing side of the club, and the Vice-Captain looks "
    "after the junior squad."
)


def test_the_names_a_sentence_sets_beside_a_role_are_read() -> None:
    assert apposed_roles(OFFICERS) == {"Lucinda Strang": "Captain"}
    assert apposed_roles("Write to Ann Lee (Treasurer) or Tom Hale, the Secretary, by May.") == {
        "Ann Lee": "Treasurer",
        "Tom Hale": "Secretary",
    }


@pytest.mark.parametrize(
    "claim",
    [
        "The Vice-Captain who runs the junior squad is Lucinda Strang.",
        "Lucinda Strang is the Vice-Captain.",
    ],
)
def test_a_name_made_another_role_of_the_sentence_is_refused(claim: str) -> None:
    assert other_role(claim, OFFICERS) == ("Lucinda Strang", "Vice-Captain", "Captain")
    assert "as the Captain, not the Vice-Captain" in guard(claim, OFFICERS)


@pytest.mark.parametrize(
    "claim",
    [
        "The Captain, Lucinda Strang, leads the rowing side of the club.",
        "Lucinda Strang leads the rowing side of the club.",
        "The Vice-Captain looks after the junior squad.",
        "The Captain is Lucinda Strang, and the Vice-Captain looks after the junior squad.",
    ],
)
def test_a_name_with_its_own_role_or_none_is_no_move(claim: str) -> None:
    assert other_role(claim, OFFICERS) is None
    assert guard(claim, OFFICERS) == ""
