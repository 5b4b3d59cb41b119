"""A claim may not put a sentence's price or length on another thing than the sentence's.

Held-out set 32 (ag019, a near miss): "The replacement card costs 10.00 GBP to replace." was
shown as supported by "… a lost key fob costs 10.00 GBP to replace." (the support judge let the
fob stand for the card).
"""

from __future__ import annotations

import pytest
from fake_judges import RecordingJudge

from disputatio.testing import FakeEmbeddings
from disputatio.validators.claims import check_answer
from disputatio.validators.guards import guard
from disputatio.validators.support import JudgedSupport
from disputatio.validators.things import swapped_thing

FOB = (
    "Key Holder Members use the side door on Chantry Lane with their key fob, and a lost key "
    "fob costs 10.00 GBP to replace."
)


@pytest.mark.parametrize(
    ("claim", "window", "context", "swap"),
    [
        ("The replacement card costs 10.00 GBP to replace.", FOB, "", ("card", "fob")),
        ("A lost battery lasts 3 hours.", "A full charge lasts 3 hours.", "", ("batteri", "charg")),
        # the thing is the sentence's own
        ("A replacement key fob costs 10.00 GBP.", FOB, "", None),
        # the thing is named by the section's headings: the sentence goes on about it
        ("The studio card costs 10.00 GBP.", "A new one costs 10.00 GBP.", "Studio cards", None),
        # another figure: no swap of this one (the number guard's case)
        ("The replacement card costs 12.00 GBP.", FOB, "", None),
        # a counted word before the verb is no thing: the cake is ("for 14 guests", c-set 16)
        (
            "A cake for 14 guests costs 52 EUR.",
            "A 24 cm round cake for over 10 and up to 16 people costs 52 EUR.",
            "",
            None,
        ),
        # a verb the sentence does not give the figure with
        ("The replacement card is 10.00 GBP.", FOB, "", None),
    ],
)
def test_a_thing_in_the_place_of_another_is_found(
    claim: str, window: str, context: str, swap: tuple[str, str] | None
) -> None:
    assert swapped_thing(claim, window, context) == swap


def test_the_guard_rejects_a_figure_moved_to_another_thing() -> None:
    assert "card" in guard("The replacement card costs 10.00 GBP to replace.", FOB)
    assert guard("A lost key fob costs 10.00 GBP to replace.", FOB) == ""


def test_a_moved_figure_is_not_supported_even_by_a_judge_that_lifts_everything() -> None:
    sections = {"entry": {"text": FOB, "title": "Getting in and facilities"}}
    checker = JudgedSupport(FakeEmbeddings().embed_documents, RecordingJudge(1.0))  # type: ignore[arg-type]
    moved = check_answer("The replacement card costs 10.00 GBP [entry].", sections, checker=checker)
    assert moved.claims[0].verdict == "unsupported" and moved.claims[0].dropped
    same = check_answer("A lost key fob costs 10.00 GBP [entry].", sections, checker=checker)
    assert same.claims[0].verdict == "supported"


@pytest.mark.parametrize(
    "sentence",
    [
        "The week costs 175 GBP.",
        "The soup of the day costs 5.90 EUR for a bowl and 3.90 EUR for a cup.",
        "A second replacement within 12 months costs 100 NOK.",
    ],
)
def test_a_sentence_copied_whole_keeps_its_thing_even_when_the_thing_is_a_unit(
    sentence: str,
) -> None:
    """Found measuring the guard: "day", "week" are units, left out of the content words."""
    assert swapped_thing(sentence, sentence) is None
    assert guard(sentence, sentence) == ""
