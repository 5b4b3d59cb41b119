"""A claim may call a place by the longer name the shown sections give it (ah004, set 33)."""

from __future__ import annotations

from disputatio.validators.claims import check_answer
from disputatio.validators.subjects import longer_forms
from disputatio.validators.support import LexicalSupport

BUILDINGS = (
    "Larkspur House is at 3 Chandler Street, two minutes from the market square. "
    "Rookwood Terrace is on Rookwood Lane beside the canal."
)
ROOMS = (
    "| Room | Building | Seven nights |\n|---|---|---|\n"
    "| Attic Room | Larkspur | 130.00 GBP |\n| Garden Room | Rookwood | 160.00 GBP |"
)
CLAIM = "The Attic Room at Larkspur House costs 130.00 GBP for seven nights [rooms]."


def test_a_word_opening_one_longer_name_gives_it() -> None:
    found = longer_forms([BUILDINGS, ROOMS])
    assert found["larkspur"] == "Larkspur House"
    assert "rookwood" not in found  # "Rookwood Terrace" and "Rookwood Lane": neither
    assert "room" not in found  # a table's header row is no name


def test_the_longer_name_of_a_shown_section_holds_the_rows_short_one() -> None:
    shown = {"rooms": {"text": ROOMS, "title": "Guest rooms"}, "b": {"text": BUILDINGS}}
    report = check_answer(CLAIM, shown, checker=LexicalSupport())
    assert report.claims[0].verdict == "supported"
    # not without the section that gives the longer name
    alone = check_answer(CLAIM, {"rooms": shown["rooms"]}, checker=LexicalSupport())
    assert alone.claims[0].verdict != "supported"
