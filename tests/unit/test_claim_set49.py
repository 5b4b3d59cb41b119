"""Rules found on held-out set 49 (corpus_dogtraining, run 61)."""

from __future__ import annotations

import pytest

from disputatio.validators.actors import cancelled_by_other
from disputatio.validators.guards import guard

CLUB_CANCELS = (
    "If the club cancels a course, the full course price is refunded within 10 working days."
)


def test_the_clubs_cancelling_does_not_hold_the_askers() -> None:
    """ax011: a full refund for the asker's cancelling, on the club's (a false "supported")."""
    claim = (
        "If you have to cancel 10 days before the first class, you get a full refund within 10 "
        "working days."
    )
    assert "the club" in cancelled_by_other(claim, CLUB_CANCELS)
    assert "the club" in guard(claim, CLUB_CANCELS)


@pytest.mark.parametrize(
    ("claim", "window"),
    [
        (
            "If the club cancels a course, you get a full refund within 10 working days.",
            CLUB_CANCELS,
        ),
        (
            "If you cancel 14 days or more before, you get a full refund within 10 working days.",
            "If you cancel 14 days or more before a course, the full price is refunded within 10 "
            "working days; if the club cancels, the same applies.",
        ),
    ],
)
def test_a_cancelling_the_window_gives_to_the_same_one_stands(claim: str, window: str) -> None:
    assert cancelled_by_other(claim, window) == ""
