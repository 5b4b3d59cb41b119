"""A sentence listing several facts gives each name the numbers of its own piece.

Held-out set 18 (f008): "The Eastmead branch is open from 10:00 to 19:00 on Sundays" was shown
as supported by a sentence listing the branch's hours day by day, where Sundays are 11:00 to
15:00: every word and number of the claim is in the sentence, in different pieces.
"""

from __future__ import annotations

import pytest

from disputatio.validators.guards import guard

HOURS = (
    "The Eastmead branch is open from 10:00 to 19:00 Monday to Thursday, from 10:00 to 17:00 "
    "on Fridays, from 09:00 to 16:00 on Saturdays and from 11:00 to 15:00 on Sundays."
)


@pytest.mark.parametrize(
    "claim",
    [
        "The Eastmead branch is open from 10:00 to 19:00 on Sundays.",
        "The Eastmead branch is open from 09:00 to 16:00 on Sundays.",
        "The library can receive at most 1 class per day at the Central Library.",
        # c034, set 19 (run 30): a kind of day names a piece as a weekday does
        "The hub café is open until 18:00 on Saturdays.",
    ],
)
def test_a_name_does_not_take_another_pieces_numbers(claim: str) -> None:
    window = (
        HOURS
        if "Eastmead" in claim
        else CAFE
        if "café" in claim
        else "The library can receive at most 2 classes per day at the Central Library and "
        "1 class per day at the Eastside Branch."
    )
    assert "goes with other numbers" in guard(claim, window)


CAFE = (
    "Parents can wait in the hub café, which is open until 18:00 on weekdays and until 13:00 on "
    "Saturdays."
)


@pytest.mark.parametrize(
    ("claim", "window"),
    [
        ("The Eastmead branch is open from 11:00 to 15:00 on Sundays.", HOURS),
        ("On Fridays the Eastmead branch closes at 17:00.", HOURS),
        ("The hub café is open until 13:00 on Saturdays.", CAFE),
        ("The hub café is open until 18:00 on weekdays.", CAFE),
        # the subject, named before the first number, goes with every piece
        (
            "Steinbakken is open on Saturdays from 09:00 to 15:00.",
            "Steinbakken is open Monday to Friday from 10:00 to 19:00 and on Saturdays from "
            "09:00 to 15:00.",
        ),
        # a code is no figure: "N4" does not put "Friday" beside a number
        (
            "The night bus N4 runs on Friday and Saturday nights only.",
            "Night buses N4 and N7 run on Friday and Saturday nights only.",
        ),
        # "70 and over" is one piece, and the claim's figures stand beside no rival name
        (
            "The cost for a Confident Driver assessment for a driver aged 70 and over is 65 GBP.",
            "Drivers aged 70 and over can book a Confident Driver assessment: a 90-minute drive "
            "on familiar roads followed by a written report, for 65 GBP.",
        ),
        # a table row's cells are not pieces of one sentence
        (
            "The Orbis Q7 mass spectrometer is in room W1.06, Wexley Building.",
            "| Orbis Q7 mass spectrometer | W1.06, Wexley Building | 12 hours | 60 EUR per hour |",
        ),
    ],
)
def test_a_name_in_the_pieces_of_its_numbers_passes(claim: str, window: str) -> None:
    assert guard(claim, window) == ""


SPAN = (
    "Kestonbury Youth Orchestra (ages 11 to 18) rehearses on Saturdays from 13:00 to 15:30 at "
    "the Chapel Street site."
)


@pytest.mark.parametrize(
    ("claim", "window", "refused"),
    [
        # c028, held-out set 19: the start of the span given as its end, and the other way
        ("Youth Orchestra rehearsals finish on a Saturday at 13:00.", SPAN, True),
        ("Youth Orchestra rehearsals start on Saturdays at 15:30.", SPAN, True),
        ("Youth Orchestra rehearsals finish on a Saturday at 15:30.", SPAN, False),
        ("Youth Orchestra rehearses until 15:30 on Saturdays.", SPAN, False),
        ("Youth Orchestra rehearses from 13:00 to 15:30 on Saturdays.", SPAN, False),
        # a span of closure closes at its start
        (
            "The office closes at 12:00 for lunch.",
            "The office is closed from 12:00 to 13:00 for lunch.",
            False,
        ),
        (
            "The office opens at 12:00 after lunch.",
            "The office is closed from 12:00 to 13:00 for lunch.",
            True,
        ),
    ],
)
def test_a_clock_time_keeps_its_end_of_the_span(claim: str, window: str, refused: bool) -> None:
    assert ("span" in guard(claim, window)) is refused


AGM = "| Event: Annual General Meeting | Where: Glebe Street | Time: 19:30 | Price: free |"


@pytest.mark.parametrize(
    ("claim", "window", "refused"),
    [
        # ag042, held-out set 32: an event's one time is when it is, not when it finishes
        ("The Annual General Meeting usually finishes at 19:30.", AGM, True),
        ("The Annual General Meeting starts at 19:30.", AGM, False),
        ("The Annual General Meeting is at 19:30.", AGM, False),
        # a word of the window saying the time is an end
        ("The bar closes at 23:00.", "The bar closes at 23:00 on Fridays.", False),
        ("The bar is open until 23:00.", "| Bar | Closing time: 23:00 |", False),
    ],
)
def test_a_time_alone_is_an_end_only_where_a_word_says_so(
    claim: str, window: str, refused: bool
) -> None:
    assert ("not as when it ends" in guard(claim, window)) is refused
