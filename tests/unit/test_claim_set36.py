"""Held-out set 36's findings: an amount given a rate its sentence does not give it."""

from __future__ import annotations

from disputatio.validators.guards import guard
from disputatio.validators.periods import rate_unstated

INDUCTIONS = (
    "Induction: workshop, length, price, places per session, day and time\n"
    "Laser cutter: Printworks, 2 hours, 20.00 GBP, 4 places, Wednesdays at 6:30 pm\n"
    "CNC router: Canal Basin, 3 hours, 35.00 GBP, 3 places, Saturdays at 10 am"
)


def test_an_amount_per_hour_needs_a_rate_per_hour() -> None:
    """ak008: the router's induction price is not its price per hour."""
    claim = "The CNC router at the Basin costs 35.00 GBP per hour."
    assert "per hour" in guard(claim, INDUCTIONS, "Machines and inductions")
    assert guard("The CNC router induction costs 35.00 GBP.", INDUCTIONS) == ""
    # the rate stated with the amount, in a header, or in the section's title, supports it
    for sentence, title in [
        ("CNC router (Canal Basin): 1 machine, 35.00 GBP an hour, induction needed", ""),
        ("Machine: CNC router | Price per hour: 35.00 GBP", ""),
        ("CNC router: Canal Basin, 3 hours at least, 35.00 GBP", "Hourly rates of the machines"),
    ]:
        assert rate_unstated(claim, sentence, title) == "", sentence


def test_an_amount_per_another_period_is_not_the_claim_s() -> None:
    claim = "The Maker Membership costs 20.00 GBP a month."
    assert "per year" in rate_unstated(claim, "The Maker Membership costs 20.00 GBP a year.")
    assert rate_unstated(claim, "Maker Membership, monthly: 20.00 GBP") == ""
    assert rate_unstated("The Maker Membership costs 20.00 GBP.", "20.00 GBP a year") == ""


def test_an_amount_with_no_period_and_no_length_is_left_alone() -> None:
    """i009 (set 24): a document may say once, above its table, that prices are per month."""
    assert (
        rate_unstated("The Fixed Desk costs 295 GBP per month.", "| Fixed Desk | 295 GBP |") == ""
    )
    # nor a table row beside a length: its headers may name the rate (ae030, set 30)
    strimmer = "| Petrol strimmer | 30.00 GBP | 8.00 GBP | 12.00 GBP | 2 days |"
    assert rate_unstated("The Plot Member rate is 8.00 GBP per day.", strimmer) == ""
    # a length of one period is no length of several
    row = "Overlocker: Printworks, 1 hour, 8.00 GBP, 3 places"
    assert rate_unstated("The overlocker costs 8.00 GBP per hour.", row) == ""
