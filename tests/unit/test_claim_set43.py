"""Held-out set 43's findings (run 55): a name moved to another role, a day in a span, a row
that the question names, a claim scored in its window's terms."""

from __future__ import annotations

from disputatio.validators.asked import asks_age
from disputatio.validators.bands import asked_column
from disputatio.validators.guards import coverage, guard
from disputatio.validators.opposites import negation_differs
from disputatio.validators.roles import apposed_roles, other_role
from disputatio.validators.support import HybridSupport, LexicalSupport
from disputatio.validators.tables import question_words
from disputatio.validators.things import other_charge

COMMITTEE = (
    "The chair of the committee is Margery Oduya-Lindqvist, and the Secretary is Ptolemy"
    " Hargreaves-Eze.\nThe other officers are the Treasurer, the Membership Secretary, the Layout"
    " Manager, the Workshop Manager, the Exhibition Manager and the Facilities Officer."
)


def test_the_chairs_name_is_not_the_treasurers() -> None:
    """ar018: "The Treasurer … is Margery Oduya-Lindqvist" on the chair's sentence (a near miss)."""
    roles = apposed_roles(COMMITTEE)
    assert roles["Margery Oduya-Lindqvist"] == "chair"
    assert roles["Ptolemy Hargreaves-Eze"] == "Secretary"
    claim = "The Treasurer of the society is Margery Oduya-Lindqvist."
    assert other_role(claim, COMMITTEE) == ("Margery Oduya-Lindqvist", "Treasurer", "chair")
    assert guard(claim, COMMITTEE)
    # the name's own role is supported
    chair = "The chair of the committee is Margery Oduya-Lindqvist."
    assert other_role(chair, COMMITTEE) is None
    assert not guard(chair, COMMITTEE)


BUS = (
    "The last number 22 bus back to the town centre leaves Kettlewell Road at 9.50 pm on weekdays"
    " and at 6.10 pm on Saturdays."
)


def test_a_weekday_is_one_of_the_weekdays_not_a_swapped_day() -> None:
    """ar017: "at 9.50 pm on Thursdays" rests on "at 9.50 pm on weekdays"."""
    claim = (
        "The last number 22 bus back to the town centre leaves Kettlewell Road at 9.50 pm on"
        " Thursdays."
    )
    assert guard(claim, BUS) == ""
    # the Saturday time is not a Thursday's
    assert guard(claim.replace("9.50", "6.10"), BUS)
    # a day the window writes is read as written (b029, set 15)
    join = "On Sundays the café serves brunch from 10:00 to 14:00. The café is closed on Mondays."
    assert "Sundays" in guard("The café is closed on Sundays.", join)


def test_what_a_person_cannot_do_does_not_negate_the_claim() -> None:
    """ar006: "A member who … cannot come must cancel by 6.00 pm" states the claim's deadline."""
    rule = (
        "A member who has booked a position and cannot come must cancel by 6.00 pm on the day,"
        " so that it can go to someone on the reserve list."
    )
    claim = "The latest you can cancel is by 6.00 pm on the day you booked the position."
    assert not negation_differs(claim, rule)
    assert guard(claim, rule) == ""
    # a claim naming the person the clause narrows is read against it: not every member
    assert negation_differs("Members pay 5 GBP.", "Members who are not adults pay 5 GBP.")
    # a claim saying the negated verb is read against it
    assert negation_differs(
        "Members who come must cancel by 6.00 pm.",
        rule.replace(
            "A member who has booked a position and cannot come", "Members who cannot come"
        ),
    )


def test_old_enough_asks_for_the_minimum_age_column() -> None:
    """ar023: "Am I old enough to use the resin 3D printer?" asks the "Minimum age" column."""
    question = "I'm 15 and a Footplate Junior. Am I old enough to use the resin 3D printer?"
    assert asks_age(question)
    row = (
        "| Machine: Resin 3D printer | Induction price: 5.00 GBP | Charge to use: 2.00 GBP an"
        " hour | Minimum age: 16 |"
    )
    claim = "The resin 3D printer requires a minimum age of 16 years."
    assert asked_column(question, claim, row) == ""
    cost = "How much does it cost to use the resin 3D printer?"
    assert "Charge to use" in asked_column(cost, "The resin 3D printer costs 16 GBP.", row)


def test_a_loan_period_is_no_other_columns_deposit() -> None:
    """ar026: beside "Deposit: 25.00 GBP", the 2 weeks are the loan period asked in part 1."""
    question = (
        "I've done the spray booth induction and would like to borrow the airbrush kit. How long"
        " can I keep it, and how much deposit do I leave?"
    )
    row = "| Item: Airbrush kit | Loan period: 2 weeks | Deposit: 25.00 GBP |"
    assert asked_column(question, "Members can borrow the airbrush kit for 2 weeks.", row) == ""


def test_a_joining_fee_is_no_deposit() -> None:
    """ar031: "The deposit … is 15.00 GBP" on the joining fee "which covers … the first key fob"."""
    fee = (
        "New Footplate Members pay a one-off joining fee of 15.00 GBP, which covers the safety"
        " induction at both venues and the first key fob."
    )
    claim = "The deposit for a Footplate Member is 15.00 GBP."
    assert other_charge(claim, fee) == ("deposit", "fee")
    assert "deposit" in guard(claim, fee)
    assert guard("The joining fee for a Footplate Member is 15.00 GBP.", fee) == ""
    # a section that speaks of deposits lets the claim's deposit stand for the judge
    assert other_charge(claim, fee, "Deposits and joining fees") is None


def test_a_figure_beside_a_deposit_cell_is_not_called_a_deposit() -> None:
    """ac004 (set 28): a full-day price in a row with a "Deposit" cell is no deposit swap."""
    row = "| Bike: Electric bike | Half day: 22.00 GBP | Full day: 38.00 GBP | Deposit: 150 GBP |"
    claim = "The cost of hiring an e-bike from the Station for a full day is 38.00 GBP."
    assert other_charge(claim, row) is None
    fee = "| Bike: Electric bike | Hire fee per day: 38.00 GBP |"
    assert other_charge("The deposit for an e-bike is 38.00 GBP.", fee) == ("deposit", "fee")


OUTING = (
    "| Event: Summer outing to the Dunmere Valley Railway | Venue: coach from Station Yard |"
    " Date: Saturday 19 June 2027 | Time: coach leaves at 8.30 am |"
)


def test_a_row_the_question_names_whole_is_named() -> None:
    """ar022: "The coach leaves at 8.30 am" answers a question that names the outing's row."""
    claim = "The coach leaves at 8.30 am on Saturday 19 June 2027."
    asked = question_words(
        "For the summer outing to the Dunmere Valley Railway, what time does the coach leave?"
    )
    assert "does not name the row" in guard(claim, OUTING)
    assert guard(claim, OUTING, topic=asked) == ""
    # a question naming only part of the row's key names another row (a near miss)
    other = question_words("For the winter outing, what time does the coach leave?")
    assert "does not name the row" in guard(claim, OUTING, topic=other)
    # the checker told the question reads its words
    checker = LexicalSupport().for_question(
        "For the summer outing to the Dunmere Valley Railway, when does the coach leave?"
    )
    assert checker.score_many(claim, [OUTING], [""])[0].reason == ""
    assert LexicalSupport().score_many(claim, [OUTING], [""])[0].reason


LATHE = (
    "| Machine: Lathe | Induction: 2 hours | Induction price: 15.00 GBP | Charge to use: 1.50 GBP"
    " an hour | Minimum age: 16 |"
)


def test_a_claim_is_scored_in_the_windows_terms() -> None:
    """ar009: a total the guards checked is scored as its sum, not as words the row lacks."""
    claim = "The lathe costs 1.50 GBP an hour for 3 hours, which totals 4.50 GBP."
    checker = LexicalSupport().for_question("I want 3 hours on the lathe. What will it cost?")
    assert checker.in_terms(claim, LATHE) == "The lathe costs 1.50 GBP an hour for 3 hours."
    scored = checker.score_many(claim, [LATHE], [""])[0]
    assert scored.reason == ""
    assert scored.score == coverage(checker.in_terms(claim, LATHE), LATHE)
    assert scored.score > coverage(claim, LATHE)
    # a wrong total is still set aside by the guards, before any score
    assert checker.score_many(claim.replace("4.50", "5.50"), [LATHE], [""])[0].reason


def test_the_hybrid_checker_embeds_the_claim_in_the_windows_terms() -> None:
    """The cosine half of the hybrid score is taken on the claim said in the window's terms."""
    seen: list[str] = []

    def embed(texts: list[str]) -> list[list[float]]:
        seen.extend(texts)
        return [[1.0, 0.0] for _ in texts]

    claim = "The lathe costs 1.50 GBP an hour for 3 hours, which totals 4.50 GBP."
    checker = HybridSupport(embed).for_question("I want 3 hours on the lathe. What will it cost?")
    checker.score_many(claim, [LATHE], [""])
    assert "The lathe costs 1.50 GBP an hour for 3 hours." in seen
    assert claim not in seen
