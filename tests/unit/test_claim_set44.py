"""Held-out set 44's findings (run 56): roles, ranges, bounds, dates and what a figure is of."""

from __future__ import annotations

from disputatio.validators.amounts import kind_mismatch
from disputatio.validators.asked import unanswered
from disputatio.validators.guards import guard
from disputatio.validators.opposites import negation_differs
from disputatio.validators.parts import claim_parts
from disputatio.validators.questions import question_parts
from disputatio.validators.roles import names_itself
from disputatio.validators.sentences import has_negation
from disputatio.validators.things import measured_of
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


def test_no_thing_may_go_beyond_a_figure_is_a_bound() -> None:
    """as023: "no fish may be kept in a keepnet for longer than 6 hours" is a maximum."""
    rule = (
        "Keepnets may be used on the Reach only in club matches, and no fish may be kept in a"
        " keepnet for longer than 6 hours."
    )
    claim = "The longest you can keep fish in a keepnet for is 6 hours."
    assert not has_negation(rule)
    assert not negation_differs(claim, rule)
    # a "no" that is no bound stays a negation
    assert has_negation("There is no charge for more than two rods.")
    assert has_negation("No fish may be kept in a keepnet.")


def test_a_date_answers_the_part_that_asks_a_date() -> None:
    """as025: the meeting's date was said to answer only "Can I vote at the … meeting?"."""
    question = (
        "I'm a Kingfisher Member. Can I vote at the annual general meeting, and what date is"
        " the 2027 meeting?"
    )
    parts = question_parts(question)
    claim = "The 2027 annual general meeting is on Thursday 29 April at 7.30 pm in the Lodge."
    assert 1 in claim_parts(claim, parts)
    # a claim with no date is not the date part's
    assert claim_parts("Kingfisher Members may attend the annual general meeting.", parts) == {0}


def test_a_date_does_not_answer_when_something_else_happens() -> None:
    """ar022: the coach's leaving date does not answer "when does it get back"."""
    parts = question_parts(
        "For the summer outing, what time does the coach leave, and when does it get back?"
    )
    assert claim_parts("The coach leaves at 8.30 am on Saturday 19 June 2027.", parts) == {0}


def test_a_figure_of_one_thing_is_not_a_claims_figure_for_another() -> None:
    """n013, g040: "50 litres of flammable liquids" and "within 3 months of being hired"."""
    store = (
        "Flammable liquids are stored in the yellow safety cabinets, and no laboratory may hold"
        " more than 50 litres of flammable liquids."
    )
    acids = "The maximum volume of acids that one laboratory may store is 50 litres."
    assert "flammable liquids" in measured_of(acids, store)
    assert "flammable liquids" in guard(acids, store)
    liquids = "A laboratory may hold no more than 50 litres of flammable liquids."
    assert measured_of(liquids, store) == ""
    hired = (
        "Survey technicians must complete the CTD-41 operator course within 3 months of being"
        " hired."
    )
    assert measured_of("The CTD-41 operator course lasts 3 months.", hired)
    assert (
        measured_of("Technicians must finish the course within 3 months of being hired.", hired)
        == ""
    )
