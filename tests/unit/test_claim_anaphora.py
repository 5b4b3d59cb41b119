"""A sentence opening with "It" or "They" goes on about the subject of the sentence before.

Held-out set 17 (e022): "The Kids Climbing Club costs 1,400 NOK per term" was refused on "The
Kids Climbing Club is for children aged 7 to 11. It meets on Monday afternoons … and costs
1,400 NOK per term.", because the sentence holding 1,400 names "Monday" and the pair guard read
that as a subject of its own.
"""

from __future__ import annotations

import pytest

from disputatio.validators.guards import guard

CLUB = (
    "The Kids Climbing Club is for children aged 7 to 11. It meets on Monday afternoons from "
    "16:30 to 18:00 for ten weeks each term and costs 1,400 NOK per term."
)


def test_a_pronoun_sentence_lends_its_number_to_the_subject_before_it() -> None:
    assert guard("The Kids Climbing Club costs 1,400 NOK per term.", CLUB) == ""


@pytest.mark.parametrize(
    ("claim", "window"),
    [
        # the pronoun's sentence names another day where the claim names one
        (
            "The café opens at 10:00 on Mondays.",
            "The café opens at 08:00 on Mondays. It opens at 10:00 on Sundays.",
        ),
        # no pronoun: the second sentence is about another vessel
        (
            "The A-frame on Kvitbjørn is rated 6 tonnes.",
            "The A-frame on Kvitbjørn is rated 10 tonnes. "
            "The crane on Sjøstjerne is rated 6 tonnes.",
        ),
        # the sentence before does not name the claim's subject
        (
            "The Youth Climbing Team costs 1,400 NOK per term.",
            "The Youth Climbing Team trains on Thursdays. The Kids Climbing Club is for children "
            "aged 7 to 11. It meets on Monday afternoons and costs 1,400 NOK per term.",
        ),
    ],
)
def test_a_pronoun_sentence_does_not_lend_its_number_elsewhere(claim: str, window: str) -> None:
    assert guard(claim, window) != ""


def test_a_name_of_the_pronoun_sentence_itself_does_not_stop_it_lending() -> None:
    """Set 20's t042: "… the balance by 1 July" holds "July", a name of the claim; the
    subject, the school, is named only in the sentence before."""
    school = (
        "The Summer School is for ages 11 to 17 and runs for 2 weeks in August. It costs 260 "
        "GBP, with a deposit of 60 GBP when you book and the balance by 1 July."
    )
    claim = "The Summer School costs 260 GBP, with the balance by 1 July."
    assert guard(claim, school) == ""
    # the subject must still be the one named before
    assert guard("The Winter School costs 260 GBP, with the balance by 1 July.", school)
