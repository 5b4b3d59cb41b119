"""Held-out set 44's findings (run 56): a role given as itself names no one."""

from __future__ import annotations

from disputatio.validators.asked import unanswered
from disputatio.validators.roles import names_itself


def test_a_role_given_as_itself_names_no_one() -> None:
    """as018: "The club's Treasurer is the Treasurer, …" does not answer who the Treasurer is."""
    claim = (
        "The club's Treasurer is the Treasurer, the Membership Secretary, the Match Secretary,"
        " the Junior Coordinator and the Head Bailiff."
    )
    assert names_itself(claim)
    assert "asks who" in unanswered("Who is the club's Treasurer?", [claim])
    # a claim that names the role's holder answers it
    named = "The club's Treasurer is Jo Bloggs."
    assert not names_itself(named)
    assert unanswered("Who is the club's Treasurer?", [named]) == ""
    # the role said again, then its holder's name, is no such claim
    assert not names_itself("The Treasurer is the Treasurer of the club, Jo Bloggs.")
