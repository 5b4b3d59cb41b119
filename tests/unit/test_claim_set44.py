"""Held-out set 44's findings (run 56): a role given as itself names no one, a range weighs."""

from __future__ import annotations

from disputatio.validators.asked import kind_mismatch, unanswered
from disputatio.validators.roles import names_itself
from disputatio.validators.units import opens_range


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


def test_a_range_measures_what_its_end_measures() -> None:
    """as024: "1.5 to 4 pounds of rainbow trout" weighs the trout; it does not count them."""
    question = "How many trout does the club put into Brakemoor each week?"
    claim = "The club puts 1.5 to 4 pounds of rainbow trout into Brakemoor each week."
    assert opens_range(claim, "1.5")
    assert "asks how many trout" in kind_mismatch(question, claim)
    # a range of the things counted answers the count
    assert not opens_range("200 to 300 trout", "200")
    assert kind_mismatch(question, "The club puts 200 to 300 trout into it each week.") == ""
