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
