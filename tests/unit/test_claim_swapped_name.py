"""A claim may take a name from its section's title, never put it where its sentence names another.

``make demo`` (2026-12-03) showed "Brucellosis is a diagnosis of exclusion" as supported by
"Because AOSD is a diagnosis of exclusion, …" in a section listing brucellosis among the
diagnoses to exclude; held-out set 9 answered a near miss (v008) on the other lounge's sentence.
"""

from __future__ import annotations

import pytest
from fake_judges import RecordingJudge

from disputatio.testing import FakeEmbeddings
from disputatio.validators.claims import check_answer
from disputatio.validators.guards import guard, swapped_name
from disputatio.validators.support import JudgedSupport

AOSD = "Because AOSD is a diagnosis of exclusion, the work-up must rule out:"


@pytest.mark.parametrize(
    ("claim", "window", "swap"),
    [
        ("Brucellosis is a diagnosis of exclusion.", AOSD, ("Brucellosis", "AOSD")),
        (
            "The maximum stay in the Aurora Lounge is 3 hours.",
            "The maximum stay in the Fjord Lounge is 3 hours.",
            ("Aurora", "Fjord"),
        ),
        # a name the sentence does not replace: taken from the title, as a manual's reader does
        ("The CTD-41 battery pack lasts 70 hours.", "The battery pack lasts 70 hours.", None),
        # both names in the window: nothing replaced
        (
            "The CTD-41 uses the BP-41L pack.",
            "The CTD-41 uses the BP-41L pack, charged in 6 hours.",
            None,
        ),
        # a name of the window elsewhere, not in the claim's name's place
        (
            "The Aurora Lounge closes at 22:00.",
            "Guests of Fjord Air may use it; the lounge closes at 22:00.",
            None,
        ),
    ],
)
def test_a_name_in_the_place_of_another_is_found(
    claim: str, window: str, swap: tuple[str, str] | None
) -> None:
    assert swapped_name(claim, window) == swap


def test_the_guard_rejects_a_swap_even_when_the_title_names_the_claims_thing() -> None:
    claim = "The maximum stay in the Aurora Lounge is 3 hours."
    window = "The maximum stay in the Fjord Lounge is 3 hours."
    assert "Aurora" in guard(claim, window, "Lounges: Aurora Lounge and Fjord Lounge")
    assert guard(claim, claim, "Lounges") == ""


def test_a_swapped_claim_is_not_supported_even_by_a_judge_that_lifts_everything() -> None:
    sections = {
        "ddx": {"text": AOSD, "title": "Differential diagnosis of brucellosis and AOSD"},
    }
    checker = JudgedSupport(FakeEmbeddings().embed_documents, RecordingJudge(1.0))  # type: ignore[arg-type]
    swapped = check_answer(
        "Brucellosis is a diagnosis of exclusion [ddx].", sections, checker=checker
    )
    assert swapped.claims[0].verdict == "unsupported" and swapped.claims[0].dropped
    same = check_answer("AOSD is a diagnosis of exclusion [ddx].", sections, checker=checker)
    assert same.claims[0].verdict == "supported"


def test_a_name_swapped_across_a_join_is_found_in_its_sentence() -> None:
    """b029 (held-out set 15): the whole window holds "Sundays", its second sentence "Mondays"."""
    window = "On Sundays the café serves brunch from 10:00 to 14:00. The café is closed on Mondays."
    assert "Sundays" in guard("The café is closed on Sundays.", window, "Opening hours")
    assert guard("The café is closed on Mondays.", window, "Opening hours") == ""
    assert swapped_name("The café is closed on Sundays.", "The café is closed on Mondays.") == (
        "Sundays",
        "Mondays",
    )
